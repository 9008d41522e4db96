//! Each provider's body as what the standard form carries of it: the conversation as a flat list
//! of atoms (`[role, kind, ...]`) and the settings, written from each provider's documentation and
//! independent of the importer. Two bodies that carry the same conversation project the same
//! (a string and a single text part, separate and merged turns, bytes as numbers and as base64).
//!
//! Items without a standard form (built-in and server tools' calls and results, code execution)
//! are compared whole, as given, where they stand.
//!
//! Reasoning is part of it: each provider's reasoning blocks, items and parts as given, the
//! signatures and item ids that pair them with the assistant's text and calls, in body order; and
//! the reasoning setting as `{"effort"}` or `{"budget_tokens"}`.

#![allow(
    clippy::cast_possible_truncation, // bytes the SDK wrote as numbers
    clippy::items_after_statements,
    clippy::too_many_lines,
    clippy::semicolon_if_nothing_returned
)]

use agent_input::ProviderId;
use serde_json::{Map, Value, json};

fn text_atom(role: &str, text: &str) -> Option<Value> {
    (!text.is_empty()).then(|| json!([role, "text", text]))
}

fn mime(raw: &str) -> String {
    match raw.to_ascii_lowercase().as_str() {
        "image/jpg" => "image/jpeg".into(),
        "text/md" => "text/markdown".into(),
        other => other.into(),
    }
}

/// `data:<mime>;base64,<data>` as `[mime, data]`; any other URL as itself.
fn url_atom(url: &str) -> Value {
    match url.strip_prefix("data:").and_then(|rest| rest.split_once(";base64,")) {
        Some((m, data)) => json!([mime(m), data]),
        None => json!(url),
    }
}

fn arguments(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|_| json!(text))
}

/// A tool result's text, however the provider structures it.
fn texts(value: &Value, key: &str) -> Vec<Value> {
    match value {
        Value::String(s) if !s.is_empty() => vec![json!(s)],
        Value::Array(parts) => parts
            .iter()
            .filter_map(|p| p.get(key).and_then(Value::as_str).filter(|s| !s.is_empty()).map(|s| json!(s)))
            .collect(),
        _ => Vec::new(),
    }
}

/// What the standard form carries of a body: the conversation as a flat list of atoms
/// (`[role, kind, ...]`) and the settings.
pub(crate) struct Projection {
    pub(crate) atoms: Vec<Value>,
    pub(crate) settings: Map<String, Value>,
}

fn setting(settings: &mut Map<String, Value>, key: &str, value: Option<&Value>) {
    if let Some(value) = value.filter(|v| !v.is_null()) {
        settings.insert(key.into(), value.clone());
    }
}

fn lower_types(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match (k.as_str(), v) {
                    ("type", Value::String(t)) => (k.clone(), json!(t.to_ascii_lowercase())),
                    _ => (k.clone(), lower_types(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(lower_types).collect()),
        other => other.clone(),
    }
}

pub(crate) fn project(provider: ProviderId, body: &Value) -> Projection {
    let mut atoms = Vec::new();
    let mut settings = Map::new();
    match provider {
        ProviderId::OpenAiChat => {
            for m in body["messages"].as_array().into_iter().flatten() {
                let role = match m["role"].as_str().unwrap_or_default() {
                    "developer" => "system",
                    r => r,
                };
                if role == "tool" {
                    atoms.push(json!(["tool", m["tool_call_id"], texts(&m["content"], "text")]));
                    continue;
                }
                match &m["content"] {
                    Value::String(s) => atoms.extend(text_atom(role, s)),
                    Value::Array(parts) => {
                        for p in parts {
                            match p["type"].as_str() {
                                Some("text") => atoms.extend(text_atom(role, p["text"].as_str().unwrap_or_default())),
                                Some("image_url") => atoms.push(json!([
                                    role,
                                    "image",
                                    url_atom(p["image_url"]["url"].as_str().unwrap_or_default())
                                ])),
                                Some("file") => atoms.push(json!([
                                    role,
                                    "file",
                                    p["file"]["filename"],
                                    url_atom(p["file"]["file_data"].as_str().unwrap_or_default())
                                ])),
                                other => atoms.push(json!([role, other])),
                            }
                        }
                    }
                    _ => {}
                }
                for c in m["tool_calls"].as_array().into_iter().flatten() {
                    atoms.push(json!([
                        "assistant",
                        "call",
                        c["id"],
                        c["function"]["name"],
                        arguments(c["function"]["arguments"].as_str().unwrap_or_default())
                    ]));
                }
            }
            setting(&mut settings, "max_tokens", body.get("max_completion_tokens").or_else(|| body.get("max_tokens")));
            let effort = body.get("reasoning_effort").map(|e| json!({"effort": e}));
            setting(&mut settings, "reasoning", effort.as_ref());
            setting(&mut settings, "temperature", body.get("temperature"));
            setting(&mut settings, "top_p", body.get("top_p"));
            let stop = body.get("stop").map(|s| if s.is_string() { json!([s]) } else { s.clone() });
            setting(&mut settings, "stop", stop.as_ref());
            let tools: Vec<Value> = body["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| t["type"] == "function")
                .map(|t| json!([t["function"]["name"], t["function"]["description"], t["function"]["parameters"]]))
                .collect();
            if !tools.is_empty() {
                settings.insert("tools".into(), json!(tools));
            }
            let choice = body.get("tool_choice").map(|c| match c {
                Value::Object(o) => o["function"]["name"].clone(),
                other => other.clone(),
            });
            setting(&mut settings, "tool_choice", choice.as_ref());
            if body["response_format"]["type"] == "json_schema" {
                setting(&mut settings, "schema", body["response_format"]["json_schema"].get("schema"));
            }
        }
        ProviderId::OpenAiResponses => {
            if let Some(s) = body["instructions"].as_str() {
                atoms.extend(text_atom("system", s));
            }
            match &body["input"] {
                Value::String(s) => atoms.extend(text_atom("user", s)),
                Value::Array(items) => {
                    for item in items {
                        match item["type"].as_str().unwrap_or("message") {
                            "message" => {
                                let role = match item["role"].as_str().unwrap_or_default() {
                                    "developer" => "system",
                                    r => r,
                                };
                                // An output message's id pairs it with the reasoning item before
                                // it; one without text is kept as given.
                                if let Some(id) = item["id"].as_str().filter(|_| role == "assistant") {
                                    let has_text = match &item["content"] {
                                        Value::String(s) => !s.is_empty(),
                                        Value::Array(parts) => {
                                            parts.iter().any(|p| p["text"].as_str().is_some_and(|t| !t.is_empty()))
                                        }
                                        _ => false,
                                    };
                                    if !has_text {
                                        atoms.push(json!(["assistant", "reasoning", item]));
                                        continue;
                                    }
                                    atoms.push(json!(["assistant", "id", id]));
                                }
                                match &item["content"] {
                                    Value::String(s) => atoms.extend(text_atom(role, s)),
                                    Value::Array(parts) => {
                                        for p in parts {
                                            match p["type"].as_str() {
                                                Some("input_text" | "output_text") => atoms
                                                    .extend(text_atom(role, p["text"].as_str().unwrap_or_default())),
                                                Some("input_image") => atoms.push(json!([
                                                    role,
                                                    "image",
                                                    url_atom(p["image_url"].as_str().unwrap_or_default())
                                                ])),
                                                Some("input_file") => {
                                                    let data = p
                                                        .get("file_data")
                                                        .or_else(|| p.get("file_url"))
                                                        .and_then(Value::as_str)
                                                        .unwrap_or_default();
                                                    atoms.push(json!([role, "file", p["filename"], url_atom(data)]));
                                                }
                                                other => atoms.push(json!([role, other])),
                                            }
                                        }
                                    }
                                    _ => {}
                                }
                            }
                            // A call a program made (programmatic tool calling) goes with the
                            // program, as given.
                            "function_call" | "function_call_output" if item.get("caller").is_some() => {
                                atoms.push(json!(["item", item]))
                            }
                            "function_call" => {
                                if let Some(id) = item["id"].as_str() {
                                    atoms.push(json!(["assistant", "id", id]));
                                }
                                atoms.push(json!([
                                    "assistant",
                                    "call",
                                    item["call_id"],
                                    item["name"],
                                    arguments(item["arguments"].as_str().unwrap_or_default())
                                ]));
                            }
                            "reasoning" => atoms.push(json!(["assistant", "reasoning", item])),
                            "function_call_output" => {
                                atoms.push(json!(["tool", item["call_id"], texts(&item["output"], "text")]))
                            }
                            // Built-in tools' calls and results, and any other item: as given.
                            _ => atoms.push(json!(["item", item])),
                        }
                    }
                }
                _ => {}
            }
            let effort = body["reasoning"].get("effort").map(|e| json!({"effort": e}));
            setting(&mut settings, "reasoning", effort.as_ref());
            setting(&mut settings, "max_tokens", body.get("max_output_tokens"));
            setting(&mut settings, "temperature", body.get("temperature"));
            setting(&mut settings, "top_p", body.get("top_p"));
            let tools: Vec<Value> = body["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| t["type"] == "function")
                .map(|t| json!([t["name"], t["description"], t["parameters"]]))
                .collect();
            if !tools.is_empty() {
                settings.insert("tools".into(), json!(tools));
            }
            let choice = body.get("tool_choice").map(|c| match c {
                Value::Object(o) => o["name"].clone(),
                other => other.clone(),
            });
            setting(&mut settings, "tool_choice", choice.as_ref());
            if body["text"]["format"]["type"] == "json_schema" {
                setting(&mut settings, "schema", body["text"]["format"].get("schema"));
            }
        }
        ProviderId::AnthropicMessages => {
            match &body["system"] {
                Value::String(s) => atoms.extend(text_atom("system", s)),
                Value::Array(blocks) => {
                    atoms.extend(blocks.iter().filter_map(|b| text_atom("system", b["text"].as_str()?)))
                }
                _ => {}
            }
            fn block(role: &str, b: &Value) -> Value {
                let source = &b["source"];
                let media = match source["type"].as_str() {
                    Some("base64") => json!([mime(source["media_type"].as_str().unwrap_or_default()), source["data"]]),
                    Some("url") => source["url"].clone(),
                    Some("text") => json!(["text", source["data"]]),
                    _ => Value::Null,
                };
                json!([role, b["type"], media])
            }
            for m in body["messages"].as_array().into_iter().flatten() {
                let role = m["role"].as_str().unwrap_or_default();
                match &m["content"] {
                    Value::String(s) => atoms.extend(text_atom(role, s)),
                    Value::Array(blocks) => {
                        for b in blocks {
                            match b["type"].as_str() {
                                Some("text") => atoms.extend(text_atom(role, b["text"].as_str().unwrap_or_default())),
                                Some("image" | "document") => atoms.push(block(role, b)),
                                Some("tool_use") => {
                                    atoms.push(json!(["assistant", "call", b["id"], b["name"], b["input"]]))
                                }
                                Some("tool_result") => {
                                    let inner: Vec<Value> =
                                        match &b["content"] {
                                            Value::String(s) if !s.is_empty() => vec![json!(s)],
                                            Value::Array(items) => items
                                                .iter()
                                                .map(|i| {
                                                    if i["type"] == "text" {
                                                        i["text"].clone()
                                                    } else {
                                                        block("tool", i)
                                                    }
                                                })
                                                .collect(),
                                            _ => Vec::new(),
                                        };
                                    atoms.push(json!(["tool", b["tool_use_id"], inner]));
                                }
                                Some("thinking" | "redacted_thinking") => atoms.push(json!([role, "reasoning", b])),
                                // Server tools' calls and results, and any other block: as given.
                                _ => atoms.push(json!([role, "item", b])),
                            }
                        }
                    }
                    _ => {}
                }
            }
            for key in ["max_tokens", "temperature", "top_p", "stop_sequences"] {
                setting(&mut settings, key, body.get(key));
            }
            let reasoning = match body["thinking"]["type"].as_str() {
                Some("enabled") => Some(json!({"budget_tokens": body["thinking"]["budget_tokens"]})),
                Some("adaptive") => Some(json!({"effort": body["output_config"]["effort"]})),
                _ => None,
            };
            setting(&mut settings, "reasoning", reasoning.as_ref());
            let tools: Vec<Value> = body["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter(|t| t.get("type").is_none_or(|k| k == "custom"))
                .map(|t| json!([t["name"], t["description"], t["input_schema"]]))
                .collect();
            if !tools.is_empty() {
                settings.insert("tools".into(), json!(tools));
            }
            if let Some(choice) = body.get("tool_choice") {
                settings.insert("tool_choice".into(), json!([choice["type"], choice["name"]]));
            }
            let schema = body.pointer("/output_config/format/schema").or_else(|| body.pointer("/output_format/schema"));
            setting(&mut settings, "schema", schema);
        }
        ProviderId::Gemini => {
            for p in body["systemInstruction"]["parts"].as_array().into_iter().flatten() {
                atoms.extend(p["text"].as_str().and_then(|t| text_atom("system", t)));
            }
            fn media(role: &str, p: &Value) -> Option<Value> {
                if let Some(d) = p.get("inlineData") {
                    return Some(json!([role, "media", mime(d["mimeType"].as_str().unwrap_or_default()), d["data"]]));
                }
                p.get("fileData")
                    .map(|d| json!([role, "media", mime(d["mimeType"].as_str().unwrap_or_default()), d["fileUri"]]))
            }
            for c in body["contents"].as_array().into_iter().flatten() {
                let role = if c["role"] == "model" { "assistant" } else { "user" };
                for p in c["parts"].as_array().into_iter().flatten() {
                    if p["thought"] == true {
                        atoms.push(json!([role, "reasoning", p]));
                        continue;
                    }
                    // Gemini's documented stand-in for a missing signature carries none.
                    if let Some(signature) =
                        p["thoughtSignature"].as_str().filter(|s| *s != "skip_thought_signature_validator")
                    {
                        atoms.push(json!([role, "signature", signature]));
                    }
                    if let Some(t) = p["text"].as_str() {
                        atoms.extend(text_atom(role, t));
                    } else if let Some(call) = p.get("functionCall") {
                        atoms.push(json!([
                            "assistant",
                            "call",
                            call["name"],
                            call.get("args").cloned().unwrap_or(json!({}))
                        ]));
                    } else if let Some(r) = p.get("functionResponse") {
                        let text = match &r["response"] {
                            Value::Object(o) if o.len() == 1 && o.get("result").is_some_and(Value::is_string) => {
                                o["result"].clone()
                            }
                            other => json!(other.to_string()),
                        };
                        let inner: Vec<Value> =
                            r["parts"].as_array().into_iter().flatten().filter_map(|p| media("tool", p)).collect();
                        atoms.push(json!(["tool", r["name"], text, inner]));
                    } else if let Some(m) = media(role, p) {
                        atoms.push(m);
                    } else {
                        // Code execution, and any other part: as given.
                        atoms.push(json!([role, "item", p]));
                    }
                }
            }
            let config = &body["generationConfig"];
            setting(&mut settings, "max_tokens", config.get("maxOutputTokens"));
            setting(&mut settings, "temperature", config.get("temperature"));
            setting(&mut settings, "top_p", config.get("topP"));
            setting(&mut settings, "stop", config.get("stopSequences"));
            let thinking = &config["thinkingConfig"];
            let reasoning = match (thinking.get("thinkingBudget"), thinking["thinkingLevel"].as_str()) {
                (Some(budget), _) => Some(json!({"budget_tokens": budget})),
                (None, Some(level)) => Some(json!({"effort": level.to_ascii_lowercase()})),
                _ => None,
            };
            setting(&mut settings, "reasoning", reasoning.as_ref());
            if config["responseMimeType"] == "application/json" {
                let schema = config.get("responseJsonSchema").or_else(|| config.get("responseSchema")).map(lower_types);
                setting(&mut settings, "schema", schema.as_ref());
            }
            let tools: Vec<Value> = body["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .flat_map(|t| t["functionDeclarations"].as_array().cloned().unwrap_or_default())
                .map(|f| {
                    json!([
                        f["name"],
                        f["description"],
                        f.get("parametersJsonSchema").cloned().or_else(|| f.get("parameters").map(lower_types))
                    ])
                })
                .collect();
            if !tools.is_empty() {
                settings.insert("tools".into(), json!(tools));
            }
            setting(&mut settings, "tool_choice", body.pointer("/toolConfig/functionCallingConfig"));
        }
        ProviderId::BedrockConverse => {
            for b in body["system"].as_array().into_iter().flatten() {
                atoms.extend(b["text"].as_str().and_then(|t| text_atom("system", t)));
            }
            fn media(role: &str, b: &Value) -> Option<Value> {
                for kind in ["image", "video", "document"] {
                    if let Some(m) = b.get(kind) {
                        let source =
                            m["source"].get("bytes").map_or_else(|| m["source"]["s3Location"]["uri"].clone(), bytes);
                        return Some(json!([role, kind, m["format"], m.get("name"), source]));
                    }
                }
                None
            }
            for m in body["messages"].as_array().into_iter().flatten() {
                let role = m["role"].as_str().unwrap_or_default();
                for b in m["content"].as_array().into_iter().flatten() {
                    if let Some(t) = b["text"].as_str() {
                        atoms.extend(text_atom(role, t));
                    } else if let Some(u) = b.get("toolUse") {
                        atoms.push(json!(["assistant", "call", u["toolUseId"], u["name"], u["input"]]));
                    } else if let Some(r) = b.get("toolResult") {
                        let inner: Vec<Value> = r["content"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|c| {
                                c.get("text")
                                    .cloned()
                                    .or_else(|| c.get("json").map(|j| json!(j.to_string())))
                                    .or_else(|| media("tool", c))
                                    .unwrap_or(Value::Null)
                            })
                            .collect();
                        atoms.push(json!(["tool", r["toolUseId"], inner]));
                    } else if let Some(m) = media(role, b) {
                        atoms.push(m);
                    } else if b.get("reasoningContent").is_some() {
                        atoms.push(json!([role, "reasoning", b]));
                    } else if b.get("cachePoint").is_none() {
                        atoms.push(json!([role, "other"]));
                    }
                }
            }
            let config = &body["inferenceConfig"];
            setting(&mut settings, "max_tokens", config.get("maxTokens"));
            setting(&mut settings, "temperature", config.get("temperature"));
            setting(&mut settings, "top_p", config.get("topP"));
            setting(&mut settings, "stop", config.get("stopSequences"));
            let thinking = body.pointer("/additionalModelRequestFields/thinking");
            let budget =
                thinking.filter(|t| t["type"] == "enabled").map(|t| json!({"budget_tokens": t["budget_tokens"]}));
            setting(&mut settings, "reasoning", budget.as_ref());
            let tools: Vec<Value> = body["toolConfig"]["tools"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|t| t.get("toolSpec"))
                .map(|s| json!([s["name"], s["description"], s["inputSchema"]["json"]]))
                .collect();
            if !tools.is_empty() {
                settings.insert("tools".into(), json!(tools));
            }
            setting(&mut settings, "tool_choice", body.pointer("/toolConfig/toolChoice"));
        }
        other => panic!("no projection for {other}"),
    }
    Projection { atoms, settings }
}

/// Converse `bytes` as base64, however the JavaScript SDK wrote them (numbers, a `Buffer`, a
/// `Uint8Array`'s numbered keys).
fn bytes(value: &Value) -> Value {
    let numbers: Vec<u8> = match value {
        Value::Array(items) => items.iter().filter_map(Value::as_u64).map(|n| n as u8).collect(),
        Value::Object(map) if map.contains_key("data") => {
            map["data"].as_array().into_iter().flatten().filter_map(Value::as_u64).map(|n| n as u8).collect()
        }
        Value::Object(map) => {
            (0..map.len()).filter_map(|i| map.get(&i.to_string())?.as_u64()).map(|n| n as u8).collect()
        }
        other => return other.clone(),
    };
    json!(agent_input::base64::encode(&numbers))
}
