//! "Deploy to OpenSearch": the unified registration body for the current settings, the core's
//! registration plan for it read from `agent-input/register`'s report (the module is loaded on
//! demand, see `browser::register_module`), and the plan as Dev Tools console text and as a curl
//! script.

use std::cell::RefCell;
use std::fmt::Write as _;

use agent_input::ProviderId;
use agent_input::register::{self, Api, Method, Plan, Step, Version};
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

/// A problem of the registration body or the plan (`agent-input/register`'s diagnostic shape).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Problem {
    pub(crate) code: String,
    /// A JSON Pointer into the registration body (`""`: the whole body).
    pub(crate) path: String,
    pub(crate) message: String,
    /// `"error"` or `"warning"`.
    pub(crate) severity: &'static str,
}

/// The plan read from the module's report: the core's steps, its warnings.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct DeployPlan {
    pub(crate) api: Api,
    pub(crate) steps: Vec<Step>,
    pub(crate) warnings: Vec<Problem>,
}

impl DeployPlan {
    /// The core's plan, for `register::curl_script` (which does not read the warnings).
    pub(crate) fn core(&self) -> Plan {
        Plan { api: self.api, steps: self.steps.clone(), warnings: Vec::new() }
    }
}

/// The options `planRegistration` takes for the settings: `{version, api?}` as its two strings.
pub(crate) fn plan_options(deploy: &DeploySettings) -> (String, Option<&'static str>) {
    let api = deploy.api.map(|api| match api {
        Api::Unified => "unified",
        Api::Legacy => "legacy",
    });
    (deploy.version.to_string(), api)
}

/// Reads `planRegistration`'s report (`{ok, api?, steps?, errors, warnings}`, JSON text): the
/// plan, or every problem in it (errors, then warnings). A report that is not of that shape is
/// one problem saying so, never a silent empty plan.
pub(crate) fn read_plan(report: &str) -> Result<DeployPlan, Vec<Problem>> {
    let unreadable = |why: &str| {
        vec![Problem {
            code: "internal".into(),
            path: String::new(),
            message: format!(
                "the registration module's report could not be read ({why}): {}",
                report.chars().take(200).collect::<String>()
            ),
            severity: "error",
        }]
    };
    let value: Value = serde_json::from_str(report).map_err(|e| unreadable(&e.to_string()))?;
    let problems = |key: &str, severity: &'static str| -> Vec<Problem> {
        value[key]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|d| Problem {
                        code: d["code"].as_str().unwrap_or_default().to_string(),
                        path: d["path"].as_str().unwrap_or_default().to_string(),
                        message: d["message"].as_str().unwrap_or_default().to_string(),
                        severity,
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let warnings = problems("warnings", "warning");
    if value["ok"] != Value::Bool(true) {
        let mut all = problems("errors", "error");
        all.extend(warnings);
        return Err(if all.is_empty() { unreadable("not ok, and no errors") } else { all });
    }
    let api = match value["api"].as_str() {
        Some("unified") => Api::Unified,
        Some("legacy") => Api::Legacy,
        _ => return Err(unreadable("no api")),
    };
    let steps = value["steps"]
        .as_array()
        .ok_or_else(|| unreadable("no steps"))?
        .iter()
        .map(|step| {
            let method = match step["method"].as_str() {
                Some("POST") => Method::Post,
                Some("PUT") => Method::Put,
                _ => return Err(unreadable("a step's method")),
            };
            Ok(Step {
                method,
                path: interned(step["path"].as_str().ok_or_else(|| unreadable("a step's path"))?),
                body: step["body"].clone(),
                returns: step["returns"].as_str().map(interned),
            })
        })
        .collect::<Result<_, _>>()?;
    Ok(DeployPlan { api, steps, warnings })
}

/// The core's `Step` holds its path and returned id as `&'static str` (the core writes them from
/// constants); read back from the module, each distinct one is kept once. The module writes a
/// handful (four paths, three ids), so this holds a few hundred bytes however often it plans.
fn interned(text: &str) -> &'static str {
    thread_local!(static SEEN: RefCell<Vec<&'static str>> = const { RefCell::new(Vec::new()) });
    SEEN.with_borrow_mut(|seen| {
        if let Some(known) = seen.iter().find(|known| **known == text) {
            return *known;
        }
        let leaked: &'static str = Box::leak(text.into());
        seen.push(leaked);
        leaked
    })
}

/// The plan as text for `OpenSearch` Dashboards' Dev Tools console: each call as
/// `METHOD path` and its body, with comments saying which id to paste where.
pub(crate) fn console_text(plan: &DeployPlan, version: Version) -> String {
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

    /// `planRegistration`'s report for the text, as `agent-input/register` writes it
    /// (crates/agent-input-wasm/src/register.rs: the core's plan, diagnostics as
    /// `{code, path, message}`).
    fn report(text: &str, deploy: &DeploySettings) -> String {
        let list = |ds: &[agent_input::Diagnostic]| -> Vec<Value> {
            ds.iter()
                .map(|d| json!({"code": d.code.as_str(), "path": d.path.to_string(), "message": d.message}))
                .collect()
        };
        let options = register::PlanOptions { version: deploy.version, api: deploy.api };
        match register::plan_str(text, &options) {
            Ok(plan) => json!({"ok": true, "api": plan.api, "steps": plan.steps, "errors": [], "warnings": list(&plan.warnings)}),
            Err(report) => json!({"ok": false, "errors": list(&report.errors), "warnings": list(&report.warnings)}),
        }
        .to_string()
    }

    #[test]
    fn plans_follow_the_version() {
        let text = registration(&settings(ProviderId::OpenAiChat), &DeploySettings::default()).unwrap().to_string();
        let old = DeploySettings { version: Version::new(3, 4), ..DeploySettings::default() };
        assert_eq!(plan_options(&old), ("3.4".to_string(), None));
        let legacy = read_plan(&report(&text, &old)).unwrap();
        let paths: Vec<&str> = legacy.steps.iter().map(|s| s.path).collect();
        assert_eq!(
            paths,
            ["/_plugins/_ml/connectors/_create", "/_plugins/_ml/models/_register", "/_plugins/_ml/agents/_register"]
        );
        // Read back, the plan is the core's own.
        let core = register::plan_str(&text, &register::PlanOptions::new(old.version)).unwrap();
        assert_eq!(legacy.core(), Plan { warnings: Vec::new(), ..core.clone() });
        assert_eq!(register::curl_script(&legacy.core(), old.version), register::curl_script(&core, old.version));
        let console = console_text(&legacy, old.version);
        assert!(console.contains("POST /_plugins/_ml/models/_register\n{"), "{console}");
        assert!(console.contains("# Replace \"{{connector_id}}\" with the connector_id returned above."), "{console}");
        let unified = read_plan(&report(&text, &DeploySettings::default())).unwrap();
        assert_eq!(unified.steps.len(), 1);
        let errors = read_plan(&report(r#"{"name": "x"}"#, &DeploySettings::default())).unwrap_err();
        assert!(errors.iter().any(|d| d.path == "/type" && d.severity == "error"), "{errors:?}");
    }

    #[test]
    fn a_report_of_another_shape_is_a_problem_not_an_empty_plan() {
        for bad in ["", "[]", r#"{"ok": true, "api": "unified"}"#, r#"{"ok": false, "errors": []}"#] {
            let problems = read_plan(bad).unwrap_err();
            assert_eq!(problems.len(), 1, "{bad}");
            assert!(problems[0].message.contains("could not be read"), "{bad}: {problems:?}");
        }
        // Interned once: the same path twice is the same string.
        assert!(std::ptr::eq(interned("/_plugins/_ml/agents/_register"), interned("/_plugins/_ml/agents/_register")));
    }
}
