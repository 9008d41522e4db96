//! "Deploy to OpenSearch": the unified registration body for the current settings, and the
//! core's registration plan for it (`agent_input::register`) as Dev Tools console text and as a
//! curl script.

use std::fmt::Write as _;

use agent_input::register::{self, Api, Plan, PlanOptions, Version};
use agent_input::{Diagnostic, ProviderId};
use serde_json::{Map, Value, json};

use super::settings::Settings;

/// The ml-commons versions offered, oldest first (the plan refuses versions before 3.0).
pub(crate) const VERSIONS: &[Version] = &[
    Version::new(3, 0),
    Version::new(3, 1),
    Version::new(3, 2),
    Version::new(3, 3),
    Version::new(3, 4),
    Version::new(3, 5),
    Version::new(3, 6),
    Version::new(3, 7),
    Version::new(3, 8),
    Version::new(3, 9),
];

/// What the deploy view's own fields hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct DeploySettings {
    pub(crate) name: String,
    /// `conversational` or `plan_execute_and_reflect`.
    pub(crate) agent_type: String,
    /// Empty: the provider's example model.
    pub(crate) model_id: String,
    /// Bedrock's region; empty: ml-commons' default (`us-east-1`).
    pub(crate) region: String,
    pub(crate) version: Version,
    /// `None`: the version's default API.
    pub(crate) api: Option<Api>,
}

impl Default for DeploySettings {
    fn default() -> Self {
        Self {
            name: "Playground agent".into(),
            agent_type: "conversational".into(),
            model_id: String::new(),
            region: String::new(),
            version: Version::LATEST,
            api: None,
        }
    }
}

/// A model id to start from, per provider ml-commons' model block takes (the user writes their own).
pub(crate) fn example_model(provider: ProviderId) -> &'static str {
    match provider.ml_commons_name().and_then(register::ModelProvider::parse) {
        Some(register::ModelProvider::BedrockConverse) => "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
        Some(register::ModelProvider::OpenAiChat) => "gpt-4o",
        Some(register::ModelProvider::Gemini) => "gemini-2.5-flash",
        None => "",
    }
}

/// The unified registration body for the settings, or why there is none: ml-commons' `model`
/// block has no provider for the Responses API or Anthropic's Messages API. Credentials are
/// `{{…}}` placeholders to replace; the settings' system prompt, max tokens, temperature and
/// top p become `model_parameters`.
pub(crate) fn registration(settings: &Settings, deploy: &DeploySettings) -> Result<Value, String> {
    let Some(provider) = settings.provider.ml_commons_name() else {
        return Err(format!(
            "ml-commons' model block has no provider for {}: choose Bedrock Converse, OpenAI Chat Completions or Gemini in the conversion settings",
            settings.provider.display_name()
        ));
    };
    let credential: Map<String, Value> = register::ModelProvider::parse(provider)
        .map(|p| {
            p.credential_keys().iter().map(|k| ((*k).to_string(), Value::String(format!("{{{{{k}}}}}")))).collect()
        })
        .unwrap_or_default();
    let mut parameters = Map::new();
    if settings.provider == ProviderId::BedrockConverse && !deploy.region.trim().is_empty() {
        parameters.insert("region".into(), Value::String(deploy.region.trim().to_string()));
    }
    if !settings.system.is_empty() {
        parameters.insert("system_prompt".into(), Value::String(settings.system.clone()));
    }
    for (key, value) in
        [("max_tokens", &settings.max_tokens), ("temperature", &settings.temperature), ("top_p", &settings.top_p)]
    {
        if !value.trim().is_empty() {
            parameters.insert(key.into(), Value::String(value.trim().to_string()));
        }
    }
    let model_id =
        if deploy.model_id.trim().is_empty() { example_model(settings.provider) } else { deploy.model_id.trim() };
    let mut model = json!({"model_id": model_id, "model_provider": provider, "credential": credential});
    if !parameters.is_empty() {
        model["model_parameters"] = Value::Object(parameters);
    }
    let mut body = json!({"name": deploy.name, "type": deploy.agent_type, "model": model});
    if deploy.agent_type == "conversational" {
        body["memory"] = json!({"type": "conversation_index"});
    }
    Ok(body)
}

/// The plan for registration text, or every problem in it.
pub(crate) fn plan(text: &str, deploy: &DeploySettings) -> Result<Plan, Vec<Diagnostic>> {
    register::plan_str(text, &PlanOptions { version: deploy.version, api: deploy.api }).map_err(|report| {
        let mut all = report.errors;
        all.extend(report.warnings);
        all
    })
}

/// The plan as text for `OpenSearch` Dashboards' Dev Tools console: each call as
/// `METHOD path` and its body, with comments saying which id to paste where.
pub(crate) fn console_text(plan: &Plan, version: Version) -> String {
    let mut out = String::new();
    let api = match plan.api {
        Api::Unified => "unified",
        Api::Legacy => "legacy",
    };
    let _ = writeln!(out, "# Registers the agent on ml-commons {version}: {} call(s), {api} API.", plan.steps.len());
    for (i, step) in plan.steps.iter().enumerate() {
        let body = serde_json::to_string_pretty(&step.body).unwrap_or_default();
        let _ = writeln!(out);
        for id in [register::CONNECTOR_ID, register::MODEL_ID] {
            if body.contains(&format!("\"{id}\"")) {
                let _ = writeln!(
                    out,
                    "# Replace \"{id}\" with the {} returned above.",
                    id.trim_start_matches("{{").trim_end_matches("}}")
                );
            }
        }
        let _ = writeln!(out, "# {}.", i + 1);
        let _ = writeln!(out, "{} {}", step.method.as_str(), step.path);
        let _ = writeln!(out, "{body}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(provider: ProviderId) -> Settings {
        Settings {
            provider,
            system: "Be brief.".into(),
            max_tokens: "512".into(),
            temperature: " 0.5 ".into(),
            ..Settings::default()
        }
    }

    #[test]
    fn the_settings_make_a_registration_body() {
        let body = registration(&settings(ProviderId::BedrockConverse), &DeploySettings::default()).unwrap();
        assert_eq!(
            body,
            json!({"name": "Playground agent", "type": "conversational",
                "model": {"model_id": "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "model_provider": "bedrock/converse",
                    "credential": {"access_key": "{{access_key}}", "secret_key": "{{secret_key}}"},
                    "model_parameters": {"system_prompt": "Be brief.", "max_tokens": "512", "temperature": "0.5"}},
                "memory": {"type": "conversation_index"}})
        );
        let why = registration(&settings(ProviderId::AnthropicMessages), &DeploySettings::default()).unwrap_err();
        assert!(why.contains("Anthropic"), "{why}");
    }

    #[test]
    fn plans_follow_the_version() {
        let text = registration(&settings(ProviderId::OpenAiChat), &DeploySettings::default()).unwrap().to_string();
        let old = DeploySettings { version: Version::new(3, 4), ..DeploySettings::default() };
        let legacy = plan(&text, &old).unwrap();
        let paths: Vec<&str> = legacy.steps.iter().map(|s| s.path).collect();
        assert_eq!(
            paths,
            ["/_plugins/_ml/connectors/_create", "/_plugins/_ml/models/_register", "/_plugins/_ml/agents/_register"]
        );
        let console = console_text(&legacy, old.version);
        assert!(console.contains("POST /_plugins/_ml/models/_register\n{"), "{console}");
        assert!(console.contains("# Replace \"{{connector_id}}\" with the connector_id returned above."), "{console}");
        let unified = plan(&text, &DeploySettings::default()).unwrap();
        assert_eq!(unified.steps.len(), 1);
        let errors = plan(r#"{"name": "x"}"#, &DeploySettings::default()).unwrap_err();
        assert!(errors.iter().any(|d| d.path.to_string() == "/type"), "{errors:?}");
    }
}
