//! `OpenAI` Responses response → standard message.

use crate::diagnostic::Report;
use crate::json::Json;
use crate::path::Path;
use crate::reading::{ProviderResponse, UsageKeys, assistant, fields, object, reasoning, root, tool_call, usage};

/// Reads a Responses response (`{"output": [items], "status", "incomplete_details", "usage"}`):
/// `message` items give text (`output_text`, and `refusal`), `function_call` items give tool
/// calls; reasoning and other items are not part of a standard message.
///
/// # Errors
/// `invalid_json`, or `missing_field` / `invalid_field_type` with the path of the bad part.
pub fn parse_openai_responses(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    let mut thoughts = Vec::new();
    for (i, item) in fields(root, &top).array("output")?.iter().enumerate() {
        let path = top.key("output").index(i);
        let item = object(item, &path, "an output item")?;
        match fields(item, &path).str("type")? {
            "message" => {
                for (j, part) in fields(item, &path).array("content")?.iter().enumerate() {
                    let part_path = path.key("content").index(j);
                    let part = object(part, &part_path, "a content part")?;
                    match fields(part, &part_path).optional_str("type")? {
                        Some("output_text") => texts.push(fields(part, &part_path).str("text")?.to_string()),
                        Some("refusal") => texts.push(fields(part, &part_path).str("refusal")?.to_string()),
                        _ => {}
                    }
                }
            }
            "function_call" => {
                let id = fields(item, &path).str("call_id")?;
                let name = fields(item, &path).str("name")?;
                let arguments = fields(item, &path).optional_str("arguments")?.unwrap_or_default();
                let arguments = if arguments.trim().is_empty() { "{}" } else { arguments };
                calls.push(tool_call(id, name, arguments.to_string()));
            }
            // Its summary, and its full text where the model shows it.
            "reasoning" => {
                for key in ["summary", "content"] {
                    for part in item.get(key).and_then(Json::as_array).unwrap_or_default() {
                        if let Some(text) = part.as_object().and_then(|p| p.get("text")).and_then(Json::as_str) {
                            thoughts.push(text.to_string());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let status = fields(root, &top).optional_str("status")?;
    let incomplete = root
        .get("incomplete_details")
        .and_then(Json::as_object)
        .and_then(|details| details.get("reason"))
        .and_then(Json::as_str);
    let stop_reason = match (status, incomplete) {
        (_, Some(reason)) => Some(super::stop_reason(reason)),
        (Some("completed"), None) if !calls.is_empty() => Some("tool_use".to_string()),
        (Some(status), None) => Some(super::stop_reason(status)),
        (None, None) => None,
    };
    Ok(ProviderResponse {
        message: assistant(texts, calls),
        stop_reason,
        usage: usage(
            root.get("usage").and_then(Json::as_object),
            &UsageKeys {
                input: "input_tokens",
                output: "output_tokens",
                total: Some("total_tokens"),
                cache_read: &["input_tokens_details", "cached_tokens"],
                cache_write: &[],
            },
        ),
        reasoning: reasoning(thoughts),
    })
}
