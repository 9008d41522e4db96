//! `OpenAI` Responses: the request writer, the response reader, the stream decoder and the stop-reason words.

pub(crate) mod import;
pub mod request;
pub mod response;
pub(crate) mod stream;

/// `OpenAI` Responses's documented stop reasons (the `OpenAI` SDK's response `status` and `incomplete_details.reason` literals) in the standard words.
const STOP_REASONS: &[(&str, &str)] =
    &[("completed", "end_turn"), ("max_output_tokens", "max_tokens"), ("content_filter", "content_filtered")];

/// A stop reason of `OpenAI` Responses in the standard words; an unknown one is kept as given.
pub(crate) fn stop_reason(raw: &str) -> String {
    crate::reading::stop_reason(STOP_REASONS, raw)
}
