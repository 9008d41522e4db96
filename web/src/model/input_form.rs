//! The input's forms (text, content blocks, messages, legacy question): which one a body is in,
//! moving a body between them without losing content, and the structural edits the page makes
//! (adding a file's block, resetting the input for a conversation's next turn).

use serde_json::{Map, Value, json};

use super::pointer;

/// The four forms of an input the build pane has an editor for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    Text,
    Blocks,
    Messages,
    Legacy,
}

impl Form {
    pub(crate) const ALL: [Form; 4] = [Form::Text, Form::Blocks, Form::Messages, Form::Legacy];

    pub(crate) const fn label(self) -> &'static str {
        match self {
            Self::Text => "Text",
            Self::Blocks => "Content blocks",
            Self::Messages => "Messages",
            Self::Legacy => "Legacy",
        }
    }

    pub(crate) const fn id(self) -> &'static str {
        match self {
            Self::Text => "text",
            Self::Blocks => "blocks",
            Self::Messages => "messages",
            Self::Legacy => "legacy",
        }
    }
}

/// The form a request body is written in, when a form editor can show it.
pub(crate) fn form_of(body: &Value) -> Option<Form> {
    match body.get("input") {
        Some(Value::String(_)) => Some(Form::Text),
        Some(Value::Array(items)) => {
            // Messages are told apart the way the core does: by a `role` key on an item.
            if items.iter().any(|item| item.get("role").is_some()) { Some(Form::Messages) } else { Some(Form::Blocks) }
        }
        None if body.pointer("/parameters/question").is_some() => Some(Form::Legacy),
        Some(_) | None => None,
    }
}

fn text_of_blocks(blocks: &[Value]) -> Option<String> {
    let texts: Option<Vec<&str>> = blocks
        .iter()
        .map(|b| match (b.get("type").and_then(Value::as_str), b.get("text").and_then(Value::as_str)) {
            (Some(t), Some(text)) if t.eq_ignore_ascii_case("text") => Some(text),
            _ => None,
        })
        .collect();
    texts.map(|t| t.join("\n"))
}

/// The input's text when it is nothing but text.
fn plain_text(body: &Value) -> Option<String> {
    match body.get("input") {
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Array(items)) => match form_of(body) {
            Some(Form::Messages) => match items.as_slice() {
                [only] if only.get("role").and_then(Value::as_str).is_some_and(|r| r.eq_ignore_ascii_case("user")) => {
                    match only.get("content") {
                        Some(Value::Array(blocks)) => text_of_blocks(blocks),
                        _ => None,
                    }
                }
                [] => Some(String::new()),
                _ => None,
            },
            _ => text_of_blocks(items),
        },
        None => body.pointer("/parameters/question").and_then(Value::as_str).map(str::to_string),
        Some(_) => None,
    }
}

/// Why the body cannot be shown in form `to` without losing anything (what a switch to it
/// would say), or `None` when it can: the tabs say it before they are clicked.
pub(crate) fn why_not(body: &Value, to: Form) -> Option<String> {
    if !body.is_object() {
        return Some("the request body is not a JSON object; fix it in the JSON editor".into());
    }
    let from = form_of(body);
    if from == Some(to) {
        return None;
    }
    let single_user = |items: &[Value]| match items {
        [only] => {
            only.get("role").and_then(Value::as_str).is_some_and(|r| r.eq_ignore_ascii_case("user"))
                && only.get("content").is_some_and(Value::is_array)
        }
        [] => true,
        _ => false,
    };
    match (to, from, body.get("input")) {
        (Form::Text | Form::Legacy, _, _) => plain_text(body).is_none().then(|| {
            format!("this input holds more than text; it cannot be shown as {} without losing content", to.label())
        }),
        (Form::Blocks | Form::Messages, Some(Form::Text), Some(Value::String(_)))
        | (Form::Blocks | Form::Messages, Some(Form::Legacy) | None, None)
        | (Form::Messages, Some(Form::Blocks), Some(Value::Array(_))) => None,
        (Form::Blocks, Some(Form::Messages), Some(Value::Array(items))) => {
            (!single_user(items)).then(|| "only a single user message can be shown as content blocks".into())
        }
        (Form::Blocks, _, _) => Some("this input cannot be shown as content blocks".into()),
        (Form::Messages, _, _) => Some("this input cannot be shown as messages".into()),
    }
}

/// Rewrites the body into another form without losing anything, or says why it cannot (and
/// leaves it as it was).
pub(crate) fn convert_form(body: &mut Value, to: Form) -> Result<(), String> {
    if let Some(why) = why_not(body, to) {
        return Err(why);
    }
    let from = form_of(body);
    if from == Some(to) {
        return Ok(());
    }
    let new_input = match to {
        Form::Text | Form::Legacy => {
            let text = plain_text(body).ok_or_else(|| {
                format!("this input holds more than text; it cannot be shown as {} without losing content", to.label())
            })?;
            Value::String(text)
        }
        Form::Blocks => match (from, body.get("input")) {
            (Some(Form::Text), Some(Value::String(s))) => json!([{"type": "text", "text": s}]),
            (Some(Form::Legacy), _) | (None, None) => {
                let text = body.pointer("/parameters/question").and_then(Value::as_str).unwrap_or_default();
                json!([{"type": "text", "text": text}])
            }
            (Some(Form::Messages), Some(Value::Array(items))) => match items.as_slice() {
                [only]
                    if only.get("role").and_then(Value::as_str).is_some_and(|r| r.eq_ignore_ascii_case("user"))
                        && only.get("content").is_some_and(Value::is_array) =>
                {
                    only["content"].clone()
                }
                [] => json!([]),
                _ => return Err("only a single user message can be shown as content blocks".into()),
            },
            _ => return Err("this input cannot be shown as content blocks".into()),
        },
        Form::Messages => {
            let content = match (from, body.get("input")) {
                (Some(Form::Text), Some(Value::String(s))) => json!([{"type": "text", "text": s}]),
                (Some(Form::Blocks), Some(blocks @ Value::Array(_))) => blocks.clone(),
                (Some(Form::Legacy), _) | (None, None) => {
                    let text = body.pointer("/parameters/question").and_then(Value::as_str).unwrap_or_default();
                    json!([{"type": "text", "text": text}])
                }
                _ => return Err("this input cannot be shown as messages".into()),
            };
            json!([{"role": "user", "content": content}])
        }
    };
    let object = body.as_object_mut().expect("checked above");
    if to == Form::Legacy {
        object.shift_remove("input");
        let parameters = object.entry("parameters").or_insert_with(|| Value::Object(Map::new()));
        if !parameters.is_object() {
            *parameters = Value::Object(Map::new());
        }
        parameters["question"] = new_input;
    } else {
        if from == Some(Form::Legacy)
            && let Some(Value::Object(parameters)) = object.get_mut("parameters")
        {
            parameters.shift_remove("question");
        }
        // `input` goes first, where people expect it.
        let rest = std::mem::take(object);
        object.insert("input".into(), new_input);
        for (k, v) in rest {
            if k != "input" {
                object.insert(k, v);
            }
        }
        if object.get("parameters").is_some_and(|p| p.as_object().is_some_and(Map::is_empty)) {
            object.shift_remove("parameters");
        }
    }
    Ok(())
}

/// A fresh content block of a kind the "add" buttons offer.
pub(crate) fn new_block(kind: &str) -> Value {
    match kind {
        "image" => json!({"type": "image", "source": {"type": "url", "format": "png", "data": ""}}),
        "video" => json!({"type": "video", "source": {"type": "url", "format": "mp4", "data": ""}}),
        "document" => {
            json!({"type": "document", "source": {"type": "url", "format": "pdf", "data": ""}, "name": "document"})
        }
        _ => json!({"type": "text", "text": ""}),
    }
}

/// Adds a content block wherever the input takes one: the last message's content, or the
/// content blocks (a text input becomes content blocks first). Returns the form the body is now
/// in; on `Err` the body is unchanged.
pub(crate) fn add_block(body: &mut Value, block: Value) -> Result<Form, String> {
    if form_of(body) == Some(Form::Messages) {
        let last = body["input"].as_array().map_or(0, Vec::len);
        let content = format!("/input/{}/content", last.saturating_sub(1));
        if last == 0 || !pointer::push(body, &content, block.clone()) {
            pointer::push(body, "/input", json!({"role": "user", "content": [block]}));
        }
        return Ok(Form::Messages);
    }
    convert_form(body, Form::Blocks)?;
    pointer::push(body, "/input", block);
    Ok(Form::Blocks)
}

/// Continues a conversation: sets `parameters.memory_id` and empties the input in its own form
/// for the next turn (the backend holds the history; sending it again would duplicate it).
pub(crate) fn continue_conversation(body: &mut Value, memory_id: String) {
    pointer::set(body, "/parameters/memory_id", Value::String(memory_id));
    let next = match form_of(body) {
        Some(Form::Blocks) => json!([{"type": "text", "text": ""}]),
        Some(Form::Messages) => json!([{"role": "user", "content": [{"type": "text", "text": ""}]}]),
        Some(Form::Legacy) => {
            pointer::set(body, "/parameters/question", Value::String(String::new()));
            return;
        }
        _ => Value::String(String::new()),
    };
    pointer::set(body, "/input", next);
}

/// The memory a body continues when its input is the blank next turn (as a run leaves it).
pub(crate) fn blank_turn_of(body: &Value) -> Option<String> {
    let memory = body.pointer("/parameters/memory_id").and_then(Value::as_str).filter(|m| !m.is_empty())?;
    let blank = crate::model::chat::history::input_messages(body).iter().all(|m| {
        m.get("content").and_then(Value::as_array).is_none_or(|blocks| {
            blocks
                .iter()
                .all(|b| b.get("type").and_then(Value::as_str) == Some("text") && b["text"].as_str() == Some(""))
        })
    });
    blank.then(|| memory.to_string())
}

/// Starts a new conversation: forgets `parameters.memory_id`.
pub(crate) fn forget_conversation(body: &mut Value) {
    pointer::remove(body, "/parameters/memory_id");
    pointer::drop_empty_parameters(body);
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_blank_next_turn_names_its_memory() {
        for (body, memory) in [
            (json!({"input": "", "parameters": {"memory_id": "m1"}}), Some("m1")),
            (
                json!({"input": [{"role": "user", "content": [{"type": "text", "text": ""}]}], "parameters": {"memory_id": "m1"}}),
                Some("m1"),
            ),
            (json!({"parameters": {"question": "", "memory_id": "m1"}}), Some("m1")),
            (json!({"input": "Hi", "parameters": {"memory_id": "m1"}}), None),
            (json!({"input": ""}), None),
        ] {
            assert_eq!(super::blank_turn_of(&body).as_deref(), memory, "{body}");
        }
    }

    use super::*;

    #[test]
    fn forms_are_recognised() {
        assert_eq!(form_of(&json!({"input": "hi"})), Some(Form::Text));
        assert_eq!(form_of(&json!({"input": []})), Some(Form::Blocks));
        assert_eq!(form_of(&json!({"input": [{"type": "text", "text": "a"}]})), Some(Form::Blocks));
        assert_eq!(form_of(&json!({"input": [{"role": "user", "content": []}]})), Some(Form::Messages));
        assert_eq!(form_of(&json!({"parameters": {"question": "q"}})), Some(Form::Legacy));
        assert_eq!(form_of(&json!({"input": 5})), None);
    }

    #[test]
    fn conversions_keep_content_or_refuse() {
        let mut v = json!({"input": "hello", "parameters": {"memory_id": "m"}});
        convert_form(&mut v, Form::Messages).unwrap();
        assert_eq!(
            v,
            json!({"input": [{"role": "user", "content": [{"type": "text", "text": "hello"}]}], "parameters": {"memory_id": "m"}})
        );
        convert_form(&mut v, Form::Blocks).unwrap();
        assert_eq!(v["input"], json!([{"type": "text", "text": "hello"}]));
        convert_form(&mut v, Form::Legacy).unwrap();
        assert_eq!(v, json!({"parameters": {"memory_id": "m", "question": "hello"}}));
        convert_form(&mut v, Form::Text).unwrap();
        assert_eq!(v, json!({"input": "hello", "parameters": {"memory_id": "m"}}));

        let mut media =
            json!({"input": [{"type": "image", "source": {"type": "url", "format": "png", "data": "s3://b/k"}}]});
        let before = media.clone();
        assert!(convert_form(&mut media, Form::Text).is_err());
        assert_eq!(media, before);
        let mut two = json!({"input": [{"role": "user", "content": [{"type": "text", "text": "a"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "b"}]}]});
        assert!(convert_form(&mut two, Form::Blocks).is_err());
    }

    #[test]
    fn files_join_the_input_where_it_takes_blocks() {
        let block = json!({"type": "image"});
        let mut text = json!({"input": "hi"});
        assert_eq!(add_block(&mut text, block.clone()), Ok(Form::Blocks));
        assert_eq!(text["input"], json!([{"type": "text", "text": "hi"}, {"type": "image"}]));
        let mut messages = json!({"input": [{"role": "user", "content": []}, {"role": "assistant", "content": "x"}]});
        assert_eq!(add_block(&mut messages, block.clone()), Ok(Form::Messages));
        assert_eq!(messages["input"][2], json!({"role": "user", "content": [{"type": "image"}]}));
        let mut broken = json!({"input": 5});
        assert!(add_block(&mut broken, block).is_err());
        assert_eq!(broken, json!({"input": 5}));
    }

    #[test]
    fn a_conversation_continues_in_the_same_form() {
        let mut v = json!({"input": [{"role": "user", "content": [{"type": "text", "text": "a"}]}]});
        continue_conversation(&mut v, "m1".into());
        assert_eq!(
            v,
            json!({"input": [{"role": "user", "content": [{"type": "text", "text": ""}]}], "parameters": {"memory_id": "m1"}})
        );
        let mut legacy = json!({"parameters": {"question": "q"}});
        continue_conversation(&mut legacy, "m2".into());
        assert_eq!(legacy, json!({"parameters": {"question": "", "memory_id": "m2"}}));
        forget_conversation(&mut v);
        assert_eq!(v, json!({"input": [{"role": "user", "content": [{"type": "text", "text": ""}]}]}));
    }
}
