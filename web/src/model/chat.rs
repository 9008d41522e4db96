//! The streamed conversation as the execute pane shows it: each turn is what the user sent (text,
//! media as chips) and the run that answered it, built up from the run's AG-UI events (text
//! growing, tool calls as they are made, reasoning), with an event log timed from the request.
//!
//! The reducer trusts nothing: an event out of order (before `RUN_STARTED`, after the terminal
//! event, for a message never started) is kept in the log with what is wrong with it and shown,
//! never dropped in silence and never a panic; event types it does not know are logged.

use std::fmt::Write as _;

use serde_json::Value;

use super::backend::Reading;
use super::media::{is_image_bytes, preview_key};

/// The AG-UI events the chat reads (`@ag-ui/core` 1.0, as CONTRACTS B has the gateway write
/// them); any other type is [`Event::Other`], logged and not applied. Not the core's
/// `agui::Event`, whose derived readers for every AG-UI event cost the first download 26 KB gzip;
/// and read by [`Event::read`] from the parsed value rather than by a derived `Deserialize`, which
/// cost 9 KB more (docs/decisions.md, "The chat reads events with its own small enum").
#[derive(Debug)]
enum Event {
    RunStarted {
        thread_id: String,
        run_id: String,
    },
    RunFinished {
        thread_id: String,
    },
    RunError {
        message: String,
        code: Option<String>,
    },
    TextMessageStart {
        message_id: String,
    },
    TextMessageContent {
        message_id: String,
        delta: String,
    },
    TextMessageEnd {
        message_id: String,
    },
    ToolCallStart {
        tool_call_id: String,
        tool_call_name: String,
    },
    ToolCallArgs {
        tool_call_id: String,
        delta: String,
    },
    ToolCallEnd {
        tool_call_id: String,
    },
    ToolCallResult {
        tool_call_id: String,
        content: String,
    },
    ReasoningMessageStart {
        message_id: String,
    },
    ReasoningMessageContent {
        message_id: String,
        delta: String,
    },
    ReasoningMessageEnd {
        message_id: String,
    },
    /// A type the chat does not read.
    Other,
}

impl Event {
    /// The event `value` is; `Err` says what is missing or of the wrong type.
    fn read(value: &Value) -> Result<Self, String> {
        let text = |key: &str| match value.get(key) {
            Some(Value::String(s)) => Ok(s.clone()),
            Some(other) => Err(format!("`{key}` is not a string: {other}")),
            None => Err(format!("missing field `{key}`")),
        };
        let Some(object) = value.as_object() else {
            return Err(format!("not an object: {value}"));
        };
        let kind = match object.get("type") {
            Some(Value::String(kind)) => kind.as_str(),
            Some(other) => return Err(format!("`type` is not a string: {other}")),
            None => return Err("missing field `type`".into()),
        };
        Ok(match kind {
            "RUN_STARTED" => Self::RunStarted { thread_id: text("threadId")?, run_id: text("runId")? },
            "RUN_FINISHED" => Self::RunFinished { thread_id: text("threadId")? },
            "RUN_ERROR" => Self::RunError {
                message: text("message")?,
                code: match object.get("code") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(text("code")?),
                },
            },
            "TEXT_MESSAGE_START" => Self::TextMessageStart { message_id: text("messageId")? },
            "TEXT_MESSAGE_CONTENT" => {
                Self::TextMessageContent { message_id: text("messageId")?, delta: text("delta")? }
            }
            "TEXT_MESSAGE_END" => Self::TextMessageEnd { message_id: text("messageId")? },
            "TOOL_CALL_START" => {
                Self::ToolCallStart { tool_call_id: text("toolCallId")?, tool_call_name: text("toolCallName")? }
            }
            "TOOL_CALL_ARGS" => Self::ToolCallArgs { tool_call_id: text("toolCallId")?, delta: text("delta")? },
            "TOOL_CALL_END" => Self::ToolCallEnd { tool_call_id: text("toolCallId")? },
            "TOOL_CALL_RESULT" => Self::ToolCallResult { tool_call_id: text("toolCallId")?, content: text("content")? },
            "REASONING_MESSAGE_START" => Self::ReasoningMessageStart { message_id: text("messageId")? },
            "REASONING_MESSAGE_CONTENT" => {
                Self::ReasoningMessageContent { message_id: text("messageId")?, delta: text("delta")? }
            }
            "REASONING_MESSAGE_END" => Self::ReasoningMessageEnd { message_id: text("messageId")? },
            _ => Self::Other,
        })
    }
}

/// Most events one run's log keeps; past it they are counted, not kept (a long answer can be
/// thousands of deltas, each already in the answer).
pub(crate) const MAX_LOG: usize = 2000;

/// A conversation: its turns in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Chat {
    pub(crate) turns: Vec<Turn>,
}

impl Chat {
    /// The run under way (the last one, while it has not ended).
    pub(crate) fn current(&mut self) -> Option<&mut Run> {
        self.turns.last_mut().map(|t| &mut t.run).filter(|r| !r.status.is_over())
    }
}

/// What the user sent, and the run that answered it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Turn {
    pub(crate) user: UserTurn,
    pub(crate) run: Run,
}

/// The user's side of a turn, as shown: texts and media chips.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct UserTurn {
    /// `user`, or the role of the input's last message.
    pub(crate) role: String,
    /// Messages sent before the last one (an input of several messages shows its last).
    pub(crate) earlier: usize,
    pub(crate) texts: Vec<String>,
    pub(crate) media: Vec<Media>,
}

/// A media block of the user's turn.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Media {
    /// `image`, `video`, `document`, or another block type.
    pub(crate) kind: String,
    /// The format and size, or the URL: what the chip says.
    pub(crate) label: String,
    /// The key of the editor's preview of these bytes (`media::preview_key`).
    pub(crate) preview_key: Option<String>,
    /// A small image's `data:` URL, when the editor has no preview.
    pub(crate) inline: Option<String>,
}

/// Images up to this much base64 are shown from a `data:` URL when the editor has no preview.
const INLINE_IMAGE_BASE64: usize = 96 * 1024;

impl UserTurn {
    /// The user's turn in a request body (any of the four input forms).
    pub(crate) fn of(body: &Value) -> Self {
        let mut turn = Self { role: "user".into(), ..Self::default() };
        match body.get("input") {
            Some(Value::String(text)) => turn.texts.push(text.clone()),
            Some(Value::Array(items)) if items.iter().any(|i| i.get("role").is_some()) => {
                turn.earlier = items.len().saturating_sub(1);
                if let Some(last) = items.last() {
                    last["role"].as_str().unwrap_or("?").clone_into(&mut turn.role);
                    match &last["content"] {
                        Value::String(text) => turn.texts.push(text.clone()),
                        Value::Array(blocks) => turn.add_blocks(blocks),
                        _ => {}
                    }
                }
            }
            Some(Value::Array(blocks)) => turn.add_blocks(blocks),
            _ => {
                if let Some(question) = body.pointer("/parameters/question").and_then(Value::as_str) {
                    turn.texts.push(question.to_string());
                }
            }
        }
        turn
    }

    fn add_blocks(&mut self, blocks: &[Value]) {
        for block in blocks {
            let kind = block["type"].as_str().unwrap_or("?");
            if kind == "text" {
                self.texts.push(block["text"].as_str().unwrap_or_default().to_string());
                continue;
            }
            let format = block.pointer("/source/format").and_then(Value::as_str).unwrap_or_default();
            let data = block.pointer("/source/data").and_then(Value::as_str);
            let mut media = Media { kind: kind.to_string(), label: String::new(), preview_key: None, inline: None };
            match (block.pointer("/source/type").and_then(Value::as_str), data) {
                (Some("base64"), Some(data)) => {
                    let padding = data.bytes().rev().take_while(|&b| b == b'=').count();
                    let bytes = (data.len() / 4 * 3).saturating_sub(padding);
                    media.label = format!("{format} {}", super::display::human_bytes(bytes));
                    if kind == "image" {
                        media.preview_key = Some(preview_key(data));
                        if data.len() <= INLINE_IMAGE_BASE64 && is_image_bytes(data) {
                            let mime = agent_input::format::ImageFormat::ALL
                                .iter()
                                .find(|f| f.as_str() == format.to_ascii_lowercase())
                                .map_or("image/png", |f| f.mime_type());
                            media.inline = Some(format!("data:{mime};base64,{data}"));
                        }
                    }
                }
                (Some("url"), Some(url)) => media.label = format!("{format} {url}"),
                _ => media.label = format.to_string(),
            }
            self.media.push(media);
        }
    }
}

/// How a run stands.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Status {
    /// Sent; no answer yet.
    Waiting,
    /// `200` and events arriving.
    Streaming,
    /// `RUN_FINISHED`.
    Finished,
    /// `RUN_ERROR`.
    RunError { message: String, code: Option<String> },
    /// The user pressed Stop.
    Stopped,
    /// The backend answered with an error status before any stream (the usual error body).
    Rejected { status: u16, reading: Reading, raw: String },
    /// No response at all (the network, CORS, a bad URL).
    Unreachable { reason: String, cross_origin: bool },
    /// The stream broke off, or ended without a terminal event, or went over the limit.
    Broken { reason: String },
}

impl Status {
    pub(crate) fn is_over(&self) -> bool {
        !matches!(self, Self::Waiting | Self::Streaming)
    }
}

/// A piece of the assistant's answer, in the order the events opened them.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Part {
    Text { id: String, text: String },
    Reasoning { id: String, text: String },
    ToolCall { id: String, name: String, args: String, done: bool, result: Option<String> },
}

/// Most of an event's JSON a log line keeps (the whole text is in the answer).
const MAX_LOGGED_JSON: usize = 2000;

/// One line of the event log.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct LogEntry {
    /// Milliseconds since the request was sent.
    pub(crate) millis: f64,
    /// The event's `type` (`?` when it has none).
    pub(crate) kind: String,
    /// The event's JSON, base64 shortened, cut after [`MAX_LOGGED_JSON`] bytes.
    pub(crate) json: String,
    /// What is wrong with it, if anything.
    pub(crate) problem: Option<String>,
}

/// One run: the answer so far, how it stands, and its events.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Run {
    pub(crate) thread_id: Option<String>,
    /// `RUN_STARTED`'s `runId`.
    pub(crate) id: Option<String>,
    pub(crate) parts: Vec<Part>,
    pub(crate) status: Status,
    pub(crate) log: Vec<LogEntry>,
    /// Events past [`MAX_LOG`], counted.
    pub(crate) unlogged: usize,
    /// Events that broke the protocol (each also marked in the log).
    pub(crate) problems: usize,
    /// When the response's headers came, and when the run ended (ms since the request).
    pub(crate) answered_ms: Option<f64>,
    pub(crate) ended_ms: Option<f64>,
}

impl Default for Run {
    fn default() -> Self {
        Self {
            thread_id: None,
            id: None,
            parts: Vec::new(),
            status: Status::Waiting,
            log: Vec::new(),
            unlogged: 0,
            problems: 0,
            answered_ms: None,
            ended_ms: None,
        }
    }
}

impl Run {
    /// The whole answer's text, the text parts joined.
    #[cfg(test)]
    fn text(&self) -> String {
        self.parts
            .iter()
            .filter_map(|p| match p {
                Part::Text { text, .. } => Some(text.as_str()),
                Part::Reasoning { .. } | Part::ToolCall { .. } => None,
            })
            .collect()
    }

    /// The response's headers came with `200`: events follow.
    pub(crate) fn streaming(&mut self, millis: f64) {
        self.answered_ms = Some(millis);
        if self.status == Status::Waiting {
            self.status = Status::Streaming;
        }
    }

    /// Ends the run with `status` unless it has ended already (a terminal event wins over what
    /// happens to the connection after it).
    pub(crate) fn end(&mut self, status: Status, millis: f64) {
        if !self.status.is_over() {
            self.status = status;
            self.ended_ms = Some(millis);
        }
    }

    /// The response's body ended.
    pub(crate) fn end_of_stream(&mut self, millis: f64) {
        let reason = if self.id.is_none() {
            "the stream ended without any event"
        } else {
            "the stream ended without RUN_FINISHED or RUN_ERROR"
        };
        self.end(Status::Broken { reason: reason.into() }, millis);
    }

    /// Applies one SSE event's data.
    pub(crate) fn apply(&mut self, data: &str, millis: f64) {
        let value = serde_json::from_str::<Value>(data);
        let kind = match &value {
            Ok(v) => v.get("type").and_then(Value::as_str).unwrap_or("?").to_string(),
            Err(_) => "?".to_string(),
        };
        let problem = match value {
            Err(e) => Some(format!("not JSON: {e}")),
            Ok(v) => match Event::read(&v) {
                Err(e) => Some(format!("not an AG-UI event the playground reads: {e}")),
                Ok(event) => self.reduce(event, millis),
            },
        };
        if problem.is_some() {
            self.problems += 1;
        }
        if self.log.len() < MAX_LOG {
            let mut json = super::display::shorten_json_text(data, &[]);
            if json.len() > MAX_LOGGED_JSON {
                let cut = (0..=MAX_LOGGED_JSON).rev().find(|&i| json.is_char_boundary(i)).unwrap_or(0);
                let more = json.len() - cut;
                json.truncate(cut);
                let _ = write!(json, "… ({more} more bytes)");
            }
            self.log.push(LogEntry { millis, kind, json, problem });
        } else {
            self.unlogged += 1;
        }
    }

    /// The event's effect; `Some` is what is wrong with it (it then changes nothing).
    fn reduce(&mut self, event: Event, millis: f64) -> Option<String> {
        let started = self.id.is_some();
        match event {
            Event::RunStarted { .. } if started => return Some("a second RUN_STARTED".into()),
            Event::RunStarted { thread_id, run_id } => {
                self.thread_id = Some(thread_id);
                self.id = Some(run_id);
                return None;
            }
            _ if !started => return Some("before RUN_STARTED".into()),
            _ if self.status.is_over() => return Some("after the run ended".into()),
            _ => {}
        }
        match event {
            Event::RunFinished { thread_id } => {
                if self.thread_id.as_deref() != Some(thread_id.as_str()) {
                    return Some(format!(
                        "RUN_FINISHED's threadId is not RUN_STARTED's ({})",
                        self.thread_id.as_deref().unwrap_or_default()
                    ));
                }
                self.end(Status::Finished, millis);
            }
            Event::RunError { message, code } => self.end(Status::RunError { message, code }, millis),
            Event::TextMessageStart { message_id } => {
                return self.open(Part::Text { id: message_id, text: String::new() });
            }
            Event::ReasoningMessageStart { message_id } => {
                return self.open(Part::Reasoning { id: message_id, text: String::new() });
            }
            Event::ToolCallStart { tool_call_id, tool_call_name } => {
                let part = Part::ToolCall {
                    id: tool_call_id,
                    name: tool_call_name,
                    args: String::new(),
                    done: false,
                    result: None,
                };
                return self.open(part);
            }
            Event::TextMessageContent { message_id, delta } => match self.part(&message_id) {
                Some(Part::Text { text, .. }) => text.push_str(&delta),
                _ => return Some(format!("no text message {message_id} was started")),
            },
            Event::ReasoningMessageContent { message_id, delta } => match self.part(&message_id) {
                Some(Part::Reasoning { text, .. }) => text.push_str(&delta),
                _ => return Some(format!("no reasoning message {message_id} was started")),
            },
            Event::ToolCallArgs { tool_call_id, delta } => match self.part(&tool_call_id) {
                Some(Part::ToolCall { args, done: false, .. }) => args.push_str(&delta),
                _ => return Some(format!("no open tool call {tool_call_id}")),
            },
            Event::ToolCallEnd { tool_call_id } => match self.part(&tool_call_id) {
                Some(Part::ToolCall { done, .. }) if !*done => *done = true,
                _ => return Some(format!("no open tool call {tool_call_id}")),
            },
            Event::ToolCallResult { tool_call_id, content } => match self.part(&tool_call_id) {
                Some(Part::ToolCall { result, .. }) => *result = Some(content),
                _ => return Some(format!("no tool call {tool_call_id} was made")),
            },
            Event::TextMessageEnd { message_id } | Event::ReasoningMessageEnd { message_id } => {
                if self.part(&message_id).is_none() {
                    return Some(format!("no message {message_id} was started"));
                }
            }
            // RUN_STARTED was taken above; unknown types are only logged.
            Event::RunStarted { .. } | Event::Other => {}
        }
        None
    }

    fn open(&mut self, part: Part) -> Option<String> {
        let id = part_id(&part).to_string();
        if self.part(&id).is_some() {
            return Some(format!("{id} was started before"));
        }
        self.parts.push(part);
        None
    }

    fn part(&mut self, id: &str) -> Option<&mut Part> {
        self.parts.iter_mut().find(|p| part_id(p) == id)
    }
}

fn part_id(part: &Part) -> &str {
    match part {
        Part::Text { id, .. } | Part::Reasoning { id, .. } | Part::ToolCall { id, .. } => id,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn run_of(events: &[Value]) -> Run {
        let mut run = Run::default();
        run.streaming(1.0);
        for (i, e) in events.iter().enumerate() {
            run.apply(&e.to_string(), 2.0 + f64::from(u32::try_from(i).unwrap()));
        }
        run
    }

    fn started() -> Value {
        json!({"type": "RUN_STARTED", "threadId": "m1", "runId": "r1", "timestamp": 1})
    }

    #[test]
    fn text_grows_with_each_delta_and_the_run_finishes() {
        let mut run = run_of(&[
            started(),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "r1-1", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "r1-1", "delta": "echo: "}),
        ]);
        assert_eq!(run.status, Status::Streaming);
        assert_eq!(run.text(), "echo: ");
        run.apply(&json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "r1-1", "delta": "1 message"}).to_string(), 9.0);
        run.apply(&json!({"type": "TEXT_MESSAGE_END", "messageId": "r1-1"}).to_string(), 10.0);
        run.apply(&json!({"type": "RUN_FINISHED", "threadId": "m1", "runId": "r1"}).to_string(), 11.0);
        assert_eq!(run.text(), "echo: 1 message");
        assert_eq!(run.status, Status::Finished);
        assert_eq!(run.ended_ms, Some(11.0));
        assert_eq!(run.problems, 0);
        let kinds: Vec<&str> = run.log.iter().map(|e| e.kind.as_str()).collect();
        assert_eq!(
            kinds,
            [
                "RUN_STARTED",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "RUN_FINISHED"
            ]
        );
        // A connection that drops after the terminal event changes nothing.
        run.end_of_stream(12.0);
        assert_eq!(run.status, Status::Finished);
        assert_eq!((run.thread_id.as_deref(), run.id.as_deref()), (Some("m1"), Some("r1")));
    }

    #[test]
    fn tool_calls_appear_as_they_are_made_and_reasoning_is_kept_apart() {
        let run = run_of(&[
            started(),
            json!({"type": "REASONING_START", "messageId": "r1-reasoning-1"}),
            json!({"type": "REASONING_MESSAGE_START", "messageId": "r1-reasoning-1", "role": "reasoning"}),
            json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "r1-reasoning-1", "delta": "think"}),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c1", "toolCallName": "search", "parentMessageId": "r1-1"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "{\"q\":"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c1", "delta": "\"x\"}"}),
        ]);
        assert_eq!(
            run.parts,
            [
                Part::Reasoning { id: "r1-reasoning-1".into(), text: "think".into() },
                Part::ToolCall {
                    id: "c1".into(),
                    name: "search".into(),
                    args: r#"{"q":"x"}"#.into(),
                    done: false,
                    result: None
                },
            ]
        );
        assert_eq!(run.text(), "");
        let mut run = run;
        run.apply(&json!({"type": "TOOL_CALL_END", "toolCallId": "c1"}).to_string(), 20.0);
        run.apply(
            &json!({"type": "TOOL_CALL_RESULT", "messageId": "t1", "toolCallId": "c1", "content": "42"}).to_string(),
            21.0,
        );
        assert!(matches!(&run.parts[1], Part::ToolCall { done: true, result: Some(r), .. } if r == "42"));
        assert_eq!(run.problems, 0);
    }

    #[test]
    fn run_error_ends_the_run_with_its_message() {
        let run = run_of(&[started(), json!({"type": "RUN_ERROR", "message": "throttled", "code": "provider_error"})]);
        assert_eq!(run.status, Status::RunError { message: "throttled".into(), code: Some("provider_error".into()) });
        let mut chat = Chat { turns: vec![Turn { user: UserTurn::default(), run }] };
        assert!(chat.current().is_none(), "an ended run is not under way");
    }

    #[test]
    fn protocol_breaches_are_logged_with_what_is_wrong_never_applied() {
        let run = run_of(&[
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "x", "delta": "early"}),
            started(),
            started(),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "nope", "delta": "lost?"}),
            json!({"type": "TEXT_MESSAGE_START"}),
            json!({"type": "STEP_STARTED", "stepName": "plan"}),
            json!({"type": "RUN_FINISHED", "threadId": "other", "runId": "r1"}),
            json!({"type": "RUN_FINISHED", "threadId": "m1", "runId": "r1"}),
            json!({"type": "RUN_FINISHED", "threadId": "m1", "runId": "r1"}),
        ]);
        let problems: Vec<Option<&str>> = run.log.iter().map(|e| e.problem.as_deref()).collect();
        assert_eq!(problems[0], Some("before RUN_STARTED"));
        assert_eq!(problems[1], None);
        assert_eq!(problems[2], Some("a second RUN_STARTED"));
        assert_eq!(problems[3], Some("no text message nope was started"));
        assert!(problems[4].unwrap().starts_with("not an AG-UI event the playground reads: missing field `messageId`"));
        assert_eq!(problems[5], None, "an unknown type is logged, not a breach");
        assert_eq!(problems[6], Some("RUN_FINISHED's threadId is not RUN_STARTED's (m1)"));
        assert_eq!(problems[7], None);
        assert_eq!(problems[8], Some("after the run ended"));
        assert_eq!(run.problems, 6);
        assert_eq!(run.status, Status::Finished);
        assert_eq!(run.text(), "");
    }

    #[test]
    fn events_are_read_field_by_field() {
        let read = |v: Value| Event::read(&v);
        assert!(matches!(
            read(json!({"type": "RUN_ERROR", "message": "m", "code": null})),
            Ok(Event::RunError { code: None, .. })
        ));
        assert!(matches!(read(json!({"type": "RUN_ERROR", "message": "m", "code": "c"})),
            Ok(Event::RunError { code: Some(c), .. }) if c == "c"));
        assert_eq!(
            read(json!({"type": "RUN_ERROR", "message": "m", "code": 5})).unwrap_err(),
            "`code` is not a string: 5"
        );
        assert_eq!(read(json!({"type": "TOOL_CALL_ARGS", "toolCallId": "t"})).unwrap_err(), "missing field `delta`");
        assert_eq!(read(json!({"type": 1})).unwrap_err(), "`type` is not a string: 1");
        assert_eq!(read(json!({})).unwrap_err(), "missing field `type`");
        assert_eq!(read(json!([1])).unwrap_err(), "not an object: [1]");
        assert!(matches!(read(json!({"type": "STATE_SNAPSHOT", "snapshot": {}})), Ok(Event::Other)));
    }

    #[test]
    fn not_json_and_a_stream_without_a_terminal_event() {
        let mut run = run_of(&[json!("x")]);
        run.apply("{not json", 3.0);
        assert!(run.log[1].problem.as_deref().unwrap().starts_with("not JSON"));
        assert_eq!(run.log[1].kind, "?");
        run.end_of_stream(4.0);
        assert_eq!(run.status, Status::Broken { reason: "the stream ended without any event".into() });
        let mut run = run_of(&[started()]);
        run.end_of_stream(4.0);
        assert_eq!(run.status, Status::Broken { reason: "the stream ended without RUN_FINISHED or RUN_ERROR".into() });
        let mut run = run_of(&[started()]);
        run.end(Status::Stopped, 5.0);
        run.end(Status::Broken { reason: "aborted".into() }, 6.0);
        assert_eq!(run.status, Status::Stopped);
    }

    #[test]
    fn a_long_event_is_logged_cut_and_the_answer_keeps_it_whole() {
        let long = "é".repeat(1500);
        let run = run_of(&[
            started(),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "a", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "a", "delta": long}),
        ]);
        assert_eq!(run.text(), long);
        let logged = &run.log[2].json;
        assert!(logged.len() < MAX_LOGGED_JSON + 30 && logged.ends_with(" more bytes)"), "{logged}");
    }

    #[test]
    fn the_log_is_capped_and_counts_the_rest() {
        let mut run =
            run_of(&[started(), json!({"type": "TEXT_MESSAGE_START", "messageId": "a", "role": "assistant"})]);
        for _ in 0..MAX_LOG + 5 {
            run.apply(r#"{"type":"TEXT_MESSAGE_CONTENT","messageId":"a","delta":"x"}"#, 1.0);
        }
        assert_eq!(run.log.len(), MAX_LOG);
        assert_eq!(run.unlogged, 7);
        assert_eq!(run.text().len(), MAX_LOG + 5, "the answer keeps every delta");
    }

    #[test]
    fn the_user_turn_of_each_input_form() {
        let text = UserTurn::of(&json!({"input": "hi", "parameters": {"memory_id": "m"}}));
        assert_eq!((text.role.as_str(), text.texts.as_slice()), ("user", ["hi".to_string()].as_slice()));
        let legacy = UserTurn::of(&json!({"parameters": {"question": "q"}}));
        assert_eq!(legacy.texts, ["q"]);
        // A 1×1 PNG: small, so shown inline; the chip says its format and size.
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
        let blocks = UserTurn::of(&json!({"input": [
            {"type": "text", "text": "what is this?"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": png}},
            {"type": "document", "source": {"type": "url", "format": "pdf", "data": "s3://b/k.pdf"}},
        ]}));
        assert_eq!(blocks.texts, ["what is this?"]);
        assert_eq!(blocks.media.len(), 2);
        assert_eq!(blocks.media[0].label, "png 70 B");
        assert_eq!(blocks.media[0].preview_key.as_deref(), Some(preview_key(png).as_str()));
        assert_eq!(blocks.media[0].inline, Some(format!("data:image/png;base64,{png}")));
        assert_eq!(
            blocks.media[1],
            Media { kind: "document".into(), label: "pdf s3://b/k.pdf".into(), preview_key: None, inline: None }
        );
        let messages = UserTurn::of(&json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "a"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "b"}]},
            {"role": "user", "content": [{"type": "text", "text": "c"}]},
        ]}));
        assert_eq!(
            (messages.role.as_str(), messages.earlier, messages.texts.as_slice()),
            ("user", 2, ["c".to_string()].as_slice())
        );
    }

    #[test]
    fn bytes_that_are_not_an_image_get_no_inline_preview() {
        let turn = UserTurn::of(
            &json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": "AAAA"}}]}),
        );
        assert_eq!(turn.media[0].inline, None);
        assert!(turn.media[0].preview_key.is_some());
    }
}
