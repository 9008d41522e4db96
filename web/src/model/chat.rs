//! The streamed conversation as the execute pane shows it: each turn is what the user sent (text,
//! media as chips) and the run that answered it, built up from the run's AG-UI events (text
//! growing, tool calls as they are made, reasoning), with an event log timed from the request.
//!
//! The reducer trusts nothing: an event out of order (before `RUN_STARTED`, after the terminal
//! event, for a message never started) is kept in the log with what is wrong with it and shown,
//! never dropped in silence and never a panic; event types it does not know are logged.

mod event;
pub(crate) mod history;
mod user;

use std::fmt::Write as _;

use serde_json::Value;

use self::event::Event;
pub(crate) use self::user::{Media, UserTurn};
use super::backend::Reading;

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
    /// The body sent (its media as sent), what retry and edit start from.
    pub(crate) sent: Value,
    /// How many of its input's first messages repeat the transcript before it (a retried,
    /// edited or carried-on turn sends them again in a new memory).
    pub(crate) carried: usize,
    pub(crate) run: Run,
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
    /// Tokens read and written, when the backend said (`RUN_FINISHED`'s `usage`).
    pub(crate) usage: Option<(u64, u64)>,
    /// Read back from the backend's memory after a reload (no events, no timing).
    pub(crate) restored: bool,
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
            usage: None,
            restored: false,
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

    /// A finished run of `_execute` (not streamed): its answer whole, in the memory it returned.
    pub(crate) fn answered(text: String, memory_id: Option<String>, usage: Option<(u64, u64)>, millis: f64) -> Self {
        Self {
            thread_id: memory_id,
            usage,
            parts: vec![Part::Text { id: "answer".into(), text }],
            status: Status::Finished,
            answered_ms: Some(millis),
            ended_ms: Some(millis),
            ..Self::default()
        }
    }

    /// Whether the run ended before any event: refused, or never answered (a notice, not a turn).
    pub(crate) fn failed_to_start(&self) -> bool {
        self.log.is_empty() && matches!(self.status, Status::Rejected { .. } | Status::Unreachable { .. })
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
            Event::RunFinished { thread_id, usage } => {
                self.usage = usage;
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
        let mut chat = Chat { turns: vec![Turn { user: UserTurn::default(), sent: Value::Null, carried: 0, run }] };
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
}
