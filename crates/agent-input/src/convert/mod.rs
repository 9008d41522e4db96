//! Conversion of a validated request into a provider's request body.
//!
//! One module per provider, each behind [`Provider`], each with typed wire structs. A converter
//! never drops content silently: what the provider cannot carry is an error naming the provider
//! and saying what to do instead.
//!
//! The checks providers share are written once: `conversion` (the conversion context, options,
//! tool specs, URLs, limits), `turns` (the messages as turns, roles, pairing, merging) and
//! `payload` (media in bodies). A provider module holds its wire structs, its `PROFILE` (what the
//! shared checks need to know about it: name, ranges, naming rules, roles) and its own rules.

pub mod anthropic_messages;
pub mod bedrock_converse;
mod conversion;
pub mod gemini;
pub mod mlcommons;
pub mod openai_chat;
pub mod openai_responses;
mod payload;
mod turns;

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::ExecuteRequest;
use crate::path::Path;

pub use anthropic_messages::AnthropicMessages;
pub use bedrock_converse::BedrockConverse;
pub use gemini::Gemini;
pub use openai_chat::OpenAiChat;
pub use openai_responses::OpenAiResponses;
pub use payload::DataUrl;

/// A provider's request format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProviderId {
    /// AWS Bedrock Runtime `Converse`.
    BedrockConverse,
    /// `OpenAI` Chat Completions.
    OpenAiChat,
    /// `OpenAI` Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    AnthropicMessages,
    /// Google Gemini `generateContent`.
    Gemini,
}

impl ProviderId {
    /// Every provider.
    pub const ALL: &'static [ProviderId] = &[
        ProviderId::BedrockConverse,
        ProviderId::OpenAiChat,
        ProviderId::OpenAiResponses,
        ProviderId::AnthropicMessages,
        ProviderId::Gemini,
    ];

    /// The id used by the CLI (`--to`) and the npm package (`provider`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::BedrockConverse => "bedrock-converse",
            Self::OpenAiChat => "openai-chat",
            Self::OpenAiResponses => "openai-responses",
            Self::AnthropicMessages => "anthropic-messages",
            Self::Gemini => "gemini",
        }
    }

    /// The name ml-commons uses in `model_provider`, if it has one.
    pub const fn ml_commons_name(self) -> Option<&'static str> {
        match self {
            Self::BedrockConverse => Some("bedrock/converse"),
            Self::OpenAiChat => Some("openai/v1/chat/completions"),
            Self::Gemini => Some("gemini/v1beta/generatecontent"),
            Self::OpenAiResponses | Self::AnthropicMessages => None,
        }
    }

    /// A human-readable name for messages.
    pub const fn display_name(self) -> &'static str {
        match self {
            Self::BedrockConverse => "Bedrock Converse",
            Self::OpenAiChat => "OpenAI Chat Completions",
            Self::OpenAiResponses => "OpenAI Responses",
            Self::AnthropicMessages => "Anthropic Messages",
            Self::Gemini => "Gemini",
        }
    }

    /// Reads an id or an ml-commons `model_provider` name, case-insensitively.
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|id| {
            raw.eq_ignore_ascii_case(id.as_str()) || id.ml_commons_name().is_some_and(|n| raw.eq_ignore_ascii_case(n))
        })
    }
}

impl fmt::Display for ProviderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one converter can carry: the rows of the capability matrix in `docs/providers.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// The provider.
    pub provider: ProviderId,
    /// Base64 images.
    pub image_base64: &'static str,
    /// Images by URL.
    pub image_url: &'static str,
    /// Base64 documents.
    pub document_base64: &'static str,
    /// Documents by URL.
    pub document_url: &'static str,
    /// Video.
    pub video: &'static str,
    /// `s3://` URLs.
    pub s3_urls: &'static str,
    /// Where system text goes.
    pub system: &'static str,
    /// Standard roles taken.
    pub roles: &'static str,
    /// Media in messages other than the user's.
    pub media_outside_user: &'static str,
    /// How tool results are carried.
    pub tool_results: &'static str,
    /// Count, size and option limits checked.
    pub limits: &'static str,
}

impl Capabilities {
    /// The matrix rows: a label and the field's value.
    pub const fn rows(&self) -> [(&'static str, &'static str); 11] {
        [
            ("image, base64", self.image_base64),
            ("image, URL", self.image_url),
            ("document, base64", self.document_base64),
            ("document, URL", self.document_url),
            ("video", self.video),
            ("`s3://` URLs", self.s3_urls),
            ("system text", self.system),
            ("roles", self.roles),
            ("media outside user messages", self.media_outside_user),
            ("tool results", self.tool_results),
            ("limits checked", self.limits),
        ]
    }
}

/// What a provider's converter can carry.
pub const fn capabilities(provider: ProviderId) -> &'static Capabilities {
    match provider {
        ProviderId::BedrockConverse => &bedrock_converse::CAPABILITIES,
        ProviderId::OpenAiChat => &openai_chat::CAPABILITIES,
        ProviderId::OpenAiResponses => &openai_responses::CAPABILITIES,
        ProviderId::AnthropicMessages => &anthropic_messages::CAPABILITIES,
        ProviderId::Gemini => &gemini::CAPABILITIES,
    }
}

/// A tool the model may call, as callers describe it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// The tool's name, as tool calls name it.
    pub name: String,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments; an empty object schema when absent.
    #[serde(default, alias = "inputSchema", skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
}

/// Provider-independent conversion settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ConvertOptions {
    /// A system prompt, placed before any system messages.
    pub system: Option<String>,
    /// Most tokens to generate (default 4096, as ml-commons).
    pub max_tokens: Option<u64>,
    /// Sampling temperature, 0 to 1.
    pub temperature: Option<f64>,
    /// Nucleus sampling, 0 to 1.
    pub top_p: Option<f64>,
    /// Strings that stop generation.
    pub stop_sequences: Vec<String>,
    /// Tool specs; required when the history holds tool calls or results.
    pub tools: Vec<ToolSpec>,
}

/// Default `max_tokens`, the value ml-commons' connectors use.
pub const DEFAULT_MAX_TOKENS: u64 = 4096;

/// A converted body and the warnings produced on the way.
#[derive(Debug, Clone)]
pub struct Converted<T> {
    /// The provider request body.
    pub body: T,
    /// What was changed to fit the provider.
    pub warnings: Vec<Diagnostic>,
}

/// A provider request format: standard input in, typed request body out.
pub trait Provider {
    /// Which provider this is.
    const ID: ProviderId;
    /// The request body's wire type.
    type Request<'a>: Serialize;

    /// Converts a validated request.
    ///
    /// # Errors
    /// Every problem the provider would reject, each with the path of the offending part.
    fn convert<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
    ) -> Result<Converted<Self::Request<'a>>, Report>;
}

/// The provider's own checks of conversion options (ranges, tool names and schemas), without
/// converting anything: for checking options where they are configured (an agent's registration).
pub fn check_options(provider: ProviderId, options: &ConvertOptions) -> Report {
    conversion::check_options(profile(provider), options)
}

/// The provider's data for the shared checks.
const fn profile(provider: ProviderId) -> &'static conversion::Profile {
    match provider {
        ProviderId::BedrockConverse => &bedrock_converse::PROFILE,
        ProviderId::OpenAiChat => &openai_chat::PROFILE,
        ProviderId::OpenAiResponses => &openai_responses::PROFILE,
        ProviderId::AnthropicMessages => &anthropic_messages::PROFILE,
        ProviderId::Gemini => &gemini::PROFILE,
    }
}

/// Converts with the provider chosen at run time and returns the body as JSON.
pub fn convert_to_value(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
) -> Result<Converted<Value>, Report> {
    fn to_value<P: Provider>(
        request: &ExecuteRequest<'_>,
        options: &ConvertOptions,
    ) -> Result<Converted<Value>, Report> {
        let converted = P::convert(request, options)?;
        let body = serde_json::to_value(&converted.body).map_err(|e| serialize_failure(P::ID, &e))?;
        Ok(Converted { body, warnings: converted.warnings })
    }
    match provider {
        ProviderId::BedrockConverse => to_value::<BedrockConverse>(request, options),
        ProviderId::OpenAiChat => to_value::<OpenAiChat>(request, options),
        ProviderId::OpenAiResponses => to_value::<OpenAiResponses>(request, options),
        ProviderId::AnthropicMessages => to_value::<AnthropicMessages>(request, options),
        ProviderId::Gemini => to_value::<Gemini>(request, options),
    }
}

/// Converts with the provider chosen at run time and returns the body as JSON text.
pub fn convert_to_string(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    pretty: bool,
) -> Result<Converted<String>, Report> {
    let mut body = String::new();
    let warnings = convert_into(provider, request, options, pretty, &mut body)?;
    Ok(Converted { body, warnings })
}

/// Converts and writes the body as JSON text into `out` (cleared first), returning the warnings.
/// Reusing `out` across calls saves allocating, and first touching, a fresh buffer the size of
/// the body each time — for multi-megabyte media that is most of the cost.
pub fn convert_into(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    pretty: bool,
    out: &mut String,
) -> Result<Vec<Diagnostic>, Report> {
    fn write<P: Provider>(
        request: &ExecuteRequest<'_>,
        options: &ConvertOptions,
        pretty: bool,
        out: &mut String,
    ) -> Result<Vec<Diagnostic>, Report> {
        let converted = P::convert(request, options)?;
        let mut buffer = std::mem::take(out).into_bytes();
        buffer.clear();
        // The body is about as large as the media it carries; size the buffer once.
        buffer.reserve(request.input.payload_len() + 4096);
        // Always written compact, then indented as text: one serializer per wire type instead of
        // two keeps the WebAssembly build small.
        serde_json::to_writer(&mut buffer, &converted.body).map_err(|e| serialize_failure(P::ID, &e))?;
        let text = String::from_utf8(buffer).map_err(|e| {
            let mut report = Report::default();
            report.push(Diagnostic::new(Code::InvalidForProvider, Path::root(), format!("the body is not UTF-8: {e}")));
            report
        })?;
        *out = if pretty { indent(&text) } else { text };
        Ok(converted.warnings)
    }
    match provider {
        ProviderId::BedrockConverse => write::<BedrockConverse>(request, options, pretty, out),
        ProviderId::OpenAiChat => write::<OpenAiChat>(request, options, pretty, out),
        ProviderId::OpenAiResponses => write::<OpenAiResponses>(request, options, pretty, out),
        ProviderId::AnthropicMessages => write::<AnthropicMessages>(request, options, pretty, out),
        ProviderId::Gemini => write::<Gemini>(request, options, pretty, out),
    }
}

/// Compact JSON text indented as `serde_json::to_string_pretty` writes it (two spaces, `": "`,
/// empty arrays and objects kept as `[]` and `{}`).
pub(crate) fn indent(compact: &str) -> String {
    let bytes = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() + compact.len() / 4);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut start = 0;
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' | b'}' | b']' | b',' | b':' => {
                out.push_str(&compact[start..i]);
                start = i + 1;
                match b {
                    b'{' | b'[' if matches!(bytes.get(i + 1), Some(b'}' | b']')) => {
                        out.push_str(&compact[i..i + 2]);
                        i += 1;
                        start = i + 1;
                    }
                    b'{' | b'[' => {
                        out.push(b as char);
                        depth += 1;
                        newline(&mut out, depth);
                    }
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        newline(&mut out, depth);
                        out.push(b as char);
                    }
                    b',' => {
                        out.push(',');
                        newline(&mut out, depth);
                    }
                    _ => out.push_str(": "),
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&compact[start..]);
    out
}

fn serialize_failure(provider: ProviderId, error: &serde_json::Error) -> Report {
    // Wire structs hold only strings, numbers and already-parsed JSON, so this is not expected.
    let mut report = Report::default();
    report.push(Diagnostic::new(
        Code::InvalidForProvider,
        Path::root(),
        format!("the {} request could not be written as JSON: {error}", provider.display_name()),
    ));
    report
}

/// Path of a conversion option, for option errors.
pub(crate) fn option_path(name: &str) -> Path {
    Path::root().key("options").key(name)
}

impl ConvertOptions {
    /// Reads options from JSON the way callers write them: `snake_case` or camelCase keys
    /// (`max_tokens` / `maxTokens`), and numbers either as JSON numbers or as numeric strings,
    /// since ml-commons stores `model_parameters` as strings. Every problem is reported at
    /// `/options/<key>`.
    ///
    /// # Errors
    /// `invalid_parameter` for unknown keys and values of the wrong type.
    pub fn from_json(value: &Value) -> Result<Self, Report> {
        let (options, report) = Self::read_json(value);
        if report.is_ok() { Ok(options) } else { Err(report) }
    }

    /// Like [`Self::from_json`], but keeps going: the options that could be read, and a report of
    /// those that could not. Callers that go on to convert with the readable ones report every
    /// problem at once — a bad `max_tokens` does not hide an out-of-range `temperature`.
    pub fn read_json(value: &Value) -> (Self, Report) {
        let mut report = Report::default();
        let mut options = Self::default();
        let Some(object) = value.as_object() else {
            if !value.is_null() {
                report.push(Diagnostic::new(
                    Code::InvalidParameter,
                    Path::root().key("options"),
                    "options must be an object",
                ));
            }
            return (options, report);
        };
        let mut bad = |key: &str, message: String, received: &Value| {
            report.push(Diagnostic::new(Code::InvalidParameter, option_path(key), message).received(match received {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            }));
        };
        for (key, value) in object {
            if value.is_null() {
                continue;
            }
            match key.as_str() {
                "system" | "system_prompt" | "systemPrompt" => match value {
                    Value::String(s) => options.system = Some(s.clone()),
                    other => bad("system", "system must be a string".into(), other),
                },
                // Whole numbers up to 2^31 - 1 (the providers' int32); larger ones would be clamped
                // by the conversion to an integer and reported as a different number.
                "max_tokens" | "maxTokens" => {
                    match number(value).filter(|n| n.fract() == 0.0 && (0.0..=f64::from(i32::MAX)).contains(n)) {
                        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                        Some(n) => options.max_tokens = Some(n as u64),
                        None => {
                            bad("max_tokens", "max_tokens must be a whole number from 1 to 2147483647".into(), value);
                        }
                    }
                }
                "temperature" => match number(value) {
                    Some(n) => options.temperature = Some(n),
                    None => bad("temperature", "temperature must be a number between 0 and 1".into(), value),
                },
                "top_p" | "topP" => match number(value) {
                    Some(n) => options.top_p = Some(n),
                    None => bad("top_p", "top_p must be a number between 0 and 1".into(), value),
                },
                "stop_sequences" | "stopSequences" => match value {
                    Value::String(s) => options.stop_sequences = vec![s.clone()],
                    Value::Array(items) if items.iter().all(Value::is_string) => {
                        options.stop_sequences = items.iter().filter_map(|v| v.as_str().map(str::to_string)).collect();
                    }
                    other => bad("stop_sequences", "stop_sequences must be an array of strings".into(), other),
                },
                "tools" => match tool_specs(value) {
                    Ok(tools) => options.tools = tools,
                    Err(why) => bad(
                        "tools",
                        format!("tools must be an array of {{name, description, input_schema}}: {why}"),
                        value,
                    ),
                },
                other => bad(
                    other,
                    format!(
                        "unknown option '{other}'; the options are system, max_tokens, temperature, top_p, stop_sequences, tools"
                    ),
                    &Value::String(other.to_string()),
                ),
            }
        }
        (options, report)
    }
}

/// A JSON number, or a string holding exactly one (read by the JSON parser, which the library
/// has anyway, rather than `str::parse`, whose float tables the WebAssembly build would carry).
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => serde_json::from_str::<Value>(s.trim()).ok()?.as_f64().filter(|n| n.is_finite()),
        _ => None,
    }
}

/// A float as JSON writes it, for messages (`serde_json`'s formatter instead of `core::fmt`'s,
/// which would add its float tables to the WebAssembly build).
pub(crate) fn number_text(value: f64) -> String {
    serde_json::Number::from_f64(value)
        .map_or_else(|| "a value that is not a finite number".to_string(), |n| n.to_string())
}

/// Tool specs from JSON: `[{"name", "description"?, "input_schema"? | "inputSchema"?}]`.
fn tool_specs(value: &Value) -> Result<Vec<ToolSpec>, String> {
    let Value::Array(items) = value else { return Err("it is not an array".into()) };
    items
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let Value::Object(spec) = item else { return Err(format!("item {i} is not an object")) };
            let Some(Value::String(name)) = spec.get("name") else {
                return Err(format!("item {i} has no string \"name\""));
            };
            let description = match spec.get("description") {
                None | Some(Value::Null) => None,
                Some(Value::String(d)) => Some(d.clone()),
                Some(_) => return Err(format!("item {i} has a \"description\" that is not a string")),
            };
            let input_schema =
                spec.get("input_schema").or_else(|| spec.get("inputSchema")).filter(|s| !s.is_null()).cloned();
            Ok(ToolSpec { name: name.clone(), description, input_schema })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn indent_writes_what_serde_json_pretty_writes() {
        let value = serde_json::json!({"a": [], "b": {}, "c": [1, {"d": "x,{}[]:\\\"y"}, [[]]], "e": null, "f": "é"});
        let compact = serde_json::to_string(&value).unwrap();
        assert_eq!(super::indent(&compact), serde_json::to_string_pretty(&value).unwrap());
    }
}
