//! Parsing and validation: JSON in, typed input and every problem out.
//!
//! Validation walks a `serde_json::Value` with a path, reports every problem it finds (not just
//! the first), and builds the typed [`AgentInput`] only when there are none. Deserializing
//! straight into typed structs would stop at the first error and say little about where.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::json::{Document, Json, Object};
use crate::model::{self, java_trim};

use crate::base64::{self, Base64Error};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::format::{self, DocumentFormat, ImageFormat, Parsed, Signature, VideoFormat};
use crate::model::{AgentInput, ContentBlock, ExecuteRequest, InputType, Media, Message, Role, Source, ToolCall};
use crate::path::{Loc, Path};
use crate::url::{self, UrlError};

pub use crate::options::{Limits, Options};

/// The outcome of validating a request or a bare input.
#[derive(Debug, Clone)]
pub struct Validation<'a> {
    /// The typed request, present exactly when there are no errors.
    pub request: Option<ExecuteRequest<'a>>,
    /// The input's form, when it could be told (even if the input has errors).
    pub input_type: Option<InputType>,
    /// Everything found.
    pub report: Report,
}

impl<'a> Validation<'a> {
    /// Whether the input can be used.
    pub fn is_valid(&self) -> bool {
        self.request.is_some()
    }

    /// The report in its wire shape: `{"valid", "input_type", "errors", "warnings"}`.
    pub fn summary(&self) -> ValidationReport<'_> {
        ValidationReport {
            valid: self.is_valid(),
            input_type: self.input_type,
            errors: &self.report.errors,
            warnings: &self.report.warnings,
        }
    }

    /// The typed request, or the report when there are errors.
    pub fn into_result(self) -> Result<(ExecuteRequest<'a>, Report), Report> {
        match self.request {
            Some(request) => Ok((request, self.report)),
            None => Err(self.report),
        }
    }

    fn failed(report: Report) -> Self {
        Self { request: None, input_type: None, report }
    }
}

/// A validation result as it is written out.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ValidationReport<'v> {
    /// No errors.
    pub valid: bool,
    /// `TEXT`, `CONTENT_BLOCKS`, `MESSAGES`, or `null` when the form could not be told.
    pub input_type: Option<InputType>,
    /// Problems that make the input unusable.
    pub errors: &'v [crate::Diagnostic],
    /// Problems worth knowing that do not.
    pub warnings: &'v [crate::Diagnostic],
}

/// `serde_json`'s own nesting limit: deeper text fails while parsing, whatever `max_depth` says.
pub const PARSER_MAX_DEPTH: usize = 128;

/// Parses request text, enforcing the body size limit before parsing and the depth limit after.
/// Strings without escapes stay borrowed from `text`.
pub fn parse<'a>(text: &'a str, limits: &Limits) -> Result<Document<'a>, Report> {
    let mut report = Report::default();
    if text.len() > limits.max_body_bytes {
        report.push(
            Diagnostic::new(
                Code::TooLarge,
                Path::root(),
                format!("the request is {} bytes, over the limit of {} bytes", text.len(), limits.max_body_bytes),
            )
            .limit(limits.max_body_bytes as u64, text.len() as u64),
        );
        return Err(report);
    }
    // A byte order mark is not JSON, but editors write one; RFC 8259 lets parsers ignore it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match Document::parse(text) {
        Ok(document) => {
            check_depth(&document.root, limits.max_depth)?;
            Ok(document)
        }
        Err(error) => {
            let effective = limits.max_depth.min(PARSER_MAX_DEPTH);
            let diagnostic = if error.to_string().contains("recursion limit") {
                Diagnostic::new(
                    Code::TooDeep,
                    Path::root(),
                    format!(
                        "JSON is nested more than {effective} levels deep (at line {}, column {})",
                        error.line(),
                        error.column()
                    ),
                )
                .limit(effective as u64, PARSER_MAX_DEPTH as u64 + 1)
            } else {
                Diagnostic::new(
                    Code::InvalidJson,
                    Path::root(),
                    format!(
                        "the request is not valid JSON: {} at line {}, column {}",
                        describe_json_error(&error),
                        error.line(),
                        error.column()
                    ),
                )
            };
            report.push(diagnostic);
            Err(report)
        }
    }
}

fn describe_json_error(error: &serde_json::Error) -> String {
    let text = error.to_string();
    // serde_json appends " at line L column C"; the caller says where in its own words.
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Fails with `too_deep` when `value` nests deeper than `max_depth` arrays and objects.
pub fn check_depth(value: &Json<'_>, max_depth: usize) -> Result<(), Report> {
    fn depth_exceeds(value: &Json<'_>, depth: usize, max_depth: usize) -> Option<usize> {
        let descend = |child: &Json<'_>| depth_exceeds(child, depth + 1, max_depth);
        match value {
            Json::Array(_) | Json::Object(_) if depth > max_depth => Some(depth),
            Json::Array(items) => items.iter().find_map(descend),
            Json::Object(map) => map.values().find_map(descend),
            _ => None,
        }
    }
    // Parsed values are at most 128 deep (serde_json's own limit), so the recursion is bounded;
    // a deeper value built in code stops at max_depth + 1.
    match depth_exceeds(value, 1, max_depth) {
        None => Ok(()),
        Some(depth) => {
            let mut report = Report::default();
            report.push(
                Diagnostic::new(
                    Code::TooDeep,
                    Path::root(),
                    format!("JSON is nested more than {max_depth} levels deep"),
                )
                .limit(max_depth as u64, depth as u64),
            );
            Err(report)
        }
    }
}

/// Validates an execute request body: `{"input": ..., "parameters": {...}}`.
pub fn validate_request<'a>(document: &'a Document<'_>, options: &Options) -> Validation<'a> {
    if let Err(report) = check_depth(&document.root, options.limits.max_depth) {
        return Validation::failed(report);
    }
    let mut walker = Walker::new(options);
    let root = Path::root();
    let request = walker.request(&document.root, Loc::Root(&root));
    walker.finish(request, document.text)
}

/// Validates a bare input (a string or an array); paths are relative to it.
pub fn validate_input<'a>(document: &'a Document<'_>, options: &Options) -> Validation<'a> {
    if let Err(report) = check_depth(&document.root, options.limits.max_depth) {
        return Validation::failed(report);
    }
    let mut walker = Walker::new(options);
    let root = Path::root();
    let input = walker.input(&document.root, Loc::Root(&root));
    let request = input.map(|input| ExecuteRequest {
        input,
        parameters: Map::new(),
        legacy_question: false,
        input_path: Path::root(),
        source_text: None,
    });
    walker.finish(request, document.text)
}

/// Validates a request body given as a `serde_json::Value`. The typed request borrows from the
/// tree in `document`, which this fills in.
///
/// ```
/// let value = serde_json::json!({"input": "Hello"});
/// let document = agent_input::validate::document(&value);
/// let validation = agent_input::validate::validate_request(&document, &Default::default());
/// assert!(validation.is_valid());
/// ```
pub fn document(value: &Value) -> Document<'_> {
    Document::from_value(value)
}

pub(crate) fn json_type(value: &Json<'_>) -> &'static str {
    value.type_name()
}

pub(crate) fn a_or_an(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// Short, safe rendering of a user value for messages.
pub(crate) fn quote(raw: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = raw.chars().take(MAX).collect();
    if raw.chars().count() > MAX {
        out.push('…');
    }
    format!("'{out}'")
}

/// Unknown keys reported one by one per object; the rest are counted in one warning.
const MAX_IGNORED_PER_OBJECT: usize = 20;

const ENVELOPE_KEYS: &[&str] = &["input", "parameters", "agent_id", "tenant_id", "isAsync"];
const CONTENT_TYPES: [&str; 4] = ["text", "image", "video", "document"];
const SOURCE_TYPES: [&str; 2] = ["base64", "url"];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Message,
    Block,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum MediaKind {
    Image,
    Video,
    Document,
}

impl MediaKind {
    fn name(self) -> &'static str {
        match self {
            Self::Image => ImageFormat::KIND,
            Self::Video => VideoFormat::KIND,
            Self::Document => DocumentFormat::KIND,
        }
    }

    /// The formats this block type takes.
    fn formats(self) -> &'static [&'static str] {
        match self {
            Self::Image => ImageFormat::NAMES,
            Self::Video => VideoFormat::NAMES,
            Self::Document => DocumentFormat::NAMES,
        }
    }

    /// Reads a format of this block type, and whether it was normalized (alias or letter case).
    fn parse(self, raw: &str) -> Option<(AnyFormat, bool)> {
        fn split<F>(parsed: Parsed<F>, wrap: fn(F) -> AnyFormat) -> (AnyFormat, bool) {
            match parsed {
                Parsed::Exact(f) => (wrap(f), false),
                Parsed::Normalized(f) => (wrap(f), true),
            }
        }
        match self {
            Self::Image => ImageFormat::parse(raw).map(|p| split(p, AnyFormat::Image)),
            Self::Video => VideoFormat::parse(raw).map(|p| split(p, AnyFormat::Video)),
            Self::Document => DocumentFormat::parse(raw).map(|p| split(p, AnyFormat::Document)),
        }
    }
}

enum AnyFormat {
    Image(ImageFormat),
    Video(VideoFormat),
    Document(DocumentFormat),
}

impl AnyFormat {
    fn kind(&self) -> MediaKind {
        match self {
            Self::Image(_) => MediaKind::Image,
            Self::Video(_) => MediaKind::Video,
            Self::Document(_) => MediaKind::Document,
        }
    }

    fn as_str(&self) -> &'static str {
        match self {
            Self::Image(f) => f.as_str(),
            Self::Video(f) => f.as_str(),
            Self::Document(f) => f.as_str(),
        }
    }
}

struct Walker<'o> {
    options: &'o Options,
    report: Report,
    input_type: Option<InputType>,
}

/// A string field read from an object: absent, of another JSON type (already reported), or present.
enum Field<'a> {
    Absent,
    Reported,
    Str(&'a str),
}

impl<'o> Walker<'o> {
    fn new(options: &'o Options) -> Self {
        Self { options, report: Report::default(), input_type: None }
    }

    fn finish<'a>(self, request: Option<ExecuteRequest<'a>>, text: Option<&'a str>) -> Validation<'a> {
        let request =
            if self.report.is_ok() { request.map(|r| ExecuteRequest { source_text: text, ..r }) } else { None };
        Validation { input_type: self.input_type, request, report: self.report }
    }

    fn push(&mut self, diagnostic: Diagnostic) {
        self.report.push(diagnostic);
    }

    fn wrong_type(&mut self, loc: Loc<'_>, what: &str, expected: &str, value: &Json<'_>) {
        let found = json_type(value);
        self.push(
            Diagnostic::new(
                Code::InvalidFieldType,
                loc.to_path(),
                format!("{what} must be {} {expected}, not {} {found}", a_or_an(expected), a_or_an(found)),
            )
            .expected([expected])
            .received(found),
        );
    }

    fn ignore_unknown_keys(&mut self, object: &Object<'_>, loc: Loc<'_>, known: &[&str], what: &str) {
        self.ignore_keys_except(object, loc, known, what, None);
    }

    /// Reports unknown keys (all but `skip`), at most [`MAX_IGNORED_PER_OBJECT`] one by one and
    /// the rest in one summary, so a flood of keys cannot flood the report.
    fn ignore_keys_except(
        &mut self,
        object: &Object<'_>,
        loc: Loc<'_>,
        known: &[&str],
        what: &str,
        skip: Option<&str>,
    ) {
        let mut unknown = object.keys().filter(|key| !known.contains(key) && Some(*key) != skip);
        for key in unknown.by_ref().take(MAX_IGNORED_PER_OBJECT) {
            let message =
                format!("{} is not a field of {what} and is ignored; the fields are {}", quote(key), known.join(", "));
            self.push(
                Diagnostic::new(Code::FieldIgnored, loc.key(key).to_path(), message)
                    .expected(known.iter().copied())
                    .received(key),
            );
        }
        let rest = unknown.count();
        if rest > 0 {
            self.push(Diagnostic::new(
                Code::FieldIgnored,
                loc.to_path(),
                format!("{rest} more unknown keys of {what} are ignored"),
            ));
        }
    }

    /// Reads a required string field, reporting it when absent or of another type.
    fn required_str<'a>(&mut self, object: &'a Object<'_>, key: &str, loc: Loc<'_>, what: &str) -> Field<'a> {
        match self.optional_str(object, key, loc, what) {
            Field::Absent => {
                self.push(Diagnostic::new(
                    Code::MissingField,
                    loc.key(key).to_path(),
                    format!("{what} is missing '{key}'"),
                ));
                Field::Reported
            }
            other => other,
        }
    }

    fn optional_str<'a>(&mut self, object: &'a Object<'_>, key: &str, loc: Loc<'_>, what: &str) -> Field<'a> {
        match object.get(key) {
            None => Field::Absent,
            Some(Json::String(s)) => Field::Str(s),
            Some(other) => {
                self.wrong_type(loc.key(key), &format!("'{key}' of {what}"), "string", other);
                Field::Reported
            }
        }
    }

    /// Like [`Self::required_str`], also rejecting blank strings with `empty_field`.
    fn required_nonblank<'a>(
        &mut self,
        object: &'a Object<'_>,
        key: &str,
        loc: Loc<'_>,
        what: &str,
    ) -> Option<&'a str> {
        match self.required_str(object, key, loc, what) {
            Field::Str(s) if java_trim(s).is_empty() => {
                self.push(Diagnostic::new(
                    Code::EmptyField,
                    loc.key(key).to_path(),
                    format!("'{key}' of {what} is empty"),
                ));
                None
            }
            Field::Str(s) => Some(s),
            Field::Absent | Field::Reported => None,
        }
    }

    fn request<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<ExecuteRequest<'a>> {
        let Json::Object(object) = value else {
            self.wrong_type(loc, "the request body", "object", value);
            return None;
        };
        self.ignore_unknown_keys(object, loc, ENVELOPE_KEYS, "the execute request");
        let parameters_loc = loc.key("parameters");
        let parameters = match object.get("parameters") {
            None | Some(Json::Null) => None,
            Some(Json::Object(map)) => Some(map),
            Some(other) => {
                self.wrong_type(parameters_loc, "'parameters'", "object", other);
                None
            }
        };
        let question = parameters.and_then(|p| p.get("question"));
        let question_loc = parameters_loc.key("question");
        let (input, legacy_question, input_path) = if let Some(input) = object.get("input") {
            if question.is_some() {
                self.push(Diagnostic::new(
                    Code::QuestionIgnored,
                    question_loc.to_path(),
                    "both 'input' and 'parameters.question' are given; 'input' is used and 'parameters.question' is ignored (it is deprecated)",
                ));
            }
            let input_loc = loc.key("input");
            (self.input(input, input_loc), false, input_loc.to_path())
        } else {
            match question {
                Some(Json::String(text)) => {
                    self.input_type = Some(InputType::Text);
                    let input = if java_trim(text).is_empty() {
                        self.push(Diagnostic::new(
                            Code::EmptyInput,
                            question_loc.to_path(),
                            "'parameters.question' is blank; give the question text",
                        ));
                        None
                    } else {
                        Some(AgentInput::Text(Cow::Borrowed(text.as_ref())))
                    };
                    (input, true, question_loc.to_path())
                }
                Some(other) => {
                    self.wrong_type(question_loc, "'parameters.question'", "string", other);
                    (None, true, question_loc.to_path())
                }
                None => {
                    self.push(Diagnostic::new(
                        Code::MissingInput,
                        loc.to_path(),
                        "the request has no input: add \"input\" (text, content blocks or messages) or the legacy \"parameters\": {\"question\": \"...\"}",
                    ));
                    (None, false, Path::root())
                }
            }
        };
        let mut parameters = parameters.map(Object::to_map).unwrap_or_default();
        if legacy_question {
            // `shift_remove` keeps the other parameters in their order (`remove` swaps).
            parameters.shift_remove("question");
        }
        Some(ExecuteRequest { input: input?, parameters, legacy_question, input_path, source_text: None })
    }

    fn input<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<AgentInput<'a>> {
        match value {
            Json::String(text) => {
                self.input_type = Some(InputType::Text);
                if java_trim(text).is_empty() {
                    self.push(Diagnostic::new(
                        Code::EmptyInput,
                        loc.to_path(),
                        "the input text is blank; give the text to send",
                    ));
                    return None;
                }
                Some(AgentInput::Text(Cow::Borrowed(text)))
            }
            Json::Array(items) => self.array(items, loc),
            other => {
                let found = json_type(other);
                self.push(
                    Diagnostic::new(
                        Code::InvalidInputType,
                        loc.to_path(),
                        format!(
                            "the input must be a string, an array of content blocks, or an array of messages, not {} {found}",
                            a_or_an(found)
                        ),
                    )
                    .expected(["string", "array"])
                    .received(found),
                );
                None
            }
        }
    }

    fn classify(item: &Json<'_>) -> Option<Kind> {
        let Json::Object(object) = item else { return None };
        if object.contains_key("role") {
            Some(Kind::Message)
        } else if object.contains_key("type") {
            Some(Kind::Block)
        } else {
            None
        }
    }

    fn array<'a>(&mut self, items: &'a [Json<'_>], loc: Loc<'_>) -> Option<AgentInput<'a>> {
        if items.is_empty() {
            self.push(Diagnostic::new(
                Code::EmptyInput,
                loc.to_path(),
                "the input array is empty; give at least one content block or message",
            ));
            return None;
        }
        // The first classifiable item decides the kind (ml-commons reads the first item).
        let kind = items.iter().find_map(Self::classify);
        if let Some(kind) = kind {
            let (limit, what) = match kind {
                Kind::Message => (self.options.limits.max_messages, "messages"),
                Kind::Block => (self.options.limits.max_blocks, "content blocks"),
            };
            if items.len() > limit {
                // The form is known from the first item, even though the items are not examined.
                self.input_type = Some(match kind {
                    Kind::Message => InputType::Messages,
                    Kind::Block => InputType::ContentBlocks,
                });
                self.too_many(loc, items.len(), limit, what);
                return None;
            }
        }
        let mut ok = true;
        let mut mixed_reported = false;
        for (i, item) in items.iter().enumerate() {
            match Self::classify(item) {
                None => {
                    ok = false;
                    let message = if item.is_object() {
                        "this item has neither 'role' (a message) nor 'type' (a content block)".to_string()
                    } else {
                        format!(
                            "input items must be objects (content blocks or messages), not {} {}",
                            a_or_an(json_type(item)),
                            json_type(item)
                        )
                    };
                    self.push(
                        Diagnostic::new(Code::InvalidItem, loc.index(i).to_path(), message).received(json_type(item)),
                    );
                }
                Some(found) if Some(found) != kind && !mixed_reported => {
                    ok = false;
                    mixed_reported = true;
                    let (expected, got) = match kind {
                        Some(Kind::Message) => ("messages", "a content block"),
                        _ => ("content blocks", "a message"),
                    };
                    self.push(
                        Diagnostic::new(
                            Code::MixedArray,
                            loc.index(i).to_path(),
                            format!(
                                "the input array mixes kinds: the first item makes it an array of {expected}, but item {i} is {got}; send either all content blocks or all messages"
                            ),
                        )
                        .expected([expected])
                        .received(got),
                    );
                }
                Some(_) => {}
            }
        }
        if !ok {
            return None;
        }
        match kind {
            Some(Kind::Block) => {
                self.input_type = Some(InputType::ContentBlocks);
                let blocks = self.blocks(items, loc);
                blocks.map(AgentInput::Blocks)
            }
            Some(Kind::Message) => {
                self.input_type = Some(InputType::Messages);
                let mut messages = Vec::with_capacity(items.len());
                let mut all = true;
                for (i, item) in items.iter().enumerate() {
                    match self.message(item, loc.index(i)) {
                        Some(message) => messages.push(message),
                        None => all = false,
                    }
                }
                self.check_last_role(items, loc);
                all.then_some(AgentInput::Messages(messages))
            }
            None => None,
        }
    }

    fn too_many(&mut self, loc: Loc<'_>, len: usize, limit: usize, what: &str) {
        self.push(
            Diagnostic::new(Code::TooMany, loc.to_path(), format!("{len} {what} is over the limit of {limit}"))
                .limit(limit as u64, len as u64),
        );
    }

    fn check_last_role(&mut self, items: &[Json<'_>], loc: Loc<'_>) {
        let last = items.len() - 1;
        let Some(Json::String(role)) = items[last].get("role") else { return };
        if java_trim(role).is_empty() {
            return;
        }
        let role = Role::parse(role.as_ref());
        let allowed = match role {
            Role::User | Role::Tool => true,
            Role::Assistant => self.options.allow_prefill,
            Role::System | Role::Other(_) => false,
        };
        if !allowed {
            let expected: &[&str] =
                if self.options.allow_prefill { &["user", "tool", "assistant"] } else { &["user", "tool"] };
            self.push(
                Diagnostic::new(
                    Code::LastMessageRole,
                    loc.index(last).key("role").to_path(),
                    format!(
                        "the last message must be from role 'user' or 'tool' (the agent answers it), not {}",
                        quote(role.as_str())
                    ),
                )
                .expected(expected.iter().copied())
                .received(role.as_str()),
            );
        }
    }

    fn blocks<'a>(&mut self, items: &'a [Json<'_>], loc: Loc<'_>) -> Option<Vec<ContentBlock<'a>>> {
        let mut blocks = Vec::with_capacity(items.len());
        let mut all = true;
        for (i, item) in items.iter().enumerate() {
            match self.block(item, loc.index(i)) {
                Some(block) => blocks.push(block),
                None => all = false,
            }
        }
        all.then_some(blocks)
    }

    fn message<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<Message<'a>> {
        let object = value.as_object()?;
        let role_loc = loc.key("role");
        let role = match object.get("role") {
            Some(Json::String(role)) if !java_trim(role).is_empty() => Some(Role::parse(role.as_ref())),
            Some(Json::String(_)) => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidRole,
                        role_loc.to_path(),
                        "the message role is empty; use user, assistant, system, tool or another name",
                    )
                    .received(""),
                );
                None
            }
            Some(other) => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidRole,
                        role_loc.to_path(),
                        format!(
                            "the message role must be a non-empty string, not {} {}",
                            a_or_an(json_type(other)),
                            json_type(other)
                        ),
                    )
                    .expected(["string"])
                    .received(json_type(other)),
                );
                None
            }
            None => {
                self.push(Diagnostic::new(Code::MissingField, role_loc.to_path(), "the message is missing 'role'"));
                None
            }
        };

        let mut known = vec!["role", "content"];
        match role {
            Some(Role::Assistant) => known.push("toolCalls"),
            Some(Role::Tool) => known.push("toolCallId"),
            _ => {}
        }
        if let Some(role) = &role {
            let what = match role {
                Role::Assistant => "an assistant message".to_string(),
                Role::Tool => "a tool message".to_string(),
                other => format!("a '{}' message", other.as_str()),
            };
            self.ignore_unknown_keys(object, loc, &known, &what);
        }

        // content
        let content_loc = loc.key("content");
        let mut content_ok = true;
        let content = match object.get("content") {
            None | Some(Json::Null) => None,
            Some(Json::Array(items)) => {
                if items.len() > self.options.limits.max_blocks {
                    self.too_many(content_loc, items.len(), self.options.limits.max_blocks, "content blocks");
                    content_ok = false;
                    None
                } else {
                    let mut blocks = Vec::with_capacity(items.len());
                    for (j, item) in items.iter().enumerate() {
                        let block_loc = content_loc.index(j);
                        match self.nested_block(item, block_loc) {
                            Some(block) => blocks.push(block),
                            None => content_ok = false,
                        }
                    }
                    Some(blocks)
                }
            }
            Some(other) => {
                self.wrong_type(content_loc, "'content'", "array", other);
                content_ok = false;
                None
            }
        };
        let content_present = object.get("content").is_some_and(|c| !c.is_null());

        // toolCalls (assistant only)
        let mut calls_ok = true;
        let tool_calls = if role == Some(Role::Assistant) {
            match object.get("toolCalls") {
                None | Some(Json::Null) => Vec::new(),
                Some(Json::Array(items)) => {
                    let calls_loc = loc.key("toolCalls");
                    let mut calls = Vec::with_capacity(items.len());
                    for (k, item) in items.iter().enumerate() {
                        match self.tool_call(item, calls_loc.index(k)) {
                            Some(call) => calls.push(call),
                            None => calls_ok = false,
                        }
                    }
                    calls
                }
                Some(other) => {
                    self.wrong_type(loc.key("toolCalls"), "'toolCalls'", "array", other);
                    calls_ok = false;
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let has_calls = object.get("toolCalls").and_then(Json::as_array).is_some_and(|a| !a.is_empty());

        // toolCallId (tool only)
        let mut tool_call_id = None;
        let mut id_ok = true;
        if role == Some(Role::Tool) {
            match self.required_nonblank(object, "toolCallId", loc, "a tool message") {
                Some(id) => tool_call_id = Some(Cow::Borrowed(id)),
                None => id_ok = false,
            }
        }

        // Required content by role.
        let content_empty = content.as_ref().is_some_and(Vec::is_empty)
            || object.get("content").and_then(Json::as_array).is_some_and(<[Json<'_>]>::is_empty);
        let role_name = role.as_ref().map_or("", Role::as_str).to_string();
        let needs_content = match role {
            Some(Role::Assistant) => !has_calls,
            Some(_) => true,
            None => false,
        };
        if needs_content && content_ok {
            if !content_present {
                let message = if role == Some(Role::Assistant) {
                    "an assistant message needs 'content' or 'toolCalls'".to_string()
                } else {
                    format!("a '{role_name}' message needs 'content' (an array of content blocks)")
                };
                self.push(Diagnostic::new(Code::MissingField, content_loc.to_path(), message));
                content_ok = false;
            } else if content_empty {
                let message = if role == Some(Role::Assistant) {
                    "an assistant message needs at least one content block or a tool call".to_string()
                } else {
                    format!("a '{role_name}' message needs at least one content block")
                };
                self.push(Diagnostic::new(Code::EmptyContent, content_loc.to_path(), message));
                content_ok = false;
            }
        }

        let role = role?;
        if !(content_ok && calls_ok && id_ok) {
            return None;
        }
        Some(Message { role, content: content.unwrap_or_default(), tool_calls, tool_call_id })
    }

    fn nested_block<'a>(&mut self, item: &'a Json<'_>, loc: Loc<'_>) -> Option<ContentBlock<'a>> {
        match item {
            Json::Object(object) if object.contains_key("role") => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidItem,
                        loc.to_path(),
                        "a message cannot be nested inside 'content'; content holds content blocks ({\"type\": \"text\", ...})",
                    )
                    .received("message"),
                );
                None
            }
            Json::Object(object) if !object.contains_key("type") => {
                self.push(Diagnostic::new(
                    Code::MissingField,
                    loc.key("type").to_path(),
                    "the content block is missing 'type' (text, image, video or document)",
                ));
                None
            }
            Json::Object(_) => self.block(item, loc),
            other => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidItem,
                        loc.to_path(),
                        format!(
                            "content items must be content block objects, not {} {}",
                            a_or_an(json_type(other)),
                            json_type(other)
                        ),
                    )
                    .received(json_type(other)),
                );
                None
            }
        }
    }

    fn block<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<ContentBlock<'a>> {
        let object = value.as_object()?;
        let type_loc = loc.key("type");
        let Field::Str(raw_type) = self.required_str(object, "type", loc, "the content block") else {
            return None;
        };
        let kind = raw_type.to_ascii_lowercase();
        match kind.as_str() {
            "text" => {
                self.ignore_unknown_keys(object, loc, &["type", "text"], "a text block");
                match self.required_str(object, "text", loc, "the text block") {
                    Field::Str(text) if java_trim(text).is_empty() => {
                        self.push(Diagnostic::new(
                            Code::EmptyText,
                            loc.key("text").to_path(),
                            "the text block's text is blank; remove the block or give it text",
                        ));
                        None
                    }
                    Field::Str(text) => Some(ContentBlock::Text(Cow::Borrowed(text))),
                    Field::Absent | Field::Reported => None,
                }
            }
            "image" => self.media(object, loc, MediaKind::Image),
            "video" => self.media(object, loc, MediaKind::Video),
            "document" => self.media(object, loc, MediaKind::Document),
            _ => {
                self.push(
                    Diagnostic::new(
                        Code::UnsupportedContentType,
                        type_loc.to_path(),
                        format!(
                            "content block type {} is not supported; use one of text, image, video, document",
                            quote(raw_type)
                        ),
                    )
                    .expected(CONTENT_TYPES)
                    .received(raw_type),
                );
                None
            }
        }
    }

    fn media<'a>(&mut self, object: &'a Object<'_>, loc: Loc<'_>, kind: MediaKind) -> Option<ContentBlock<'a>> {
        let (type_name, known): (&str, &[&str]) = match kind {
            MediaKind::Image => ("image", &["type", "source"]),
            MediaKind::Video => ("video", &["type", "source"]),
            MediaKind::Document => ("document", &["type", "source", "name"]),
        };
        let source_loc = loc.key("source");
        let misused_key =
            ["image", "video", "document"].into_iter().find(|key| object.contains_key(key) && !known.contains(key));
        let source = match object.get("source") {
            Some(Json::Object(source)) => Some(source),
            Some(other) => {
                self.wrong_type(source_loc, "'source'", "object", other);
                None
            }
            None => {
                if let Some(key) = misused_key {
                    let example = object.get(key).map_or_else(String::new, corrected_source);
                    self.push(
                        Diagnostic::new(
                            Code::UseSourceField,
                            loc.key(key).to_path(),
                            format!(
                                "put the media under \"source\", not \"{key}\": {{\"type\": \"{type_name}\", \"source\": {example}}}"
                            ),
                        )
                        .expected(["source"])
                        .received(key),
                    );
                } else {
                    self.push(Diagnostic::new(
                        Code::MissingField,
                        source_loc.to_path(),
                        format!(
                            "the {type_name} block is missing 'source' ({{\"type\": \"base64\" or \"url\", \"format\": ..., \"data\": ...}})"
                        ),
                    ));
                }
                None
            }
        };
        // The misused key is already an error when it stands in for `source`.
        let what = format!("{} {type_name} block", a_or_an(type_name));
        self.ignore_keys_except(object, loc, known, &what, if source.is_none() { misused_key } else { None });
        let mut name_ok = true;
        let name = if matches!(kind, MediaKind::Document) {
            match self.optional_str(object, "name", loc, "the document block") {
                Field::Str(name) => Some(Cow::Borrowed(name)),
                Field::Absent => None,
                Field::Reported => {
                    name_ok = false;
                    None
                }
            }
        } else {
            None
        };
        let (format, source) = self.source(source?, source_loc, kind)?;
        if !name_ok {
            return None;
        }
        Some(match format {
            AnyFormat::Image(format) => ContentBlock::Image(Media { format, source }),
            AnyFormat::Video(format) => ContentBlock::Video(Media { format, source }),
            AnyFormat::Document(format) => ContentBlock::Document(model::Document { name, format, source }),
        })
    }

    fn format(&mut self, raw: &str, loc: Loc<'_>, kind: MediaKind) -> Option<AnyFormat> {
        let (format, normalized) = kind.parse(raw).map_or((None, false), |(f, n)| (Some(f), n));
        let (allowed, type_name) = (kind.formats(), kind.name());
        if let Some(format) = format {
            if normalized {
                self.push(
                    Diagnostic::new(
                        Code::FormatNormalized,
                        loc.to_path(),
                        format!("{type_name} format {} was read as '{}'", quote(raw), format.as_str()),
                    )
                    .expected([format.as_str()])
                    .received(raw),
                );
            }
            Some(format)
        } else {
            let hint = format::suggest(raw, allowed.iter().copied())
                .map_or_else(String::new, |s| format!(" (did you mean '{s}'?)"));
            self.push(
                Diagnostic::new(
                    Code::UnsupportedFormat,
                    loc.to_path(),
                    format!(
                        "{type_name} format {} is not supported; use one of {}{hint}",
                        quote(raw),
                        allowed.join(", ")
                    ),
                )
                .expected(allowed.iter().copied())
                .received(raw),
            );
            None
        }
    }

    fn source<'a>(&mut self, object: &'a Object<'_>, loc: Loc<'_>, kind: MediaKind) -> Option<(AnyFormat, Source<'a>)> {
        self.ignore_unknown_keys(object, loc, &["type", "format", "data"], "a source");
        let source_type = match self.required_str(object, "type", loc, "the source") {
            Field::Str(raw) => {
                let lower = raw.to_ascii_lowercase();
                if SOURCE_TYPES.contains(&lower.as_str()) {
                    Some(lower)
                } else {
                    self.push(
                        Diagnostic::new(
                            Code::UnsupportedSourceType,
                            loc.key("type").to_path(),
                            format!("source type {} is not supported; use base64 or url", quote(raw)),
                        )
                        .expected(SOURCE_TYPES)
                        .received(raw),
                    );
                    None
                }
            }
            Field::Absent | Field::Reported => None,
        };
        let format_loc = loc.key("format");
        let format = match self.required_str(object, "format", loc, "the source") {
            Field::Str(raw) => self.format(raw, format_loc, kind),
            Field::Absent | Field::Reported => None,
        };
        let data = self.required_nonblank(object, "data", loc, "the source");
        let data_loc = loc.key("data");
        let source = match (source_type.as_deref(), data) {
            (Some("base64"), Some(data)) => self.base64(data, data_loc, format_loc, format.as_ref()),
            (Some(_), Some(data)) => self.url(data, data_loc),
            _ => None,
        };
        Some((format?, source?))
    }

    fn base64<'a>(
        &mut self,
        data: &'a str,
        loc: Loc<'_>,
        format_loc: Loc<'_>,
        format: Option<&AnyFormat>,
    ) -> Option<Source<'a>> {
        let mut text = data;
        let mut prefix_len = 0;
        let mut mime = None;
        let leading = data.len() - data.trim_start_matches([' ', '\t', '\r', '\n']).len();
        if data.as_bytes().get(leading..leading + 5).is_some_and(|p| p.eq_ignore_ascii_case(b"data:")) {
            text = &data[leading..];
            let Some(comma) = text.find(',') else {
                self.push(Diagnostic::new(
                    Code::InvalidBase64,
                    loc.to_path(),
                    "the data starts with 'data:' but has no ',' before the payload; use data:<mime>;base64,<base64> or the bare base64",
                ));
                return None;
            };
            let header = &text[5..comma];
            let Some(media_type) = header
                .len()
                .checked_sub(7)
                .filter(|&i| header.is_char_boundary(i) && header[i..].eq_ignore_ascii_case(";base64"))
                .map(|i| &header[..i])
            else {
                self.push(Diagnostic::new(
                    Code::InvalidBase64,
                    loc.to_path(),
                    "the data is a data: URL that is not base64-encoded; use data:<mime>;base64,<base64> or the bare base64",
                ));
                return None;
            };
            self.push(Diagnostic::new(
                Code::DataUrlPrefixStripped,
                loc.to_path(),
                format!("the {} prefix was removed; send only the base64 text", quote(&format!("data:{header},"))),
            ));
            // `image/png;charset=x` names the type before its parameters.
            mime = media_type.split(';').next();
            prefix_len = leading + comma + 1;
            text = &text[comma + 1..];
        }
        // One vectorized pass decides the common case; only invalid text is searched for whitespace.
        let stripped = if base64::check(text).is_ok() { Cow::Borrowed(text) } else { base64::strip_whitespace(text) };
        if matches!(stripped, Cow::Owned(_)) {
            self.push(Diagnostic::new(
                Code::Base64WhitespaceRemoved,
                loc.to_path(),
                "spaces or line breaks inside the base64 data were removed",
            ));
        }
        if stripped.is_empty() {
            self.push(Diagnostic::new(Code::EmptyField, loc.to_path(), "the base64 data is empty"));
            return None;
        }
        if let Err(error) = base64::check(&stripped) {
            let to_original = |offset: usize| prefix_len + original_offset(text, offset);
            let message = match error {
                Base64Error::InvalidChar { offset, ch } => format!(
                    "the data is not valid base64: {} at offset {} is not in the base64 alphabet (A-Z, a-z, 0-9, +, /)",
                    quote_char(ch),
                    to_original(offset)
                ),
                Base64Error::MisplacedPadding { offset } => format!(
                    "the data is not valid base64: padding '=' at offset {} may only end the data, at most twice",
                    to_original(offset)
                ),
                Base64Error::BadLength { len } => format!(
                    "the data is not valid base64: its length without whitespace ({len}) is not a multiple of 4 (is padding '=' missing?), at offset {}",
                    to_original(len.min(stripped.len()))
                ),
            };
            self.push(Diagnostic::new(Code::InvalidBase64, loc.to_path(), message));
            return None;
        }
        if let Some(format) = format {
            let declared = format.as_str();
            let mime_formats = mime.map(format::formats_for_mime).unwrap_or_default();
            if !mime_formats.is_empty() && !mime_formats.contains(&declared) {
                let what = format!("the data: URL says '{}'", mime.unwrap_or_default());
                self.format_mismatch(format_loc, format, &what, &mime_formats);
                return None;
            }
            let head = base64::decode_head(&stripped, format::SNIFF_LEN);
            if let Some(signature) = Signature::sniff(&head)
                && !signature.formats().contains(&declared)
            {
                let what = format!("the data looks like {}", signature.describe());
                self.format_mismatch(format_loc, format, &what, signature.formats());
                return None;
            }
        }
        Some(Source::Base64(stripped))
    }

    /// The data is of `actual` formats but `format` is declared. When the block type cannot
    /// carry the actual format at all, the fix is another block type, not another format.
    fn format_mismatch(&mut self, loc: Loc<'_>, format: &AnyFormat, what: &str, actual: &[&'static str]) {
        let declared = format.as_str();
        let fitting: Vec<&str> = actual.iter().copied().filter(|f| format.kind().formats().contains(f)).collect();
        let message = match fitting.first() {
            Some(first) => format!("{what} but format is '{declared}'; set format to '{first}' or send the right file"),
            None => format!(
                "{what}, which {} {} block cannot carry; send it in a block of the right type (format '{}')",
                a_or_an(format.kind().name()),
                format.kind().name(),
                actual.first().copied().unwrap_or_default()
            ),
        };
        self.push(Diagnostic::new(Code::FormatMismatch, loc.to_path(), message).expected(fitting).received(declared));
    }

    fn url<'a>(&mut self, data: &'a str, loc: Loc<'_>) -> Option<Source<'a>> {
        let trimmed = data.trim();
        match url::check(trimmed) {
            Ok(_) => Some(Source::Url(url::normalize_scheme(trimmed))),
            Err(UrlError::Invalid(reason)) => {
                self.push(
                    Diagnostic::new(
                        Code::InvalidUrl,
                        loc.to_path(),
                        format!("{} is not a valid URL: {reason}", quote(data)),
                    )
                    .received(data.chars().take(200).collect::<String>()),
                );
                None
            }
            Err(UrlError::Scheme(scheme)) => {
                let hint = if scheme == "data" {
                    "; for inline data use a source of type \"base64\" with the base64 text as data"
                } else {
                    ""
                };
                self.push(
                    Diagnostic::new(
                        Code::UnsupportedUrlScheme,
                        loc.to_path(),
                        format!("URL scheme '{scheme}' is not supported; use https, http or s3{hint}"),
                    )
                    .expected(url::SCHEMES)
                    .received(scheme),
                );
                None
            }
        }
    }

    fn tool_call<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<ToolCall<'a>> {
        let Json::Object(object) = value else {
            self.wrong_type(loc, "a tool call", "object", value);
            return None;
        };
        self.ignore_unknown_keys(object, loc, &["id", "type", "function"], "a tool call");
        let id = self.required_nonblank(object, "id", loc, "the tool call");
        let kind = match self.optional_str(object, "type", loc, "the tool call") {
            Field::Str(kind) => Some(Cow::Borrowed(kind)),
            Field::Absent => Some(Cow::Borrowed("function")),
            Field::Reported => None,
        };
        let function_loc = loc.key("function");
        let function = match object.get("function") {
            Some(Json::Object(function)) => {
                self.ignore_unknown_keys(function, function_loc, &["name", "arguments"], "a tool call's function");
                let name = self.required_nonblank(function, "name", function_loc, "the tool call's function");
                let arguments = match self.required_str(function, "arguments", function_loc, "the tool call's function")
                {
                    Field::Str(arguments) => {
                        // Parsed for real (not skimmed): lone surrogates and out-of-range numbers
                        // only fail when decoded, and providers decode them.
                        let is_object = Document::parse(arguments).is_ok_and(|d| d.root.is_object());
                        if is_object {
                            Some(arguments)
                        } else {
                            self.push(Diagnostic::new(
                                Code::InvalidToolArguments,
                                function_loc.key("arguments").to_path(),
                                format!(
                                    "the tool call's arguments must be a string holding a JSON object, such as \"{{\\\"city\\\": \\\"Seattle\\\"}}\"; got {}",
                                    quote(arguments)
                                ),
                            ));
                            None
                        }
                    }
                    Field::Absent | Field::Reported => None,
                };
                name.zip(arguments)
            }
            Some(other) => {
                self.wrong_type(function_loc, "'function'", "object", other);
                None
            }
            None => {
                self.push(Diagnostic::new(
                    Code::MissingField,
                    function_loc.to_path(),
                    "the tool call is missing 'function' ({\"name\": ..., \"arguments\": \"{...}\"})",
                ));
                None
            }
        };
        let (name, arguments) = function?;
        Some(ToolCall {
            id: Cow::Borrowed(id?),
            kind: kind?,
            name: Cow::Borrowed(name),
            arguments: Cow::Borrowed(arguments),
        })
    }
}

/// The offset in `original` of the `n`th byte once whitespace is removed.
fn original_offset(original: &str, n: usize) -> usize {
    let mut seen = 0;
    for (i, b) in original.bytes().enumerate() {
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            continue;
        }
        if seen == n {
            return i;
        }
        seen += 1;
    }
    original.len()
}

fn quote_char(ch: char) -> String {
    if ch.is_control() || ch.is_whitespace() { format!("character U+{:04X}", ch as u32) } else { format!("'{ch}'") }
}

/// The misplaced media object rewritten as a `source`, for the corrected block a message shows:
/// long strings shortened, a source `type` added when missing, and Bedrock's own shape
/// (`{"format", "source": {"bytes" | "s3Location"}}`) translated.
fn corrected_source(value: &Json<'_>) -> String {
    fn shorten(value: &Value) -> Value {
        match value {
            Value::String(s) if s.chars().count() > 24 => {
                Value::String(format!("{}…", s.chars().take(24).collect::<String>()))
            }
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), shorten(v))).collect()),
            Value::Array(items) => Value::Array(items.iter().map(shorten).collect()),
            other => other.clone(),
        }
    }
    let Value::Object(given) = shorten(&value.to_value()) else {
        return "{\"type\": \"base64\", \"format\": ..., \"data\": ...}".to_string();
    };
    let mut source = Map::new();
    let bedrock = given.get("source").and_then(Value::as_object);
    let bytes = bedrock.and_then(|s| s.get("bytes")).cloned();
    let s3 = bedrock.and_then(|s| s.get("s3Location")).and_then(|l| l.get("uri")).cloned();
    let data = given.get("data").cloned();
    let (kind, data) = match (bytes, s3, data) {
        (Some(bytes), _, _) => ("base64", Some(bytes)),
        (None, Some(uri), _) => ("url", Some(uri)),
        (None, None, Some(data)) => {
            let is_url = data.as_str().is_some_and(|d| d.contains("://"));
            (if is_url { "url" } else { "base64" }, Some(data))
        }
        (None, None, None) => ("base64", None),
    };
    let kind = given.get("type").cloned().unwrap_or_else(|| Value::String(kind.into()));
    source.insert("type".into(), kind);
    source.insert("format".into(), given.get("format").cloned().unwrap_or_else(|| Value::String("...".into())));
    source.insert("data".into(), data.unwrap_or_else(|| Value::String("...".into())));
    let text = Value::Object(source).to_string();
    if text.len() > 300 { "{...}".to_string() } else { text }
}
