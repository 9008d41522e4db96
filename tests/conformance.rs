//! Runs every conformance fixture against the core crate, one test per case.

#![allow(clippy::format_push_string, clippy::missing_panics_doc)] // test code: panics are failures

use agent_input::{Code, ProviderId, convert, validate};
use conformance::{Case, Subject, check_conversion, check_validation, convert_options, load_all};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::json;

/// The fuzz targets' independent Converse rule checker: every Bedrock body a fixture produces
/// must satisfy it.
#[allow(unreachable_pub, dead_code)]
#[path = "../fuzz/src/converse_rules.rs"]
mod converse_rules;

fn run(case: &Case) -> Result<(), Failed> {
    let limits = case.limits();
    let options = validate::Options { limits, allow_prefill: false };
    let subject = case.subject();
    // Fixtures are JSON; run them through the text entry point, as a client sends them.
    let text = case.subject_text();
    let parsed = validate::parse(&text, &limits);
    let mut out = String::new();
    let document = match parsed {
        Ok(document) => document,
        Err(report) => {
            let summary =
                json!({"valid": false, "input_type": null, "errors": report.errors, "warnings": report.warnings});
            check_validation(case, &summary, &mut out);
            return finish(out);
        }
    };
    let validate_with = |options: &validate::Options| match subject {
        Subject::Bare(_) => validate::validate_input(&document, options),
        Subject::Request(_) | Subject::Raw(_) => validate::validate_request(&document, options),
    };
    let validation = validate_with(&options);
    let summary = serde_json::to_value(validation.summary()).expect("report serializes");
    check_validation(case, &summary, &mut out);

    if let (Some(want), Some(request)) = (&case.expect.question, &validation.request)
        && request.input.question() != *want
    {
        out.push_str(&format!("question is {:?}, expected {want:?}\n", request.input.question()));
    }

    for (provider, entry) in &case.expect.convert {
        let Some(provider) = ProviderId::parse(provider) else {
            out.push_str(&format!("unknown provider {provider:?}\n"));
            continue;
        };
        let ((convert_options, option_errors), allow_prefill) = convert_options(entry);
        let validation = validate_with(&validate::Options { limits, allow_prefill });
        // Option problems and the rest are reported together, as every layer does.
        let report = match validation.into_result() {
            Err(mut report) => {
                report.errors.splice(0..0, option_errors.errors);
                json!({"ok": false, "body": null, "errors": report.errors, "warnings": report.warnings})
            }
            Ok((request, mut report)) => match convert::convert_to_value(provider, &request, &convert_options) {
                Ok(converted) if option_errors.is_ok() => {
                    if provider == ProviderId::BedrockConverse {
                        for problem in converse_rules::violations(&converted.body) {
                            out.push_str(&format!("the Bedrock body breaks a Converse rule: {problem}\n"));
                        }
                    }
                    report.warnings.extend(converted.warnings);
                    json!({"ok": true, "body": converted.body, "errors": [], "warnings": report.warnings})
                }
                Ok(converted) => {
                    report.warnings.extend(converted.warnings);
                    json!({"ok": false, "body": null, "errors": option_errors.errors, "warnings": report.warnings})
                }
                Err(errors) => {
                    report.extend(option_errors);
                    report.extend(errors);
                    json!({"ok": false, "body": null, "errors": report.errors, "warnings": report.warnings})
                }
            },
        };
        let mut section = String::new();
        check_conversion(case, entry, &report, &mut section);
        if !section.is_empty() {
            out.push_str(&format!("[{provider}]\n{section}"));
        }
    }
    finish(out)
}

fn finish(out: String) -> Result<(), Failed> {
    if out.is_empty() { Ok(()) } else { Err(out.into()) }
}

/// Every code is exercised by some fixture (or has a reason not to be), so no rule goes untested.
fn every_code_has_a_fixture(cases: &[(String, Case)]) -> Result<(), Failed> {
    // Codes no Bedrock case can produce yet: they belong to providers still to come.
    const NOT_YET: &[&str] = &["unsupported_by_provider"];
    let mut seen = std::collections::BTreeSet::new();
    for (_, case) in cases {
        let entries = case.expect.convert.values();
        let convert_diags = entries.flat_map(|e| {
            let errors = e["errors"].as_array().cloned().unwrap_or_default();
            let warnings = e["warnings"].as_array().cloned().unwrap_or_default();
            errors.into_iter().chain(warnings)
        });
        for d in case.expect.errors.iter().chain(&case.expect.warnings).cloned().chain(convert_diags) {
            if let Some(code) = d["code"].as_str() {
                seen.insert(code.to_string());
            }
        }
    }
    let missing: Vec<&str> =
        Code::ALL.iter().map(|c| c.as_str()).filter(|c| !seen.contains(*c) && !NOT_YET.contains(c)).collect();
    let unknown: Vec<&String> = seen.iter().filter(|c| Code::parse(c).is_none()).collect();
    if missing.is_empty() && unknown.is_empty() {
        Ok(())
    } else {
        Err(format!("codes without a fixture: {missing:?}; fixture codes that do not exist: {unknown:?}").into())
    }
}

/// `docs/errors.md` documents exactly the codes that exist.
fn errors_doc_lists_every_code() -> Result<(), Failed> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/errors.md"))
        .map_err(|e| e.to_string())?;
    let documented: std::collections::BTreeSet<&str> =
        doc.lines().filter_map(|line| line.strip_prefix("| `")?.split('`').next()).collect();
    let codes: std::collections::BTreeSet<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let undocumented: Vec<_> = codes.difference(&documented).collect();
    let stale: Vec<_> = documented.difference(&codes).collect();
    if undocumented.is_empty() && stale.is_empty() {
        Ok(())
    } else {
        Err(format!("undocumented codes: {undocumented:?}; documented but not in Code: {stale:?}").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let cases = load_all();
    let mut trials: Vec<Trial> = vec![
        Trial::test("meta/every code has a fixture", {
            let cases = cases.clone();
            move || every_code_has_a_fixture(&cases)
        }),
        Trial::test("meta/docs/errors.md lists every code", errors_doc_lists_every_code),
    ];
    trials.extend(cases.into_iter().map(|(name, case)| Trial::test(name, move || run(&case))));
    libtest_mimic::run(&args, trials).exit();
}
