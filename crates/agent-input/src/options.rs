//! The options callers pass: how to validate ([`Options`], [`Limits`]), how to convert
//! ([`ConvertOptions`], [`ToolSpec`]) and both with the target provider ([`ConvertSettings`]),
//! as the npm package, the CLI and the gateway take them.
//!
//! Keys are camelCase as JavaScript writes them, or the `snake_case` the fixtures, the CLI and
//! ml-commons' `model_parameters` use; `null` counts as absent, and the numbers ml-commons stores
//! as strings are read as numbers. Each type's `read_json` reports *every* bad option, each as an
//! `invalid_parameter` error at `/options/<key>`, and keeps the readable ones, never an
//! exception: options often come from stored configuration, which is data like any other.
//!
//! Every option is one row of a table ([`Field`]: its spellings and how its value is read), and
//! each type's `Deserialize` goes through the same table, failing with the first problem, so
//! Rust callers that deserialize options (from any serde format) get the same spellings and
//! rules. Not a derived `Deserialize`: a derive stops at the first problem (finding the others
//! means deserializing again), and in the npm package it cost 6.7 KB more gzip than this table
//! (docs/decisions.md, "The WebAssembly boundary").

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::path::Path;
use crate::provider::ProviderId;

/// Size limits, checked before the work they protect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body in bytes (default 64 MiB), checked before parsing.
    pub max_body_bytes: usize,
    /// Deepest JSON nesting (default 64), checked before validation.
    pub max_depth: usize,
    /// Most messages in one input (default 10,000).
    pub max_messages: usize,
    /// Most content blocks in one message or content-block input (default 1,000).
    pub max_blocks: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self { max_body_bytes: 64 * 1024 * 1024, max_depth: 64, max_messages: 10_000, max_blocks: 1_000 }
    }
}

impl Limits {
    /// Reads `{ maxBodyBytes?, maxDepth?, maxMessages?, maxBlocks? }` (or their `snake_case`
    /// spellings; `null` keeps the default), reporting every problem at `/options/<key>`.
    pub fn read_json(value: &Value) -> (Self, Report) {
        read(value, LIMITS, Names::AsWritten)
    }
}

impl<'de> Deserialize<'de> for Limits {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_with_report(d, Self::read_json)
    }
}

/// How to validate: what `validate` takes, `{ allowPrefill?, limits? }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Size limits.
    pub limits: Limits,
    /// Accept a conversation that ends with an assistant message (a prefill for the model to
    /// continue). ml-commons requires the last message to be `user` or `tool`.
    pub allow_prefill: bool,
    /// The input goes to an ml-commons cluster (the CLI's `--ml-commons`, the gateway's
    /// `--upstream` proxy, the registration preview): text it would fill as a template
    /// placeholder (`${parameters.…}`) is reported (`template_placeholder`).
    pub ml_commons: bool,
}

impl Options {
    /// Reads `{ allowPrefill?, mlCommons?, limits? }` (`null` is no options), reporting every problem at
    /// `/options/<key>` and keeping what could be read.
    pub fn read_json(value: &Value) -> (Self, Report) {
        read(value, OPTIONS, Names::AsWritten)
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_with_report(d, Self::read_json)
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

/// Provider-independent conversion settings. Written (`Serialize`) with `snake_case` keys.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
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
    /// Which tools the model may call.
    pub tool_choice: Option<ToolChoice>,
    /// Cache points after the system prompt and after the tools; `None` is no caching asked.
    pub prompt_cache: Option<PromptCache>,
    /// A JSON Schema the answer must follow (structured output).
    pub response_format: Option<ResponseFormat>,
}

/// Which tools the model may call: written `"auto"`, `"any"` (or `"required"`), `"none"`, or
/// `{"name": "<tool>"}` (or `"tool:<name>"`, as the CLI writes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolChoice {
    /// The model decides.
    Auto,
    /// The model must call some tool.
    Any,
    /// The model must not call tools.
    None,
    /// The model must call this tool, one of `tools`.
    #[serde(untagged)]
    Tool {
        /// The tool's name.
        name: String,
    },
}

/// How long a cache entry lives, where the provider lets callers choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CacheTtl {
    /// Five minutes, every provider's default.
    #[serde(rename = "5m")]
    FiveMinutes,
    /// One hour.
    #[serde(rename = "1h")]
    OneHour,
}

impl CacheTtl {
    /// `5m` or `1h`, as Bedrock and Anthropic write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::FiveMinutes => "5m",
            Self::OneHour => "1h",
        }
    }
}

/// Prompt caching: written `true`, or `{"ttl": "5m" | "1h"}` (`false` is no caching).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PromptCache {
    /// The entries' lifetime; `None` is the provider's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<CacheTtl>,
}

/// Structured output: `{"schema", "name"?, "description"?, "strict"?}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResponseFormat {
    /// The JSON Schema (an object) the answer must follow.
    pub schema: Value,
    /// The schema's name, 1-64 letters, digits, `_` or `-` (`OpenAI` requires one; default
    /// `response`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the answer is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the provider must follow the schema exactly (`OpenAI`'s `strict`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

impl ResponseFormat {
    /// The name sent where one is required.
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("response")
    }
}

impl<'de> Deserialize<'de> for ConvertOptions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_with_report(d, Self::read_json)
    }
}

impl ConvertOptions {
    /// Reads options from JSON the way callers write them: `snake_case` or camelCase keys
    /// (`max_tokens` / `maxTokens`), and numbers either as JSON numbers or as numeric strings,
    /// since ml-commons stores `model_parameters` as strings. Every problem is reported at
    /// `/options/<key>`, with the key's `snake_case` name.
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
        read(value, CONVERT, Names::Canonical)
    }
}

/// What the npm package's `convert` takes: the target provider, how to validate and how to
/// convert, in one object: `{ provider, allowPrefill?, limits?, system?, maxTokens?, ... }`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConvertSettings {
    /// The target provider; `None` when missing or unknown (an error was reported).
    pub provider: Option<ProviderId>,
    /// Limits and prefill.
    pub validation: Options,
    /// Provider-independent conversion settings.
    pub convert: ConvertOptions,
}

impl ConvertSettings {
    /// Reads the settings, reporting every problem (a missing provider included) and keeping
    /// what could be read, so conversion can still run and report its own problems beside these.
    /// `provider` takes an id (`bedrock-converse`) or an ml-commons name (`Bedrock/Converse`).
    pub fn read_json(value: &Value) -> (Self, Report) {
        let mut report = Report::default();
        let Some(object) = object(value, &mut report) else {
            report.push(missing_provider());
            return (Self::default(), report);
        };
        let (mut validation, mut convert, mut provider) = (Map::new(), Map::new(), None);
        for (key, value) in object {
            if key == "provider" {
                provider = Some(value);
            } else if OPTIONS.iter().any(|f| f.keys.contains(&key.as_str())) {
                validation.insert(key.clone(), value.clone());
            } else {
                convert.insert(key.clone(), value.clone());
            }
        }
        let (validation, errors) = Options::read_json(&Value::Object(validation));
        report.extend(errors);
        let provider = match provider {
            None | Some(Value::Null) => {
                report.push(missing_provider());
                None
            }
            Some(Value::String(raw)) => {
                let parsed = ProviderId::parse(raw);
                if parsed.is_none() {
                    report.push(
                        Diagnostic::new(
                            Code::InvalidParameter,
                            option_path("provider"),
                            format!("unknown provider '{raw}'; use one of {}", provider_ids().join(", ")),
                        )
                        .expected(provider_ids())
                        .received(raw.as_str()),
                    );
                }
                parsed
            }
            Some(other) => {
                report.push(
                    Diagnostic::new(
                        Code::InvalidParameter,
                        option_path("provider"),
                        "provider must be a string such as 'bedrock-converse'",
                    )
                    .received(received(other)),
                );
                None
            }
        };
        let (convert, errors) = ConvertOptions::read_json(&Value::Object(convert));
        report.extend(errors);
        (Self { provider, validation, convert }, report)
    }
}

fn provider_ids() -> Vec<&'static str> {
    ProviderId::ALL.iter().map(|p| p.as_str()).collect()
}

fn missing_provider() -> Diagnostic {
    Diagnostic::new(
        Code::InvalidParameter,
        option_path("provider"),
        format!("provider is required; use one of {}", provider_ids().join(", ")),
    )
    .expected(provider_ids())
}

fn option_path(key: &str) -> Path {
    Path::root().key("options").key(key)
}

/// How a received value is shown: strings as they are, anything else as JSON.
fn received(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => crate::json::compact(other),
    }
}

/// The options object; `None` for `null` (no options) and for anything else, which is reported.
fn object<'v>(value: &'v Value, report: &mut Report) -> Option<&'v Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        Value::Null => None,
        other => {
            report.push(
                Diagnostic::new(Code::InvalidParameter, Path::root().key("options"), "options must be an object")
                    .received(received(other)),
            );
            None
        }
    }
}

/// One option: the keys it is written with (the first is the name listed in messages), and how
/// its value is read into `T`. A reader gets the option's path for the problems inside the value
/// (a limit inside `limits`); what it returns as `Err` is reported at that path, after the
/// option's name: `"must be true or false"`.
struct Field<T> {
    keys: &'static [&'static str],
    read: fn(&Value, &mut T, &Path, &mut Report) -> Result<(), String>,
}

/// How keys are shown in paths and messages: as the caller wrote them, or by the field's first
/// key (conversion options, reported by their `snake_case` name as ml-commons writes them).
#[derive(Clone, Copy)]
enum Names {
    AsWritten,
    Canonical,
}

/// Reads every key of `object` with the field that takes it, reporting each unknown key and each
/// bad value (`null` is absent) under `path`; `what` names the keys in messages (`option`).
fn read_fields<T>(
    object: &Map<String, Value>,
    fields: &[Field<T>],
    names: Names,
    what: &str,
    path: &Path,
    into: &mut T,
    report: &mut Report,
) {
    for (key, value) in object {
        let Some(field) = fields.iter().find(|f| f.keys.contains(&key.as_str())) else {
            let known: Vec<&str> = fields.iter().map(|f| f.keys[0]).collect();
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    path.key(key),
                    format!("unknown {what} '{key}'; the {what}s are {}", known.join(", ")),
                )
                .received(key.as_str()),
            );
            continue;
        };
        if value.is_null() {
            continue;
        }
        let name = match names {
            Names::AsWritten => key.as_str(),
            Names::Canonical => field.keys[0],
        };
        let at = path.key(name);
        if let Err(message) = (field.read)(value, into, &at, report) {
            report.push(
                Diagnostic::new(Code::InvalidParameter, at, format!("{name} {message}")).received(received(value)),
            );
        }
    }
}

/// Reads an options object with `fields` (`null` is no options).
fn read<T: Default>(value: &Value, fields: &[Field<T>], names: Names) -> (T, Report) {
    let mut report = Report::default();
    let mut options = T::default();
    if let Some(object) = object(value, &mut report) {
        read_fields(object, fields, names, "option", &Path::root().key("options"), &mut options, &mut report);
    }
    (options, report)
}

/// A `Deserialize` through [`read`]: any format, the first problem as the error.
fn deserialize_with_report<'de, D: Deserializer<'de>, T>(d: D, read: fn(&Value) -> (T, Report)) -> Result<T, D::Error> {
    let (options, report) = read(&Value::deserialize(d)?);
    match report.errors.into_iter().next() {
        None => Ok(options),
        Some(error) => Err(D::Error::custom(format!("{}: {}", error.path, error.message))),
    }
}

const WHOLE: &str = "must be a whole number of at least 0";

/// A whole number of at least 0; one written as a float (`1e3`) is read too, and one too large
/// for this platform is no limit.
fn count(value: &Value) -> Result<usize, String> {
    let Value::Number(n) = value else { return Err(WHOLE.into()) };
    if let Some(n) = n.as_u64() {
        return Ok(usize::try_from(n).unwrap_or(usize::MAX));
    }
    match n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        Some(f) => Ok(if f < usize::MAX as f64 { f as usize } else { usize::MAX }),
        None => Err(WHOLE.into()),
    }
}

const LIMITS: &[Field<Limits>] = &[
    Field { keys: &["maxBodyBytes", "max_body_bytes"], read: |v, l, _, _| count(v).map(|n| l.max_body_bytes = n) },
    Field { keys: &["maxDepth", "max_depth"], read: |v, l, _, _| count(v).map(|n| l.max_depth = n) },
    Field { keys: &["maxMessages", "max_messages"], read: |v, l, _, _| count(v).map(|n| l.max_messages = n) },
    Field { keys: &["maxBlocks", "max_blocks"], read: |v, l, _, _| count(v).map(|n| l.max_blocks = n) },
];

const OPTIONS: &[Field<Options>] = &[
    Field {
        keys: &["allowPrefill", "allow_prefill"],
        read: |v, o, _, _| v.as_bool().map(|b| o.allow_prefill = b).ok_or_else(|| "must be true or false".into()),
    },
    Field {
        keys: &["mlCommons", "ml_commons"],
        read: |v, o, _, _| v.as_bool().map(|b| o.ml_commons = b).ok_or_else(|| "must be true or false".into()),
    },
    Field {
        keys: &["limits"],
        read: |v, o, path, report| {
            let Value::Object(limits) = v else {
                return Err("must be an object: { maxBodyBytes, maxDepth, maxMessages, maxBlocks }".into());
            };
            read_fields(limits, LIMITS, Names::AsWritten, "limit", path, &mut o.limits, report);
            Ok(())
        },
    },
];

/// A JSON number, or a string holding exactly one (read by the library's JSON parser rather than
/// `str::parse`, whose float tables the WebAssembly build would carry).
fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match crate::json::Document::parse(s.trim()).ok()?.root {
            crate::json::Json::Number(n) => n.as_f64().filter(|n| n.is_finite()),
            _ => None,
        },
        _ => None,
    }
}

/// Options from their JSON text (`null` when it is not JSON), for [`Options::read_json`] and the
/// others. Parsed by the library's own JSON reader: `serde_json::from_str` into a `Value`, the
/// only other way, brings `core::fmt`'s float formatting (serde's error paths) into the
/// WebAssembly build, 14 KB of code.
pub fn parse(text: &str) -> Value {
    crate::json::Document::parse(text).map_or(Value::Null, |document| document.root.to_value())
}

const SAMPLING: &str = "must be a number between 0 and 1";

const CONVERT: &[Field<ConvertOptions>] = &[
    Field {
        keys: &["system", "system_prompt", "systemPrompt"],
        read: |v, o, _, _| v.as_str().map(|s| o.system = Some(s.to_string())).ok_or_else(|| "must be a string".into()),
    },
    // Whole numbers up to 2^31 - 1 (the providers' int32); larger ones would be clamped by the
    // conversion to an integer and reported as a different number.
    Field {
        keys: &["max_tokens", "maxTokens"],
        read: |v, o, _, _| {
            let n = number(v)
                .filter(|n| n.fract() == 0.0 && (0.0..=f64::from(i32::MAX)).contains(n))
                .ok_or("must be a whole number from 1 to 2147483647")?;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = n as u64;
            o.max_tokens = Some(n);
            Ok(())
        },
    },
    Field {
        keys: &["temperature"],
        read: |v, o, _, _| number(v).map(|n| o.temperature = Some(n)).ok_or_else(|| SAMPLING.into()),
    },
    Field {
        keys: &["top_p", "topP"],
        read: |v, o, _, _| number(v).map(|n| o.top_p = Some(n)).ok_or_else(|| SAMPLING.into()),
    },
    Field {
        keys: &["stop_sequences", "stopSequences"],
        read: |v, o, _, _| {
            o.stop_sequences = match v {
                Value::String(s) => vec![s.clone()],
                Value::Array(items) => items
                    .iter()
                    .map(|item| item.as_str().map(str::to_string))
                    .collect::<Option<_>>()
                    .ok_or("must be an array of strings")?,
                _ => return Err("must be an array of strings".into()),
            };
            Ok(())
        },
    },
    Field {
        keys: &["tools"],
        read: |v, o, _, _| {
            o.tools = tool_specs(v)
                .map_err(|why| format!("must be an array of {{name, description, input_schema}}: {why}"))?;
            Ok(())
        },
    },
    Field { keys: &["tool_choice", "toolChoice"], read: |v, o, _, _| tool_choice(v).map(|c| o.tool_choice = Some(c)) },
    Field { keys: &["prompt_cache", "promptCache"], read: |v, o, _, _| prompt_cache(v).map(|c| o.prompt_cache = c) },
    Field {
        keys: &["response_format", "responseFormat"],
        read: |v, o, _, _| response_format(v).map(|f| o.response_format = Some(f)),
    },
];

/// A JSON object or array written as JSON text, as ml-commons stores `model_parameters`.
fn json_text(value: &Value) -> Option<Value> {
    let Value::String(text) = value else { return None };
    let text = text.trim_start();
    if text.starts_with('{') || text.starts_with('[') { Some(parse(text)).filter(|v| !v.is_null()) } else { None }
}

const TOOL_CHOICE: &str = "must be \"auto\", \"any\", \"none\" or {\"name\": \"<tool name>\"}";

fn tool_choice(value: &Value) -> Result<ToolChoice, String> {
    if let Some(parsed) = json_text(value) {
        return tool_choice(&parsed);
    }
    match value {
        Value::String(s) => match s.trim() {
            "auto" => Ok(ToolChoice::Auto),
            "any" | "required" => Ok(ToolChoice::Any),
            "none" => Ok(ToolChoice::None),
            other => match other.strip_prefix("tool:") {
                Some(name) if !name.is_empty() => Ok(ToolChoice::Tool { name: name.to_string() }),
                _ => Err(TOOL_CHOICE.into()),
            },
        },
        Value::Object(map) => match (map.get("name"), map.len()) {
            (Some(Value::String(name)), 1) if !name.is_empty() => Ok(ToolChoice::Tool { name: name.clone() }),
            _ => Err(TOOL_CHOICE.into()),
        },
        _ => Err(TOOL_CHOICE.into()),
    }
}

const PROMPT_CACHE: &str = "must be true, false or {\"ttl\": \"5m\" | \"1h\"}";

fn ttl(value: &Value) -> Result<Option<CacheTtl>, String> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) if s.trim() == "5m" => Ok(Some(CacheTtl::FiveMinutes)),
        Value::String(s) if s.trim() == "1h" => Ok(Some(CacheTtl::OneHour)),
        _ => Err(PROMPT_CACHE.into()),
    }
}

fn prompt_cache(value: &Value) -> Result<Option<PromptCache>, String> {
    if let Some(parsed) = json_text(value) {
        return prompt_cache(&parsed);
    }
    match value {
        Value::Bool(on) => Ok(on.then_some(PromptCache::default())),
        Value::String(s) if s.trim() == "true" => Ok(Some(PromptCache::default())),
        Value::String(s) if s.trim() == "false" => Ok(None),
        Value::Object(map) if map.keys().all(|k| k == "ttl") => {
            Ok(Some(PromptCache { ttl: ttl(map.get("ttl").unwrap_or(&Value::Null))? }))
        }
        _ => Err(PROMPT_CACHE.into()),
    }
}

const RESPONSE_FORMAT: &str = "must be {\"schema\": <JSON Schema object>, \"name\"?, \"description\"?, \"strict\"?}";

fn response_format(value: &Value) -> Result<ResponseFormat, String> {
    if let Some(parsed) = json_text(value) {
        return response_format(&parsed);
    }
    let Value::Object(map) = value else { return Err(RESPONSE_FORMAT.into()) };
    let mut format = ResponseFormat { schema: Value::Null, name: None, description: None, strict: None };
    for (key, value) in map {
        match (key.as_str(), value) {
            (_, Value::Null) => {}
            ("schema", Value::Object(_)) => format.schema = value.clone(),
            ("name", Value::String(name)) if crate::text::is_plain_name(name) => format.name = Some(name.clone()),
            ("name", _) => return Err(format!("{RESPONSE_FORMAT}: name must be 1-64 letters, digits, '_' or '-'")),
            ("description", Value::String(d)) => format.description = Some(d.clone()),
            ("strict", Value::Bool(b)) => format.strict = Some(*b),
            _ => return Err(format!("{RESPONSE_FORMAT}; \"{key}\" is not one of them or has the wrong type")),
        }
    }
    if format.schema.is_null() {
        return Err(format!("{RESPONSE_FORMAT}: the schema object is missing"));
    }
    Ok(format)
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
    use super::*;
    use serde_json::json;

    fn paths(report: &Report) -> Vec<String> {
        let mut paths: Vec<String> = report
            .errors
            .iter()
            .inspect(|d| assert_eq!(d.code, Code::InvalidParameter, "{d:?}"))
            .map(|d| d.path.to_string())
            .collect();
        paths.sort();
        paths
    }

    #[test]
    fn validate_options_accept_both_spellings() {
        let (camel, report) = Options::read_json(
            &json!({"allowPrefill": true, "limits": {"maxDepth": 5, "maxBodyBytes": 10, "maxMessages": 2, "maxBlocks": 3}}),
        );
        assert!(report.is_ok(), "{report}");
        let (snake, report) = Options::read_json(
            &json!({"allow_prefill": true, "limits": {"max_depth": 5, "max_body_bytes": 10, "max_messages": 2, "max_blocks": 3}}),
        );
        assert!(report.is_ok(), "{report}");
        assert_eq!(camel, snake);
        assert!(camel.allow_prefill);
        assert_eq!(camel.limits, Limits { max_body_bytes: 10, max_depth: 5, max_messages: 2, max_blocks: 3 });
    }

    #[test]
    fn absent_and_null_options_are_the_defaults() {
        for value in [
            Value::Null,
            json!({}),
            json!({"allowPrefill": null, "limits": null}),
            json!({"limits": {"maxDepth": null}}),
        ] {
            let (options, report) = Options::read_json(&value);
            assert!(report.is_ok(), "{value}: {report}");
            assert_eq!(options, Options::default(), "{value}");
        }
        let (limits, _) = Options::read_json(&json!({"limits": {"maxDepth": 3}}));
        assert_eq!(limits.limits, Limits { max_depth: 3, ..Limits::default() });
    }

    #[test]
    fn every_bad_validate_option_is_reported_at_its_path() {
        let (options, report) = Options::read_json(
            &json!({"allowPrefill": "yes", "limits": {"maxDepth": -1, "maxBlocks": 1.5, "max_size": 3, "maxMessages": 7}, "maxTokens": 5}),
        );
        assert_eq!(
            paths(&report),
            [
                "/options/allowPrefill",
                "/options/limits/maxBlocks",
                "/options/limits/maxDepth",
                "/options/limits/max_size",
                "/options/maxTokens"
            ]
        );
        // The readable ones are kept.
        assert_eq!(options.limits.max_messages, 7);
        let prefill = report.errors.iter().find(|d| d.path.to_string() == "/options/allowPrefill").unwrap();
        assert_eq!(prefill.message, "allowPrefill must be true or false");
        assert_eq!(prefill.received.as_deref(), Some("yes"));
        let unknown = report.errors.iter().find(|d| d.path.to_string() == "/options/maxTokens").unwrap();
        assert_eq!(unknown.received.as_deref(), Some("maxTokens"));
        assert!(unknown.message.contains("allowPrefill"), "{}", unknown.message);

        let (_, report) = Options::read_json(&json!([1]));
        assert_eq!(paths(&report), ["/options"]);
        // An object where none is taken is at fault as a whole.
        let (_, report) = Options::read_json(&json!({"colour": {"a": 1}, "allowPrefill": {"a": true}}));
        assert_eq!(paths(&report), ["/options/allowPrefill", "/options/colour"]);
        let (_, report) = Options::read_json(&json!({"limits": 5}));
        assert_eq!(paths(&report), ["/options/limits"]);
    }

    #[test]
    fn huge_limits_mean_no_limit() {
        let (options, report) = Options::read_json(&json!({"limits": {"maxBodyBytes": 1e300, "maxDepth": 1e3}}));
        assert!(report.is_ok());
        assert_eq!(options.limits.max_body_bytes, usize::MAX);
        assert_eq!(options.limits.max_depth, 1000);
    }

    #[test]
    fn conversion_options_take_both_spellings_and_numeric_strings() {
        let camel =
            ConvertOptions::from_json(&json!({"systemPrompt": "Be brief.", "maxTokens": 100, "temperature": 0.5,
            "topP": 0.9, "stopSequences": ["END"], "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}))
            .unwrap();
        let snake =
            ConvertOptions::from_json(&json!({"system": "Be brief.", "max_tokens": "100", "temperature": "0.5",
            "top_p": " 0.9 ", "stop_sequences": "END", "tools": [{"name": "t", "input_schema": {"type": "object"}}]}))
            .unwrap();
        assert_eq!(camel, snake);
        assert_eq!(camel.max_tokens, Some(100));
        assert_eq!(camel.top_p, Some(0.9));
        assert_eq!(camel.tools[0].input_schema, Some(json!({"type": "object"})));
        // What `Serialize` writes reads back, and `Deserialize` takes the same spellings.
        assert_eq!(ConvertOptions::from_json(&serde_json::to_value(&camel).unwrap()).unwrap(), camel);
        let deserialized: ConvertOptions = serde_json::from_str(r#"{"systemPrompt": "Be brief.", "max_tokens": "100",
            "temperature": 0.5, "topP": 0.9, "stopSequences": "END", "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}"#)
        .unwrap();
        assert_eq!(deserialized, camel);
        let error = serde_json::from_str::<ConvertOptions>(r#"{"maxTokens": -1}"#).unwrap_err();
        assert_eq!(error.to_string(), "/options/max_tokens: max_tokens must be a whole number from 1 to 2147483647");
        let options: Options = serde_json::from_str(r#"{"allow_prefill": true, "limits": {"maxDepth": 3}}"#).unwrap();
        assert_eq!(
            options,
            Options { allow_prefill: true, limits: Limits { max_depth: 3, ..Limits::default() }, ml_commons: false }
        );
        assert!(serde_json::from_str::<Limits>(r#"{"depth": 3}"#).is_err());
    }

    #[test]
    fn conversion_option_errors_use_the_snake_case_name() {
        let (options, report) =
            ConvertOptions::read_json(&json!({"maxTokens": 1.5, "temperature": "warm", "colour": 1,
            "tools": [{"description": "no name"}], "topP": 0.5}));
        assert_eq!(
            paths(&report),
            ["/options/colour", "/options/max_tokens", "/options/temperature", "/options/tools"]
        );
        assert_eq!(options.top_p, Some(0.5));
        let tokens = &report.errors.iter().find(|d| d.path.to_string() == "/options/max_tokens").unwrap();
        assert_eq!(tokens.message, "max_tokens must be a whole number from 1 to 2147483647");
        assert_eq!(tokens.received.as_deref(), Some("1.5"));
        let tools = &report.errors.iter().find(|d| d.path.to_string() == "/options/tools").unwrap();
        assert!(tools.message.contains("name"), "{}", tools.message);
    }

    #[test]
    fn request_features_take_every_spelling_and_report_bad_values() {
        let cases = [
            (json!("auto"), ToolChoice::Auto),
            (json!("required"), ToolChoice::Any),
            (json!(" any "), ToolChoice::Any),
            (json!("none"), ToolChoice::None),
            (json!({"name": "t"}), ToolChoice::Tool { name: "t".into() }),
            (json!("tool:t"), ToolChoice::Tool { name: "t".into() }),
            (json!("{\"name\": \"t\"}"), ToolChoice::Tool { name: "t".into() }),
        ];
        for (value, want) in cases {
            let options = ConvertOptions::from_json(&json!({"toolChoice": value})).unwrap();
            assert_eq!(options.tool_choice, Some(want), "{value}");
        }
        for (value, want) in [
            (json!(true), Some(PromptCache { ttl: None })),
            (json!("false"), None),
            (json!({"ttl": "1h"}), Some(PromptCache { ttl: Some(CacheTtl::OneHour) })),
            (json!("{\"ttl\": \"5m\"}"), Some(PromptCache { ttl: Some(CacheTtl::FiveMinutes) })),
        ] {
            assert_eq!(ConvertOptions::from_json(&json!({"prompt_cache": value})).unwrap().prompt_cache, want);
        }
        let format =
            ConvertOptions::from_json(&json!({"responseFormat": {"schema": {"type": "object"}, "strict": true}}))
                .unwrap()
                .response_format
                .unwrap();
        assert_eq!((format.name(), format.strict), ("response", Some(true)));
        let (_, report) = ConvertOptions::read_json(&json!({"tool_choice": "tool:", "prompt_cache": {"ttl": "2h"},
            "response_format": {"schema": {}, "name": "a b"}}));
        assert_eq!(paths(&report), ["/options/prompt_cache", "/options/response_format", "/options/tool_choice"]);
        let (_, report) = ConvertOptions::read_json(&json!({"tool_choice": {"name": "t", "type": "tool"},
            "response_format": {"name": "a"}}));
        assert_eq!(paths(&report), ["/options/response_format", "/options/tool_choice"]);
        // What `Serialize` writes reads back.
        let options = ConvertOptions::from_json(&json!({"tool_choice": {"name": "t"}, "prompt_cache": {"ttl": "5m"},
            "response_format": {"schema": {"type": "object"}, "description": "d"}}))
        .unwrap();
        assert_eq!(ConvertOptions::from_json(&serde_json::to_value(&options).unwrap()).unwrap(), options);
    }

    #[test]
    fn settings_split_provider_validation_and_conversion() {
        let (settings, report) = ConvertSettings::read_json(
            &json!({"provider": "bedrock-converse", "allowPrefill": true, "limits": {"maxMessages": 4},
                    "system": "Be brief.", "maxTokens": 100, "temperature": "0.5"}),
        );
        assert!(report.is_ok(), "{report}");
        assert_eq!(settings.provider, Some(ProviderId::BedrockConverse));
        assert!(settings.validation.allow_prefill);
        assert_eq!(settings.validation.limits.max_messages, 4);
        assert_eq!(settings.convert.system.as_deref(), Some("Be brief."));
        assert_eq!(settings.convert.temperature, Some(0.5));
        let (settings, report) = ConvertSettings::read_json(&json!({"provider": "Bedrock/Converse"}));
        assert!(report.is_ok());
        assert_eq!(settings.provider, Some(ProviderId::BedrockConverse));
    }

    #[test]
    fn a_missing_or_unknown_provider_is_an_error_listing_the_providers() {
        for options in
            [Value::Null, json!({}), json!({"provider": null}), json!({"provider": "openai"}), json!({"provider": 1})]
        {
            let (settings, report) = ConvertSettings::read_json(&options);
            assert_eq!(settings.provider, None);
            assert_eq!(paths(&report), ["/options/provider"], "{options}");
        }
        let (_, report) = ConvertSettings::read_json(&json!({"provider": "openai"}));
        assert_eq!(
            report.errors[0].expected,
            ["bedrock-converse", "openai-chat", "openai-responses", "anthropic-messages", "gemini"]
        );
        assert_eq!(report.errors[0].received.as_deref(), Some("openai"));
        let (_, report) = ConvertSettings::read_json(
            &json!({"provider": "openai", "temperature": "warm", "colour": 1, "allowPrefill": 0}),
        );
        assert_eq!(
            paths(&report),
            ["/options/allowPrefill", "/options/colour", "/options/provider", "/options/temperature"]
        );
    }
}
