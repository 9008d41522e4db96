//! A Responses request body read into the standard input
//! (<https://platform.openai.com/docs/api-reference/responses/create>): `instructions` becomes a
//! leading system message; `input` text or items: messages of `input_text`, `input_image` and
//! `input_file` parts (assistant `output_text`), each `function_call` a tool call of the assistant
//! message before it and each `function_call_output` a tool message; `reasoning` items and the
//! ids of the assistant's items after them are its reasoning state, `reasoning.effort` the
//! reasoning option. An item's or part's other fields are its message's or element's provider
//! fields.

use serde_json::{Map, Value, json};

use crate::options::Effort;
use crate::path::Path;
use crate::providers::common::import::{CallFields, Import, Next, SpecFields, ToolRead, extra, own_fields};
use crate::providers::id::ProviderId;
use crate::providers::openai_chat::import::media_url;

const PARTS: &[&str] = &["input_text", "input_image", "input_file", "output_text", "refusal"];

/// Reads a Responses body.
pub(crate) fn read(body: &Value) -> Import {
    let mut im = Import::new(ProviderId::OpenAiResponses);
    let root = Path::root();
    let Some(object) = im.object(body, &root, "the request body") else { return im };
    if let Some(instructions) = object.get("instructions").filter(|i| !i.is_null()) {
        let at = root.key("instructions");
        if let Some(text) = im.as_str(instructions, &at, "instructions") {
            im.open("system", &at);
            im.text(text, &at);
        }
    }
    for (key, value) in object {
        let at = root.key(key);
        match key.as_str() {
            "input" | "instructions" => {}
            "max_output_tokens" => im.option("max_tokens", value.clone(), &at),
            "temperature" | "top_p" => im.option(key, value.clone(), &at),
            "tools" => tools(&mut im, value, &at),
            "tool_choice" => tool_choice(&mut im, value, &at),
            "text" => text_config(&mut im, value, &at),
            "reasoning" => reasoning(&mut im, value, &at),
            _ => im.request_key(key, value, &root),
        }
    }
    let Some(input) = im.field(object, &root, "input", "a Responses request") else { return im };
    let at = root.key("input");
    match input {
        Value::String(text) => {
            im.open("user", &at);
            im.plain_text(text, &at);
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                self::item(&mut im, item, &at.index(i));
            }
        }
        other => im.wrong_type(at, "input", "a string or an array of items", other),
    }
    im
}

fn item(im: &mut Import, item: &Value, at: &Path) {
    let Some(object) = im.object(item, at, "an input item") else { return };
    let kind = match object.get("type") {
        None | Some(Value::Null) => "message",
        Some(value) => match im.as_str(value, &at.key("type"), "type") {
            Some(kind) => kind,
            None => return,
        },
    };
    if let Some(role) = item_role(kind, object) {
        im.provider_item(role, item, at);
        return;
    }
    match kind {
        "message" => message(im, object, at),
        "function_call" => {
            let current = im.messages.last().and_then(|m| m["role"].as_str()).unwrap_or_default();
            if current != "assistant" {
                im.open("assistant", at);
            }
            // The item id pairs the call with the reasoning item before it: reasoning state.
            let id = match object.get("id") {
                Some(Value::String(id)) => {
                    im.reasoning_on(Next::Call, "id", id, &at.key("id"));
                    true
                }
                _ => false,
            };
            let read: &[&str] = if id {
                &["type", "call_id", "name", "arguments", "id"]
            } else {
                &["type", "call_id", "name", "arguments"]
            };
            let id = im.string(object, at, "call_id", "a function_call item");
            let name = im.string(object, at, "name", "a function_call item");
            let arguments = im.string(object, at, "arguments", "a function_call item");
            if let (Some(id), Some(name), Some(arguments)) = (id, name, arguments) {
                let fields = CallFields { id: at.key("call_id"), name: at.key("name"), arguments: at.key("arguments") };
                im.call(id, name, arguments, at, &fields);
                // The item's other fields (its status, its namespace) are the call's own.
                for (key, value) in extra(object, read) {
                    im.call_field(key, value, at);
                }
            } else {
                im.other_keys(object, at, read);
            }
        }
        "function_call_output" => {
            im.open("tool", at);
            // The item's other fields (its id and status as an output item, its caller) are the
            // tool message's own.
            for (key, value) in extra(object, &["type", "call_id", "output"]) {
                im.message_field(key, value, at);
            }
            if let Some(id) = im.string(object, at, "call_id", "a function_call_output item") {
                im.answers(id, &at.key("call_id"));
            }
            match object.get("output") {
                Some(Value::String(text)) => im.text(text, &at.key("output")),
                Some(Value::Array(parts)) => {
                    for (j, part) in parts.iter().enumerate() {
                        self::part(im, part, &at.key("output").index(j));
                    }
                }
                Some(other) if !other.is_null() => {
                    im.wrong_type(at.key("output"), "output", "a string or an array of parts", other);
                }
                _ => im.missing(at.key("output"), "output", "a function_call_output item"),
            }
        }
        // The item as given (its summary, its encrypted_content) is reasoning state.
        "reasoning" => im.reasoning_block(Value::Object(object.clone()), at),
        "item_reference" => im.unsupported(at.clone(), "a reference to a stored item", "send the item itself"),
        // Every other type is a provider item, read above.
        _ => {}
    }
}

/// The standard role of an item without a standard form, carried as a provider item (contract
/// §3.2): what the client gives (a tool's output, tools added mid-conversation, an approval)
/// goes with the user's turn, anything else (what the model or the platform did, an item of a
/// type added after this was written) with the assistant's; `None` for the items the standard
/// form holds. Responses itself judges an item's type when it is sent back.
fn item_role(kind: &str, object: &Map<String, Value>) -> Option<&'static str> {
    // A function called by a program the model wrote (programmatic tool calling) belongs to
    // that program: it goes back with it, not as the model's own call.
    let by_program = object.get("caller").is_some_and(|caller| caller.get("type") != Some(&json!("direct")));
    match kind {
        "function_call" if by_program => Some("assistant"),
        "function_call_output" if by_program => Some("user"),
        "message" | "function_call" | "function_call_output" | "reasoning" | "item_reference" => None,
        "additional_tools" | "mcp_approval_response" => Some("user"),
        _ if kind.ends_with("_output") => Some("user"),
        _ => Some("assistant"),
    }
}

/// How many blocks the standard messages hold so far (messages, and the last one's blocks): a
/// part that changes it was read into a block of its own.
fn blocks(im: &Import) -> (usize, usize) {
    let last = im.messages.last().and_then(|m| m.get("content")).and_then(Value::as_array).map_or(0, Vec::len);
    (im.messages.len(), last)
}

fn message(im: &mut Import, object: &Map<String, Value>, at: &Path) {
    let Some(role) = im.string(object, at, "role", "a message item") else { return };
    let role = match role {
        "system" | "developer" => "system",
        "user" | "assistant" => role,
        _ => {
            im.unsupported(at.key("role"), "this role", "use system, developer, user or assistant");
            return;
        }
    };
    // An assistant message's item id pairs it with the reasoning item before it: reasoning state,
    // and its status `completed` goes with that id.
    let id = object.get("id").and_then(Value::as_str).filter(|_| role == "assistant");
    let mut read = vec!["type", "role", "content"];
    if id.is_some() {
        read.push("id");
        if object.get("status").is_some_and(|s| s == "completed") {
            read.push("status");
        }
    }
    im.open_after_reasoning(role, at);
    let cat = at.key("content");
    let texts = match object.get("content") {
        Some(Value::String(text)) => vec![text.as_str()],
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect(),
        _ => Vec::new(),
    };
    if id.is_some() && texts.iter().all(|t| t.is_empty()) {
        // A message without text still follows its reasoning item: it goes back as given.
        im.reasoning_block(Value::Object(object.clone()), at);
        return;
    }
    // The item's other fields (its status, its phase, an id of a message of the user's): the
    // message's own, or in an assistant turn, which may hold several message items, those of the
    // first block read from the item.
    let mut fields = extra(object, &read);
    if role != "assistant" {
        for (key, value) in fields.drain(..) {
            im.message_field(key, value, at);
        }
    }
    let mut item_fields = |im: &mut Import, before: (usize, usize)| {
        if blocks(im) != before {
            for (key, value) in fields.drain(..) {
                im.block_field(key, value, at);
            }
        }
    };
    match object.get("content") {
        Some(Value::String(text)) => {
            if let Some(id) = id {
                im.reasoning_on(Next::Content, "id", id, &at.key("id"));
            }
            let before = blocks(im);
            im.plain_text(text, &cat);
            item_fields(im, before);
        }
        Some(Value::Array(parts)) => {
            for (j, part) in parts.iter().enumerate() {
                let text = part.get("text").and_then(Value::as_str).filter(|t| !t.is_empty());
                if let Some(id) = id.filter(|_| text.is_some()) {
                    im.reasoning_on(Next::Content, "id", id, &at.key("id"));
                }
                let before = blocks(im);
                self::part(im, part, &cat.index(j));
                item_fields(im, before);
            }
        }
        Some(other) if !other.is_null() => im.wrong_type(cat, "content", "a string or an array of parts", other),
        _ => im.missing(cat, "content", "a message item"),
    }
    // An assistant message item with no block of its own: its fields have nowhere to go.
    for (key, value) in fields {
        im.other_key(key, value, at);
    }
}

fn part(im: &mut Import, part: &Value, at: &Path) {
    let Some(object) = im.object(part, at, "a content part") else { return };
    let before = blocks(im);
    let Some(kind) = im.string(object, at, "type", "a content part") else { return };
    let known: &[&str] = match kind {
        "input_text" | "output_text" => {
            if let Some(text) = im.string(object, at, "text", "a text part") {
                im.text(text, &at.key("text"));
            }
            // Annotations (citations) and logprobs are the block's own fields.
            &["type", "text"]
        }
        "input_image" => {
            match im.optional_string(object, at, "image_url") {
                Some(url) => media_url(im, url, None, at, &at.key("image_url")),
                None if object.get("file_id").is_some_and(|id| !id.is_null()) => {
                    im.unsupported(at.key("file_id"), "an image known only by its file id", "send it as image_url");
                }
                None => im.missing(at.key("image_url"), "image_url", "an input_image part"),
            }
            // `auto` is what the writer sends; another detail level is the block's own field.
            if object.get("detail").is_some_and(|d| d == "auto") {
                &["type", "image_url", "file_id", "detail"]
            } else {
                &["type", "image_url", "file_id"]
            }
        }
        "input_file" => {
            let name = im.optional_string(object, at, "filename");
            if let Some(data) = im.optional_string(object, at, "file_data") {
                media_url(im, data, name, at, &at.key("file_data"));
            } else if let Some(url) = im.optional_string(object, at, "file_url") {
                media_url(im, url, name, at, &at.key("file_url"));
            } else if object.get("file_id").is_some_and(|id| !id.is_null()) {
                im.unsupported(at.key("file_id"), "a file known only by its id", "send its bytes as file_data");
            } else {
                im.missing(at.key("file_data"), "file_data", "an input_file part");
            }
            &["type", "file_data", "file_url", "file_id", "filename"]
        }
        "refusal" => {
            im.unsupported(at.clone(), "an assistant's refusal", "write it as the assistant's text");
            &["type", "refusal"]
        }
        "input_audio" => {
            im.unsupported(at.clone(), "audio", "send a transcript as text");
            &["type", "input_audio"]
        }
        other => {
            im.unknown_type(at.key("type"), other, PARTS);
            return;
        }
    };
    // The part's other fields (a prompt cache breakpoint, an image's detail level) are its
    // block's own; a part that gave no block keeps none.
    if blocks(im) == before {
        im.other_keys(object, at, known);
        return;
    }
    for (key, value) in extra(object, known) {
        im.block_field(key, value, at);
    }
}

fn tools(im: &mut Import, value: &Value, at: &Path) {
    let Some(tools) = im.as_array(value, at, "tools") else { return };
    im.tool_specs(tools, at, |im, object, at| {
        // A built-in, custom or MCP tool: carried as it is.
        if object.get("type").and_then(Value::as_str) != Some("function") {
            return Some(ToolRead::Provider);
        }
        // The tool's own fields (`strict: true`, `defer_loading`, `output_schema`, ...); the
        // converter writes `strict: false` itself.
        let mut known = vec!["type", "name", "description", "parameters"];
        if object.get("strict") == Some(&Value::Bool(false)) {
            known.push("strict");
        }
        let fields = own_fields(object, &known);
        let name = im.string(object, at, "name", "a function tool")?;
        let (description, schema) = (object.get("description"), object.get("parameters"));
        Some(ToolRead::Spec(SpecFields { name, description, schema, at: at.clone(), fields }))
    });
}

fn tool_choice(im: &mut Import, value: &Value, at: &Path) {
    let choice = match value {
        Value::String(mode) if mode == "required" => json!("any"),
        // A function, or a custom tool (a provider tool the writer names as `custom` again).
        Value::Object(object) if matches!(object.get("type").and_then(Value::as_str), Some("function" | "custom")) => {
            json!({"name": object.get("name").cloned().unwrap_or(Value::Null)})
        }
        Value::Object(_) => {
            im.dropped(at.clone(), "a tool choice of a built-in tool or of allowed tools");
            return;
        }
        _ => value.clone(),
    };
    im.option("tool_choice", choice, at);
}

fn text_config(im: &mut Import, value: &Value, at: &Path) {
    let Some(config) = im.object(value, at, "text") else { return };
    im.request_keys(config, at, &["format"]);
    let Some(format) = config.get("format") else { return };
    let fat = at.key("format");
    let Some(format) = im.object(format, &fat, "format") else { return };
    match format.get("type").and_then(Value::as_str) {
        Some("json_schema") => {
            im.request_keys(format, &fat, &["type", "name", "schema", "description", "strict"]);
            let mut option = Map::new();
            for key in ["schema", "name", "description", "strict"] {
                if let Some(v) = format.get(key).filter(|v| !v.is_null()) {
                    option.insert(key.into(), v.clone());
                }
            }
            im.option("response_format", Value::Object(option), &fat);
            if let Some(schema) = format.get("schema") {
                let standard = Path::root().key("options").key("response_format").key("schema");
                im.origins_within(&standard, &fat.key("schema"), schema);
            }
        }
        // Plain text (the default: no format) and the other formats are Responses' own.
        _ => im.carry(&config["format"], &fat),
    }
}

/// `reasoning`: its `effort` is the reasoning option (every effort `OpenAI` takes is one of the
/// option's); its other fields (a summary, an effort the option does not know) are carried.
fn reasoning(im: &mut Import, value: &Value, at: &Path) {
    let Some(config) = im.object(value, at, "reasoning") else { return };
    for (key, value) in config {
        match (key.as_str(), value.as_str()) {
            ("effort", Some(effort)) if Effort::ALL.iter().any(|known| known.as_str() == effort) => {
                im.option("reasoning", json!({"effort": effort}), &at.key(key));
            }
            _ => im.request_key(key, value, at),
        }
    }
}
