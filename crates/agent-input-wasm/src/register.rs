//! Registration plans, built with the `register` feature into the package's module
//! `agent-input/register`: the calls that register an agent on an ml-commons cluster of a given
//! version, and the legacy connector's template preview. The rules are the core's
//! ([`agent_input::register`]); this file reads arguments and writes reports.

use agent_input::register::{self, Api, PlanOptions, Version};
use agent_input::{Code, Diagnostic, Limits, Path, Report, validate};
use js_sys::JSON;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::dto::{JsDiagnostic, list, to_json};

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT_SECTION: &str = TYPESCRIPT;

#[allow(dead_code)] // the section above uses it, which the dead-code lint does not see
const TYPESCRIPT: &str = r#"
/**
 * ml-commons' unified agent registration body: `name`, `type`, `model` (`model_id`,
 * `model_provider`, `credential`, `model_parameters`), `parameters`, `tools`, `memory`.
 */
export interface AgentRegistration {
  name: string;
  type: string;
  description?: string;
  model: {
    model_id: string;
    model_provider: string;
    credential?: { [key: string]: string };
    model_parameters?: { [key: string]: unknown };
  };
  parameters?: { [key: string]: unknown };
  tools?: unknown[];
  memory?: { type: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** What `predictMlCommons` predicts for. */
export interface MlCommonsOptions {
  /** The provider: `bedrock-converse`, `openai-chat` or `gemini` (or ml-commons' name of it). */
  provider: string;
  /** The agent's type (default `"conversational"`): `ag_ui` and `conversational_v2` take every input form, the other types text only. */
  agentType?: "flow" | "conversational" | "conversational_flow" | "plan_execute_and_reflect" | "ag_ui" | "conversational_v2";
  /** The ml-commons version, `"3.6"` to `"3.9"` (default `"3.9"`, the newest modelled). */
  mlCommonsVersion?: string;
}

/** What ml-commons puts into the agent's parameters for one `_execute` request. */
export interface MlCommonsParameters {
  /** The question ml-commons extracts; absent for a `conversational_v2` agent. */
  question?: string;
  /** The provider's `body` parameter (for messages, objects joined with `,`). */
  body: string;
  /** For messages input, the parameters ml-commons does not escape again. */
  no_escape_params?: string;
  /** The settings the provider's template adds from 3.7 (4096 tokens, temperature 1.0). */
  defaults?: { [key: string]: unknown };
}

/** The outcome of `predictMlCommons`. */
export type MlCommonsPrediction =
  | { ok: true; parameters: MlCommonsParameters; errors: []; warnings: ValidationWarning[] }
  | { ok: false; parameters?: undefined; errors: ValidationError[]; warnings: ValidationWarning[] };

/** How to plan. */
export interface PlanOptions {
  /** The cluster's ml-commons version, `"X.Y"` (a patch and a suffix are ignored); default the newest known, `"3.9"`. */
  version?: string;
  /** Force an API; by default the unified call from 3.9, the legacy calls before. */
  api?: "unified" | "legacy";
}

/** One HTTP call of a plan. A body may hold `"{{connector_id}}"` / `"{{model_id}}"`: the id an earlier step `returns`. */
export interface RegistrationStep {
  method: "POST" | "PUT";
  path: string;
  body: { [key: string]: unknown };
  /** The field of this call's answer that later steps use in place of its placeholder. */
  returns?: "connector_id" | "model_id" | "agent_id";
}

/** The outcome of `planRegistration`. */
export type RegistrationPlan =
  | { ok: true; api: "unified" | "legacy"; steps: RegistrationStep[]; errors: []; warnings: ValidationWarning[] }
  | { ok: false; api?: undefined; steps?: undefined; errors: ValidationError[]; warnings: ValidationWarning[] };

/** The outcome of `previewRegistration`: the legacy connector's `request_body` filled for one request. */
export interface RegistrationPreview {
  ok: boolean;
  /** The `question` the legacy agent receives. */
  question?: string;
  /** The filled body as ml-commons sends it (text; it may not be JSON). */
  payload?: string;
  /** The filled body parsed, when it is JSON. */
  body?: unknown;
  errors: ValidationError[];
  warnings: ValidationWarning[];
}
"#;

/// `{ ok, api?, steps?, errors, warnings }`
#[derive(Serialize)]
struct PlanReport<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    api: Option<Api>,
    #[serde(skip_serializing_if = "Option::is_none")]
    steps: Option<&'a [register::Step]>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

/// Reads `{ version?, api? }`, reporting problems at `/options/<key>`.
pub(crate) fn plan_options(options: &Value, report: &mut Report) -> PlanOptions {
    let mut plan = PlanOptions::new(Version::LATEST);
    let at = |key: &str| Path::root().key("options").key(key);
    match options.get("version") {
        None | Some(Value::Null) => {}
        Some(Value::String(raw)) => match Version::parse(raw) {
            Some(version) => plan.version = version,
            None => report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    at("version"),
                    format!("'{raw}' is not a version; write X.Y, e.g. \"3.9\""),
                )
                .received(raw.as_str()),
            ),
        },
        Some(other) => report.push(
            Diagnostic::new(
                Code::InvalidParameter,
                at("version"),
                "the version must be a string \"X.Y\" (a number cannot tell 3.1 from 3.10)",
            )
            .received(agent_input::json::type_name(other)),
        ),
    }
    match options.get("api") {
        None | Some(Value::Null) => {}
        Some(Value::String(api)) if api == "unified" => plan.api = Some(Api::Unified),
        Some(Value::String(api)) if api == "legacy" => plan.api = Some(Api::Legacy),
        Some(other) => report.push(
            Diagnostic::new(Code::InvalidParameter, at("api"), "api must be \"unified\" or \"legacy\"")
                .expected(["unified", "legacy"])
                .received(other.as_str().unwrap_or_else(|| agent_input::json::type_name(other))),
        ),
    }
    plan
}

/// Plans the registration body (JSON text) with options already read; the report as JSON.
pub(crate) fn plan(text: &str, options: &PlanOptions, mut report: Report) -> String {
    let failed = |report: &Report| {
        to_json(&PlanReport {
            ok: false,
            api: None,
            steps: None,
            errors: list(&report.errors),
            warnings: list(&report.warnings),
        })
    };
    // The request limits hold before the body is read (`invalid_json` and `too_large` as `validate` reports them).
    if let Err(errors) = validate::parse(text, &Limits::default()) {
        report.extend(errors);
        return failed(&report);
    }
    match register::plan_str(text, options) {
        Ok(plan) if report.is_ok() => to_json(&PlanReport {
            ok: true,
            api: Some(plan.api),
            steps: Some(&plan.steps),
            errors: Vec::new(),
            warnings: list(&plan.warnings),
        }),
        Ok(plan) => {
            report.warnings.extend(plan.warnings);
            failed(&report)
        }
        Err(errors) => {
            report.extend(errors);
            failed(&report)
        }
    }
}

/// `{ ok, question?, payload?, body?, errors, warnings }`
#[derive(Serialize)]
struct PreviewReport<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    question: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    payload: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a Value>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

/// The template preview of a registration (JSON text) for a request (JSON text).
pub(crate) fn preview(registration: &str, request: &str) -> String {
    let limits = Limits::default();
    let read = |text: &str, under: &str| -> Result<Value, Report> {
        validate::parse(text, &limits).map_err(|report| {
            let at = |d: Diagnostic| Diagnostic { path: Path::root().key(under), ..d };
            Report {
                errors: report.errors.into_iter().map(at).collect(),
                warnings: report.warnings.into_iter().map(at).collect(),
            }
        })?;
        Ok(serde_json::from_str(text).unwrap_or(Value::Null))
    };
    let (registration, request) = match (read(registration, "registration"), read(request, "request")) {
        (Ok(registration), Ok(request)) => (registration, request),
        (registration, request) => {
            let mut report = Report::default();
            report.extend(registration.err().unwrap_or_default());
            report.extend(request.err().unwrap_or_default());
            return to_json(&PreviewReport {
                ok: false,
                question: None,
                payload: None,
                body: None,
                errors: list(&report.errors),
                warnings: list(&report.warnings),
            });
        }
    };
    let preview = register::preview(&registration, &request);
    to_json(&PreviewReport {
        ok: preview.report.is_ok(),
        question: preview.question.as_deref(),
        payload: preview.payload.as_deref(),
        body: preview.body.as_ref(),
        errors: list(&preview.report.errors),
        warnings: list(&preview.report.warnings),
    })
}

/// The JSON text of an argument that is a value or already JSON text.
fn value_or_text(value: &JsValue, name: &str) -> Result<js_sys::JsString, JsValue> {
    match value.dyn_ref::<js_sys::JsString>() {
        Some(text) => Ok(text.clone()),
        None => crate::json_text(value, name),
    }
}

/// Plans the registration of an agent described by a unified registration body (a JavaScript
/// value or its JSON text) on an ml-commons cluster: the one unified `_register` call from 3.9
/// (with the cluster setting first when `api: "unified"` is asked of 3.5–3.8), or before it the
/// connector, model and agent calls exactly as ml-commons' own model providers write them, ids
/// threaded through `"{{connector_id}}"` / `"{{model_id}}"` placeholders. Every problem of the
/// body or the options is an error with its path.
#[wasm_bindgen(js_name = planRegistration, unchecked_return_type = "RegistrationPlan")]
pub fn plan_registration(
    #[wasm_bindgen(unchecked_param_type = "AgentRegistration | string")] body: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "PlanOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = crate::options_value(options)?;
    let mut report = Report::default();
    let options = plan_options(&options, &mut report);
    let text = value_or_text(body, "body")?;
    JSON::parse(&crate::text::with_str(&text, |text| plan(text, &options, report)))
}

/// The legacy connector's `request_body` filled as ml-commons fills it for one `_execute`
/// request, checked by the provider's rules, with a warning for each piece of content the legacy
/// path drops (images, documents, history) and for every `${parameters.` in the input.
#[wasm_bindgen(js_name = previewRegistration, unchecked_return_type = "RegistrationPreview")]
pub fn preview_registration(
    #[wasm_bindgen(unchecked_param_type = "AgentRegistration | string")] registration: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ExecuteRequest | string")] request: &JsValue,
) -> Result<JsValue, JsValue> {
    let registration = String::from(value_or_text(registration, "registration")?);
    let request = String::from(value_or_text(request, "request")?);
    JSON::parse(&preview(&registration, &request))
}

/// `MlCommonsPrediction`.
#[derive(Serialize)]
struct Prediction<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    parameters: Option<&'a agent_input::convert::mlcommons::Parameters>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

/// The `MlCommonsPrediction` report of one request (JSON text) for `options` (a JSON value).
pub(crate) fn predict(text: &str, options: &Value) -> String {
    use agent_input::ProviderId;
    use agent_input::convert::mlcommons::{self, AgentType};
    let mut report = Report::default();
    let at = |key: &str| Path::root().key("options").key(key);
    let string = |key: &str| options.get(key).and_then(Value::as_str);
    let provider = match string("provider").map(|raw| (raw, ProviderId::parse(raw))) {
        Some((_, Some(provider))) => Some(provider),
        found => {
            let ids: Vec<&str> = ProviderId::ALL.iter().map(|p| p.as_str()).collect();
            let mut d = Diagnostic::new(
                Code::InvalidParameter,
                at("provider"),
                "provider must name one of ml-commons' providers",
            )
            .expected(ids);
            if let Some((raw, _)) = found {
                d = d.received(raw);
            }
            report.push(d);
            None
        }
    };
    let agent = match options.get("agentType") {
        None | Some(Value::Null) => Some(AgentType::default()),
        Some(raw) => raw.as_str().and_then(AgentType::parse).or_else(|| {
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    at("agentType"),
                    "agentType must name an ml-commons agent type",
                )
                .expected(AgentType::ALL.iter().map(|t| t.name())),
            );
            None
        }),
    };
    let version = match options.get("mlCommonsVersion") {
        None | Some(Value::Null) => Some(mlcommons::LATEST),
        Some(raw) => match raw.as_str().map(mlcommons::parse_version) {
            Some(Ok(version)) => Some(version),
            Some(Err(message)) => {
                report.push(Diagnostic::new(Code::InvalidParameter, at("mlCommonsVersion"), message));
                None
            }
            None => {
                report.push(Diagnostic::new(
                    Code::InvalidParameter,
                    at("mlCommonsVersion"),
                    "mlCommonsVersion must be a string \"X.Y\"",
                ));
                None
            }
        },
    };
    let failed = |report: &Report| {
        to_json(&Prediction {
            ok: false,
            parameters: None,
            errors: list(&report.errors),
            warnings: list(&report.warnings),
        })
    };
    let (Some(provider), Some(agent), Some(version)) = (provider, agent, version) else {
        return failed(&report);
    };
    let validation = validate::Options { ml_commons: true, ..validate::Options::default() };
    let document = match validate::parse(text, &validation.limits) {
        Ok(document) => document,
        Err(errors) => {
            report.extend(errors);
            return failed(&report);
        }
    };
    let (request, input_report) = match validate::validate_request(&document, &validation).into_result() {
        Ok(validated) => validated,
        Err(errors) => {
            report.extend(errors);
            return failed(&report);
        }
    };
    report.extend(input_report);
    match mlcommons::parameters_for(provider, agent, version, &document, &request) {
        Ok((parameters, warnings)) => {
            report.warnings.extend(warnings);
            to_json(&Prediction {
                ok: true,
                parameters: Some(&parameters),
                errors: Vec::new(),
                warnings: list(&report.warnings),
            })
        }
        Err(errors) => {
            report.extend(errors);
            failed(&report)
        }
    }
}

/// What ml-commons' own provider builds for one `_execute` request (a JavaScript value or its
/// JSON text) on an agent of `agentType` on ml-commons `mlCommonsVersion`: the `question` and
/// `body` parameters exactly as its provider writes them, bugs included, and the default settings
/// its template adds; input the agent type refuses is an error (`unsupported_by_agent_type`), as
/// the cluster refuses it. `agent-input convert --ml-commons` in the CLI.
#[wasm_bindgen(js_name = predictMlCommons, unchecked_return_type = "MlCommonsPrediction")]
pub fn predict_ml_commons(
    #[wasm_bindgen(unchecked_param_type = "ExecuteRequest | string")] request: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "MlCommonsOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = crate::options_value(options)?;
    let text = String::from(value_or_text(request, "request")?);
    JSON::parse(&predict(&text, &options))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).expect("reports are JSON")
    }

    const OPENAI: &str = r#"{"name": "Weather", "type": "conversational", "model": {"model_id": "gpt-4o",
        "model_provider": "openai/v1/chat/completions", "credential": {"openai_api_key": "sk-..."}}}"#;

    #[test]
    fn a_prediction_has_the_parameters_or_every_problem() {
        let image =
            r#"{"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": "iVBORw0KGgo="}}]}"#;
        let got = parse(&predict(
            image,
            &json!({"provider": "bedrock-converse", "agentType": "ag_ui", "mlCommonsVersion": "3.7"}),
        ));
        assert_eq!(got["ok"], true, "{got}");
        assert_eq!(got["parameters"]["defaults"], json!({"inferenceConfig": {"maxTokens": 4096, "temperature": 1.0}}));
        let refused = parse(&predict(image, &json!({"provider": "bedrock/converse"})));
        assert_eq!(refused["ok"], false);
        assert_eq!(refused["errors"][0]["code"], "unsupported_by_agent_type");
        assert_eq!(refused["errors"][0]["path"], "/input");
        let bad = parse(&predict(
            r#"{"input": "hi"}"#,
            &json!({"provider": "x", "agentType": "chat", "mlCommonsVersion": "3.5"}),
        ));
        let paths: Vec<&str> = bad["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
        assert_eq!(paths, ["/options/provider", "/options/agentType", "/options/mlCommonsVersion"]);
        let v36 = parse(&predict(r#"{"input": "hi"}"#, &json!({"provider": "gemini", "mlCommonsVersion": "3.6"})));
        assert_eq!(v36["parameters"], json!({"question": "hi", "body": r#"{"role":"user","parts":[{"text":"hi"}]}"#}));
    }

    #[test]
    fn a_plan_has_its_steps_or_every_problem() {
        let mut report = Report::default();
        let options = plan_options(&json!({"version": "3.3"}), &mut report);
        let out = parse(&plan(OPENAI, &options, report));
        assert_eq!(out["ok"], true, "{out}");
        assert_eq!(out["api"], "legacy");
        assert_eq!(out["steps"][1]["body"]["connector_id"], "{{connector_id}}");
        assert_eq!(out["steps"][0]["returns"], "connector_id");

        let mut report = Report::default();
        let options = plan_options(&json!({"version": 3.9, "api": "new"}), &mut report);
        let out = parse(&plan(OPENAI, &options, report));
        let paths: Vec<_> = out["errors"].as_array().unwrap().iter().map(|e| e["path"].clone()).collect();
        assert_eq!(paths, ["/options/version", "/options/api"]);
        assert_eq!(
            parse(&plan("{", &PlanOptions::new(Version::LATEST), Report::default()))["errors"][0]["code"],
            "invalid_json"
        );
    }

    #[test]
    fn a_preview_fills_the_template() {
        let out = parse(&preview(OPENAI, r#"{"input": "Hi"}"#));
        assert_eq!(out["question"], "Hi", "{out}");
        assert!(out["payload"].as_str().is_some_and(|p| p.contains("Hi")));
        let bad = parse(&preview("{", "[]"));
        assert_eq!(bad["errors"][0]["path"], "/registration");
    }
}
