//! What only the module of `agent-input/models` has beside the base entry's exports and
//! `importRequest`: the capability table of model families, read by `modelFamily`. The table's
//! rules run inside `validate` and `convert` (the core's feature `models`).

use agent_input::models::{Family, Support, Vendor};
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

/// The entry's own declarations.
#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &str = r#"
/** Whether a model family takes a feature, as the table's sources say: `"varies"` when some of
 * its models do and some do not, `"unknown"` when no source says. Only `"no"` is refused. */
export type ModelSupport = "yes" | "no" | "varies" | "unknown";

/** A family of models that take the same things: a row of the capability table. */
export interface ModelFamily {
  /** The family's stable id: `"gpt-4o"`, `"claude-4"`, `"gemini-2.5-pro"`. */
  id: string;
  /** For people: `"Claude 4 to 4.6 (extended thinking with a budget)"`. */
  name: string;
  vendor: "openai" | "anthropic" | "google" | "meta" | "amazon" | "mistral";
  imageInput: ModelSupport;
  pdfInput: ModelSupport;
  videoInput: ModelSupport;
  reasoning: ModelSupport;
  functionCalling: ModelSupport;
  systemMessages: ModelSupport;
  /** The most output tokens any model of the family writes; `null` when no source says. */
  maxOutputTokens: number | null;
}
"#;

/// The family of a model id as users write it (`"gpt-4o-2024-08-06"`, `"claude-sonnet-4-5"`,
/// `"us.anthropic.claude-sonnet-4-5-20250929-v1:0"`, `"models/gemini-2.5-flash"`), or `null` when
/// the table has none: `validate` and `convert` then warn `unknown_model` and check the provider's
/// own rules only.
#[wasm_bindgen(js_name = modelFamily, unchecked_return_type = "ModelFamily | null")]
pub fn model_family(#[wasm_bindgen(unchecked_param_type = "string")] id: &JsValue) -> Result<JsValue, JsValue> {
    let id = id.as_string().ok_or_else(|| crate::type_error("id must be a string"))?;
    agent_input::models::lookup(&id).map_or(Ok(JsValue::NULL), family)
}

/// The table's source: `LiteLLM`'s model map, its version and the day it was read.
#[wasm_bindgen(js_name = modelTableSource)]
pub fn model_table_source() -> String {
    agent_input::models::SOURCE.to_string()
}

fn family(family: &Family) -> Result<JsValue, JsValue> {
    let item = Object::new();
    let set = |key: &str, value: &JsValue| Reflect::set(&item, &JsValue::from_str(key), value).map(drop);
    set("id", &JsValue::from_str(family.id))?;
    set("name", &JsValue::from_str(family.name))?;
    set("vendor", &JsValue::from_str(vendor(family.vendor)))?;
    for (key, value) in [
        ("imageInput", family.image_input),
        ("pdfInput", family.pdf_input),
        ("videoInput", family.video_input),
        ("reasoning", family.reasoning),
        ("functionCalling", family.function_calling),
        ("systemMessages", family.system_messages),
    ] {
        set(key, &JsValue::from_str(support(value)))?;
    }
    set("maxOutputTokens", &family.max_output_tokens.map_or(JsValue::NULL, JsValue::from))?;
    Ok(item.into())
}

const fn support(value: Support) -> &'static str {
    match value {
        Support::Yes => "yes",
        Support::No => "no",
        Support::Varies => "varies",
        Support::Unknown => "unknown",
    }
}

const fn vendor(value: Vendor) -> &'static str {
    match value {
        Vendor::OpenAi => "openai",
        Vendor::Anthropic => "anthropic",
        Vendor::Google => "google",
        Vendor::Meta => "meta",
        Vendor::Amazon => "amazon",
        Vendor::Mistral => "mistral",
    }
}
