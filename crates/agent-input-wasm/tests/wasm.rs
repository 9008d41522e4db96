//! The binding layer in a real browser (headless Chromium through wasm-bindgen-test): what only
//! JavaScript can tell — plain objects rather than `Map`s, real `TypeError`s, a body set as an
//! object or as a string, values read as `JSON.stringify` writes them. The rules themselves are
//! the core's, checked on every fixture by the Node tests of the packed package.
//!
//! Run: `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p agent-input-wasm --target wasm32-unknown-unknown`

// The base entry's exports (the default feature `base`).
#![cfg(all(target_arch = "wasm32", feature = "base"))]

use agent_input_wasm::{
    convert_input, convert_json, convert_request, detect_input_type, extract_question, package_version, validate_input,
    validate_json, validate_request,
};
use js_sys::{Array, JSON, Object, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

fn js(json: &str) -> JsValue {
    JSON::parse(json).expect("test JSON parses")
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).expect("an object")
}

fn json(value: &JsValue) -> String {
    JSON::stringify(value).expect("serializable").as_string().expect("a string")
}

fn bedrock() -> JsValue {
    js(r#"{"provider": "bedrock-converse"}"#)
}

/// Every object in `value` is a plain object (prototype `Object.prototype`) or an array.
fn assert_plain(value: &JsValue) {
    if Array::is_array(value) {
        Array::from(value).for_each(&mut |item, _, _| assert_plain(&item));
    } else if value.is_object() {
        let plain = Object::get_prototype_of(&Object::new().into());
        assert!(Object::get_prototype_of(value) == plain, "not a plain object: {}", json(value));
        Object::values(value.unchecked_ref::<Object>()).for_each(&mut |item, _, _| assert_plain(&item));
    }
}

#[wasm_bindgen_test]
fn a_validation_report_is_plain_objects() {
    let report = validate_request(
        &js(r#"{"input": [{"type": "image", "source": {"type": "base64", "format": "bmp", "data": "Qk0="}}]}"#),
        &JsValue::UNDEFINED,
    )
    .expect("no exception");
    assert_plain(&report);
    assert_eq!(get(&report, "valid"), JsValue::FALSE);
    assert_eq!(get(&report, "inputType"), "CONTENT_BLOCKS");
    let error = Array::from(&get(&report, "errors")).get(0);
    assert_eq!(get(&error, "code"), "unsupported_format");
    assert_eq!(get(&error, "path"), "/input/0/source/format");
    assert_eq!(json(&get(&error, "expected")), r#"["png","jpeg","gif","webp"]"#);
}

#[wasm_bindgen_test]
fn convert_returns_the_body_as_objects_and_convert_json_as_text() {
    let report = convert_request(&js(r#"{"input": "Hi"}"#), &bedrock()).expect("no exception");
    assert_plain(&report);
    assert_eq!(get(&report, "ok"), JsValue::TRUE);
    let body = get(&report, "body");
    assert!(body.is_object());
    assert_eq!(
        json(&body),
        r#"{"messages":[{"role":"user","content":[{"text":"Hi"}]}],"inferenceConfig":{"maxTokens":4096}}"#
    );

    // With nothing to report, the module's `convertJson` returns the body text alone (the
    // package's entries make the result object in JavaScript, npm/splice.js).
    let body = convert_json(&JsValue::from_str(r#"{"input": "Hi"}"#), &bedrock()).expect("no exception");
    assert_eq!(
        body.as_string().as_deref(),
        Some(r#"{"messages":[{"role":"user","content":[{"text":"Hi"}]}],"inferenceConfig":{"maxTokens":4096}}"#)
    );
    // With a warning, the whole result.
    let report =
        convert_json(&JsValue::from_str(r#"{"input": "Hi", "stream": true}"#), &bedrock()).expect("no exception");
    assert_plain(&report);
    assert_eq!(get(&report, "ok"), JsValue::TRUE);
    assert_eq!(Array::from(&get(&report, "warnings")).length(), 1);
    assert!(get(&report, "body").as_string().is_some_and(|b| b.contains("Hi")));
    assert_eq!(json(&Object::keys(report.unchecked_ref::<Object>()).into()), r#"["ok","body","errors","warnings"]"#);
}

#[wasm_bindgen_test]
fn a_failed_conversion_has_errors_and_no_body() {
    let input =
        js(r#"[{"type": "image", "source": {"type": "url", "format": "png", "data": "https://example.com/a.png"}}]"#);
    let report = convert_input(&input, &bedrock()).expect("no exception");
    assert_eq!(get(&report, "ok"), JsValue::FALSE);
    assert!(!Reflect::has(&report, &JsValue::from_str("body")).unwrap());
    let error = Array::from(&get(&report, "errors")).get(0);
    assert_eq!(get(&error, "code"), "url_not_supported_by_provider");
    assert_eq!(get(&error, "path"), "/0/source/data");
}

#[wasm_bindgen_test]
fn wrong_argument_types_throw_type_errors() {
    let type_error = |result: Result<JsValue, JsValue>| {
        let error = result.expect_err("throws");
        assert!(error.is_instance_of::<js_sys::TypeError>(), "{error:?}");
    };
    type_error(validate_request(&JsValue::UNDEFINED, &JsValue::UNDEFINED));
    type_error(validate_request(&js(r#"{"input": "x"}"#), &JsValue::from_str("strict")));
    type_error(validate_request(&js(r#"{"input": "x"}"#), &Array::new().into()));
    type_error(validate_request(&js_sys::BigInt::from(1).into(), &JsValue::UNDEFINED));
    type_error(validate_json(&JsValue::from_f64(1.0), &JsValue::UNDEFINED));
    type_error(convert_request(&js(r#"{"input": "x"}"#), &JsValue::UNDEFINED));
    type_error(convert_json(&JsValue::from_str("{}"), &JsValue::NULL));
    type_error(extract_question(&JsValue::UNDEFINED));
}

#[wasm_bindgen_test]
fn bad_input_comes_back_as_errors() {
    for text in ["", "{", "null", "[]", r#"{"input": 5}"#, "\u{feff}"] {
        let report = validate_json(&JsValue::from_str(text), &JsValue::UNDEFINED).expect("no exception");
        assert_eq!(get(&report, "valid"), JsValue::FALSE, "{text}");
        let report = convert_json(&JsValue::from_str(text), &bedrock()).expect("no exception");
        assert_eq!(get(&report, "ok"), JsValue::FALSE, "{text}");
    }
    let report = validate_input(&JsValue::from_str(" "), &JsValue::UNDEFINED).expect("no exception");
    assert_eq!(get(&report, "inputType"), "TEXT");
    let report = convert_request(&js(r#"{"input": "x"}"#), &js(r#"{"provider": "nope"}"#)).expect("no exception");
    let error = Array::from(&get(&report, "errors")).get(0);
    assert_eq!(get(&error, "path"), "/options/provider");
}

#[wasm_bindgen_test]
fn values_are_read_as_json_stringify_writes_them() {
    // A Date becomes its ISO string, undefined members vanish: what fetch would send.
    let request = js(r#"{"input": [{"type": "text", "text": "x"}], "parameters": {}}"#);
    let parameters = get(&request, "parameters");
    Reflect::set(&parameters, &"when".into(), &js_sys::Date::new_0()).unwrap();
    let block = Array::from(&get(&request, "input")).get(0);
    Reflect::set(&block, &"extra".into(), &JsValue::UNDEFINED).unwrap();
    let report = validate_request(&request, &JsValue::UNDEFINED).expect("no exception");
    assert_eq!(get(&report, "valid"), JsValue::TRUE);
    assert_eq!(Array::from(&get(&report, "warnings")).length(), 0);
}

#[wasm_bindgen_test]
fn question_input_type_and_version() {
    let blocks = js(r#"[{"type": "text", "text": " First. "}, {"type": "text", "text": "Second."}]"#);
    assert_eq!(extract_question(&blocks).unwrap(), "First.\nSecond.\n");
    assert_eq!(extract_question(&js("[]")).unwrap(), JsValue::NULL);
    assert_eq!(detect_input_type(&blocks).unwrap(), "CONTENT_BLOCKS");
    assert_eq!(detect_input_type(&js("5")).unwrap(), JsValue::NULL);
    assert_eq!(package_version(), env!("CARGO_PKG_VERSION"));
}

#[wasm_bindgen_test]
fn text_reaches_the_core_intact_whatever_its_characters() {
    // ASCII first (read in one pass), then characters of two, three and four bytes of UTF-8.
    for text in ["plain", "héllo wörld", "日本語のテキスト", "mixed ascii then 👋 and more 😀😀", &"a".repeat(70_000)]
    {
        let question = extract_question(&JsValue::from_str(text)).expect("no exception");
        assert_eq!(question.as_string().as_deref(), Some(text));
        let request = format!(r#"{{"input": "{text}"}}"#);
        let body = convert_json(&JsValue::from_str(&request), &bedrock()).expect("no exception");
        let body = body.as_string().expect("converted, nothing to report");
        assert!(body.contains(text), "{body}");
    }
    // An unpaired surrogate in raw text becomes U+FFFD, as TextEncoder writes it.
    let lone = js_sys::JsString::from_char_code1(0xd800);
    let text = js_sys::JsString::from(r#"{"input": "a"#).concat(&lone).concat(&r#"b"}"#.into());
    let body = convert_json(&text.into(), &bedrock()).expect("no exception");
    let body = body.as_string().expect("converted, nothing to report");
    assert!(body.contains("a\u{fffd}b"), "{body}");
}
