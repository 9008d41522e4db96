//! Every problem the validator reports, one constructor each: the code, the sentence and the
//! `expected` / `received` / `limit` data of a problem are written here once, and the walking
//! modules say only *which* problem and *where*. A message changed here changes it everywhere it
//! is reported; `docs/errors.md` documents the codes.

use std::fmt;

use serde_json::{Map, Value};

use crate::base64::Base64Error;
use crate::diagnostic::{Code, Diagnostic};
use crate::field::Wording;
use crate::json::Json;
use crate::model::Role;
use crate::path::Path;
use crate::text::{a_or_an, quote, quote_char};
use crate::url;

use crate::json::PARSER_MAX_DEPTH;

// -- Limits and JSON (contract §4)

pub(super) fn too_large(len: usize, max: usize) -> Diagnostic {
    Diagnostic::new(Code::TooLarge, Path::root(), format!("the request is {len} bytes, over the limit of {max} bytes"))
        .limit(max as u64, len as u64)
}

/// Text nested deeper than `serde_json` parses; `effective` is the limit that applied.
pub(super) fn too_deep_to_parse(effective: usize, line: usize, column: usize) -> Diagnostic {
    Diagnostic::new(
        Code::TooDeep,
        Path::root(),
        format!("JSON is nested more than {effective} levels deep (at line {line}, column {column})"),
    )
    .limit(effective as u64, PARSER_MAX_DEPTH as u64 + 1)
}

pub(super) fn too_deep(max_depth: usize, depth: usize) -> Diagnostic {
    Diagnostic::new(Code::TooDeep, Path::root(), format!("JSON is nested more than {max_depth} levels deep"))
        .limit(max_depth as u64, depth as u64)
}

pub(super) fn invalid_json(description: &str, line: usize, column: usize) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidJson,
        Path::root(),
        format!("the request is not valid JSON: {description} at line {line}, column {column}"),
    )
}

pub(super) fn too_many(at: Path, len: usize, limit: usize, what: &str) -> Diagnostic {
    Diagnostic::new(Code::TooMany, at, format!("{len} {what} is over the limit of {limit}"))
        .limit(limit as u64, len as u64)
}

// -- Fields of any object

/// `what` (a field, described) is a `found` where an `expected` is needed.
pub(super) fn invalid_field_type(at: Path, what: &str, expected: &str, found: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidFieldType,
        at,
        format!("{what} must be {} {expected}, not {} {found}", a_or_an(expected), a_or_an(found)),
    )
    .expected([expected])
    .received(found)
}

/// The validator's [`Wording`] for the fields of `what` ("the source", "the tool call").
#[derive(Debug, Clone, Copy)]
pub(super) struct FieldsOf<'w>(pub(super) &'w str);

impl Wording for FieldsOf<'_> {
    fn missing(&self, field: Path, key: &str) -> Diagnostic {
        Diagnostic::new(Code::MissingField, field, format!("{} is missing '{key}'", self.0))
    }

    fn wrong_type(&self, field: Path, key: &str, expected: &'static str, found: &'static str) -> Diagnostic {
        invalid_field_type(field, &format!("'{key}' of {}", self.0), expected, found)
    }
}

pub(super) fn empty_field(at: Path, key: &str, what: &str) -> Diagnostic {
    Diagnostic::new(Code::EmptyField, at, format!("'{key}' of {what} is empty"))
}

/// An object of the input, as the messages about its keys name it.
#[derive(Debug, Clone, Copy)]
pub(super) enum Subject<'r> {
    /// The request body.
    Request,
    /// A text block.
    TextBlock,
    /// An image, video or document block (the block type).
    MediaBlock(&'static str),
    /// A message of this role.
    Message(&'r Role<'r>),
    /// A media block's `source`.
    Source,
    /// An item of `toolCalls`.
    ToolCall,
    /// A tool call's `function`.
    ToolFunction,
    /// An assistant message's `reasoningState`.
    ReasoningState,
    /// A `provider_item` block.
    ProviderItem,
    /// A message's `providerFields`, or one of its items.
    ProviderFields,
}

impl fmt::Display for Subject<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Subject::Request => f.write_str("the execute request"),
            Subject::TextBlock => f.write_str("a text block"),
            Subject::MediaBlock(block_type) => write!(f, "{} {block_type} block", a_or_an(block_type)),
            Subject::Message(Role::Assistant) => f.write_str("an assistant message"),
            Subject::Message(Role::Tool) => f.write_str("a tool message"),
            Subject::Message(role) => write!(f, "a '{}' message", role.as_str()),
            Subject::Source => f.write_str("a source"),
            Subject::ToolCall => f.write_str("a tool call"),
            Subject::ToolFunction => f.write_str("a tool call's function"),
            Subject::ReasoningState => f.write_str("a reasoning state"),
            Subject::ProviderItem => f.write_str("a provider_item block"),
            Subject::ProviderFields => f.write_str("provider fields"),
        }
    }
}

/// Unknown key `key` of `what`, whose fields are `known`.
pub(super) fn field_ignored(at: Path, key: &str, known: &[&str], what: Subject<'_>) -> Diagnostic {
    let message =
        format!("{} is not a field of {what} and is ignored; the fields are {}", quote(key), known.join(", "));
    Diagnostic::new(Code::FieldIgnored, at, message).expected(known.iter().copied()).received(key)
}

/// `rest` more unknown keys than were reported one by one.
pub(super) fn more_fields_ignored(at: Path, rest: usize, what: Subject<'_>) -> Diagnostic {
    Diagnostic::new(Code::FieldIgnored, at, format!("{rest} more unknown keys of {what} are ignored"))
}

// -- The envelope (contract §2)

pub(super) fn question_ignored(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::QuestionIgnored,
        at,
        "both 'input' and 'parameters.question' are given; 'input' is used and 'parameters.question' is ignored (it is deprecated)",
    )
}

pub(super) fn blank_question(at: Path) -> Diagnostic {
    Diagnostic::new(Code::EmptyInput, at, "'parameters.question' is blank; give the question text")
}

pub(super) fn missing_input(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::MissingInput,
        at,
        "the request has no input: add \"input\" (text, content blocks or messages) or the legacy \"parameters\": {\"question\": \"...\"}",
    )
}

pub(super) fn missing_input_prompt_only(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::MissingInput,
        at,
        "the request has no input: \"parameters.prompt\" is the input only for an agent with a parameters_schema (contract §8); add \"input\" (text, content blocks or messages) or the legacy \"parameters\": {\"question\": \"...\"}",
    )
}

// -- The three input forms (contract §3)

pub(super) fn blank_input_text(at: Path) -> Diagnostic {
    Diagnostic::new(Code::EmptyInput, at, "the input text is blank; give the text to send")
}

pub(super) fn invalid_input_type(at: Path, found: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidInputType,
        at,
        format!(
            "the input must be a string, an array of content blocks, or an array of messages, not {} {found}",
            a_or_an(found)
        ),
    )
    .expected(["string", "array"])
    .received(found)
}

pub(super) fn empty_input_array(at: Path) -> Diagnostic {
    Diagnostic::new(Code::EmptyInput, at, "the input array is empty; give at least one content block or message")
}

/// An input item that is neither a message nor a content block; `found` is its JSON type.
pub(super) fn invalid_item(at: Path, found: &str) -> Diagnostic {
    let message = if found == "object" {
        "this item has neither 'role' (a message) nor 'type' (a content block)".to_string()
    } else {
        format!("input items must be objects (content blocks or messages), not {} {found}", a_or_an(found))
    };
    Diagnostic::new(Code::InvalidItem, at, message).received(found)
}

/// Item `index` is `got` ("a message") in an array the first item made one of `expected`.
pub(super) fn mixed_array(at: Path, index: usize, expected: &str, got: &str) -> Diagnostic {
    Diagnostic::new(
        Code::MixedArray,
        at,
        format!(
            "the input array mixes kinds: the first item makes it an array of {expected}, but item {index} is {got}; send either all content blocks or all messages"
        ),
    )
    .expected([expected])
    .received(got)
}

// -- Messages (contract §3, Messages)

pub(super) fn empty_role(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidRole,
        at,
        "the message role is empty; use user, assistant, system, tool or another name",
    )
    .received("")
}

pub(super) fn role_not_a_string(at: Path, found: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidRole,
        at,
        format!("the message role must be a non-empty string, not {} {found}", a_or_an(found)),
    )
    .expected(["string"])
    .received(found)
}

pub(super) fn missing_role(at: Path) -> Diagnostic {
    Diagnostic::new(Code::MissingField, at, "the message is missing 'role'")
}

/// A message of `role` without `content` (an assistant: without `toolCalls` either).
pub(super) fn missing_content(at: Path, role: &Role<'_>) -> Diagnostic {
    let message = if *role == Role::Assistant {
        "an assistant message needs 'content' or 'toolCalls'".to_string()
    } else {
        format!("a '{}' message needs 'content' (an array of content blocks)", role.as_str())
    };
    Diagnostic::new(Code::MissingField, at, message)
}

/// A message of `role` with an empty `content` (an assistant: and no tool call).
pub(super) fn empty_content(at: Path, role: &Role<'_>) -> Diagnostic {
    let message = if *role == Role::Assistant {
        "an assistant message needs at least one content block or a tool call".to_string()
    } else {
        format!("a '{}' message needs at least one content block", role.as_str())
    };
    Diagnostic::new(Code::EmptyContent, at, message)
}

pub(super) fn last_message_role(at: Path, role: &str, allow_prefill: bool) -> Diagnostic {
    let expected: &[&str] = if allow_prefill { &["user", "tool", "assistant"] } else { &["user", "tool"] };
    Diagnostic::new(
        Code::LastMessageRole,
        at,
        format!("the last message must be from role 'user' or 'tool' (the agent answers it), not {}", quote(role)),
    )
    .expected(expected.iter().copied())
    .received(role)
}

/// A `reasoningState` whose `provider` is not one of the five: kept by nobody.
pub(super) fn reasoning_state_unknown_provider(at: Path, provider: &str) -> Diagnostic {
    let known: Vec<&str> = crate::ProviderId::ALL.iter().map(|p| p.as_str()).collect();
    Diagnostic::new(
        Code::FieldIgnored,
        at,
        format!(
            "the reasoning state names {} as its provider, which is not one of {}; it is ignored",
            quote(provider),
            known.join(", ")
        ),
    )
    .expected(known)
    .received(provider)
}

// -- Content blocks (contract §3, Content blocks)

/// A `provider_item` block or provider fields whose `provider` is not one of the five: no
/// provider reads them. `source` ends "name the one …": "the item came from".
pub(super) fn unknown_provider(at: Path, provider: &str, source: &str) -> Diagnostic {
    let known: Vec<&str> = crate::ProviderId::ALL.iter().map(|p| p.as_str()).collect();
    Diagnostic::new(
        Code::UnknownProvider,
        at,
        format!("{} is not one of the providers {}; name the one {source}", quote(provider), known.join(", ")),
    )
    .expected(known)
    .received(provider)
}

/// A provider fields item whose `on` is not an element's index.
pub(super) fn provider_fields_item_on(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidFieldType,
        at,
        "'on' must be a whole number from 0: the index of the message's element the fields belong to (its content blocks, then its tool calls)",
    )
}

/// A `provider_item` block where the input goes to an ml-commons cluster, which reads only the
/// four standard block types.
pub(crate) fn provider_item_for_ml_commons(at: Path, kind: &str) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedContentType,
        at,
        format!(
            "ml-commons takes no provider items: send this {} item through agent-gateway's own provider, or leave it out. ml-commons fails here: No enum constant org.opensearch.ml.common.input.execute.agent.ContentType.PROVIDER_ITEM",
            quote(kind)
        ),
    )
    .expected(CONTENT_TYPES.iter().copied())
    .received("provider_item")
}

const CONTENT_TYPES: [&str; 4] = ["text", "image", "video", "document"];

pub(super) fn message_in_content(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidItem,
        at,
        "a message cannot be nested inside 'content'; content holds content blocks ({\"type\": \"text\", ...})",
    )
    .received("message")
}

pub(super) fn block_missing_type(at: Path) -> Diagnostic {
    Diagnostic::new(Code::MissingField, at, "the content block is missing 'type' (text, image, video or document)")
}

/// A `content` item of JSON type `found` (not an object).
pub(super) fn content_item_not_object(at: Path, found: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidItem,
        at,
        format!("content items must be content block objects, not {} {found}", a_or_an(found)),
    )
    .received(found)
}

pub(super) fn empty_text(at: Path) -> Diagnostic {
    Diagnostic::new(Code::EmptyText, at, "the text block's text is blank; remove the block or give it text")
}

pub(super) fn unsupported_content_type(at: Path, raw: &str, supported: &[&str]) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedContentType,
        at,
        format!("content block type {} is not supported; use one of text, image, video, document", quote(raw)),
    )
    .expected(supported.iter().copied())
    .received(raw)
}

/// Media under `key` instead of `source`; the message shows the block corrected from `misplaced`.
pub(super) fn use_source_field(at: Path, key: &str, block_type: &str, misplaced: Option<&Json<'_>>) -> Diagnostic {
    let example = misplaced.map_or_else(String::new, corrected_source);
    Diagnostic::new(
        Code::UseSourceField,
        at,
        format!("put the media under \"source\", not \"{key}\": {{\"type\": \"{block_type}\", \"source\": {example}}}"),
    )
    .expected(["source"])
    .received(key)
}

pub(super) fn missing_source(at: Path, block_type: &str) -> Diagnostic {
    Diagnostic::new(
        Code::MissingField,
        at,
        format!(
            "the {block_type} block is missing 'source' ({{\"type\": \"base64\" or \"url\", \"format\": ..., \"data\": ...}})"
        ),
    )
}

// -- Formats (contract §3, the format table)

pub(super) fn format_normalized(at: Path, block_type: &str, raw: &str, read_as: &str) -> Diagnostic {
    Diagnostic::new(Code::FormatNormalized, at, format!("{block_type} format {} was read as '{read_as}'", quote(raw)))
        .expected([read_as])
        .received(raw)
}

pub(super) fn unsupported_format(
    at: Path,
    block_type: &str,
    raw: &str,
    allowed: &[&str],
    suggestion: Option<&str>,
) -> Diagnostic {
    let hint = suggestion.map_or_else(String::new, |s| format!(" (did you mean '{s}'?)"));
    Diagnostic::new(
        Code::UnsupportedFormat,
        at,
        format!("{block_type} format {} is not supported; use one of {}{hint}", quote(raw), allowed.join(", ")),
    )
    .expected(allowed.iter().copied())
    .received(raw)
}

/// How the real format of base64 data is known.
#[derive(Debug, Clone, Copy)]
pub(super) enum Evidence<'e> {
    /// The MIME type of its `data:` URL prefix.
    Mime(&'e str),
    /// Its first bytes, described ("a PNG image").
    Signature(&'e str),
}

impl fmt::Display for Evidence<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Evidence::Mime(mime) => write!(f, "the data: URL says '{mime}'"),
            Evidence::Signature(looks_like) => write!(f, "the data looks like {looks_like}"),
        }
    }
}

/// The data is of other formats than `declared`, as `what` shows. `fitting` are the formats the
/// block type can take (the fix is the first); when none, the fix is a block of another type,
/// for `actual` data.
pub(super) fn format_mismatch(
    at: Path,
    what: Evidence<'_>,
    declared: &str,
    fitting: Vec<&str>,
    block_type: &str,
    actual: &str,
) -> Diagnostic {
    let message = match fitting.first() {
        Some(first) => format!("{what} but format is '{declared}'; set format to '{first}' or send the right file"),
        None => format!(
            "{what}, which {} {block_type} block cannot carry; send it in a block of the right type (format '{actual}')",
            a_or_an(block_type),
        ),
    };
    Diagnostic::new(Code::FormatMismatch, at, message).expected(fitting).received(declared)
}

// -- Sources (contract §3, Sources)

pub(super) fn unsupported_source_type(at: Path, raw: &str, supported: &[&str]) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedSourceType,
        at,
        format!("source type {} is not supported; use base64 or url", quote(raw)),
    )
    .expected(supported.iter().copied())
    .received(raw)
}

pub(super) fn data_url_without_comma(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidBase64,
        at,
        "the data starts with 'data:' but has no ',' before the payload; use data:<mime>;base64,<base64> or the bare base64",
    )
}

pub(super) fn data_url_not_base64(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidBase64,
        at,
        "the data is a data: URL that is not base64-encoded; use data:<mime>;base64,<base64> or the bare base64",
    )
}

/// The `data:<header>,` prefix was removed.
pub(super) fn data_url_prefix_stripped(at: Path, header: &str) -> Diagnostic {
    Diagnostic::new(
        Code::DataUrlPrefixStripped,
        at,
        format!("the {} prefix was removed; send only the base64 text", quote(&format!("data:{header},"))),
    )
}

pub(super) fn base64_whitespace_removed(at: Path) -> Diagnostic {
    Diagnostic::new(Code::Base64WhitespaceRemoved, at, "spaces or line breaks inside the base64 data were removed")
}

pub(super) fn empty_base64(at: Path) -> Diagnostic {
    Diagnostic::new(Code::EmptyField, at, "the base64 data is empty")
}

/// `error` found in the data; `offset` is where, in the data as sent.
pub(super) fn invalid_base64(at: Path, error: Base64Error, offset: usize) -> Diagnostic {
    let message = match error {
        Base64Error::InvalidChar { ch, .. } => format!(
            "the data is not valid base64: {} at offset {offset} is not in the base64 alphabet (A-Z, a-z, 0-9, +, /)",
            quote_char(ch)
        ),
        Base64Error::MisplacedPadding { .. } => {
            format!("the data is not valid base64: padding '=' at offset {offset} may only end the data, at most twice")
        }
        Base64Error::BadLength { len } => format!(
            "the data is not valid base64: its length without whitespace ({len}) is not a multiple of 4 (is padding '=' missing?), at offset {offset}"
        ),
    };
    Diagnostic::new(Code::InvalidBase64, at, message)
}

pub(super) fn invalid_url(at: Path, data: &str, reason: &str) -> Diagnostic {
    Diagnostic::new(Code::InvalidUrl, at, format!("{} is not a valid URL: {reason}", quote(data)))
        .received(data.chars().take(200).collect::<String>())
}

pub(super) fn unsupported_url_scheme(at: Path, scheme: &str) -> Diagnostic {
    let hint = if scheme == "data" {
        "; for inline data use a source of type \"base64\" with the base64 text as data"
    } else {
        ""
    };
    Diagnostic::new(
        Code::UnsupportedUrlScheme,
        at,
        format!("URL scheme '{scheme}' is not supported; use https, http or s3{hint}"),
    )
    .expected(url::SCHEMES)
    .received(scheme)
}

// -- Tool calls (contract §3, Messages)

pub(super) fn invalid_tool_arguments(at: Path, arguments: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidToolArguments,
        at,
        format!(
            "the tool call's arguments must be a string holding a JSON object, such as \"{{\\\"city\\\": \\\"Seattle\\\"}}\"; got {}",
            quote(arguments)
        ),
    )
}

pub(super) fn invalid_result_format(at: Path, found: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidToolResult,
        at,
        format!("a tool message's resultFormat is \"json\" (its text blocks hold JSON) or absent; got {found}"),
    )
}

pub(super) fn result_not_json(at: Path, text: &str) -> Diagnostic {
    Diagnostic::new(
        Code::InvalidToolResult,
        at,
        format!(
            "with \"resultFormat\": \"json\" each text block holds JSON, such as {{\"temperature\": 71}}; got {}",
            quote(text)
        ),
    )
}

pub(super) fn tool_call_missing_function(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::MissingField,
        at,
        "the tool call is missing 'function' ({\"name\": ..., \"arguments\": \"{...}\"})",
    )
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
    let wire = given.get("source").and_then(Value::as_object);
    let bytes = wire.and_then(|s| s.get("bytes")).cloned();
    let s3 = wire.and_then(|s| s.get("s3Location")).and_then(|l| l.get("uri")).cloned();
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
    let text = crate::json::compact(&Value::Object(source));
    if text.len() > 300 { "{...}".to_string() } else { text }
}

// -- ml-commons' template substitution (contract §9)

/// The placeholders written in `text` (`${parameters.region}`, `${x}`), at most a few.
fn placeholders_in(text: &str) -> Vec<&str> {
    let mut found = Vec::new();
    for (start, _) in text.match_indices("${").take(5) {
        let rest = &text[start..];
        let end = rest.find('}').map_or(rest.len().min(40), |end| end + 1);
        // Cut at a char boundary: the placeholder is quoted, not the whole text.
        let end = (0..=end.min(60)).rev().find(|&i| rest.is_char_boundary(i)).unwrap_or(0);
        found.push(&rest[..end]);
    }
    found
}

pub(super) fn template_placeholder(at: Path, text: &str) -> Diagnostic {
    let written = placeholders_in(text);
    let substituted = written.iter().any(|p| p.starts_with("${parameters."));
    let what = if substituted {
        "ml-commons fills `${parameters.NAME}` written in the user's text with the agent's or connector's parameter NAME before the model sees it (ml-commons issue 5036, open): the text can pull configuration into the prompt, an unknown NAME fails the call (\"Some parameter placeholder not filled in payload\"), and `${parameters.question}` loops"
    } else {
        "ml-commons builds the model's request from templates whose placeholders are written `${...}`, and its substitutor reads the user's text too (ml-commons issue 5036, open)"
    };
    Diagnostic::new(
        Code::TemplatePlaceholder,
        at,
        format!(
            "{} in this text: {what}; no escape survives both of its substitutions, so reword it (for example `$ {{` or `{{parameters...}}` without the `$`). agent-input and agent-gateway never substitute",
            written.join(", ")
        ),
    )
    .received(written.join(", "))
}

/// `rest` more strings with placeholders than were reported one by one.
pub(super) fn more_template_placeholders(at: Path, rest: usize) -> Diagnostic {
    Diagnostic::new(
        Code::TemplatePlaceholder,
        at,
        format!("{rest} more strings of the input hold `${{`, which ml-commons would substitute; reword them"),
    )
}
