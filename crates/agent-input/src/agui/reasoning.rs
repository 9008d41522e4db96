//! Reasoning state on AG-UI's `encryptedValue`: what a provider needs back from its own answer
//! (thought signatures, thinking blocks, encrypted reasoning; the standard `reasoningState`) goes
//! to an AG-UI client on the assistant message and its tool calls, and comes back on the next run.
//!
//! A value is the JSON text `{"provider", "items"}` of the standard `reasoningState`. A tool
//! call's value holds the items attached `on` that call, without `on`. The message's value holds
//! the others, with `on` and `before` counted over the AG-UI message's elements: its text (one
//! string in AG-UI: one element when it is not blank, whatever number of text blocks it joins),
//! then its tool calls.

use serde_json::{Map, Value, json};

use crate::model::ReasoningState;

/// A message's reasoning state as AG-UI values.
#[derive(Debug, Default, PartialEq)]
pub(super) struct Values {
    /// The assistant message's `encryptedValue`.
    pub(super) message: Option<String>,
    /// Each tool call's `encryptedValue`, in the message's order.
    pub(super) calls: Vec<Option<String>>,
}

/// Splits a standard assistant message's reasoning state into AG-UI values: `blocks` content
/// blocks written as one text (`has_text`: not blank), then `calls` tool calls.
pub(super) fn write(state: &ReasoningState, blocks: usize, has_text: bool, calls: usize) -> Values {
    let len = blocks + calls;
    let text = usize::from(has_text);
    // A standard element's index among the AG-UI message's elements.
    let element = |at: usize| if at < blocks { 0 } else { text + (at - blocks) };
    let mut message = Vec::new();
    let mut per_call: Vec<Vec<Value>> = vec![Vec::new(); calls];
    for item in &state.items {
        let Some(object) = item.as_object() else {
            // Not an item the contract allows; kept as given, for the validator to name.
            message.push(item.clone());
            continue;
        };
        let mut object = object.clone();
        if let Some(on) = position(&object, "on") {
            // Blank text is no element in AG-UI: what was on it is on the element after it, as
            // the reader will place it. Past the last element is the last one, as the writers
            // read it.
            let on = if has_text { on } else { on.max(blocks) };
            let on = on.min(len.saturating_sub(1));
            if on >= blocks && on < len {
                object.remove("on");
                per_call[on - blocks].push(Value::Object(object));
                continue;
            }
            object.insert("on".into(), json!(element(on)));
        } else if let Some(before) = position(&object, "before") {
            let before = if before >= len { text + calls } else { element(before) };
            object.insert("before".into(), json!(before));
        }
        message.push(Value::Object(object));
    }
    let value = |items: Vec<Value>| {
        (!items.is_empty()).then(|| json!({"provider": state.provider.as_str(), "items": items}).to_string())
    };
    Values { message: value(message), calls: per_call.into_iter().map(value).collect() }
}

fn position(object: &Map<String, Value>, key: &str) -> Option<usize> {
    object.get(key).and_then(Value::as_u64).map(|n| usize::try_from(n).unwrap_or(usize::MAX))
}

/// A value read back: its provider and items.
#[derive(Debug, PartialEq)]
pub(super) struct Read {
    pub(super) provider: String,
    pub(super) items: Vec<Value>,
}

/// Reads one `encryptedValue`; `None` when it is not a value [`write`] wrote (another agent's
/// opaque value, which nothing here can place).
pub(super) fn read(value: &str) -> Option<Read> {
    let Ok(Value::Object(mut object)) = serde_json::from_str::<Value>(value) else { return None };
    if object.len() != 2 {
        return None;
    }
    let Some(Value::String(provider)) = object.remove("provider") else { return None };
    let Some(Value::Array(items)) = object.remove("items") else { return None };
    crate::ProviderId::parse(&provider)?;
    Some(Read { provider, items })
}

/// The standard `reasoningState` of an assistant message read back: the message's items (their
/// positions already the standard message's: its text is one block, then its calls), then each
/// call's items attached `on` that call (`blocks` content blocks come before the calls).
pub(super) fn join(provider: &str, message: Vec<Value>, calls: Vec<(usize, Vec<Value>)>, blocks: usize) -> Value {
    let mut items = message;
    for (j, call_items) in calls {
        for item in call_items {
            let mut item = item;
            if let Value::Object(object) = &mut item {
                object.insert("on".into(), json!(blocks + j));
            }
            items.push(item);
        }
    }
    json!({"provider": provider, "items": items})
}
