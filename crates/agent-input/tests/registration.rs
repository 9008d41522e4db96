//! Registration plans and template previews against `tests/data/registration/*.json`.
//!
//! Every expected value there comes from ml-commons' source at the commit each fixture names
//! (`compared_with`): connector fields are the string literals of the model providers'
//! `createConnector`, and each fixture's `cited` maps an expected field to its source line. The
//! preview payloads are written by hand from the templates and the escaping rules listed in
//! `preview.json`.

#![allow(clippy::missing_panics_doc)] // test code: panics are failures

use std::collections::BTreeSet;

use agent_input::register::{self, Api, PlanOptions, Version};
use serde_json::{Value, json};

#[allow(unreachable_pub, dead_code)]
#[path = "../../../fuzz/src/converse_rules.rs"]
mod converse_rules;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/registration/");

fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DATA}{name}")).expect("fixture");
    serde_json::from_str(&text).expect("fixture is JSON")
}

fn options(case: &Value) -> PlanOptions {
    let version = Version::parse(case["version"].as_str().expect("version")).expect("X.Y");
    let api = match case["api"].as_str() {
        Some("unified") => Some(Api::Unified),
        Some("legacy") => Some(Api::Legacy),
        _ => None,
    };
    PlanOptions { version, api }
}

/// (code, path) pairs of diagnostics, as a set.
fn diagnostics(list: &Value) -> BTreeSet<(String, String)> {
    list.as_array()
        .map(|items| {
            items
                .iter()
                .map(|d| (d["code"].as_str().unwrap_or("").to_owned(), d["path"].as_str().unwrap_or("").to_owned()))
                .collect()
        })
        .unwrap_or_default()
}

/// Compares field by field, naming the first differing JSON Pointer.
fn assert_same(actual: &Value, expected: &Value, at: &str) {
    match (actual, expected) {
        (Value::Object(a), Value::Object(e)) => {
            let keys: BTreeSet<&String> = a.keys().chain(e.keys()).collect();
            for key in keys {
                assert_same(
                    a.get(key).unwrap_or(&Value::Null),
                    e.get(key).unwrap_or(&Value::Null),
                    &format!("{at}/{key}"),
                );
            }
        }
        (Value::Array(a), Value::Array(e)) if a.len() == e.len() => {
            for (i, (a, e)) in a.iter().zip(e).enumerate() {
                assert_same(a, e, &format!("{at}/{i}"));
            }
        }
        _ => assert_eq!(actual, expected, "differs at {at}"),
    }
}

fn check_plan_fixture(name: &str) {
    let case = load(name);
    assert_eq!(case["compared_with"]["commit"].as_str().map(str::len), Some(40), "{name} names its commit");
    let plan =
        register::plan(&case["registration"], &options(&case)).unwrap_or_else(|report| panic!("{name}: {report}"));
    let actual = serde_json::to_value(&plan).expect("plan serializes");
    assert_eq!(actual["api"], case["expect"]["api"], "{name}");
    assert_same(&actual["steps"], &case["expect"]["steps"], &format!("{name}#/steps"));
    assert_eq!(diagnostics(&actual["warnings"]), diagnostics(&case["expect"]["warnings"]), "{name}");
    // Every cited pointer names a field the fixture expects.
    for pointer in case["cited"].as_object().expect("cited").keys() {
        assert!(case.pointer(pointer).is_some(), "{name}: cited {pointer} is not in the fixture");
    }
}

#[test]
fn bedrock_legacy_matches_the_provider_and_the_blueprint() {
    check_plan_fixture("bedrock_legacy.json");
    let case = load("bedrock_legacy.json");
    let plan = register::plan(&case["registration"], &options(&case)).expect("plan");
    let body = plan.steps[0].body["actions"][0]["request_body"].as_str().expect("request_body");
    let blueprint = case["blueprint"]["request_body_contains"].as_str().expect("blueprint");
    assert!(body.contains(blueprint), "the documentation blueprint's messages part:\n{blueprint}\nis not in\n{body}");
}

#[test]
fn bedrock_top_p_plan_execute_and_reflect() {
    check_plan_fixture("bedrock_top_p_per.json");
}

#[test]
fn openai_legacy() {
    check_plan_fixture("openai_legacy.json");
}

#[test]
fn openai_reasoning_effort_uses_the_reasoning_template() {
    check_plan_fixture("openai_reasoning.json");
}

#[test]
fn gemini_legacy() {
    check_plan_fixture("gemini_legacy.json");
}

#[test]
fn unified_from_3_9() {
    check_plan_fixture("unified.json");
}

#[test]
fn unified_forced_enables_the_setting_first() {
    check_plan_fixture("unified_forced.json");
}

#[test]
fn a_type_only_the_unified_api_builds_gets_it_by_default() {
    check_plan_fixture("unified_by_type.json");
}

#[test]
fn the_legacy_default_until_3_8_and_unified_from_3_9() {
    let registration = load("gemini_legacy.json")["registration"].clone();
    for (version, api, steps) in
        [((3, 5), Api::Legacy, 3), ((3, 8), Api::Legacy, 3), ((3, 9), Api::Unified, 1), ((4, 0), Api::Unified, 1)]
    {
        let plan = register::plan(&registration, &PlanOptions::new(Version::new(version.0, version.1))).expect("plan");
        assert_eq!((plan.api, plan.steps.len()), (api, steps), "{version:?}");
    }
}

#[test]
fn ids_are_threaded_by_placeholders() {
    let case = load("bedrock_legacy.json");
    let plan = register::plan(&case["registration"], &options(&case)).expect("plan");
    let returns: Vec<_> = plan.steps.iter().map(|s| s.returns).collect();
    assert_eq!(returns, [Some("connector_id"), Some("model_id"), Some("agent_id")]);
    assert_eq!(plan.steps[1].body["connector_id"], register::CONNECTOR_ID);
    assert_eq!(plan.steps[2].body["llm"]["model_id"], register::MODEL_ID);
    assert!(plan.steps[2].body.get("model").is_none(), "the legacy agent has no model block");
}

#[test]
fn invalid_registrations_report_every_problem_with_its_path() {
    let fixture = load("invalid.json");
    for case in fixture["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        let report = register::plan(&case["registration"], &options(case)).map(|plan| plan.warnings);
        let (errors, warnings) = match report {
            Ok(warnings) => (json!([]), serde_json::to_value(warnings).expect("json")),
            Err(report) => (
                serde_json::to_value(&report.errors).expect("json"),
                serde_json::to_value(&report.warnings).expect("json"),
            ),
        };
        assert_eq!(diagnostics(&errors), diagnostics(&case["errors"]), "{name}: {errors}");
        if let Some(expected) = case.get("warnings") {
            assert_eq!(diagnostics(&warnings), diagnostics(expected), "{name}: {warnings}");
        }
        for expected in case["errors"].as_array().expect("errors") {
            if let Some(message) = expected["message"].as_str() {
                assert!(
                    errors.as_array().expect("array").iter().any(|e| e["message"] == message),
                    "{name}: no error says {message:?}: {errors}"
                );
            }
        }
    }
}

#[test]
fn registration_text_that_is_not_json() {
    let report = register::plan_str("{", &PlanOptions::new(Version::LATEST)).expect_err("not JSON");
    assert_eq!(report.errors[0].code.as_str(), "invalid_json");
}

#[test]
fn previews_fill_the_template_as_ml_commons_does() {
    let fixture = load("preview.json");
    for case in fixture["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        let expect = &case["expect"];
        let preview = register::preview(&case["registration"], &case["request"]);
        let actual = serde_json::to_value(&preview).expect("json");
        assert_eq!(actual["question"], expect["question"], "{name}");
        if let Some(payload) = expect.get("payload") {
            assert_eq!(actual["payload"], *payload, "{name}");
        }
        if let Some(body) = expect.get("body") {
            assert_same(&actual["body"], body, name);
        }
        assert_eq!(diagnostics(&actual["errors"]), diagnostics(&expect["errors"]), "{name}: {actual}");
        assert_eq!(diagnostics(&actual["warnings"]), diagnostics(&expect["warnings"]), "{name}: {actual}");
        if let Some(text) = expect["message_contains"].as_str() {
            assert!(actual["errors"].to_string().contains(text), "{name}: {actual}");
        }
        // A Bedrock body that ml-commons would send passes the independent Converse rules.
        let bedrock = case["registration"]["model"]["model_provider"] == "bedrock/converse";
        if bedrock && preview.report.errors.is_empty() {
            let body = preview.body.as_ref().expect("a JSON body");
            assert_eq!(converse_rules::violations(body), Vec::<String>::new(), "{name}");
        }
    }
}
