//! Import: real provider requests and generated ones read into the standard form and written back.
//!
//! The captured requests under `tests/captures/<case>/<provider>/` (`request.json`,
//! `followup-request.json`) are byte-identical copies of Braintrust's Lingua corpus
//! (braintrustdata/lingua, `payloads/snapshots`, commit 75f55048, MIT; `tests/captures/LICENSE`):
//! real traffic of Anthropic Messages (`anthropic`), Chat Completions (`chat-completions`),
//! Responses (`responses`), Gemini (`google`) and Bedrock Converse (`bedrock`).
//!
//! For each one: every reported path resolves in the request; and a request that imports without
//! errors, converted back to its own provider, carries the same conversation and settings. That
//! is compared through a projection of each provider's body written here from the provider's
//! documentation (text, media, calls, results, sampling, tools), independent of the importer, so
//! the expected values come from the captured request itself.

#![allow(
    clippy::missing_panics_doc, // test code: panics are failures
    clippy::too_many_lines,
    clippy::items_after_statements,
    clippy::cast_possible_truncation, // bytes the SDK wrote as numbers
    clippy::semicolon_if_nothing_returned
)]

use std::path::PathBuf;

use agent_input::import::{self, translate};
use agent_input::{ConvertOptions, ProviderId, ToolSpec, convert, validate};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

fn captures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/captures")
}

fn provider_of(folder: &str) -> Option<ProviderId> {
    Some(match folder {
        "anthropic" => ProviderId::AnthropicMessages,
        "chat-completions" => ProviderId::OpenAiChat,
        "responses" => ProviderId::OpenAiResponses,
        "google" => ProviderId::Gemini,
        "bedrock" => ProviderId::BedrockConverse,
        _ => return None,
    })
}

/// Every captured request: (name, provider, body).
fn corpus() -> Vec<(String, ProviderId, Value)> {
    let mut out = Vec::new();
    let mut cases: Vec<_> = std::fs::read_dir(captures()).expect("tests/captures").flatten().collect();
    cases.sort_by_key(std::fs::DirEntry::file_name);
    for case in cases.into_iter().filter(|c| c.path().is_dir()) {
        let mut providers: Vec<_> = std::fs::read_dir(case.path()).expect("case folder").flatten().collect();
        providers.sort_by_key(std::fs::DirEntry::file_name);
        for folder in providers {
            let Some(provider) = provider_of(&folder.file_name().to_string_lossy()) else { continue };
            for file in ["request.json", "followup-request.json"] {
                let path = folder.path().join(file);
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                let body: Value = serde_json::from_str(&text).expect("captured JSON");
                let name =
                    format!("{}/{}/{file}", case.file_name().to_string_lossy(), folder.file_name().to_string_lossy());
                out.push((name, provider, body));
            }
        }
    }
    out
}

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
struct Projection {
    atoms: Vec<Value>,
    settings: Map<String, Value>,
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

fn project(provider: ProviderId, body: &Value) -> Projection {
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
                            "function_call" => atoms.push(json!([
                                "assistant",
                                "call",
                                item["call_id"],
                                item["name"],
                                arguments(item["arguments"].as_str().unwrap_or_default())
                            ])),
                            "function_call_output" => {
                                atoms.push(json!(["tool", item["call_id"], texts(&item["output"], "text")]))
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
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
                                Some("thinking" | "redacted_thinking") => {}
                                other => atoms.push(json!([role, other])),
                            }
                        }
                    }
                    _ => {}
                }
            }
            for key in ["max_tokens", "temperature", "top_p", "stop_sequences"] {
                setting(&mut settings, key, body.get(key));
            }
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
                        continue;
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
                        atoms.push(json!([role, "other"]));
                    }
                }
            }
            let config = &body["generationConfig"];
            setting(&mut settings, "max_tokens", config.get("maxOutputTokens"));
            setting(&mut settings, "temperature", config.get("temperature"));
            setting(&mut settings, "top_p", config.get("topP"));
            setting(&mut settings, "stop", config.get("stopSequences"));
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
                        f.get("parametersJsonSchema").or_else(|| f.get("parameters")).map(lower_types)
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
                    } else if b.get("cachePoint").is_none() && b.get("reasoningContent").is_none() {
                        atoms.push(json!([role, "other"]));
                    }
                }
            }
            let config = &body["inferenceConfig"];
            setting(&mut settings, "max_tokens", config.get("maxTokens"));
            setting(&mut settings, "temperature", config.get("temperature"));
            setting(&mut settings, "top_p", config.get("topP"));
            setting(&mut settings, "stop", config.get("stopSequences"));
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

/// Whether `pointer` names a place in `body` (an index one past the end counts: an array that
/// should have had an item).
fn resolves(body: &Value, pointer: &str) -> bool {
    if body.pointer(pointer).is_some() {
        return true;
    }
    // A missing field is reported at the key it should have: its parent must exist.
    let parent = pointer.rsplit_once('/').map_or("", |(p, _)| p);
    body.pointer(parent).is_some_and(|p| p.is_object() || p.is_array())
}

/// Equal JSON, numbers compared by value (`0` and `0.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn every_captured_request_imports_with_paths_into_it_and_round_trips() {
    let corpus = corpus();
    assert!(corpus.len() >= 400, "only {} captured requests found", corpus.len());
    let (mut clean, mut failures) = (0, Vec::new());
    for (name, provider, body) in &corpus {
        let translation = translate(*provider, body, Some(*provider));
        for d in translation.errors.iter().chain(&translation.warnings) {
            let path = d.path.to_string();
            if !resolves(body, &path) {
                failures.push(format!("{name}: {} at {path:?} does not resolve in the request", d.code));
            }
        }
        if !translation.errors.is_empty() {
            continue;
        }
        clean += 1;
        let back = translation.body.as_ref().expect("a body with a target");
        let (want, got) = (project(*provider, body), project(*provider, back));
        if want.atoms != got.atoms {
            failures.push(format!(
                "{name}: the conversation changed\n  source:  {}\n  written: {}",
                json!(want.atoms),
                json!(got.atoms)
            ));
        }
        for (key, value) in &want.settings {
            if got.settings.get(key).is_none_or(|got| !same(got, value)) {
                failures.push(format!("{name}: setting {key} was {value}, written {:?}", got.settings.get(key)));
            }
        }
        // The written body is a fixed point: read and written again, it is the same body.
        let again = translate(*provider, back, Some(*provider));
        if again.body.as_ref() != Some(back) {
            failures.push(format!("{name}: the written body, read and written again, changes"));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    assert!(clean * 10 >= corpus.len() * 6, "only {clean} of {} captured requests import without errors", corpus.len());
    eprintln!("{clean} of {} captured requests round-trip", corpus.len());
}

/// Every captured request that imports converts to every other provider, or says why not at a
/// path into the captured request.
#[test]
fn every_pair_of_providers_translates() {
    let mut converted = 0;
    for (name, from, body) in corpus() {
        if !import::import(from, &body).report.errors.is_empty() {
            continue;
        }
        for to in ProviderId::ALL {
            let translation = translate(from, &body, Some(*to));
            match &translation.body {
                Some(Value::Null) => {
                    assert!(!translation.errors.is_empty(), "{name} → {to}: no body and no error");
                    for e in &translation.errors {
                        assert!(resolves(&body, &e.path.to_string()), "{name} → {to}: {e} does not resolve");
                    }
                }
                Some(_) => converted += 1,
                None => panic!("{name} → {to}: no body field with a target"),
            }
        }
    }
    assert!(converted > 1000, "only {converted} translations succeeded");
}

// Generated requests: any standard conversation with options, written by a provider's converter,
// imports and converts back to the very same body.

const PNG: &str = "iVBORw0KGgo=";
const PDF: &str = "JVBERi0xLjQK";

fn step() -> impl Strategy<Value = Vec<Value>> {
    prop_oneof![
        ("[a-zA-Z][a-zA-Z ?.]{0,16}", 0..4u8).prop_map(|(text, media)| {
            let mut content = vec![json!({"type": "text", "text": text})];
            match media {
                1 => content.push(json!({"type": "image", "source": {"type": "base64", "format": "png", "data": PNG}})),
                2 => content.push(json!({"type": "document", "name": "report", "source": {"type": "base64", "format": "pdf", "data": PDF}})),
                3 => content.push(json!({"type": "image", "source": {"type": "url", "format": "jpeg", "data": "https://example.com/cat.jpeg"}})),
                _ => {}
            }
            vec![json!({"role": "user", "content": content})]
        }),
        "[a-zA-Z][a-zA-Z .]{0,16}"
            .prop_map(|t| vec![json!({"role": "assistant", "content": [{"type": "text", "text": t}]}), json!({"role": "user", "content": [{"type": "text", "text": "Go on."}]})]),
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

fn request() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-zA-Z][a-zA-Z ?]{0,20}".prop_map(|text| json!({"input": text})),
        (any::<bool>(), prop::collection::vec(step(), 0..6)).prop_map(|(system, steps)| {
            let mut messages = Vec::new();
            if system {
                messages.push(json!({"role": "system", "content": [{"type": "text", "text": "Be brief."}]}));
            }
            messages.push(json!({"role": "user", "content": [{"type": "text", "text": "Hello"}]}));
            messages.extend(steps.into_iter().flatten());
            if messages.last().is_some_and(|m| m["role"] == "assistant") {
                messages.push(json!({"role": "user", "content": [{"type": "text", "text": "Thanks."}]}));
            }
            json!({"input": messages})
        }),
    ]
}

fn options() -> impl Strategy<Value = ConvertOptions> {
    (
        prop::option::of(1u64..100_000),
        prop::option::of((0u8..=10).prop_map(|t| f64::from(t) / 10.0)),
        prop::option::of((1u8..=10).prop_map(|t| f64::from(t) / 10.0)),
        prop::collection::vec("[A-Z]{1,5}", 0..3),
        0..4u8,
        any::<bool>(),
    )
        .prop_map(|(max_tokens, temperature, top_p, stop_sequences, choice, schema)| ConvertOptions {
            max_tokens,
            temperature,
            top_p,
            stop_sequences,
            tools: vec![ToolSpec {
                name: "get_weather".into(),
                description: Some("The weather in a city.".into()),
                input_schema: Some(json!({"type": "object", "properties": {"id": {"type": "string"}}})),
            }],
            tool_choice: match choice {
                1 => Some(agent_input::options::ToolChoice::Any),
                2 => Some(agent_input::options::ToolChoice::Tool { name: "get_weather".into() }),
                3 => Some(agent_input::options::ToolChoice::Auto),
                _ => None,
            },
            response_format: schema.then(|| agent_input::options::ResponseFormat {
                schema: json!({"type": "object", "properties": {"answer": {"type": "string"}}}),
                name: Some("answer".into()),
                description: None,
                strict: None,
            }),
            ..ConvertOptions::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_generated_body_round_trips_exactly(request in request(), options in options(), which in 0..5usize) {
        let provider = ProviderId::ALL[which];
        let document = validate::document(&request);
        let (standard, _) = validate::validate_request(&document, &validate::Options::default())
            .into_result()
            .expect("generated requests are valid");
        // A provider that cannot take this request (Bedrock and web URLs, Anthropic and both
        // samplings, Responses and stop sequences) has no body to read back.
        let Ok(written) = convert::convert_to_value(provider, &standard, &options) else { return Ok(()) };
        let translation = translate(provider, &written.body, Some(provider));
        prop_assert!(translation.errors.is_empty(), "{provider}: {:?}\n{}", translation.errors, written.body);
        prop_assert_eq!(translation.body.as_ref(), Some(&written.body), "{}", provider);
    }
}
