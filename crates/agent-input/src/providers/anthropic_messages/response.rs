//! Anthropic Messages response → standard message.

use crate::diagnostic::Report;
use crate::json::Json;
use crate::path::Path;
use crate::reading::{ProviderResponse, UsageKeys, assistant, fields, object, reasoning, root, tool_call, usage};

/// Reads a Messages response (`{"content": [blocks], "stop_reason", "usage"}`): `text` blocks and
/// `tool_use` blocks; thinking blocks are the reasoning, not part of the message.
///
/// # Errors
/// `invalid_json`, or `missing_field` / `invalid_field_type` with the path of the bad part.
pub fn parse_anthropic_messages(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    let mut thoughts = Vec::new();
    for (i, block) in fields(root, &top).array("content")?.iter().enumerate() {
        let path = top.key("content").index(i);
        let block = fields(object(block, &path, "a content block")?, &path);
        match block.str("type")? {
            "text" => texts.push(block.str("text")?.to_string()),
            "tool_use" => {
                let id = block.str("id")?;
                let name = block.str("name")?;
                let input = serde_json::Value::Object(block.object("input")?.to_map());
                calls.push(tool_call(id, name, crate::json::compact(&input)));
            }
            "thinking" => thoughts.push(block.str("thinking")?.to_string()),
            _ => {}
        }
    }
    let stop_reason = fields(root, &top).optional_str("stop_reason")?.map(super::stop_reason);
    Ok(ProviderResponse {
        message: assistant(texts, calls),
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
