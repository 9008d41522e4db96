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

use serde::{Deserialize, Deserializer, Serialize};
use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::provider::ProviderId;

mod fields;
mod table;

use fields::CONVERT;
use table::{
    LIMITS, Names, OPTIONS, deserialize_with_report, missing_provider, object, option_path, provider_ids, read,
    received,
};

pub use table::parse;

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
