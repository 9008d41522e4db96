//! Bedrock Converse: the request writer, the response reader, the stream decoder and the stop-reason words.

pub(crate) mod import;
pub mod request;
pub mod response;
pub(crate) mod stream;

/// Bedrock Converse's documented stop reasons (botocore's `StopReason`) in the standard words.
const STOP_REASONS: &[(&str, &str)] = &[
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

/// A stop reason of Bedrock Converse in the standard words; an unknown one is kept as given.
pub(crate) fn stop_reason(raw: &str) -> String {
    crate::reading::stop_reason(STOP_REASONS, raw)
}
