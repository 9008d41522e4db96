//! AG-UI `RunAgentInput` ⇄ the standard input.
//!
//! [AG-UI](model) is the protocol agent front-ends speak. ml-commons takes a `RunAgentInput` body
//! at the execute API when it has all seven of its keys; this module reads such a body into the
//! standard input ([`from_agui`]) and writes standard messages back as AG-UI messages
//! ([`to_agui`], for a `MESSAGES_SNAPSHOT`).
//!
//! Reading builds the standard input the body stands for and runs the standard validator on it,
//! so an AG-UI body gets every check a standard one does; each problem's path is mapped back into
//! the AG-UI body (`/messages/2/content/1/source/value`, not `/input/...`).
//!
//! ```
//! use agent_input::agui;
//!
//! let body = serde_json::json!({
//!     "threadId": "t1", "runId": "r1", "state": {}, "tools": [], "context": [], "forwardedProps": {},
//!     "messages": [{"id": "m1", "role": "user", "content": [
//!         {"type": "text", "text": "What is this?"},
//!         {"type": "image", "source": {"type": "data", "value": "iVBORw0KGgo=", "mimeType": "image/png"}}]}]
//! });
//! assert!(agui::is_run_agent_input(&body));
//! let run = agui::from_agui(&body, &Default::default()).unwrap();
//! assert_eq!(run.thread_id, "t1");
//! assert_eq!(run.input.unwrap().question(), "What is this?\n");
//!
//! let bad = serde_json::json!({
//!     "threadId": "t1", "runId": "r1", "state": {}, "tools": [], "context": [], "forwardedProps": {},
//!     "messages": [{"id": "m1", "role": "user", "content": [
//!         {"type": "image", "source": {"type": "data", "value": "not base64!", "mimeType": "image/png"}}]}]
//! });
//! let report = agui::from_agui(&bad, &Default::default()).unwrap_err();
//! assert_eq!(report.errors[0].code.as_str(), "invalid_base64");
//! assert_eq!(report.errors[0].path.to_string(), "/messages/0/content/0/source/value");
//! ```

use serde_json::{Map, Value, json};

use crate::convert::ToolSpec;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::format::{DocumentFormat, ImageFormat, VideoFormat};
use crate::model::AgentInput;
use crate::path::{Path, Segment};
use crate::validate;

pub mod events;
pub mod model;
mod output;
mod request;

pub use output::to_agui;
pub use request::{memory_id, run_agent_input};

/// The keys ml-commons requires before it reads a body as AG-UI input.
pub const REQUIRED_KEYS: [&str; 7] = ["threadId", "runId", "state", "messages", "tools", "context", "forwardedProps"];

/// Whether a request body is AG-UI input, decided exactly as ml-commons does: an object with all
/// of [`REQUIRED_KEYS`], `messages`, `tools` and `context` arrays. Other keys
/// (`protocolVersion`, `parentRunId`, `resume`) do not matter.
pub fn is_run_agent_input(body: &Value) -> bool {
    let Some(object) = body.as_object() else { return false };
    REQUIRED_KEYS.iter().all(|key| object.contains_key(*key))
        && ["messages", "tools", "context"].iter().all(|key| object.get(*key).is_some_and(Value::is_array))
}

/// An AG-UI run read into the standard input.
#[derive(Debug, Clone, PartialEq)]
pub struct AgUiRun {
    /// `threadId`: the memory id.
    pub thread_id: String,
    /// `runId`.
    pub run_id: String,
    /// The messages as the standard input; `None` when there are none (ml-commons then continues
    /// from the thread's stored history).
    pub input: Option<AgentInput<'static>>,
    /// `tools`, as tool specs.
    pub tools: Vec<ToolSpec>,
    /// `context`, as given.
    pub context: Vec<model::Context>,
    /// `state`, as given.
    pub state: Value,
    /// `forwardedProps`, as given.
    pub forwarded_props: Value,
    /// Warnings, with paths into the AG-UI body.
    pub warnings: Vec<Diagnostic>,
}

/// Reads an AG-UI `RunAgentInput` body.
///
/// # Errors
/// Every problem found, each with a path into the AG-UI body: `missing_field` /
/// `invalid_field_type` for the run's shape, `invalid_role`, `unsupported_content_type` (audio,
/// unknown parts), `unsupported_source_type` (`file` sources), `unsupported_format` (a MIME type
/// no block takes), and anything the standard validator finds in the resulting input.
pub fn from_agui(body: &Value, options: &validate::Options) -> Result<AgUiRun, Report> {
    let mut reader = Reader::default();
    let root = Path::root();
    let Some(object) = body.as_object() else {
        return Err(wrong(&root, "the AG-UI body", "object", body).into());
    };
    for key in REQUIRED_KEYS {
        if !object.contains_key(key) {
            reader.report.push(Diagnostic::new(
                Code::MissingField,
                root.key(key),
                format!("an AG-UI RunAgentInput needs `{key}`"),
            ));
        }
    }
    let thread_id = reader.string(object, &root, "threadId");
    let run_id = reader.string(object, &root, "runId");
    let messages = reader.array(object, &root, "messages");
    let tools = reader.array(object, &root, "tools");
    let context = reader.array(object, &root, "context");

    let mut standard = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        if let Some(converted) = reader.message(message, &root.key("messages").index(i)) {
            standard.push(converted);
        }
    }
    let tools =
        tools.iter().enumerate().filter_map(|(i, tool)| reader.tool(tool, &root.key("tools").index(i))).collect();
    let context = context
        .iter()
        .enumerate()
        .filter_map(|(i, entry)| {
            let path = root.key("context").index(i);
            let read = serde_json::from_value::<model::Context>(entry.clone()).ok();
            if read.is_none() {
                reader.report.push(wrong(
                    &path,
                    "a context entry",
                    "object with string `description` and `value`",
                    entry,
                ));
            }
            read
        })
        .collect();
    if !reader.report.is_ok() {
        return Err(reader.report);
    }

    let input = if standard.is_empty() {
        None
    } else {
        let (values, maps): (Vec<Value>, Vec<MessageMap>) = standard.into_iter().unzip();
        let body = json!({ "input": values });
        let document = validate::document(&body);
        let validation = validate::validate_request(&document, options);
        let remap = |d: Diagnostic| Diagnostic { path: remap(&d.path, &maps), ..d };
        match validation.into_result() {
            Ok((request, report)) => {
                reader.report.warnings.extend(report.warnings.into_iter().map(remap));
                Some(request.input.into_owned())
            }
            Err(report) => {
                reader.report.errors.extend(report.errors.into_iter().map(remap));
                reader.report.warnings.extend(report.warnings.into_iter().map(remap));
                return Err(reader.report);
            }
        }
    };
    Ok(AgUiRun {
        thread_id: thread_id.unwrap_or_default(),
        run_id: run_id.unwrap_or_default(),
        input,
        tools,
        context,
        state: object.get("state").cloned().unwrap_or(Value::Null),
        forwarded_props: object.get("forwardedProps").cloned().unwrap_or(Value::Null),
        warnings: reader.report.warnings,
    })
}

/// Where the parts of one standard message came from in the AG-UI body.
struct MessageMap {
    /// The AG-UI message.
    message: Path,
    /// Per standard content block: the part, and the paths of its data and MIME type.
    blocks: Vec<BlockMap>,
}

struct BlockMap {
    part: Path,
    data: Path,
    mime_type: Path,
}

/// Maps a path of the standard request (`/input/<i>/...`) to the AG-UI body.
fn remap(path: &Path, maps: &[MessageMap]) -> Path {
    let segments = path.segments();
    let (Some(Segment::Key(input)), Some(Segment::Index(i))) = (segments.first(), segments.get(1)) else {
        return Path::root().key("messages");
    };
    let Some(map) = maps.get(*i).filter(|_| &**input == "input") else { return Path::root().key("messages") };
    let rest = &segments[2..];
    if let [Segment::Key(content), Segment::Index(j), tail @ ..] = rest
        && &**content == "content"
        && let Some(block) = map.blocks.get(*j)
    {
        return match tail {
            [Segment::Key(source), Segment::Key(key), ..] if &**source == "source" && &**key == "data" => {
                block.data.clone()
            }
            [Segment::Key(source), Segment::Key(key), ..] if &**source == "source" && &**key == "format" => {
                block.mime_type.clone()
            }
            _ => block.part.clone(),
        };
    }
    let mut out = map.message.clone();
    for segment in rest {
        out = match segment {
            Segment::Key(key) => out.key(key),
            Segment::Index(index) => out.index(*index),
        };
    }
    out
}

#[derive(Default)]
struct Reader {
    report: Report,
}

impl Reader {
    fn string(&mut self, object: &Map<String, Value>, at: &Path, key: &str) -> Option<String> {
        match object.get(key)? {
            Value::String(text) => Some(text.clone()),
            other => {
                self.report.push(wrong(&at.key(key), key, "string", other));
                None
            }
        }
    }

    fn array<'v>(&mut self, object: &'v Map<String, Value>, at: &Path, key: &str) -> &'v [Value] {
        match object.get(key) {
            None => &[],
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.report.push(wrong(&at.key(key), key, "array", other));
                &[]
            }
        }
    }

    /// One AG-UI message as a standard message (JSON) and where its parts came from; `None` when
    /// it has a problem (reported) or carries nothing for a model (activity, reasoning).
    fn message(&mut self, message: &Value, at: &Path) -> Option<(Value, MessageMap)> {
        let Some(object) = message.as_object() else {
            self.report.push(wrong(at, "a message", "object", message));
            return None;
        };
        let role = match object.get("role") {
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, at.key("role"), "a message needs a `role`"));
                return None;
            }
            Some(Value::String(role)) => role.as_str(),
            Some(other) => {
                self.report.push(wrong(&at.key("role"), "role", "string", other));
                return None;
            }
        };
        let mut map = MessageMap { message: at.clone(), blocks: Vec::new() };
        let standard = match role {
            "user" => {
                let content = self.content(object, at, &mut map)?;
                json!({"role": "user", "content": content})
            }
            "system" | "developer" => {
                let content = self.content(object, at, &mut map)?;
                json!({"role": "system", "content": content})
            }
            "assistant" => {
                let content = match object.get("content") {
                    // A turn of tool calls only often carries `""`.
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::String(text)) if text.trim().is_empty() => Vec::new(),
                    Some(_) => self.content(object, at, &mut map)?,
                };
                let mut out = json!({"role": "assistant", "content": content});
                match object.get("toolCalls") {
                    None | Some(Value::Null) => {}
                    Some(calls @ Value::Array(_)) => {
                        out["toolCalls"] = calls.clone();
                    }
                    Some(other) => {
                        self.report.push(wrong(&at.key("toolCalls"), "toolCalls", "array", other));
                        return None;
                    }
                }
                out
            }
            "tool" => {
                let content = self.content(object, at, &mut map)?;
                let mut out = json!({"role": "tool", "content": content});
                match object.get("toolCallId") {
                    Some(id @ Value::String(_)) => out["toolCallId"] = id.clone(),
                    None => {
                        self.report.push(Diagnostic::new(
                            Code::MissingField,
                            at.key("toolCallId"),
                            "a tool message needs the `toolCallId` of the call it answers",
                        ));
                        return None;
                    }
                    Some(other) => {
                        self.report.push(wrong(&at.key("toolCallId"), "toolCallId", "string", other));
                        return None;
                    }
                }
                out
            }
            "activity" | "reasoning" => {
                self.report.push(Diagnostic::new(
                    Code::FieldIgnored,
                    at.clone(),
                    format!("an AG-UI `{role}` message is not sent to the model"),
                ));
                return None;
            }
            _ => {
                self.report.push(
                    Diagnostic::new(
                        Code::InvalidRole,
                        at.key("role"),
                        "an AG-UI message's role is user, assistant, system, developer or tool",
                    )
                    .expected(["user", "assistant", "system", "developer", "tool"])
                    .received(role),
                );
                return None;
            }
        };
        Some((standard, map))
    }

    /// `content`: a string becomes one text block, parts become blocks.
    fn content(&mut self, object: &Map<String, Value>, at: &Path, map: &mut MessageMap) -> Option<Vec<Value>> {
        let path = at.key("content");
        match object.get("content") {
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, path, "a message needs `content`"));
                None
            }
            Some(Value::String(text)) => {
                map.blocks.push(BlockMap { part: path.clone(), data: path.clone(), mime_type: path });
                Some(vec![json!({"type": "text", "text": text})])
            }
            Some(Value::Array(parts)) => {
                let mut blocks = Vec::new();
                let mut ok = true;
                for (j, part) in parts.iter().enumerate() {
                    let part_path = path.index(j);
                    match self.part(part, &part_path) {
                        Some((block, block_map)) => {
                            blocks.push(block);
                            map.blocks.push(block_map);
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(blocks)
            }
            Some(other) => {
                self.report.push(wrong(&path, "content", "string or array of parts", other));
                None
            }
        }
    }

    fn part(&mut self, part: &Value, at: &Path) -> Option<(Value, BlockMap)> {
        let Some(object) = part.as_object() else {
            self.report.push(wrong(at, "a content part", "object", part));
            return None;
        };
        let kind = match object.get("type") {
            Some(Value::String(kind)) => kind.as_str(),
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, at.key("type"), "a content part needs a `type`"));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&at.key("type"), "type", "string", other));
                return None;
            }
        };
        match kind {
            "text" => {
                let text = self.string(object, at, "text");
                if text.is_none() && !object.contains_key("text") {
                    self.report.push(Diagnostic::new(Code::MissingField, at.key("text"), "a text part needs `text`"));
                }
                let map = BlockMap { part: at.clone(), data: at.key("text"), mime_type: at.clone() };
                Some((json!({"type": "text", "text": text?}), map))
            }
            "binary" => self.binary(object, at),
            "image" | "video" | "document" => self.media(object, at, Kind::parse(kind)),
            "audio" => {
                self.report.push(audio(at.key("type")));
                None
            }
            _ => {
                self.report.push(
                    Diagnostic::new(
                        Code::UnsupportedContentType,
                        at.key("type"),
                        "an AG-UI content part is text, image, video, document or binary",
                    )
                    .expected(["text", "image", "video", "document", "binary"])
                    .received(kind),
                );
                None
            }
        }
    }

    /// ml-commons' `{"type": "binary", "mimeType", "data"}` (or `url`); the kind is the MIME type's.
    fn binary(&mut self, object: &Map<String, Value>, at: &Path) -> Option<(Value, BlockMap)> {
        let mime_path = at.key("mimeType");
        let Some(mime) = self.string(object, at, "mimeType") else {
            if !object.contains_key("mimeType") {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    mime_path,
                    "a binary part needs a `mimeType`, which tells what it is",
                ));
            }
            return None;
        };
        let top = mime.split('/').next().unwrap_or_default().trim().to_ascii_lowercase();
        let kind = match top.as_str() {
            "image" => Kind::Image,
            "video" => Kind::Video,
            "text" | "application" => Kind::Document,
            "audio" => {
                self.report.push(audio(mime_path));
                return None;
            }
            _ => {
                self.report.push(
                    Diagnostic::new(
                        Code::UnsupportedFormat,
                        mime_path,
                        "a binary part's MIME type must be image/*, video/*, text/* or application/*",
                    )
                    .expected(["image/*", "video/*", "text/*", "application/*"])
                    .received(mime),
                );
                return None;
            }
        };
        let (source_type, data, data_path) = if let Some(data) = self.string(object, at, "data") {
            ("base64", data, at.key("data"))
        } else if let Some(url) = self.string(object, at, "url") {
            ("url", url, at.key("url"))
        } else if object.contains_key("id") && !object.contains_key("data") && !object.contains_key("url") {
            // AG-UI 0.x let `id` name bytes uploaded elsewhere; nothing here can fetch them.
            self.report.push(
                Diagnostic::new(
                    Code::UnsupportedSourceType,
                    at.key("id"),
                    "a binary part's `id` names bytes stored elsewhere; send them as base64 `data` or a `url`",
                )
                .expected(["data", "url"])
                .received("id"),
            );
            return None;
        } else {
            if !object.contains_key("data") && !object.contains_key("url") {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    at.key("data"),
                    "a binary part needs base64 `data` (or a `url`)",
                ));
            }
            return None;
        };
        let format = self.format(kind, &mime, &mime_path)?;
        let map = BlockMap { part: at.clone(), data: data_path, mime_type: mime_path };
        Some((kind.block(source_type, &format, &data), map))
    }

    /// An AG-UI 1.0 `image` / `video` / `document` part with a `source`.
    fn media(&mut self, object: &Map<String, Value>, at: &Path, kind: Kind) -> Option<(Value, BlockMap)> {
        let source_path = at.key("source");
        let source = match object.get("source") {
            Some(Value::Object(source)) => source,
            None => {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    source_path,
                    "a media part needs a `source` ({\"type\": \"data\" | \"url\", \"value\", \"mimeType\"})",
                ));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&source_path, "source", "object", other));
                return None;
            }
        };
        let source_type = match source.get("type") {
            Some(Value::String(kind)) => kind.as_str(),
            None => {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    source_path.key("type"),
                    "a source needs a `type`",
                ));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&source_path.key("type"), "type", "string", other));
                return None;
            }
        };
        let standard_type = match source_type {
            "data" => "base64",
            "url" => "url",
            _ => {
                let message = if source_type == "file" {
                    "a `file` source names bytes already at one provider; send them as `data` or a `url`"
                } else {
                    "an AG-UI source's type is data or url"
                };
                self.report.push(
                    Diagnostic::new(Code::UnsupportedSourceType, source_path.key("type"), message)
                        .expected(["data", "url"])
                        .received(source_type),
                );
                return None;
            }
        };
        // 1.0 names the bytes `value`; early drafts and some clients write `data`.
        let data_key = if source.contains_key("value") || !source.contains_key("data") { "value" } else { "data" };
        let data_path = source_path.key(data_key);
        let data = match source.get(data_key) {
            Some(Value::String(data)) => data.clone(),
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, data_path, "a source needs a `value`"));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&data_path, data_key, "string", other));
                return None;
            }
        };
        let mime_path = source_path.key("mimeType");
        let mime = match source.get("mimeType") {
            Some(Value::String(mime)) => Some(mime.as_str()),
            None | Some(Value::Null) => None,
            Some(other) => {
                self.report.push(wrong(&mime_path, "mimeType", "string", other));
                return None;
            }
        };
        let format = if let Some(mime) = mime {
            self.format(kind, mime, &mime_path)?
        } else {
            // A URL without a MIME type: its extension is the only hint of the format.
            let extension = (standard_type == "url")
                .then(|| data.split(['?', '#']).next().and_then(|p| p.rsplit_once('.')).map(|(_, e)| e))
                .flatten();
            let Some(format) = extension.and_then(|e| kind.format_of_extension(e)) else {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    mime_path,
                    "a media source needs a `mimeType` to tell its format",
                ));
                return None;
            };
            format
        };
        let map = BlockMap { part: at.clone(), data: data_path, mime_type: mime_path };
        Some((kind.block(standard_type, &format, &data), map))
    }

    /// The standard format of a MIME type for a block kind.
    fn format(&mut self, kind: Kind, mime: &str, at: &Path) -> Option<String> {
        let essence = mime.split(';').next().unwrap_or_default();
        let formats = crate::format::formats_for_mime(essence);
        let allowed = kind.formats();
        if let Some(format) = formats.iter().find(|f| allowed.contains(f)) {
            return Some((*format).to_string());
        }
        if essence.trim().to_ascii_lowercase().starts_with("audio/") {
            self.report.push(audio(at.clone()));
            return None;
        }
        self.report.push(
            Diagnostic::new(
                Code::UnsupportedFormat,
                at.clone(),
                format!("{} is not a MIME type a {} block takes", mime.trim(), kind.name()),
            )
            .expected(kind.mime_types())
            .received(mime),
        );
        None
    }

    fn tool(&mut self, tool: &Value, at: &Path) -> Option<ToolSpec> {
        let Some(object) = tool.as_object() else {
            self.report.push(wrong(at, "a tool", "object", tool));
            return None;
        };
        let name = self.string(object, at, "name");
        if name.is_none() && !object.contains_key("name") {
            self.report.push(Diagnostic::new(Code::MissingField, at.key("name"), "a tool needs a `name`"));
        }
        let description = self.string(object, at, "description");
        let input_schema = match object.get("parameters") {
            None | Some(Value::Null) => None,
            Some(schema @ Value::Object(_)) => Some(schema.clone()),
            Some(other) => {
                self.report.push(wrong(&at.key("parameters"), "parameters", "object (a JSON Schema)", other));
                return None;
            }
        };
        let name = name?;
        if name.trim().is_empty() {
            self.report.push(Diagnostic::new(Code::EmptyField, at.key("name"), "a tool's name must not be blank"));
            return None;
        }
        Some(ToolSpec { name, description: description.filter(|d| !d.is_empty()), input_schema })
    }
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    Image,
    Video,
    Document,
}

impl Kind {
    fn parse(name: &str) -> Self {
        match name {
            "image" => Self::Image,
            "video" => Self::Video,
            _ => Self::Document,
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Self::Image => "image",
            Self::Video => "video",
            Self::Document => "document",
        }
    }

    fn formats(self) -> Vec<&'static str> {
        match self {
            Self::Image => ImageFormat::ALL.iter().map(|f| f.as_str()).collect(),
            Self::Video => VideoFormat::ALL.iter().map(|f| f.as_str()).collect(),
            Self::Document => DocumentFormat::ALL.iter().map(|f| f.as_str()).collect(),
        }
    }

    fn mime_types(self) -> Vec<&'static str> {
        let mut types: Vec<&'static str> = match self {
            Self::Image => ImageFormat::ALL.iter().map(|f| f.mime_type()).collect(),
            Self::Video => VideoFormat::ALL.iter().map(|f| f.mime_type()).collect(),
            Self::Document => DocumentFormat::ALL.iter().map(|f| f.mime_type()).collect(),
        };
        types.dedup();
        types
    }

    fn format_of_extension(self, extension: &str) -> Option<String> {
        use crate::format::Parsed;
        fn name<F>(parsed: Option<Parsed<F>>, as_str: fn(F) -> &'static str) -> Option<String> {
            match parsed? {
                Parsed::Exact(format) | Parsed::Normalized(format) => Some(as_str(format).to_string()),
            }
        }
        match self {
            Self::Image => name(ImageFormat::parse(extension), ImageFormat::as_str),
            Self::Video => name(VideoFormat::parse(extension), VideoFormat::as_str),
            Self::Document => name(DocumentFormat::parse(extension), DocumentFormat::as_str),
        }
    }

    fn block(self, source_type: &str, format: &str, data: &str) -> Value {
        json!({"type": self.name(), "source": {"type": source_type, "format": format, "data": data}})
    }
}

fn audio(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedContentType,
        at,
        "audio is not supported: the standard input has no audio block (send a transcript as text)",
    )
    .expected(["text", "image", "video", "document"])
    .received("audio")
}

fn wrong(at: &Path, what: &str, expected: &'static str, found: &Value) -> Diagnostic {
    let found = match found {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    Diagnostic::new(Code::InvalidFieldType, at.clone(), format!("{what} must be a {expected}, not a {found}"))
        .expected([expected])
        .received(found)
}
