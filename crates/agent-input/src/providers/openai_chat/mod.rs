//! `OpenAI` Chat Completions: the request writer, the response reader, the stream decoder and the stop-reason words.

pub(crate) mod import;
pub mod request;
pub mod response;
pub(crate) mod stream;

/// `OpenAI` Chat Completions's documented stop reasons (the `OpenAI` SDK's `finish_reason` literals) in the standard words.
const STOP_REASONS: &[(&str, &str)] = &[
    ("stop", "end_turn"),
    ("tool_calls", "tool_use"),
    ("function_call", "tool_use"),
    ("length", "max_tokens"),
    ("content_filter", "content_filtered"),
];

/// A stop reason of `OpenAI` Chat Completions in the standard words; an unknown one is kept as given.
pub(crate) fn stop_reason(raw: &str) -> String {
    crate::reading::stop_reason(STOP_REASONS, raw)
}
