//! The legacy calls' bodies, written as ml-commons' model providers write the connector, model
//! and agent they create from a `model` block (ml-commons `common/.../agent/*ModelProvider.java`
//! `createConnector` / `createModelInput`, `TransportRegisterAgentAction.createModelAndRegisterAgent`).
//!
//! One change: the providers' `request_body` takes the user turn from `${parameters.body}`, which
//! only the unified executor fills. A legacy agent gets the provider's own text-input template in
//! its place with `${parameters.prompt}` as the text — what the Bedrock provider itself writes for
//! `plan_execute_and_reflect` agents — and the agent maps `prompt` to `${parameters.question}`.

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::{Map, Value};

use super::body::Registration;

/// The connector-id placeholder in the model step.
pub const CONNECTOR_ID: &str = "{{connector_id}}";
/// The model-id placeholder in the agent step.
pub const MODEL_ID: &str = "{{model_id}}";

/// The `${parameters.body}` of the unified templates.
const BODY: &str = "${parameters.body}";
/// The providers' text-input parameter, and what a legacy agent puts there.
const USER_TEXT: &str = "${parameters.user_text}";
const PROMPT: &str = "${parameters.prompt}";
/// What the legacy agent maps `prompt` to.
pub(super) const QUESTION: &str = "${parameters.question}";

/// `POST /_plugins/_ml/connectors/_create` body (`MLCreateConnectorInput`).
#[derive(Debug, Serialize)]
struct Connector<'a> {
    name: &'static str,
    description: &'static str,
    version: &'static str,
    protocol: &'static str,
    parameters: &'a BTreeMap<String, String>,
    credential: &'a BTreeMap<String, String>,
    actions: [Action; 1],
    client_config: ClientConfig,
}

/// `ConnectorAction`.
#[derive(Debug, Serialize)]
struct Action {
    #[serde(rename = "action_type")]
    kind: &'static str,
    method: &'static str,
    url: &'static str,
    headers: BTreeMap<&'static str, &'static str>,
    request_body: String,
}

/// `ConnectorClientConfig`: the providers set only the retries.
#[derive(Debug, Serialize)]
struct ClientConfig {
    max_retry_times: u32,
}

/// The connector's parameters as `createConnector` builds them.
pub(super) fn parameters(registration: &Registration) -> BTreeMap<String, String> {
    let model = &registration.model_parameters;
    let mut parameters = BTreeMap::new();
    let provider = registration.ml_commons;
    for (key, value) in provider.fixed_parameters {
        parameters.insert((*key).to_owned(), (*value).to_owned());
    }
    parameters.insert("model".to_owned(), registration.model_id.clone());
    parameters.extend(model.iter().map(|(k, v)| (k.clone(), v.clone())));
    let top_p_key = provider.top_p_key;
    if let Some(top_p) = model.get("top_p") {
        parameters.insert("top_p_field".to_owned(), format!(", \"{top_p_key}\": {top_p}"));
    } else if provider.temperature_field {
        let temperature = model.get("temperature").map_or("1.0", String::as_str);
        parameters.insert("temperature_field".to_owned(), format!(", \"temperature\": {temperature}"));
    }
    parameters
}

/// The predict action's `request_body` for a legacy agent.
pub(super) fn request_body(registration: &Registration) -> String {
    let provider = registration.ml_commons;
    let template = match provider.reasoning_request_body {
        Some(reasoning) if registration.model_parameters.contains_key("reasoning_effort") => reasoning,
        _ => provider.request_body,
    };
    template.replace(BODY, &provider.text_input.replace(USER_TEXT, PROMPT))
}

pub(super) fn connector(registration: &Registration) -> Value {
    let facts = &registration.ml_commons.connector;
    let parameters = parameters(registration);
    let connector = Connector {
        name: facts.name,
        description: facts.description,
        version: "1",
        protocol: facts.protocol,
        parameters: &parameters,
        credential: &registration.credential,
        actions: [Action {
            kind: "predict",
            method: "POST",
            url: facts.url,
            headers: facts.headers.iter().copied().collect(),
            request_body: request_body(registration),
        }],
        client_config: ClientConfig { max_retry_times: 3 },
    };
    serde_json::to_value(connector).unwrap_or(Value::Null)
}

/// `createModelInput`, with the connector by id instead of inline.
pub(super) fn model(registration: &Registration) -> Value {
    let mut model = Map::new();
    model.insert("name".into(), Value::String(format!("Auto-generated model for {}", registration.model_id)));
    model.insert("function_name".into(), Value::String("remote".into()));
    model.insert("description".into(), Value::String("Auto-generated model for agent".into()));
    model.insert("connector_id".into(), Value::String(CONNECTOR_ID.into()));
    Value::Object(model)
}

/// The agent as `createModelAndRegisterAgent` stores it, without `model`: `llm` from the new
/// model and `model_parameters`, `_llm_interface` from the provider, and — what the unified
/// executor does by itself — `prompt` mapped to the question.
pub(super) fn agent(registration: &Registration) -> Value {
    let mut agent = registration.body.as_object().cloned().unwrap_or_default();
    agent.remove("model");
    let mut llm_parameters: Map<String, Value> =
        registration.model_parameters.iter().map(|(k, v)| (k.clone(), Value::String(v.clone()))).collect();
    // The plan-execute-reflect runner writes its own prompts; a chat agent's default prompt is
    // the ReAct text template, which a function-calling body must not get.
    if registration.agent_type != "plan_execute_and_reflect" {
        llm_parameters.entry("prompt").or_insert_with(|| Value::String(QUESTION.into()));
    }
    let mut llm = Map::new();
    llm.insert("model_id".into(), Value::String(MODEL_ID.into()));
    llm.insert("parameters".into(), Value::Object(llm_parameters));
    agent.insert("llm".into(), Value::Object(llm));
    let mut parameters = registration.parameters();
    parameters.insert("_llm_interface".into(), Value::String(registration.ml_commons.llm_interface.into()));
    agent.insert("parameters".into(), Value::Object(parameters));
    agent.into()
}
