//! Template preview: the legacy connector's `request_body` filled for one standard input, as a
//! chat agent's first model call fills it (`MLChatAgentRunner.constructLLMParams` and
//! `constructLLMPrompt`, `RemoteConnectorExecutor.preparePayloadAndInvoke`,
//! `HttpConnector.createPayload`, `Connector.validatePayload`).
//!
//! A legacy agent receives only `parameters.question`: the text ml-commons extracts from the
//! input. What that drops — media, and the turns of a messages input before its last assistant
//! turn — is reported as `field_ignored` at the dropped part. An agent without tools gets the
//! function calling's tool configuration with an empty list, as ml-commons writes it; an agent's
//! tool specs are written by ml-commons from each tool's own description and schema, and are not
//! previewed.
//! The input is validated for an ml-commons target, so `${` in its text is `template_placeholder`.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::Value;

use super::body::{Registration, stringify};
use super::connector;
use super::template::{SubstitutionError, escape_parameter, substitute};
use crate::convert::{self, ConvertOptions};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{AgentInput, ContentBlock, ExecuteRequest, Role};
use crate::path::Path;
use crate::validate;

/// `MLChatAgentRunner.DEFAULT_SYSTEM_PROMPT`.
const DEFAULT_SYSTEM_PROMPT: &str = "You are a helpful assistant.";
/// `AgentUtils.DEFAULT_NO_ESCAPE_PARAMS`, set by every `FunctionCalling.configure`.
const NO_ESCAPE_PARAMS: &[&str] = &["_chat_history", "_tools", "_interactions", "tool_configs"];

/// A filled `request_body` and what to know about it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Preview {
    /// The `question` the legacy agent receives.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The filled body as ml-commons sends it (text; it may not be JSON).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<String>,
    /// The filled body parsed, when it is JSON.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
    /// Errors (the registration or input is invalid, ml-commons would reject the payload, the
    /// provider's rules) and warnings (content the legacy path drops).
    #[serde(flatten)]
    pub report: Report,
}

/// Fills the legacy connector of `registration` for the execute request `request` (`{"input":
/// ...}` or `{"parameters": {"question": ...}}`).
pub fn preview(registration: &Value, request: &Value) -> Preview {
    let (registration, mut report) = Registration::read(registration);
    let document = validate::document(request);
    let options = validate::Options { ml_commons: true, ..validate::Options::default() };
    let validation = validate::validate_request(&document, &options);
    let request = match validation.into_result() {
        Ok((request, input_report)) => {
            report.extend(input_report);
            Some(request)
        }
        Err(input_report) => {
            report.extend(input_report);
            None
        }
    };
    let (Some(registration), Some(request)) = (registration, request) else {
        return Preview { question: None, payload: None, body: None, report };
    };
    dropped_content(&request, &mut report);
    let question = request.input.question();
    let parameters = runner_parameters(&registration, &request, &question);
    let payload = match fill(&registration, &parameters) {
        Ok(payload) => payload,
        Err(SubstitutionError::Cycle(chain)) => {
            report.push(Diagnostic::new(
                Code::InvalidForProvider,
                request.input_path.clone(),
                format!("ml-commons fails with \"Infinite loop in property interpolation\" ({chain}): a `${{parameters.…}}` in the input refers back to itself (ml-commons issue 5036)"),
            ));
            return Preview { question: Some(question), payload: None, body: None, report };
        }
    };
    check_payload(&payload, &request.input_path, &mut report);
    let body = serde_json::from_str::<Value>(&payload).ok();
    if body.is_none() {
        report.push(Diagnostic::new(
            Code::InvalidForProvider,
            request.input_path.clone(),
            "ml-commons rejects the filled body as \"Invalid payload\": it is not JSON",
        ));
    }
    check_with_provider(&registration, &question, &request.input_path, &mut report);
    Preview { question: Some(question), payload: Some(payload), body, report }
}

/// The parameters of the chat agent's first model call, escaped as the connector receives them
/// and laid over the connector's own parameters.
fn runner_parameters(
    registration: &Registration,
    request: &ExecuteRequest<'_>,
    question: &str,
) -> HashMap<String, String> {
    let mut agent: HashMap<String, String> = HashMap::new();
    // `llm.parameters` first, then the agent's and the request's parameters over them.
    agent.extend(registration.model_parameters.iter().map(|(k, v)| (k.clone(), v.clone())));
    if registration.agent_type != "plan_execute_and_reflect" {
        agent.entry("prompt".into()).or_insert_with(|| connector::QUESTION.into());
    }
    agent.extend(registration.parameters().iter().map(|(k, v)| (k.clone(), stringify(v))));
    agent.insert("_llm_interface".into(), registration.ml_commons.llm_interface.into());
    if !registration.has_tools() {
        agent.insert("tool_configs".into(), registration.ml_commons.tool_configs.into());
    }
    agent.extend(request.parameters.iter().map(|(k, v)| (k.clone(), stringify(v))));
    agent.insert("question".into(), question.to_owned());
    agent.entry("system_prompt".into()).or_insert_with(|| DEFAULT_SYSTEM_PROMPT.into());
    // `constructLLMPrompt`: the prompt template filled from these parameters — recursively.
    if let Some(template) = agent.get("prompt").cloned() {
        let prompt = substitute(&template, &agent).unwrap_or(template);
        agent.insert("prompt".into(), prompt);
    }
    let mut parameters: HashMap<String, String> = connector::parameters(registration).into_iter().collect();
    for (key, value) in agent {
        let escaped = escape_parameter(&value, NO_ESCAPE_PARAMS.contains(&key.as_str()));
        parameters.insert(key, escaped);
    }
    parameters
}

fn fill(registration: &Registration, parameters: &HashMap<String, String>) -> Result<String, SubstitutionError> {
    substitute(&connector::request_body(registration), parameters)
}

/// `validatePayload`. The substitutions ml-commons makes inside the user's text are reported by
/// validation (`template_placeholder`, option `ml_commons`), at the string that holds them.
fn check_payload(payload: &str, at: &Path, report: &mut Report) {
    let unfilled: Vec<&str> = payload
        .match_indices("${parameters.")
        .filter_map(|(i, _)| payload[i + "${parameters.".len()..].split('}').next())
        .collect();
    if !unfilled.is_empty() {
        report.push(
            Diagnostic::new(
                Code::InvalidForProvider,
                at.clone(),
                format!(
                    "ml-commons rejects the filled body: \"Some parameter placeholder not filled in payload: {}\"",
                    unfilled.join(", ")
                ),
            )
            .received(unfilled.join(", ")),
        );
    }
}

/// The provider's rules on the same turn: the question as a text input, with the sampling
/// parameters the body carries.
fn check_with_provider(registration: &Registration, question: &str, at: &Path, report: &mut Report) {
    let request = serde_json::json!({ "input": question });
    let document = validate::document(&request);
    let Ok((text_request, _)) = validate::validate_request(&document, &validate::Options::default()).into_result()
    else {
        // A blank question: ml-commons sends an empty text, which the provider rejects.
        report.push(Diagnostic::new(
            Code::EmptyText,
            at.clone(),
            "the legacy agent receives an empty question: the input has no text, and the legacy path sends only text",
        ));
        return;
    };
    let number = |key: &str| registration.model_parameters.get(key).and_then(|v| v.trim().parse::<f64>().ok());
    let options = ConvertOptions {
        system: registration.ml_commons.system_prompt.then(|| {
            let given = registration.model_parameters.get("system_prompt");
            given.map_or(DEFAULT_SYSTEM_PROMPT, String::as_str).to_owned()
        }),
        max_tokens: registration.model_parameters.get("max_tokens").and_then(|v| v.trim().parse().ok()),
        temperature: number("temperature"),
        top_p: number("top_p"),
        ..ConvertOptions::default()
    };
    if let Err(errors) = convert::convert_to_value(registration.provider, &text_request, &options) {
        for diagnostic in errors.errors {
            report.push(Diagnostic { path: at.clone(), ..diagnostic });
        }
    }
}

/// What the legacy path does not send: the question is all the agent gets.
fn dropped_content(request: &ExecuteRequest<'_>, report: &mut Report) {
    let at = &request.input_path;
    match &request.input {
        AgentInput::Text(_) => {}
        AgentInput::Blocks(blocks) => dropped_blocks(blocks, at, report),
        AgentInput::Messages(messages) => {
            let last_assistant = messages.iter().rposition(|m| m.role == Role::Assistant);
            for (i, message) in messages.iter().enumerate() {
                if last_assistant.is_some_and(|last| i <= last) {
                    report.push(Diagnostic::new(
                        Code::FieldIgnored,
                        at.index(i),
                        "the legacy path sends only the text after the last assistant turn: this turn is not sent (the unified API sends the whole conversation to a conversational_v2 agent)",
                    ));
                } else {
                    dropped_blocks(&message.content, &at.index(i).key("content"), report);
                }
            }
        }
    }
}

fn dropped_blocks(blocks: &[ContentBlock<'_>], at: &Path, report: &mut Report) {
    for (i, block) in blocks.iter().enumerate() {
        let kind = match block {
            ContentBlock::Text(_) => continue,
            ContentBlock::Image(_) => "image",
            ContentBlock::Video(_) => "video",
            ContentBlock::Document(_) => "document",
            ContentBlock::ProviderItem(_) => "provider item",
        };
        report.push(Diagnostic::new(
            Code::FieldIgnored,
            at.index(i),
            format!("the legacy path sends only the question text: this {kind} is not sent (the unified API sends it to a conversational_v2 agent)"),
        ));
    }
}
