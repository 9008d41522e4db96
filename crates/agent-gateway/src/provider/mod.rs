//! Model clients, one module per provider, behind [`ProviderClient`].
//!
//! A call has two steps: [`ProviderClient::prepare`] builds what is sent from the whole conversation
//! (CPU work, run on a blocking thread; its errors are the caller's, a 400), and
//! [`ProviderClient::send`] sends it and reads the answer (its errors are the provider's, mapped by
//! [`ProviderError::into_api_error`]).

pub mod bedrock;
mod client;
pub mod echo;
pub mod hosted;

use agent_input::{Code, ConvertOptions, Diagnostic, Path, ProviderId, Report};
use serde_json::{Map, Value};

pub use self::client::{
    BoxFuture, Clients, MAX_STREAM_BYTES, Outgoing, ProviderClient, ProviderError, Streaming, endpoint_trust,
    next_chunk,
};
use crate::error::ApiError;
use crate::store::ModelSpec;

/// Which client a `model_provider` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The offline echo model.
    Echo,
    /// A provider the core converts for.
    Core(ProviderId),
}

impl Backend {
    /// Reads `echo` or a provider id / ml-commons alias, case-insensitively.
    pub fn parse(raw: &str) -> Option<Self> {
        if raw.trim().eq_ignore_ascii_case("echo") {
            Some(Self::Echo)
        } else {
            ProviderId::parse(raw.trim()).map(Self::Core)
        }
    }

    /// The names accepted, for messages: `echo`, and each provider's ml-commons name or, when it
    /// has none, its id.
    pub fn supported() -> Vec<String> {
        let mut names = vec!["echo".to_string()];
        names.extend(ProviderId::ALL.iter().map(|id| id.ml_commons_name().unwrap_or(id.as_str()).to_string()));
        names
    }
}

/// `model_parameters` keys that feed the conversion.
const CONVERSION_KEYS: &[&str] = &[
    "system_prompt",
    "max_tokens",
    "temperature",
    "top_p",
    "stop_sequences",
    "tools",
    "tool_choice",
    "prompt_cache",
    "response_format",
    "reasoning",
    "reasoning_effort",
];

/// The conversion options of an agent: its `model_parameters` that feed the conversion (numbers
/// may be strings, as ml-commons stores them; `tools` may be JSON text).
///
/// # Errors
/// `invalid_parameter` at `/model/model_parameters/<key>`.
pub fn convert_options(model_parameters: &Map<String, Value>) -> Result<ConvertOptions, Report> {
    let (options, report) = read_options(model_parameters);
    if report.is_ok() { Ok(options) } else { Err(report) }
}

/// The readable conversion options and a report of the rest, at `/model/model_parameters/<key>`.
fn read_options(model_parameters: &Map<String, Value>) -> (ConvertOptions, Report) {
    let mut picked = Map::new();
    for key in CONVERSION_KEYS {
        if let Some(value) = model_parameters.get(*key) {
            let value = match (*key, value) {
                ("tools" | "stop_sequences", Value::String(text)) if text.trim_start().starts_with('[') => {
                    serde_json::from_str(text).unwrap_or_else(|_| value.clone())
                }
                _ => value.clone(),
            };
            picked.insert((*key).to_string(), value);
        }
    }
    // ml-commons' spelling of prompt caching (its pull request 4617): `system_prompt_cache_enabled`
    // (a bool, or "true"/"false") and `system_prompt_cache_ttl`, read as `prompt_cache`.
    if !picked.contains_key("prompt_cache")
        && let Some(enabled) = model_parameters.get("system_prompt_cache_enabled")
    {
        let value = match model_parameters.get("system_prompt_cache_ttl") {
            Some(ttl) if matches!(enabled, Value::Bool(true)) || enabled.as_str() == Some("true") => {
                let mut cache = Map::new();
                cache.insert("ttl".to_string(), ttl.clone());
                Value::Object(cache)
            }
            _ => enabled.clone(),
        };
        picked.insert("prompt_cache".to_string(), value);
    }
    let (options, report) = ConvertOptions::read_json(&Value::Object(picked));
    (options, rerooted(report))
}

fn rerooted(mut report: Report) -> Report {
    for diagnostic in report.errors.iter_mut().chain(report.warnings.iter_mut()) {
        diagnostic.path = reroot_option(&diagnostic.path);
    }
    report
}

/// `/options/<name>` → `/model/model_parameters/<name>`.
fn reroot_option(path: &Path) -> Path {
    let mut out = Path::root().key("model").key("model_parameters");
    for segment in path.segments().iter().skip(1) {
        out = match segment {
            agent_input::Segment::Key(key) => out.key(if &**key == "system" { "system_prompt" } else { key }),
            agent_input::Segment::Index(i) => out.index(*i),
        };
    }
    out
}

/// Checks a `model` block (provider, credential, parameters) at registration, reporting every
/// problem.
pub fn check_model(model: &ModelSpec, endpoint_allow: &[String]) -> Report {
    let mut report = Report::default();
    match Backend::parse(&model.model_provider) {
        None => report.push(
            Diagnostic::new(
                Code::InvalidParameter,
                Path::root().key("model").key("model_provider"),
                format!("Unknown model provider type. Supported types: {}", Backend::supported().join(", ")),
            )
            .expected(Backend::supported())
            .received(model.model_provider.clone()),
        ),
        Some(Backend::Core(ProviderId::BedrockConverse)) => bedrock::check(model, endpoint_allow, &mut report),
        Some(Backend::Core(provider)) if hosted::handles(provider) => {
            hosted::check(provider, model, endpoint_allow, &mut report);
        }
        Some(_) => {}
    }
    // Every problem of the options at once: those that cannot be read, and the provider's range
    // and tool checks of those that can.
    let (options, errors) = read_options(&model.model_parameters);
    report.extend(errors);
    if let Some(Backend::Core(provider)) = Backend::parse(&model.model_provider) {
        report.extend(rerooted(agent_input::convert::check_options(provider, &options)));
    }
    report
}

/// The client for an agent's model.
///
/// # Errors
/// A provider the gateway has no client for, or a model block that does not make a client.
pub fn for_model(model: &ModelSpec, clients: &Clients) -> Result<Box<dyn ProviderClient>, ApiError> {
    match Backend::parse(&model.model_provider) {
        Some(Backend::Echo) => Ok(Box::new(echo::Echo)),
        Some(Backend::Core(ProviderId::BedrockConverse)) => Ok(Box::new(bedrock::Bedrock::new(model, clients)?)),
        // The API-key providers; one the gateway cannot call yet is a 501 from here.
        Some(Backend::Core(provider)) => Ok(Box::new(hosted::Hosted::new(provider, model, clients)?)),
        None => Err(ApiError::invalid_one(Diagnostic::new(
            Code::InvalidParameter,
            Path::root().key("model").key("model_provider"),
            format!("Unknown model provider type. Supported types: {}", Backend::supported().join(", ")),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn options_come_from_model_parameters_with_numbers_as_strings() {
        let parameters = json!({"region": "us-west-2", "max_tokens": "512", "temperature": 0.5,
            "system_prompt": "Be brief.", "tools": "[{\"name\":\"get_weather\"}]"});
        let options = convert_options(parameters.as_object().unwrap()).unwrap();
        assert_eq!(options.max_tokens, Some(512));
        assert_eq!(options.system.as_deref(), Some("Be brief."));
        assert_eq!(options.tools[0].spec().map(|spec| spec.name.as_str()), Some("get_weather"));
        let bad = json!({"top_p": "abc", "system_prompt": 5});
        let report = convert_options(bad.as_object().unwrap()).unwrap_err();
        let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert!(paths.contains(&"/model/model_parameters/top_p".to_string()), "{paths:?}");
        assert!(paths.contains(&"/model/model_parameters/system_prompt".to_string()), "{paths:?}");
    }

    #[test]
    fn request_features_come_from_model_parameters_in_both_spellings() {
        use agent_input::options::{CacheTtl, PromptCache, ToolChoice};
        let parameters = json!({"tool_choice": "required", "system_prompt_cache_enabled": "true",
            "system_prompt_cache_ttl": "1h", "response_format": "{\"schema\": {\"type\": \"object\"}}"});
        let options = convert_options(parameters.as_object().unwrap()).unwrap();
        assert_eq!(options.tool_choice, Some(ToolChoice::Any));
        assert_eq!(options.prompt_cache, Some(PromptCache { ttl: Some(CacheTtl::OneHour) }));
        assert_eq!(options.response_format.unwrap().schema, json!({"type": "object"}));
        let parameters = json!({"system_prompt_cache_enabled": false, "system_prompt_cache_ttl": "1h",
            "prompt_cache": null});
        assert_eq!(convert_options(parameters.as_object().unwrap()).unwrap().prompt_cache, None);
        let parameters = json!({"prompt_cache": {"ttl": "2h"}, "tool_choice": "maybe"});
        let report = convert_options(parameters.as_object().unwrap()).unwrap_err();
        let mut paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        paths.sort();
        assert_eq!(paths, ["/model/model_parameters/prompt_cache", "/model/model_parameters/tool_choice"]);
    }

    #[test]
    fn reasoning_comes_from_model_parameters_as_ml_commons_writes_it() {
        use agent_input::options::{Effort, Reasoning};
        let read = |parameters: Value| convert_options(parameters.as_object().unwrap()).map(|o| o.reasoning);
        assert_eq!(read(json!({"reasoning_effort": "high"})).unwrap(), Some(Reasoning::Effort(Effort::High)));
        assert_eq!(read(json!({"reasoning": "2048"})).unwrap(), Some(Reasoning::BudgetTokens(2048)));
        assert_eq!(
            read(json!({"reasoning": "{\"budget_tokens\": 4000}"})).unwrap(),
            Some(Reasoning::BudgetTokens(4000))
        );
        let report = read(json!({"reasoning": "lots"})).unwrap_err();
        assert_eq!(report.errors[0].path.to_string(), "/model/model_parameters/reasoning");
    }

    #[test]
    fn providers_parse_case_insensitively() {
        assert_eq!(Backend::parse("ECHO"), Some(Backend::Echo));
        assert_eq!(Backend::parse("Bedrock/Converse"), Some(Backend::Core(ProviderId::BedrockConverse)));
        assert_eq!(Backend::parse("nope"), None);
    }
}
