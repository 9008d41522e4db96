//! Gemini: the request writer, the response reader, the stream decoder and the stop-reason words.

pub(crate) mod import;
pub mod request;
pub mod response;
pub(crate) mod stream;

/// Gemini's documented stop reasons (google-genai's `FinishReason`) in the standard words.
const STOP_REASONS: &[(&str, &str)] = &[
    ("STOP", "end_turn"),
    ("MAX_TOKENS", "max_tokens"),
    ("SAFETY", "content_filtered"),
    ("RECITATION", "content_filtered"),
    ("BLOCKLIST", "content_filtered"),
    ("PROHIBITED_CONTENT", "content_filtered"),
    ("SPII", "content_filtered"),
    ("IMAGE_SAFETY", "content_filtered"),
    ("IMAGE_PROHIBITED_CONTENT", "content_filtered"),
    ("IMAGE_RECITATION", "content_filtered"),
    ("MODEL_ARMOR", "content_filtered"),
    ("MALFORMED_FUNCTION_CALL", "malformed_output"),
    ("MALFORMED_RESPONSE", "malformed_output"),
    ("UNEXPECTED_TOOL_CALL", "malformed_output"),
    ("TOO_MANY_TOOL_CALLS", "malformed_output"),
    ("MISSING_THOUGHT_SIGNATURE", "malformed_output"),
];

/// A stop reason of Gemini in the standard words; an unknown one is kept as given.
pub(crate) fn stop_reason(raw: &str) -> String {
    crate::reading::stop_reason(STOP_REASONS, raw)
}
