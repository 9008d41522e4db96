//! Import, built with the `import` feature into the package's module `agent-input/import`:
//! `importRequest`, a provider's request body read into the standard request and the options it
//! implies, and with `{ to }` converted to another provider. The rules are the core's
//! ([`agent_input::import`]); `api.rs` writes the report.

use js_sys::{JSON, JsString, Reflect};
use wasm_bindgen::prelude::*;

use crate::{api, json_text, text, type_error};

/// The entry's own declarations (the shared ones are in `types.rs`).
#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &str = r#"
/** `importRequest`'s options: `to`, a provider to convert the imported request to. */
export interface ImportOptions {
  to?: ProviderId | MlCommonsProviderName;
}

/** `importRequest`'s outcome: the standard request and options read from a provider's request
 * body, with a target its body, and every problem at a JSON Pointer into the provider's body. */
export interface ImportResult {
  ok: boolean;
  /** The standard `_execute` request, `{ input }`; `null` when the body is not JSON. */
  request: { input?: AgentInput } | null;
  /** The conversion options the body implies, snake_case as `convert` also reads them
   * (`max_tokens`, `temperature`, `top_p`, `stop_sequences`, `tools`, `tool_choice`,
   * `response_format`, `prompt_cache`). */
  options: Record<string, unknown>;
  /** With `{ to }`: the target provider's body, or `null` when it cannot be built. */
  body?: ProviderRequest | null;
  errors: ValidationError[];
  warnings: ValidationWarning[];
}
"#;

/// Reads a provider's request body — JSON text, or the value itself — into the standard request:
/// `{ ok, request, options, errors, warnings }`, and with `{ to }` also `body`, that provider's
/// request. Every problem is at a JSON Pointer into the given body; what the standard input
/// cannot carry is a warning `import_dropped`, or an error `import_unsupported` where leaving it
/// out would change the conversation.
#[wasm_bindgen(js_name = importRequest, unchecked_return_type = "ImportResult")]
pub fn import_request(
    #[wasm_bindgen(unchecked_param_type = "ProviderId | MlCommonsProviderName")] provider: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] body: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let provider = provider.as_string().ok_or_else(|| type_error("provider must be a string"))?;
    let to = match options {
        options if options.is_undefined() || options.is_null() => None,
        options if options.is_object() => {
            let to = Reflect::get(options, &JsValue::from_str("to"))?;
            if to.is_undefined() || to.is_null() {
                None
            } else {
                Some(to.as_string().ok_or_else(|| type_error("options.to must be a string"))?)
            }
        }
        _ => return Err(type_error("options must be an object")),
    };
    let text = match body.dyn_ref::<JsString>() {
        Some(text) => text.clone(),
        None => json_text(body, "body")?,
    };
    JSON::parse(&text::with_str(&text, |text| api::import_request(&provider, text, to.as_deref())))
}
