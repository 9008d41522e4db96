//! Writing the results: JSON on standard output, problems on standard error.

use std::io::{self, Write};

use agent_input::{Diagnostic, Report};

use crate::input::UsageError;

pub(crate) fn print_json(value: &impl serde::Serialize, compact: bool) -> Result<(), UsageError> {
    let text = if compact { serde_json::to_string(value) } else { serde_json::to_string_pretty(value) }
        .map_err(|e| UsageError(format!("cannot write JSON: {e}")))?;
    write_line(&text)
}

pub(crate) fn write_line(text: &str) -> Result<(), UsageError> {
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{text}").map_err(|e| UsageError(format!("cannot write the output: {e}")))
}

pub(crate) fn print_diagnostics(diagnostics: &[Diagnostic], label: &str) {
    for d in diagnostics {
        let path = d.path.to_string();
        eprintln!("{label}: {} at {}: {}", d.code, if path.is_empty() { "/" } else { &path }, d.message);
    }
}

/// Prints a pretty JSON value with its warnings (exit 0), or the errors and warnings (exit 1).
pub(crate) fn print_outcome(result: Result<(impl serde::Serialize, Report), Report>) -> Result<bool, UsageError> {
    match result {
        Ok((value, report)) => {
            print_diagnostics(&report.warnings, "warning");
            print_json(&value, true)?;
            Ok(true)
        }
        Err(report) => {
            print_diagnostics(&report.errors, "error");
            print_diagnostics(&report.warnings, "warning");
            Ok(false)
        }
    }
}
