//! Runs every conformance fixture against the core crate, one test per case.

use agent_input::{ProviderId, convert, validate};
use conformance::{Case, Subject, check_conversion, check_validation, convert_options, load_all};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::json;

fn run(case: &Case) -> Result<(), Failed> {
    let limits = case.limits();
    let options = validate::Options { limits, allow_prefill: false };
    let subject = case.subject();
    let parsed = match &subject {
        Subject::Request(v) | Subject::Bare(v) => {
            // Fixtures are written as JSON; run them through the text entry point like a client would.
            validate::parse(&v.to_string(), &limits)
        }
        Subject::Raw(raw) => validate::parse(raw, &limits),
    };
    let mut out = String::new();
    let value = match parsed {
        Ok(value) => value,
        Err(report) => {
            let summary = json!({"valid": false, "input_type": null, "errors": report.errors, "warnings": report.warnings});
            check_validation(case, &summary, &mut out);
            return finish(out);
        }
    };
    let validate_with = |options: &validate::Options| match subject {
        Subject::Bare(_) => validate::validate_input(&value, options),
        Subject::Request(_) | Subject::Raw(_) => validate::validate_request(&value, options),
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
        let (convert_options, allow_prefill) = convert_options(entry);
        let validation = validate_with(&validate::Options { limits, allow_prefill });
        let report = match (validation.into_result(), convert_options) {
            (_, Err(report)) | (Err(report), _) => json!({"ok": false, "body": null, "errors": report.errors, "warnings": report.warnings}),
            (Ok((request, mut report)), Ok(convert_options)) => match convert::convert_to_value(provider, &request, &convert_options) {
                Ok(converted) => {
                    report.warnings.extend(converted.warnings);
                    json!({"ok": true, "body": converted.body, "errors": [], "warnings": report.warnings})
                }
                Err(errors) => {
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

fn main() {
    let args = Arguments::from_args();
    let trials = load_all()
        .into_iter()
        .map(|(name, case)| Trial::test(name, move || run(&case)))
        .collect();
    libtest_mimic::run(&args, trials).exit();
}

