//! The request body as the forms edit it: a `serde_json::Value` changed at JSON Pointers, and the
//! moves between the input's forms. Pure functions, tested natively.

use serde_json::{Map, Value, json};

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

/// Escapes one JSON Pointer segment (RFC 6901).
pub(crate) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

pub(crate) fn key(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", escape(key))
}

pub(crate) fn index(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

fn segments(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect()
}

/// Sets the value at `pointer`, creating objects on the way; an index one past an array's end
/// appends. Returns false when the pointer runs through a value that is not a container.
pub(crate) fn set(root: &mut Value, pointer: &str, new: Value) -> bool {
    let mut current = root;
    let segments = segments(pointer);
    let Some((last, parents)) = segments.split_last() else {
        *current = new;
        return true;
    };
    for segment in parents {
        if current.is_null() {
            *current = Value::Object(Map::new());
        }
        current = match current {
            Value::Object(map) => map.entry(segment.clone()).or_insert(Value::Null),
            Value::Array(items) => match segment.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(item) => item,
                None => return false,
            },
            _ => return false,
        };
    }
    if current.is_null() {
        *current = Value::Object(Map::new());
    }
    match current {
        Value::Object(map) => {
            map.insert(last.clone(), new);
            true
        }
        Value::Array(items) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items[i] = new;
                true
            }
            Ok(i) if i == items.len() => {
                items.push(new);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Removes the value at `pointer` (an object key or an array item).
pub(crate) fn remove(root: &mut Value, pointer: &str) -> Option<Value> {
    let (parent, last) = pointer.rsplit_once('/')?;
    let last = last.replace("~1", "/").replace("~0", "~");
    match root.pointer_mut(parent)? {
        Value::Object(map) => map.shift_remove(&last),
        Value::Array(items) => {
            let i = last.parse::<usize>().ok().filter(|i| *i < items.len())?;
            Some(items.remove(i))
        }
        _ => None,
    }
}

/// Swaps items `i` and `j` of the array at `pointer`.
pub(crate) fn swap(root: &mut Value, pointer: &str, i: usize, j: usize) -> bool {
    match root.pointer_mut(pointer) {
        Some(Value::Array(items)) if i < items.len() && j < items.len() => {
            items.swap(i, j);
            true
        }
        _ => false,
    }
}

/// Appends to the array at `pointer`, creating it when missing.
pub(crate) fn push(root: &mut Value, pointer: &str, item: Value) -> bool {
    match root.pointer_mut(pointer) {
        Some(Value::Array(items)) => {
            items.push(item);
            true
        }
        Some(Value::Null) | None => set(root, pointer, Value::Array(vec![item])),
        Some(_) => false,
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

/// Rewrites the body into another form without losing anything, or says why it cannot.
pub(crate) fn convert_form(body: &mut Value, to: Form) -> Result<(), String> {
    if !body.is_object() {
        return Err("the request body is not a JSON object; fix it in the JSON editor".into());
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

/// Payloads longer than this are shown in the JSON editor as placeholders.
pub(crate) const TOKEN_OVER: usize = 4096;

/// A copy of the body for the JSON editor: every long `data` string replaced by a placeholder
/// (recorded in `tokens`), so the editor never holds megabytes of base64.
pub(crate) fn with_tokens(value: &Value, tokens: &mut Vec<(String, String)>) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(|v| with_tokens(v, tokens)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match v {
                    Value::String(s) if k == "data" && s.len() > TOKEN_OVER => {
                        let token = format!(
                            "⟪media {}: {} of base64, kept by the playground⟫",
                            tokens.len() + 1,
                            crate::analysis::human_bytes(s.len())
                        );
                        tokens.push((token.clone(), s.clone()));
                        (k.clone(), Value::String(token))
                    }
                    _ => (k.clone(), with_tokens(v, tokens)),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The editor's text with each placeholder (as a whole JSON string) replaced by its payload.
pub(crate) fn expand_tokens(text: &str, tokens: &[(String, String)]) -> String {
    let mut text = text.to_string();
    for (token, data) in tokens {
        let quoted = format!("\"{token}\"");
        if text.contains(&quoted) {
            text = text.replace(&quoted, &serde_json::to_string(data).unwrap_or_default());
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_creates_objects_and_appends() {
        let mut v = json!({});
        assert!(set(&mut v, "/parameters/memory_id", json!("m1")));
        assert!(set(&mut v, "/input", json!([])));
        assert!(set(&mut v, "/input/0", json!({"type": "text"})));
        assert!(set(&mut v, "/input/0/text", json!("hi")));
        assert!(!set(&mut v, "/input/5", json!(1)));
        assert!(!set(&mut v, "/parameters/memory_id/x", json!(1)));
        assert_eq!(v, json!({"parameters": {"memory_id": "m1"}, "input": [{"type": "text", "text": "hi"}]}));
    }

    #[test]
    fn remove_and_swap() {
        let mut v = json!({"input": [1, 2, 3], "a/b": {"c": 1}});
        assert_eq!(remove(&mut v, "/input/1"), Some(json!(2)));
        assert!(swap(&mut v, "/input", 0, 1));
        assert!(!swap(&mut v, "/input", 0, 2));
        assert_eq!(remove(&mut v, &key("", "a/b")), Some(json!({"c": 1})));
        assert_eq!(v, json!({"input": [3, 1]}));
    }

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
    fn the_json_editor_holds_placeholders_for_media() {
        let data = "A".repeat(TOKEN_OVER + 4);
        let body = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": data}},
            {"type": "text", "text": "data"}]});
        let mut tokens = Vec::new();
        let shown = with_tokens(&body, &mut tokens);
        assert_eq!(tokens.len(), 1);
        let text = serde_json::to_string_pretty(&shown).unwrap();
        assert!(text.len() < 400, "{text}");
        let back: Value = serde_json::from_str(&expand_tokens(&text, &tokens)).unwrap();
        assert_eq!(back, body);
        // An edited placeholder is text like any other.
        let edited = text.replace("media 1", "media 9");
        let back: Value = serde_json::from_str(&expand_tokens(&edited, &tokens)).unwrap();
        assert!(back["input"][0]["source"]["data"].as_str().unwrap().starts_with("⟪media 9"));
    }
}
