//! The standard `_execute` request an AG-UI run stands for, and the turn it asks of a thread
//! whose memory may already hold the conversation.

use std::borrow::Cow;

use serde_json::{Value, json};

use super::origin::{MessageOrigin, to_agui_path};
use super::run::AgUiRun;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{AgentInput, Message};
use crate::path::{Path, Segment};

impl AgUiRun {
    /// The standard `_execute` request the run stands for: its messages as `input` (absent when
    /// there are none: the thread continues from its stored history) and its `threadId` as
    /// `parameters.memory_id`.
    pub fn request(&self) -> Value {
        let messages = self.messages();
        if messages.is_empty() {
            json!({"parameters": {"memory_id": self.thread_id}})
        } else {
            json!({"input": messages, "parameters": {"memory_id": self.thread_id}})
        }
    }

    /// The turn the run asks of its thread. A client such as `HttpAgent` sends the whole
    /// conversation every time, and the memory of a thread that exists already holds what came
    /// before: then only the messages after the last assistant message are new. A new thread
    /// starts with every message.
    ///
    /// # Errors
    /// `empty_field` at `/messages` when no message is new: the run has none, or none follows the
    /// last assistant message of a thread that exists.
    pub fn turn(&self, thread_exists: bool) -> Result<Turn, Report> {
        let messages = self.messages();
        let first = if thread_exists {
            messages.iter().rposition(|m| m.role.as_str() == "assistant").map_or(0, |i| i + 1)
        } else {
            0
        };
        let new = &messages[first..];
        if new.is_empty() {
            let why = if messages.is_empty() {
                "messages is empty: send at least one message to answer"
            } else {
                "no message follows the last assistant message: the thread's memory already holds the \
                 conversation, so there is nothing new to answer"
            };
            return Err(Diagnostic::new(Code::EmptyField, Path::root().key("messages"), why).into());
        }
        Ok(Turn {
            request: json!({"input": new, "parameters": {"memory_id": self.thread_id}}),
            first,
            origins: self.origins.get(first..).unwrap_or_default().to_vec(),
        })
    }

    /// The run's messages as standard messages.
    fn messages(&self) -> Cow<'_, [Message<'static>]> {
        match &self.input {
            None => Cow::Borrowed(&[]),
            Some(AgentInput::Messages(messages)) => Cow::Borrowed(messages),
            Some(other) => Cow::Owned(other.clone().into_messages()),
        }
    }
}

/// The turn an AG-UI run asks of its thread ([`AgUiRun::turn`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    /// The standard `_execute` request: the new messages as `input`, the `threadId` as
    /// `parameters.memory_id`.
    pub request: Value,
    /// How many of the run's messages the thread already holds: `input/0` is the run's message
    /// at this index.
    pub first: usize,
    /// Where each message of `input` came from in the AG-UI body.
    origins: Vec<MessageOrigin>,
}

impl Turn {
    /// Where a path of [`Turn::request`] points in the AG-UI body: `/input/<i>/...` is the place
    /// its message came from (`/messages/<n>/content/<j>/source/value`), `/input` is `/messages`,
    /// and any other path is kept.
    pub fn agui_path(&self, path: &Path) -> Path {
        match path.segments().first() {
            Some(Segment::Key(input)) if &**input == "input" => to_agui_path(path, &self.origins),
            _ => path.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::run::{AgUiRun, from_agui};
    use crate::path::Path;
    use crate::validate::Options;

    const PNG: &str =
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

    fn run(roles: &[&str]) -> AgUiRun {
        let messages: Vec<Value> = roles
            .iter()
            .enumerate()
            .map(|(i, role)| json!({"id": format!("m{i}"), "role": role, "content": format!("{role} {i}")}))
            .collect();
        let body = json!({"threadId": "t1", "runId": "r1", "state": {}, "messages": messages, "tools": [],
            "context": [], "forwardedProps": {}});
        // Prefill lets a run end with an assistant message, which a thread that exists may send.
        from_agui(&body, &Options { allow_prefill: true, ..Options::default() }).expect("a valid run")
    }

    fn texts(request: &Value) -> Vec<String> {
        request["input"]
            .as_array()
            .map(|messages| messages.iter().map(|m| m["content"][0]["text"].as_str().unwrap().to_string()).collect())
            .unwrap_or_default()
    }

    /// The run's roles, whether its thread exists, and the index of the first new message with
    /// the new messages' texts, or how the error's message starts.
    type Case = (&'static [&'static str], bool, Result<(usize, &'static [&'static str]), &'static str>);

    #[test]
    fn new_messages_are_those_after_the_last_assistant_message_of_a_thread_that_exists() {
        const NOTHING_NEW: &str = "no message follows the last assistant message";
        const EMPTY: &str = "messages is empty";
        const USER_ASSISTANT_USER: &[&str] = &["user", "assistant", "user"];
        let cases: [Case; 10] = [
            (&["user"], false, Ok((0, &["user 0"]))),
            (&["user"], true, Ok((0, &["user 0"]))),
            (USER_ASSISTANT_USER, false, Ok((0, &["user 0", "assistant 1", "user 2"]))),
            (USER_ASSISTANT_USER, true, Ok((2, &["user 2"]))),
            (
                &["system", "user", "assistant", "user", "assistant", "user", "user"],
                true,
                Ok((5, &["user 5", "user 6"])),
            ),
            // A new thread takes the conversation whatever it ends with.
            (&["user", "assistant"], false, Ok((0, &["user 0", "assistant 1"]))),
            (&["user", "assistant"], true, Err(NOTHING_NEW)),
            (&["assistant"], true, Err(NOTHING_NEW)),
            (&[], true, Err(EMPTY)),
            (&[], false, Err(EMPTY)),
        ];
        for (roles, exists, expected) in cases {
            let run = run(roles);
            let got = run.turn(exists);
            match (expected, got) {
                (Ok((first, input)), Ok(turn)) => {
                    assert_eq!(
                        (turn.first, texts(&turn.request)),
                        (first, input.iter().map(ToString::to_string).collect()),
                        "{roles:?} {exists}"
                    );
                    assert_eq!(turn.request["parameters"], json!({"memory_id": "t1"}));
                }
                (Err(why), Err(report)) => {
                    assert_eq!(report.errors.len(), 1, "{roles:?} {exists}");
                    let error = &report.errors[0];
                    assert_eq!((error.code.as_str(), error.path.to_string()), ("empty_field", "/messages".into()));
                    assert!(error.message.starts_with(why), "{roles:?} {exists}: {}", error.message);
                }
                (expected, got) => panic!("{roles:?} {exists}: expected {expected:?}, got {got:?}"),
            }
        }
    }

    #[test]
    fn the_request_carries_every_message_and_none_when_there_are_none() {
        let request = run(&["user", "assistant", "user"]).request();
        assert_eq!(texts(&request), ["user 0", "assistant 1", "user 2"]);
        assert_eq!(request["parameters"], json!({"memory_id": "t1"}));
        assert_eq!(run(&[]).request(), json!({"parameters": {"memory_id": "t1"}}));
    }

    #[test]
    fn paths_of_the_turn_point_where_their_message_came_from() {
        // A reasoning message is not sent to the model: the standard messages skip it.
        let body = json!({"threadId": "t", "runId": "r", "state": {}, "tools": [], "context": [],
            "forwardedProps": {}, "messages": [
                {"id": "1", "role": "user", "content": "Hi"},
                {"id": "2", "role": "assistant", "content": "Hello"},
                {"id": "3", "role": "reasoning", "content": "..."},
                {"id": "4", "role": "user", "content": [{"type": "text", "text": "And this?"},
                    {"type": "image", "source": {"type": "data", "value": PNG, "mimeType": "image/png"}}]}]});
        let turn = from_agui(&body, &Options::default()).expect("a run").turn(true).expect("a turn");
        assert_eq!(turn.first, 2);
        let cases = [
            ("/input/0/content/1/source/data", "/messages/3/content/1/source/value"),
            ("/input/0/content/1/source/format", "/messages/3/content/1/source/mimeType"),
            ("/input/0/content/1", "/messages/3/content/1"),
            ("/input/0/role", "/messages/3/role"),
            ("/input/0", "/messages/3"),
            ("/input/1", "/messages"),
            ("/input", "/messages"),
            ("/parameters/memory_id", "/parameters/memory_id"),
        ];
        for (path, expected) in cases {
            assert_eq!(turn.agui_path(&Path::parse(path).expect("a pointer")).to_string(), expected, "{path}");
        }
    }
}
