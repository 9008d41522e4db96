//! The AG-UI events the chat reads, each read from the event's parsed JSON.

use serde_json::Value;

/// The AG-UI events the chat reads (`@ag-ui/core` 1.0, as CONTRACTS B has the gateway write
/// them); any other type is [`Event::Other`], logged and not applied. Not the core's
/// `agui::Event`, whose derived readers for every AG-UI event cost the first download 26 KB gzip;
/// and read by [`Event::read`] from the parsed value rather than by a derived `Deserialize`, which
/// cost 9 KB more (docs/decisions/playground.md, "The chat reads events with its own small enum").
#[derive(Debug)]
pub(super) enum Event {
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
    pub(super) fn read(value: &Value) -> Result<Self, String> {
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

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
}
