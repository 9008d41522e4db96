//! Checks and wire pieces the converters other than Bedrock share: option ranges, tool specs,
//! tool call / tool result pairing, URL policy, and `data:` URLs.

use std::collections::HashSet;
use std::fmt;

use serde::Serialize;
use serde_json::Value;

use super::{ConvertOptions, DEFAULT_MAX_TOKENS, ProviderId, ToolSpec, Turn, option_path};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{ContentBlock, Role, Source};
use crate::path::Path;
use crate::url::{self, Scheme};
use crate::validate::quote;

/// The schema of a tool that takes no arguments, used when a spec gives none.
pub(crate) static EMPTY_SCHEMA: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| serde_json::json!({"type": "object", "properties": {}}));

/// `data:<mime>;base64,<data>`, written straight into the body without an intermediate string.
#[derive(Debug, Clone, Copy)]
pub struct DataUrl<'a> {
    /// The MIME type.
    pub mime: &'static str,
    /// Standard base64.
    pub data: &'a str,
}

impl fmt::Display for DataUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("data:")?;
        f.write_str(self.mime)?;
        f.write_str(";base64,")?;
        f.write_str(self.data)
    }
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        plain_string(serializer, &["data:", self.mime, ";base64,", self.data])
    }
}

/// Base64 data as a JSON string, written like [`DataUrl`]: megabytes copied once, not escaped.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a>(pub &'a str);

impl Serialize for Payload<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        plain_string(serializer, &[self.0])
    }
}

/// Serializes `parts`, joined, as one JSON string. A large one (base64 media) that needs no
/// escaping is handed over as a raw JSON literal: `serde_json`'s escape scan goes a byte at a time,
/// which in WebAssembly made media requests several times slower than the copy.
pub(crate) fn plain_string<S: serde::Serializer>(serializer: S, parts: &[&str]) -> Result<S::Ok, S::Error> {
    const RAW_FROM: usize = 16 * 1024;
    let len = parts.iter().map(|part| part.len()).sum::<usize>();
    let unescaped = |part: &&str| {
        if part.len() >= RAW_FROM {
            crate::base64::is_json_safe_alphabet(part)
        } else {
            part.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\')
        }
    };
    if len < RAW_FROM || !parts.iter().all(unescaped) {
        let mut text = String::with_capacity(len);
        for part in parts {
            text.push_str(part);
        }
        return serializer.serialize_str(&text);
    }
    let mut literal = String::with_capacity(len + 2);
    literal.push('"');
    for part in parts {
        literal.push_str(part);
    }
    literal.push('"');
    // SAFETY: `literal` is a quote, characters none of which JSON escapes (checked just above:
    // no control character, quote or backslash), and a quote: one well-formed JSON string.
    #[allow(unsafe_code)]
    let raw = unsafe { serde_json::value::RawValue::from_string_unchecked(literal) };
    raw.serialize(serializer)
}

/// The conversion context of one request for one provider.
pub(crate) struct Cx<'p> {
    pub(crate) provider: ProviderId,
    pub(crate) base: &'p Path,
    pub(crate) report: Report,
}

/// Letters, digits, `_` and `-`, 1 to 64 of them: the tool name rule of `OpenAI` and Anthropic.
pub(crate) fn is_plain_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Where a tool call of the history sits, for pairing checks and lookups.
#[derive(Debug, Clone)]
pub(crate) struct CallSite<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'a str,
}

impl<'p> Cx<'p> {
    pub(crate) fn new(provider: ProviderId, base: &'p Path) -> Self {
        Self { provider, base, report: Report::default() }
    }

    pub(crate) fn name(&self) -> &'static str {
        self.provider.display_name()
    }

    pub(crate) fn error(&mut self, diagnostic: Diagnostic) {
        self.report.push(diagnostic);
    }

    /// Content the provider cannot carry at all.
    pub(crate) fn unsupported(&mut self, path: Path, what: &str, instead: &str) {
        let message = format!("{} cannot take {what}; {instead}", self.name());
        self.error(Diagnostic::new(Code::UnsupportedByProvider, path, message));
    }

    /// `max_tokens` (default 4096), `temperature` in `0..=max_temperature`, `top_p` in `0..=1`,
    /// and at most `max_stops` non-empty stop sequences (`None`: the provider takes none).
    pub(crate) fn sampling(&mut self, options: &ConvertOptions, max_temperature: f64, max_stops: Option<usize>) -> u64 {
        let max_tokens = options.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
        if max_tokens == 0 || max_tokens > i32::MAX as u64 {
            self.error(
                Diagnostic::new(
                    Code::InvalidParameter,
                    option_path("max_tokens"),
                    format!("max_tokens must be at least 1 (and at most {}), not {max_tokens}", i32::MAX),
                )
                .received(max_tokens.to_string()),
            );
        }
        for (name, value, max) in [("temperature", options.temperature, max_temperature), ("top_p", options.top_p, 1.0)]
        {
            if let Some(value) = value
                && !(0.0..=max).contains(&value)
            {
                let range = format!("0..{}", super::number_text(max));
                self.error(
                    Diagnostic::new(
                        Code::InvalidParameter,
                        option_path(name),
                        format!(
                            "{name} must be between 0 and {} for {}, not {}",
                            super::number_text(max),
                            self.name(),
                            super::number_text(value)
                        ),
                    )
                    .expected([range])
                    .received(super::number_text(value)),
                );
            }
        }
        let stops = options.stop_sequences.len();
        match max_stops {
            None if stops > 0 => {
                let message = format!(
                    "{} has no stop sequences; remove stop_sequences or use a provider that takes them",
                    self.name()
                );
                self.error(Diagnostic::new(Code::UnsupportedByProvider, option_path("stop_sequences"), message));
            }
            Some(max) if stops > max => {
                let message = format!("{} takes at most {max} stop sequences, not {stops}", self.name());
                self.error(
                    Diagnostic::new(Code::InvalidParameter, option_path("stop_sequences"), message)
                        .limit(max as u64, stops as u64),
                );
            }
            _ => {}
        }
        for (i, stop) in options.stop_sequences.iter().enumerate() {
            if stop.is_empty() {
                self.error(Diagnostic::new(
                    Code::InvalidParameter,
                    option_path("stop_sequences").index(i),
                    "a stop sequence must not be empty",
                ));
            }
        }
        max_tokens
    }

    /// Checks tool specs: names by `valid` (described by `rule`), unique, object schemas.
    /// Returns each spec with its schema (an empty object schema when none is given).
    pub(crate) fn tools<'a>(
        &mut self,
        options: &'a ConvertOptions,
        valid: fn(&str) -> bool,
        rule: &str,
    ) -> Vec<(&'a ToolSpec, &'a Value)> {
        let mut seen = HashSet::new();
        let mut tools = Vec::with_capacity(options.tools.len());
        for (i, spec) in options.tools.iter().enumerate() {
            let path = option_path("tools").index(i);
            if !valid(&spec.name) {
                self.bad_tool_name(&spec.name, path.key("name"), rule);
            } else if !seen.insert(spec.name.as_str()) {
                self.error(
                    Diagnostic::new(
                        Code::InvalidForProvider,
                        path.key("name"),
                        format!("tool '{}' is given twice; tool names must be unique", spec.name),
                    )
                    .received(spec.name.clone()),
                );
            }
            let schema = match &spec.input_schema {
                None => &*EMPTY_SCHEMA,
                Some(schema @ Value::Object(map)) if map.get("type").and_then(Value::as_str) == Some("object") => {
                    schema
                }
                Some(other) => {
                    let json = crate::json::Json::from_value(other);
                    let message = format!(
                        "{} needs a tool's input_schema to be a JSON Schema object with \"type\": \"object\"; got {} {}",
                        self.name(),
                        crate::validate::a_or_an(json.type_name()),
                        json.type_name()
                    );
                    self.error(Diagnostic::new(Code::InvalidForProvider, path.key("input_schema"), message));
                    continue;
                }
            };
            tools.push((spec, schema));
        }
        tools
    }

    pub(crate) fn bad_tool_name(&mut self, name: &str, path: Path, rule: &str) {
        let message = format!("{} tool names must be {rule}; {} is not", self.name(), quote(name));
        self.error(Diagnostic::new(Code::InvalidForProvider, path, message).received(name));
    }

    /// A web URL source the provider fetches itself: `https`/`http` pass; `s3://` is refused.
    pub(crate) fn web_url(&mut self, url: &str, path: Path, what: &str) -> bool {
        match url::check(url) {
            Ok(Scheme::S3) => {
                let message = format!(
                    "{} cannot read s3:// URLs for {what}s; use an https URL (a presigned S3 URL works) or base64 data",
                    self.name()
                );
                self.error(Diagnostic::new(Code::UrlNotSupportedByProvider, path, message).received(url));
                false
            }
            // Validation accepted only https, http and s3.
            Ok(_) | Err(_) => true,
        }
    }

    /// A URL where the provider takes none.
    pub(crate) fn no_url(&mut self, url: &str, path: Path, what: &str) {
        let message = format!("{} cannot take a URL for {what}s; send the bytes as base64 data", self.name());
        self.error(Diagnostic::new(Code::UrlNotSupportedByProvider, path, message).received(url));
    }

    /// A role the provider has no place for.
    pub(crate) fn role_not_supported(&mut self, turn: &Turn<'_, '_>, roles: &[&str]) {
        let message = format!("{} has no role {}; use {}", self.name(), quote(turn.role.as_str()), roles.join(", "));
        self.error(
            Diagnostic::new(Code::RoleNotSupported, turn.origin.field_path(self.base, "role"), message)
                .expected(roles.iter().copied())
                .received(turn.role.as_str()),
        );
    }

    /// Media where the role takes only text.
    pub(crate) fn media_in_role(&mut self, turn: &Turn<'_, '_>, j: usize, block: &ContentBlock<'_>, place: &str) {
        let message = format!(
            "{} {place} hold only text, so this {} block from {} cannot be sent; move it into a user message",
            self.name(),
            block.type_name(),
            quote(turn.role.as_str())
        );
        self.error(Diagnostic::new(Code::MediaNotAllowedInRole, turn.origin.block_path(self.base, j), message));
    }

    /// The first non-system message must be the user's.
    pub(crate) fn first_is_user(&mut self, turns: &[Turn<'_, '_>]) {
        // Roles the provider lacks are reported on their own.
        let Some(first) = turns.iter().find(|t| matches!(t.role, Role::User | Role::Assistant | Role::Tool)) else {
            return;
        };
        if matches!(first.role, Role::User) {
            return;
        }
        let message = format!(
            "{} conversations must start with a user message, but the first non-system message is from {}",
            self.name(),
            quote(first.role.as_str())
        );
        self.error(
            Diagnostic::new(Code::FirstMessageNotUser, first.origin.field_path(self.base, "role"), message)
                .expected(["user"])
                .received(first.role.as_str()),
        );
    }

    /// Every provider here pairs tool calls and results the same way: the tool messages right
    /// after an assistant message with tool calls answer each of its calls exactly once.
    /// `system_breaks`: whether a system message between them breaks the pairing (it does where
    /// system messages stay in the conversation). Returns every call, for lookups by id.
    pub(crate) fn tool_pairs<'a>(&mut self, turns: &[Turn<'a, 'a>], system_breaks: bool) -> Vec<CallSite<'a>> {
        let mut calls = Vec::new();
        // Calls of the assistant message being answered: id, path, answered.
        let mut open: Vec<(&'a str, Path, bool)> = Vec::new();
        for turn in turns {
            match turn.role {
                Role::Tool => {
                    let id = turn.tool_call_id.unwrap_or_default();
                    let path = turn.origin.field_path(self.base, "toolCallId");
                    match open.iter_mut().find(|(call, _, _)| *call == id) {
                        Some((_, _, answered)) if !*answered => *answered = true,
                        found => {
                            let why = if found.is_some() {
                                "answers a tool call that was already answered"
                            } else {
                                "answers no tool call of the assistant message just before it"
                            };
                            let message = format!(
                                "this tool result ({}) {why}; {} needs each tool result right after the assistant message that made the call",
                                quote(id),
                                self.name()
                            );
                            self.error(Diagnostic::new(Code::UnmatchedToolResult, path, message).received(id));
                        }
                    }
                }
                Role::System if !system_breaks => {}
                _ => {
                    self.unanswered(&open);
                    open.clear();
                    for (k, call) in turn.tool_calls.iter().enumerate() {
                        let path = turn.origin.field_path(self.base, "toolCalls").index(k).key("id");
                        open.push((call.id.as_ref(), path, false));
                        calls.push(CallSite { id: call.id.as_ref(), name: call.name.as_ref() });
                    }
                }
            }
        }
        // A trailing assistant message with calls (a prefill) has no answers yet; only a
        // partly answered last group is incomplete.
        if open.iter().any(|(_, _, answered)| *answered) {
            self.unanswered(&open);
        }
        calls
    }

    fn unanswered(&mut self, open: &[(&str, Path, bool)]) {
        for (id, path, answered) in open {
            if !answered {
                let message = format!(
                    "tool call {} has no tool message answering it next; {} needs a tool message with this toolCallId right after the assistant message",
                    quote(id),
                    self.name()
                );
                self.error(Diagnostic::new(Code::UnansweredToolCall, path.clone(), message).received(*id));
            }
        }
    }

    /// A count limit, reported once at the first block over it.
    pub(crate) fn count(&mut self, n: u64, max: u64, what: &str, path: &dyn Fn() -> Path) {
        if n == max + 1 {
            let message = format!("{} accepts at most {max} {what}s in one request; this is {what} {n}", self.name());
            self.error(Diagnostic::new(Code::ProviderLimit, path(), message).limit(max, n));
        }
    }

    /// A decoded size limit of one base64 source.
    pub(crate) fn size(&mut self, source: &Source<'_>, max: u64, what: &str, path: &dyn Fn() -> Path) {
        if let Some(size) = source.decoded_len() {
            let size = size as u64;
            if size > max {
                let message = format!(
                    "{} accepts {what}s of at most {max} bytes; this one is {size} bytes. Shrink it or send it by URL",
                    self.name()
                );
                self.error(
                    Diagnostic::new(Code::ProviderLimit, path().key("source").key("data"), message).limit(max, size),
                );
            }
        }
    }

    /// A limit on the total of something over the request, reported at the input.
    pub(crate) fn total(&mut self, total: u64, max: u64, what: &str) {
        if total > max {
            let message = format!(
                "{} accepts at most {max} bytes of {what} in one request; this one has {total}. Send some of it by URL or in several requests",
                self.name()
            );
            self.error(Diagnostic::new(Code::ProviderLimit, self.base.clone(), message).limit(max, total));
        }
    }
}

/// The text of a tool message's content when it is only text; `Err(j)` names the first block
/// that is not.
pub(crate) fn tool_text<'a>(content: &'a [ContentBlock<'a>]) -> Result<Vec<&'a str>, usize> {
    content
        .iter()
        .enumerate()
        .map(|(j, block)| match block {
            ContentBlock::Text(text) => Ok(text.as_ref()),
            _ => Err(j),
        })
        .collect()
}

/// A file name for a document sent as a file: the given name (with the format's extension added
/// when it has none) or `document-N.<ext>`.
pub(crate) fn file_name(name: Option<&str>, extension: &str, n: usize) -> String {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) if name.to_ascii_lowercase().ends_with(&format!(".{extension}")) => name.to_string(),
        Some(name) => format!("{name}.{extension}"),
        None => format!("document-{n}.{extension}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{DataUrl, Payload};

    /// Raw or escaped, the JSON text must be what `serde_json` writes for the same string.
    #[test]
    fn payloads_serialize_as_the_plain_string_would() {
        let big = "QUJD".repeat(5_000);
        let cases = [
            (serde_json::to_string(&Payload("QUJD")), "QUJD".to_owned()),
            (serde_json::to_string(&Payload(&big)), big.clone()),
            (serde_json::to_string(&Payload(&format!("{big}\n\"x\\"))), format!("{big}\n\"x\\")),
            (serde_json::to_string(&DataUrl { mime: "image/png", data: &big }), format!("data:image/png;base64,{big}")),
            (
                serde_json::to_string(&DataUrl { mime: "image/png", data: "QQ==" }),
                "data:image/png;base64,QQ==".to_owned(),
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got.unwrap(), serde_json::to_string(&want).unwrap());
        }
        let value = serde_json::to_value(Payload(&big)).unwrap();
        assert_eq!(value, serde_json::Value::String(big));
    }
}
