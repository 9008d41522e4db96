//! Anthropic Messages response → standard message.

use super::{
    ProviderResponse, Report, array, assistant, field, normalize_stop_reason, object, opt_string, root, string,
    tool_call, usage,
};
use crate::convert::ProviderId;
use crate::json::Json;
use crate::path::Path;

/// Reads a Messages response (`{"content": [blocks], "stop_reason", "usage"}`): `text` blocks and
/// `tool_use` blocks; thinking blocks are not part of a standard message.
///
/// # Errors
/// `invalid_json`, or `missing_field` / `invalid_field_type` with the path of the bad part.
pub fn parse_anthropic_messages(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    for (i, block) in array(root, &top, "content")?.iter().enumerate() {
        let path = top.key("content").index(i);
        let block = object(block, &path, "a content block")?;
        match string(block, &path, "type")? {
            "text" => texts.push(string(block, &path, "text")?.to_string()),
            "tool_use" => {
                let id = string(block, &path, "id")?;
                let name = string(block, &path, "name")?;
                let input = field(block, &path, "input")?;
                if !matches!(input, Json::Object(_)) {
                    return Err(super::wrong(&path.key("input"), "input", "object", input));
                }
                calls.push(tool_call(id, name, input.to_value().to_string()));
            }
            _ => {}
        }
    }
    let stop_reason = opt_string(root, &top, "stop_reason")?
        .map(|reason| normalize_stop_reason(ProviderId::AnthropicMessages, reason));
    Ok(ProviderResponse {
        message: assistant(texts, calls),
        stop_reason,
        usage: usage(root.get("usage").and_then(Json::as_object), "input_tokens", "output_tokens", None),
    })
}
