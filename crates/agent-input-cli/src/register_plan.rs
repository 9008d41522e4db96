//! `register-plan`: the calls that register an agent on a cluster, or a template preview.

use std::path::PathBuf;

use agent_input::{Limits, register};
use serde_json::json;

use crate::input::{Input, UsageError, read_input, read_json_file};
use crate::output::{print_diagnostics, print_json, write_line};

/// `register-plan`: the plan as JSON or as a curl script, or a template preview.
pub(crate) fn run(
    file: Option<&PathBuf>,
    version: register::Version,
    format: &str,
    api: Option<&str>,
    preview: Option<&PathBuf>,
) -> Result<bool, UsageError> {
    let Input::Bytes(bytes) = read_input(file, Limits::default().max_body_bytes)? else {
        return Err(UsageError("the registration body is larger than 64 MiB".into()));
    };
    let text = String::from_utf8_lossy(&bytes);
    if let Some(request) = preview {
        let request = read_json_file(Some(request), "execute request")?;
        let registration =
            serde_json::from_str(&text).map_err(|e| UsageError(format!("the registration body is not JSON: {e}")))?;
        let preview = register::preview(&registration, &request);
        print_json(&preview, false)?;
        return Ok(preview.report.is_ok());
    }
    let api = match api {
        Some("unified") => Some(register::Api::Unified),
        Some(_) => Some(register::Api::Legacy),
        None => None,
    };
    let plan = match register::plan_str(&text, &register::PlanOptions { version, api }) {
        Ok(plan) => plan,
        Err(report) => {
            if format == "json" {
                print_json(&json!({"errors": report.errors, "warnings": report.warnings}), false)?;
            } else {
                print_diagnostics(&report.errors, "error");
                print_diagnostics(&report.warnings, "warning");
            }
            return Ok(false);
        }
    };
    if format == "json" {
        print_json(&plan, false)?;
    } else {
        print_diagnostics(&plan.warnings, "warning");
        write_line(&register::curl_script(&plan, version))?;
    }
    Ok(true)
}
