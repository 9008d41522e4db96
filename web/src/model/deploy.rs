//! "Deploy to OpenSearch": what the conversion settings give the unified registration body (the
//! view, `deploy_view.js`, loaded on demand with `agent-input/register`'s module, builds the body
//! with its own fields and plans it), and a plan's curl script, written by the core's
//! `register::curl_script` from the module's report.

use std::cell::RefCell;

use agent_input::convert::mlcommons::AgentType;
use agent_input::register::{self, Api, Method, Plan, Step, Version};
use agent_input::{InputType, ProviderId};
use serde_json::{Map, Value, json};

use super::settings::Settings;

/// A model id to start from, per provider ml-commons' model block takes (the user writes their own).
fn example_model(provider: ProviderId) -> &'static str {
    match provider {
        ProviderId::BedrockConverse => "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
        ProviderId::OpenAiChat => "gpt-4o",
        ProviderId::Gemini => "gemini-2.5-flash",
        _ => "",
    }
}

/// What the settings give the registration body, for the view: the `model` block without its id
/// (ml-commons' provider, credentials as `{{…}}` placeholders to replace), the model parameters
/// (the system prompt, max tokens, temperature and top p), the example model id, whether the
/// provider takes a region; or why there is no body (`unavailable`): ml-commons' `model` block has
/// no provider for the Responses API or Anthropic's Messages API.
/// The agent types each version offered by the view registers with a `model` block (through the
/// unified API from 3.5, the legacy calls before), and the one picked for an input of `form`
/// with the reason: `{"3.6": {"offered": [...], "pick": "ag_ui", "why": "..."}, ...}`.
fn agent_types(form: InputType) -> Value {
    let mut by_version = Map::new();
    for minor in 0..=Version::LATEST.minor {
        let version = Version::new(3, minor);
        let api = if version >= Version::UNIFIED_API { Api::Unified } else { Api::Legacy };
        let offered = register::agent_types(version, api);
        let (pick, why) = AgentType::default_for(form, &offered);
        let names: Vec<&str> = offered.iter().map(|t| t.name()).collect();
        by_version.insert(version.to_string(), json!({"offered": names, "pick": pick.name(), "why": why}));
    }
    Value::Object(by_version)
}

/// The input form of an analysis' `input_type` (`TEXT`, …); a text while the input is invalid.
pub(crate) fn input_form(input_type: Option<&str>) -> InputType {
    match input_type {
        Some("CONTENT_BLOCKS") => InputType::ContentBlocks,
        Some("MESSAGES") => InputType::Messages,
        _ => InputType::Text,
    }
}

pub(crate) fn facts(settings: &Settings, form: InputType) -> Value {
    let Some(provider) = settings.provider.ml_commons_name() else {
        return json!({"unavailable": format!(
            "ml-commons' model block has no provider for {}: choose Bedrock Converse, OpenAI Chat Completions or Gemini in the conversion settings",
            settings.provider.display_name()
        )});
    };
    let credential: Map<String, Value> = register::credential_keys(settings.provider)
        .iter()
        .map(|k| ((*k).to_string(), Value::String(format!("{{{{{k}}}}}"))))
        .collect();
    let mut parameters = Map::new();
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
    json!({
        "model": {"model_provider": provider, "credential": credential},
        "model_parameters": parameters,
        "example_model": example_model(settings.provider),
        "region": settings.provider == ProviderId::BedrockConverse,
        "agent_types": agent_types(form),
    })
}

/// The curl script of a plan `planRegistration` reported (`{ok: true, api, steps, …}`, JSON text)
/// for the version (`"X.Y"`), as `agent-input register-plan --format curl` writes it; `None`
/// when the report is not such a plan.
pub(crate) fn curl_script(report: &str, version: &str) -> Option<String> {
    let value: Value = serde_json::from_str(report).ok()?;
    let api = match value["api"].as_str()? {
        "unified" => Api::Unified,
        "legacy" => Api::Legacy,
        _ => return None,
    };
    let steps = value["steps"]
        .as_array()?
        .iter()
        .map(|step| {
            let method = match step["method"].as_str()? {
                "POST" => Method::Post,
                "PUT" => Method::Put,
                _ => return None,
            };
            Some(Step {
                method,
                path: interned(step["path"].as_str()?),
                body: step["body"].clone(),
                returns: step["returns"].as_str().map(interned),
            })
        })
        .collect::<Option<_>>()?;
    Some(register::curl_script(&Plan { api, steps, warnings: Vec::new() }, Version::parse(version)?))
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
    fn the_settings_give_the_model_block() {
        let mut got = facts(&settings(ProviderId::BedrockConverse), InputType::Text);
        got.as_object_mut().unwrap().remove("agent_types");
        assert_eq!(
            got,
            json!({"model": {"model_provider": "bedrock/converse",
                    "credential": {"access_key": "{{access_key}}", "secret_key": "{{secret_key}}"}},
                "model_parameters": {"system_prompt": "Be brief.", "max_tokens": "512", "temperature": "0.5"},
                "example_model": "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "region": true})
        );
        assert_eq!(facts(&settings(ProviderId::Gemini), InputType::Text)["region"], false);
        let why = facts(&settings(ProviderId::AnthropicMessages), InputType::Text);
        assert!(why["unavailable"].as_str().unwrap().contains("Anthropic"), "{why}");
    }

    #[test]
    fn each_version_offers_its_types_and_picks_one_that_takes_the_input() {
        let text = agent_types(InputType::Text);
        assert_eq!(text["3.9"]["pick"], "conversational");
        assert_eq!(text["3.4"]["offered"], json!(["conversational", "plan_execute_and_reflect"]));
        assert_eq!(
            text["3.6"]["offered"],
            json!([
                "flow",
                "conversational",
                "conversational_flow",
                "plan_execute_and_reflect",
                "ag_ui",
                "conversational_v2"
            ])
        );
        assert_eq!(text["3.5"]["offered"].as_array().unwrap().len(), 5);
        let blocks = agent_types(InputType::ContentBlocks);
        assert_eq!(blocks["3.6"]["pick"], "ag_ui");
        let why = blocks["3.6"]["why"].as_str().unwrap();
        assert!(why.contains("the input has content blocks, which a conversational agent"), "{why}");
        assert_eq!(agent_types(InputType::Messages)["3.5"]["pick"], "ag_ui");
        let early = agent_types(InputType::Messages);
        assert_eq!(early["3.4"]["pick"], "conversational");
        assert!(early["3.4"]["why"].as_str().unwrap().contains("no agent type offered here takes messages"));
        assert_eq!(input_form(Some("CONTENT_BLOCKS")), InputType::ContentBlocks);
        assert_eq!(input_form(None), InputType::Text);
    }

    /// `planRegistration`'s report for the text, as `agent-input/register` writes it
    /// (crates/agent-input-wasm/src/register.rs: the core's plan, diagnostics as
    /// `{code, path, message}`).
    fn report(text: &str, options: &register::PlanOptions) -> String {
        let list = |ds: &[agent_input::Diagnostic]| -> Vec<Value> {
            ds.iter()
                .map(|d| json!({"code": d.code.as_str(), "path": d.path.to_string(), "message": d.message}))
                .collect()
        };
        match register::plan_str(text, options) {
            Ok(plan) => json!({"ok": true, "api": plan.api, "steps": plan.steps, "errors": [], "warnings": list(&plan.warnings)}),
            Err(report) => json!({"ok": false, "errors": list(&report.errors), "warnings": list(&report.warnings)}),
        }
        .to_string()
    }

    #[test]
    fn the_curl_script_is_the_cores_for_the_reported_plan() {
        let text = json!({"name": "a", "type": "conversational",
            "model": {"model_id": "gpt-4o", "model_provider": "openai/v1/chat/completions",
                "credential": {"openai_api_key": "{{openai_api_key}}"}},
            "memory": {"type": "conversation_index"}})
        .to_string();
        for version in [Version::new(3, 4), Version::LATEST] {
            let options = register::PlanOptions::new(version);
            let core = register::plan_str(&text, &options).unwrap();
            let script = curl_script(&report(&text, &options), &version.to_string()).unwrap();
            assert_eq!(script, register::curl_script(&core, version));
        }
        assert!(script_of(r#"{"name": "x"}"#).is_none());
        for bad in ["", "[]", r#"{"ok": true, "api": "unified"}"#, r#"{"ok": true, "api": "x", "steps": []}"#] {
            assert_eq!(curl_script(bad, "3.9"), None, "{bad}");
        }
        // Interned once: the same path twice is the same string.
        assert!(std::ptr::eq(interned("/_plugins/_ml/agents/_register"), interned("/_plugins/_ml/agents/_register")));
    }

    fn script_of(text: &str) -> Option<String> {
        curl_script(&report(text, &register::PlanOptions::new(Version::LATEST)), "3.9")
    }
}
