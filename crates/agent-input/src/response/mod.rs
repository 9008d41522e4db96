//! Provider responses, read back into the standard format, and the execution result of an agent
//! run (ml-commons' `AgentExecutionResult`). Each provider's reader lives in its folder under
//! `providers/`; this module dispatches on [`ProviderId`].

use serde::Serialize;

use crate::diagnostic::Report;
use crate::model::{ContentBlock, Message, ToolCall};
use crate::providers::dispatch;
use crate::providers::id::ProviderId;

pub use crate::providers::common::response::{ProviderResponse, Usage};
pub use crate::providers::public::response::*;

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
    dispatch::parse_response(provider, body)
}

/// A stop reason in Anthropic's words: `end_turn`, `tool_use`, `max_tokens`, `stop_sequence`,
/// `content_filtered`, and two more for what those cannot say: `malformed_output` (the model
/// wrote a tool call or an answer the provider could not read) and `pause_turn` (Anthropic
/// paused a long server-tool turn; send the answer back to continue). Each provider's documented
/// reasons are listed (botocore's `StopReason`, the `OpenAI` and Anthropic SDKs' literals,
/// google-genai's `FinishReason`); an unknown one is kept as the provider gives it.
pub fn normalize_stop_reason(provider: ProviderId, raw: &str) -> String {
    dispatch::stop_reason(provider, raw)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Response shapes from each provider's API reference: Converse `usage` and
    // `reasoningContent`; Anthropic `thinking` blocks and `cache_*_input_tokens`; OpenAI
    // `*_tokens_details.cached_tokens` and Responses `reasoning` items; Gemini `thought` parts
    // and `cachedContentTokenCount`.
    #[test]
    fn reasoning_and_cache_counts_are_read_for_every_provider() {
        // Provider, body, the reasoning, and the cache counts read and written.
        type Case = (ProviderId, &'static str, Option<&'static str>, Option<u64>, Option<u64>);
        let cases: [Case; 5] = [
            (
                ProviderId::BedrockConverse,
                r#"{"output":{"message":{"role":"assistant","content":[
                {"reasoningContent":{"reasoningText":{"text":"Think.","signature":"s"}}},{"text":"Hi"}]}},
                "stopReason":"end_turn","usage":{"inputTokens":10,"outputTokens":2,"totalTokens":12,
                "cacheReadInputTokens":7,"cacheWriteInputTokens":3},"metrics":{"latencyMs":1}}"#,
                Some("Think."),
                Some(7),
                Some(3),
            ),
            (
                ProviderId::AnthropicMessages,
                r#"{"content":[{"type":"thinking","thinking":"Think.","signature":"s"},
                {"type":"redacted_thinking","data":"x"},{"type":"text","text":"Hi"}],"stop_reason":"end_turn",
                "usage":{"input_tokens":10,"output_tokens":2,"cache_read_input_tokens":7,"cache_creation_input_tokens":3}}"#,
                Some("Think."),
                Some(7),
                Some(3),
            ),
            (
                ProviderId::OpenAiChat,
                r#"{"choices":[{"message":{"role":"assistant","content":"Hi"},"finish_reason":"stop"}],
                "usage":{"prompt_tokens":10,"completion_tokens":2,"total_tokens":12,"prompt_tokens_details":{"cached_tokens":7}}}"#,
                None,
                Some(7),
                None,
            ),
            (
                ProviderId::OpenAiResponses,
                r#"{"status":"completed","output":[{"type":"reasoning","id":"rs_1","summary":[{"type":"summary_text","text":"Think."}]},
                {"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hi"}]}],
                "usage":{"input_tokens":10,"output_tokens":2,"total_tokens":12,"input_tokens_details":{"cached_tokens":7}}}"#,
                Some("Think."),
                Some(7),
                None,
            ),
            (
                ProviderId::Gemini,
                r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Think.","thought":true},{"text":"Hi"}]},
                "finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":2,"totalTokenCount":12,
                "cachedContentTokenCount":7}}"#,
                Some("Think."),
                Some(7),
                None,
            ),
        ];
        for (provider, body, reasoning, read, write) in cases {
            let response = parse(provider, body).unwrap();
            assert_eq!(response.message.content, vec![ContentBlock::text("Hi")], "{provider}");
            assert_eq!(response.reasoning.as_deref(), reasoning, "{provider}");
            let usage = response.usage.unwrap();
            assert_eq!((usage.input_tokens, usage.output_tokens), (10, 2), "{provider}");
            assert_eq!((usage.cache_read_input_tokens, usage.cache_write_input_tokens), (read, write), "{provider}");
            let result = ExecutionResult::answered(Vec::new(), response);
            assert_eq!(result.reasoning.as_deref(), reasoning, "{provider}");
        }
        // Without cache counts, usage is written as before.
        let plain = serde_json::to_value(Usage::new(1, 2, 3)).unwrap();
        assert_eq!(plain, serde_json::json!({"input_tokens": 1, "output_tokens": 2, "total_tokens": 3}));
    }

    // Every reason in each pinned definition's list (botocore `StopReason`, the OpenAI and
    // Anthropic SDKs' literals, google-genai `FinishReason`) has a normalized word or is kept.
    #[test]
    fn every_documented_stop_reason_is_mapped() {
        let cases = [
            (ProviderId::BedrockConverse, "guardrail_intervened", "content_filtered"),
            (ProviderId::BedrockConverse, "malformed_model_output", "malformed_output"),
            (ProviderId::BedrockConverse, "malformed_tool_use", "malformed_output"),
            (ProviderId::BedrockConverse, "model_context_window_exceeded", "max_tokens"),
            (ProviderId::OpenAiChat, "function_call", "tool_use"),
            (ProviderId::OpenAiChat, "content_filter", "content_filtered"),
            (ProviderId::AnthropicMessages, "pause_turn", "pause_turn"),
            (ProviderId::AnthropicMessages, "refusal", "content_filtered"),
            (ProviderId::AnthropicMessages, "model_context_window_exceeded", "max_tokens"),
            (ProviderId::Gemini, "MALFORMED_FUNCTION_CALL", "malformed_output"),
            (ProviderId::Gemini, "UNEXPECTED_TOOL_CALL", "malformed_output"),
            (ProviderId::Gemini, "TOO_MANY_TOOL_CALLS", "malformed_output"),
            (ProviderId::Gemini, "IMAGE_PROHIBITED_CONTENT", "content_filtered"),
            (ProviderId::Gemini, "MODEL_ARMOR", "content_filtered"),
            (ProviderId::Gemini, "LANGUAGE", "LANGUAGE"),
        ];
        for (provider, raw, want) in cases {
            assert_eq!(normalize_stop_reason(provider, raw), want, "{provider} {raw}");
        }
    }
}
