//! The default limits on inputs of the sizes that break naive converters: each ends in its error
//! (never a panic or a stack overflow), and the work it protects is not done.

use agent_input::{Code, ConvertOptions, Limits, ProviderId, convert, validate};

fn codes(report: &agent_input::Report) -> Vec<Code> {
    report.errors.iter().map(|e| e.code).collect()
}

#[test]
fn a_200_mb_body_is_refused_before_parsing() {
    // Not JSON at all: had it been parsed, the error would be invalid_json.
    let text = "x".repeat(200 * 1024 * 1024);
    let report = validate::parse(&text, &Limits::default()).unwrap_err();
    assert_eq!(codes(&report), [Code::TooLarge]);
    assert_eq!(report.errors[0].actual, Some(200 * 1024 * 1024));
}

#[test]
fn nesting_100_000_deep_is_too_deep_not_a_stack_overflow() {
    let text =
        format!("{{\"input\": \"x\", \"parameters\": {{\"a\": {}{}}}}}", "[".repeat(100_000), "]".repeat(100_000));
    let report = validate::parse(&text, &Limits::default()).unwrap_err();
    assert_eq!(codes(&report), [Code::TooDeep]);
}

#[test]
fn nesting_just_over_the_limit_is_too_deep() {
    // 65 levels: the envelope, "parameters", then 63 arrays.
    let text = format!("{{\"input\": \"x\", \"parameters\": {{\"a\": {}{}}}}}", "[".repeat(63), "]".repeat(63));
    let report = validate::parse(&text, &Limits::default()).unwrap_err();
    assert_eq!(codes(&report), [Code::TooDeep]);
    let text = format!("{{\"input\": \"x\", \"parameters\": {{\"a\": {}{}}}}}", "[".repeat(62), "]".repeat(62));
    assert!(validate::parse(&text, &Limits::default()).is_ok());
}

#[test]
fn a_100_000_message_conversation_is_too_many_and_its_messages_are_not_examined() {
    // Every message is broken; had they been examined there would be 100,000 more errors.
    let messages = vec![r#"{"role": "user"}"#; 100_000].join(",");
    let text = format!("{{\"input\": [{messages}]}}");
    let document = validate::parse(&text, &Limits::default()).unwrap();
    let validation = validate::validate_request(&document, &validate::Options::default());
    assert_eq!(codes(&validation.report), [Code::TooMany]);
    assert_eq!(validation.report.errors[0].path.to_string(), "/input");
    assert_eq!(validation.report.errors[0].limit, Some(10_000));
    assert_eq!(validation.input_type, Some(agent_input::InputType::Messages));
}

#[test]
fn a_60_mb_base64_image_is_over_the_bedrock_limit_with_its_size() {
    let data = "A".repeat(60 * 1024 * 1024);
    let text = format!(
        "{{\"input\": [{{\"type\": \"text\", \"text\": \"Look\"}}, {{\"type\": \"image\", \"source\": {{\"type\": \"base64\", \"format\": \"png\", \"data\": \"{data}\"}}}}]}}"
    );
    let report = agent_input::convert_str(
        &text,
        ProviderId::BedrockConverse,
        &ConvertOptions::default(),
        &validate::Options::default(),
    )
    .unwrap_err();
    assert_eq!(codes(&report), [Code::ProviderLimit]);
    assert_eq!(report.errors[0].path.to_string(), "/input/1/source/data");
    assert_eq!(report.errors[0].actual, Some(60 * 1024 * 1024 / 4 * 3));
}

#[test]
fn ten_thousand_documents_are_each_checked_and_only_the_sixth_is_over_the_count() {
    // 10,000 blocks in one message is over the default block limit; raised, the Bedrock count
    // limit reports the sixth document once, not 9,995 times.
    let documents =
        vec![r#"{"type": "document", "source": {"type": "base64", "format": "txt", "data": "aGk="}}"#; 10_000]
            .join(",");
    let text = format!("{{\"input\": [{{\"type\": \"text\", \"text\": \"Read\"}}, {documents}]}}");
    let document = validate::parse(&text, &Limits::default()).unwrap();
    let validation = validate::validate_request(&document, &validate::Options::default());
    assert_eq!(codes(&validation.report), [Code::TooMany]);

    let options =
        validate::Options { limits: Limits { max_blocks: 20_000, ..Limits::default() }, ..Default::default() };
    let (request, _) = validate::validate_request(&document, &options).into_result().unwrap();
    let report =
        convert::convert_to_value(ProviderId::BedrockConverse, &request, &ConvertOptions::default()).unwrap_err();
    assert_eq!(codes(&report), [Code::ProviderLimit]);
    assert_eq!(report.errors[0].path.to_string(), "/input/6");
}

#[test]
fn an_absurd_max_tokens_is_reported_as_given() {
    let report = ConvertOptions::from_json(&serde_json::json!({"maxTokens": 1e20})).unwrap_err();
    assert_eq!(codes(&report), [Code::InvalidParameter]);
    assert_eq!(report.errors[0].path.to_string(), "/options/max_tokens");
    // As JSON writes the number received, not the 18446744073709551615 a cast would clamp it to.
    assert_eq!(report.errors[0].received.as_deref(), Some("1e+20"));
}
