//! The options callers pass: how to validate ([`Options`], [`Limits`]), how to convert
//! ([`ConvertOptions`], [`ToolSpec`]) and both with the target provider ([`ConvertSettings`]),
//! as the npm package, the CLI and the gateway take them.
//!
//! Each type derives `Deserialize`, taking camelCase keys as JavaScript writes them and the
//! `snake_case` ones the fixtures, the CLI and ml-commons' `model_parameters` use; `null` counts
//! as absent, and the numbers ml-commons stores as strings are read as numbers. The `read_json`
//! functions go further than a derive can: they report *every* bad option, each as an
//! `invalid_parameter` error at `/options/<key>`, and keep the readable ones, never an
//! exception: options often come from stored configuration, which is data like any other.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::convert::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::path::Path;

/// Size limits, checked before the work they protect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(from = "LimitsIn")]
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

/// [`Limits`] as written: an absent or `null` limit keeps its default.
#[derive(Deserialize)]
#[serde(
    rename_all = "camelCase",
    deny_unknown_fields,
    expecting = "an object: { maxBodyBytes, maxDepth, maxMessages, maxBlocks }"
)]
struct LimitsIn {
    #[serde(default, alias = "max_body_bytes", deserialize_with = "count")]
    max_body_bytes: Option<usize>,
    #[serde(default, alias = "max_depth", deserialize_with = "count")]
    max_depth: Option<usize>,
    #[serde(default, alias = "max_messages", deserialize_with = "count")]
    max_messages: Option<usize>,
    #[serde(default, alias = "max_blocks", deserialize_with = "count")]
    max_blocks: Option<usize>,
}

impl From<LimitsIn> for Limits {
    fn from(given: LimitsIn) -> Self {
        let default = Self::default();
        Self {
            max_body_bytes: given.max_body_bytes.unwrap_or(default.max_body_bytes),
            max_depth: given.max_depth.unwrap_or(default.max_depth),
            max_messages: given.max_messages.unwrap_or(default.max_messages),
            max_blocks: given.max_blocks.unwrap_or(default.max_blocks),
        }
    }
}

/// How to validate: what `validate` takes, `{ allowPrefill?, limits? }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(default, rename_all = "camelCase", deny_unknown_fields)]
pub struct Options {
    /// Size limits.
    #[serde(deserialize_with = "or_default")]
    pub limits: Limits,
    /// Accept a conversation that ends with an assistant message (a prefill for the model to
    /// continue). ml-commons requires the last message to be `user` or `tool`.
    #[serde(alias = "allow_prefill", deserialize_with = "flag")]
    pub allow_prefill: bool,
}

impl Options {
    /// The keys [`Options`] reads, as [`ConvertSettings::read_json`] tells them from the rest.
    const KEYS: [&'static str; 3] = ["allowPrefill", "allow_prefill", "limits"];

    /// Reads `{ allowPrefill?, limits? }` (`null` is no options), reporting every problem at
    /// `/options/<key>` and keeping what could be read.
    pub fn read_json(value: &Value) -> (Self, Report) {
        read(value, |key| key)
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ConvertOptions {
    /// A system prompt, placed before any system messages.
    #[serde(alias = "system_prompt", alias = "systemPrompt", deserialize_with = "text")]
    pub system: Option<String>,
    /// Most tokens to generate (default 4096, as ml-commons).
    #[serde(alias = "maxTokens", deserialize_with = "max_tokens")]
    pub max_tokens: Option<u64>,
    /// Sampling temperature, 0 to 1.
    #[serde(deserialize_with = "number")]
    pub temperature: Option<f64>,
    /// Nucleus sampling, 0 to 1.
    #[serde(alias = "topP", deserialize_with = "number")]
    pub top_p: Option<f64>,
    /// Strings that stop generation.
    #[serde(alias = "stopSequences", deserialize_with = "strings")]
    pub stop_sequences: Vec<String>,
    /// Tool specs; required when the history holds tool calls or results.
    #[serde(deserialize_with = "tools")]
    pub tools: Vec<ToolSpec>,
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
        read(value, |key| match key {
            "system_prompt" | "systemPrompt" => "system",
            "maxTokens" => "max_tokens",
            "topP" => "top_p",
            "stopSequences" => "stop_sequences",
            other => other,
        })
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
            } else if Options::KEYS.contains(&key.as_str()) {
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
        other => other.to_string(),
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

/// Deserializes `T` from an options object, reporting every problem: each failure names the
/// key it is at (`serde_path_to_error`); the key is reported, taken out, and the rest read
/// again, so one bad option neither hides the next nor discards the good ones. `name` gives the
/// name a top-level key is reported under.
fn read<T: DeserializeOwned + Default>(value: &Value, name: fn(&str) -> &str) -> (T, Report) {
    let mut report = Report::default();
    let Some(object) = object(value, &mut report) else { return (T::default(), report) };
    let mut object = Value::Object(object.clone());
    // Each round takes one key out or stops, so this ends.
    loop {
        let error = match serde_path_to_error::deserialize(&object) {
            Ok(options) => return (options, report),
            Err(error) => error,
        };
        let keys: Vec<&str> = error
            .path()
            .iter()
            .map_while(|segment| match segment {
                serde_path_to_error::Segment::Map { key } => Some(key.as_str()),
                _ => None,
            })
            .collect();
        let Some((&last, parents)) = keys.split_last() else {
            report.push(Diagnostic::new(
                Code::InvalidParameter,
                Path::root().key("options"),
                error.inner().to_string(),
            ));
            return (T::default(), report);
        };
        // Reported under the name the caller wrote, except at the top, where `name` decides.
        let shown = if parents.is_empty() { name(last) } else { last };
        let mut path = Path::root().key("options");
        let mut map = &mut object;
        for (depth, key) in parents.iter().enumerate() {
            path = path.key(if depth == 0 { name(key) } else { key });
            map = match map.get_mut(*key) {
                Some(inner) => inner,
                None => return (T::default(), report),
            };
        }
        let Some(bad) = map.as_object_mut().and_then(|map| map.remove(last)) else {
            return (T::default(), report);
        };
        let message = error.inner().to_string();
        let (message, received) = if message.starts_with("unknown field") {
            (message, last.to_string())
        } else if message.starts_with("must ") {
            (format!("{shown} {message}"), self::received(&bad))
        } else {
            (format!("{shown}: {message}"), self::received(&bad))
        };
        report.push(Diagnostic::new(Code::InvalidParameter, path.key(shown), message).received(received));
    }
}

/// `null` and absent as the default; anything else as `T`.
fn or_default<'de, D: Deserializer<'de>, T: Deserialize<'de> + Default>(d: D) -> Result<T, D::Error> {
    Ok(Option::<T>::deserialize(d)?.unwrap_or_default())
}

fn flag<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    match Value::deserialize(d)? {
        Value::Bool(b) => Ok(b),
        Value::Null => Ok(false),
        _ => Err(D::Error::custom("must be true or false")),
    }
}

fn text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::String(s) => Ok(Some(s)),
        Value::Null => Ok(None),
        _ => Err(D::Error::custom("must be a string")),
    }
}

/// A whole number of at least 0; one written as a float (`1e3`) is read too, and one too large
/// for this platform is no limit.
fn count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<usize>, D::Error> {
    let n = match Value::deserialize(d)? {
        Value::Null => return Ok(None),
        Value::Number(n) => n,
        _ => return Err(D::Error::custom("must be a whole number of at least 0")),
    };
    if let Some(n) = n.as_u64() {
        return Ok(Some(usize::try_from(n).unwrap_or(usize::MAX)));
    }
    match n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        Some(f) => Ok(Some(if f < usize::MAX as f64 { f as usize } else { usize::MAX })),
        None => Err(D::Error::custom("must be a whole number of at least 0")),
    }
}

/// A JSON number, or a string holding exactly one (read by the JSON parser, which the library
/// has anyway, rather than `str::parse`, whose float tables the WebAssembly build would carry).
fn numeric(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => serde_json::from_str::<Value>(s.trim()).ok()?.as_f64().filter(|n| n.is_finite()),
        _ => None,
    }
}

fn number<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        value => numeric(&value).map(Some).ok_or_else(|| D::Error::custom("must be a number between 0 and 1")),
    }
}

/// Whole numbers up to 2^31 - 1 (the providers' int32); larger ones would be clamped by the
/// conversion to an integer and reported as a different number.
fn max_tokens<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(None),
        value => match numeric(&value).filter(|n| n.fract() == 0.0 && (0.0..=f64::from(i32::MAX)).contains(n)) {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Some(n) => Ok(Some(n as u64)),
            None => Err(D::Error::custom("must be a whole number from 1 to 2147483647")),
        },
    }
}

/// One string or an array of them.
fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    match Value::deserialize(d)? {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s]),
        Value::Array(items) if items.iter().all(Value::is_string) => {
            Ok(items.into_iter().filter_map(|v| if let Value::String(s) = v { Some(s) } else { None }).collect())
        }
        _ => Err(D::Error::custom("must be an array of strings")),
    }
}

fn tools<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<ToolSpec>, D::Error> {
    let value = Value::deserialize(d)?;
    if value.is_null() {
        return Ok(Vec::new());
    }
    Vec::<ToolSpec>::deserialize(&value)
        .map_err(|e| D::Error::custom(format!("must be an array of {{name, description, input_schema}}: {e}")))
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
        // What `Serialize` writes reads back.
        assert_eq!(ConvertOptions::from_json(&serde_json::to_value(&camel).unwrap()).unwrap(), camel);
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
