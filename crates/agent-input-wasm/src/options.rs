//! Reading the options objects JavaScript callers pass.
//!
//! Options arrive as JSON (the wasm layer runs `JSON.stringify` on them). Keys are camelCase as
//! JavaScript writes them; the `snake_case` spellings the fixtures, the CLI and ml-commons'
//! `model_parameters` use are accepted too, as [`ConvertOptions::from_json`] accepts them. A bad
//! value is an `invalid_parameter` error at `/options/<key>`, never an exception: options often
//! come from stored configuration, which is data like any other.

use std::cell::RefCell;
use std::rc::Rc;

use agent_input::{Code, ConvertOptions, Diagnostic, Limits, Path, ProviderId, Report, validate};
use serde_json::{Map, Value};

/// What `validate`, `validateInput` and `validateJson` take: `{ allowPrefill?, limits? }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ValidateOptions {
    /// Limits and prefill, as the core takes them.
    pub(crate) validation: validate::Options,
}

/// What the `convert` family takes: the validation options plus the provider and its settings.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ConvertSettings {
    /// Limits and prefill.
    pub(crate) validation: validate::Options,
    /// The target provider; `None` when missing or unknown (an error was reported).
    pub(crate) provider: Option<ProviderId>,
    /// Provider-independent conversion settings.
    pub(crate) convert: ConvertOptions,
    /// The problems found reading them.
    pub(crate) report: Report,
}

thread_local! {
    /// The last options read, by their JSON text: callers convert request after request with the
    /// same options, and reading tool schemas each time would be most of a small request's cost.
    static LAST: RefCell<Option<(String, Rc<ConvertSettings>)>> = const { RefCell::new(None) };
}

fn option_path(key: &str) -> Path {
    Path::root().key("options").key(key)
}

fn bad(report: &mut Report, path: Path, message: String, received: &Value) {
    let received = match received {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    report.push(Diagnostic::new(Code::InvalidParameter, path, message).received(received));
}

/// The options as an object; `null` (an absent argument) is an empty one. Callers check the
/// argument is an object before calling, so anything else here is reported rather than thrown.
fn object<'v>(value: &'v Value, report: &mut Report) -> Option<&'v Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        Value::Null => None,
        other => {
            bad(report, Path::root().key("options"), "options must be an object".into(), other);
            None
        }
    }
}

/// Reads `allowPrefill` / `allow_prefill` and `limits`, returning `true` when `key` was one of
/// them. `null` values count as absent.
fn validation_key(key: &str, value: &Value, options: &mut validate::Options, report: &mut Report) -> bool {
    match key {
        "allowPrefill" | "allow_prefill" => {
            match value {
                Value::Bool(b) => options.allow_prefill = *b,
                Value::Null => {}
                other => bad(report, option_path(key), format!("{key} must be true or false"), other),
            }
            true
        }
        "limits" => {
            read_limits(value, &mut options.limits, report);
            true
        }
        _ => false,
    }
}

fn read_limits(value: &Value, limits: &mut Limits, report: &mut Report) {
    let map = match value {
        Value::Object(map) => map,
        Value::Null => return,
        other => {
            bad(
                report,
                option_path("limits"),
                "limits must be an object: { maxBodyBytes, maxDepth, maxMessages, maxBlocks }".into(),
                other,
            );
            return;
        }
    };
    for (key, value) in map {
        let path = option_path("limits").key(key);
        let slot = match key.as_str() {
            "maxBodyBytes" | "max_body_bytes" => &mut limits.max_body_bytes,
            "maxDepth" | "max_depth" => &mut limits.max_depth,
            "maxMessages" | "max_messages" => &mut limits.max_messages,
            "maxBlocks" | "max_blocks" => &mut limits.max_blocks,
            _ => {
                bad(
                    report,
                    path,
                    format!("unknown limit '{key}'; the limits are maxBodyBytes, maxDepth, maxMessages, maxBlocks"),
                    &Value::String(key.clone()),
                );
                continue;
            }
        };
        match value {
            Value::Null => {}
            Value::Number(n) => match n.as_u64().and_then(|n| usize::try_from(n).ok()) {
                Some(n) => *slot = n,
                None => match n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0) {
                    // Written as a float (`1e3`); one too large for this platform is no limit.
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
                    Some(f) => *slot = if f < usize::MAX as f64 { f as usize } else { usize::MAX },
                    None => bad(report, path, format!("{key} must be a whole number of at least 0"), value),
                },
            },
            other => bad(report, path, format!("{key} must be a whole number of at least 0"), other),
        }
    }
}

impl ValidateOptions {
    /// Reads `{ allowPrefill?, limits? }`; problems go into `report`.
    pub(crate) fn read(value: &Value, report: &mut Report) -> Self {
        let mut validation = validate::Options::default();
        for (key, value) in object(value, report).into_iter().flatten() {
            if !validation_key(key, value, &mut validation, report) {
                bad(
                    report,
                    option_path(key),
                    format!("unknown option '{key}'; the options are allowPrefill, limits"),
                    &Value::String(key.clone()),
                );
            }
        }
        Self { validation }
    }
}

impl ConvertSettings {
    /// Reads options from their JSON text (`JSON.stringify` of the options object), reusing the
    /// previous result when the text is the same.
    pub(crate) fn from_text(text: &str) -> Rc<Self> {
        LAST.with_borrow_mut(|last| {
            if let Some((key, settings)) = last.as_ref()
                && key == text
            {
                return Rc::clone(settings);
            }
            let value = serde_json::from_str(text).unwrap_or(Value::Null);
            let settings = Rc::new(Self::read(&value));
            *last = Some((text.to_string(), Rc::clone(&settings)));
            settings
        })
    }

    /// Reads `{ provider, allowPrefill?, limits?, ...conversion settings }`; problems go into
    /// `report`. The conversion settings are read by the core ([`ConvertOptions::from_json`]).
    pub(crate) fn read(value: &Value) -> Self {
        let mut settings = Self::default();
        let report = &mut settings.report;
        let mut rest = Map::new();
        let mut provider = None;
        for (key, value) in object(value, report).into_iter().flatten() {
            if key == "provider" {
                provider = Some(value);
            } else if !validation_key(key, value, &mut settings.validation, report) {
                rest.insert(key.clone(), value.clone());
            }
        }
        let expected = ProviderId::ALL.iter().map(|p| p.as_str());
        settings.provider = match provider {
            None | Some(Value::Null) => {
                report.push(
                    Diagnostic::new(
                        Code::InvalidParameter,
                        option_path("provider"),
                        format!("provider is required; use one of {}", expected.clone().collect::<Vec<_>>().join(", ")),
                    )
                    .expected(expected),
                );
                None
            }
            Some(Value::String(raw)) => {
                let parsed = ProviderId::parse(raw);
                if parsed.is_none() {
                    report.push(
                        Diagnostic::new(
                            Code::InvalidParameter,
                            option_path("provider"),
                            format!(
                                "unknown provider '{raw}'; use one of {}",
                                expected.clone().collect::<Vec<_>>().join(", ")
                            ),
                        )
                        .expected(expected)
                        .received(raw.as_str()),
                    );
                }
                parsed
            }
            Some(other) => {
                bad(
                    report,
                    option_path("provider"),
                    "provider must be a string such as 'bedrock-converse'".into(),
                    other,
                );
                None
            }
        };
        // The readable settings are kept, so conversion still runs and reports its own problems
        // beside these.
        let (convert, errors) = ConvertOptions::read_json(&Value::Object(rest));
        settings.convert = convert;
        report.extend(errors);
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn codes(report: &Report) -> Vec<(String, String)> {
        report.errors.iter().map(|d| (d.code.to_string(), d.path.to_string())).collect()
    }

    #[test]
    fn validate_options_accept_both_spellings() {
        let mut report = Report::default();
        let camel = ValidateOptions::read(
            &json!({"allowPrefill": true, "limits": {"maxDepth": 5, "maxBodyBytes": 10, "maxMessages": 2, "maxBlocks": 3}}),
            &mut report,
        );
        let snake = ValidateOptions::read(
            &json!({"allow_prefill": true, "limits": {"max_depth": 5, "max_body_bytes": 10, "max_messages": 2, "max_blocks": 3}}),
            &mut report,
        );
        assert!(report.is_ok(), "{report}");
        assert_eq!(camel, snake);
        assert!(camel.validation.allow_prefill);
        assert_eq!(
            camel.validation.limits,
            Limits { max_body_bytes: 10, max_depth: 5, max_messages: 2, max_blocks: 3 }
        );
    }

    #[test]
    fn absent_and_null_options_are_the_defaults() {
        let mut report = Report::default();
        assert_eq!(ValidateOptions::read(&Value::Null, &mut report), ValidateOptions::default());
        assert_eq!(
            ValidateOptions::read(&json!({"allowPrefill": null, "limits": null}), &mut report),
            ValidateOptions::default()
        );
        assert!(report.is_ok());
    }

    #[test]
    fn bad_validate_options_are_reported_at_their_path() {
        let mut report = Report::default();
        ValidateOptions::read(
            &json!({"allowPrefill": "yes", "limits": {"maxDepth": -1, "maxBlocks": 1.5, "max_size": 3}, "maxTokens": 5}),
            &mut report,
        );
        let mut got = codes(&report);
        got.sort();
        assert_eq!(
            got,
            [
                ("invalid_parameter".into(), "/options/allowPrefill".into()),
                ("invalid_parameter".into(), "/options/limits/maxBlocks".into()),
                ("invalid_parameter".into(), "/options/limits/maxDepth".into()),
                ("invalid_parameter".into(), "/options/limits/max_size".into()),
                ("invalid_parameter".into(), "/options/maxTokens".into()),
            ]
        );
        let mut report = Report::default();
        ValidateOptions::read(&json!([1]), &mut report);
        assert_eq!(codes(&report), [("invalid_parameter".into(), "/options".into())]);
    }

    #[test]
    fn huge_limits_mean_no_limit() {
        let mut report = Report::default();
        let options = ValidateOptions::read(&json!({"limits": {"maxBodyBytes": 1e300, "maxDepth": 1e3}}), &mut report);
        assert!(report.is_ok());
        assert_eq!(options.validation.limits.max_body_bytes, usize::MAX);
        assert_eq!(options.validation.limits.max_depth, 1000);
    }

    #[test]
    fn convert_settings_split_provider_validation_and_conversion() {
        let settings = ConvertSettings::read(
            &json!({"provider": "bedrock-converse", "allowPrefill": true, "limits": {"maxMessages": 4},
                    "system": "Be brief.", "maxTokens": 100, "temperature": "0.5", "topP": 0.9,
                    "stopSequences": ["END"], "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}),
        );
        assert!(settings.report.is_ok(), "{}", settings.report);
        assert_eq!(settings.provider, Some(ProviderId::BedrockConverse));
        assert!(settings.validation.allow_prefill);
        assert_eq!(settings.validation.limits.max_messages, 4);
        assert_eq!(settings.convert.system.as_deref(), Some("Be brief."));
        assert_eq!(settings.convert.max_tokens, Some(100));
        assert_eq!(settings.convert.temperature, Some(0.5));
        assert_eq!(settings.convert.top_p, Some(0.9));
        assert_eq!(settings.convert.stop_sequences, ["END"]);
        assert_eq!(settings.convert.tools[0].input_schema, Some(json!({"type": "object"})));
    }

    #[test]
    fn the_ml_commons_provider_name_is_accepted() {
        let settings = ConvertSettings::read(&json!({"provider": "Bedrock/Converse"}));
        assert!(settings.report.is_ok());
        assert_eq!(settings.provider, Some(ProviderId::BedrockConverse));
    }

    #[test]
    fn a_missing_or_unknown_provider_is_an_error_listing_the_providers() {
        for options in [json!({}), json!({"provider": null}), json!({"provider": "openai"}), json!({"provider": 1})] {
            let settings = ConvertSettings::read(&options);
            assert_eq!(settings.provider, None);
            assert_eq!(
                codes(&settings.report),
                [("invalid_parameter".into(), "/options/provider".into())],
                "{options}"
            );
        }
        let report = ConvertSettings::read(&json!({"provider": "openai"})).report;
        assert_eq!(
            report.errors[0].expected,
            ["bedrock-converse", "openai-chat", "openai-responses", "anthropic-messages", "gemini"]
        );
        assert_eq!(report.errors[0].received.as_deref(), Some("openai"));
    }

    #[test]
    fn conversion_option_errors_come_from_the_core() {
        let report =
            ConvertSettings::read(&json!({"provider": "bedrock-converse", "temperature": "warm", "colour": 1})).report;
        let mut got = codes(&report);
        got.sort();
        assert_eq!(
            got,
            [
                ("invalid_parameter".into(), "/options/colour".into()),
                ("invalid_parameter".into(), "/options/temperature".into())
            ]
        );
    }

    #[test]
    fn options_read_from_the_same_text_are_reused() {
        let text = r#"{"provider":"bedrock-converse","maxTokens":5}"#;
        let first = ConvertSettings::from_text(text);
        let again = ConvertSettings::from_text(text);
        assert!(Rc::ptr_eq(&first, &again));
        assert_eq!(first.convert.max_tokens, Some(5));
        let other = ConvertSettings::from_text(r#"{"provider":"bedrock-converse","maxTokens":6}"#);
        assert_eq!(other.convert.max_tokens, Some(6));
        assert!(!Rc::ptr_eq(&first, &other));
        assert_eq!(ConvertSettings::from_text("null").report.errors[0].path.to_string(), "/options/provider");
    }
}
