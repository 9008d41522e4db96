//! History across providers: a conversation stored in the standard format (text, base64 images,
//! system messages, tool calls and their results) converts to every provider, and each body keeps
//! that provider's structural rules.

#![allow(clippy::missing_panics_doc)] // test code: panics are failures

use agent_input::{ConvertOptions, ProviderId, ToolSpec, convert, validate};
use proptest::prelude::*;
use serde_json::{Value, json};

/// The independent rule checkers of every provider's API (written from its documentation), run
/// on every body here too.
#[allow(unreachable_pub, dead_code)]
#[path = "../../../fuzz/src/rules.rs"]
mod rules;

const PNG: &str = "iVBORw0KGgo=";

/// One step: a user message (text, maybe an image), assistant text, a system message, or an
/// assistant's tool calls followed by one tool message per call.
fn step() -> impl Strategy<Value = Vec<Value>> {
    prop_oneof![
        ("[a-zA-Z][a-zA-Z ?.]{0,16}", any::<bool>()).prop_map(|(text, image)| {
            let mut content = vec![json!({"type": "text", "text": text})];
            if image {
                content.push(json!({"type": "image", "source": {"type": "base64", "format": "png", "data": PNG}}));
            }
            vec![json!({"role": "user", "content": content})]
        }),
        "[a-zA-Z][a-zA-Z .]{0,16}"
            .prop_map(|t| vec![json!({"role": "assistant", "content": [{"type": "text", "text": t}]})]),
        "[a-zA-Z][a-zA-Z .]{0,16}"
            .prop_map(|t| vec![json!({"role": "system", "content": [{"type": "text", "text": t}]})]),
        (prop::collection::vec("[a-z0-9_]{1,6}", 1..4), any::<bool>()).prop_map(|(ids, with_text)| {
            let ids: Vec<String> = ids.iter().enumerate().map(|(i, id)| format!("{id}_{i}")).collect();
            let calls: Vec<Value> = ids
                .iter()
                .map(|id| json!({"id": id, "function": {"name": "get_weather", "arguments": format!("{{\"id\":\"{id}\"}}")}}))
                .collect();
            let content = if with_text { json!([{"type": "text", "text": "Checking."}]) } else { json!([]) };
            let mut messages = vec![json!({"role": "assistant", "content": content, "toolCalls": calls})];
            messages.extend(
                ids.iter().map(|id| json!({"role": "tool", "toolCallId": id, "content": [{"type": "text", "text": format!("result {id}")}]})),
            );
            messages
        }),
    ]
}

fn conversation() -> impl Strategy<Value = Vec<Value>> {
    prop::collection::vec(step(), 0..8).prop_map(|steps| {
        let mut messages = vec![json!({"role": "user", "content": [{"type": "text", "text": "Hello"}]})];
        messages.extend(steps.into_iter().flatten());
        messages.push(json!({"role": "user", "content": [{"type": "text", "text": "And now?"}]}));
        messages
    })
}

fn options() -> ConvertOptions {
    ConvertOptions { tools: vec![ToolSpec::new("get_weather", None, None).into()], ..ConvertOptions::default() }
}

fn strs<'v>(items: impl Iterator<Item = &'v Value>, key: &str) -> Vec<String> {
    items.filter_map(|v| v[key].as_str().map(str::to_string)).collect()
}

/// Anthropic: user first, roles alternate, each assistant turn's `tool_use` ids are answered by
/// the `tool_result` blocks that open the next user turn, and no result answers anything else.
fn check_anthropic(body: &Value) -> Result<(), String> {
    let messages = body["messages"].as_array().ok_or("messages")?;
    let mut previous = "";
    let mut pending: Vec<String> = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        let role = message["role"].as_str().ok_or("role")?;
        if (i == 0 && role != "user") || role == previous {
            return Err(format!("role {role} at {i}"));
        }
        previous = role;
        let content = message["content"].as_array().ok_or("content")?;
        let results: Vec<&Value> = content.iter().filter(|b| b["type"] == "tool_result").collect();
        let leading = content.iter().take_while(|b| b["type"] == "tool_result").count();
        if leading != results.len() {
            return Err(format!("tool results are not first at {i}"));
        }
        let mut answered = strs(results.into_iter(), "tool_use_id");
        answered.sort();
        pending.sort();
        if role == "user" && answered != pending {
            return Err(format!("results {answered:?} at {i} do not answer {pending:?}"));
        }
        pending = if role == "assistant" {
            strs(content.iter().filter(|b| b["type"] == "tool_use"), "id")
        } else {
            Vec::new()
        };
    }
    Ok(())
}

/// Gemini: roles `user`/`model`, user first, alternating; each model turn's `functionCall`s are
/// answered, in order and by name, by the `functionResponse` parts opening the next user turn.
fn check_gemini(body: &Value) -> Result<(), String> {
    let contents = body["contents"].as_array().ok_or("contents")?;
    let mut previous = "";
    let mut pending: Vec<String> = Vec::new();
    for (i, content) in contents.iter().enumerate() {
        let role = content["role"].as_str().ok_or("role")?;
        if !matches!(role, "user" | "model") || (i == 0 && role != "user") || role == previous {
            return Err(format!("role {role} at {i}"));
        }
        previous = role;
        let parts = content["parts"].as_array().ok_or("parts")?;
        let responses: Vec<String> =
            parts.iter().filter_map(|p| p["functionResponse"]["name"].as_str().map(str::to_string)).collect();
        let leading = parts.iter().take_while(|p| p.get("functionResponse").is_some()).count();
        if leading != responses.len() || (role == "user" && responses != pending) {
            return Err(format!("responses {responses:?} at {i} do not answer {pending:?}"));
        }
        pending = if role == "model" {
            parts.iter().filter_map(|p| p["functionCall"]["name"].as_str().map(str::to_string)).collect()
        } else {
            Vec::new()
        };
        if parts.iter().any(|p| p.get("functionResponse").is_some_and(|r| !r["response"].is_object())) {
            return Err(format!("a functionResponse at {i} is not an object"));
        }
    }
    Ok(())
}

/// `OpenAI` Chat: every `tool` message is in the run right after an assistant message with
/// `tool_calls`, and that run answers each call exactly once.
fn check_openai_chat(body: &Value) -> Result<(), String> {
    let messages = body["messages"].as_array().ok_or("messages")?;
    let mut i = 0;
    while i < messages.len() {
        let message = &messages[i];
        if message["role"] == "tool" {
            return Err(format!("tool message at {i} follows no tool calls"));
        }
        i += 1;
        if let Some(calls) = message["tool_calls"].as_array() {
            let mut ids: Vec<String> = calls.iter().filter_map(|c| c["id"].as_str().map(str::to_string)).collect();
            let mut answered = Vec::new();
            while i < messages.len() && messages[i]["role"] == "tool" {
                answered.push(messages[i]["tool_call_id"].as_str().ok_or("tool_call_id")?.to_string());
                i += 1;
            }
            ids.sort();
            answered.sort();
            if ids != answered {
                return Err(format!("calls {ids:?} answered by {answered:?}"));
            }
        }
    }
    Ok(())
}

/// `OpenAI` Responses: every `function_call_output` answers an earlier `function_call`, once.
fn check_openai_responses(body: &Value) -> Result<(), String> {
    let mut open: Vec<String> = Vec::new();
    for item in body["input"].as_array().ok_or("input")? {
        let id = item["call_id"].as_str().map(str::to_string);
        match item["type"].as_str() {
            Some("function_call") => open.push(id.ok_or("call_id")?),
            Some("function_call_output") => {
                let id = id.ok_or("call_id")?;
                let at = open.iter().position(|c| *c == id).ok_or(format!("output {id} answers no call"))?;
                open.remove(at);
            }
            _ => {}
        }
    }
    if open.is_empty() { Ok(()) } else { Err(format!("unanswered calls {open:?}")) }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    #[test]
    fn a_stored_conversation_converts_to_every_provider(messages in conversation()) {
        let request = json!({"input": messages});
        let document = validate::document(&request);
        let validation = validate::validate_request(&document, &validate::Options::default());
        let (request, _) = validation.into_result().map_err(|r| TestCaseError::fail(format!("{:?}", r.errors)))?;
        for provider in ProviderId::ALL {
            let converted = convert::convert_to_value(*provider, &request, &options());
            let body = match converted {
                Ok(converted) => converted.body,
                Err(report) => return Err(TestCaseError::fail(format!("{provider}: {:?}", report.errors))),
            };
            let check = match provider {
                ProviderId::AnthropicMessages => check_anthropic(&body),
                ProviderId::Gemini => check_gemini(&body),
                ProviderId::OpenAiChat => check_openai_chat(&body),
                ProviderId::OpenAiResponses => check_openai_responses(&body),
                // Bedrock's rules are checked by properties.rs.
                _ => Ok(()),
            };
            prop_assert!(check.is_ok(), "{provider}: {:?}\n{body}", check);
            let problems = rules::violations(*provider, &body);
            prop_assert!(problems.is_empty(), "{provider} breaks its API's rules: {problems:#?}\n{body}");
        }
    }
}

/// Each checker passes a body its API documents and catches each rule broken once: a checker that
/// accepts anything would pass every other test.
#[test]
fn the_rule_checkers_catch_what_each_api_rejects() {
    // Per provider: a good body, then (JSON pointer, value) edits that each break one rule
    // (null removes the member; `contents` renames `content`).
    type Breaks = Vec<(&'static str, Value)>;
    let cases: [(ProviderId, Value, Breaks); 4] = [
        (
            ProviderId::OpenAiChat,
            json!({"messages": [{"role": "user", "content": "Hi"},
                {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "tool_call_id": "c1", "content": "ok"}], "max_completion_tokens": 10}),
            vec![
                ("/max_completion_tokens", json!(0)),
                ("/messages/0/role", json!("model")),
                ("/messages/0/contents", json!("Hi")),
                ("/messages/2/tool_call_id", json!("c2")),
                ("/temperature", json!(2.5)),
                ("/stop", json!(["a", "b", "c", "d", "e"])),
                ("/messages/0/content", json!([{"type": "image_url", "image_url": {"url": "s3://b/k.png"}}])),
                (
                    "/messages/0/content",
                    json!([{"type": "file", "file": {"file_data": "data:application/pdf;base64,JVBERg=="}}]),
                ),
            ],
        ),
        (
            ProviderId::OpenAiResponses,
            json!({"input": [{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Hi"}]},
                {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
                {"type": "function_call_output", "call_id": "c1", "output": "ok"}], "max_output_tokens": 16}),
            vec![
                ("/max_output_tokens", json!(15)),
                ("/stop", json!(["END"])),
                ("/input/2/call_id", json!("c2")),
                ("/input/1/call_id", json!("c".repeat(65))),
                ("/input/0/role", json!("tool")),
                ("/input/0/content/0/type", json!("text")),
                ("/instructions", json!(["Be brief."])),
            ],
        ),
        (
            ProviderId::AnthropicMessages,
            json!({"max_tokens": 10, "messages": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1", "content": [{"type": "text", "text": "ok"}]}]}],
                "tools": [{"name": "f", "input_schema": {"type": "object"}}]}),
            vec![
                ("/max_tokens", Value::Null),
                ("/messages/0/role", json!("system")),
                ("/messages/1/content/0/id", json!("call.1")),
                ("/messages/2/content/0/tool_use_id", json!("c2")),
                ("/tools", json!([])),
                ("/temperature", json!(1.5)),
                ("/tools/0/name", json!("get weather")),
                ("/messages/0/content/0/text", json!("")),
            ],
        ),
        (
            ProviderId::Gemini,
            json!({"contents": [{"role": "user", "parts": [{"text": "Hi"}]},
                {"role": "model", "parts": [{"functionCall": {"name": "f", "args": {}}}]},
                {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"result": "ok"}}}]}],
                "tools": [{"functionDeclarations": [{"name": "f"}]}]}),
            vec![
                ("/contents/0/role", json!("assistant")),
                ("/contents/2/parts/0/functionResponse/name", json!("g")),
                ("/contents/0/parts/0", json!({"text": "Hi", "inlineData": {"mimeType": "image/png", "data": "AA=="}})),
                ("/contents/0/parts/0", json!({"inlineData": {"mimeType": "image/bmp", "data": "AA=="}})),
                ("/tools/0/functionDeclarations/0/name", json!("1f")),
                ("/generationConfig", json!({"stopSequences": ["a", "b", "c", "d", "e", "f"]})),
                ("/generationConfig", json!({"max_output_tokens": 5})),
            ],
        ),
    ];
    for (provider, good, breaks) in cases {
        assert_eq!(rules::violations(provider, &good), Vec::<String>::new(), "{provider}: {good}");
        for (pointer, value) in breaks {
            let mut bad = good.clone();
            let (parent, key) = pointer.rsplit_once('/').unwrap();
            let target = bad.pointer_mut(parent).unwrap();
            match (target, value) {
                (Value::Object(object), Value::Null) => {
                    object.remove(key);
                }
                (Value::Object(object), value) => {
                    if key == "contents" {
                        let content = object.remove("content").unwrap();
                        object.insert(key.into(), content);
                    } else {
                        object.insert(key.into(), value);
                    }
                }
                (Value::Array(items), value) => items[key.parse::<usize>().unwrap()] = value,
                _ => unreachable!("{pointer}"),
            }
            assert!(!rules::violations(provider, &bad).is_empty(), "{provider} accepts {pointer} = {bad}");
        }
    }
}
