//! Response reading, built with the `response` feature into the package's module
//! `agent-input/response`: `parseResponse`, a provider's response body read into the standard
//! message. Its own module because the five providers' response readers are about 10 KB gzip the
//! base module, which converts requests, does not need (docs/decisions/npm.md, "Entries"). The
//! rules are the core's ([`agent_input::response`]); `api.rs` writes the report.

use js_sys::{JSON, JsString};
use wasm_bindgen::prelude::*;

use crate::{api, json_text, text, type_error};

/// Reads a provider's response body — JSON text as received, or the parsed value — into the
/// standard format: `{ ok: true, message, stopReason, usage, errors: [] }` with the assistant's
/// text and tool calls, the stop reason normalized (`end_turn`, `tool_use`, `max_tokens`,
/// `stop_sequence`, `content_filtered`) and token counts (or `null`); or `{ ok: false, errors }`
/// when the body has the wrong shape or the provider is unknown.
#[wasm_bindgen(js_name = parseResponse, unchecked_return_type = "ResponseResult")]
pub fn parse_response(
    #[wasm_bindgen(unchecked_param_type = "ProviderId | MlCommonsProviderName")] provider: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "unknown")] body: &JsValue,
) -> Result<JsValue, JsValue> {
    let provider = provider.as_string().ok_or_else(|| type_error("provider must be a string"))?;
    let text = match body.dyn_ref::<JsString>() {
        Some(text) => text.clone(),
        None => json_text(body, "body")?,
    };
    // Responses have no size limit of their own: the caller has received them.
    JSON::parse(&text::with_str(&text, |text| api::parse_response(&provider, text)))
}
