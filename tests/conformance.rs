//! Runs every conformance fixture against the core crate, one test per case.

#![allow(clippy::format_push_string, clippy::missing_panics_doc)] // test code: panics are failures

use agent_input::{Code, ProviderId, Severity, convert, validate};
use conformance::{
    Case, ImportCase, ResponseCase, Subject, check_conversion, check_import, check_response, check_validation,
    convert_options, load_all, load_imports, load_responses, ml_commons, ml_commons_agent,
};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::json;

/// The fuzz targets' independent rule checkers: every body a fixture produces must satisfy its
/// provider's.
#[allow(unreachable_pub, dead_code)]
#[path = "../fuzz/src/rules.rs"]
mod rules;

fn run(case: &Case) -> Result<(), Failed> {
    let limits = case.limits();
    let options = validate::Options { limits, ..validate::Options::default() };
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
    let mut validation = validate_with(&options);
    if let Some(schema) = &case.schema {
        validation = agent_input::schema::extend_validation(validation, schema);
    }
    let summary = serde_json::to_value(validation.summary()).expect("report serializes");
    check_validation(case, &summary, &mut out);

    if let (Some(want), Some(request)) = (&case.expect.question, &validation.request)
        && request.input.question() != *want
    {
        out.push_str(&format!("question is {:?}, expected {want:?}\n", request.input.question()));
    }
    check_formatted_prompt(case, validation.request.as_ref(), &mut out);

    for (provider, entry) in &case.expect.convert {
        let Some(provider) = ProviderId::parse(provider) else {
            out.push_str(&format!("unknown provider {provider:?}\n"));
            continue;
        };
        let ((convert_options, option_errors), allow_prefill) = convert_options(entry);
        let validation = validate_with(&validate::Options { limits, allow_prefill, ml_commons: ml_commons(entry) });
        // Option problems and the rest are reported together, as every layer does.
        let report = match validation.into_result() {
            Err(mut report) => {
                report.errors.splice(0..0, option_errors.errors);
                json!({"ok": false, "body": null, "errors": report.errors, "warnings": report.warnings})
            }
            Ok((request, report)) if ml_commons(entry) => {
                let agent = convert::mlcommons::AgentType::parse(ml_commons_agent(entry)).unwrap_or_default();
                let version = convert::mlcommons::VERSIONS[0];
                match convert::mlcommons::parameters_for(provider, agent, version, &document, &request) {
                    Ok((parameters, warnings)) => {
                        let warnings: Vec<_> = report.warnings.into_iter().chain(warnings).collect();
                        json!({"ok": true, "body": parameters, "errors": [], "warnings": warnings})
                    }
                    Err(errors) => {
                        json!({"ok": false, "body": null, "errors": errors.errors, "warnings": report.warnings})
                    }
                }
            }
            Ok((request, mut report)) => match convert::convert_to_value(provider, &request, &convert_options) {
                Ok(converted) if option_errors.is_ok() => {
                    for problem in rules::violations(provider, &converted.body) {
                        out.push_str(&format!("the body breaks a {provider} rule: {problem}\n"));
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

fn run_response(case: &ResponseCase) -> Result<(), Failed> {
    let Some(provider) = ProviderId::parse(&case.provider) else {
        return Err(format!("unknown provider {:?}", case.provider).into());
    };
    let result = agent_input::response::parse(provider, &case.text())
        .map(|response| serde_json::to_value(response).expect("response serializes"))
        .map_err(|report| report.errors.iter().map(|e| serde_json::to_value(e).expect("serializes")).collect());
    let mut out = String::new();
    check_response(case, result, &mut out);
    finish(out)
}

fn run_import(case: &ImportCase) -> Result<(), Failed> {
    let Some(from) = ProviderId::parse(&case.from) else {
        return Err(format!("unknown provider {:?}", case.from).into());
    };
    let to = match &case.to {
        Some(to) => Some(ProviderId::parse(to).ok_or_else(|| format!("unknown provider {to:?}"))?),
        None => None,
    };
    // Through the text entry point, as a client sends it.
    let text = serde_json::to_string(&conformance::expand(&case.body)).expect("serializes");
    let translation = agent_input::import::translate_str(from, &text, to, &agent_input::Limits::default());
    let report = serde_json::to_value(&translation).expect("report serializes");
    let mut out = String::new();
    check_import(case, &report, &mut out);
    finish(out)
}

/// A case's `formatted_prompt`: the schema's `<inputs>` block and prompt (contract §8).
fn check_formatted_prompt(case: &Case, request: Option<&agent_input::ExecuteRequest<'_>>, out: &mut String) {
    let (Some(want), Some(schema)) = (&case.expect.formatted_prompt, &case.schema) else {
        if case.expect.formatted_prompt.is_some() {
            out.push_str("formatted_prompt needs a schema\n");
        }
        return;
    };
    match request.map(|request| agent_input::schema::format_inputs(request, schema)) {
        Some(Ok(got)) if got == *want => {}
        Some(Ok(got)) => out.push_str(&format!("formatted prompt is {got:?}, expected {want:?}\n")),
        Some(Err(report)) => out.push_str(&format!("formatting failed: {report}\n")),
        None => out.push_str("no formatted prompt: the request is invalid\n"),
    }
}

fn finish(out: String) -> Result<(), Failed> {
    if out.is_empty() { Ok(()) } else { Err(out.into()) }
}

/// Every code is exercised by some fixture (or has a reason not to be), so no rule goes untested.
fn every_code_has_a_fixture(cases: &[(String, Case)], imports: &[(String, ImportCase)]) -> Result<(), Failed> {
    let mut seen = std::collections::BTreeSet::new();
    for (_, case) in imports {
        for d in case.expect.errors.iter().chain(&case.expect.warnings) {
            if let Some(code) = d["code"].as_str() {
                seen.insert(code.to_string());
            }
        }
    }
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
    // Registration plans have their own table of cases, which the core's registration test runs.
    let registrations = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/agent-input/tests/data/registration/invalid.json"
    ))
    .map_err(|e| e.to_string())?;
    let registrations: serde_json::Value = serde_json::from_str(&registrations).map_err(|e| e.to_string())?;
    for case in registrations["cases"].as_array().into_iter().flatten() {
        let listed = ["errors", "warnings"].into_iter().filter_map(|key| case[key].as_array()).flatten();
        seen.extend(listed.filter_map(|d| d["code"].as_str()).map(str::to_string));
    }
    let missing: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).filter(|c| !seen.contains(*c)).collect();
    let unknown: Vec<&String> = seen.iter().filter(|c| Code::parse(c).is_none()).collect();
    if missing.is_empty() && unknown.is_empty() {
        Ok(())
    } else {
        Err(format!("codes without a fixture: {missing:?}; fixture codes that do not exist: {unknown:?}").into())
    }
}

/// No case repeats another (the same input, limits, schema and expectations under another name):
/// a copy adds run time and nothing else.
fn no_duplicate_cases(cases: &[(String, Case)]) -> Result<(), Failed> {
    let mut seen = std::collections::BTreeMap::new();
    let mut copies = Vec::new();
    for (name, case) in cases {
        let key = json!([case.request, case.bare, case.raw, case.limits, case.schema, expect_value(case)]).to_string();
        if let Some(first) = seen.insert(key, name) {
            copies.push(format!("{name} repeats {first}"));
        }
    }
    if copies.is_empty() { Ok(()) } else { Err(copies.join("\n").into()) }
}

fn expect_value(case: &Case) -> serde_json::Value {
    let e = &case.expect;
    json!({"valid": e.valid, "input_type": e.input_type, "errors": e.errors, "warnings": e.warnings,
           "question": e.question, "formatted_prompt": e.formatted_prompt, "convert": e.convert})
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

/// The npm package's `ErrorCode` and `WarningCode` types list exactly the codes of each severity.
fn npm_types_list_every_code() -> Result<(), Failed> {
    let types =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../crates/agent-input-wasm/src/types.rs"))
            .map_err(|e| e.to_string())?;
    let union = |name: &str| -> std::collections::BTreeSet<String> {
        let start = types.find(&format!("export type {name} =")).map_or(types.len(), |i| i + name.len());
        let body = types[start..].split(';').next().unwrap_or_default();
        body.split('"').skip(1).step_by(2).map(str::to_string).collect()
    };
    let of = |severity: Severity| -> std::collections::BTreeSet<String> {
        Code::ALL.iter().filter(|c| c.severity() == severity).map(|c| c.as_str().to_string()).collect()
    };
    let (errors, warnings) = (union("ErrorCode"), union("WarningCode"));
    if errors == of(Severity::Error) && warnings == of(Severity::Warning) {
        Ok(())
    } else {
        Err(format!(
            "ErrorCode differs by {:?}, WarningCode by {:?}",
            errors.symmetric_difference(&of(Severity::Error)).collect::<Vec<_>>(),
            warnings.symmetric_difference(&of(Severity::Warning)).collect::<Vec<_>>()
        )
        .into())
    }
}

/// `docs/providers.md`'s capability matrix is the one the converters declare.
fn providers_doc_matrix() -> Result<(), Failed> {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/providers.md"))
        .map_err(|e| e.to_string())?;
    let (Some(start), Some(end)) =
        (doc.find("<!-- capability-matrix:start -->\n"), doc.find("<!-- capability-matrix:end -->"))
    else {
        return Err("docs/providers.md has no capability-matrix markers".into());
    };
    let documented = &doc[start + "<!-- capability-matrix:start -->\n".len()..end];
    let tables: Vec<_> = ProviderId::ALL.iter().map(|p| convert::capabilities(*p)).collect();
    let mut rendered = String::from("|");
    for table in &tables {
        rendered.push_str(&format!(" | `{}`", table.provider));
    }
    rendered.push_str(" |\n| ---");
    rendered.push_str(&" | ---".repeat(tables.len()));
    rendered.push_str(" |\n");
    for (row, (label, _)) in tables[0].rows().iter().enumerate() {
        rendered.push_str(&format!("| {label}"));
        for table in &tables {
            rendered.push_str(&format!(" | {}", table.rows()[row].1));
        }
        rendered.push_str(" |\n");
    }
    if documented == rendered {
        Ok(())
    } else {
        Err(format!("docs/providers.md's matrix differs from the converters'; it should read:\n{rendered}").into())
    }
}

fn main() {
    let args = Arguments::from_args();
    let cases = load_all();
    let imports = load_imports();
    let mut trials: Vec<Trial> = vec![
        Trial::test("meta/every code has a fixture", {
            let (cases, imports) = (cases.clone(), imports.clone());
            move || every_code_has_a_fixture(&cases, &imports)
        }),
        Trial::test("meta/no duplicate cases", {
            let cases = cases.clone();
            move || no_duplicate_cases(&cases)
        }),
        Trial::test("meta/docs/errors.md lists every code", errors_doc_lists_every_code),
        Trial::test("meta/docs/providers.md matrix", providers_doc_matrix),
        Trial::test("meta/npm types list every code", npm_types_list_every_code),
    ];
    trials.extend(cases.into_iter().map(|(name, case)| Trial::test(name, move || run(&case))));
    trials.extend(load_responses().into_iter().map(|(name, case)| Trial::test(name, move || run_response(&case))));
    trials.extend(imports.into_iter().map(|(name, case)| Trial::test(name, move || run_import(&case))));
    libtest_mimic::run(&args, trials).exit();
}
