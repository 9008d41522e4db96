//! Incremental decoders of the providers' streaming answers.
//!
//! A [`Decoder`] is fed the response body in whatever chunks the network gives — a frame, a line
//! or a UTF-8 character split anywhere — and returns [`StreamEvent`]s as soon as they are
//! complete: one neutral event stream for every provider. At the end, [`Decoder::finish`] gives
//! the same [`ProviderResponse`] the non-streaming parser ([`crate::response`]) gives for the same
//! answer.
//!
//! Each provider's adapter says how its answer is framed: AWS event-stream binary frames
//! ([`event_stream`], Bedrock `ConverseStream`) or server-sent events ([`sse`], the others).
//!
//! ```
//! use agent_input::ProviderId;
//! use agent_input::stream::{Decoder, StreamEvent};
//!
//! let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n\
//!             data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
//! let mut decoder = Decoder::new(ProviderId::OpenAiChat);
//! let mut events = Vec::new();
//! for chunk in body.as_bytes().chunks(7) {
//!     events.extend(decoder.feed(chunk).unwrap());
//! }
//! assert_eq!(events[0], StreamEvent::TextDelta { text: "Hel".into() });
//! let response = decoder.finish().unwrap();
//! assert_eq!(response.stop_reason.as_deref(), Some("end_turn"));
//! assert_eq!(agent_input::response::primary_text(&response.message).as_deref(), Some("Hello"));
//! ```

use crate::providers::adapter::Framing as Kind;
use crate::providers::common::stream::{Answer, json};
use crate::providers::dispatch;
use crate::providers::id::ProviderId;

pub use crate::providers::common::response::ProviderResponse;
pub use crate::providers::common::stream::{DEFAULT_MAX_FRAME_BYTES, StreamError, StreamEvent, event_stream, sse};

#[derive(Debug, Clone)]
enum Framing {
    Sse(sse::SseParser),
    EventStream(event_stream::EventStreamParser),
}

/// A streaming answer being read.
#[derive(Debug, Clone)]
pub struct Decoder {
    provider: ProviderId,
    framing: Framing,
    answer: Answer,
    failed: Option<StreamError>,
}

impl Decoder {
    /// A decoder of `provider`'s stream with [`DEFAULT_MAX_FRAME_BYTES`].
    pub fn new(provider: ProviderId) -> Self {
        Self::with_max_frame_bytes(provider, DEFAULT_MAX_FRAME_BYTES)
    }

    /// A decoder refusing a frame or event longer than `max_frame_bytes`.
    pub fn with_max_frame_bytes(provider: ProviderId, max_frame_bytes: usize) -> Self {
        let framing = match dispatch::framing(provider) {
            Kind::EventStream => Framing::EventStream(event_stream::EventStreamParser::new(max_frame_bytes)),
            Kind::Sse => Framing::Sse(sse::SseParser::new(max_frame_bytes)),
        };
        Self { provider, framing, answer: Answer::default(), failed: None }
    }

    /// Reads a chunk of the body, returning the events it completes. A provider's error in the
    /// stream is an [`StreamEvent::Error`] here and the error of [`Decoder::finish`].
    ///
    /// # Errors
    /// When the bytes are not the provider's stream format; the decoder then stays failed.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<StreamEvent>, StreamError> {
        if let Some(error) = &self.failed {
            return Err(error.clone());
        }
        let result = self.feed_inner(chunk, false);
        if let Err(error) = &result {
            self.failed = Some(error.clone());
        }
        result
    }

    fn feed_inner(&mut self, chunk: &[u8], end: bool) -> Result<Vec<StreamEvent>, StreamError> {
        let mut events = Vec::new();
        match &mut self.framing {
            // Each event is read as soon as it is complete, so the first problem in the stream
            // is the one reported wherever the chunks were cut.
            Framing::Sse(parser) => {
                let (provider, answer) = (self.provider, &mut self.answer);
                parser.feed_each(chunk, |event| sse_event(provider, &event, answer, &mut events))?;
                if end {
                    parser.finish();
                }
            }
            Framing::EventStream(parser) => {
                let (provider, answer) = (self.provider, &mut self.answer);
                parser.feed_each(chunk, |message| {
                    dispatch::event_stream_message(provider, &message, answer, &mut events)
                })?;
                if end && parser.pending() > 0 {
                    return Err(StreamError::Truncated { pending: parser.pending() });
                }
            }
        }
        Ok(events)
    }

    /// Ends the stream and gives the whole answer, as the non-streaming parser reads it.
    ///
    /// # Errors
    /// A decoding error met before, a frame left unfinished, or the provider's error in the stream.
    pub fn finish(mut self) -> Result<ProviderResponse, StreamError> {
        if let Some(error) = self.failed.take() {
            return Err(error);
        }
        self.feed_inner(&[], true)?;
        if let Some((code, message)) = self.answer.error.take() {
            return Err(StreamError::Provider { code, message });
        }
        Ok(self.answer.into_response(self.provider, dispatch::compact_arguments(self.provider)))
    }
}

/// One server-sent event: its JSON data read by the provider (empty data and `[DONE]` skipped).
fn sse_event(
    provider: ProviderId,
    event: &sse::SseEvent,
    answer: &mut Answer,
    events: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    let data = event.data.trim();
    if data.is_empty() || data == "[DONE]" {
        return Ok(());
    }
    let body = json(data)?;
    dispatch::sse_event(provider, &event.event, &body, answer, events);
    Ok(())
}

/// Decodes a whole body at once: the events, and the answer or the error.
pub fn decode(provider: ProviderId, body: &[u8]) -> (Vec<StreamEvent>, Result<ProviderResponse, StreamError>) {
    let mut decoder = Decoder::new(provider);
    match decoder.feed(body) {
        Ok(events) => (events, decoder.finish()),
        Err(error) => (Vec::new(), Err(error)),
    }
}
