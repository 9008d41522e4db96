//! Registration plans: the HTTP calls that register an agent described by ml-commons' unified
//! registration body (`name`, `type`, `model{model_id, model_provider, credential,
//! model_parameters}`, `parameters`, `tools`, `memory`) on a cluster of a given ml-commons version.
//!
//! Where the version has the unified agent API (on by default from 3.9, behind
//! `plugins.ml_commons.unified_agent_api_enabled` from 3.5) the plan is the one unified
//! `_register` call. Before it, the plan is the three legacy calls — connector, model, agent —
//! with the connector written exactly as ml-commons' own model providers write it
//! (`BedrockConverseModelProvider`, `OpenaiV1ChatCompletionsModelProvider`,
//! `GeminiV1BetaGenerateContentModelProvider`, `createConnector`), so an agent registered the
//! old way talks to its model as one registered the new way does. No I/O: the plan is data;
//! the CLI prints it as JSON or as a curl script ([`curl_script`]).
//!
//! A later step uses an id returned by an earlier one through a placeholder `{{connector_id}}` /
//! `{{model_id}}`: the whole JSON string `"{{connector_id}}"` is to be replaced by the
//! `connector_id` of the answer to the step whose [`Step::returns`] names it. ml-commons never
//! reads `{{`, so a placeholder left in place fails loudly (an unknown connector id) rather than
//! silently.
//!
//! ```
//! use agent_input::register::{self, PlanOptions, Version};
//!
//! let body = serde_json::json!({"name": "Weather", "type": "conversational",
//!     "model": {"model_id": "gpt-4o", "model_provider": "openai/v1/chat/completions",
//!               "credential": {"openai_api_key": "sk-..."}}});
//! let plan = register::plan(&body, &PlanOptions::new(Version::new(3, 3))).unwrap();
//! assert_eq!(plan.steps.len(), 3);
//! assert_eq!(plan.steps[1].body["connector_id"], "{{connector_id}}");
//! assert_eq!(plan.steps[2].body["parameters"]["_llm_interface"], "openai/v1/chat/completions");
//! ```

mod body;
mod connector;
mod plan;
mod preview;
mod script;
mod template;

use serde_json::{Map, Value};

pub use body::{Registration, credential_keys};
pub use plan::{Api, Method, Plan, PlanOptions, Step, Version};
pub use preview::{Preview, preview};
pub use script::curl_script;
pub use template::{SubstitutionError, escape_parameter, substitute};

use crate::convert::mlcommons::AgentType;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::path::Path;

pub use connector::{CONNECTOR_ID, MODEL_ID};

/// The agent types whose runners read `_llm_interface` (`MLChatAgentRunner`,
/// `MLPlanExecuteAndReflectAgentRunner`).
const LEGACY_TYPES: &[&str] = &["conversational", "plan_execute_and_reflect"];

/// The cluster setting that enables the unified agent API.
pub const UNIFIED_API_SETTING: &str = "plugins.ml_commons.unified_agent_api_enabled";

/// Reads registration text and plans it.
///
/// # Errors
/// `invalid_json` when the text is not JSON, else as [`plan`].
pub fn plan_str(text: &str, options: &PlanOptions) -> Result<Plan, Report> {
    match serde_json::from_str::<Value>(text) {
        Ok(value) => plan(&value, options),
        Err(error) => {
            let mut report = Report::default();
            report.push(Diagnostic::new(
                Code::InvalidJson,
                Path::root(),
                format!("the registration body is not JSON: {error}"),
            ));
            Err(report)
        }
    }
}

/// Plans the registration of `body` on a cluster of `options.version`.
///
/// # Errors
/// Every problem of the registration body at once (each with its path), and options the version
/// cannot serve (at `/options/version`, `/options/api`), with the warnings found so far.
pub fn plan(body: &Value, options: &PlanOptions) -> Result<Plan, Report> {
    let (registration, mut report) = Registration::read(body);
    let api = choose_api(options, registration.as_ref(), &mut report);
    let Some(registration) = registration.filter(|_| report.is_ok()) else {
        return Err(report);
    };
    let Some(api) = api else {
        return Err(report);
    };
    let steps = match api {
        Api::Unified => {
            check_type_version(&registration, options.version, &mut report);
            if !report.is_ok() {
                return Err(report);
            }
            unified_steps(&registration, options.version)
        }
        Api::Legacy if LEGACY_TYPES.contains(&registration.agent_type.as_str()) => legacy_steps(&registration),
        Api::Legacy => {
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    Path::root().key("type"),
                    format!(
                        "the legacy calls build a function-calling agent (`_llm_interface`), which only conversational and plan_execute_and_reflect agents read; a {} agent with a `model` block needs the unified API (3.5 or later)",
                        registration.agent_type
                    ),
                )
                .expected(LEGACY_TYPES.iter().copied())
                .received(registration.agent_type.clone()),
            );
            return Err(report);
        }
    };
    Ok(Plan { api, steps, warnings: report.warnings })
}

fn choose_api(options: &PlanOptions, registration: Option<&Registration>, report: &mut Report) -> Option<Api> {
    let version = options.version;
    let at = || Path::root().key("options").key("version");
    if version < Version::FUNCTION_CALLING {
        report.push(
            Diagnostic::new(
                Code::InvalidParameter,
                at(),
                format!(
                    "ml-commons {version} has no `_llm_interface` function calling, which an agent built from a `model` block needs; use 3.0 or later"
                ),
            )
            .received(version.to_string()),
        );
        return None;
    }
    if let Some(registration) = registration
        && registration.ml_commons.needs_unified_api
        && version < Version::UNIFIED_API
    {
        report.push(
            Diagnostic::new(
                Code::InvalidParameter,
                at(),
                format!(
                    "ml-commons {version} has no {} function calling (`{}` arrived in 3.5)",
                    registration.provider.display_name(),
                    registration.ml_commons.name,
                ),
            )
            .received(version.to_string()),
        );
        return None;
    }
    match options.api {
        Some(Api::Unified) if version < Version::UNIFIED_API => {
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    Path::root().key("options").key("api"),
                    format!("ml-commons {version} has no unified agent API (it arrived in 3.5); use the legacy plan"),
                )
                .received("unified"),
            );
            None
        }
        Some(api) => Some(api),
        None if version >= Version::UNIFIED_API_DEFAULT_ON => Some(Api::Unified),
        // A type the legacy calls cannot build is registered through the unified API where the
        // version has it.
        None if version >= Version::UNIFIED_API
            && registration.is_some_and(|r| !LEGACY_TYPES.contains(&r.agent_type.as_str())) =>
        {
            Some(Api::Unified)
        }
        None => Some(Api::Legacy),
    }
}

/// The types a registration with a `model` block can have on ml-commons `version` through `api`:
/// through the unified API every type the version has; through the legacy calls only those whose
/// runners read `_llm_interface` (`conversational`, `plan_execute_and_reflect`).
#[must_use]
pub fn agent_types(version: Version, api: Api) -> Vec<AgentType> {
    match api {
        Api::Unified => AgentType::ALL.into_iter().filter(|t| t.since() <= version).collect(),
        Api::Legacy => vec![AgentType::Conversational, AgentType::PlanExecuteAndReflect],
    }
}

/// A type the version does not have yet.
fn check_type_version(registration: &Registration, version: Version, report: &mut Report) {
    if let Some(agent_type) = AgentType::parse(&registration.agent_type)
        && agent_type.since() > version
    {
        report.push(
            Diagnostic::new(
                Code::InvalidParameter,
                Path::root().key("type"),
                format!(
                    "ml-commons {version} has no {} agent type (it arrived in {}); choose a later version or another type",
                    agent_type.name(),
                    agent_type.since()
                ),
            )
            .expected(agent_types(version, Api::Unified).into_iter().map(AgentType::name))
            .received(agent_type.name()),
        );
    }
}

/// The unified call; on versions where the API is off by default, preceded by the setting.
fn unified_steps(registration: &Registration, version: Version) -> Vec<Step> {
    let mut steps = Vec::new();
    if version < Version::UNIFIED_API_DEFAULT_ON {
        let mut persistent = Map::new();
        persistent.insert(UNIFIED_API_SETTING.into(), Value::Bool(true));
        let mut settings = Map::new();
        settings.insert("persistent".into(), Value::Object(persistent));
        steps.push(Step {
            method: Method::Put,
            path: "/_cluster/settings",
            body: Value::Object(settings),
            returns: None,
        });
    }
    steps.push(Step {
        method: Method::Post,
        path: "/_plugins/_ml/agents/_register",
        body: registration.body.clone(),
        returns: Some("agent_id"),
    });
    steps
}

fn legacy_steps(registration: &Registration) -> Vec<Step> {
    let connector = connector::connector(registration);
    let model = connector::model(registration);
    let agent = connector::agent(registration);
    vec![
        Step {
            method: Method::Post,
            path: "/_plugins/_ml/connectors/_create",
            body: connector,
            returns: Some("connector_id"),
        },
        Step { method: Method::Post, path: "/_plugins/_ml/models/_register", body: model, returns: Some("model_id") },
        Step { method: Method::Post, path: "/_plugins/_ml/agents/_register", body: agent, returns: Some("agent_id") },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(agent_type: &str) -> Value {
        serde_json::json!({"name": "a", "type": agent_type,
            "model": {"model_id": "m", "model_provider": "openai/v1/chat/completions",
                "credential": {"openai_api_key": "k"}}})
    }

    #[test]
    fn types_only_the_unified_api_registers_get_it_where_the_version_has_it() {
        let at = |v: Version, t: &str| plan(&body(t), &PlanOptions::new(v));
        assert_eq!(at(Version::new(3, 6), "conversational").unwrap().api, Api::Legacy);
        let ag_ui = at(Version::new(3, 6), "ag_ui").unwrap();
        assert_eq!((ag_ui.api, ag_ui.steps.len()), (Api::Unified, 2));
        assert_eq!(at(Version::new(3, 6), "conversational_v2").unwrap().api, Api::Unified);
        let early = at(Version::new(3, 5), "conversational_v2").unwrap_err();
        assert_eq!(early.errors[0].path.to_string(), "/type");
        assert!(
            early.errors[0]
                .message
                .starts_with("ml-commons 3.5 has no conversational_v2 agent type (it arrived in 3.6)"),
            "{}",
            early.errors[0].message
        );
        // Before the unified API, the legacy calls cannot build it.
        assert_eq!(at(Version::new(3, 4), "ag_ui").unwrap_err().errors[0].path.to_string(), "/type");
    }

    #[test]
    fn versions_parse_with_or_without_patch_and_suffix() {
        assert_eq!(Version::parse("3.5"), Some(Version::new(3, 5)));
        assert_eq!(Version::parse("3.9.0-SNAPSHOT"), Some(Version::new(3, 9)));
        assert_eq!(Version::parse("2.19.1"), Some(Version::new(2, 19)));
        assert_eq!(Version::parse("3"), None);
        assert_eq!(Version::parse("3.x"), None);
        assert_eq!(Version::parse("3.5.0.1"), None);
        assert!(Version::new(2, 19) < Version::new(3, 0));
    }
}
