//! Agent input schemas beyond the shared fixtures (`tests/fixtures/agent_schema.json`): the merge
//! rule and Python's number rendering, with expectations printed by the autonomous-agent runner's Python (scripts/gen-schema-fixtures.py)
//! (`_merge_autonomous_schema_with_prompt`, `format_autonomous_inputs`, run on Python 3.11).

use agent_input::schema::{self, Schema};
use serde_json::{Map, Value, json};

fn merged(schema: &str) -> String {
    let schema: Map<String, Value> = serde_json::from_str(schema).unwrap();
    serde_json::to_string(&schema::merged_schema(&schema)).unwrap()
}

#[test]
fn merge_follows_the_seed_rule_for_rule_and_keeps_key_order() {
    // Python: json.dumps(_merge_autonomous_schema_with_prompt(s), separators=(",", ":"))
    assert_eq!(
        merged("{}"),
        r#"{"type":"object","properties":{"prompt":{"type":"string","minLength":1}},"required":["prompt"]}"#
    );
    assert_eq!(
        merged(r#"{"type": ["object", "null"], "required": ["a"], "properties": {"a": {}}, "x": 1}"#),
        r#"{"type":"object","required":["a","prompt"],"properties":{"a":{},"prompt":{"type":"string","minLength":1}},"x":1}"#
    );
    assert_eq!(
        merged(r#"{"properties": {"prompt": {"type": "integer"}}, "required": ["prompt", "b"], "type": "object"}"#),
        r#"{"properties":{"prompt":{"type":"integer"}},"required":["prompt","b"],"type":"object"}"#
    );
    assert_eq!(
        merged(r#"{"required": [], "additionalProperties": false}"#),
        r#"{"required":["prompt"],"additionalProperties":false,"type":"object","properties":{"prompt":{"type":"string","minLength":1}}}"#
    );
}

#[test]
fn the_compiled_schema_is_the_merged_one_and_the_given_one_is_unchanged() {
    let given = json!({"properties": {"topic": {"type": "string"}}});
    let before = given.clone();
    let compiled = Schema::new(&given).unwrap();
    assert_eq!(given, before);
    assert_eq!(compiled.merged(), &schema::merged_schema(given.as_object().unwrap()));
}

#[test]
fn numbers_are_written_as_python_writes_them() {
    let parameters: Map<String, Value> = serde_json::from_str(
        r#"{"prompt":"P","a":1e22,"b":5e-324,"c":1.7976931348623157e308,"d":0.30000000000000004,"e":-0.0,"f":123456789.125,"g":9007199254740993,"h":18446744073709551615,"i":-9223372036854775808,"j":1e-4,"k":12345678901234567.0,"l":[1e22,-0.0,"\u2028"]}"#,
    )
    .unwrap();
    assert_eq!(
        schema::format_parameters(&parameters),
        "<inputs>\na: 1e+22\nb: 5e-324\nc: 1.7976931348623157e+308\nd: 0.30000000000000004\ne: -0.0\nf: 123456789.125\ng: 9007199254740993\nh: 18446744073709551615\ni: -9223372036854775808\nj: 0.0001\nk: 1.2345678901234568e+16\nl: [1e+22, -0.0, \"\\u2028\"]\n</inputs>\n\nP"
    );
}

#[test]
fn every_schema_problem_is_reported_at_once() {
    let report = Schema::new(&json!({
        "required": "topic",
        "properties": {"a": {"type": "integr"}, "b": {"minimum": "5"}}
    }))
    .unwrap_err();
    let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
    assert_eq!(paths.len(), 3, "{report}");
    for want in ["/required", "/properties/a/type", "/properties/b/minimum"] {
        assert!(paths.iter().any(|p| p == want), "{want} missing from {paths:?}");
    }
    assert!(report.errors.iter().all(|d| d.code.as_str() == "invalid_schema" && d.schema_path.is_some()));
    assert!(report.to_string().contains("\"integr\" is not a JSON Schema type"), "{report}");
}

#[test]
fn a_remote_ref_is_never_fetched() {
    let report = Schema::new(&json!({"properties": {"a": {"$ref": "https://127.0.0.1:9/schema.json"}}})).unwrap_err();
    assert_eq!(report.errors[0].code.as_str(), "invalid_schema", "{report}");
    assert_eq!(report.errors[0].schema_path, None, "no keyword location to give");
}

#[test]
fn a_file_ref_is_never_read() {
    let report = Schema::new(&json!({"properties": {"a": {"$ref": "file:///etc/hostname"}}})).unwrap_err();
    assert_eq!(report.errors[0].code.as_str(), "invalid_schema", "{report}");
    assert!(report.to_string().contains("no schema is fetched"), "{report}");
}

/// The npm module runs patterns on JavaScript's `RegExp` (tests/node/schema.test.mjs has the same
/// case); natively `regex` runs them, `fancy-regex` what needs look-around.
#[test]
fn patterns_are_ecma_262_unicode_properties_and_look_behind_included() {
    let schema = Schema::new(&json!({
        "properties": {"name": {"type": "string", "pattern": "^\\p{Lu}"}, "price": {"type": "string", "pattern": "(?<=\\$)\\d+$"}},
        "patternProperties": {"^x-\\p{Ll}+$": {"type": "integer"}}
    }))
    .unwrap();
    let check = |parameters: Value| {
        let value = json!({"input": "Go.", "parameters": parameters});
        let document = agent_input::validate::document(&value);
        let (request, _) =
            agent_input::validate::validate_request(&document, &agent_input::validate::Options::default())
                .into_result()
                .unwrap();
        let mut found: Vec<(String, String)> = schema
            .validate(&request)
            .errors
            .iter()
            .map(|d| (d.path.to_string(), d.schema_path.clone().unwrap_or_default()))
            .collect();
        found.sort();
        found
    };
    assert_eq!(check(json!({"name": "Édith", "price": "US$12", "x-é": 1})), []);
    assert_eq!(
        check(json!({"name": "édith", "price": "12", "x-é": "one"})),
        [
            ("/parameters/name".to_string(), "/properties/name/pattern".to_string()),
            ("/parameters/price".to_string(), "/properties/price/pattern".to_string()),
            ("/parameters/x-é".to_string(), "/patternProperties/^x-\\p{Ll}+$/type".to_string()),
        ]
    );
}
