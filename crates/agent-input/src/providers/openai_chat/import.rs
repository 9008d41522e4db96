//! A Chat Completions request body read into the standard input
//! (<https://platform.openai.com/docs/api-reference/chat/create>): `system` and `developer`
//! messages become system messages in place, `user` parts text, images (`image_url`) and files
//! (`file`, by `data:` URL or URL), `assistant` text and `tool_calls`, `tool` messages results;
//! `reasoning_effort` is the reasoning option. The other keys of a message (an assistant's
//! `reasoning`, `reasoning_signature`), a part (`cache_control`, `prompt_cache_breakpoint`, an
//! image's `detail`) or a tool call are its provider fields.

use serde_json::{Map, Value, json};

use crate::options::Effort;
use crate::path::Path;
use crate::providers::common::import::{
    CallFields, Import, SpecFields, ToolRead, carries_nothing, from_data_url, from_extension, from_mime, own_fields,
};
use crate::providers::id::ProviderId;

const PARTS: &[&str] = &["text", "image_url", "file", "input_audio", "refusal"];

/// Reads a Chat Completions body.
pub(crate) fn read(body: &Value) -> Import {
    let mut im = Import::new(ProviderId::OpenAiChat);
    let root = Path::root();
    let Some(object) = im.object(body, &root, "the request body") else { return im };
    for (key, value) in object {
        let at = root.key(key);
        match key.as_str() {
            "messages" => {}
            "max_completion_tokens" | "max_tokens" => im.option("max_tokens", value.clone(), &at),
            "temperature" | "top_p" => im.option(key, value.clone(), &at),
            "stop" => im.option("stop_sequences", value.clone(), &at),
            "tools" => tools(&mut im, value, &at),
            "tool_choice" => tool_choice(&mut im, value, &at),
            "response_format" => response_format(&mut im, value, &at),
            // Every effort OpenAI takes is one of the option's.
            "reasoning_effort" => {
                match value.as_str().filter(|e| Effort::ALL.iter().any(|known| known.as_str() == *e)) {
                    Some(effort) => im.option("reasoning", json!({"effort": effort}), &at),
                    _ => im.request_key(key, value, &root),
                }
            }
            _ => im.request_key(key, value, &root),
        }
    }
    im.each_turn(object, "messages", "a Chat Completions request", message);
    im
}

fn message(im: &mut Import, message: &Value, at: &Path) {
    let Some(object) = im.object(message, at, "a message") else { return };
    let Some(role) = im.string(object, at, "role", "a message") else { return };
    if object.get("name").is_some_and(|n| !n.is_null()) {
        im.unsupported(
            at.key("name"),
            "a named participant",
            "the standard input has one user; write the name into the text",
        );
    }
    match role {
        "system" | "developer" => {
            im.open("system", at);
            content(im, object, at, false);
            im.message_keys(object, at, &["role", "content", "name"]);
        }
        "user" => {
            im.open("user", at);
            content(im, object, at, true);
            im.message_keys(object, at, &["role", "content", "name"]);
        }
        "assistant" => {
            im.open("assistant", at);
            content(im, object, at, false);
            if object.get("refusal").and_then(Value::as_str).is_some_and(|r| !r.is_empty()) {
                im.unsupported(at.key("refusal"), "an assistant's refusal", "write it as the assistant's text");
            }
            if let Some(calls) = object.get("tool_calls").filter(|c| !c.is_null()) {
                tool_calls(im, calls, &at.key("tool_calls"));
            }
            if object.get("function_call").is_some_and(|c| !c.is_null()) {
                im.unsupported(at.key("function_call"), "a legacy function_call", "write it as tool_calls");
            }
            if object.get("audio").is_some_and(|c| !c.is_null()) {
                im.unsupported(at.key("audio"), "an assistant's audio answer", "write its transcript as text");
            }
            let known = ["role", "content", "name", "refusal", "tool_calls", "function_call", "audio"];
            // A message with nothing in it (an answer cut short, nothing but reasoning) is Chat
            // Completions' own item, carried whole: a standard message needs content or calls.
            if im
                .messages
                .last()
                .is_some_and(|m| m["content"].as_array().is_some_and(Vec::is_empty) && m.get("toolCalls").is_none())
            {
                im.provider_item("assistant", message, at);
            } else {
                im.message_keys(object, at, &known);
            }
        }
        "tool" => {
            im.open("tool", at);
            if let Some(id) = im.string(object, at, "tool_call_id", "a tool message") {
                im.answers(id, &at.key("tool_call_id"));
            }
            content(im, object, at, false);
            im.message_keys(object, at, &["role", "content", "tool_call_id", "name"]);
        }
        "function" => im.unsupported(at.key("role"), "a legacy function message", "write it as a tool message"),
        _ => im.unsupported(at.key("role"), "this role", "use system, developer, user, assistant or tool"),
    }
}

/// A message's `content`: a string, `null`, or parts (`media`: whether images and files may
/// appear, as in user messages).
fn content(im: &mut Import, object: &Map<String, Value>, at: &Path, media: bool) {
    let at = at.key("content");
    match object.get("content") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => im.plain_text(text, &at),
        Some(Value::Array(parts)) => {
            for (j, part) in parts.iter().enumerate() {
                self::part(im, part, &at.index(j), media);
            }
        }
        Some(other) => im.wrong_type(at, "content", "a string or an array of parts", other),
    }
}

fn part(im: &mut Import, part: &Value, at: &Path, media: bool) {
    let Some(object) = im.object(part, at, "a content part") else { return };
    let Some(kind) = im.string(object, at, "type", "a content part") else { return };
    let before = im.tally();
    let known: &[&str] = match kind {
        "text" => {
            if let Some(text) = im.string(object, at, "text", "a text part") {
                im.text(text, &at.key("text"));
            }
            &["type", "text"]
        }
        "refusal" => {
            im.unsupported(at.clone(), "an assistant's refusal", "write it as the assistant's text");
            &["type", "refusal"]
        }
        "image_url" if media => {
            image_url(im, object, at);
            &["type", "image_url"]
        }
        "file" if media => {
            file(im, object, at);
            &["type", "file"]
        }
        "input_audio" => {
            im.unsupported(at.clone(), "audio", "send a transcript as text");
            &["type", "input_audio"]
        }
        "image_url" | "file" => {
            im.unsupported(at.clone(), "media outside a user message", "move it into a user message");
            &["type", "image_url", "file"]
        }
        other => {
            im.unknown_type(at.key("type"), other, PARTS);
            return;
        }
    };
    im.block_keys(before, object, at, known);
}

/// An `image_url` part; the keys of `image_url` beside `url` (`detail`) are the block's provider
/// field `image_url`, which joins the `image_url` the writer writes.
fn image_url(im: &mut Import, object: &Map<String, Value>, at: &Path) {
    let Some(image) = im.field(object, at, "image_url", "an image_url part") else { return };
    let at_image = at.key("image_url");
    let Some(image) = im.object(image, &at_image, "image_url") else { return };
    let Some(url) = im.string(image, &at_image, "url", "image_url") else { return };
    let before = im.tally();
    media_url(im, url, None, at, &at_image.key("url"));
    let mut rest = image.clone();
    rest.remove("url");
    rest.retain(|_, value| !carries_nothing(value));
    if !rest.is_empty() {
        let rest = Map::from_iter([("image_url".to_owned(), Value::Object(rest))]);
        im.block_keys(before, &rest, at, &[]);
    }
}

fn file(im: &mut Import, object: &Map<String, Value>, at: &Path) {
    let Some(file) = im.field(object, at, "file", "a file part") else { return };
    let at_file = at.key("file");
    let Some(file) = im.object(file, &at_file, "file") else { return };
    im.other_keys(file, &at_file, &["file_data", "filename", "file_id"]);
    let name = im.optional_string(file, &at_file, "filename");
    if let Some(data) = im.optional_string(file, &at_file, "file_data") {
        media_url(im, data, name, at, &at_file.key("file_data"));
    } else if file.get("file_id").is_some_and(|id| !id.is_null()) {
        im.unsupported(at_file.key("file_id"), "a file known only by its id", "send its bytes as file_data");
    } else {
        im.missing(at_file.key("file_data"), "file_data", "a file part");
    }
}

/// A `data:` URL or a web URL, its format from its MIME type or from the file name's (or the
/// URL's) extension.
pub(crate) fn media_url(im: &mut Import, url: &str, name: Option<&str>, at: &Path, url_at: &Path) {
    if let Some((mime, data)) = from_data_url(url) {
        match from_mime(mime).or_else(|| name.and_then(from_extension)) {
            Some(media) => im.media(&media, data, true, name, at, url_at),
            None => {
                im.unsupported(url_at.clone(), &format!("media of type '{mime}'"), "send an image, video or document");
            }
        }
        return;
    }
    match from_extension(url).or_else(|| name.and_then(from_extension)) {
        Some(media) => im.media(&media, url, false, name, at, url_at),
        None => im.unsupported(
            url_at.clone(),
            "a file whose name says no image, video or document format",
            "use a URL ending with the file's extension, or send the bytes as a data: URL",
        ),
    }
}

fn tool_calls(im: &mut Import, calls: &Value, at: &Path) {
    let Some(calls) = im.as_array(calls, at, "tool_calls") else { return };
    for (k, call) in calls.iter().enumerate() {
        let at = at.index(k);
        let Some(object) = im.object(call, &at, "a tool call") else { continue };
        let before = im.tally();
        if object.get("type").and_then(Value::as_str).is_some_and(|t| t != "function") {
            im.unsupported(at.key("type"), "a tool call that is not a function call", "call a function tool");
            continue;
        }
        let id = im.string(object, &at, "id", "a tool call");
        let Some(function) = im.field(object, &at, "function", "a tool call") else { continue };
        let fat = at.key("function");
        let Some(function) = im.object(function, &fat, "function") else { continue };
        im.other_keys(function, &fat, &["name", "arguments"]);
        let name = im.string(function, &fat, "name", "a function call");
        let arguments = im.string(function, &fat, "arguments", "a function call");
        if let (Some(id), Some(name), Some(arguments)) = (id, name, arguments) {
            let fields = CallFields { id: at.key("id"), name: fat.key("name"), arguments: fat.key("arguments") };
            im.call(id, name, arguments, &at, &fields);
        }
        im.call_keys(before, object, &at, &["id", "type", "function"]);
    }
}

/// `tools`: function tools into tool specs.
fn tools(im: &mut Import, value: &Value, at: &Path) {
    let Some(tools) = im.as_array(value, at, "tools") else { return };
    im.tool_specs(tools, at, |im, object, at| {
        // A custom tool: carried as it is.
        if object.get("type").and_then(Value::as_str).is_some_and(|t| t != "function") {
            return Some(ToolRead::Provider);
        }
        let function = im.field(object, at, "function", "a function tool")?;
        let fat = at.key("function");
        let function = im.object(function, &fat, "function")?;
        // The tool's own fields, beside `function` and inside it (`strict`).
        let mut fields = own_fields(object, &["type", "function"]);
        let inner = own_fields(function, &["name", "description", "parameters"]);
        if !inner.is_empty() {
            fields.insert("function".into(), Value::Object(inner));
        }
        let name = im.string(function, &fat, "name", "a function tool")?;
        let (description, schema) = (function.get("description"), function.get("parameters"));
        Some(ToolRead::Spec(SpecFields { name, description, schema, at: at.clone(), fields }))
    });
}

fn tool_choice(im: &mut Import, value: &Value, at: &Path) {
    let choice = match value {
        Value::String(mode) if mode == "required" => json!("any"),
        Value::Object(object) => match object.get("function").and_then(|f| f.get("name")) {
            Some(name) => json!({"name": name}),
            None => value.clone(),
        },
        _ => value.clone(),
    };
    im.option("tool_choice", choice, at);
}

fn response_format(im: &mut Import, value: &Value, at: &Path) {
    let Some(object) = im.object(value, at, "response_format") else { return };
    match object.get("type").and_then(Value::as_str) {
        Some("json_schema") => {
            im.request_keys(object, at, &["type", "json_schema"]);
            let Some(schema) = im.field(object, at, "json_schema", "a json_schema response format") else { return };
            let sat = at.key("json_schema");
            let Some(schema) = im.object(schema, &sat, "json_schema") else { return };
            im.request_keys(schema, &sat, &["name", "schema", "description", "strict"]);
            let mut format = Map::new();
            for (from, to) in
                [("schema", "schema"), ("name", "name"), ("description", "description"), ("strict", "strict")]
            {
                if let Some(v) = schema.get(from).filter(|v| !v.is_null()) {
                    format.insert(to.to_string(), v.clone());
                }
            }
            im.option("response_format", Value::Object(format), &sat);
            if let Some(schema) = schema.get("schema") {
                let standard = Path::root().key("options").key("response_format").key("schema");
                im.origins_within(&standard, &sat.key("schema"), schema);
            }
        }
        // Plain text (the default: no format) and the other formats are Chat Completions' own.
        _ => im.carry(value, at),
    }
}
