//! Anthropic Messages: the request writer, the response reader, the stream decoder and the stop-reason words.

pub(crate) mod import;
pub mod request;
pub mod response;
pub(crate) mod stream;

/// Anthropic Messages's documented stop reasons (the Anthropic SDK's `stop_reason` literals) in the standard words.
const STOP_REASONS: &[(&str, &str)] = &[
    ("end_turn", "end_turn"),
    ("tool_use", "tool_use"),
    ("max_tokens", "max_tokens"),
    ("model_context_window_exceeded", "max_tokens"),
    ("stop_sequence", "stop_sequence"),
    ("refusal", "content_filtered"),
    ("pause_turn", "pause_turn"),
];

/// A stop reason of Anthropic Messages in the standard words; an unknown one is kept as given.
pub(crate) fn stop_reason(raw: &str) -> String {
    crate::reading::stop_reason(STOP_REASONS, raw)
}
