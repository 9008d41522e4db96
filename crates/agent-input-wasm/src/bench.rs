//! Exports for `bench/npm/boundary.mjs` only, built with the feature `boundary-bench` (never in
//! the package): the ways across the boundary the binding could take, side by side in one module,
//! so the choice in docs/decisions.md ("The WebAssembly boundary") is measured, not guessed.

use agent_input::Report;
use agent_input::options::ConvertSettings;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::api::{self, Subject};

fn errors(settings: &(ConvertSettings, Report)) -> usize {
    settings.1.errors.len()
}

/// Convert options read through `serde-wasm-bindgen` into the core's reader; the error count.
#[wasm_bindgen(js_name = benchOptionsSerde)]
pub fn options_serde(options: &JsValue) -> Result<usize, JsValue> {
    let value: serde_json::Value = serde_wasm_bindgen::from_value(options.clone())?;
    Ok(errors(&ConvertSettings::read_json(&value)))
}

/// Convert options read through `JSON.stringify` and the core's JSON reader, every time (no
/// cache).
#[wasm_bindgen(js_name = benchOptionsText)]
pub fn options_text(options: &JsValue) -> Result<usize, JsValue> {
    let text = String::from(crate::json_text(options, "options")?);
    Ok(errors(&ConvertSettings::read_json(&agent_input::options::parse(&text))))
}

/// Convert options as the package reads them (`JSON.stringify`, then the cache by text).
#[wasm_bindgen(js_name = benchOptionsCached)]
pub fn options_cached(options: &JsValue) -> Result<usize, JsValue> {
    let text = String::from(crate::json_text(options, "options")?);
    Ok(errors(&api::convert_settings(&text)))
}

/// `validateJson` without options, the report built by `serde-wasm-bindgen`'s JSON-compatible
/// serializer (plain objects, not `Map`s) instead of `JSON.parse` of its text.
#[wasm_bindgen(js_name = benchValidateSerde)]
pub fn validate_serde(text: &JsValue) -> Result<JsValue, JsValue> {
    let text = crate::text_argument(text, "text")?;
    let options = agent_input::validate::Options::default();
    let serializer = serde_wasm_bindgen::Serializer::json_compatible();
    crate::text::with_str_within(&text, options.limits.max_body_bytes, |text| {
        api::validate_into(text, Subject::Request, &options, &Report::default(), None, |report| {
            report.serialize(&serializer)
        })
    })
    .map_err(JsValue::from)
}
