//! Provider responses, read back into the standard format, and the execution result of an agent
//! run (seed 003's `AgentExecutionResult`).

use std::borrow::Cow;

use serde::Serialize;

use crate::convert::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::json::{Document, Json, Object};
use crate::model::{ContentBlock, Message, Role, ToolCall};
use crate::path::Path;

/// Token counts reported by a provider.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens generated.
    pub output_tokens: u64,
    /// Their sum, as the provider reports it.
    pub total_tokens: u64,
}

/// One provider response in the standard format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProviderResponse {
    /// The assistant's message: text and tool calls.
    pub message: Message<'static>,
    /// Why generation stopped, in the provider's words (`end_turn`, `tool_use`, `max_tokens`, …).
    pub stop_reason: Option<String>,
    /// Token counts, when reported.
    pub usage: Option<Usage>,
}

/// The outcome of an agent run: the whole conversation and what the caller usually wants from it.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ExecutionResult {
    /// Every message, the input's and the model's.
    pub conversation: Vec<Message<'static>>,
    /// The model's last message, if it answered.
    pub final_response: Option<Message<'static>>,
    /// Tool calls in the final message.
    pub tool_uses_in_final_turn: Vec<ToolCall<'static>>,
    /// Why the model stopped.
    pub stop_reason: Option<String>,
    /// Token counts of the final call.
    pub usage: Option<Usage>,
    /// What went wrong, if the run failed.
    pub error: Option<String>,
    /// The first text block of the final response.
    pub primary_text: Option<String>,
}

impl ExecutionResult {
    /// A result whose conversation is `history` followed by the provider's answer.
    pub fn answered(mut history: Vec<Message<'static>>, response: ProviderResponse) -> Self {
        let message = response.message;
        history.push(message.clone());
        Self {
            conversation: history,
            primary_text: primary_text(&message),
            tool_uses_in_final_turn: message.tool_calls.clone(),
            final_response: Some(message),
            stop_reason: response.stop_reason,
            usage: response.usage,
            error: None,
        }
    }

    /// A result for a run that failed after `history` was sent.
    pub fn failed(history: Vec<Message<'static>>, error: impl Into<String>) -> Self {
        Self { conversation: history, error: Some(error.into()), ..Self::default() }
    }
}

/// The first non-empty text block of a message.
pub fn primary_text(message: &Message<'_>) -> Option<String> {
    message.content.iter().find_map(|block| match block {
        ContentBlock::Text(text) => Some(text.to_string()),
        _ => None,
    })
}

/// Reads a response body of the given provider.
///
/// # Errors
/// As the provider's reader: `invalid_json`, or `missing_field` / `invalid_field_type` with a path.
pub fn parse(provider: ProviderId, body: &str) -> Result<ProviderResponse, Report> {
    match provider {
        ProviderId::BedrockConverse => parse_bedrock_converse(body),
    }
}

/// Reads a Bedrock `Converse` response body (`{"output": {"message": ...}, "stopReason", "usage"}`).
///
/// Text and `toolUse` blocks become the standard message; blocks the standard format has no place
/// for in an assistant message (reasoning, citations, guard content) are not carried.
///
/// # Errors
/// `invalid_json` when the body is not JSON; `missing_field` / `invalid_field_type` at the path
/// of the response body that has the wrong shape.
pub fn parse_bedrock_converse(body: &str) -> Result<ProviderResponse, Report> {
    let document = Document::parse(body).map_err(|e| {
        single(Diagnostic::new(Code::InvalidJson, Path::root(), format!("the response is not JSON: {e}")))
    })?;
    let root = object(&document.root, &Path::root(), "the response")?;
    let output_path = Path::root().key("output");
    let output = object(field(root, &Path::root(), "output")?, &output_path, "output")?;
    let message_path = output_path.key("message");
    let message = object(field(output, &output_path, "message")?, &message_path, "output.message")?;
    let content_path = message_path.key("content");
    let content = match field(message, &message_path, "content")? {
        Json::Array(items) => items,
        other => return Err(wrong(&content_path, "output.message.content", "array", other)),
    };
    let mut blocks = Vec::new();
    let mut tool_calls = Vec::new();
    for (i, block) in content.iter().enumerate() {
        let path = content_path.index(i);
        let block = object(block, &path, "a content block")?;
        if let Some(text) = block.get("text") {
            match text {
                Json::String(text) if !text.trim().is_empty() => {
                    blocks.push(ContentBlock::Text(Cow::Owned(text.to_string())));
                }
                Json::String(_) => {}
                other => return Err(wrong(&path.key("text"), "text", "string", other)),
            }
        } else if let Some(tool_use) = block.get("toolUse") {
            let tool_path = path.key("toolUse");
            let tool_use = object(tool_use, &tool_path, "toolUse")?;
            let id = string(tool_use, &tool_path, "toolUseId")?;
            let name = string(tool_use, &tool_path, "name")?;
            let input = field(tool_use, &tool_path, "input")?;
            tool_calls.push(ToolCall {
                id: Cow::Owned(id.to_string()),
                kind: Cow::Borrowed("function"),
                name: Cow::Owned(name.to_string()),
                arguments: Cow::Owned(input.to_value().to_string()),
            });
        }
    }
    let stop_reason = match root.get("stopReason") {
        Some(Json::String(reason)) => Some(reason.to_string()),
        _ => None,
    };
    let usage = root.get("usage").and_then(Json::as_object).map(|usage| {
        let count = |key: &str| match usage.get(key) {
            Some(Json::Number(n)) => n.as_u64().unwrap_or(0),
            _ => 0,
        };
        Usage {
            input_tokens: count("inputTokens"),
            output_tokens: count("outputTokens"),
            total_tokens: count("totalTokens"),
        }
    });
    Ok(ProviderResponse {
        message: Message { role: Role::Assistant, content: blocks, tool_calls, tool_call_id: None },
        stop_reason,
        usage,
    })
}

fn single(diagnostic: Diagnostic) -> Report {
    let mut report = Report::default();
    report.push(diagnostic);
    report
}

fn wrong(path: &Path, what: &str, expected: &str, found: &Json<'_>) -> Report {
    single(
        Diagnostic::new(
            Code::InvalidFieldType,
            path.clone(),
            format!("{what} in the response must be {expected}, not {}", found.type_name()),
        )
        .expected([expected])
        .received(found.type_name()),
    )
}

fn object<'v, 'a>(value: &'v Json<'a>, path: &Path, what: &str) -> Result<&'v Object<'a>, Report> {
    value.as_object().ok_or_else(|| wrong(path, what, "object", value))
}

fn field<'v, 'a>(object: &'v Object<'a>, path: &Path, key: &str) -> Result<&'v Json<'a>, Report> {
    object.get(key).ok_or_else(|| {
        single(Diagnostic::new(Code::MissingField, path.key(key), format!("the response has no '{key}'")))
    })
}

fn string<'v>(object: &'v Object<'_>, path: &Path, key: &str) -> Result<&'v str, Report> {
    match field(object, path, key)? {
        Json::String(s) => Ok(s),
        other => Err(wrong(&path.key(key), key, "string", other)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(response.usage, Some(Usage { input_tokens: 12, output_tokens: 7, total_tokens: 19 }));
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
