//! A Converse request body read into the standard input
//! (<https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html>):
//! `system` becomes a leading system message, `user` turns text, images, videos and documents
//! (bytes or `s3Location`), `assistant` turns text and `toolUse` blocks, each `toolResult` its own
//! tool message; `inferenceConfig` and `toolConfig` are options, a `cachePoint` the prompt cache;
//! the other keys of a `toolUse`, `toolResult` (its `status`) or media block are its provider
//! fields; an assistant turn's `reasoningContent` blocks are its reasoning state and Claude's
//! `thinking` budget in `additionalModelRequestFields` the reasoning option.

use serde_json::{Map, Value, json};

use crate::path::Path;
use crate::providers::common::import::{CallFields, Import, Media, SpecFields, ToolRead, arguments_text, own_fields};
use crate::providers::id::ProviderId;

const BLOCKS: &[&str] =
    &["text", "image", "video", "document", "toolUse", "toolResult", "reasoningContent", "cachePoint"];

/// Reads a Converse body.
pub(crate) fn read(body: &Value) -> Import {
    let mut im = Import::new(ProviderId::BedrockConverse);
    let root = Path::root();
    let Some(object) = im.object(body, &root, "the request body") else { return im };
    if let Some(system) = object.get("system").filter(|s| !s.is_null()) {
        self::system(&mut im, system, &root.key("system"));
    }
    for (key, value) in object {
        let at = root.key(key);
        match key.as_str() {
            "messages" | "system" => {}
            "inferenceConfig" => inference(&mut im, value, &at),
            "toolConfig" => tool_config(&mut im, value, &at),
            "outputConfig" => output_config(&mut im, value, &at),
            "additionalModelRequestFields" => additional(&mut im, value, &at),
            _ => im.request_key(key, value, &root),
        }
    }
    im.each_turn(object, "messages", "a Converse request", message);
    im
}

fn system(im: &mut Import, system: &Value, at: &Path) {
    let Some(blocks) = im.as_array(system, at, "system") else { return };
    im.open("system", at);
    for (j, block) in blocks.iter().enumerate() {
        let at = at.index(j);
        let Some(object) = im.object(block, &at, "a system block") else { continue };
        if let Some(point) = object.get("cachePoint") {
            cache_point(im, point, &at.key("cachePoint"), true);
        } else if let Some(text) = im.string(object, &at, "text", "a system block") {
            im.text(text, &at.key("text"));
        }
        im.other_keys(object, &at, &["text", "cachePoint"]);
    }
}

/// A `cachePoint`: the prompt cache option; `standing`: whether it follows the system prompt or
/// the tools, where the option places cache points.
fn cache_point(im: &mut Import, point: &Value, at: &Path, standing: bool) {
    let ttl = point.get("ttl").cloned().unwrap_or(Value::Null);
    im.option("prompt_cache", if ttl.is_null() { json!(true) } else { json!({"ttl": ttl}) }, at);
    if !standing {
        im.dropped(at.clone(), "a cache point inside the conversation (the prompt cache option places them after the system prompt and the tools)");
    }
}

fn message(im: &mut Import, message: &Value, at: &Path) {
    let Some(object) = im.object(message, at, "a message") else { return };
    im.other_keys(object, at, &["role", "content"]);
    let Some(role) = im.string(object, at, "role", "a message") else { return };
    if role != "user" && role != "assistant" {
        im.unsupported(at.key("role"), "this role", "use user or assistant, and the top-level system");
        return;
    }
    im.begin(at);
    let Some(content) = im.field(object, at, "content", "a message") else { return };
    let cat = at.key("content");
    let Some(blocks) = im.as_array(content, &cat, "content") else { return };
    for (j, block) in blocks.iter().enumerate() {
        self::block(im, role, block, &cat.index(j));
    }
    im.end(role);
}

fn block(im: &mut Import, role: &str, block: &Value, at: &Path) {
    let Some(object) = im.object(block, at, "a content block") else { return };
    let Some((kind, inner)) = object.iter().find(|(k, v)| BLOCKS.contains(&k.as_str()) && !v.is_null()) else {
        let found = object.keys().next().map_or("", String::as_str);
        im.unknown_type(at.key(found), found, BLOCKS);
        return;
    };
    let bat = at.key(kind);
    match kind.as_str() {
        "text" => {
            im.continue_as(role, at);
            if let Some(text) = im.as_str(inner, &bat, "text") {
                im.text(text, &bat);
            }
        }
        "image" | "video" | "document" => {
            im.continue_as(role, at);
            media(im, kind, inner, at);
        }
        "toolUse" => {
            im.continue_as("assistant", at);
            let Some(call) = im.object(inner, &bat, "toolUse") else { return };
            let before = im.tally();
            let id = im.string(call, &bat, "toolUseId", "a toolUse block");
            let name = im.string(call, &bat, "name", "a toolUse block");
            let input = im.field(call, &bat, "input", "a toolUse block");
            if let (Some(id), Some(name), Some(input)) = (id, name, input) {
                let fields =
                    CallFields { id: bat.key("toolUseId"), name: bat.key("name"), arguments: bat.key("input") };
                im.call(id, name, &arguments_text(input), &bat, &fields);
            }
            im.call_keys(before, call, &bat, &["toolUseId", "name", "input"]);
        }
        "toolResult" => tool_result(im, inner, &bat),
        // The whole block, as Converse gave it, is the assistant message's reasoning state.
        "reasoningContent" if role == "assistant" => {
            im.reasoning_block(Value::Object(object.clone()), at);
            return;
        }
        "reasoningContent" => im.reasoning(bat),
        _ => cache_point(im, inner, &bat, false),
    }
    im.other_keys(object, at, &[kind.as_str()]);
}

/// An `image`, `video` or `document` block at `at`, its other keys the block's provider fields.
fn media(im: &mut Import, kind: &str, inner: &Value, at: &Path) {
    let before = im.tally();
    media_block(im, kind, inner, at);
    if let Value::Object(media) = inner {
        im.block_keys(before, media, &at.key(kind), &["format", "name", "source"]);
    }
}

/// The media block `inner` at `at`: its format, name and source.
fn media_block(im: &mut Import, kind: &str, inner: &Value, at: &Path) {
    let bat = at.key(kind);
    let Some(media) = im.object(inner, &bat, kind) else { return };
    let format = im.string(media, &bat, "format", &format!("a {kind} block"));
    let name = if kind == "document" { im.string(media, &bat, "name", "a document block") } else { None };
    let Some(source) = im.field(media, &bat, "source", &format!("a {kind} block")) else { return };
    let sat = bat.key("source");
    let Some(source) = im.object(source, &sat, "source") else { return };
    let Some(format) = format else { return };
    let Some(format) = standard_format(kind, format) else {
        im.unsupported(
            bat.key("format"),
            &format!("a {kind} of format '{format}'"),
            "use a format the standard input lists",
        );
        return;
    };
    let media = Media { kind: kind_name(kind), format };
    if let Some(bytes) = source.get("bytes") {
        match self::bytes(bytes) {
            Some(data) => im.media(&media, &data, true, name, at, &sat.key("bytes")),
            None => im.wrong_type(sat.key("bytes"), "bytes", "base64 text", bytes),
        }
    } else if let Some(location) = source.get("s3Location") {
        let lat = sat.key("s3Location");
        let Some(location) = im.object(location, &lat, "s3Location") else { return };
        im.other_keys(location, &lat, &["uri", "bucketOwner"]);
        if let Some(uri) = im.string(location, &lat, "uri", "an s3Location") {
            im.media(&media, uri, false, name, at, &lat.key("uri"));
        }
    } else if source.contains_key("text") || source.contains_key("content") {
        im.unsupported(sat.clone(), "a document given as text or content blocks", "send its bytes");
    } else {
        im.missing(sat.key("bytes"), "bytes", "a source");
    }
    im.other_keys(source, &sat, &["bytes", "s3Location", "text", "content"]);
}

/// A `bytes` field as base64: the REST body's base64 text, or the bytes as the JavaScript SDK
/// writes them to JSON (an array of numbers, a `Buffer`'s `{"type": "Buffer", "data"}`, a
/// `Uint8Array`'s `{"0": .., "1": ..}`).
fn bytes(value: &Value) -> Option<String> {
    fn numbers<'v>(values: impl Iterator<Item = &'v Value>) -> Option<Vec<u8>> {
        values.map(|v| v.as_u64().and_then(|n| u8::try_from(n).ok())).collect()
    }
    let raw = match value {
        Value::String(text) => return Some(text.clone()),
        Value::Array(items) => numbers(items.iter())?,
        Value::Object(map) if map.get("type").and_then(Value::as_str) == Some("Buffer") => {
            numbers(map.get("data")?.as_array()?.iter())?
        }
        Value::Object(map) => {
            let values: Option<Vec<&Value>> = (0..map.len()).map(|i| map.get(&i.to_string())).collect();
            numbers(values?.into_iter())?
        }
        _ => return None,
    };
    Some(crate::base64::encode(&raw))
}

fn kind_name(kind: &str) -> &'static str {
    match kind {
        "image" => "image",
        "video" => "video",
        _ => "document",
    }
}

/// Converse's format names are the standard ones.
fn standard_format(kind: &str, format: &str) -> Option<&'static str> {
    use crate::format::{DocumentFormat, ImageFormat, VideoFormat};
    match kind {
        "image" => ImageFormat::ALL.iter().find(|f| f.as_str() == format).map(|f| f.as_str()),
        "video" => VideoFormat::ALL.iter().find(|f| f.as_str() == format).map(|f| f.as_str()),
        _ => DocumentFormat::ALL.iter().find(|f| f.as_str() == format).map(|f| f.as_str()),
    }
}

fn tool_result(im: &mut Import, inner: &Value, at: &Path) {
    let Some(result) = im.object(inner, at, "toolResult") else { return };
    im.continue_as("tool", at);
    // `status` among them: the tool message's provider fields.
    im.message_keys(result, at, &["toolUseId", "content"]);
    if let Some(id) = im.string(result, at, "toolUseId", "a toolResult block") {
        im.answers(id, &at.key("toolUseId"));
    }
    let Some(content) = im.field(result, at, "content", "a toolResult block") else { return };
    let cat = at.key("content");
    let Some(blocks) = im.as_array(content, &cat, "content") else { return };
    // A result whose text is all `json` blocks is a JSON result; `json` beside `text` is kept as
    // its JSON text.
    let json_only = blocks.iter().any(|b| b.get("json").is_some()) && blocks.iter().all(|b| b.get("text").is_none());
    for (k, block) in blocks.iter().enumerate() {
        let bat = cat.index(k);
        let Some(object) = im.object(block, &bat, "a tool result block") else { continue };
        if let Some(text) = object.get("text") {
            if let Some(text) = im.as_str(text, &bat.key("text"), "text") {
                im.text(text, &bat.key("text"));
            }
        } else if let Some(json) = object.get("json") {
            if json_only {
                im.json(json, &bat.key("json"));
            } else {
                im.text(&arguments_text(json), &bat.key("json"));
                im.dropped(bat.key("json"), "a JSON result block beside text blocks (kept as its JSON text)");
            }
        } else if let Some((kind, inner)) =
            object.iter().find(|(k, _)| matches!(k.as_str(), "image" | "video" | "document"))
        {
            media(im, kind, inner, &bat);
        } else {
            let found = object.keys().next().map_or("", String::as_str);
            im.unknown_type(bat.key(found), found, &["text", "json", "image", "video", "document"]);
            continue;
        }
        im.other_keys(object, &bat, &["text", "json", "image", "video", "document"]);
    }
}

fn inference(im: &mut Import, value: &Value, at: &Path) {
    let Some(config) = im.object(value, at, "inferenceConfig") else { return };
    for (key, value) in config {
        let option = match key.as_str() {
            "maxTokens" => "max_tokens",
            "temperature" => "temperature",
            "topP" => "top_p",
            "stopSequences" => "stop_sequences",
            _ => {
                im.request_key(key, value, at);
                continue;
            }
        };
        im.option(option, value.clone(), &at.key(key));
    }
}

fn tool_config(im: &mut Import, value: &Value, at: &Path) {
    let Some(config) = im.object(value, at, "toolConfig") else { return };
    im.request_keys(config, at, &["tools", "toolChoice"]);
    if let Some(tools) = config.get("tools") {
        let tat = at.key("tools");
        let Some(tools) = im.as_array(tools, &tat, "tools") else { return };
        im.tool_specs(tools, &tat, |im, object, at| {
            if let Some(point) = object.get("cachePoint") {
                cache_point(im, point, &at.key("cachePoint"), true);
                return None;
            }
            // Another member of the union (`systemTool`): carried as it is.
            if !object.contains_key("toolSpec") {
                return Some(ToolRead::Provider);
            }
            let spec = im.field(object, at, "toolSpec", "a tool")?;
            let sat = at.key("toolSpec");
            let spec = im.object(spec, &sat, "toolSpec")?;
            // The tool's own fields, inside `toolSpec` (`strict`) and beside it.
            let mut fields = own_fields(object, &["toolSpec"]);
            let inner = own_fields(spec, &["name", "description", "inputSchema"]);
            if !inner.is_empty() {
                fields.insert("toolSpec".into(), Value::Object(inner));
            }
            let name = im.string(spec, &sat, "name", "a toolSpec")?;
            let (description, schema) = (spec.get("description"), spec.get("inputSchema").and_then(|s| s.get("json")));
            Some(ToolRead::Spec(SpecFields { name, description, schema, at: sat, fields }))
        });
    }
    if let Some(choice) = config.get("toolChoice") {
        let cat = at.key("toolChoice");
        let Some(object) = im.object(choice, &cat, "toolChoice") else { return };
        let choice = match object.iter().next().map(|(k, v)| (k.as_str(), v)) {
            Some((mode @ ("auto" | "any"), _)) => json!(mode),
            Some(("tool", tool)) => json!({"name": tool.get("name").cloned().unwrap_or(Value::Null)}),
            _ => Value::Null,
        };
        im.option("tool_choice", choice, &cat);
    }
}

fn output_config(im: &mut Import, value: &Value, at: &Path) {
    let schema = value.pointer("/textFormat/structure/jsonSchema");
    let Some(Value::Object(definition)) = schema else {
        im.request_key("outputConfig", value, &Path::root());
        return;
    };
    let dat = at.key("textFormat").key("structure").key("jsonSchema");
    let mut format = Map::new();
    if let Some(text) = im.string(definition, &dat, "schema", "a JSON schema definition") {
        format.insert("schema".into(), crate::options::parse(text));
    }
    for key in ["name", "description"] {
        if let Some(v) = definition.get(key).filter(|v| !v.is_null()) {
            format.insert(key.into(), v.clone());
        }
    }
    im.option("response_format", Value::Object(format), &dat);
}

/// `additionalModelRequestFields`: Claude's `thinking` budget is the reasoning option; the
/// model's other fields are carried.
fn additional(im: &mut Import, value: &Value, at: &Path) {
    let Some(fields) = im.object(value, at, "additionalModelRequestFields") else { return };
    for (key, value) in fields {
        let budget =
            value.get("budget_tokens").filter(|_| value.get("type").and_then(Value::as_str) == Some("enabled"));
        match (key.as_str(), value.as_object()) {
            ("thinking", Some(thinking)) if budget.is_some() && thinking.len() == 2 => {
                let budget = budget.cloned().unwrap_or_default();
                im.option("reasoning", serde_json::json!({"budget_tokens": budget}), &at.key(key).key("budget_tokens"));
            }
            _ => im.request_key(key, value, at),
        }
    }
}
