//! Provider responses, read back into the standard format, and the execution result of an agent
//! run (seed 003's `AgentExecutionResult`).

use std::borrow::Cow;

use serde::Serialize;

use crate::convert::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::json::{Document, Json, Object};
use crate::model::{ContentBlock, Message, Role, ToolCall};
use crate::path::Path;

mod anthropic_messages;
mod gemini;
mod openai_chat;
mod openai_responses;

pub use anthropic_messages::parse_anthropic_messages;
pub use gemini::parse_gemini;
pub use openai_chat::parse_openai_chat;
pub use openai_responses::parse_openai_responses;

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
    /// Why generation stopped, normalized to seed 003's (Anthropic's) words: `end_turn`,
    /// `tool_use`, `max_tokens`, `stop_sequence`, `content_filtered`; any other reason is kept
    /// as the provider gives it.
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
        ProviderId::OpenAiChat => parse_openai_chat(body),
        ProviderId::OpenAiResponses => parse_openai_responses(body),
        ProviderId::AnthropicMessages => parse_anthropic_messages(body),
        ProviderId::Gemini => parse_gemini(body),
    }
}

/// The assistant message of text blocks (blank ones skipped) and tool calls.
pub(crate) fn assistant(texts: Vec<String>, tool_calls: Vec<ToolCall<'static>>) -> Message<'static> {
    let content =
        texts.into_iter().filter(|t| !t.trim().is_empty()).map(|t| ContentBlock::Text(Cow::Owned(t))).collect();
    Message { role: Role::Assistant, content, tool_calls, tool_call_id: None }
}

/// A standard tool call.
pub(crate) fn tool_call(id: &str, name: &str, arguments: String) -> ToolCall<'static> {
    ToolCall {
        id: Cow::Owned(id.to_string()),
        kind: Cow::Borrowed("function"),
        name: Cow::Owned(name.to_string()),
        arguments: Cow::Owned(arguments),
    }
}

/// Parses a body into its root object.
pub(crate) fn root(body: &str) -> Result<Document<'_>, Report> {
    let document = Document::parse(body).map_err(|e| {
        single(Diagnostic::new(Code::InvalidJson, Path::root(), format!("the response is not JSON: {e}")))
    })?;
    object(&document.root, &Path::root(), "the response")?;
    Ok(document)
}

/// An array field.
pub(crate) fn array<'v, 'a>(object: &'v Object<'a>, path: &Path, key: &str) -> Result<&'v [Json<'a>], Report> {
    match field(object, path, key)? {
        Json::Array(items) => Ok(items),
        other => Err(wrong(&path.key(key), key, "array", other)),
    }
}

/// An optional string field (absent or null: `None`).
pub(crate) fn opt_string<'v>(object: &'v Object<'_>, path: &Path, key: &str) -> Result<Option<&'v str>, Report> {
    match object.get(key) {
        None | Some(Json::Null) => Ok(None),
        Some(Json::String(s)) => Ok(Some(s)),
        Some(other) => Err(wrong(&path.key(key), key, "string", other)),
    }
}

/// Token counts from an object with the given keys; the total is summed when not given.
pub(crate) fn usage(object: Option<&Object<'_>>, input: &str, output: &str, total: Option<&str>) -> Option<Usage> {
    let object = object?;
    let count = |key: &str| match object.get(key) {
        Some(Json::Number(n)) => n.as_u64().unwrap_or(0),
        _ => 0,
    };
    let (input_tokens, output_tokens) = (count(input), count(output));
    let total_tokens = total.map_or(input_tokens + output_tokens, count);
    Some(Usage { input_tokens, output_tokens, total_tokens })
}

/// A stop reason in seed 003's words.
pub fn normalize_stop_reason(provider: ProviderId, raw: &str) -> String {
    let normalized = match (provider, raw) {
        (_, "end_turn" | "stop" | "STOP" | "completed") => "end_turn",
        (_, "tool_use" | "tool_calls" | "function_call") => "tool_use",
        (_, "max_tokens" | "length" | "MAX_TOKENS" | "max_output_tokens") => "max_tokens",
        (_, "stop_sequence") => "stop_sequence",
        (
            _,
            "content_filtered"
            | "guardrail_intervened"
            | "content_filter"
            | "refusal"
            | "SAFETY"
            | "RECITATION"
            | "BLOCKLIST"
            | "PROHIBITED_CONTENT"
            | "SPII"
            | "IMAGE_SAFETY",
        ) => "content_filtered",
        _ => return raw.to_string(),
    };
    normalized.to_string()
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
        Some(Json::String(reason)) => Some(normalize_stop_reason(ProviderId::BedrockConverse, reason)),
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

pub(crate) fn single(diagnostic: Diagnostic) -> Report {
    let mut report = Report::default();
    report.push(diagnostic);
    report
}

pub(crate) fn wrong(path: &Path, what: &str, expected: &str, found: &Json<'_>) -> Report {
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

pub(crate) fn object<'v, 'a>(value: &'v Json<'a>, path: &Path, what: &str) -> Result<&'v Object<'a>, Report> {
    value.as_object().ok_or_else(|| wrong(path, what, "object", value))
}

pub(crate) fn field<'v, 'a>(object: &'v Object<'a>, path: &Path, key: &str) -> Result<&'v Json<'a>, Report> {
    object.get(key).ok_or_else(|| {
        single(Diagnostic::new(Code::MissingField, path.key(key), format!("the response has no '{key}'")))
    })
}

pub(crate) fn string<'v>(object: &'v Object<'_>, path: &Path, key: &str) -> Result<&'v str, Report> {
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
