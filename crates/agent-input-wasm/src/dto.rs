//! The shapes JavaScript receives, written as JSON text and turned into plain objects with
//! `JSON.parse` by the wasm layer (engines parse JSON faster than any object-by-object build,
//! and the result is plain objects and arrays, never `Map`s).
//!
//! These are the binding's own types, not the core's: the JavaScript shape (camelCase keys,
//! optional keys left out) is decided here, so a field added to the core does not change the
//! package's API by accident.

use agent_input::{Diagnostic, InputType, Report, Validation};
use serde::Serialize;

/// `{ code, path, message, expected?, received?, limit?, actual?, schemaPath? }`
#[derive(Debug, Serialize)]
pub(crate) struct JsDiagnostic<'a> {
    code: &'static str,
    path: String,
    message: &'a str,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    expected: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    received: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<u64>,
    #[serde(rename = "schemaPath", skip_serializing_if = "Option::is_none")]
    schema_path: Option<&'a str>,
}

impl<'a> From<&'a Diagnostic> for JsDiagnostic<'a> {
    fn from(d: &'a Diagnostic) -> Self {
        Self {
            code: d.code.as_str(),
            path: d.path.to_string(),
            message: &d.message,
            expected: &d.expected,
            received: d.received.as_deref(),
            limit: d.limit,
            actual: d.actual,
            schema_path: d.schema_path.as_deref(),
        }
    }
}

pub(crate) fn list(diagnostics: &[Diagnostic]) -> Vec<JsDiagnostic<'_>> {
    diagnostics.iter().map(JsDiagnostic::from).collect()
}

/// `{ valid, inputType, errors, warnings }`
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct JsValidationReport<'a> {
    valid: bool,
    input_type: Option<InputType>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

impl<'a> JsValidationReport<'a> {
    /// The report of a validation.
    pub(crate) fn of(validation: &'a Validation<'_>) -> Self {
        Self {
            valid: validation.is_valid(),
            input_type: validation.input_type,
            errors: list(&validation.report.errors),
            warnings: list(&validation.report.warnings),
        }
    }

    /// The report of input that could not be validated at all (not JSON, too large, bad
    /// options).
    pub(crate) fn failed(report: &'a Report, input_type: Option<InputType>) -> Self {
        Self { valid: false, input_type, errors: list(&report.errors), warnings: list(&report.warnings) }
    }
}

/// `{ ok, body, errors, warnings }` with `body` left `null` for the wasm layer to fill in: the
/// body is written separately (as text or parsed), never escaped into this report.
#[derive(Debug, Serialize)]
pub(crate) struct JsConversionReport<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<()>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

impl<'a> JsConversionReport<'a> {
    /// A successful conversion: its warnings, and a `body` placeholder.
    pub(crate) fn converted(warnings: &'a [Diagnostic]) -> Self {
        Self { ok: true, body: Some(()), errors: Vec::new(), warnings: list(warnings) }
    }

    /// A failed conversion: no body.
    pub(crate) fn failed(report: &'a Report) -> Self {
        Self { ok: false, body: None, errors: list(&report.errors), warnings: list(&report.warnings) }
    }
}

#[cfg(any(test, feature = "response", feature = "agui"))]
/// `{ ok: true, message, stopReason, usage, errors: [] }` or `{ ok: false, errors }`: a provider
/// response read back.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum JsResponseReport<'a> {
    Read {
        ok: bool,
        message: &'a agent_input::Message<'static>,
        #[serde(rename = "stopReason")]
        stop_reason: Option<&'a str>,
        usage: Option<JsUsage>,
        #[serde(skip_serializing_if = "Option::is_none")]
        reasoning: Option<&'a str>,
        errors: [(); 0],
    },
    Failed {
        ok: bool,
        errors: Vec<JsDiagnostic<'a>>,
    },
}

#[cfg(any(test, feature = "response", feature = "agui"))]
/// `{ inputTokens, outputTokens, totalTokens, cacheReadInputTokens?, cacheWriteInputTokens? }`
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_field_names)] // the names JavaScript reads
pub(crate) struct JsUsage {
    input_tokens: u64,
    output_tokens: u64,
    total_tokens: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_read_input_tokens: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_write_input_tokens: Option<u64>,
}

#[cfg(any(test, feature = "response", feature = "agui"))]
impl<'a> JsResponseReport<'a> {
    /// A response that was read.
    pub(crate) fn read(response: &'a agent_input::response::ProviderResponse) -> Self {
        Self::Read {
            ok: true,
            message: &response.message,
            stop_reason: response.stop_reason.as_deref(),
            usage: response.usage.map(|u| JsUsage {
                input_tokens: u.input_tokens,
                output_tokens: u.output_tokens,
                total_tokens: u.total_tokens,
                cache_read_input_tokens: u.cache_read_input_tokens,
                cache_write_input_tokens: u.cache_write_input_tokens,
            }),
            reasoning: response.reasoning.as_deref(),
            errors: [],
        }
    }

    /// A response that could not be read.
    pub(crate) fn failed(report: &'a Report) -> Self {
        Self::Failed { ok: false, errors: list(&report.errors) }
    }
}

#[cfg(any(test, feature = "import"))]
/// `{ ok, request, options, body?, errors, warnings }`: a provider's request imported.
#[derive(Debug, Serialize)]
pub(crate) struct JsImportReport<'a> {
    ok: bool,
    request: &'a serde_json::Value,
    options: &'a serde_json::Value,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a serde_json::Value>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

#[cfg(any(test, feature = "import"))]
impl<'a> From<&'a agent_input::import::Translation> for JsImportReport<'a> {
    fn from(t: &'a agent_input::import::Translation) -> Self {
        Self {
            ok: t.ok,
            request: &t.request,
            options: &t.options,
            body: t.body.as_ref(),
            errors: list(&t.errors),
            warnings: list(&t.warnings),
        }
    }
}

#[cfg(any(test, feature = "import"))]
/// `{ ok, body?, errors, warnings }`: an imported request's target body alone, reported as
/// `convert` reports a body.
#[derive(Debug, Serialize)]
pub(crate) struct JsImportedBody<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a serde_json::Value>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

#[cfg(any(test, feature = "import"))]
impl<'a> JsImportedBody<'a> {
    /// The report with `body` (left out when `None`; a `null` for the caller to replace).
    pub(crate) fn new(
        ok: bool,
        errors: &'a [Diagnostic],
        warnings: &'a [Diagnostic],
        body: Option<&'a serde_json::Value>,
    ) -> Self {
        Self { ok, body, errors: list(errors), warnings: list(warnings) }
    }
}

/// Serializes a report. The types above hold only strings, numbers and lists, so this cannot
/// fail.
pub(crate) fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_else(|_| unreachable!("reports are plain data"))
}
