//! AG-UI events, and a writer that turns a provider's [`StreamEvent`]s into them.
//!
//! The writer keeps the protocol's order whatever the provider sends: exactly one `RUN_STARTED`
//! first, exactly one terminal event (`RUN_FINISHED` or `RUN_ERROR`) last — never two, the
//! ml-commons bug with `OpenAI` (#4736) — and every text message, reasoning message and tool call
//! it opens closed before `RUN_FINISHED`.

use serde::{Deserialize, Serialize};

use super::model::Message;
use super::reasoning;
use crate::model::{ContentBlock, Message as StandardMessage};
use crate::response::Usage;
use crate::stream::StreamEvent;

/// An AG-UI event (`@ag-ui/core` 1.0), as written on the wire: `{"type": "TEXT_MESSAGE_CONTENT",
/// "messageId": ..., "delta": ...}`. `timestamp` is the sender's to add.
///
/// A type this enum has no variant for (AG-UI 1.0's state, step, activity, subagent, raw and chunk
/// events, `THINKING_*` from before 1.0, or a newer type) reads as [`Event::Other`], kept whole
/// and written back as the same JSON value: a client must take event types it does not know, and
/// a known type with a missing or mistyped field is still an error.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// The derived code is the known types' (`Event::serialize`, `Event::deserialize`); the trait
// impls below put `Other` around it.
#[serde(remote = "Self")]
#[serde(tag = "type", rename_all = "SCREAMING_SNAKE_CASE", rename_all_fields = "camelCase")]
pub enum Event {
    /// The run began.
    RunStarted {
        /// The thread (memory id).
        thread_id: String,
        /// The run.
        run_id: String,
    },
    /// The run ended with an answer.
    RunFinished {
        /// The thread (memory id).
        thread_id: String,
        /// The run.
        run_id: String,
        /// Token counts, when the provider gave them.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        usage: Vec<TokenUsage>,
    },
    /// The run failed.
    RunError {
        /// What went wrong.
        message: String,
        /// A code, when there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        code: Option<String>,
    },
    /// An assistant message begins.
    TextMessageStart {
        /// The message.
        message_id: String,
        /// `assistant`.
        role: String,
    },
    /// More of its text.
    TextMessageContent {
        /// The message.
        message_id: String,
        /// The new text.
        delta: String,
    },
    /// The message is complete.
    TextMessageEnd {
        /// The message.
        message_id: String,
    },
    /// A tool call begins.
    ToolCallStart {
        /// The call.
        tool_call_id: String,
        /// The tool.
        tool_call_name: String,
        /// The assistant message the call belongs to.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        parent_message_id: Option<String>,
    },
    /// More of its arguments' JSON text.
    ToolCallArgs {
        /// The call.
        tool_call_id: String,
        /// The new text.
        delta: String,
    },
    /// Its arguments are complete.
    ToolCallEnd {
        /// The call.
        tool_call_id: String,
    },
    /// A tool's answer.
    ToolCallResult {
        /// The tool message.
        message_id: String,
        /// The call answered.
        tool_call_id: String,
        /// The answer.
        content: String,
        /// `tool`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        role: Option<String>,
    },
    /// The model begins reasoning.
    ReasoningStart {
        /// The reasoning.
        message_id: String,
    },
    /// A reasoning message begins.
    ReasoningMessageStart {
        /// The reasoning message.
        message_id: String,
        /// `reasoning`.
        role: String,
    },
    /// More reasoning text.
    ReasoningMessageContent {
        /// The reasoning message.
        message_id: String,
        /// The new text.
        delta: String,
    },
    /// The reasoning message is complete.
    ReasoningMessageEnd {
        /// The reasoning message.
        message_id: String,
    },
    /// Reasoning text, the start and end left to the receiver.
    ReasoningMessageChunk {
        /// The reasoning message (required on the first chunk of a message).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message_id: Option<String>,
        /// The new text.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        delta: Option<String>,
    },
    /// The model stopped reasoning.
    ReasoningEnd {
        /// The reasoning.
        message_id: String,
    },
    /// Reasoning state the receiver keeps and sends back, unread, on the next run: set as the
    /// `encryptedValue` of the message or tool call `entity_id` names.
    ReasoningEncryptedValue {
        /// Whether `entity_id` is a message or a tool call.
        subtype: Entity,
        /// The message or tool call.
        entity_id: String,
        /// The value ([`super::reasoning`]: agent-input writes the JSON text of `{"provider", "items"}`).
        encrypted_value: String,
    },
    /// The whole conversation.
    MessagesSnapshot {
        /// Every message.
        messages: Vec<Message>,
    },
    /// Anything else.
    Custom {
        /// What it is.
        name: String,
        /// Its value.
        value: serde_json::Value,
    },
    /// An event of a type not above, as received.
    #[serde(skip)]
    Other {
        /// Its `type`.
        kind: String,
        /// The whole event, `type` included: written back unchanged.
        event: serde_json::Value,
    },
}

impl Event {
    /// The `type` of every event with a variant of its own.
    pub const TYPES: &[&str] = &[
        "RUN_STARTED",
        "RUN_FINISHED",
        "RUN_ERROR",
        "TEXT_MESSAGE_START",
        "TEXT_MESSAGE_CONTENT",
        "TEXT_MESSAGE_END",
        "TOOL_CALL_START",
        "TOOL_CALL_ARGS",
        "TOOL_CALL_END",
        "TOOL_CALL_RESULT",
        "REASONING_START",
        "REASONING_MESSAGE_START",
        "REASONING_MESSAGE_CONTENT",
        "REASONING_MESSAGE_END",
        "REASONING_MESSAGE_CHUNK",
        "REASONING_END",
        "REASONING_ENCRYPTED_VALUE",
        "MESSAGES_SNAPSHOT",
        "CUSTOM",
    ];

    /// The event's `type` on the wire.
    pub fn kind(&self) -> &str {
        match self {
            Event::RunStarted { .. } => "RUN_STARTED",
            Event::RunFinished { .. } => "RUN_FINISHED",
            Event::RunError { .. } => "RUN_ERROR",
            Event::TextMessageStart { .. } => "TEXT_MESSAGE_START",
            Event::TextMessageContent { .. } => "TEXT_MESSAGE_CONTENT",
            Event::TextMessageEnd { .. } => "TEXT_MESSAGE_END",
            Event::ToolCallStart { .. } => "TOOL_CALL_START",
            Event::ToolCallArgs { .. } => "TOOL_CALL_ARGS",
            Event::ToolCallEnd { .. } => "TOOL_CALL_END",
            Event::ToolCallResult { .. } => "TOOL_CALL_RESULT",
            Event::ReasoningStart { .. } => "REASONING_START",
            Event::ReasoningMessageStart { .. } => "REASONING_MESSAGE_START",
            Event::ReasoningMessageContent { .. } => "REASONING_MESSAGE_CONTENT",
            Event::ReasoningMessageEnd { .. } => "REASONING_MESSAGE_END",
            Event::ReasoningMessageChunk { .. } => "REASONING_MESSAGE_CHUNK",
            Event::ReasoningEnd { .. } => "REASONING_END",
            Event::ReasoningEncryptedValue { .. } => "REASONING_ENCRYPTED_VALUE",
            Event::MessagesSnapshot { .. } => "MESSAGES_SNAPSHOT",
            Event::Custom { .. } => "CUSTOM",
            Event::Other { kind, .. } => kind,
        }
    }
}

impl Serialize for Event {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Event::Other { event, .. } => event.serialize(serializer),
            known => Event::serialize(known, serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Event {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let event = serde_json::Value::deserialize(deserializer)?;
        match event.get("type").and_then(serde_json::Value::as_str) {
            Some(kind) if !Event::TYPES.contains(&kind) => Ok(Event::Other { kind: kind.to_owned(), event }),
            _ => Event::deserialize(event).map_err(serde::de::Error::custom),
        }
    }
}

/// What a `REASONING_ENCRYPTED_VALUE` belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Entity {
    /// `message`: a message, by its id.
    Message,
    /// `tool-call`: a tool call, by its id.
    ToolCall,
}

/// Token counts on `RUN_FINISHED`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TokenUsage {
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens generated.
    pub output_tokens: u64,
    /// Their sum, as the provider reports it.
    pub total_tokens: u64,
}

impl From<Usage> for TokenUsage {
    fn from(usage: Usage) -> Self {
        Self { input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.total_tokens }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    NotStarted,
    Running,
    Ended,
}

/// Writes one run's AG-UI events from provider stream events.
///
/// ```
/// use agent_input::agui::events::{Event, RunEvents};
/// use agent_input::stream::StreamEvent;
///
/// let mut run = RunEvents::new("thread-1", "run-1");
/// let mut events = run.on(&StreamEvent::TextDelta { text: "Hi".into() });
/// events.extend(run.finish());
/// events.extend(run.finish()); // nothing: the run has ended
/// let types: Vec<String> = events.iter()
///     .map(|e| serde_json::to_value(e).unwrap()["type"].as_str().unwrap().to_string()).collect();
/// assert_eq!(types, ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "TEXT_MESSAGE_END", "RUN_FINISHED"]);
/// ```
#[derive(Debug, Clone)]
pub struct RunEvents {
    thread_id: String,
    run_id: String,
    phase: Phase,
    turn: usize,
    text_open: bool,
    reasoning_open: bool,
    open_calls: Vec<String>,
    usage: Option<Usage>,
}

impl RunEvents {
    /// A run of `thread_id`; message ids are `<run_id>-<n>` (text) and `<run_id>-reasoning-<n>`.
    pub fn new(thread_id: impl Into<String>, run_id: impl Into<String>) -> Self {
        Self {
            thread_id: thread_id.into(),
            run_id: run_id.into(),
            phase: Phase::NotStarted,
            turn: 0,
            text_open: false,
            reasoning_open: false,
            open_calls: Vec::new(),
            usage: None,
        }
    }

    /// The id of the current assistant message.
    pub fn message_id(&self) -> String {
        format!("{}-{}", self.run_id, self.turn)
    }

    fn reasoning_id(&self) -> String {
        format!("{}-reasoning-{}", self.run_id, self.turn)
    }

    /// `RUN_STARTED`, the first time only. Called by every other method, so a run always starts
    /// with it.
    pub fn start(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        self.start_into(&mut out);
        out
    }

    fn start_into(&mut self, out: &mut Vec<Event>) {
        if self.phase == Phase::NotStarted {
            self.phase = Phase::Running;
            out.push(Event::RunStarted { thread_id: self.thread_id.clone(), run_id: self.run_id.clone() });
        }
    }

    fn close_text(&mut self, out: &mut Vec<Event>) {
        if std::mem::take(&mut self.text_open) {
            out.push(Event::TextMessageEnd { message_id: self.message_id() });
        }
    }

    fn close_reasoning(&mut self, out: &mut Vec<Event>) {
        if std::mem::take(&mut self.reasoning_open) {
            let message_id = self.reasoning_id();
            out.push(Event::ReasoningMessageEnd { message_id: message_id.clone() });
            out.push(Event::ReasoningEnd { message_id });
        }
    }

    fn close_calls(&mut self, out: &mut Vec<Event>) {
        for tool_call_id in std::mem::take(&mut self.open_calls) {
            out.push(Event::ToolCallEnd { tool_call_id });
        }
    }

    /// The AG-UI events for one provider event; nothing once the run has ended. A provider error
    /// ends the run with `RUN_ERROR`.
    pub fn on(&mut self, event: &StreamEvent) -> Vec<Event> {
        let mut out = Vec::new();
        if self.phase == Phase::Ended {
            return out;
        }
        self.start_into(&mut out);
        match event {
            StreamEvent::TextDelta { text } => {
                if text.is_empty() {
                    return out;
                }
                self.close_reasoning(&mut out);
                if !self.text_open {
                    self.text_open = true;
                    out.push(Event::TextMessageStart { message_id: self.message_id(), role: "assistant".to_string() });
                }
                out.push(Event::TextMessageContent { message_id: self.message_id(), delta: text.clone() });
            }
            StreamEvent::ReasoningDelta { text } => {
                if text.is_empty() {
                    return out;
                }
                self.close_text(&mut out);
                let message_id = self.reasoning_id();
                if !self.reasoning_open {
                    self.reasoning_open = true;
                    out.push(Event::ReasoningStart { message_id: message_id.clone() });
                    out.push(Event::ReasoningMessageStart {
                        message_id: message_id.clone(),
                        role: "reasoning".to_string(),
                    });
                }
                out.push(Event::ReasoningMessageContent { message_id, delta: text.clone() });
            }
            StreamEvent::ToolCallStart { id, name } => {
                self.close_reasoning(&mut out);
                self.close_text(&mut out);
                self.open_calls.push(id.clone());
                out.push(Event::ToolCallStart {
                    tool_call_id: id.clone(),
                    tool_call_name: name.clone(),
                    parent_message_id: Some(self.message_id()),
                });
            }
            StreamEvent::ToolCallArgs { id, delta } => {
                if self.open_calls.contains(id) && !delta.is_empty() {
                    out.push(Event::ToolCallArgs { tool_call_id: id.clone(), delta: delta.clone() });
                }
            }
            StreamEvent::ToolCallEnd { id } => {
                if let Some(i) = self.open_calls.iter().position(|open| open == id) {
                    self.open_calls.remove(i);
                    out.push(Event::ToolCallEnd { tool_call_id: id.clone() });
                }
            }
            StreamEvent::Usage(usage) => self.usage = Some(*usage),
            StreamEvent::Stop { .. } => {}
            StreamEvent::Error { code, message } => {
                self.phase = Phase::Ended;
                out.push(Event::RunError { message: message.clone(), code: code.clone() });
            }
        }
        out
    }

    /// A tool's answer, between model turns (an agent loop); the next text is a new message.
    pub fn tool_result(&mut self, tool_call_id: &str, content: &str) -> Vec<Event> {
        let mut out = Vec::new();
        if self.phase == Phase::Ended {
            return out;
        }
        self.close_open(&mut out);
        self.turn += 1;
        out.push(Event::ToolCallResult {
            message_id: format!("{}-tool-{tool_call_id}", self.run_id),
            tool_call_id: tool_call_id.to_string(),
            content: content.to_string(),
            role: Some("tool".to_string()),
        });
        out
    }

    /// Starts the run if it has not started, and closes the open reasoning, text and tool calls.
    fn close_open(&mut self, out: &mut Vec<Event>) {
        self.start_into(out);
        self.close_reasoning(out);
        self.close_text(out);
        self.close_calls(out);
    }

    /// Closes what is open and ends the run with `RUN_FINISHED`; nothing if it has ended.
    pub fn finish(&mut self) -> Vec<Event> {
        let mut out = Vec::new();
        if self.phase == Phase::Ended {
            return out;
        }
        self.close_open(&mut out);
        self.phase = Phase::Ended;
        out.push(Event::RunFinished {
            thread_id: self.thread_id.clone(),
            run_id: self.run_id.clone(),
            usage: self.usage.map(TokenUsage::from).into_iter().collect(),
        });
        out
    }

    /// As [`RunEvents::finish`], for a run whose answer is `message` (the whole answer the
    /// provider's stream gave): its reasoning state is written first, as
    /// `REASONING_ENCRYPTED_VALUE` events on the current assistant message and on its tool calls
    /// ([`super::reasoning`]), for the client to send back on the next run.
    pub fn answered(&mut self, message: &StandardMessage<'_>) -> Vec<Event> {
        let mut out = Vec::new();
        if self.phase == Phase::Ended {
            return out;
        }
        self.close_open(&mut out);
        if let Some(state) = &message.reasoning_state {
            let has_text = message
                .content
                .iter()
                .any(|block| matches!(block, ContentBlock::Text(text) if !text.trim().is_empty()));
            let values = reasoning::write(state, message.content.len(), has_text, message.tool_calls.len());
            // The client holds the message only when its text or a call of it was streamed.
            if let Some(value) = values.message.filter(|_| has_text || !message.tool_calls.is_empty()) {
                out.push(Event::ReasoningEncryptedValue {
                    subtype: Entity::Message,
                    entity_id: self.message_id(),
                    encrypted_value: value,
                });
            }
            for (call, value) in message.tool_calls.iter().zip(values.calls) {
                if let Some(value) = value {
                    out.push(Event::ReasoningEncryptedValue {
                        subtype: Entity::ToolCall,
                        entity_id: call.id.to_string(),
                        encrypted_value: value,
                    });
                }
            }
        }
        out.extend(self.finish());
        out
    }

    /// Ends the run with `RUN_ERROR` (a cancelled or failed run); nothing if it has ended.
    pub fn fail(&mut self, message: impl Into<String>, code: Option<String>) -> Vec<Event> {
        let mut out = Vec::new();
        if self.phase == Phase::Ended {
            return out;
        }
        self.start_into(&mut out);
        self.phase = Phase::Ended;
        out.push(Event::RunError { message: message.into(), code });
        out
    }

    /// Whether the terminal event has been written.
    pub fn ended(&self) -> bool {
        self.phase == Phase::Ended
    }
}
