//! The conversation as messages: what a turn sent, the answers' text, the body that resends a turn
//! (retry, edit) or carries on without one (delete) in a new memory, and the transcript read back
//! from the backend's memory (`GET /_plugins/_ml/memory/<id>/messages`) after a reload.

use serde_json::{Map, Value, json};

use super::{Part, Run, Status, Turn, UserTurn};

/// The input of `body` as standard messages (text, content blocks and the legacy question become
/// one user message).
pub(crate) fn input_messages(body: &Value) -> Vec<Value> {
    let user = |content: Value| json!({"role": "user", "content": content});
    match body.get("input") {
        Some(Value::String(text)) => vec![user(json!([{"type": "text", "text": text}]))],
        Some(Value::Array(items)) if items.iter().any(|i| i.get("role").is_some()) => items.clone(),
        Some(Value::Array(blocks)) => vec![user(Value::Array(blocks.clone()))],
        _ => body
            .pointer("/parameters/question")
            .and_then(Value::as_str)
            .map(|q| vec![user(json!([{"type": "text", "text": q}]))])
            .unwrap_or_default(),
    }
}

/// The answer's text as an assistant message (none when it has no text).
fn answer_message(run: &Run) -> Option<Value> {
    let text: String = run
        .parts
        .iter()
        .filter_map(|p| match p {
            Part::Text { text, .. } => Some(text.as_str()),
            Part::Reasoning { .. } | Part::ToolCall { .. } => None,
        })
        .collect();
    (!text.is_empty()).then(|| json!({"role": "assistant", "content": [{"type": "text", "text": text}]}))
}

/// Whether the turn continued a memory (sent with `parameters.memory_id`).
fn continued(turn: &Turn) -> bool {
    continues(&turn.sent)
}

fn continues(sent: &Value) -> bool {
    sent.pointer("/parameters/memory_id").and_then(Value::as_str).is_some_and(|m| !m.is_empty())
}

/// Whether the turn goes on from the transcript before it (its memory, or the turns carried).
fn goes_on(turn: &Turn) -> bool {
    continued(turn) || turn.carried > 0
}

/// The messages the conversation holds before turn `k`'s input, as the transcript shows it (a
/// turn sent afresh, neither continuing a memory nor carrying the turns before it, starts anew
/// with what it sent).
fn before(turns: &[Turn], k: usize) -> Vec<Value> {
    let mut messages = Vec::new();
    for turn in &turns[..k.min(turns.len())] {
        if !goes_on(turn) {
            messages.clear();
        }
        messages.extend(input_messages(&turn.sent).into_iter().skip(turn.carried));
        messages.extend(answer_message(&turn.run));
    }
    messages
}

/// How many of `sent`'s first input messages repeat the transcript of `turns` (what a retry,
/// an edit or a delete put into the composer): none when it continues a memory.
pub(crate) fn carried(turns: &[Turn], sent: &Value) -> usize {
    if continues(sent) {
        return 0;
    }
    let shown = before(turns, turns.len());
    let input = input_messages(sent);
    if !shown.is_empty() && input.len() > shown.len() && input[..shown.len()] == shown[..] { shown.len() } else { 0 }
}

/// `sent`'s other members with `input` set to `messages` and the memory id left out (the body
/// starts a new memory holding what the transcript shows).
fn body_with(sent: &Value, messages: Vec<Value>) -> Value {
    let mut body = Map::new();
    body.insert("input".into(), Value::Array(messages));
    if let Value::Object(object) = sent {
        for (key, value) in object {
            match (key.as_str(), value) {
                ("input", _) => {}
                ("parameters", Value::Object(parameters)) => {
                    let mut kept = parameters.clone();
                    kept.shift_remove("memory_id");
                    kept.shift_remove("question");
                    if !kept.is_empty() {
                        body.insert(key.clone(), Value::Object(kept));
                    }
                }
                _ => {
                    body.insert(key.clone(), value.clone());
                }
            }
        }
    }
    Value::Object(body)
}

/// The body that sends turn `k` again (retry, or edit before sending): the conversation before it
/// and its own input as messages, in a new memory. The backend's memory keeps what it was sent,
/// so going back means a new memory holding the turns shown.
pub(crate) fn resend(turns: &[Turn], k: usize) -> Option<Value> {
    let turn = turns.get(k)?;
    let mut messages = if goes_on(turn) { before(turns, k) } else { Vec::new() };
    messages.extend(input_messages(&turn.sent).into_iter().skip(turn.carried));
    Some(body_with(&turn.sent, messages))
}

/// The body of the next turn once turn `k` is deleted from `turns` (already without it): the
/// turns left as messages and a blank user message, in a new memory; `None` when none is left.
pub(crate) fn without(turns: &[Turn]) -> Option<Value> {
    let last = turns.last()?;
    let mut messages = before(turns, turns.len());
    messages.push(json!({"role": "user", "content": [{"type": "text", "text": ""}]}));
    Some(body_with(&last.sent, messages))
}

/// Most messages a transcript is read back with (the gateway keeps 1,000 a memory by default).
pub(crate) const MAX_RESTORED: usize = 1000;

/// One page of the backend's memory: the messages in order, and the token of the next page.
pub(crate) fn memory_page(answer: &Value) -> (Vec<Value>, Option<String>) {
    let messages = answer
        .get("messages")
        .and_then(Value::as_array)
        .map(|items| items.iter().flat_map(stored_message).collect())
        .unwrap_or_default();
    let next = match answer.get("next_token") {
        Some(Value::String(s)) if !s.is_empty() => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        _ => None,
    };
    (messages, next)
}

/// The standard messages one stored entry holds: agent-gateway's `{"role", "message"}`,
/// ml-commons' structured message (`structured_data_blob.message`, upper-case block types), or
/// a conversation index interaction (`input`, `response`).
fn stored_message(entry: &Value) -> Vec<Value> {
    let message = entry
        .get("message")
        .or_else(|| entry.pointer("/structured_data_blob/message"))
        .or_else(|| entry.get("role").and_then(|_| entry.get("content")).map(|_| entry));
    if let Some(message) = message.filter(|m| m.is_object()) {
        let mut message = message.clone();
        if message.get("role").is_none()
            && let Some(role) = entry.get("role").or_else(|| entry.pointer("/metadata/role"))
        {
            message["role"] = role.clone();
        }
        if let Some(role) = message.get("role").and_then(Value::as_str) {
            message["role"] = Value::String(role.to_ascii_lowercase());
        }
        if let Some(Value::Array(blocks)) = message.get_mut("content") {
            for block in blocks {
                if let Some(kind) = block.get("type").and_then(Value::as_str) {
                    block["type"] = Value::String(kind.to_ascii_lowercase());
                }
            }
        }
        return vec![message];
    }
    let text = |key: &str| entry.get(key).and_then(Value::as_str).filter(|t| !t.is_empty());
    let mut messages = Vec::new();
    if let Some(input) = text("input") {
        messages.push(json!({"role": "user", "content": [{"type": "text", "text": input}]}));
    }
    if let Some(response) = text("response") {
        messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": response}]}));
    }
    messages
}

/// The transcript of memory `memory_id` from its stored messages: a turn for each run of user
/// messages, answered by the assistant messages after it (their text; tool results are the run's).
pub(crate) fn restore(memory_id: &str, messages: &[Value]) -> Vec<Turn> {
    let mut turns: Vec<Turn> = Vec::new();
    let mut pending: Vec<Value> = Vec::new();
    let mut answer: Option<String> = None;
    let flush = |turns: &mut Vec<Turn>, pending: &mut Vec<Value>, answer: &mut Option<String>| {
        if pending.is_empty() && answer.is_none() {
            return;
        }
        let mut sent = json!({"input": std::mem::take(pending)});
        if !turns.is_empty() {
            sent["parameters"] = json!({"memory_id": memory_id});
        }
        let mut run = Run::answered(answer.take().unwrap_or_default(), Some(memory_id.to_string()), None, 0.0);
        run.answered_ms = None;
        run.ended_ms = None;
        run.restored = true;
        turns.push(Turn { user: UserTurn::of(&sent), sent, carried: 0, run });
    };
    for message in messages {
        let role = message.get("role").and_then(Value::as_str).unwrap_or_default();
        if role == "tool" {
            // A tool's result belongs to the run that called it.
            continue;
        }
        if role == "assistant" {
            let text: String = message
                .get("content")
                .and_then(Value::as_array)
                .map(|blocks| blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect())
                .unwrap_or_default();
            match &mut answer {
                Some(so_far) if !text.is_empty() => {
                    if !so_far.is_empty() {
                        so_far.push('\n');
                    }
                    so_far.push_str(&text);
                }
                Some(_) => {}
                None => answer = Some(text),
            }
        } else {
            if answer.is_some() {
                flush(&mut turns, &mut pending, &mut answer);
            }
            pending.push(message.clone());
        }
    }
    flush(&mut turns, &mut pending, &mut answer);
    for turn in &mut turns {
        if turn.run.parts.iter().all(|p| matches!(p, Part::Text { text, .. } if text.is_empty())) {
            turn.run.parts.clear();
        }
        turn.run.status = Status::Finished;
    }
    turns
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(sent: Value, answer: &str) -> Turn {
        Turn {
            user: UserTurn::of(&sent),
            run: Run::answered(answer.into(), Some("m1".into()), None, 1.0),
            sent,
            carried: 0,
        }
    }

    fn text(role: &str, t: &str) -> Value {
        json!({"role": role, "content": [{"type": "text", "text": t}]})
    }

    #[test]
    fn resending_a_turn_carries_the_turns_before_it_into_a_new_memory() {
        let turns = vec![
            turn(json!({"input": "one", "parameters": {"verbose": true}}), "echo one"),
            turn(json!({"input": "two", "parameters": {"memory_id": "m1", "verbose": true}}), "echo two"),
            turn(
                json!({"input": [{"type": "text", "text": "three"}], "parameters": {"memory_id": "m1"}}),
                "echo three",
            ),
        ];
        assert_eq!(
            resend(&turns, 1).unwrap(),
            json!({"input": [text("user", "one"), text("assistant", "echo one"), text("user", "two")], "parameters": {"verbose": true}})
        );
        assert_eq!(
            resend(&turns, 0).unwrap(),
            json!({"input": [text("user", "one")], "parameters": {"verbose": true}})
        );
        assert_eq!(resend(&turns, 3), None);
        // Deleting the second turn: the first and the third carry on, a blank turn to type.
        let left = [turns[0].clone(), turns[2].clone()];
        assert_eq!(
            without(&left).unwrap(),
            json!({"input": [text("user", "one"), text("assistant", "echo one"), text("user", "three"),
                text("assistant", "echo three"), text("user", "")]})
        );
        assert_eq!(without(&[]), None);
        // A turn sent without a memory starts anew with what it sent.
        let fresh = [turns[0].clone(), turn(json!({"input": "new"}), "echo new"), turns[1].clone()];
        assert_eq!(resend(&fresh, 2).unwrap()["input"].as_array().unwrap().len(), 3);
        // A retried turn carries the turns before it: they count once, and a delete of the first
        // turn leaves only what the second turn itself said.
        let retried_body = resend(&turns, 1).unwrap();
        assert_eq!(carried(&turns[..1], &retried_body), 2);
        let mut retried = turn(retried_body, "echo two again");
        retried.carried = 2;
        let shown = [turns[0].clone(), retried.clone()];
        assert_eq!(resend(&shown, 1).unwrap()["input"].as_array().unwrap().len(), 3);
        assert_eq!(
            without(&[retried]).unwrap()["input"],
            json!([text("user", "two"), text("assistant", "echo two again"), text("user", "")])
        );
        // Nothing is carried into a memory, nor when the input does not repeat the transcript.
        assert_eq!(carried(&turns[..1], &json!({"input": "two", "parameters": {"memory_id": "m1"}})), 0);
        assert_eq!(carried(&turns[..1], &json!({"input": [text("user", "other"), text("user", "two")]})), 0);
    }

    #[test]
    fn the_memory_reads_back_as_turns_in_every_stored_shape() {
        // agent-gateway's page.
        let gateway = json!({"memory_id": "m1", "messages": [
            {"message_id": 1, "role": "user", "message": text("user", "Hi")},
            {"message_id": 2, "role": "assistant", "message": text("assistant", "echo: Hi")},
            {"message_id": 3, "role": "user", "message": text("user", "Again")},
            {"message_id": 4, "role": "assistant", "message": text("assistant", "echo: Again")}],
            "next_token": "4"});
        let (messages, next) = memory_page(&gateway);
        assert_eq!(next.as_deref(), Some("4"));
        let turns = restore("m1", &messages);
        assert_eq!(turns.len(), 2);
        assert_eq!(turns[1].user.texts, ["Again"]);
        assert_eq!(answer_message(&turns[1].run), Some(text("assistant", "echo: Again")));
        assert!(turns[1].run.restored && turns[1].run.status == Status::Finished);
        assert_eq!(turns[1].sent["parameters"]["memory_id"], "m1");
        assert!(turns[0].sent.get("parameters").is_none());
        // ml-commons' structured messages (upper-case types) and interactions.
        let cluster = json!({"messages": [
            {"structured_data_blob": {"message": {"role": "USER", "content": [{"type": "TEXT", "text": "Hi"}]}}},
            {"structured_data_blob": {"message": {"role": "ASSISTANT", "content": [{"type": "TEXT", "text": "Hello"}]}}},
            {"input": "How are you?", "response": "Fine."}]});
        let turns = restore("m2", &memory_page(&cluster).0);
        assert_eq!(turns.iter().map(|t| t.user.texts.join("")).collect::<Vec<_>>(), ["Hi", "How are you?"]);
        assert_eq!(answer_message(&turns[0].run), Some(text("assistant", "Hello")));
        assert_eq!(answer_message(&turns[1].run), Some(text("assistant", "Fine.")));
        // A tool round stays within its turn; nothing stored gives nothing.
        let tool = [
            text("user", "Weather?"),
            json!({"role": "assistant", "content": [], "toolCalls": []}),
            json!({"role": "tool", "toolCallId": "c", "content": [{"type": "text", "text": "18C"}]}),
            text("assistant", "18C."),
        ];
        let turns = restore("m3", &tool);
        assert_eq!(turns.len(), 1);
        assert_eq!(answer_message(&turns[0].run), Some(text("assistant", "18C.")));
        assert!(restore("m4", &[]).is_empty());
    }
}
