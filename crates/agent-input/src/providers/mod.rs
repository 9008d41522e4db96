//! One folder per provider: its request writer (`request`), response reader (`response`), stream
//! decoder (`stream`) and stop-reason words, each built on the shared steps (`conversion`,
//! `reading`, `decoding`). `openai` holds what both `OpenAI` APIs share. The public modules
//! `convert`, `response` and `stream` dispatch here on [`ProviderId`].

pub mod anthropic_messages;
pub mod bedrock_converse;
pub mod gemini;
pub(crate) mod openai;
pub mod openai_chat;
pub mod openai_responses;

use crate::decoding::sse::SseEvent;
use crate::decoding::{Answer, StreamError, StreamEvent, json};
use crate::provider::ProviderId;

/// A provider's stop reason in the standard words (see [`crate::response::normalize_stop_reason`]).
pub(crate) fn stop_reason(provider: ProviderId, raw: &str) -> String {
    match provider {
        ProviderId::BedrockConverse => bedrock_converse::stop_reason(raw),
        ProviderId::OpenAiChat => openai_chat::stop_reason(raw),
        ProviderId::OpenAiResponses => openai_responses::stop_reason(raw),
        ProviderId::AnthropicMessages => anthropic_messages::stop_reason(raw),
        ProviderId::Gemini => gemini::stop_reason(raw),
    }
}

/// One server-sent event of an SSE provider.
pub(crate) fn stream_event(
    provider: ProviderId,
    event: &SseEvent,
    answer: &mut Answer,
    events: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    let data = event.data.trim();
    if data.is_empty() || data == "[DONE]" {
        return Ok(());
    }
    let body = json(data)?;
    match provider {
        ProviderId::OpenAiChat => openai_chat::stream::event(&body, answer, events),
        ProviderId::OpenAiResponses => openai_responses::stream::event(&event.event, &body, answer, events),
        ProviderId::AnthropicMessages => anthropic_messages::stream::event(&event.event, &body, answer, events),
        ProviderId::Gemini => gemini::stream::event(&body, answer, events),
        ProviderId::BedrockConverse => {}
    }
    Ok(())
}
