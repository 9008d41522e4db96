//! Provider responses, read back into the standard format, and the execution result of an agent
//! run (seed 003's `AgentExecutionResult`).

use std::borrow::Cow;

use serde::Serialize;

use crate::convert::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::field::{Fields, Wording};
use crate::json::{Document, Json, Object};
use crate::model::{ContentBlock, Message, Role, ToolCall};
use crate::path::Path;

mod anthropic_messages;
mod bedrock_converse;
mod gemini;
mod openai_chat;
mod openai_responses;

pub use anthropic_messages::parse_anthropic_messages;
pub use bedrock_converse::parse_bedrock_converse;
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
    /// Input tokens read from the prompt cache, when reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_read_input_tokens: Option<u64>,
    /// Input tokens written to the prompt cache, when reported (Bedrock, Anthropic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_write_input_tokens: Option<u64>,
}

impl Usage {
    /// Counts without cache figures.
    pub const fn new(input_tokens: u64, output_tokens: u64, total_tokens: u64) -> Self {
        Self {
            input_tokens,
            output_tokens,
            total_tokens,
            cache_read_input_tokens: None,
            cache_write_input_tokens: None,
        }
    }
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
    /// The model's reasoning (thinking) text, when it shows it; not part of the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
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
    /// The model's reasoning (thinking) text in the final call, when it shows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
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
            reasoning: response.reasoning,
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
    let document = Document::parse(body)
        .map_err(|e| Diagnostic::new(Code::InvalidJson, Path::root(), format!("the response is not JSON: {e}")))?;
    object(&document.root, &Path::root(), "the response")?;
    Ok(document)
}

/// The response parsers' wording of field problems.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InResponse;

impl Wording for InResponse {
    fn missing(&self, field: Path, key: &str) -> Diagnostic {
        Diagnostic::new(Code::MissingField, field, format!("the response has no '{key}'"))
    }

    fn wrong_type(&self, field: Path, key: &str, expected: &'static str, found: &'static str) -> Diagnostic {
        wrong_type(field, key, expected, found)
    }
}

/// The fields of `object`, at `at`, of a response: an optional field may be `null`.
pub(crate) fn fields<'v, 'a, 'p>(object: &'v Object<'a>, at: &'p Path) -> Fields<'v, Object<'a>, &'p Path, InResponse> {
    Fields::new(object, at, InResponse)
}

/// `what`, at `path`, is a `found` (a JSON type name) where an `expected` is needed.
fn wrong_type(path: Path, what: &str, expected: &str, found: &str) -> Diagnostic {
    Diagnostic::new(Code::InvalidFieldType, path, format!("{what} in the response must be {expected}, not {found}"))
        .expected([expected])
        .received(found)
}

/// `found`, at `path`, is not the `expected` JSON type.
pub(crate) fn wrong(path: &Path, what: &str, expected: &str, found: &Json<'_>) -> Report {
    wrong_type(path.clone(), what, expected, found.type_name()).into()
}

/// A value that must be an object.
pub(crate) fn object<'v, 'a>(value: &'v Json<'a>, path: &Path, what: &str) -> Result<&'v Object<'a>, Report> {
    value.as_object().ok_or_else(|| wrong(path, what, "object", value))
}

/// Where a provider reports token counts, by key in its usage object; the cache counts may sit
/// in a nested object (`prompt_tokens_details/cached_tokens`).
pub(crate) struct UsageKeys {
    pub(crate) input: &'static str,
    pub(crate) output: &'static str,
    /// The total's key; the total is summed when the provider gives none.
    pub(crate) total: Option<&'static str>,
    pub(crate) cache_read: &'static [&'static str],
    pub(crate) cache_write: &'static [&'static str],
}

/// Token counts from a usage object.
pub(crate) fn usage(object: Option<&Object<'_>>, keys: &UsageKeys) -> Option<Usage> {
    let object = object?;
    let at = |path: &[&str]| {
        let (last, parents) = path.split_last()?;
        let mut here = object;
        for key in parents {
            here = here.get(key)?.as_object()?;
        }
        match here.get(last) {
            Some(Json::Number(n)) => n.as_u64(),
            _ => None,
        }
    };
    let (input_tokens, output_tokens) = (at(&[keys.input]).unwrap_or(0), at(&[keys.output]).unwrap_or(0));
    let total_tokens = keys.total.map_or(input_tokens + output_tokens, |key| at(&[key]).unwrap_or(0));
    Some(Usage {
        cache_read_input_tokens: at(keys.cache_read),
        cache_write_input_tokens: at(keys.cache_write),
        ..Usage::new(input_tokens, output_tokens, total_tokens)
    })
}

/// Reasoning texts joined by blank lines; `None` when there are none.
pub(crate) fn reasoning(texts: Vec<String>) -> Option<String> {
    let texts: Vec<String> = texts.into_iter().filter(|t| !t.trim().is_empty()).collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// A stop reason in seed 003's words: `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`,
/// `content_filtered`, and two more for what those cannot say: `malformed_output` (the model
/// wrote a tool call or an answer the provider could not read) and `pause_turn` (Anthropic
/// paused a long server-tool turn; send the answer back to continue). Each provider's documented
/// reasons are listed (botocore's `StopReason`, the `OpenAI` and Anthropic SDKs' literals,
/// google-genai's `FinishReason`); an unknown one is kept as the provider gives it.
pub fn normalize_stop_reason(provider: ProviderId, raw: &str) -> String {
    let normalized = match (provider, raw) {
        (_, "end_turn" | "stop" | "STOP" | "completed") => "end_turn",
        (_, "tool_use" | "tool_calls" | "function_call") => "tool_use",
        // The context window ends generation as max_tokens does.
        (_, "max_tokens" | "length" | "MAX_TOKENS" | "max_output_tokens" | "model_context_window_exceeded") => {
            "max_tokens"
        }
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
            | "IMAGE_SAFETY"
            | "IMAGE_PROHIBITED_CONTENT"
            | "IMAGE_RECITATION"
            | "MODEL_ARMOR",
        ) => "content_filtered",
        (
            _,
            "malformed_model_output"
            | "malformed_tool_use"
            | "MALFORMED_FUNCTION_CALL"
            | "MALFORMED_RESPONSE"
            | "UNEXPECTED_TOOL_CALL"
            | "TOO_MANY_TOOL_CALLS"
            | "MISSING_THOUGHT_SIGNATURE",
        ) => "malformed_output",
        (_, "pause_turn") => "pause_turn",
        _ => return raw.to_string(),
    };
    normalized.to_string()
}
