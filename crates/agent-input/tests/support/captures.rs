//! The captured traffic of `tests/captures/` and an independent reading of it: what each real
//! answer says (its text, its tool calls, the reasoning state a follow-up sends back), read
//! straight from the provider's JSON with no code of the crate, so the crate's readers can be
//! checked against it. Shared by the core's and the CLI's tests (`#[path]`).

#![allow(dead_code, unreachable_pub)]

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// `tests/captures` of the workspace.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/captures")
}

/// One provider folder of one case.
#[derive(Debug, Clone)]
pub struct Capture {
    /// `<case>/<provider folder>`.
    pub name: String,
    /// The id the crate names the provider by (`gemini`, `anthropic-messages`, ...).
    pub provider: &'static str,
    pub dir: PathBuf,
}

impl Capture {
    pub fn file(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.join(name)).ok()
    }

    pub fn json(&self, name: &str) -> Option<Value> {
        self.file(name).map(|text| serde_json::from_str(&text).unwrap())
    }
}

/// The provider a corpus folder holds.
pub fn provider_of(folder: &str) -> Option<&'static str> {
    Some(match folder {
        "anthropic" | "vertex-anthropic" => "anthropic-messages",
        "chat-completions" => "openai-chat",
        "responses" => "openai-responses",
        "google" => "gemini",
        "bedrock" => "bedrock-converse",
        _ => return None,
    })
}

/// Every capture, in name order.
pub fn all() -> Vec<Capture> {
    let mut out = Vec::new();
    for case in std::fs::read_dir(root()).unwrap() {
        let case = case.unwrap().path();
        if !case.is_dir() {
            continue;
        }
        for folder in std::fs::read_dir(&case).unwrap() {
            let dir = folder.unwrap().path();
            let folder = dir.file_name().unwrap().to_str().unwrap().to_string();
            let provider = provider_of(&folder).unwrap_or_else(|| panic!("unknown provider folder {folder}"));
            let name = format!("{}/{folder}", case.file_name().unwrap().to_str().unwrap());
            out.push(Capture { name, provider, dir });
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// What an answer says, read independently.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Reading {
    /// The answer's text, every text block joined.
    pub text: String,
    /// Each call: id, name and arguments object.
    pub calls: Vec<(String, String, Value)>,
    /// The state sent back, in the order given: blocks and items as given, signatures and item
    /// ids as strings.
    pub state: Vec<Value>,
    /// The provider's own items with no standard form (server and built-in tools' calls and
    /// results, code execution parts), whole, in the order given.
    pub items: Vec<Value>,
}

/// What a `reasoningState` item stands for in a [`Reading`]: its block, signature or item id.
pub fn state_of(item: &Value) -> Value {
    item.get("block")
        .or_else(|| item.get("thoughtSignature"))
        .or_else(|| item.get("id"))
        .cloned()
        .unwrap_or(Value::Null)
}

fn s(value: &Value, pointer: &str) -> String {
    value.pointer(pointer).and_then(Value::as_str).unwrap_or_default().to_string()
}

fn arguments(text: &str) -> Value {
    if text.trim().is_empty() { json!({}) } else { serde_json::from_str(text).unwrap() }
}

/// A whole (non-streamed) answer.
pub fn read_response(provider: &str, body: &Value) -> Reading {
    let mut r = Reading::default();
    match provider {
        "anthropic-messages" => {
            for block in body["content"].as_array().unwrap() {
                match block["type"].as_str().unwrap() {
                    "text" => r.text.push_str(&s(block, "/text")),
                    "tool_use" => r.calls.push((s(block, "/id"), s(block, "/name"), block["input"].clone())),
                    "thinking" | "redacted_thinking" => r.state.push(block.clone()),
                    _ => r.items.push(block.clone()),
                }
            }
        }
        "openai-chat" => {
            let message = &body["choices"][0]["message"];
            r.text.push_str(message["content"].as_str().unwrap_or_default());
            for call in message["tool_calls"].as_array().into_iter().flatten() {
                let args = arguments(&s(call, "/function/arguments"));
                r.calls.push((s(call, "/id"), s(call, "/function/name"), args));
            }
        }
        "openai-responses" => read_output(body["output"].as_array().unwrap(), &mut r),
        "gemini" => {
            let mut n = 0;
            for part in body.pointer("/candidates/0/content/parts").and_then(Value::as_array).into_iter().flatten() {
                if part.get("thought") == Some(&Value::Bool(true)) {
                    r.state.push(part.clone());
                    continue;
                }
                if part.get("executableCode").is_some() || part.get("codeExecutionResult").is_some() {
                    r.items.push(part.clone());
                    continue;
                }
                if let Some(signature) = part.get("thoughtSignature") {
                    r.state.push(signature.clone());
                }
                if let Some(text) = part.get("text").and_then(Value::as_str) {
                    r.text.push_str(text);
                } else if let Some(call) = part.get("functionCall") {
                    // The id Gemini gave a call goes back with it: it is state too.
                    r.state.extend(call.get("id").cloned());
                    let id = call.get("id").and_then(Value::as_str).map_or_else(|| format!("call_{n}"), str::to_string);
                    r.calls.push((id, s(call, "/name"), call.get("args").cloned().unwrap_or_else(|| json!({}))));
                    n += 1;
                }
            }
        }
        "bedrock-converse" => {
            for block in body.pointer("/output/message/content").and_then(Value::as_array).unwrap() {
                if let Some(text) = block.get("text").and_then(Value::as_str) {
                    r.text.push_str(text);
                } else if let Some(call) = block.get("toolUse") {
                    r.calls.push((s(call, "/toolUseId"), s(call, "/name"), call["input"].clone()));
                } else if block.get("reasoningContent").is_some() {
                    r.state.push(block.clone());
                }
            }
        }
        other => panic!("no reading of {other}"),
    }
    r
}

/// Responses output items: messages' text, calls, reasoning items and the ids beside them.
fn read_output(items: &[Value], r: &mut Reading) {
    for item in items {
        match item["type"].as_str().unwrap() {
            "message" => {
                let mut text = String::new();
                for part in item["content"].as_array().unwrap() {
                    text.push_str(
                        part.get("text").or_else(|| part.get("refusal")).and_then(Value::as_str).unwrap_or(""),
                    );
                }
                // The id pairs the message with the reasoning before it; one without text goes
                // back whole.
                if text.trim().is_empty() {
                    r.state.push(item.clone());
                } else {
                    r.state.push(item["id"].clone());
                }
                r.text.push_str(&text);
            }
            "function_call" => {
                r.state.push(item["id"].clone());
                r.calls.push((s(item, "/call_id"), s(item, "/name"), arguments(&s(item, "/arguments"))));
            }
            "reasoning" => r.state.push(item.clone()),
            _ => r.items.push(item.clone()),
        }
    }
}

/// A streamed answer, from its events.
pub fn read_stream(provider: &str, events: &[Value]) -> Reading {
    let mut r = Reading::default();
    match provider {
        "anthropic-messages" => {
            let mut blocks: Vec<(u64, Value, String)> = Vec::new();
            for event in events {
                let index = event["index"].as_u64().unwrap_or(0);
                match event["type"].as_str().unwrap() {
                    "content_block_start" => blocks.push((index, event["content_block"].clone(), String::new())),
                    "content_block_delta" => {
                        let (_, block, json) = blocks.iter_mut().rev().find(|(i, _, _)| *i == index).unwrap();
                        let delta = &event["delta"];
                        match delta["type"].as_str().unwrap() {
                            "text_delta" => r.text.push_str(&s(delta, "/text")),
                            "input_json_delta" => json.push_str(&s(delta, "/partial_json")),
                            "thinking_delta" => {
                                let thinking = s(block, "/thinking") + &s(delta, "/thinking");
                                block["thinking"] = json!(thinking);
                            }
                            "signature_delta" => {
                                let signature = s(block, "/signature") + &s(delta, "/signature");
                                block["signature"] = json!(signature);
                            }
                            _ => {}
                        }
                    }
                    _ => {}
                }
            }
            for (_, mut block, json) in blocks {
                match block["type"].as_str().unwrap() {
                    "tool_use" => r.calls.push((s(&block, "/id"), s(&block, "/name"), arguments(&json))),
                    "thinking" | "redacted_thinking" => r.state.push(block),
                    "text" => {}
                    _ => {
                        // A server tool's call: its input streamed as JSON text.
                        if !json.is_empty() {
                            block["input"] = arguments(&json);
                        }
                        r.items.push(block);
                    }
                }
            }
        }
        "openai-chat" => {
            let mut calls: Vec<(u64, String, String, String)> = Vec::new();
            for event in events {
                let Some(delta) = event.pointer("/choices/0/delta") else { continue };
                r.text.push_str(delta["content"].as_str().unwrap_or_default());
                for call in delta["tool_calls"].as_array().into_iter().flatten() {
                    let index = call["index"].as_u64().unwrap();
                    if !calls.iter().any(|c| c.0 == index) {
                        calls.push((index, s(call, "/id"), String::new(), String::new()));
                    }
                    let held = calls.iter_mut().find(|c| c.0 == index).unwrap();
                    held.2.push_str(&s(call, "/function/name"));
                    held.3.push_str(&s(call, "/function/arguments"));
                }
            }
            r.calls = calls.into_iter().map(|(_, id, name, args)| (id, name, arguments(&args))).collect();
        }
        "openai-responses" => {
            let done = events.iter().find(|e| e["type"] == "response.completed").expect("a response.completed event");
            read_output(done.pointer("/response/output").and_then(Value::as_array).unwrap(), &mut r);
        }
        "gemini" => {
            let mut n = 0;
            let mut thought: Option<Value> = None;
            for event in events {
                for part in event.pointer("/candidates/0/content/parts").and_then(Value::as_array).into_iter().flatten()
                {
                    // Consecutive thought chunks are one thought part.
                    if part.get("thought") == Some(&Value::Bool(true)) {
                        let held = thought.get_or_insert_with(|| json!({"text": "", "thought": true}));
                        held["text"] = json!(s(held, "/text") + &s(part, "/text"));
                        if let Some(signature) = part.get("thoughtSignature") {
                            held["thoughtSignature"] = signature.clone();
                        }
                        continue;
                    }
                    r.state.extend(thought.take());
                    if part.get("executableCode").is_some() || part.get("codeExecutionResult").is_some() {
                        r.items.push(part.clone());
                        continue;
                    }
                    if let Some(signature) = part.get("thoughtSignature") {
                        r.state.push(signature.clone());
                    }
                    if let Some(text) = part.get("text").and_then(Value::as_str) {
                        r.text.push_str(text);
                    } else if let Some(call) = part.get("functionCall") {
                        // The id Gemini gave a call goes back with it: it is state too.
                        r.state.extend(call.get("id").cloned());
                        let id =
                            call.get("id").and_then(Value::as_str).map_or_else(|| format!("call_{n}"), str::to_string);
                        r.calls.push((id, s(call, "/name"), call.get("args").cloned().unwrap_or_else(|| json!({}))));
                        n += 1;
                    }
                }
            }
            r.state.extend(thought);
        }
        "bedrock-converse" => {
            let mut calls: Vec<(u64, String, String, String)> = Vec::new();
            for event in events {
                if let Some(start) = event.pointer("/contentBlockStart") {
                    if let Some(tool) = start.pointer("/start/toolUse") {
                        let index = start["contentBlockIndex"].as_u64().unwrap();
                        calls.push((index, s(tool, "/toolUseId"), s(tool, "/name"), String::new()));
                    }
                } else if let Some(delta) = event.pointer("/contentBlockDelta") {
                    let index = delta["contentBlockIndex"].as_u64().unwrap();
                    if let Some(text) = delta.pointer("/delta/text").and_then(Value::as_str) {
                        r.text.push_str(text);
                    } else if let Some(input) = delta.pointer("/delta/toolUse/input").and_then(Value::as_str) {
                        calls.iter_mut().find(|c| c.0 == index).unwrap().3.push_str(input);
                    }
                }
            }
            r.calls = calls.into_iter().map(|(_, id, name, args)| (id, name, arguments(&args))).collect();
        }
        other => panic!("no reading of {other}"),
    }
    r
}

/// The events of a stream capture as the provider sends them: server-sent events (with the
/// `event:` line where the provider names its events), or AWS event-stream frames for Bedrock.
pub fn wire(provider: &str, events: &[Value]) -> Vec<u8> {
    let mut out = Vec::new();
    for event in events {
        match provider {
            "bedrock-converse" => {
                let object = event.as_object().unwrap();
                let (kind, payload) = object.iter().next().unwrap();
                out.extend(frame(kind, payload.to_string().as_bytes()));
            }
            "anthropic-messages" | "openai-responses" => {
                out.extend(format!("event: {}\ndata: {event}\n\n", s(event, "/type")).into_bytes());
            }
            _ => out.extend(format!("data: {event}\n\n").into_bytes()),
        }
    }
    if provider == "openai-chat" {
        out.extend(b"data: [DONE]\n\n");
    }
    out
}

/// One AWS event-stream message of JSON `payload` with event type `kind`, CRCs included.
pub fn frame(kind: &str, payload: &[u8]) -> Vec<u8> {
    let mut headers = Vec::new();
    for (name, value) in [(":event-type", kind), (":content-type", "application/json"), (":message-type", "event")] {
        headers.push(u8::try_from(name.len()).unwrap());
        headers.extend(name.as_bytes());
        headers.push(7); // string
        headers.extend(u16::try_from(value.len()).unwrap().to_be_bytes());
        headers.extend(value.as_bytes());
    }
    let total = u32::try_from(12 + headers.len() + payload.len() + 4).unwrap();
    let mut out = Vec::with_capacity(total as usize);
    out.extend(total.to_be_bytes());
    out.extend(u32::try_from(headers.len()).unwrap().to_be_bytes());
    out.extend(crc32(&out).to_be_bytes());
    out.extend(headers);
    out.extend(payload);
    out.extend(crc32(&out).to_be_bytes());
    out
}

fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &byte in bytes {
        crc ^= u32::from(byte);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

/// The answer's turn in a request body: the last assistant (model) turn, or for Responses the
/// last run of items between input messages and tool outputs — each part written as the
/// follow-up test compares it: text, calls (id, name, arguments), and the state as given.
pub fn answer_turn(provider: &str, body: &Value) -> Vec<Value> {
    match provider {
        "anthropic-messages" => {
            let turn = body["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "assistant").unwrap();
            turn["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| match b["type"].as_str().unwrap() {
                    "text" => json!({"text": b["text"]}),
                    "tool_use" => json!({"call": [b["id"], b["name"], b["input"]]}),
                    _ => b.clone(),
                })
                .collect()
        }
        "gemini" => {
            let turn = body["contents"].as_array().unwrap().iter().rev().find(|m| m["role"] == "model").unwrap();
            turn["parts"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    if p.get("thought") == Some(&Value::Bool(true))
                        || p.get("executableCode").is_some()
                        || p.get("codeExecutionResult").is_some()
                    {
                        return p.clone();
                    }
                    let signature = p.get("thoughtSignature").cloned().unwrap_or(Value::Null);
                    match p.get("functionCall") {
                        Some(call) => {
                            // Gemini's call id, when it gave one, goes back with the call.
                            let (name, args) = (&call["name"], call.get("args").cloned().unwrap_or(json!({})));
                            let id = call.get("id").cloned().unwrap_or(Value::Null);
                            json!({"call": [name, args, id], "signature": signature})
                        }
                        None => json!({"text": p["text"], "signature": signature}),
                    }
                })
                .collect()
        }
        "openai-responses" => {
            let items = body["input"].as_array().unwrap();
            let is_answer = |i: &Value| i["role"] != "user" && i["type"] != "function_call_output";
            let end = items.iter().rposition(is_answer).unwrap() + 1;
            let start = items[..end].iter().rposition(|i| !is_answer(i)).map_or(0, |i| i + 1);
            items[start..end]
                .iter()
                .map(|i| match i["type"].as_str() {
                    Some("function_call") => {
                        json!({"call": [i["id"], i["call_id"], i["name"], arguments(&s(i, "/arguments"))]})
                    }
                    Some("reasoning") => i.clone(),
                    Some(kind) if kind != "message" => i.clone(),
                    _ => {
                        let text = match &i["content"] {
                            Value::String(text) => text.clone(),
                            parts => parts.as_array().unwrap().iter().map(|p| s(p, "/text")).collect(),
                        };
                        json!({"message": [i.get("id").cloned().unwrap_or(Value::Null), text]})
                    }
                })
                .collect()
        }
        "bedrock-converse" => {
            let turn = body["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "assistant").unwrap();
            turn["content"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| match (b.get("text"), b.get("toolUse")) {
                    (Some(text), _) => json!({"text": text}),
                    (_, Some(call)) => json!({"call": [call["toolUseId"], call["name"], call["input"]]}),
                    _ => b.clone(),
                })
                .collect()
        }
        "openai-chat" => {
            let turn = body["messages"].as_array().unwrap().iter().rev().find(|m| m["role"] == "assistant").unwrap();
            let mut out = Vec::new();
            if let Some(text) = turn["content"].as_str() {
                out.push(json!({"text": text}));
            }
            for call in turn["tool_calls"].as_array().into_iter().flatten() {
                out.push(
                    json!({"call": [call["id"], call["function"]["name"], arguments(&s(call, "/function/arguments"))]}),
                );
            }
            out
        }
        other => panic!("no reading of {other}"),
    }
}
