//! WebAssembly bindings of [`agent_input`]: the npm package `agent-input`.
//!
//! This crate holds no logic of its own. Each function turns its JavaScript arguments into JSON
//! text (`JSON.stringify` for values, the string itself for the `…Json` variants), hands that to
//! the core through [`api`], and turns the report back into plain objects with `JSON.parse`.
//! Going through text keeps one code path for values and text, lets the core borrow every
//! string from one buffer (a multi-megabyte base64 payload is copied into wasm memory once and
//! written into the body verbatim), and makes `validate(value)` check exactly what
//! `fetch(url, { body: JSON.stringify(value) })` would send.
//!
//! Bad input never throws: it comes back as errors. Only an argument of the wrong JavaScript type
//! (text that is not a string, options that are not an object, a value `JSON.stringify` cannot
//! write) throws a `TypeError`.

mod api;
mod dto;
mod options;
mod types;

use js_sys::{Array, JSON, Reflect};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::api::Subject;

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The JSON text of a value, as `JSON.stringify` writes it. `BigInt`s and cycles make
/// `JSON.stringify` throw its own `TypeError`; `undefined`, functions and symbols have no JSON
/// text at all.
fn json_text(value: &JsValue, name: &str) -> Result<String, JsValue> {
    let text = JSON::stringify(value)?;
    text.as_string().ok_or_else(|| {
        let got = value.js_typeof().as_string().unwrap_or_default();
        type_error(&format!("{name} must be a JSON value, not {got}"))
    })
}

/// The text argument of a `…Json` function.
fn text_argument(text: &JsValue, name: &str) -> Result<String, JsValue> {
    text.as_string().ok_or_else(|| {
        let got = text.js_typeof().as_string().unwrap_or_default();
        type_error(&format!("{name} must be a string of JSON, not {got}"))
    })
}

/// An options argument: absent (`undefined` or `null`) or a plain object.
fn options_argument(options: &JsValue) -> Result<Value, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(Value::Null);
    }
    if !options.is_object() || Array::is_array(options) {
        let got = if Array::is_array(options) {
            "an array".into()
        } else {
            options.js_typeof().as_string().unwrap_or_default()
        };
        return Err(type_error(&format!("options must be an object, not {got}")));
    }
    let text = json_text(options, "options")?;
    // JSON.stringify output is JSON.
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Options required by the `convert` family: there is no default provider to convert to.
fn required_options(options: &JsValue) -> Result<Value, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Err(type_error("options are required: { provider: 'bedrock-converse', ... }"));
    }
    options_argument(options)
}

thread_local! {
    /// The body buffer, reused from one conversion to the next: wasm memory never shrinks, so
    /// keeping the buffer costs nothing, and a fresh multi-megabyte allocation would be most of
    /// the work for large media.
    static BODY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

/// How a converted body is handed to JavaScript.
#[derive(Clone, Copy)]
enum BodyAs {
    /// Parsed into plain objects.
    Value,
    /// As JSON text.
    Text,
}

fn convert_text(text: &str, subject: Subject, options: &Value, body_as: BodyAs) -> Result<JsValue, JsValue> {
    BODY.with_borrow_mut(|body| {
        let (ok, report) = api::convert(text, subject, options, body);
        let report = JSON::parse(&report)?;
        if ok {
            let value = match body_as {
                BodyAs::Value => JSON::parse(body)?,
                BodyAs::Text => JsValue::from_str(body),
            };
            Reflect::set(&report, &JsValue::from_str("body"), &value)?;
        }
        Ok(report)
    })
}

/// Validates an `_execute` request body (`{ input, parameters }`), given as a JavaScript value.
///
/// Returns `{ valid, inputType, errors, warnings }` with every problem found, each with a code, a
/// JSON Pointer path into the request and a message. Throws only when `request` cannot be written
/// as JSON (`undefined`, a function, a `BigInt`, a cycle) or `options` is not an object.
#[wasm_bindgen(js_name = validate, unchecked_return_type = "ValidationReport")]
pub fn validate_request(
    #[wasm_bindgen(unchecked_param_type = "unknown")] request: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = options_argument(options)?;
    let text = json_text(request, "request")?;
    JSON::parse(&api::validate(&text, Subject::Request, &options))
}

/// Validates a bare input — text, an array of content blocks, or an array of messages — given as
/// a JavaScript value. Paths start at the input (`/0/source/format`).
#[wasm_bindgen(js_name = validateInput, unchecked_return_type = "ValidationReport")]
pub fn validate_input(
    #[wasm_bindgen(unchecked_param_type = "unknown")] input: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = options_argument(options)?;
    let text = json_text(input, "input")?;
    JSON::parse(&api::validate(&text, Subject::Input, &options))
}

/// Validates a request body given as JSON text, as it would be sent: the text is read once, in
/// place, so a request carrying megabytes of base64 is not copied through JavaScript values.
/// Text that is not JSON is an `invalid_json` error; text over `limits.maxBodyBytes` is
/// `too_large`, checked before parsing.
#[wasm_bindgen(js_name = validateJson, unchecked_return_type = "ValidationReport")]
pub fn validate_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = options_argument(options)?;
    let text = text_argument(text, "text")?;
    JSON::parse(&api::validate(&text, Subject::Request, &options))
}

/// Validates a request body and converts it into the provider's request body.
///
/// Returns `{ ok: true, body, errors: [], warnings }` with the body as plain objects, or
/// `{ ok: false, errors, warnings }` with every reason it cannot be converted: the request's
/// errors, the options' errors (at `/options/<name>`), or what the provider cannot take.
#[wasm_bindgen(js_name = convert, unchecked_return_type = "ConvertResult")]
pub fn convert_request(
    #[wasm_bindgen(unchecked_param_type = "ExecuteRequest")] request: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConvertOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = required_options(options)?;
    let text = json_text(request, "request")?;
    convert_text(&text, Subject::Request, &options, BodyAs::Value)
}

/// Like `convert`, for a bare input (text, content blocks or messages).
#[wasm_bindgen(js_name = convertInput, unchecked_return_type = "ConvertResult")]
pub fn convert_input(
    #[wasm_bindgen(unchecked_param_type = "AgentInput")] input: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConvertOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = required_options(options)?;
    let text = json_text(input, "input")?;
    convert_text(&text, Subject::Input, &options, BodyAs::Value)
}

/// Like `convert`, for a request body given as JSON text, returning the body as JSON text ready
/// to send. Large base64 payloads are copied from the request text into the body verbatim.
#[wasm_bindgen(js_name = convertJson, unchecked_return_type = "ConvertJsonResult")]
pub fn convert_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConvertOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = required_options(options)?;
    let text = text_argument(text, "text")?;
    convert_text(&text, Subject::Request, &options, BodyAs::Text)
}

/// The `question` string ml-commons' agent runners read, extracted exactly as ml-commons does:
/// text unchanged; each non-blank text block trimmed and followed by a line break; for messages,
/// those after the last assistant message, joined with a line break. Returns `null` when the
/// input is not valid. For a request, pass its `input` (or the legacy `parameters.question`).
#[wasm_bindgen(js_name = extractQuestion, unchecked_return_type = "string | null")]
pub fn extract_question(
    #[wasm_bindgen(unchecked_param_type = "AgentInput")] input: &JsValue,
) -> Result<JsValue, JsValue> {
    let text = json_text(input, "input")?;
    Ok(api::question(&text).map_or(JsValue::NULL, |q| JsValue::from_str(&q)))
}

/// The form of an input — `"TEXT"`, `"CONTENT_BLOCKS"` or `"MESSAGES"` — whenever it can be told,
/// also for input with errors (a blank string is still `"TEXT"`); `null` when it cannot (not a
/// string, not an array of one kind).
#[wasm_bindgen(js_name = detectInputType, unchecked_return_type = "InputType | null")]
pub fn detect_input_type(
    #[wasm_bindgen(unchecked_param_type = "unknown")] input: &JsValue,
) -> Result<JsValue, JsValue> {
    let text = json_text(input, "input")?;
    Ok(api::input_type(&text).map_or(JsValue::NULL, |t| JsValue::from_str(t.as_str())))
}

/// The version of the package (and of the core crate it is built from).
#[wasm_bindgen(js_name = packageVersion)]
pub fn package_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
