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

use super::body::{ModelProvider, Registration};

/// The connector-id placeholder in the model step.
pub const CONNECTOR_ID: &str = "{{connector_id}}";
/// The model-id placeholder in the agent step.
pub const MODEL_ID: &str = "{{model_id}}";

/// `BedrockConverseModelProvider.REQUEST_BODY_TEMPLATE`.
pub(super) const BEDROCK_REQUEST_BODY: &str = concat!(
    "{\"system\": [{\"text\": \"${parameters.system_prompt}\"}], ",
    "\"messages\": [${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-}, ",
    "\"inferenceConfig\": {\"maxTokens\": ${parameters.max_tokens:-4096}",
    "${parameters.temperature_field:-}${parameters.top_p_field:-}}",
    " }"
);
/// `BedrockConverseModelProvider.TEXT_INPUT_BODY_TEMPLATE`.
const BEDROCK_TEXT_INPUT: &str = "{\"role\":\"user\",\"content\":[{\"text\":\"${parameters.user_text}\"}]}";

/// `OpenaiV1ChatCompletionsModelProvider.REQUEST_BODY_TEMPLATE`.
pub(super) const OPENAI_REQUEST_BODY: &str = concat!(
    "{\"model\":\"${parameters.model}\",",
    "\"messages\":[${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-}",
    ",\"max_completion_tokens\":${parameters.max_tokens:-4096}",
    ",\"temperature\":${parameters.temperature:-1.0}",
    "${parameters.top_p_field:-}}"
);
/// `OpenaiV1ChatCompletionsModelProvider.REQUEST_BODY_REASONING_TEMPLATE`.
pub(super) const OPENAI_REASONING_REQUEST_BODY: &str = concat!(
    "{\"model\":\"${parameters.model}\",",
    "\"messages\":[${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-}",
    ",\"max_completion_tokens\":${parameters.max_tokens:-4096}",
    ",\"reasoning_effort\":\"${parameters.reasoning_effort}\"}"
);
/// `OpenaiV1ChatCompletionsModelProvider.TEXT_INPUT_BODY_TEMPLATE`.
const OPENAI_TEXT_INPUT: &str = "{\"role\":\"user\",\"content\":\"${parameters.user_text}\"}";

/// `GeminiV1BetaGenerateContentModelProvider.REQUEST_BODY_TEMPLATE`.
pub(super) const GEMINI_REQUEST_BODY: &str = concat!(
    "{\"systemInstruction\":{\"parts\":[{\"text\":\"${parameters.system_prompt:-You are a helpful assistant.}\"}]},",
    "\"contents\":[${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-},",
    "\"generationConfig\":{\"maxOutputTokens\":${parameters.max_tokens:-4096},",
    "\"temperature\":${parameters.temperature:-1.0}${parameters.top_p_field:-}}",
    "}"
);
/// `GeminiV1BetaGenerateContentModelProvider.TEXT_INPUT_BODY_TEMPLATE`.
const GEMINI_TEXT_INPUT: &str = "{\"role\":\"user\",\"parts\":[{\"text\":\"${parameters.user_text}\"}]}";

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
    if registration.provider == ModelProvider::BedrockConverse {
        parameters.insert("region".to_owned(), "us-east-1".to_owned());
        parameters.insert("service_name".to_owned(), "bedrock".to_owned());
    }
    parameters.insert("model".to_owned(), registration.model_id.clone());
    parameters.extend(model.iter().map(|(k, v)| (k.clone(), v.clone())));
    let top_p_key = if registration.provider == ModelProvider::OpenAiChat { "top_p" } else { "topP" };
    if let Some(top_p) = model.get("top_p") {
        parameters.insert("top_p_field".to_owned(), format!(", \"{top_p_key}\": {top_p}"));
    } else if registration.provider == ModelProvider::BedrockConverse {
        let temperature = model.get("temperature").map_or("1.0", String::as_str);
        parameters.insert("temperature_field".to_owned(), format!(", \"temperature\": {temperature}"));
    }
    parameters
}

/// The predict action's `request_body` for a legacy agent.
pub(super) fn request_body(registration: &Registration) -> String {
    let (template, text_input) = match registration.provider {
        ModelProvider::BedrockConverse => (BEDROCK_REQUEST_BODY, BEDROCK_TEXT_INPUT),
        ModelProvider::OpenAiChat if registration.model_parameters.contains_key("reasoning_effort") => {
            (OPENAI_REASONING_REQUEST_BODY, OPENAI_TEXT_INPUT)
        }
        ModelProvider::OpenAiChat => (OPENAI_REQUEST_BODY, OPENAI_TEXT_INPUT),
        ModelProvider::Gemini => (GEMINI_REQUEST_BODY, GEMINI_TEXT_INPUT),
    };
    template.replace(BODY, &text_input.replace(USER_TEXT, PROMPT))
}

pub(super) fn connector(registration: &Registration) -> Value {
    let provider = registration.provider;
    let (name, description, protocol, url, headers): (_, _, _, _, &[(&str, &str)]) = match provider {
        ModelProvider::BedrockConverse => (
            "Auto-generated Bedrock Converse connector for Agent",
            "Auto-generated connector for Bedrock Converse API",
            "aws_sigv4",
            "https://bedrock-runtime.${parameters.region}.amazonaws.com/model/${parameters.model}/converse",
            &[("content-type", "application/json")],
        ),
        ModelProvider::OpenAiChat => (
            "Auto-generated OpenAI connector for Agent",
            "Auto-generated connector for OpenAI Chat Completions API",
            "http",
            "https://api.openai.com/v1/chat/completions",
            &[("Content-Type", "application/json"), ("Authorization", "Bearer ${credential.openai_api_key}")],
        ),
        ModelProvider::Gemini => (
            "Auto-generated Gemini connector for Agent",
            "Auto-generated connector for Gemini generateContent API",
            "http",
            "https://generativelanguage.googleapis.com/v1beta/models/${parameters.model}:generateContent",
            &[("Content-Type", "application/json"), ("x-goog-api-key", "${credential.gemini_api_key}")],
        ),
    };
    let parameters = parameters(registration);
    let connector = Connector {
        name,
        description,
        version: "1",
        protocol,
        parameters: &parameters,
        credential: &registration.credential,
        actions: [Action {
            kind: "predict",
            method: "POST",
            url,
            headers: headers.iter().copied().collect(),
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
    parameters.insert("_llm_interface".into(), Value::String(registration.provider.llm_interface().into()));
    agent.insert("parameters".into(), Value::Object(parameters));
    agent.into()
}
