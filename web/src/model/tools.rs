//! Tool calls in a messages input: the next call id, the calls no tool result answers yet, and
//! tool specs made from the calls (each tool's name, its arguments' JSON types as the schema),
//! for the providers that need the tools declared.

use serde_json::{Map, Value, json};

/// Every tool call of the input's assistant messages: (id, function name, arguments text).
fn calls(body: &Value) -> Vec<(String, String, String)> {
    let Some(messages) = body.get("input").and_then(Value::as_array) else { return Vec::new() };
    messages
        .iter()
        .filter_map(|m| m.get("toolCalls").and_then(Value::as_array))
        .flatten()
        .map(|c| {
            let text = |p: &str| c.pointer(p).and_then(Value::as_str).unwrap_or_default().to_string();
            (text("/id"), text("/function/name"), text("/function/arguments"))
        })
        .collect()
}

/// A call id no call of the input has: `call_1`, `call_2`, …
pub(crate) fn next_call_id(body: &Value) -> String {
    let taken: Vec<String> = calls(body).into_iter().map(|(id, ..)| id).collect();
    // One of the first n + 1 is free when n are taken.
    (1..=taken.len() + 1).map(|n| format!("call_{n}")).find(|id| !taken.contains(id)).unwrap_or_default()
}

/// The calls no tool message answers, in order: (id, function name).
pub(crate) fn unanswered(body: &Value) -> Vec<(String, String)> {
    let answered: Vec<&str> = body
        .get("input")
        .and_then(Value::as_array)
        .map(|ms| ms.iter().filter_map(|m| m.get("toolCallId").and_then(Value::as_str)).collect())
        .unwrap_or_default();
    calls(body)
        .into_iter()
        .filter(|(id, ..)| !id.is_empty() && !answered.contains(&id.as_str()))
        .map(|(id, name, _)| (id, name))
        .collect()
}

/// The JSON Schema type of an argument's value (any, for null).
fn schema_of(value: &Value) -> Value {
    let kind = match value {
        Value::Null => return Value::Object(Map::new()),
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    json!({"type": kind})
}

/// Tool specs for the calls of the input, one a tool name (its first call's arguments give the
/// properties), as the settings' tools text; `None` when there are no named calls.
pub(crate) fn specs_from_calls(body: &Value) -> Option<String> {
    let mut specs: Vec<Value> = Vec::new();
    for (_, name, arguments) in calls(body) {
        if name.is_empty() || specs.iter().any(|s| s["name"] == name.as_str()) {
            continue;
        }
        let properties: Map<String, Value> = match serde_json::from_str::<Value>(&arguments) {
            Ok(Value::Object(args)) => args.iter().map(|(k, v)| (k.clone(), schema_of(v))).collect(),
            _ => Map::new(),
        };
        specs.push(json!({
            "name": name,
            "description": format!("The {name} tool."),
            "input_schema": {"type": "object", "properties": properties},
        }));
    }
    (!specs.is_empty()).then(|| serde_json::to_string_pretty(&Value::Array(specs)).unwrap_or_default())
}

/// A new tool call for the message at `message` (its id generated); a message whose only
/// content is one blank text block loses it: a call needs no text.
pub(crate) fn add_call(body: &mut Value, message: &str) {
    let id = next_call_id(body);
    let Some(m) = body.pointer_mut(message).and_then(Value::as_object_mut) else { return };
    if m.get("content").is_some_and(|c| *c == json!([{"type": "text", "text": ""}])) {
        m.insert("content".into(), json!([]));
    }
    let call = json!({"id": id, "type": "function", "function": {"name": "", "arguments": "{}"}});
    match m.get_mut("toolCalls") {
        Some(Value::Array(list)) => list.push(call),
        _ => {
            m.insert("toolCalls".into(), json!([call]));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip() -> Value {
        json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]},
            {"role": "assistant", "content": [{"type": "text", "text": ""}]},
        ]})
    }

    #[test]
    fn calls_get_ids_and_lose_the_blank_text() {
        let mut body = round_trip();
        add_call(&mut body, "/input/1");
        add_call(&mut body, "/input/1");
        assert_eq!(body["input"][1]["content"], json!([]));
        let ids: Vec<&str> =
            body["input"][1]["toolCalls"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap()).collect();
        assert_eq!(ids, ["call_1", "call_2"]);
        body["input"][1]["toolCalls"][1]["function"]["name"] = json!("get_time");
        let ids = |body: &Value| unanswered(body).into_iter().map(|(id, _)| id).collect::<Vec<_>>();
        assert_eq!(ids(&body), ["call_1", "call_2"]);
        assert_eq!(unanswered(&body)[1], ("call_2".to_string(), "get_time".to_string()));
        body["input"].as_array_mut().unwrap().push(json!({"role": "tool", "toolCallId": "call_1", "content": []}));
        assert_eq!(ids(&body), ["call_2"]);
        assert_eq!(next_call_id(&body), "call_3");
    }

    #[test]
    fn specs_come_from_the_calls() {
        let body = json!({"input": [{"role": "assistant", "content": [], "toolCalls": [
            {"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"Paris\", \"days\": 2}"}},
            {"id": "b", "type": "function", "function": {"name": "get_weather", "arguments": "{}"}},
            {"id": "c", "type": "function", "function": {"name": "", "arguments": "{}"}}]}]});
        let specs: Value = serde_json::from_str(&specs_from_calls(&body).unwrap()).unwrap();
        assert_eq!(specs.as_array().unwrap().len(), 1);
        assert_eq!(
            specs[0]["input_schema"]["properties"],
            json!({"city": {"type": "string"}, "days": {"type": "integer"}})
        );
        assert_eq!(specs_from_calls(&json!({"input": "Hi"})), None);
    }
}
