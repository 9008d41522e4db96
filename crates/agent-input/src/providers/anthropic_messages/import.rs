//! A Messages request body read into the standard input
//! (<https://docs.anthropic.com/en/api/messages>): `system` becomes a leading system message,
//! `user` turns text, images and documents (base64, URL or plain-text sources), `assistant` turns
//! text and `tool_use` blocks, each `tool_result` its own tool message; `cache_control` on the
//! system prompt or the tools is the prompt cache option; the other keys of a block
//! (`cache_control` in the conversation, `citations`, a `tool_use`'s `caller`, a `tool_result`'s
//! `is_error`) are its provider fields; an assistant turn's `thinking` and `redacted_thinking`
//! blocks are its reasoning state and `thinking` (with an adaptive `output_config.effort`) the
//! reasoning option.

use serde_json::{Map, Value, json};

use crate::path::Path;
use crate::providers::common::import::{
    CallFields, Import, Media, SpecFields, ToolRead, arguments_text, from_extension, from_mime, own_fields,
};
use crate::providers::id::ProviderId;

const BLOCKS: &[&str] = &["text", "image", "document", "tool_use", "tool_result", "thinking", "redacted_thinking"];

/// Reads a Messages body.
pub(crate) fn read(body: &Value) -> Import {
    let mut im = Import::new(ProviderId::AnthropicMessages);
    let root = Path::root();
    let Some(object) = im.object(body, &root, "the request body") else { return im };
    if let Some(system) = object.get("system").filter(|s| !s.is_null()) {
        self::system(&mut im, system, &root.key("system"));
    }
    for (key, value) in object {
        let at = root.key(key);
        match key.as_str() {
            "messages" | "system" => {}
            "max_tokens" | "temperature" | "top_p" | "stop_sequences" => im.option(key, value.clone(), &at),
            "tools" => tools(&mut im, value, &at),
            "tool_choice" => tool_choice(&mut im, value, &at),
            "output_config" | "output_format" => output_format(&mut im, value, &at, effort(object).is_some()),
            "thinking" => thinking(&mut im, value, object.get("output_config"), &at),
            _ => im.request_key(key, value, &root),
        }
    }
    im.each_turn(object, "messages", "a Messages request", message);
    im
}

fn system(im: &mut Import, system: &Value, at: &Path) {
    im.open("system", at);
    match system {
        Value::String(text) => im.text(text, at),
        Value::Array(blocks) => {
            for (j, block) in blocks.iter().enumerate() {
                let at = at.index(j);
                let Some(object) = im.object(block, &at, "a system block") else { continue };
                cache_control(im, object, &at);
                let before = im.tally();
                if let Some(text) = im.string(object, &at, "text", "a system block") {
                    im.text(text, &at.key("text"));
                }
                im.block_keys(before, object, &at, &["type", "text", "cache_control"]);
            }
        }
        other => im.wrong_type(at.clone(), "system", "a string or an array of text blocks", other),
    }
}

/// A `cache_control` on a block of the system prompt or on a tool, where the prompt cache option
/// places cache points: that option, with its lifetime. (One inside the conversation is a provider
/// field of its block.)
fn cache_control(im: &mut Import, object: &Map<String, Value>, at: &Path) {
    let Some(control) = object.get("cache_control").filter(|c| !c.is_null()) else { return };
    let at = at.key("cache_control");
    let ttl = control.get("ttl").cloned().unwrap_or(Value::Null);
    im.option("prompt_cache", if ttl.is_null() { json!(true) } else { json!({"ttl": ttl}) }, &at);
}

fn message(im: &mut Import, message: &Value, at: &Path) {
    let Some(object) = im.object(message, at, "a message") else { return };
    im.other_keys(object, at, &["role", "content"]);
    let Some(role) = im.string(object, at, "role", "a message") else { return };
    let role = match role {
        "user" | "assistant" | "system" => role,
        _ => {
            im.unsupported(at.key("role"), "this role", "use user or assistant, and the top-level system");
            return;
        }
    };
    im.begin(at);
    let cat = at.key("content");
    match object.get("content") {
        None | Some(Value::Null) => im.missing(cat, "content", "a message"),
        Some(Value::String(text)) => {
            im.continue_as(role, at);
            im.plain_text(text, &cat);
        }
        Some(Value::Array(blocks)) => {
            for (j, block) in blocks.iter().enumerate() {
                self::block(im, role, block, &cat.index(j));
            }
        }
        Some(other) => im.wrong_type(cat, "content", "a string or an array of blocks", other),
    }
    im.end(role);
}

/// A block of a tool Anthropic runs itself (web search and fetch, code execution, tool search,
/// MCP connectors, container files): a provider item of the message (contract §3.2).
fn is_server_block(kind: &str) -> bool {
    matches!(kind, "server_tool_use" | "mcp_tool_use" | "mcp_tool_result" | "container_upload")
        || kind.ends_with("_tool_result")
}

fn block(im: &mut Import, role: &str, block: &Value, at: &Path) {
    let Some(object) = im.object(block, at, "a content block") else { return };
    let Some(kind) = im.string(object, at, "type", "a content block") else { return };
    // A server tool's call or result goes back to Anthropic as given, its cache point with it.
    if is_server_block(kind) {
        im.provider_item(role, block, at);
        return;
    }
    // The block's other keys are its provider fields (those of the tool message for a result).
    let before = im.tally();
    let known: &[&str] = match kind {
        "text" => {
            im.continue_as(role, at);
            if let Some(text) = im.string(object, at, "text", "a text block") {
                im.text(text, &at.key("text"));
            }
            &["type", "text"]
        }
        "image" | "document" => {
            im.continue_as(role, at);
            media(im, kind, object, at);
            &["type", "source", "title"]
        }
        "tool_use" => {
            im.continue_as("assistant", at);
            let id = im.string(object, at, "id", "a tool_use block");
            let name = im.string(object, at, "name", "a tool_use block");
            let input = im.field(object, at, "input", "a tool_use block");
            if let (Some(id), Some(name), Some(input)) = (id, name, input) {
                let fields = CallFields { id: at.key("id"), name: at.key("name"), arguments: at.key("input") };
                im.call(id, name, &arguments_text(input), at, &fields);
            }
            im.call_keys(before, object, at, &["type", "id", "name", "input"]);
            return;
        }
        "tool_result" => {
            tool_result(im, object, at);
            return;
        }
        // Anthropic takes both back unmodified: the message's reasoning state, as given.
        "thinking" | "redacted_thinking" if role == "assistant" => {
            im.reasoning_block(Value::Object(object.clone()), at);
            return;
        }
        "thinking" | "redacted_thinking" => {
            im.reasoning(at.clone());
            return;
        }
        "search_result" | "audio" => {
            im.unsupported(at.clone(), &format!("a {kind} block"), "send its content as text");
            return;
        }
        other => {
            im.unknown_type(at.key("type"), other, BLOCKS);
            return;
        }
    };
    im.block_keys(before, object, at, known);
}

/// An `image` or `document` block's source.
fn media(im: &mut Import, kind: &str, object: &Map<String, Value>, at: &Path) {
    let name = if kind == "document" { im.optional_string(object, at, "title") } else { None };
    let Some(source) = im.field(object, at, "source", &format!("an {kind} block")) else { return };
    let sat = at.key("source");
    let Some(source) = im.object(source, &sat, "source") else { return };
    let Some(source_type) = im.string(source, &sat, "type", "a source") else { return };
    match source_type {
        "base64" => {
            im.other_keys(source, &sat, &["type", "media_type", "data"]);
            let mime = im.string(source, &sat, "media_type", "a base64 source");
            let data = im.string(source, &sat, "data", "a base64 source");
            let (Some(mime), Some(data)) = (mime, data) else { return };
            match from_mime(mime) {
                Some(media) => im.media(&media, data, true, name, at, &sat.key("data")),
                None => im.unsupported(
                    sat.key("media_type"),
                    &format!("media of type '{mime}'"),
                    "send an image or a document",
                ),
            }
        }
        "url" => {
            im.other_keys(source, &sat, &["type", "url"]);
            let Some(url) = im.string(source, &sat, "url", "a URL source") else { return };
            // A URL document is a PDF (the API's `URLPDFSource`).
            let fallback = (kind == "document").then_some(Media { kind: "document", format: "pdf" });
            match from_extension(url).filter(|m| m.kind == kind).or(fallback) {
                Some(media) => im.media(&media, url, false, name, at, &sat.key("url")),
                None => im.unsupported(
                    sat.key("url"),
                    "an image URL whose format its name does not say",
                    "use a URL ending with the file's extension, or a base64 source",
                ),
            }
        }
        "text" => {
            im.other_keys(source, &sat, &["type", "media_type", "data"]);
            let Some(data) = im.string(source, &sat, "data", "a text source") else { return };
            let data = crate::base64::encode(data.as_bytes());
            im.media(&Media { kind: "document", format: "txt" }, &data, true, name, at, &sat.key("data"));
        }
        "file" => im.unsupported(sat.clone(), "a file known only by its id", "send its bytes in a base64 source"),
        _ => im.unsupported(sat.key("type"), "a content source", "use a base64, url or text source"),
    }
}

/// A `tool_result` block: a tool message, the block's other keys (`is_error`, `cache_control`)
/// the message's provider fields.
fn tool_result(im: &mut Import, object: &Map<String, Value>, at: &Path) {
    im.continue_as("tool", at);
    im.message_keys(object, at, &["type", "tool_use_id", "content"]);
    if let Some(id) = im.string(object, at, "tool_use_id", "a tool_result block") {
        im.answers(id, &at.key("tool_use_id"));
    }
    let cat = at.key("content");
    match object.get("content") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) => im.text(text, &cat),
        Some(Value::Array(blocks)) => {
            for (k, block) in blocks.iter().enumerate() {
                let bat = cat.index(k);
                let Some(inner) = im.object(block, &bat, "a tool result block") else { continue };
                let before = im.tally();
                match inner.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(text) = im.string(inner, &bat, "text", "a text block") {
                            im.text(text, &bat.key("text"));
                        }
                        im.block_keys(before, inner, &bat, &["type", "text"]);
                    }
                    Some(kind @ ("image" | "document")) => {
                        media(im, kind, inner, &bat);
                        im.block_keys(before, inner, &bat, &["type", "source", "title"]);
                    }
                    Some(other) => im.unknown_type(bat.key("type"), other, &["text", "image", "document"]),
                    None => im.missing(bat.key("type"), "type", "a tool result block"),
                }
            }
        }
        Some(other) => im.wrong_type(cat, "content", "a string or an array of blocks", other),
    }
}

fn tools(im: &mut Import, value: &Value, at: &Path) {
    let Some(tools) = im.as_array(value, at, "tools") else { return };
    im.tool_specs(tools, at, |im, object, at| {
        // A server tool, or a client tool Anthropic defines (`bash_20250124`): carried as it is.
        if object.get("type").and_then(Value::as_str).is_some_and(|t| t != "custom") {
            return Some(ToolRead::Provider);
        }
        cache_control(im, object, at);
        // The tool's own fields (`type: "custom"`, `defer_loading`, `allowed_callers`, ...).
        let fields = own_fields(object, &["name", "description", "input_schema", "cache_control"]);
        let name = im.string(object, at, "name", "a tool")?;
        let (description, schema) = (object.get("description"), object.get("input_schema"));
        Some(ToolRead::Spec(SpecFields { name, description, schema, at: at.clone(), fields }))
    });
}

fn tool_choice(im: &mut Import, value: &Value, at: &Path) {
    let Some(object) = im.object(value, at, "tool_choice") else { return };
    // `disable_parallel_tool_use` among them.
    im.request_keys(object, at, &["type", "name"]);
    let choice = match object.get("type").and_then(Value::as_str) {
        Some("tool") => json!({"name": object.get("name").cloned().unwrap_or(Value::Null)}),
        Some(mode) => json!(mode),
        None => Value::Null,
    };
    im.option("tool_choice", choice, at);
}

/// `output_config.format` (and the older `output_format`): a JSON schema the answer follows.
/// `thinking`: a budget (`enabled`), or an effort (`adaptive`, with `output_config.effort`);
/// any other (`disabled`, the default, which no reasoning option writes) is carried.
fn thinking(im: &mut Import, value: &Value, output_config: Option<&Value>, at: &Path) {
    let Some(object) = im.object(value, at, "thinking") else { return };
    let Some(kind) = im.string(object, at, "type", "thinking") else { return };
    match kind {
        "enabled" => {
            im.request_keys(object, at, &["type", "budget_tokens"]);
            if let Some(budget) = im.field(object, at, "budget_tokens", "enabled thinking") {
                im.option("reasoning", json!({"budget_tokens": budget}), &at.key("budget_tokens"));
            }
        }
        "adaptive" => match output_config.and_then(|c| c.get("effort")).and_then(Value::as_str) {
            Some(effort @ ("low" | "medium" | "high" | "max")) => {
                im.request_keys(object, at, &["type"]);
                im.option("reasoning", json!({"effort": effort}), &Path::root().key("output_config").key("effort"));
            }
            _ => im.carry(value, at),
        },
        _ => im.carry(value, at),
    }
}

/// The effort of adaptive thinking (`output_config.effort`), when the options can carry it.
fn effort(body: &Map<String, Value>) -> Option<&str> {
    let adaptive = body.get("thinking").and_then(|t| t.get("type")).and_then(Value::as_str) == Some("adaptive");
    let effort = body.get("output_config").and_then(|c| c.get("effort")).and_then(Value::as_str);
    effort.filter(|e| adaptive && matches!(*e, "low" | "medium" | "high" | "max"))
}

/// `output_config` (its `format`; its `effort` when `thinking` read it) or `output_format`.
fn output_format(im: &mut Import, value: &Value, at: &Path, effort_read: bool) {
    let Some(object) = im.object(value, at, "the output settings") else { return };
    let known: &[&str] =
        if effort_read { &["format", "type", "schema", "effort"] } else { &["format", "type", "schema"] };

    let (format, fat) = match object.get("format") {
        Some(format) => (format, at.key("format")),
        None if object.contains_key("schema") => (value, at.clone()),
        None => {
            im.request_keys(object, at, known);
            return;
        }
    };
    im.request_keys(object, at, known);
    let Some(format) = im.object(format, &fat, "format") else { return };
    if fat != *at {
        im.request_keys(format, &fat, &["type", "schema"]);
    }
    if let Some(schema) = im.field(format, &fat, "schema", "a JSON schema output format") {
        im.option("response_format", json!({"schema": schema}), &fat);
    }
}
