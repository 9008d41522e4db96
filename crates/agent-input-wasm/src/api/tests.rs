use super::*;
use agent_input::convert::MARK;
use serde_json::json;

#[test]
fn import_request_reports_in_javascript_shape() {
    let body = r#"{"model": "gpt-5", "messages": [{"role": "user", "content": "Hi"}]}"#;
    let report: Value = serde_json::from_str(&import_request("openai-chat", body, Some("gemini"))).unwrap();
    assert_eq!(report["ok"], true);
    assert_eq!(report["request"], json!({"input": "Hi"}));
    assert_eq!(report["body"]["contents"][0]["parts"][0]["text"], "Hi");
    assert_eq!(report["options"], json!({"model": "gpt-5"}), "the model is carried as an option");
    assert_eq!(report["warnings"], json!([]));
    let report: Value = serde_json::from_str(&import_request("openai-chat", body, None)).unwrap();
    assert!(report.get("body").is_none(), "no body without a target: {report}");
    let report: Value = serde_json::from_str(&import_request("cohere", body, Some("nope"))).unwrap();
    assert_eq!(report["ok"], false);
    let paths: Vec<&str> = report["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["/provider", "/options/to"]);
    assert_eq!(report["body"], Value::Null);
}

#[test]
fn import_body_reports_the_body_alone() {
    let body = r#"{"model": "gpt-5", "messages": [{"role": "user", "content": "Hi \"there\"\n"}]}"#;
    let full: Value = serde_json::from_str(&import_request("openai-chat", body, Some("gemini"))).unwrap();
    for units in [None, Some(body.len())] {
        let (report, text, spans) = import_body("openai-chat", body, "gemini", false, units);
        let report: Value = serde_json::from_str(&report).unwrap();
        assert_eq!(report, json!({"ok": true, "body": null, "errors": [], "warnings": full["warnings"]}));
        assert_eq!(serde_json::from_str::<Value>(&text.unwrap()).unwrap(), full["body"]);
        assert_eq!(spans, [] as [u32; 0], "nothing large to leave out");
    }

    // No body when there are errors: the report says why.
    let (report, text, _) = import_body("openai-chat", r#"{"messages": []}"#, "gemini", false, None);
    let report: Value = serde_json::from_str(&report).unwrap();
    assert_eq!((report["ok"].clone(), report.get("body"), text), (json!(false), None, None));
    assert!(!report["errors"].as_array().unwrap().is_empty(), "{report}");
    let (report, _, _) = import_body("openai-chat", body, "nope", false, None);
    let report: Value = serde_json::from_str(&report).unwrap();
    assert_eq!(report["errors"][0]["path"], "/options/to");
    assert_eq!(report.get("body"), None);
}

/// With the request's length in code units, the large payloads of every target's body are marks,
/// each span the payload in the request (counted in UTF-16 code units, after non-ASCII text):
/// put back, the body is the full import's. A request whose tool arguments hold the mark gets the
/// whole body.
#[test]
fn import_body_leaves_large_payloads_out_as_spans_of_the_request() {
    let image = format!("iVBORw0KGgoA{}", "QUJD".repeat(6_000));
    let pdf = format!("JVBERi0xLjQK{}", "REVG".repeat(5_000));
    let request = json!({"model": "gpt-4o", "messages": [
        {"role": "user", "content": [
            {"type": "text", "text": "Compare these, é 東京 🙂"},
            {"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{image}")}},
            {"type": "file", "file": {"filename": "report.pdf", "file_data": format!("data:application/pdf;base64,{pdf}")}}
        ]}
    ]})
    .to_string();
    let units = request.encode_utf16().count();
    let utf16: Vec<u16> = request.encode_utf16().collect();
    for to in ["openai-chat", "openai-responses", "anthropic-messages", "gemini", "bedrock-converse"] {
        let full: Value = serde_json::from_str(&import_request("openai-chat", &request, Some(to))).unwrap();
        let (_, text, spans) = import_body("openai-chat", &request, to, false, Some(units));
        let text = text.unwrap();
        assert_eq!(spans.len(), 4, "{to}: two payloads, each a start and a length");
        let mut pieces = text.split(MARK);
        let mut joined: Vec<u16> = pieces.next().unwrap().encode_utf16().collect();
        for (span, piece) in spans.chunks(2).zip(pieces) {
            joined.extend_from_slice(&utf16[span[0] as usize..(span[0] + span[1]) as usize]);
            joined.extend(piece.encode_utf16());
        }
        let joined = String::from_utf16(&joined).unwrap();
        assert_eq!(serde_json::from_str::<Value>(&joined).unwrap(), full["body"], "{to}");
    }
    let tools = json!([{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}]);
    let with_mark = json!({"model": "gpt-4o", "tools": tools, "messages": [
        {"role": "user", "content": [{"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{image}")}}]},
        {"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\": \"\\uFFFF\"}"}}]},
        {"role": "tool", "tool_call_id": "c1", "content": "done"}
    ]})
    .to_string();
    let (report, text, spans) =
        import_body("openai-chat", &with_mark, "anthropic-messages", false, Some(with_mark.len()));
    assert!(text.is_some(), "{report}");
    assert_eq!(spans, [] as [u32; 0], "the mark in tool arguments: nothing left out");
    assert!(text.unwrap().contains(&image));
}

/// Validates with options given as JSON, as the base entry's binding reads them.
fn validate(text: &str, subject: Subject, options: &Value) -> String {
    let (options, report, model) = validate_model_options(Some(&options.to_string()));
    super::validate(Ok(text), subject, &options, &report, model.as_deref())
}

/// Converts with settings given as JSON, as the binding reads them.
fn convert(text: &str, subject: Subject, settings: &Value, body: &mut String) -> (bool, String) {
    let (settings, report) = ConvertSettings::read_json(settings);
    super::convert(Ok(text), subject, &settings, &report, body, None)
}

fn question(text: &str) -> Option<String> {
    super::question(Ok(text))
}

fn input_type(text: &str) -> Option<InputType> {
    super::input_type(Ok(text))
}

#[test]
fn text_measured_over_the_limit_is_too_large_like_text_read() {
    // The binding passes only the length of text over the body limit.
    let (options, report) = validate::Options::read_json(&json!({"limits": {"maxBodyBytes": 5}}));
    let measured = parse(&super::validate(Err(18), Subject::Request, &options, &report, None));
    let read = parse(&validate(r#"{"input": "Hello"}"#, Subject::Request, &json!({"limits": {"maxBodyBytes": 5}})));
    assert_eq!(measured, read);
    assert_eq!(measured["errors"][0]["actual"], 18);

    let (settings, report) = ConvertSettings::read_json(&json!({"provider": "gemini", "limits": {"maxBodyBytes": 5}}));
    let mut body = String::new();
    let (ok, measured) = super::convert(Err(18), Subject::Request, &settings, &report, &mut body, None);
    let (_, read) = convert(
        r#"{"input": "Hello"}"#,
        Subject::Request,
        &json!({"provider": "gemini", "limits": {"maxBodyBytes": 5}}),
        &mut body,
    );
    assert!(!ok);
    assert_eq!(parse(&measured), parse(&read));
    assert_eq!(parse(&measured)["errors"][0]["code"], "too_large");
    assert_eq!(super::question(Err(1 << 30)), None);
    assert_eq!(super::input_type(Err(1 << 30)), None);
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).expect("reports are JSON")
}

#[test]
fn responses_are_read_for_every_provider() {
    let report = parse(&parse_response(
        "anthropic-messages",
        r#"{"content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}}"#,
    ));
    assert_eq!(
        report,
        json!({"ok": true, "message": {"role": "assistant", "content": [{"type": "text", "text": "Hi"}]},
            "stopReason": "end_turn", "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}, "errors": []})
    );
    let bad = parse(&parse_response("openai", "{}"));
    assert_eq!(bad["errors"][0]["path"], "/provider");
    let bad = parse(&parse_response("gemini", "{}"));
    assert_eq!(bad["ok"], false);
    assert_eq!(bad["errors"][0]["code"], "missing_field");
}

#[test]
fn a_valid_request_reports_its_type_and_warnings() {
    let report = parse(&validate(
        r#"{"input": [{"type": "image", "source": {"type": "base64", "format": "jpg", "data": "/9j/4A=="}}]}"#,
        Subject::Request,
        &Value::Null,
    ));
    assert_eq!(report["valid"], true);
    assert_eq!(report["inputType"], "CONTENT_BLOCKS");
    assert_eq!(report["errors"], json!([]));
    assert_eq!(report["warnings"][0]["code"], "format_normalized");
    assert_eq!(report["warnings"][0]["path"], "/input/0/source/format");
}

#[test]
fn diagnostics_have_the_javascript_shape() {
    let report = parse(&validate(
        r#"{"input": [{"type": "image", "source": {"type": "base64", "format": "bmp", "data": "Qk0="}}]}"#,
        Subject::Request,
        &Value::Null,
    ));
    assert_eq!(report["valid"], false);
    let error = &report["errors"][0];
    assert_eq!(
        error.as_object().unwrap().keys().collect::<Vec<_>>(),
        ["code", "path", "message", "expected", "received"]
    );
    assert_eq!(error["expected"], json!(["png", "jpeg", "gif", "webp"]));
    assert_eq!(error["received"], "bmp");

    let too_large =
        parse(&validate(r#"{"input": "Hello"}"#, Subject::Request, &json!({"limits": {"maxBodyBytes": 5}})));
    assert_eq!(too_large["errors"][0]["code"], "too_large");
    assert_eq!(too_large["errors"][0]["limit"], 5);
    assert_eq!(too_large["errors"][0]["actual"], 18);
    assert_eq!(too_large["inputType"], Value::Null);
}

#[test]
fn bare_input_paths_start_at_the_input() {
    let report = parse(&validate(r#"[{"type": "text", "text": " "}]"#, Subject::Input, &Value::Null));
    assert_eq!(report["errors"][0]["path"], "/0/text");
    assert_eq!(report["inputType"], "CONTENT_BLOCKS");
}

#[test]
fn option_errors_come_with_the_validation() {
    let report = parse(&validate(r#"{"input": ""}"#, Subject::Request, &json!({"allowPrefill": 1})));
    let codes: Vec<_> = report["errors"].as_array().unwrap().iter().map(|e| (&e["code"], &e["path"])).collect();
    assert_eq!(codes.len(), 2);
    assert_eq!(codes[0], (&json!("invalid_parameter"), &json!("/options/allowPrefill")));
    assert_eq!(codes[1], (&json!("empty_input"), &json!("/input")));
    assert_eq!(report["inputType"], "TEXT");
}

#[test]
fn prefill_is_an_option() {
    let text = r#"{"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]},
                             {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]}]}"#;
    assert_eq!(parse(&validate(text, Subject::Request, &Value::Null))["errors"][0]["code"], "last_message_role");
    assert_eq!(parse(&validate(text, Subject::Request, &json!({"allowPrefill": true})))["valid"], true);
}

#[test]
fn converting_writes_the_body_and_the_warnings() {
    let mut body = String::from("stale");
    let (ok, report) = convert(
        r#"{"input": "Hi", "parameters": {"question": "ignored"}}"#,
        Subject::Request,
        &json!({"provider": "bedrock-converse", "maxTokens": 10}),
        &mut body,
    );
    assert!(ok);
    assert_eq!(
        parse(&body),
        json!({"messages": [{"role": "user", "content": [{"text": "Hi"}]}], "inferenceConfig": {"maxTokens": 10}})
    );
    let report = parse(&report);
    assert_eq!(report, json!({"ok": true, "body": null, "errors": [], "warnings": [report["warnings"][0]]}));
    assert_eq!(report["warnings"][0]["code"], "question_ignored");
}

#[test]
fn a_failed_conversion_has_no_body_and_keeps_its_warnings() {
    let mut body = String::new();
    let (ok, report) = convert(
        r#"[{"type": "text", "text": "Look"},
            {"type": "image", "source": {"type": "url", "format": "JPG", "data": "https://example.com/a.jpg"}}]"#,
        Subject::Input,
        &json!({"provider": "bedrock-converse"}),
        &mut body,
    );
    assert!(!ok);
    assert!(body.is_empty());
    let report = parse(&report);
    assert_eq!(report.as_object().unwrap().keys().collect::<Vec<_>>(), ["ok", "errors", "warnings"]);
    assert_eq!(report["errors"][0]["code"], "url_not_supported_by_provider");
    assert_eq!(report["errors"][0]["path"], "/1/source/data");
    assert_eq!(report["warnings"][0]["code"], "format_normalized");
}

#[test]
fn validation_takes_the_model_beside_its_options() {
    let request = r#"{"input": "Hello"}"#;
    let report = parse(&validate(request, Subject::Request, &json!({"model": " o3-mini ", "allowPrefill": true})));
    assert_eq!(report["valid"], true, "{report}");
    // Built without the model table (the base module): the warning says where the table is.
    assert_eq!(report["warnings"][0]["code"], "unknown_model");
    assert_eq!(report["warnings"][0]["path"], "/options/model");
    assert_eq!(report["warnings"][0]["received"], "o3-mini");
    assert!(report["warnings"][0]["message"].as_str().unwrap().contains("import agent-input/models"));
    // A model that is not an id is an option error, beside the other options' own.
    let report = parse(&validate(request, Subject::Request, &json!({"model": 5, "allowPrefill": 1})));
    let paths: Vec<_> = report["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert_eq!(paths, ["/options/allowPrefill", "/options/model"]);
    assert_eq!(report["valid"], false);
    // Without a model, nothing about one.
    assert_eq!(parse(&validate(request, Subject::Request, &json!({})))["warnings"], json!([]));
}

#[test]
fn conversion_reports_option_and_input_errors_together() {
    let mut body = String::new();
    let (ok, report) = convert(r#"{"input": 5}"#, Subject::Request, &json!({"temperature": 3}), &mut body);
    assert!(!ok);
    let report = parse(&report);
    let codes: Vec<_> = report["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
    assert_eq!(codes, ["/options/provider", "/input"]);

    let (ok, report) = convert("{", Subject::Request, &json!({"provider": "bedrock-converse"}), &mut body);
    assert!(!ok);
    assert_eq!(parse(&report)["errors"][0]["code"], "invalid_json");
}

#[test]
fn settings_read_from_the_same_text_are_reused() {
    let text = r#"{"provider":"bedrock-converse","maxTokens":5}"#;
    let first = convert_settings(text);
    let again = convert_settings(text);
    assert!(Rc::ptr_eq(&first, &again));
    assert_eq!(first.0.convert.max_tokens, Some(5));
    let other = convert_settings(r#"{"provider":"bedrock-converse","maxTokens":6}"#);
    assert_eq!(other.0.convert.max_tokens, Some(6));
    assert!(!Rc::ptr_eq(&first, &other));
    // Options taking turns are each read once, up to KEPT_SETTINGS of them.
    let texts: Vec<String> =
        (0..KEPT_SETTINGS).map(|n| format!(r#"{{"provider":"gemini","maxTokens":{n}}}"#)).collect();
    let read: Vec<_> = texts.iter().map(|text| convert_settings(text)).collect();
    for _ in 0..3 {
        for (text, settings) in texts.iter().zip(&read) {
            assert!(Rc::ptr_eq(&convert_settings(text), settings));
        }
    }
    // One more set: the least recently used goes.
    convert_settings(r#"{"provider":"gemini"}"#);
    assert!(!Rc::ptr_eq(&convert_settings(&texts[0]), &read[0]));
    assert!(Rc::ptr_eq(&convert_settings(&texts[KEPT_SETTINGS - 1]), &read[KEPT_SETTINGS - 1]));
    assert_eq!(convert_settings("null").1.errors[0].path.to_string(), "/options/provider");
    assert_eq!(validate_options(Some(r#"{"allowPrefill":1}"#)).1.errors[0].path.to_string(), "/options/allowPrefill");
    assert!(validate_options(None).1.is_ok());
}

#[test]
fn question_and_input_type_of_bare_inputs() {
    assert_eq!(
        question(r#"[{"type": "text", "text": " a "}, {"type": "text", "text": "b"}]"#).as_deref(),
        Some("a\nb\n")
    );
    assert_eq!(question(r#"" plain ""#).as_deref(), Some(" plain "));
    assert_eq!(question(r#"[{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]"#).as_deref(), Some("Hi\n"));
    assert_eq!(question("[]"), None);
    assert_eq!(question(r#"{"input": "a request is not an input"}"#), None);
    assert_eq!(question("{"), None);

    assert_eq!(input_type(r#"" ""#), Some(InputType::Text));
    assert_eq!(input_type(r#"[{"role": "user"}]"#), Some(InputType::Messages));
    assert_eq!(input_type(r#"[{"type": "text"}]"#), Some(InputType::ContentBlocks));
    assert_eq!(input_type(r#"[{"role": "user"}, {"type": "text"}]"#), None);
    assert_eq!(input_type(r#"{"input": "Hi"}"#), None);
    assert_eq!(input_type("5"), None);
    assert_eq!(input_type("not json"), None);
}

#[test]
fn utf16_length_of_every_kind_of_character_at_every_offset() {
    for c in ['a', '\u{7f}', 'é', '\u{7ff}', '東', '\u{ffff}', '🙂', '\u{10ffff}'] {
        for before in 0..9 {
            for after in 0..9 {
                let text = format!("{}{c}{}", "x".repeat(before), "y".repeat(after));
                assert_eq!(super::utf16_len(text.as_bytes()), text.encode_utf16().count(), "{text:?}");
            }
        }
    }
}

/// Byte ranges become the UTF-16 ranges JavaScript slices: one unit a character, two for one
/// of four bytes, whatever the order of the ranges.
#[test]
fn splice_ranges_in_utf16() {
    let text = "aé日🙂QUJD\u{fffd}QUJD";
    let units = text.encode_utf16().count();
    let at = |needle: &str, from: usize| text[from..].find(needle).unwrap() + from;
    let first = at("QUJD", 0);
    let second = at("QUJD", first + 1);
    let spans = utf16_spans(text, units, &[(second, 4), (first, 4), (second, 4)]);
    let utf16: Vec<u16> = text.encode_utf16().collect();
    for pair in spans.chunks(2) {
        let (start, len) = (pair[0] as usize, pair[1] as usize);
        assert_eq!(String::from_utf16(&utf16[start..start + len]).unwrap(), "QUJD");
    }
    assert_eq!(spans, [10, 4, 5, 4, 10, 4]);
    assert_eq!(utf16_spans("xxQUJD", 6, &[(2, 4)]), [2, 4]);
    // Texts, whose ranges hold other characters than base64's.
    let texts = [(1, "é日🙂QUJD".len()), (at("🙂", 0), 5), (0, text.len())];
    let spans = utf16_spans(text, units, &texts);
    for (pair, (start, len)) in spans.chunks(2).zip(texts) {
        let range = pair[0] as usize..(pair[0] + pair[1]) as usize;
        assert_eq!(String::from_utf16(&utf16[range]).unwrap(), text[start..start + len]);
    }
}
