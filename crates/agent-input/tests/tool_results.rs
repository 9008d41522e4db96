//! Tool results keep their shape and calls their ids, from a provider's body through the
//! standard input to any provider: a JSON result (`"resultFormat": "json"`) and Gemini's call ids.
//!
//! Expected values are the captured requests' own fields (`tests/captures/`, Lingua's recorded
//! traffic) or, where no capture has the case, bodies written from the provider's API reference.

#![allow(clippy::missing_panics_doc)] // test code: panics are failures

use std::path::PathBuf;

use agent_input::import::translate;
use agent_input::{ConvertOptions, ProviderId, convert, validate};
use serde_json::{Value, json};

fn capture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/captures").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).expect("the capture")).expect("captured JSON")
}

fn report(request: &Value) -> agent_input::Report {
    let document = validate::document(request);
    validate::validate_request(&document, &validate::Options::default()).report
}

/// The Gemini follow-up with a call Gemini gave an id and an object result.
const GEMINI_TOOL_TURN: &str = "toolCallRequest/google/followup-request.json";

#[test]
fn a_gemini_object_result_and_call_id_come_back_to_gemini_as_they_were() {
    let source = capture(GEMINI_TOOL_TURN);
    let translation = translate(ProviderId::Gemini, &source, Some(ProviderId::Gemini));
    assert!(translation.ok, "{:?}", translation.errors);
    let body = translation.body.expect("a body");
    for pointer in ["/contents/1/parts/0/functionCall", "/contents/2/parts/0/functionResponse"] {
        assert_eq!(body.pointer(pointer), source.pointer(pointer), "{pointer}");
    }
    // The standard form: the call keeps Gemini's id, the result is the object's JSON text.
    assert_eq!(translation.request["input"][1]["toolCalls"][0]["id"], "w6geog7o");
    assert_eq!(
        translation.request["input"][2],
        json!({"role": "tool", "content": [{"type": "text", "text": "{\"temperature\":\"71 degrees\"}"}],
            "toolCallId": "w6geog7o", "resultFormat": "json"})
    );
    // Nothing of the call or the result is reported left out.
    assert!(
        translation.warnings.iter().all(|w| !w.path.to_string().starts_with("/contents")),
        "{:?}",
        translation.warnings
    );
}

#[test]
fn a_json_result_reaches_each_provider_in_its_own_form() {
    let source = capture(GEMINI_TOOL_TURN);
    let text = "{\"temperature\":\"71 degrees\"}";
    let cases: [(ProviderId, &str, Value); 4] = [
        // Converse takes a JSON document in a result block.
        (
            ProviderId::BedrockConverse,
            "/messages/2/content/0/toolResult/content",
            json!([{"json": {"temperature": "71 degrees"}}]),
        ),
        // The others take text: the JSON text, unchanged.
        (ProviderId::OpenAiChat, "/messages/2/content", json!(text)),
        (ProviderId::OpenAiResponses, "/input/2/output", json!(text)),
        (ProviderId::AnthropicMessages, "/messages/2/content/0/content", json!([{"type": "text", "text": text}])),
    ];
    for (to, pointer, expected) in cases {
        let translation = translate(ProviderId::Gemini, &source, Some(to));
        assert!(translation.ok, "{to}: {:?}", translation.errors);
        let body = translation.body.expect("a body");
        assert_eq!(body.pointer(pointer), Some(&expected), "{to}: {body}");
        // Only Gemini's own state (the signature, the call id) is reported, not the result.
        for warning in &translation.warnings {
            assert_ne!(warning.path.to_string(), "/contents/2/parts/0/functionResponse/response", "{to}: {warning}");
        }
    }
}

/// Gemini's parallel function calling: two calls of one function, told apart by their ids
/// (`FunctionResponse.id`: "the id of the function call this response is for").
fn parallel(first_id: Option<&str>) -> Value {
    let call = |id: Option<&str>, city: &str| {
        let mut call = json!({"name": "get_weather", "args": {"city": city}});
        if let Some(id) = id {
            call["id"] = json!(id);
        }
        call
    };
    let response = |id: Option<&str>, temperature: u32| {
        let mut response = json!({"name": "get_weather", "response": {"temperature": temperature}});
        if let Some(id) = id {
            response["id"] = json!(id);
        }
        json!({"functionResponse": response})
    };
    let second_id = first_id.map(|_| "c2");
    json!({
        "contents": [
            {"role": "user", "parts": [{"text": "Weather in Paris and Rome?"}]},
            {"role": "model", "parts": [
                {"functionCall": call(first_id, "Paris"), "thoughtSignature": "c2lnbmF0dXJl"},
                {"functionCall": call(second_id, "Rome")}
            ]},
            {"role": "user", "parts": [response(second_id, 18), response(first_id, 21)]}
        ],
        "generationConfig": {"maxOutputTokens": 100}
    })
}

#[test]
fn parallel_calls_of_one_function_keep_the_ids_that_pair_them() {
    let source = parallel(Some("c1"));
    let translation = translate(ProviderId::Gemini, &source, Some(ProviderId::Gemini));
    assert!(translation.ok, "{:?}", translation.errors);
    assert_eq!(translation.body.as_ref(), Some(&source));
    // The results answer the calls they name, not the calls in order.
    let input = &translation.request["input"];
    assert_eq!((&input[2]["toolCallId"], &input[3]["toolCallId"]), (&json!("c2"), &json!("c1")));
    // Without ids Gemini pairs by name and order, and none are written.
    let source = parallel(None);
    let translation = translate(ProviderId::Gemini, &source, Some(ProviderId::Gemini));
    assert_eq!(translation.body.as_ref(), Some(&source));
}

#[test]
fn converse_json_result_blocks_come_back_as_json_and_beside_text_as_their_text() {
    let body = |content: Value| {
        json!({"messages": [
            {"role": "user", "content": [{"text": "Weather?"}]},
            {"role": "assistant", "content": [{"toolUse": {"toolUseId": "t1", "name": "get_weather", "input": {}}}]},
            {"role": "user", "content": [{"toolResult": {"toolUseId": "t1", "content": content}}]}
        ], "inferenceConfig": {"maxTokens": 100},
           "toolConfig": {"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}}]}})
    };
    let json_only = body(json!([{"json": {"temperature": 71, "unit": "F"}}, {"json": [1, 2]}]));
    let translation = translate(ProviderId::BedrockConverse, &json_only, Some(ProviderId::BedrockConverse));
    assert!(translation.ok, "{:?}", translation.errors);
    assert_eq!(translation.body.as_ref(), Some(&json_only));
    assert_eq!(translation.request["input"][2]["resultFormat"], "json");
    assert!(translation.warnings.is_empty(), "{:?}", translation.warnings);

    let mixed = body(json!([{"text": "Sunny"}, {"json": {"temperature": 71}}]));
    let translation = translate(ProviderId::BedrockConverse, &mixed, Some(ProviderId::BedrockConverse));
    let written = translation.body.expect("a body");
    assert_eq!(
        written.pointer("/messages/2/content/0/toolResult/content"),
        Some(&json!([{"text": "Sunny"}, {"text": "{\"temperature\":71}"}]))
    );
    let dropped: Vec<String> = translation.warnings.iter().map(|w| format!("{} {}", w.code, w.path)).collect();
    assert_eq!(dropped, ["import_dropped /messages/2/content/0/toolResult/content/1/json"]);
}

#[test]
fn result_format_is_json_or_absent_and_its_texts_hold_json() {
    let conversation = |tool: Value| {
        json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
            {"role": "assistant", "toolCalls": [{"id": "c1", "type": "function",
                "function": {"name": "get_weather", "arguments": "{}"}}]},
            tool
        ]})
    };
    let tool = |format: Value, text: &str| {
        json!({"role": "tool", "toolCallId": "c1", "resultFormat": format,
            "content": [{"type": "text", "text": text}]})
    };
    let cases: [(Value, Vec<(&str, &str)>); 4] = [
        (conversation(tool(json!("json"), "{\"temperature\": 71}")), vec![]),
        (conversation(tool(json!("json"), "71 degrees")), vec![("invalid_tool_result", "/input/2/content/0/text")]),
        (conversation(tool(json!("xml"), "<t>71</t>")), vec![("invalid_tool_result", "/input/2/resultFormat")]),
        (conversation(tool(json!(true), "{}")), vec![("invalid_tool_result", "/input/2/resultFormat")]),
    ];
    for (request, expected) in cases {
        let report = report(&request);
        let got: Vec<(&str, String)> = report.errors.iter().map(|e| (e.code.as_str(), e.path.to_string())).collect();
        let expected: Vec<(&str, String)> = expected.into_iter().map(|(c, p)| (c, p.to_string())).collect();
        assert_eq!(got, expected, "{request}");
    }
    // On another role the key means nothing and is reported ignored.
    let user =
        json!({"input": [{"role": "user", "resultFormat": "json", "content": [{"type": "text", "text": "{}"}]}]});
    let report = report(&user);
    assert!(report.errors.is_empty(), "{:?}", report.errors);
    assert_eq!(report.warnings[0].code.as_str(), "field_ignored");
    assert_eq!(report.warnings[0].path.to_string(), "/input/0/resultFormat");
}

#[test]
fn a_json_result_written_by_hand_reaches_gemini_as_its_value() {
    let request = json!({"input": [
        {"role": "user", "content": [{"type": "text", "text": "Forecast?"}]},
        {"role": "assistant", "toolCalls": [
            {"id": "a", "type": "function", "function": {"name": "forecast", "arguments": "{}"}},
            {"id": "b", "type": "function", "function": {"name": "cities", "arguments": "{}"}}]},
        {"role": "tool", "toolCallId": "a", "resultFormat": "json",
            "content": [{"type": "text", "text": "{\"days\": [1, 2]}"}]},
        {"role": "tool", "toolCallId": "b", "resultFormat": "json",
            "content": [{"type": "text", "text": "[\"Paris\", \"Rome\"]"}]}
    ]});
    let document = validate::document(&request);
    let request = validate::validate_request(&document, &validate::Options::default()).request.expect("valid");
    let converted =
        convert::convert_to_value(ProviderId::Gemini, &request, &ConvertOptions::default()).expect("converts").body;
    // An object is the response; any other value goes under `result` (the response is an object).
    assert_eq!(
        converted["contents"][2]["parts"],
        json!([
            {"functionResponse": {"name": "forecast", "response": {"days": [1, 2]}}},
            {"functionResponse": {"name": "cities", "response": {"result": ["Paris", "Rome"]}}}
        ])
    );
    // The calls came from no Gemini answer: no ids are written.
    assert_eq!(converted["contents"][1]["parts"][0]["functionCall"].get("id"), None);
}
