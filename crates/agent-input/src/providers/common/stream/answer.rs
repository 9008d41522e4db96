//! The neutral [`StreamEvent`]s and [`StreamError`]s of every stream, and the [`Answer`] a
//! decoder gathers.

use std::fmt;

use serde::Serialize;
use serde_json::Value;

use crate::model::{ContentBlock, ProviderItem};
use crate::providers::common::response::{Place, ProviderResponse, StateItems, Usage};
use crate::providers::id::ProviderId;

/// Largest frame or event accepted by default: 64 MiB, the default request body limit
/// ([`crate::Limits`]). Most events carry a token or a whole tool input, but Gemini sends a
/// generated image inline in one event, and an answer may be as large as a request.
pub const DEFAULT_MAX_FRAME_BYTES: usize = 64 * 1024 * 1024;

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

// The reading of one event's JSON, for every provider's decoder.

pub(crate) fn json(text: &str) -> Result<Value, StreamError> {
    serde_json::from_str(text).map_err(|e| StreamError::InvalidJson(e.to_string()))
}

pub(crate) fn str_at<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.pointer(pointer).and_then(Value::as_str)
}

pub(crate) fn u64_at(value: &Value, pointer: &str) -> Option<u64> {
    value.pointer(pointer).and_then(Value::as_u64)
}

/// Token counts from an object with the given keys; the total is summed when not given, as the
/// non-streaming parsers do.
/// The cache counts are at JSON Pointers into the object (`""` where the provider has none).
pub(crate) fn usage(
    object: Option<&Value>,
    input: &str,
    output: &str,
    total: Option<&str>,
    cache: [&str; 2],
) -> Option<Usage> {
    let object = object.filter(|o| o.is_object())?;
    let count = |key: &str| object.get(key).and_then(Value::as_u64).unwrap_or(0);
    let (input_tokens, output_tokens) = (count(input), count(output));
    let total_tokens = total.map_or(input_tokens + output_tokens, count);
    let cached =
        |pointer: &str| if pointer.is_empty() { None } else { object.pointer(pointer).and_then(Value::as_u64) };
    Some(Usage {
        cache_read_input_tokens: cached(cache[0]),
        cache_write_input_tokens: cached(cache[1]),
        ..Usage::new(input_tokens, output_tokens, total_tokens)
    })
}

/// The `message` of an `{"error": {...}}` or `{"message": ...}` object.
pub(crate) fn error_message(value: &Value) -> String {
    str_at(value, "/error/message")
        .or_else(|| str_at(value, "/message"))
        .or_else(|| value.get("error").and_then(Value::as_str))
        .map_or_else(|| value.to_string(), str::to_string)
}

/// What the stream said so far.
#[derive(Debug, Clone, Default)]
pub(crate) struct Answer {
    /// Text blocks and the provider's own items, by the provider's block key, in order.
    pub(crate) content: Vec<(u64, Part)>,
    /// The JSON text of an item's `input` still streaming, by the item's block key.
    item_inputs: Vec<(u64, String)>,
    /// Tool calls, by the provider's block key.
    pub(crate) calls: Vec<Call>,
    /// Reasoning blocks, by the provider's block key.
    pub(crate) thoughts: Vec<(u64, String)>,
    pub(crate) stop_reason: Option<String>,
    pub(crate) usage: Option<Usage>,
    pub(crate) error: Option<(Option<String>, String)>,
    /// The reasoning state gathered so far.
    pub(crate) state: StateItems,
    /// Reasoning blocks still streaming, by the provider's block key, with their place.
    pub(crate) pending: Vec<(u64, Place, Value)>,
}

/// A content block of the answer being streamed.
#[derive(Debug, Clone)]
pub(crate) enum Part {
    Text(String),
    /// A provider's own item (a server tool's call or result), kept whole.
    Item(Value),
}

#[derive(Debug, Clone)]
pub(crate) struct Call {
    pub(crate) key: u64,
    pub(crate) id: String,
    pub(crate) name: String,
    pub(crate) arguments: String,
    pub(crate) open: bool,
}

impl Answer {
    pub(crate) fn text(&mut self, key: u64, text: &str, events: &mut Vec<StreamEvent>) {
        if text.is_empty() {
            return;
        }
        let held = self.content.iter_mut().find_map(|(k, part)| match part {
            Part::Text(block) if *k == key => Some(block),
            _ => None,
        });
        if let Some(block) = held {
            block.push_str(text);
        } else {
            self.state.text(text);
            self.content.push((key, Part::Text(text.to_string())));
        }
        events.push(StreamEvent::TextDelta { text: text.to_string() });
    }

    /// A provider's own item (a server tool's call or result), at its place among the blocks.
    pub(crate) fn item(&mut self, key: u64, item: Value) {
        self.state.content();
        self.content.push((key, Part::Item(item)));
    }

    /// Whether text block `key` has begun.
    pub(crate) fn has_text(&self, key: u64) -> bool {
        self.content.iter().any(|(k, part)| *k == key && matches!(part, Part::Text(_)))
    }

    /// How many items the answer holds so far.
    pub(crate) fn items(&self) -> usize {
        self.content.iter().filter(|(_, part)| matches!(part, Part::Item(_))).count()
    }

    /// The item `key`, as its provider finished it.
    pub(crate) fn replace_item(&mut self, key: u64, with: &Value) {
        for (k, part) in &mut self.content {
            if let Part::Item(item) = part
                && *k == key
            {
                item.clone_from(with);
            }
        }
    }

    /// More of item `key`'s `input` object as JSON text; `false` when there is no such item.
    pub(crate) fn item_input(&mut self, key: u64, delta: &str) -> bool {
        if !self.content.iter().any(|(k, part)| *k == key && matches!(part, Part::Item(_))) {
            return false;
        }
        match self.item_inputs.iter_mut().find(|(k, _)| *k == key) {
            Some((_, text)) => text.push_str(delta),
            None => self.item_inputs.push((key, delta.to_string())),
        }
        true
    }

    /// Item `key` is complete: its streamed `input`, when it had one, is read as JSON.
    pub(crate) fn end_item(&mut self, key: u64) {
        let Some(i) = self.item_inputs.iter().position(|(k, _)| *k == key) else { return };
        let (_, text) = self.item_inputs.remove(i);
        let Ok(input) = serde_json::from_str::<Value>(&text) else { return };
        for (k, part) in &mut self.content {
            if let Part::Item(Value::Object(item)) = part
                && *k == key
            {
                item.insert("input".to_string(), input.clone());
            }
        }
    }

    pub(crate) fn reasoning(&mut self, key: u64, text: &str, events: &mut Vec<StreamEvent>) {
        match self.thoughts.iter_mut().find(|(k, _)| *k == key) {
            Some((_, block)) => block.push_str(text),
            None => self.thoughts.push((key, text.to_string())),
        }
        events.push(StreamEvent::ReasoningDelta { text: text.to_string() });
    }

    pub(crate) fn start_call(&mut self, key: u64, id: &str, name: &str, events: &mut Vec<StreamEvent>) {
        self.state.call();
        self.calls.push(Call { key, id: id.to_string(), name: name.to_string(), arguments: String::new(), open: true });
        events.push(StreamEvent::ToolCallStart { id: id.to_string(), name: name.to_string() });
    }

    pub(crate) fn call_args(&mut self, key: u64, delta: &str, events: &mut Vec<StreamEvent>) {
        if delta.is_empty() {
            return;
        }
        if let Some(call) = self.calls.iter_mut().rev().find(|c| c.key == key && c.open) {
            call.arguments.push_str(delta);
            events.push(StreamEvent::ToolCallArgs { id: call.id.clone(), delta: delta.to_string() });
        }
    }

    pub(crate) fn end_call(&mut self, key: u64, events: &mut Vec<StreamEvent>) {
        if let Some(call) = self.calls.iter_mut().rev().find(|c| c.key == key && c.open) {
            call.open = false;
            events.push(StreamEvent::ToolCallEnd { id: call.id.clone() });
        }
    }

    pub(crate) fn end_all_calls(&mut self, events: &mut Vec<StreamEvent>) {
        for call in self.calls.iter_mut().filter(|c| c.open) {
            call.open = false;
            events.push(StreamEvent::ToolCallEnd { id: call.id.clone() });
        }
    }

    pub(crate) fn stop(&mut self, reason: String, events: &mut Vec<StreamEvent>) {
        events.push(StreamEvent::Stop { reason: reason.clone() });
        self.stop_reason = Some(reason);
    }

    pub(crate) fn usage(&mut self, usage: Usage, events: &mut Vec<StreamEvent>) {
        events.push(StreamEvent::Usage(usage));
        self.usage = Some(usage);
    }

    pub(crate) fn error(&mut self, code: Option<String>, message: String, events: &mut Vec<StreamEvent>) {
        events.push(StreamEvent::Error { code: code.clone(), message: message.clone() });
        self.error.get_or_insert((code, message));
    }

    /// A reasoning block that starts streaming: it goes before the next element.
    pub(crate) fn begin_block(&mut self, key: u64, block: Value) {
        self.pending.push((key, self.state.here(), block));
    }

    /// The reasoning block `key` still streaming.
    pub(crate) fn pending_block(&mut self, key: u64) -> Option<&mut Value> {
        self.pending.iter_mut().rev().find(|(k, _, _)| *k == key).map(|(_, _, block)| block)
    }

    /// The block `key` turned out to be no state.
    pub(crate) fn drop_block(&mut self, key: u64) {
        if let Some(i) = self.pending.iter().rposition(|(k, _, _)| *k == key) {
            self.pending.remove(i);
        }
    }

    /// The reasoning block `key` is complete.
    pub(crate) fn end_block(&mut self, key: u64) {
        if let Some(i) = self.pending.iter().rposition(|(k, _, _)| *k == key) {
            let (_, place, block) = self.pending.remove(i);
            self.state.block_at(place, block);
        }
    }

    /// The answer read; `compact_arguments` when the provider's response reader writes a tool
    /// call's `input` object back as compact JSON, so its streamed text is read and written the
    /// same way.
    pub(crate) fn into_response(mut self, provider: ProviderId, compact_arguments: bool) -> ProviderResponse {
        for (_, place, block) in std::mem::take(&mut self.pending) {
            self.state.block_at(place, block);
        }
        let state = self.state.into_state(provider);
        let calls = self
            .calls
            .into_iter()
            .map(|call| {
                let arguments = if compact_arguments {
                    match serde_json::from_str::<Value>(&call.arguments) {
                        Ok(value) => value.to_string(),
                        Err(_) if call.arguments.trim().is_empty() => "{}".to_string(),
                        Err(_) => call.arguments,
                    }
                } else if call.arguments.trim().is_empty() {
                    "{}".to_string()
                } else {
                    call.arguments
                };
                crate::providers::common::response::tool_call(&call.id, &call.name, arguments)
            })
            .collect();
        let content = self
            .content
            .into_iter()
            .filter_map(|(_, part)| match part {
                Part::Text(text) if text.trim().is_empty() => None,
                Part::Text(text) => Some(ContentBlock::Text(text.into())),
                Part::Item(item) => Some(ContentBlock::ProviderItem(ProviderItem { provider, item })),
            })
            .collect();
        let mut message = crate::providers::common::response::assistant_of(content, calls);
        message.reasoning_state = state;
        ProviderResponse {
            message,
            stop_reason: self.stop_reason,
            usage: self.usage,
            reasoning: crate::providers::common::response::reasoning(
                self.thoughts.into_iter().map(|(_, text)| text).collect(),
            ),
        }
    }
}
