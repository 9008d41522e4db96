//! Bedrock `ConverseStream` event-stream messages → [`StreamEvent`]s.

use serde_json::Value;

use crate::providers::common::stream::event_stream::Message;
use crate::providers::common::stream::{Answer, StreamError, StreamEvent, error_message, json, str_at, u64_at, usage};

/// One Bedrock `ConverseStream` event-stream message.
pub(crate) fn message(
    message: &Message,
    answer: &mut Answer,
    events: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    let payload = || -> Result<Value, StreamError> {
        let text = std::str::from_utf8(&message.payload).map_err(|_| StreamError::InvalidUtf8)?;
        if text.trim().is_empty() { Ok(Value::Null) } else { json(text) }
    };
    match message.header(":message-type") {
        Some("event") => {}
        Some("exception") => {
            let code = message.header(":exception-type").map(str::to_string);
            let message = payload()
                .map_or_else(|_| String::from_utf8_lossy(&message.payload).into_owned(), |v| error_message(&v));
            answer.error(code, message, events);
            return Ok(());
        }
        Some("error") => {
            let code = message.header(":error-code").map(str::to_string);
            let text = message.header(":error-message").unwrap_or("unknown error").to_string();
            answer.error(code, text, events);
            return Ok(());
        }
        other => {
            return Err(StreamError::InvalidFrame(format!("unknown :message-type {}", other.unwrap_or("(absent)"))));
        }
    }
    let body = payload()?;
    let index = u64_at(&body, "/contentBlockIndex").unwrap_or(0);
    match message.header(":event-type") {
        Some("contentBlockStart") => {
            if let Some(tool) = body.pointer("/start/toolUse") {
                let id = str_at(tool, "/toolUseId").unwrap_or_default();
                let name = str_at(tool, "/name").unwrap_or_default();
                answer.start_call(index, id, name, events);
            }
        }
        Some("contentBlockDelta") => {
            if let Some(text) = str_at(&body, "/delta/text") {
                answer.text(index, text, events);
            } else if let Some(input) = str_at(&body, "/delta/toolUse/input") {
                answer.call_args(index, input, events);
            } else if let Some(reasoning) = body.pointer("/delta/reasoningContent") {
                if let Some(text) = str_at(reasoning, "/text") {
                    answer.reasoning(index, text, events);
                }
                reasoning_state(index, reasoning, answer);
            }
        }
        Some("contentBlockStop") => {
            answer.end_call(index, events);
            answer.end_block(index);
        }
        Some("messageStop") => {
            answer.end_all_calls(events);
            if let Some(reason) = str_at(&body, "/stopReason") {
                answer.stop(super::response::stop_reason(reason), events);
            }
        }
        Some("metadata") => {
            if let Some(usage) = usage(
                body.get("usage"),
                "inputTokens",
                "outputTokens",
                Some("totalTokens"),
                ["/cacheReadInputTokens", "/cacheWriteInputTokens"],
            ) {
                answer.usage(usage, events);
            }
        }
        // messageStart carries only the role; later event types are skipped as the parser skips
        // unknown blocks.
        _ => {}
    }
    Ok(())
}

/// A `reasoningContent` delta gathered into the block the non-streaming answer gives:
/// `{"reasoningContent": {"reasoningText": {"text", "signature"}}}` or `{"redactedContent"}`.
fn reasoning_state(index: u64, delta: &Value, answer: &mut Answer) {
    if let Some(redacted) = str_at(delta, "/redactedContent") {
        answer.begin_block(index, serde_json::json!({"reasoningContent": {"redactedContent": redacted}}));
        return;
    }
    if answer.pending_block(index).is_none() {
        answer.begin_block(index, serde_json::json!({"reasoningContent": {"reasoningText": {"text": ""}}}));
    }
    let Some(Value::Object(text)) =
        answer.pending_block(index).and_then(|b| b.pointer_mut("/reasoningContent/reasoningText"))
    else {
        return;
    };
    for key in ["text", "signature"] {
        if let Some(piece) = str_at(delta, &format!("/{key}"))
            && let Value::String(held) = text.entry(key).or_insert_with(|| Value::from(""))
        {
            held.push_str(piece);
        }
    }
}
