//! Incremental decoders of the providers' streaming answers.
//!
//! A [`Decoder`] is fed the response body in whatever chunks the network gives — a frame, a line
//! or a UTF-8 character split anywhere — and returns [`StreamEvent`]s as soon as they are
//! complete: one neutral event stream for every provider. At the end, [`Decoder::finish`] gives
//! the same [`ProviderResponse`] the non-streaming parser ([`crate::response`]) gives for the same
//! answer.
//!
//! | provider | wire format |
//! |---|---|
//! | Bedrock `ConverseStream` | AWS event-stream binary frames ([`event_stream`]) |
//! | `OpenAI` Chat, `OpenAI` Responses, Anthropic Messages, Gemini `streamGenerateContent?alt=sse` | server-sent events ([`sse`]) |
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

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::convert::ProviderId;
use crate::response::{ProviderResponse, Usage};

pub mod event_stream;
mod providers;
pub mod sse;

/// Largest frame or event accepted by default: 1 MiB (a provider's event carries a token or a few
/// hundred; a whole tool input at most).
pub const DEFAULT_MAX_FRAME_BYTES: usize = 1024 * 1024;

/// One thing a provider said, in any provider's stream.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum StreamEvent {
    /// More answer text.
    TextDelta {
        /// The new text.
        text: String,
    },
    /// The model starts a tool call.
    ToolCallStart {
        /// The call's id.
        id: String,
        /// The tool's name.
        name: String,
    },
    /// More of a tool call's arguments (a piece of a JSON object's text).
    ToolCallArgs {
        /// The call's id.
        id: String,
        /// The new text.
        delta: String,
    },
    /// A tool call's arguments are complete.
    ToolCallEnd {
        /// The call's id.
        id: String,
    },
    /// More of the model's reasoning (thinking), which is not part of the answer.
    ReasoningDelta {
        /// The new text.
        text: String,
    },
    /// Why generation stopped, normalized as [`crate::response::normalize_stop_reason`] does.
    Stop {
        /// `end_turn`, `tool_use`, `max_tokens`, …
        reason: String,
    },
    /// Token counts.
    Usage(Usage),
    /// The provider reported an error in the stream.
    Error {
        /// The provider's error code or type, when given.
        code: Option<String>,
        /// The provider's message.
        message: String,
    },
}

/// Why a stream cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StreamError {
    /// A frame, event or line longer than the limit; refused before it is buffered whole where
    /// the framing tells the length up front.
    TooLarge {
        /// The limit in bytes.
        limit: usize,
        /// The size found (so far).
        actual: usize,
    },
    /// An event-stream checksum does not match.
    CrcMismatch {
        /// `prelude` or `message`.
        part: &'static str,
    },
    /// Event-stream lengths or headers that do not add up.
    InvalidFrame(String),
    /// SSE text that is not UTF-8.
    InvalidUtf8,
    /// An event payload that is not the JSON the provider sends.
    InvalidJson(String),
    /// The provider reported an error in the stream.
    Provider {
        /// The provider's error code or type, when given.
        code: Option<String>,
        /// The provider's message.
        message: String,
    },
    /// The stream ended inside a frame.
    Truncated {
        /// Bytes of the unfinished frame.
        pending: usize,
    },
}

impl StreamError {
    /// A stable identifier: `too_large`, `crc_mismatch`, `invalid_frame`, `invalid_utf8`,
    /// `invalid_json`, `provider_error`, `truncated`.
    pub const fn code(&self) -> &'static str {
        match self {
            Self::TooLarge { .. } => "too_large",
            Self::CrcMismatch { .. } => "crc_mismatch",
            Self::InvalidFrame(_) => "invalid_frame",
            Self::InvalidUtf8 => "invalid_utf8",
            Self::InvalidJson(_) => "invalid_json",
            Self::Provider { .. } => "provider_error",
            Self::Truncated { .. } => "truncated",
        }
    }
}

impl fmt::Display for StreamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::TooLarge { limit, actual } => {
                write!(f, "a stream frame of {actual} bytes is larger than the limit of {limit} bytes")
            }
            Self::CrcMismatch { part } => write!(f, "the event-stream {part} checksum does not match"),
            Self::InvalidFrame(why) => write!(f, "invalid event-stream frame: {why}"),
            Self::InvalidUtf8 => f.write_str("the event stream is not UTF-8"),
            Self::InvalidJson(why) => write!(f, "a stream event is not valid JSON: {why}"),
            Self::Provider { code: Some(code), message } => write!(f, "the provider failed ({code}): {message}"),
            Self::Provider { code: None, message } => write!(f, "the provider failed: {message}"),
            Self::Truncated { pending } => write!(f, "the stream ended inside a frame ({pending} bytes unread)"),
        }
    }
}

impl std::error::Error for StreamError {}

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
        let framing = match provider {
            ProviderId::BedrockConverse => Framing::EventStream(event_stream::EventStreamParser::new(max_frame_bytes)),
            _ => Framing::Sse(sse::SseParser::new(max_frame_bytes)),
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
            Framing::Sse(parser) => {
                let sse = parser.feed(chunk)?;
                if end {
                    parser.finish();
                }
                for event in sse {
                    providers::sse_event(self.provider, &event, &mut self.answer, &mut events)?;
                }
            }
            Framing::EventStream(parser) => {
                for message in parser.feed(chunk)? {
                    providers::bedrock_message(&message, &mut self.answer, &mut events)?;
                }
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
        Ok(self.answer.into_response(self.provider))
    }
}

/// Decodes a whole body at once: the events, and the answer or the error.
pub fn decode(provider: ProviderId, body: &[u8]) -> (Vec<StreamEvent>, Result<ProviderResponse, StreamError>) {
    let mut decoder = Decoder::new(provider);
    match decoder.feed(body) {
        Ok(events) => (events, decoder.finish()),
        Err(error) => (Vec::new(), Err(error)),
    }
}

/// What the stream said so far.
#[derive(Debug, Clone, Default)]
struct Answer {
    /// Text blocks, by the provider's block key.
    texts: Vec<(u64, String)>,
    /// Tool calls, by the provider's block key.
    calls: Vec<Call>,
    /// Reasoning blocks, by the provider's block key.
    thoughts: Vec<(u64, String)>,
    stop_reason: Option<String>,
    usage: Option<Usage>,
    error: Option<(Option<String>, String)>,
}

#[derive(Debug, Clone)]
struct Call {
    key: u64,
    id: String,
    name: String,
    arguments: String,
    open: bool,
}

impl Answer {
    fn text(&mut self, key: u64, text: &str, events: &mut Vec<StreamEvent>) {
        if text.is_empty() {
            return;
        }
        match self.texts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, block)) => block.push_str(text),
            None => self.texts.push((key, text.to_string())),
        }
        events.push(StreamEvent::TextDelta { text: text.to_string() });
    }

    fn reasoning(&mut self, key: u64, text: &str, events: &mut Vec<StreamEvent>) {
        match self.thoughts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, block)) => block.push_str(text),
            None => self.thoughts.push((key, text.to_string())),
        }
        events.push(StreamEvent::ReasoningDelta { text: text.to_string() });
    }

    fn start_call(&mut self, key: u64, id: &str, name: &str, events: &mut Vec<StreamEvent>) {
        self.calls.push(Call { key, id: id.to_string(), name: name.to_string(), arguments: String::new(), open: true });
        events.push(StreamEvent::ToolCallStart { id: id.to_string(), name: name.to_string() });
    }

    fn call_args(&mut self, key: u64, delta: &str, events: &mut Vec<StreamEvent>) {
        if delta.is_empty() {
            return;
        }
        if let Some(call) = self.calls.iter_mut().rev().find(|c| c.key == key && c.open) {
            call.arguments.push_str(delta);
            events.push(StreamEvent::ToolCallArgs { id: call.id.clone(), delta: delta.to_string() });
        }
    }

    fn end_call(&mut self, key: u64, events: &mut Vec<StreamEvent>) {
        if let Some(call) = self.calls.iter_mut().rev().find(|c| c.key == key && c.open) {
            call.open = false;
            events.push(StreamEvent::ToolCallEnd { id: call.id.clone() });
        }
    }

    fn end_all_calls(&mut self, events: &mut Vec<StreamEvent>) {
        for call in self.calls.iter_mut().filter(|c| c.open) {
            call.open = false;
            events.push(StreamEvent::ToolCallEnd { id: call.id.clone() });
        }
    }

    fn stop(&mut self, reason: String, events: &mut Vec<StreamEvent>) {
        events.push(StreamEvent::Stop { reason: reason.clone() });
        self.stop_reason = Some(reason);
    }

    fn usage(&mut self, usage: Usage, events: &mut Vec<StreamEvent>) {
        events.push(StreamEvent::Usage(usage));
        self.usage = Some(usage);
    }

    fn error(&mut self, code: Option<String>, message: String, events: &mut Vec<StreamEvent>) {
        events.push(StreamEvent::Error { code: code.clone(), message: message.clone() });
        self.error.get_or_insert((code, message));
    }

    fn into_response(self, provider: ProviderId) -> ProviderResponse {
        let calls =
            self.calls
                .into_iter()
                .map(|call| {
                    let arguments =
                        match provider {
                            // These parsers write the `input` object back as compact JSON; its streamed text
                            // is read and written the same way.
                            ProviderId::BedrockConverse | ProviderId::AnthropicMessages | ProviderId::Gemini => {
                                match serde_json::from_str::<Value>(&call.arguments) {
                                    Ok(value) => value.to_string(),
                                    Err(_) if call.arguments.trim().is_empty() => "{}".to_string(),
                                    Err(_) => call.arguments,
                                }
                            }
                            ProviderId::OpenAiChat | ProviderId::OpenAiResponses => {
                                if call.arguments.trim().is_empty() { "{}".to_string() } else { call.arguments }
                            }
                        };
                    crate::response::tool_call(&call.id, &call.name, arguments)
                })
                .collect();
        let texts = self.texts.into_iter().map(|(_, text)| text).collect();
        ProviderResponse {
            message: crate::response::assistant(texts, calls),
            stop_reason: self.stop_reason,
            usage: self.usage,
            reasoning: crate::response::reasoning(self.thoughts.into_iter().map(|(_, text)| text).collect()),
        }
    }
}
