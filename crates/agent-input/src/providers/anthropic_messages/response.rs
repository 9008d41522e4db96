//! Anthropic Messages response → standard message.

use crate::diagnostic::Report;
use crate::json::Json;
use crate::path::Path;
use crate::providers::common::response::{
    Content, ProviderResponse, StateItems, UsageKeys, assistant_of, fields, object, reasoning, root, tool_call, usage,
};
use crate::providers::id::ProviderId;

/// Reads a Messages response (`{"content": [blocks], "stop_reason", "usage"}`): `text` blocks and
/// `tool_use` blocks; thinking blocks are the reasoning, not part of the message's text, and with
/// `redacted_thinking` blocks they are its reasoning state, as given; any other block (a server
/// tool's call or result) is a `provider_item` block where it stood.
///
/// # Errors
/// `invalid_json`, or `missing_field` / `invalid_field_type` with the path of the bad part.
pub fn parse_anthropic_messages(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let mut content = Content::default();
    let mut calls = Vec::new();
    let mut thoughts = Vec::new();
    let mut state = StateItems::default();
    for (i, block) in fields(root, &top).array("content")?.iter().enumerate() {
        let path = top.key("content").index(i);
        let raw = object(block, &path, "a content block")?;
        let block = fields(raw, &path);
        match block.str("type")? {
            "text" => content.text(block.str("text")?, &mut state),
            "tool_use" => {
                let id = block.str("id")?;
                let name = block.str("name")?;
                let input = serde_json::Value::Object(block.object("input")?.to_map());
                state.call();
                calls.push(tool_call(id, name, crate::json::compact(&input)));
            }
            "thinking" => {
                thoughts.push(block.str("thinking")?.to_string());
                state.block(serde_json::Value::Object(raw.to_map()));
            }
            // Anthropic requires both back, unmodified, when the turn continues.
            "redacted_thinking" => state.block(serde_json::Value::Object(raw.to_map())),
            // A server tool's call or result (web search, code execution, MCP, ...): the
            // provider's own, sent back to it as given when the conversation goes on.
            _ => content.item(ProviderId::AnthropicMessages, serde_json::Value::Object(raw.to_map()), &mut state),
        }
    }
    let stop_reason = fields(root, &top).optional_str("stop_reason")?.map(stop_reason);
    let mut message = assistant_of(content.blocks, calls);
    message.reasoning_state = state.into_state(ProviderId::AnthropicMessages);
    Ok(ProviderResponse {
        message,
        stop_reason,
        usage: usage(
            root.get("usage").and_then(Json::as_object),
            &UsageKeys {
                input: "input_tokens",
                output: "output_tokens",
                total: None,
                cache_read: &["cache_read_input_tokens"],
                cache_write: &["cache_creation_input_tokens"],
            },
        ),
        reasoning: reasoning(thoughts),
    })
}

/// Anthropic Messages's documented stop reasons (the Anthropic SDK's `stop_reason` literals) in the standard words.
pub(super) const STOP_REASONS: &[(&str, &str)] = &[
    ("end_turn", "end_turn"),
    ("tool_use", "tool_use"),
    ("max_tokens", "max_tokens"),
    ("model_context_window_exceeded", "max_tokens"),
    ("stop_sequence", "stop_sequence"),
    ("refusal", "content_filtered"),
    ("pause_turn", "pause_turn"),
];

/// A stop reason in the standard words; an unknown one is kept as given.
pub(super) fn stop_reason(raw: &str) -> String {
    crate::providers::common::response::stop_reason(STOP_REASONS, raw)
}
