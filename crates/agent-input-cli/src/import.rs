//! `import`: a provider's request body back into the standard request and the options it implies,
//! and with `--to` converted to another provider.

use std::path::PathBuf;

use agent_input::{Limits, ProviderId, validate};
use serde_json::{Value, json};

use crate::input::{UsageError, parse, read_input};
use crate::output::print_json;

/// `import`: the translation, every path into the provider's body.
pub(crate) fn run(
    file: Option<&PathBuf>,
    from: ProviderId,
    to: Option<ProviderId>,
    model: Option<&str>,
    max_body_bytes: usize,
    compact: bool,
) -> Result<bool, UsageError> {
    let options =
        validate::Options { limits: Limits { max_body_bytes, ..Limits::default() }, ..validate::Options::default() };
    let input = read_input(file, max_body_bytes)?;
    let translation = match parse(&input, &options) {
        Ok(document) => agent_input::import::translate_model(from, &document.root.to_value(), to, model),
        Err(report) => agent_input::import::Translation {
            ok: false,
            request: Value::Null,
            options: json!({}),
            body: to.map(|_| Value::Null),
            errors: report.errors,
            warnings: report.warnings,
        },
    };
    print_json(&translation, compact)?;
    Ok(translation.ok)
}
