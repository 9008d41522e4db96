//! Reading the unified registration body, with ml-commons' rules (`MLAgent.validate`,
//! `MLAgentModelSpec.parse`, `AgentModelService.validateModelSpec`, `ModelProviderType.from`, the
//! providers' `createConnector`), every problem reported at once with its path.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::convert::{self, ConvertOptions, ProviderId};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::path::{Path, Segment};
use crate::providers::common::mlcommons::MlCommons;
use crate::providers::dispatch;

/// `MLAgent.AGENT_NAME_MAX_LENGTH`.
const AGENT_NAME_MAX_LENGTH: usize = 128;

/// `MLAgentType`, lower-case as written in registration bodies.
const AGENT_TYPES: &[&str] =
    &["flow", "conversational", "conversational_flow", "plan_execute_and_reflect", "ag_ui", "conversational_v2"];

/// The keys `MLAgentModelSpec.parse` reads; others are skipped.
const MODEL_KEYS: &[&str] = &["model_id", "model_provider", "credential", "model_parameters"];

/// A registration body that passed every check.
#[derive(Debug, Clone)]
pub struct Registration {
    /// The body as given.
    pub body: Value,
    /// `type`, lower-cased.
    pub agent_type: String,
    /// `model.model_id`.
    pub model_id: String,
    /// `model.model_provider`: one of the providers ml-commons has.
    pub provider: ProviderId,
    /// What ml-commons' model provider writes.
    pub(crate) ml_commons: &'static MlCommons,
    /// `model.credential`, values as strings.
    pub credential: BTreeMap<String, String>,
    /// `model.model_parameters`, values as strings as `StringUtils.getParameterMap` makes them.
    pub model_parameters: BTreeMap<String, String>,
}

impl PartialEq for Registration {
    fn eq(&self, other: &Self) -> bool {
        // `ml_commons` follows from `provider`.
        (&self.body, &self.agent_type, &self.model_id, self.provider, &self.credential, &self.model_parameters)
            == (
                &other.body,
                &other.agent_type,
                &other.model_id,
                other.provider,
                &other.credential,
                &other.model_parameters,
            )
    }
}

impl Registration {
    /// Reads and checks a registration body: the registration when nothing is wrong, and every
    /// problem (errors and warnings) found.
    pub fn read(body: &Value) -> (Option<Registration>, Report) {
        let mut report = Report::default();
        let Some(object) = body.as_object() else {
            report.push(type_error(&Path::root(), body, "an object"));
            return (None, report);
        };
        let root = Path::root();
        let name = required_string(object, &root, "name", &mut report);
        // Java's `String.length()`: UTF-16 units.
        if let Some(name) = name
            && name.encode_utf16().count() > AGENT_NAME_MAX_LENGTH
        {
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    root.key("name"),
                    format!("Agent name cannot be empty or exceed max length of {AGENT_NAME_MAX_LENGTH} characters"),
                )
                .limit(AGENT_NAME_MAX_LENGTH as u64, name.encode_utf16().count() as u64),
            );
        }
        let agent_type = required_string(object, &root, "type", &mut report).and_then(|raw| {
            let lower = raw.to_ascii_lowercase();
            if AGENT_TYPES.contains(&lower.as_str()) {
                Some(lower)
            } else {
                report.push(
                    Diagnostic::new(Code::InvalidParameter, root.key("type"), "Invalid Agent Type")
                        .expected(AGENT_TYPES.iter().copied())
                        .received(raw),
                );
                None
            }
        });
        check_object(object, &root, "parameters", &mut report);
        check_object(object, &root, "memory", &mut report);
        check_tools(object, &mut report);
        if let Some(parameters) = object.get("parameters").and_then(Value::as_object)
            && parameters.contains_key("_llm_interface")
        {
            report.push(Diagnostic::new(
                Code::FieldIgnored,
                root.key("parameters").key("_llm_interface"),
                "ml-commons sets `_llm_interface` from `model.model_provider`; this value is replaced",
            ));
        }
        if object.contains_key("llm") && object.contains_key("model") {
            report.push(Diagnostic::new(
                Code::FieldIgnored,
                root.key("llm"),
                "ml-commons builds `llm` from the `model` block (the new model's id, `model_parameters`); this `llm` is replaced",
            ));
        }
        let model = read_model(object, &mut report);
        let registration = match (name, agent_type, model) {
            (Some(_), Some(agent_type), Some((model_id, (provider, ml_commons), credential, model_parameters)))
                if report.is_ok() =>
            {
                Some(Registration {
                    body: body.clone(),
                    agent_type,
                    model_id,
                    provider,
                    ml_commons,
                    credential,
                    model_parameters,
                })
            }
            _ => None,
        };
        if let Some(registration) = &registration {
            registration.check_tool_list(&mut report);
        }
        (registration, report)
    }

    /// A conversational agent's function calling writes the tool list even when the agent has
    /// none, which some providers refuse.
    fn check_tool_list(&self, report: &mut Report) {
        if let Some(message) = self.ml_commons.empty_tool_list
            && self.agent_type == "conversational"
            && !self.has_tools()
        {
            report.push(Diagnostic::new(Code::EmptyToolList, Path::root().key("tools"), message));
        }
    }

    /// Whether the agent declares at least one tool.
    pub(crate) fn has_tools(&self) -> bool {
        self.body.get("tools").and_then(Value::as_array).is_some_and(|tools| !tools.is_empty())
    }

    /// The `parameters` object, or an empty one.
    pub fn parameters(&self) -> Map<String, Value> {
        self.body.get("parameters").and_then(Value::as_object).cloned().unwrap_or_default()
    }
}

type Model = (String, (ProviderId, &'static MlCommons), BTreeMap<String, String>, BTreeMap<String, String>);

fn read_model(object: &Map<String, Value>, report: &mut Report) -> Option<Model> {
    let at = Path::root().key("model");
    let Some(value) = object.get("model") else {
        report.push(Diagnostic::new(
            Code::MissingField,
            at,
            "a registration plan starts from the `model` block (model_id, model_provider, credential); an agent with `llm.model_id` needs no plan",
        ));
        return None;
    };
    let Some(model) = value.as_object() else {
        report.push(type_error(&at, value, "an object"));
        return None;
    };
    for key in model.keys().filter(|k| !MODEL_KEYS.contains(&k.as_str())) {
        let hint = match key.as_str() {
            "credentials" => "; did you mean `credential`?",
            "parameters" => "; did you mean `model_parameters`?",
            _ => "",
        };
        report.push(Diagnostic::new(
            Code::FieldIgnored,
            at.key(key),
            format!("ml-commons reads only model_id, model_provider, credential and model_parameters in `model` and skips `{key}`{hint}"),
        ));
    }
    let model_id = required_string(model, &at, "model_id", report);
    let provider = required_string(model, &at, "model_provider", report).and_then(|raw| {
        let provider = dispatch::ml_commons_named(raw);
        if provider.is_none() {
            let supported: Vec<&str> =
                dispatch::ML_COMMONS.iter().filter_map(|&p| dispatch::ml_commons(p)).map(|m| m.name).collect();
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    at.key("model_provider"),
                    format!("Unknown model provider type. Supported types: {}", supported.join(", ")),
                )
                .expected(supported)
                .received(raw),
            );
        }
        provider
    });
    let credential = string_map(model, &at, "credential", report);
    let parameters = string_map(model, &at, "model_parameters", report);
    if let (Some((_, provider)), Some(credential)) = (provider, &credential) {
        for key in provider.credential_keys {
            match credential.get(*key) {
                None => report.push(
                    Diagnostic::new(
                        Code::MissingField,
                        at.key("credential").key(key),
                        format!(
                            "{} needs `credential.{key}` (ml-commons: {})",
                            provider.name, provider.credential_reader
                        ),
                    )
                    .expected(provider.credential_keys.iter().copied()),
                ),
                Some(value) if value.trim().is_empty() => report.push(Diagnostic::new(
                    Code::EmptyField,
                    at.key("credential").key(key),
                    format!("`credential.{key}` is blank"),
                )),
                Some(_) => {}
            }
        }
    }
    if let (Some(provider), Some(parameters)) = (provider, &parameters) {
        check_parameters(provider, parameters, &at.key("model_parameters"), report);
    }
    Some((model_id?.to_owned(), provider?, credential?, parameters?))
}

/// The providers' `validateNumericParameter` checks, then the converter's own option checks
/// (ranges), re-rooted from `/options/...` to `/model/model_parameters/...`.
fn check_parameters(
    (provider, ml_commons): (ProviderId, &MlCommons),
    parameters: &BTreeMap<String, String>,
    at: &Path,
    report: &mut Report,
) {
    // A connector that writes `temperature` into JSON unquoted checks it too; the others leave it
    // to the `${parameters.temperature:-1.0}` template, unchecked.
    let numeric: &[&str] = if ml_commons.temperature_field { &["top_p", "temperature"] } else { &["top_p"] };
    let mut options = ConvertOptions::default();
    let mut unreadable = false;
    for key in numeric {
        if let Some(value) = parameters.get(*key) {
            match java_double(value) {
                Some(number) if *key == "top_p" => options.top_p = Some(number),
                Some(number) => options.temperature = Some(number),
                None => {
                    unreadable = true;
                    report.push(
                        Diagnostic::new(
                            Code::InvalidParameter,
                            at.key(key),
                            format!("{key} must be a valid number, got: {value}"),
                        )
                        .received(value.clone()),
                    );
                }
            }
        }
    }
    if let Some(value) = parameters.get("temperature").filter(|_| options.temperature.is_none())
        && let Some(number) = java_double(value)
    {
        options.temperature = Some(number);
    }
    if let Some(value) = parameters.get("max_tokens") {
        match value.trim().parse::<u64>() {
            Ok(number) => options.max_tokens = Some(number),
            Err(_) => report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    at.key("max_tokens"),
                    format!(
                        "max_tokens is written into the request body unquoted and must be a whole number, got: {value}"
                    ),
                )
                .received(value.clone()),
            ),
        }
    }
    if unreadable {
        return;
    }
    for diagnostic in convert::check_options(provider, &options).errors {
        report.push(Diagnostic { path: reroot(&diagnostic.path, at), ..diagnostic });
    }
}

fn reroot(path: &Path, at: &Path) -> Path {
    let mut out = at.clone();
    for segment in path.segments().iter().skip(1) {
        out = match segment {
            Segment::Key(key) => out.key(if &**key == "system" { "system_prompt" } else { key }),
            Segment::Index(i) => out.index(*i),
        };
    }
    out
}

/// `Double.parseDouble` for the values people write: decimal numbers, surrounding whitespace
/// trimmed. (Java also takes `NaN`, `Infinity` and hex floats; none is a sampling parameter.)
fn java_double(value: &str) -> Option<f64> {
    let trimmed = value.trim();
    let plain = trimmed.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(trimmed);
    if plain.is_empty() || !plain.bytes().all(|b| b.is_ascii_digit() || b".+-eE".contains(&b)) {
        return None;
    }
    plain.parse().ok()
}

fn check_tools(object: &Map<String, Value>, report: &mut Report) {
    let at = Path::root().key("tools");
    let Some(value) = object.get("tools") else { return };
    let Some(tools) = value.as_array() else {
        report.push(type_error(&at, value, "an array"));
        return;
    };
    let mut names = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let at = at.index(i);
        let Some(tool) = tool.as_object() else {
            report.push(type_error(&at, tool, "an object"));
            continue;
        };
        let kind = required_string(tool, &at, "type", report);
        let name = match tool.get("name") {
            Some(Value::String(name)) => Some(name.as_str()),
            Some(other) => {
                report.push(type_error(&at.key("name"), other, "a string"));
                None
            }
            None => kind,
        };
        if let Some(name) = name {
            if names.contains(&name) {
                report.push(
                    Diagnostic::new(
                        Code::InvalidParameter,
                        at.key(if tool.contains_key("name") { "name" } else { "type" }),
                        "Duplicate tool defined in agent configuration",
                    )
                    .received(name),
                );
            }
            names.push(name);
        }
    }
}

fn required_string<'a>(object: &'a Map<String, Value>, at: &Path, key: &str, report: &mut Report) -> Option<&'a str> {
    match object.get(key) {
        None | Some(Value::Null) => {
            report.push(Diagnostic::new(Code::MissingField, at.key(key), format!("`{key}` is required")));
            None
        }
        Some(Value::String(text)) if text.trim().is_empty() => {
            report.push(Diagnostic::new(Code::EmptyField, at.key(key), format!("`{key}` is blank")));
            None
        }
        Some(Value::String(text)) => Some(text),
        Some(other) => {
            report.push(type_error(&at.key(key), other, "a string"));
            None
        }
    }
}

fn check_object(object: &Map<String, Value>, at: &Path, key: &str, report: &mut Report) {
    if let Some(value) = object.get(key)
        && !value.is_object()
    {
        report.push(type_error(&at.key(key), value, "an object"));
    }
}

/// An object whose values ml-commons turns into strings (`StringUtils.getParameterMap`: strings
/// as they are, anything else as JSON). Absent is an empty map.
fn string_map(
    object: &Map<String, Value>,
    at: &Path,
    key: &str,
    report: &mut Report,
) -> Option<BTreeMap<String, String>> {
    match object.get(key) {
        None | Some(Value::Null) => Some(BTreeMap::new()),
        Some(Value::Object(map)) => Some(map.iter().map(|(k, v)| (k.clone(), stringify(v))).collect()),
        Some(other) => {
            report.push(type_error(&at.key(key), other, "an object"));
            None
        }
    }
}

/// A parameter value as ml-commons stores it: a string as is, anything else as compact JSON.
pub(super) fn stringify(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn type_error(at: &Path, value: &Value, expected: &str) -> Diagnostic {
    let found = match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    };
    Diagnostic::new(Code::InvalidFieldType, at.clone(), format!("expected {expected}, found {found}")).received(found)
}

/// The credential keys ml-commons' connector for `provider` reads; none for a provider
/// ml-commons does not have.
pub fn credential_keys(provider: ProviderId) -> &'static [&'static str] {
    dispatch::ml_commons(provider).map_or(&[], |m| m.credential_keys)
}
