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

/// A conversation as the benchmark's conversation workloads write it, read into borrowed
/// strings and nothing more: no validation, no body.
#[derive(serde::Deserialize)]
struct Conversation<'a> {
    #[serde(borrow)]
    input: Vec<Message<'a>>,
}

#[derive(serde::Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    role: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    content: Vec<Block<'a>>,
}

#[derive(serde::Deserialize)]
struct Block<'a> {
    #[serde(borrow, rename = "type")]
    kind: std::borrow::Cow<'a, str>,
    #[serde(borrow)]
    text: std::borrow::Cow<'a, str>,
}

/// The least any converter of request text in this module does (bench/npm/bench.mjs `--floor`):
/// the text copied in as `convertJson` copies it, then read by `serde_json` into structs made for
/// exactly this shape; the bytes of its strings, or `None` for another shape.
#[wasm_bindgen(js_name = benchReadTyped)]
pub fn read_typed(text: &JsValue) -> Result<Option<usize>, JsValue> {
    let text = crate::text_argument(text, "text")?;
    Ok(crate::text::with_str_within(&text, usize::MAX, |text| {
        let conversation: Conversation<'_> = serde_json::from_str(text.ok()?).ok()?;
        let strings =
            |m: &Message<'_>| m.role.len() + m.content.iter().map(|b| b.kind.len() + b.text.len()).sum::<usize>();
        Some(conversation.input.iter().map(strings).sum())
    }))
}

/// Less still: the text copied in, and its JSON syntax checked by `serde_json`, nothing kept.
#[wasm_bindgen(js_name = benchReadSyntax)]
pub fn read_syntax(text: &JsValue) -> Result<bool, JsValue> {
    let text = crate::text_argument(text, "text")?;
    Ok(crate::text::with_str_within(&text, usize::MAX, |text| {
        text.is_ok_and(|text| serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok())
    }))
}
