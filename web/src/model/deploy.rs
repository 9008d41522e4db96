//! "Deploy to OpenSearch": what the conversion settings give the unified registration body (the
//! view, `deploy_view.js`, loaded on demand with `agent-input/register`'s module, builds the body
//! with its own fields and plans it), and a plan's curl script, written by the core's
//! `register::curl_script` from the module's report.

use std::cell::RefCell;

use agent_input::ProviderId;
use agent_input::register::{self, Api, Method, Plan, Step, Version};
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
pub(crate) fn facts(settings: &Settings) -> Value {
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
        assert_eq!(
            facts(&settings(ProviderId::BedrockConverse)),
            json!({"model": {"model_provider": "bedrock/converse",
                    "credential": {"access_key": "{{access_key}}", "secret_key": "{{secret_key}}"}},
                "model_parameters": {"system_prompt": "Be brief.", "max_tokens": "512", "temperature": "0.5"},
                "example_model": "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "region": true})
        );
        assert_eq!(facts(&settings(ProviderId::Gemini))["region"], false);
        let why = facts(&settings(ProviderId::AnthropicMessages));
        assert!(why["unavailable"].as_str().unwrap().contains("Anthropic"), "{why}");
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
