//! Bedrock `Converse` response → standard message.

use crate::diagnostic::Report;
use crate::json::Json;
use crate::path::Path;
use crate::providers::common::response::{
    ProviderResponse, StateItems, UsageKeys, assistant, fields, object, reasoning, root, tool_call, usage, wrong,
};
use crate::providers::id::ProviderId;

/// Reads a Bedrock `Converse` response body (`{"output": {"message": ...}, "stopReason", "usage"}`).
///
/// Text and `toolUse` blocks become the standard message and `reasoningContent` blocks its
/// reasoning state; other blocks (citations, guard content) are not carried.
///
/// # Errors
/// `invalid_json` when the body is not JSON; `missing_field` / `invalid_field_type` at the path
/// of the response body that has the wrong shape.
pub fn parse_bedrock_converse(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let output_path = top.key("output");
    let output = fields(root, &top).object("output")?;
    let message_path = output_path.key("message");
    let message = object(fields(output, &output_path).value("message")?, &message_path, "output.message")?;
    let content_path = message_path.key("content");
    let content = match fields(message, &message_path).value("content")? {
        Json::Array(items) => items,
        other => return Err(wrong(&content_path, "output.message.content", "array", other)),
    };
    let mut texts = Vec::new();
    let mut calls = Vec::new();
    let mut thoughts = Vec::new();
    let mut state = StateItems::default();
    for (i, block) in content.iter().enumerate() {
        let path = content_path.index(i);
        let block = object(block, &path, "a content block")?;
        if let Some(text) = block.get("text") {
            match text {
                Json::String(text) => {
                    state.text(text);
                    texts.push(text.to_string());
                }
                other => return Err(wrong(&path.key("text"), "text", "string", other)),
            }
        } else if let Some(tool_use) = block.get("toolUse") {
            let tool_path = path.key("toolUse");
            let tool_use = object(tool_use, &tool_path, "toolUse")?;
            let tool_fields = fields(tool_use, &tool_path);
            let id = tool_fields.str("toolUseId")?;
            let name = tool_fields.str("name")?;
            let input = tool_fields.value("input")?;
            state.call();
            calls.push(tool_call(id, name, crate::json::compact(&input.to_value())));
        } else if let Some(reasoning) = block.get("reasoningContent").and_then(Json::as_object) {
            if let Some(text) = reasoning
                .get("reasoningText")
                .and_then(Json::as_object)
                .and_then(|r| r.get("text"))
                .and_then(Json::as_str)
            {
                thoughts.push(text.to_string());
            }
            // With its signature, or redacted: sent back as given when the turn continues.
            state.block(serde_json::Value::Object(block.to_map()));
        }
    }
    let stop_reason = match root.get("stopReason") {
        Some(Json::String(reason)) => Some(stop_reason(reason)),
        _ => None,
    };
    let mut message = assistant(texts, calls);
    message.reasoning_state = state.into_state(ProviderId::BedrockConverse);
    Ok(ProviderResponse {
        message,
        stop_reason,
        usage: usage(root.get("usage").and_then(Json::as_object), &USAGE),
        reasoning: reasoning(thoughts),
    })
}

const USAGE: UsageKeys = UsageKeys {
    input: "inputTokens",
    output: "outputTokens",
    total: Some("totalTokens"),
    cache_read: &["cacheReadInputTokens"],
    cache_write: &["cacheWriteInputTokens"],
};

/// Bedrock Converse's documented stop reasons (botocore's `StopReason`) in the standard words.
pub(super) const STOP_REASONS: &[(&str, &str)] = &[
    ("end_turn", "end_turn"),
    ("tool_use", "tool_use"),
    ("max_tokens", "max_tokens"),
    ("model_context_window_exceeded", "max_tokens"),
    ("stop_sequence", "stop_sequence"),
    ("guardrail_intervened", "content_filtered"),
    ("content_filtered", "content_filtered"),
    ("malformed_model_output", "malformed_output"),
    ("malformed_tool_use", "malformed_output"),
];

/// A stop reason in the standard words; an unknown one is kept as given.
pub(super) fn stop_reason(raw: &str) -> String {
    crate::providers::common::response::stop_reason(STOP_REASONS, raw)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Code;
    use crate::model::{ContentBlock, Message};
    use crate::response::{ExecutionResult, Usage};

    #[test]
    fn reads_text_tool_use_stop_reason_and_usage() {
        let body = r#"{"output":{"message":{"role":"assistant","content":[
            {"text":"Let me check."},
            {"toolUse":{"toolUseId":"t1","name":"get_weather","input":{"city":"Seattle"}}}]}},
            "stopReason":"tool_use","usage":{"inputTokens":12,"outputTokens":7,"totalTokens":19},"metrics":{"latencyMs":5}}"#;
        let response = parse_bedrock_converse(body).unwrap();
        assert_eq!(response.message.content, vec![ContentBlock::text("Let me check.")]);
        assert_eq!(response.message.tool_calls[0].id, "t1");
        assert_eq!(response.message.tool_calls[0].arguments, r#"{"city":"Seattle"}"#);
        assert_eq!(response.stop_reason.as_deref(), Some("tool_use"));
        assert_eq!(response.usage, Some(Usage::new(12, 7, 19)));
        let result = ExecutionResult::answered(vec![Message::user(vec![ContentBlock::text("Weather?")])], response);
        assert_eq!(result.primary_text.as_deref(), Some("Let me check."));
        assert_eq!(result.conversation.len(), 2);
        assert_eq!(result.tool_uses_in_final_turn.len(), 1);
    }

    #[test]
    fn reports_the_path_of_a_bad_shape() {
        let error = parse_bedrock_converse(r#"{"output":{"message":{"content":"hi"}}}"#).unwrap_err();
        assert_eq!(error.errors[0].code, Code::InvalidFieldType);
        assert_eq!(error.errors[0].path.to_string(), "/output/message/content");
        let error = parse_bedrock_converse(r#"{"stopReason":"end_turn"}"#).unwrap_err();
        assert_eq!(error.errors[0].path.to_string(), "/output");
        assert_eq!(parse_bedrock_converse("nope").unwrap_err().errors[0].code, Code::InvalidJson);
    }
}
