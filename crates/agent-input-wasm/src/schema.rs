//! Agent input schemas (contract §8), built with the `schema` feature into the package's second
//! WebAssembly module, `agent-input/schema` (the JSON Schema validator is large; the base entry
//! stays without it).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::JSON;
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;

use crate::api::Subject;
use crate::dto::{JsDiagnostic, JsValidationReport, list, to_json};
use agent_input::schema::{Schema, extend_validation_compiled};
use agent_input::{Report, validate};

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT_SECTION: &str = TYPESCRIPT;

#[allow(dead_code)] // the section above uses it, which the dead-code lint does not see
const TYPESCRIPT: &str = r"
/**
 * An agent's `parameters_schema`: a JSON Schema of the request's `parameters` (without
 * ml-commons' control parameters). `prompt` is always added, as a required non-empty string.
 */
export type ParametersSchema = { [keyword: string]: unknown };

/** The outcome of `formatInputs`: the prompt with its `<inputs>` block, or every violation. */
export type FormatInputsResult =
  | { ok: true; prompt: string; errors: []; warnings: ValidationWarning[] }
  | { ok: false; prompt?: undefined; errors: ValidationError[]; warnings: ValidationWarning[] };

/** The outcome of `checkSchema`: the schema's own problems, and the schema parameters are checked against. */
export type SchemaCheck =
  | { valid: true; errors: []; mergedSchema: ParametersSchema }
  | { valid: false; errors: ValidationError[]; mergedSchema?: undefined };
";

/// `{ ok, prompt?, errors, warnings }`
#[derive(Serialize)]
struct FormatReport<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    prompt: Option<&'a str>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

/// `{ valid, errors, mergedSchema? }`
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SchemaReport<'a> {
    valid: bool,
    errors: Vec<JsDiagnostic<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    merged_schema: Option<&'a Value>,
}

/// A schema compiled, or its problems.
type Compiled = Rc<Result<Schema, Report>>;

thread_local! {
    /// The last schema compiled, and the result: a form or a playground checks request after
    /// request against one schema, and compiling it (twice: as given, then merged with the
    /// prompt) was most of each check's time.
    static COMPILED: RefCell<Option<(Value, Compiled)>> = const { RefCell::new(None) };
}

/// Runs `f` with `schema` compiled, compiling only when it is not the last schema compiled.
fn with_compiled<R>(schema: &Value, f: impl FnOnce(&Result<Schema, Report>) -> R) -> R {
    let compiled = COMPILED.with_borrow_mut(|last| match last {
        Some((cached, compiled)) if cached == schema => Rc::clone(compiled),
        _ => {
            let compiled = Rc::new(Schema::new(schema));
            *last = Some((schema.clone(), Rc::clone(&compiled)));
            compiled
        }
    });
    f(&compiled)
}

/// Validates a request (JSON text) and its parameters against `schema`: the report of
/// `validate`, with the schema's problems and the parameters' violations added.
pub(crate) fn validate_parameters(text: &str, schema: &Value, options: &(validate::Options, Report)) -> String {
    let (options, mut report) = (options.0, options.1.clone());
    let document = match validate::parse(text, &options.limits) {
        Ok(document) => document,
        Err(errors) => {
            report.extend(errors);
            return to_json(&JsValidationReport::failed(&report, None));
        }
    };
    let validation = with_compiled(schema, |compiled| {
        extend_validation_compiled(crate::api::run(&document, Subject::Request, &options), compiled)
    });
    if report.is_ok() {
        to_json(&JsValidationReport::of(&validation))
    } else {
        let input_type = validation.input_type;
        report.extend(validation.report);
        to_json(&JsValidationReport::failed(&report, input_type))
    }
}

/// Validates as [`validate_parameters`] and formats the prompt when everything is valid.
pub(crate) fn format_inputs(text: &str, schema: &Value, options: &(validate::Options, Report)) -> String {
    let (options, mut report) = (options.0, options.1.clone());
    let result = validate::parse(text, &options.limits).and_then(|document| {
        let validation = with_compiled(schema, |compiled| {
            extend_validation_compiled(crate::api::run(&document, Subject::Request, &options), compiled)
        });
        let (request, validated) = validation.into_result()?;
        Ok((agent_input::schema::format_request(&request), validated))
    });
    match result {
        Ok((prompt, validated)) if report.is_ok() => to_json(&FormatReport {
            ok: true,
            prompt: Some(&prompt),
            errors: Vec::new(),
            warnings: list(&validated.warnings),
        }),
        Ok((_, validated)) | Err(validated) => {
            report.extend(validated);
            to_json(&FormatReport {
                ok: false,
                prompt: None,
                errors: list(&report.errors),
                warnings: list(&report.warnings),
            })
        }
    }
}

/// Checks a schema by itself: its `invalid_schema` problems, or the merged schema.
pub(crate) fn check_schema(schema: &Value) -> String {
    match agent_input::schema::Schema::new(schema) {
        Ok(compiled) => {
            to_json(&SchemaReport { valid: true, errors: Vec::new(), merged_schema: Some(compiled.merged()) })
        }
        Err(report) => to_json(&SchemaReport { valid: false, errors: list(&report.errors), merged_schema: None }),
    }
}

/// A JavaScript value as JSON (the schema is small: read through a string).
fn value(js: &JsValue, name: &str) -> Result<Value, JsValue> {
    let text = String::from(crate::json_text(js, name)?);
    // `JSON.stringify` writes JSON.
    Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// Reads the options, the schema and then the request text (so a wrong argument type is reported
/// in that order), runs `check` and hands its report to JavaScript as a plain object.
fn run(
    schema: &JsValue,
    options: &JsValue,
    text: impl FnOnce() -> Result<js_sys::JsString, JsValue>,
    check: fn(&str, &Value, &(validate::Options, Report)) -> String,
) -> Result<JsValue, JsValue> {
    let options = crate::validate_options(options)?;
    let schema = value(schema, "schema")?;
    let text = text()?;
    JSON::parse(&crate::text::with_str(&text, |text| check(text, &schema, &options)))
}

/// Validates an `_execute` request and its `parameters` against an agent's `parameters_schema`
/// (merged with the required `prompt`). Returns the report of `validate` with `schema_violation`
/// errors (paths into the request, `schemaPath` into the merged schema) or, for a schema that is
/// not a usable JSON Schema, `invalid_schema` errors (paths into the schema).
#[wasm_bindgen(js_name = validateParameters, unchecked_return_type = "ValidationReport")]
pub fn validate_parameters_js(
    #[wasm_bindgen(unchecked_param_type = "ExecuteRequest")] request: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ParametersSchema")] schema: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    run(schema, options, || crate::json_text(request, "request"), validate_parameters)
}

/// Validates like `validateParameters` and, when everything is valid, returns the prompt the
/// model receives: the parameters other than the prompt in an `<inputs>` block, a blank line,
/// and the prompt (the runner's `format_autonomous_inputs`). A whole number is written as an
/// integer (`300`): JavaScript numbers do not say whether `300.0` was written; `formatInputsJson`
/// keeps the text's numbers as written.
#[wasm_bindgen(js_name = formatInputs, unchecked_return_type = "FormatInputsResult")]
pub fn format_inputs_js(
    #[wasm_bindgen(unchecked_param_type = "ExecuteRequest")] request: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ParametersSchema")] schema: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    run(schema, options, || crate::json_text(request, "request"), format_inputs)
}

/// Like `validateParameters`, for a request given as JSON text.
#[wasm_bindgen(js_name = validateParametersJson, unchecked_return_type = "ValidationReport")]
pub fn validate_parameters_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ParametersSchema")] schema: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    run(schema, options, || crate::text_argument(text, "text"), validate_parameters)
}

/// Like `formatInputs`, for a request given as JSON text. Numbers are written as the text has
/// them (`300.0` stays a float, as Python reads it); a JavaScript value has only one kind of
/// number, so `formatInputs` writes a whole `300.0` as `300`.
#[wasm_bindgen(js_name = formatInputsJson, unchecked_return_type = "FormatInputsResult")]
pub fn format_inputs_json(
    #[wasm_bindgen(unchecked_param_type = "string")] text: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "ParametersSchema")] schema: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    run(schema, options, || crate::text_argument(text, "text"), format_inputs)
}

/// Checks a `parameters_schema` by itself (for a schema editor): `invalid_schema` errors with
/// paths into the schema, or the schema merged with the required `prompt`.
#[wasm_bindgen(js_name = checkSchema, unchecked_return_type = "SchemaCheck")]
pub fn check_schema_js(
    #[wasm_bindgen(unchecked_param_type = "ParametersSchema")] schema: &JsValue,
) -> Result<JsValue, JsValue> {
    JSON::parse(&check_schema(&value(schema, "schema")?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).expect("reports are JSON")
    }

    /// Options given as JSON, read as the binding reads them.
    fn options(value: &Value) -> (validate::Options, Report) {
        validate::Options::read_json(value)
    }

    const SCHEMA: &str = r#"{"required": ["n"], "properties": {"n": {"type": "integer", "enum": [1, 2]}}}"#;

    #[test]
    fn violations_carry_the_schema_path_in_camel_case() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        let report =
            parse(&validate_parameters(r#"{"input": "Hi", "parameters": {"n": 3}}"#, &schema, &options(&Value::Null)));
        assert_eq!(report["valid"], false);
        assert_eq!(report["inputType"], "TEXT");
        let error = &report["errors"][0];
        assert_eq!(error["code"], "schema_violation");
        assert_eq!(error["path"], "/parameters/n");
        assert_eq!(error["schemaPath"], "/properties/n/enum");
        assert_eq!(error["expected"], json!(["1", "2"]));
    }

    #[test]
    fn formatting_returns_the_prompt_or_every_error() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        let ok = parse(&format_inputs(r#"{"input": "Hi", "parameters": {"n": 2}}"#, &schema, &options(&Value::Null)));
        assert_eq!(ok, json!({"ok": true, "prompt": "<inputs>\nn: 2\n</inputs>\n\nHi", "errors": [], "warnings": []}));
        let bad =
            parse(&format_inputs(r#"{"input": "", "parameters": {}}"#, &schema, &options(&json!({"allowPrefill": 1}))));
        assert_eq!(bad["ok"], false);
        let paths: Vec<_> = bad["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
        assert_eq!(paths, ["/options/allowPrefill", "/input"]);
    }

    #[test]
    fn a_schema_is_checked_by_itself() {
        let report = parse(&check_schema(&json!({"properties": {"n": {"type": "integr"}}})));
        assert_eq!(report["valid"], false);
        assert_eq!(report["errors"][0]["path"], "/properties/n/type");
        let report = parse(&check_schema(&json!({})));
        assert_eq!(report["mergedSchema"]["required"], json!(["prompt"]));
    }

    /// The compiled schema is reused only for the same schema: a changed one is compiled anew,
    /// and a schema that does not compile is reported each time.
    #[test]
    fn a_changed_schema_is_compiled_again() {
        let request = r#"{"input": "Hi", "parameters": {"n": 3}}"#;
        let strict: Value = serde_json::from_str(SCHEMA).unwrap();
        let loose = json!({"properties": {"n": {"type": "integer"}}});
        let broken = json!({"properties": {"n": {"type": "integr"}}});
        for _ in 0..2 {
            for (schema, valid, code) in [
                (&strict, false, Some("schema_violation")),
                (&loose, true, None),
                (&broken, false, Some("invalid_schema")),
            ] {
                let report = parse(&validate_parameters(request, schema, &options(&Value::Null)));
                assert_eq!(report["valid"], valid, "{schema}");
                assert_eq!(report["errors"][0]["code"].as_str(), code, "{schema}");
            }
        }
    }
}
