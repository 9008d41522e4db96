//! WebAssembly bindings of [`agent_input`]: the npm package `agent-input`.
//!
//! This crate holds no logic of its own. Each function turns its JavaScript arguments into JSON
//! text (`JSON.stringify` for values, the string itself for the `…Json` variants), hands that to
//! the core (`api.rs`), and turns the report back into plain objects with `JSON.parse`.
//! Going through text keeps one code path for values and text, lets the core borrow every
//! string from one buffer (a multi-megabyte base64 payload is copied into wasm memory once and
//! written into the body verbatim), and makes `validate(value)` check exactly what
//! `fetch(url, { body: JSON.stringify(value) })` would send.
//!
//! Bad input never throws: it comes back as errors. Only an argument of the wrong JavaScript type
//! (text that is not a string, options that are not an object, a value `JSON.stringify` cannot
//! write) throws a `TypeError`.
//!
//! The base entry's exports (`validate`, `convert`, …) are behind the default feature `base`: the
//! modules of `agent-input/agui`, `agent-input/register`, `agent-input/response` and
//! `agent-input/schema` are built without it, so they do not carry the base entry's conversion.
//! `parseResponse` is the entry `agent-input/response` (feature `response`), so the base module
//! does not carry the five response readers (docs/decisions/npm.md, "Entries").

// Without `base`, the helpers only the base exports use are unused.
#![cfg_attr(not(feature = "base"), allow(dead_code, unused_imports))]

#[cfg(feature = "agui")]
pub mod agui;
mod api;
#[cfg(feature = "boundary-bench")]
pub mod bench;
mod dto;
#[cfg(feature = "import")]
pub mod import;
#[cfg(feature = "models")]
pub mod models;
#[cfg(feature = "register")]
pub mod register;
#[cfg(feature = "response")]
pub mod response;
#[cfg(feature = "schema")]
pub mod schema;
mod text;
mod types;

/// The base exports' operations on text, natively: `examples/same_bytes.rs` runs them so the Node
/// tests can require the native build to give the modules' bytes (tests/node/same-bytes.test.mjs).
/// Not part of the package.
#[cfg(all(feature = "base", not(target_arch = "wasm32")))]
#[doc(hidden)]
pub mod native {
    use crate::api::{self, Subject};

    /// What `validateJson` (`input: false`) or `validateInput` (`input: true`) returns, as JSON
    /// text; `options` is the options' JSON text.
    #[must_use]
    pub fn validate(text: &str, input: bool, options: Option<&str>) -> String {
        let (options, report, model) = api::validate_model_options(options);
        let text = within(text, options.limits.max_body_bytes);
        api::validate(text, subject(input), &options, &report, model.as_deref())
    }

    /// What `convertJson` (`input: false`) or `convertInput` (`input: true`) returns: whether it
    /// converted, the report as JSON text (`body` in it still `null`) and the body.
    #[must_use]
    pub fn convert(text: &str, input: bool, options: &str) -> (bool, String, String) {
        let settings = api::convert_settings(options);
        let text = within(text, settings.0.validation.limits.max_body_bytes);
        let mut body = String::new();
        let (ok, report) = api::convert(text, subject(input), &settings.0, &settings.1, &mut body, None);
        (ok, if report.is_empty() { api::clean_report() } else { report }, body)
    }

    fn subject(input: bool) -> Subject {
        if input { Subject::Input } else { Subject::Request }
    }

    /// As `text::with_str_within` hands text to the core: its length alone when over the limit.
    fn within(text: &str, max: usize) -> api::Text<'_> {
        if text.len() > max { Err(text.len()) } else { Ok(text) }
    }
}

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Array, JSON, JsString, Reflect};
use wasm_bindgen::prelude::*;

use crate::api::Subject;

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The JSON text of a value, as `JSON.stringify` writes it. `BigInt`s and cycles make
/// `JSON.stringify` throw its own `TypeError`; `undefined`, functions and symbols have no JSON
/// text at all.
fn json_text(value: &JsValue, name: &str) -> Result<JsString, JsValue> {
    let text = JSON::stringify(value)?;
    if text.is_string() {
        Ok(text)
    } else {
        let got = value.js_typeof().as_string().unwrap_or_default();
        Err(type_error(&format!("{name} must be a JSON value, not {got}")))
    }
}

/// The text argument of a `…Json` function.
fn text_argument(text: &JsValue, name: &str) -> Result<JsString, JsValue> {
    text.dyn_ref::<JsString>().cloned().ok_or_else(|| {
        let got = text.js_typeof().as_string().unwrap_or_default();
        type_error(&format!("{name} must be a string of JSON, not {got}"))
    })
}

/// The JSON text of an options argument: `None` when absent (`undefined` or `null`), the text of
/// a plain object, a `TypeError` for anything else. Reading the options is the core's
/// ([`agent_input::options`]), which reports every bad option at its path. Options cross as
/// `JSON.stringify` text rather than through `serde-wasm-bindgen` for size and speed (measured in
/// docs/decisions.md, "The WebAssembly boundary").
fn options_json(options: &JsValue) -> Result<Option<JsString>, JsValue> {
    if options.is_undefined() || options.is_null() {
        return Ok(None);
    }
    if Array::is_array(options) {
        return Err(type_error("options must be an object, not an array"));
    }
    if !options.is_object() {
        let got = options.js_typeof().as_string().unwrap_or_default();
        return Err(type_error(&format!("options must be an object, not {got}")));
    }
    json_text(options, "options").map(Some)
}

/// `f` of [`options_json`]'s text, read into wasm memory as request text is
/// (`text::with_str_within`): wasm-bindgen's own conversion copies a string a character at a
/// time in JavaScript, which was a quarter of a small request's `convertJson`.
fn with_options<R>(options: &JsValue, f: impl FnOnce(Option<&str>) -> R) -> Result<R, JsValue> {
    Ok(match options_json(options)? {
        Some(text) => text::with_str_within(&text, usize::MAX, |text| f(Some(text.unwrap_or_default()))),
        None => f(None),
    })
}

/// The options as a JSON value (`null` when absent), for the entries that read them as one.
#[cfg(any(feature = "agui", feature = "register"))]
fn options_value(options: &JsValue) -> Result<serde_json::Value, JsValue> {
    with_options(options, |text| text.map_or(serde_json::Value::Null, agent_input::options::parse))
}

#[cfg(feature = "base")]
/// The body limit of the functions that take no options.
fn default_max() -> usize {
    agent_input::options::Limits::default().max_body_bytes
}

/// The options of the `validate` family, optional (the entries `agui` and `schema`; the base
/// entry's also take `model`).
#[cfg(any(feature = "agui", feature = "schema"))]
fn validate_options(options: &JsValue) -> Result<(agent_input::validate::Options, agent_input::Report), JsValue> {
    with_options(options, api::validate_options)
}

#[cfg(feature = "base")]
/// The options of the `convert` family, required (there is no default provider to convert to).
fn convert_options(options: &JsValue) -> Result<Rc<api::Settings>, JsValue> {
    with_options(options, |text| text.map(api::convert_settings))?
        .ok_or_else(|| type_error("options are required: { provider: 'bedrock-converse', ... }"))
}

#[cfg(feature = "base")]
/// The options of the base entry's `validate` family, `model` among them.
fn validate_model_options(options: &JsValue) -> Result<api::ValidateSettings, JsValue> {
    with_options(options, api::validate_model_options)
}

#[cfg(feature = "base")]
/// The validation report of JSON text, as plain objects.
fn validated(text: &JsString, subject: Subject, options: &api::ValidateSettings) -> Result<JsValue, JsValue> {
    let (options, report, model) = options;
    let max = options.limits.max_body_bytes;
    JSON::parse(&text::with_str_within(text, max, |text| {
        api::validate(text, subject, options, report, model.as_deref())
    }))
}

/// Talc, not Rust's default dlmalloc: a sixth of the code in the package's `.wasm`, growing the
/// memory as dlmalloc does (docs/decisions/npm.md, "The base module's size"). The module is
/// single-threaded. Node's module has it too: dlmalloc was no faster there.
#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[cfg(feature = "base")]
thread_local! {
    /// The body buffer, reused from one conversion to the next: wasm memory never shrinks, so
    /// keeping the buffer costs nothing, and a fresh multi-megabyte allocation would be most of
    /// the work for large media.
    static BODY: RefCell<String> = const { RefCell::new(String::new()) };
}

#[cfg(feature = "base")]
/// How a converted body is handed to JavaScript.
#[derive(Clone, Copy)]
enum BodyAs {
    /// Parsed into plain objects.
    Value,
    /// As JSON text.
    Text,
}

#[cfg(feature = "base")]
fn convert_text(
    text: &JsString,
    subject: Subject,
    options: &api::Settings,
    body_as: BodyAs,
) -> Result<JsValue, JsValue> {
    BODY.with_borrow_mut(|body| {
        let max = options.0.validation.limits.max_body_bytes;
        // Text out: large payloads (16 KiB and more, so never in shorter text) are spliced back in
        // JavaScript (`api::convert`, npm/splice.js).
        let units = text.length() as usize;
        let splice = (matches!(body_as, BodyAs::Text) && units >= 16 * 1024).then_some(units);
        let (ok, report) =
            text::with_str_within(text, max, |text| api::convert(text, subject, &options.0, &options.1, body, splice));
        // Converted with nothing to report, `convertJson` returns the body alone, and the
        // entries' wrapper (npm/splice.js) makes the result: no report written, read by
        // `JSON.parse` and given its body, for each of many small requests.
        if ok && report.is_empty() && matches!(body_as, BodyAs::Text) {
            return Ok(text::js_string(body));
        }
        let report = if report.is_empty() { api::clean_report() } else { report };
        let report = JSON::parse(&report)?;
        if ok {
            let value = match body_as {
                BodyAs::Value => JSON::parse(body)?,
                BodyAs::Text => text::js_string(body),
            };
            Reflect::set(&report, &JsValue::from_str("body"), &value)?;
        }
        Ok(report)
    })
}

#[cfg(feature = "base")]
/// Validates an `_execute` request body (`{ input, parameters }`), given as a JavaScript value.
///
/// Returns `{ valid, inputType, errors, warnings }` with every problem found, each with a code, a
/// JSON Pointer path into the request and a message. Throws only when `request` cannot be written
/// as JSON (`undefined`, a function, a `BigInt`, a cycle) or `options` is not an object.
#[wasm_bindgen(js_name = validate, unchecked_return_type = "ValidationReport")]
pub fn validate_request(
    #[wasm_bindgen(unchecked_param_type = "unknown")] request: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateRequestOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = validate_model_options(options)?;
    let text = json_text(request, "request")?;
    validated(&text, Subject::Request, &options)
}

#[cfg(feature = "base")]
/// Validates a bare input — text, an array of content blocks, or an array of messages — given as
/// a JavaScript value. Paths start at the input (`/0/source/format`).
#[wasm_bindgen(js_name = validateInput, unchecked_return_type = "ValidationReport")]
pub fn validate_input(
    #[wasm_bindgen(unchecked_param_type = "unknown")] input: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateRequestOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = validate_model_options(options)?;
    let text = json_text(input, "input")?;
    validated(&text, Subject::Input, &options)
}

#[cfg(feature = "base")]
/// Validates a request body given as JSON text, as it would be sent: the text is read once, in
/// place, so a request carrying megabytes of base64 is not copied through JavaScript values.
/// Text that is not JSON is an `invalid_json` error; text over `limits.maxBodyBytes` is
/// `too_large`, checked before parsing.
#[wasm_bindgen(js_name = validateJson, unchecked_return_type = "ValidationReport")]
pub fn validate_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateRequestOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = validate_model_options(options)?;
    let text = text_argument(text, "text")?;
    validated(&text, Subject::Request, &options)
}

#[cfg(feature = "base")]
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
    let options = convert_options(options)?;
    let text = json_text(request, "request")?;
    convert_text(&text, Subject::Request, &options, BodyAs::Value)
}

#[cfg(feature = "base")]
/// Like `convert`, for a bare input (text, content blocks or messages).
#[wasm_bindgen(js_name = convertInput, unchecked_return_type = "ConvertResult")]
pub fn convert_input(
    #[wasm_bindgen(unchecked_param_type = "AgentInput")] input: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConvertOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = convert_options(options)?;
    let text = json_text(input, "input")?;
    convert_text(&text, Subject::Input, &options, BodyAs::Value)
}

#[cfg(feature = "base")]
/// Like `convert`, for a request body given as JSON text, returning the body as JSON text ready
/// to send. Large base64 payloads are copied from the request text into the body verbatim. A
/// conversion with no error and no warning returns the body text alone, which the package's
/// entries (npm/splice.js) turn into the `ConvertJsonResult`.
#[wasm_bindgen(js_name = convertJson, unchecked_return_type = "ConvertJsonResult | string")]
pub fn convert_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ConvertOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = convert_options(options)?;
    let text = text_argument(text, "text")?;
    convert_text(&text, Subject::Request, &options, BodyAs::Text)
}

#[cfg(feature = "base")]
/// The `question` string ml-commons' agent runners read, extracted exactly as ml-commons does:
/// text unchanged; each non-blank text block trimmed and followed by a line break; for messages,
/// those after the last assistant message, joined with a line break. Returns `null` when the
/// input is not valid. For a request, pass its `input` (or the legacy `parameters.question`).
#[wasm_bindgen(js_name = extractQuestion, unchecked_return_type = "string | null")]
pub fn extract_question(
    #[wasm_bindgen(unchecked_param_type = "AgentInput")] input: &JsValue,
) -> Result<JsValue, JsValue> {
    let text = json_text(input, "input")?;
    Ok(text::with_str_within(&text, default_max(), api::question).map_or(JsValue::NULL, |q| JsValue::from_str(&q)))
}

#[cfg(feature = "base")]
/// The form of an input — `"TEXT"`, `"CONTENT_BLOCKS"` or `"MESSAGES"` — whenever it can be told,
/// also for input with errors (a blank string is still `"TEXT"`); `null` when it cannot (not a
/// string, not an array of one kind).
#[wasm_bindgen(js_name = detectInputType, unchecked_return_type = "InputType | null")]
pub fn detect_input_type(
    #[wasm_bindgen(unchecked_param_type = "unknown")] input: &JsValue,
) -> Result<JsValue, JsValue> {
    let text = json_text(input, "input")?;
    Ok(text::with_str_within(&text, default_max(), api::input_type)
        .map_or(JsValue::NULL, |t| JsValue::from_str(t.as_str())))
}

#[cfg(feature = "base")]
/// The version of the package (the wasm crate's own: the package's 0.x minor moves with its
/// breaking changes, such as `parseResponse` leaving the base entry).
#[wasm_bindgen(js_name = packageVersion)]
pub fn package_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
