//! Import, built with the `import` feature into the package's module `agent-input/import`:
//! `importRequest`, a provider's request body read into the standard request and the options it
//! implies, and with `{ to }` converted to another provider; `providers`, `providerForUrl` and
//! `providerForBody`, what a page needs to offer the providers and tell which one a pasted
//! request is for. The rules are the core's ([`agent_input::import`]); `api.rs` writes the report.

use agent_input::{Limits, ProviderId, validate};
use js_sys::{Array, JSON, JsString, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::{api, json_text, text, type_error};

/// The entry's own declarations (the shared ones are in `types.rs`; `importRequest`'s overloads
/// are in npm/import.d.ts).
#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &str = r#"
/** A provider `providers()` lists: its id and its name for people. */
export interface ProviderInfo {
  id: ProviderId;
  name: string;
}

/** `importRequest`'s options: `to`, a provider to convert the imported request to (the result
 * then carries that provider's `body`); with `to`, `only` asks for the target body alone, reported
 * as `convert` (`"body"`) or `convertJson` (`"bodyJson"`, the body as JSON text) report one:
 * `{ ok, body, errors, warnings }`, without the standard request and options, which are then
 * neither written nor read back. */
export type ImportOptions =
  | { to?: ProviderId | MlCommonsProviderName; only?: undefined }
  | { to: ProviderId | MlCommonsProviderName; only: "body" | "bodyJson" };

/** `importRequest`'s outcome: the standard request and options read from a provider's request
 * body, with a target (`Body`, `ProviderRequest`) its body, and every problem at a JSON Pointer
 * into the provider's body. Narrows on `ok`. */
export type ImportResult<Body extends ProviderRequest | undefined = ProviderRequest | undefined> =
  | {
      ok: true;
      /** The standard `_execute` request, `{ input }`. */
      request: { input: AgentInput };
      /** The conversion options the body implies, snake_case as `convert` also reads them
       * (`max_tokens`, `temperature`, `top_p`, `stop_sequences`, `tools`, `tool_choice`,
       * `response_format`, `prompt_cache`, `reasoning`, `model`, and `provider_fields`: the body's
       * own fields that have no standard place, for its provider). */
      options: Record<string, unknown>;
      /** With `to`: the target provider's body; absent without. */
      body: Body;
      errors: [];
      warnings: ValidationWarning[];
    }
  | {
      ok: false;
      /** What could be read of the standard request; `null` when the body is not JSON. */
      request: { input?: AgentInput } | null;
      options: Record<string, unknown>;
      /** With `to`: `null`, no body can be built; absent without. */
      body: Body extends undefined ? undefined : null;
      errors: ValidationError[];
      warnings: ValidationWarning[];
    };
"#;

/// What `importRequest` returns: the whole import, or with `only` the target body alone.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Only {
    Body,
    BodyJson,
}

/// Reads a provider's request body — JSON text, or the value itself — into the standard request:
/// `{ ok, request, options, errors, warnings }`, and with `{ to }` also `body`, that provider's
/// request. With `{ to, only }`, the body alone: `{ ok, body, errors, warnings }`, the body a value
/// (`"body"`) or JSON text (`"bodyJson"`). Every problem is at a JSON Pointer into the given body;
/// the request's own fields are carried as the option `provider_fields`; what else the standard
/// input cannot carry is a warning `import_dropped`, or an error `import_unsupported` where
/// leaving it out would change the conversation.
#[wasm_bindgen(js_name = importRequest, unchecked_return_type = "ImportResult")]
pub fn import_request(
    #[wasm_bindgen(unchecked_param_type = "ProviderId | MlCommonsProviderName")] provider: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] body: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let provider = provider.as_string().ok_or_else(|| type_error("provider must be a string"))?;
    let (to, only) = match options {
        options if options.is_undefined() || options.is_null() => (None, None),
        options if options.is_object() => (option(options, "to")?, option(options, "only")?),
        _ => return Err(type_error("options must be an object")),
    };
    let only = match only.as_deref() {
        None => None,
        Some("body") => Some(Only::Body),
        Some("bodyJson") => Some(Only::BodyJson),
        Some(_) => return Err(type_error("options.only must be \"body\" or \"bodyJson\"")),
    };
    let text = match body.dyn_ref::<JsString>() {
        Some(text) => text.clone(),
        None => json_text(body, "body")?,
    };
    match (to, only) {
        (None, Some(_)) => Err(type_error("options.only needs options.to, the provider whose body to return")),
        (Some(to), Some(only)) => {
            let (as_text, units) = (only == Only::BodyJson, Some(text.length() as usize));
            let (report, body, spans) =
                text::with_str(&text, |source| api::import_body(&provider, source, &to, as_text, units));
            let result = JSON::parse(&report)?;
            if let Some(body) = body {
                #[cfg(feature = "speed")]
                let body = text::spliced(&body, &text, &spans);
                #[cfg(not(feature = "speed"))]
                let body: JsString = {
                    debug_assert!(spans.is_empty(), "the browsers' module leaves nothing out");
                    text::js_string(&body).unchecked_into()
                };
                let body = if as_text { body.into() } else { parse(&body)? };
                Reflect::set(&result, &JsValue::from_str("body"), &body)?;
            }
            Ok(result)
        }
        (to, None) => JSON::parse(&text::with_str(&text, |text| api::import_request(&provider, text, to.as_deref()))),
    }
}

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JavaScript string (js_sys's takes a Rust one).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn parse(text: &JsString) -> Result<JsValue, JsValue>;
}

/// `options[name]`: `None` when absent (`undefined` or `null`), a `TypeError` when not a string.
fn option(options: &JsValue, name: &str) -> Result<Option<String>, JsValue> {
    let value = Reflect::get(options, &JsValue::from_str(name))?;
    if value.is_undefined() || value.is_null() {
        return Ok(None);
    }
    value.as_string().map(Some).ok_or_else(|| type_error(&format!("options.{name} must be a string")))
}

/// Every provider, `[{ id, name }]`: the id `importRequest` takes and the name to show people.
#[wasm_bindgen(unchecked_return_type = "ProviderInfo[]")]
pub fn providers() -> Result<Array, JsValue> {
    let list = Array::new();
    for provider in ProviderId::ALL {
        let item = Object::new();
        Reflect::set(&item, &JsValue::from_str("id"), &JsValue::from_str(provider.as_str()))?;
        Reflect::set(&item, &JsValue::from_str("name"), &JsValue::from_str(provider.display_name()))?;
        list.push(&item);
    }
    Ok(list)
}

/// The provider whose API an endpoint URL names (`…/chat/completions`, `…/model/{id}/converse`,
/// `…:generateContent`, …), read from its path; `null` when none.
#[wasm_bindgen(js_name = providerForUrl, unchecked_return_type = "ProviderId | null")]
pub fn provider_for_url(#[wasm_bindgen(unchecked_param_type = "string")] url: &JsValue) -> Result<JsValue, JsValue> {
    let url = url.as_string().ok_or_else(|| type_error("url must be a string"))?;
    Ok(id(agent_input::import::provider_for_url(&url)))
}

/// The provider a request body's shape names (JSON text, or the value itself), when one alone
/// fits; `null` when the body is not a JSON object, fits none, or has the marks of more than one.
#[wasm_bindgen(js_name = providerForBody, unchecked_return_type = "ProviderId | null")]
pub fn provider_for_body(#[wasm_bindgen(unchecked_param_type = "unknown")] body: &JsValue) -> Result<JsValue, JsValue> {
    let text = match body.dyn_ref::<JsString>() {
        Some(text) => text.clone(),
        None => json_text(body, "body")?,
    };
    let limits = Limits::default();
    let provider = text::with_str_within(&text, limits.max_body_bytes, |text| {
        let document = validate::parse(text.ok()?, &limits).ok()?;
        agent_input::import::provider_for_body(&document.root.to_value())
    });
    Ok(id(provider))
}

/// A provider's id, or `null`.
fn id(provider: Option<ProviderId>) -> JsValue {
    provider.map_or(JsValue::NULL, |p| JsValue::from_str(p.as_str()))
}
