//! `OpenAI` Responses response → standard message.

use crate::diagnostic::Report;
use crate::json::Json;
use crate::path::Path;
use crate::providers::common::response::{
    Content, ProviderResponse, StateItems, UsageKeys, assistant_of, fields, object, reasoning, root, tool_call, usage,
};
use crate::providers::id::ProviderId;

/// Reads a Responses response (`{"output": [items], "status", "incomplete_details", "usage"}`):
/// `message` items give text (`output_text`, and `refusal`), `function_call` items give tool
/// calls; reasoning items, with the ids of the items that follow them, are the message's
/// reasoning state; any other item (a built-in tool's call) is a `provider_item` block where it
/// stood.
///
/// # Errors
/// `invalid_json`, or `missing_field` / `invalid_field_type` with the path of the bad part.
pub fn parse_openai_responses(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let mut content = Content::default();
    let mut calls = Vec::new();
    let mut thoughts = Vec::new();
    let mut state = StateItems::default();
    for (i, item) in fields(root, &top).array("output")?.iter().enumerate() {
        let path = top.key("output").index(i);
        let item = object(item, &path, "an output item")?;
        match fields(item, &path).str("type")? {
            "message" => {
                let item_id = fields(item, &path).optional_str("id")?;
                let before = content.blocks.len();
                for (j, part) in fields(item, &path).array("content")?.iter().enumerate() {
                    let part_path = path.key("content").index(j);
                    let part = object(part, &part_path, "a content part")?;
                    let text = match fields(part, &part_path).optional_str("type")? {
                        Some("output_text") => fields(part, &part_path).str("text")?,
                        Some("refusal") => fields(part, &part_path).str("refusal")?,
                        _ => continue,
                    };
                    // The item's id pairs it with the reasoning item before it.
                    if let Some(id) = item_id.filter(|_| !text.trim().is_empty()) {
                        state.on(state.next_text(), "id", id);
                    }
                    content.text(text, &mut state);
                }
                // A message with no text still follows its reasoning item: it goes back as given.
                if item_id.is_some() && content.no_text_since(before) {
                    state.block(serde_json::Value::Object(item.to_map()));
                }
            }
            "function_call" => {
                let id = fields(item, &path).str("call_id")?;
                let name = fields(item, &path).str("name")?;
                let arguments = fields(item, &path).optional_str("arguments")?.unwrap_or_default();
                let arguments = if arguments.trim().is_empty() { "{}" } else { arguments };
                if let Some(item_id) = fields(item, &path).optional_str("id")? {
                    state.on(state.next_call(), "id", item_id);
                }
                state.call();
                calls.push(tool_call(id, name, arguments.to_string()));
            }
            // Its summary, and its full text where the model shows it; the item itself (with its
            // `encrypted_content` when asked for) is reasoning state.
            "reasoning" => {
                state.block(serde_json::Value::Object(item.to_map()));
                for key in ["summary", "content"] {
                    for part in item.get(key).and_then(Json::as_array).unwrap_or_default() {
                        if let Some(text) = part.as_object().and_then(|p| p.get("text")).and_then(Json::as_str) {
                            thoughts.push(text.to_string());
                        }
                    }
                }
            }
            // A built-in tool's call (web search, file search, code interpreter, MCP, ...) or any
            // other item: the provider's own, sent back to it as given when the conversation
            // goes on.
            _ => content.item(ProviderId::OpenAiResponses, serde_json::Value::Object(item.to_map()), &mut state),
        }
    }
    let status = fields(root, &top).optional_str("status")?;
    let incomplete = root
        .get("incomplete_details")
        .and_then(Json::as_object)
        .and_then(|details| details.get("reason"))
        .and_then(Json::as_str);
    let stop_reason = match (status, incomplete) {
        (_, Some(reason)) => Some(stop_reason(reason)),
        (Some("completed"), None) if !calls.is_empty() => Some("tool_use".to_string()),
        (Some(status), None) => Some(stop_reason(status)),
        (None, None) => None,
    };
    let mut message = assistant_of(content.blocks, calls);
    message.reasoning_state = state.into_state(ProviderId::OpenAiResponses);
    Ok(ProviderResponse {
        message,
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

/// `OpenAI` Responses's documented stop reasons (the `OpenAI` SDK's response `status` and `incomplete_details.reason` literals) in the standard words.
pub(super) const STOP_REASONS: &[(&str, &str)] =
    &[("completed", "end_turn"), ("max_output_tokens", "max_tokens"), ("content_filter", "content_filtered")];

/// A stop reason in the standard words; an unknown one is kept as given.
pub(super) fn stop_reason(raw: &str) -> String {
    crate::providers::common::response::stop_reason(STOP_REASONS, raw)
}
