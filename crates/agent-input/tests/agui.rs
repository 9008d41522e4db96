//! AG-UI `RunAgentInput` ⇄ standard input: detection as ml-commons decides it, both content part
//! dialects (ml-commons' `binary` and AG-UI 1.0's `image`/`video`/`document` with a `source`),
//! round trips, and every problem at its path in the AG-UI body.

use agent_input::agui::model::{Content, Message as AgUiMessage, Part, PartSource, RunAgentInput};
use agent_input::agui::{from_agui, from_agui_str, is_run_agent_input, to_agui};
use agent_input::validate::Options;
use agent_input::{AgentInput, Code, ContentBlock, Role, Source};
use serde_json::{Value, json};

// A 1×1 PNG's first bytes: base64 the validator sniffs as PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
const PDF: &str = "JVBERi0xLjQK";

#[allow(clippy::needless_pass_by_value, reason = "called with json! literals")]
fn run(messages: Value) -> Value {
    json!({"threadId": "thread-1", "runId": "run-1", "state": {}, "messages": messages,
           "tools": [], "context": [], "forwardedProps": {}})
}

fn errors(body: &Value) -> Vec<(String, String)> {
    let report = from_agui(body, &Options::default()).unwrap_err();
    report.errors.iter().map(|d| (d.code.as_str().to_string(), d.path.to_string())).collect()
}

fn one_error(body: &Value) -> (String, String) {
    let errors = errors(body);
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors[0].clone()
}

fn messages(body: &Value) -> Vec<agent_input::Message<'static>> {
    match from_agui(body, &Options::default()).unwrap().input.unwrap() {
        AgentInput::Messages(messages) => messages,
        other => panic!("{other:?}"),
    }
}

#[test]
fn detection_needs_all_seven_keys_and_three_arrays() {
    let body = run(json!([]));
    assert!(is_run_agent_input(&body));
    for key in agent_input::agui::REQUIRED_KEYS {
        let mut without = body.clone();
        without.as_object_mut().unwrap().remove(key);
        assert!(!is_run_agent_input(&without), "{key}");
    }
    for key in ["messages", "tools", "context"] {
        let mut wrong = body.clone();
        wrong[key] = json!({});
        assert!(!is_run_agent_input(&wrong), "{key}");
    }
    // `state` and `forwardedProps` may be anything, even null; extra keys do not matter.
    let mut extra = body.clone();
    extra["state"] = Value::Null;
    extra["protocolVersion"] = json!("1.0.0");
    extra["parentRunId"] = json!("run-0");
    assert!(is_run_agent_input(&extra));
    assert!(!is_run_agent_input(&json!({"input": "hi"})));
    assert!(!is_run_agent_input(&json!([1])));
}

#[test]
fn reads_every_role_and_the_thread_as_memory_id() {
    let body = run(json!([
        {"id": "s", "role": "system", "content": "Be brief."},
        {"id": "d", "role": "developer", "content": "Use metric units."},
        {"id": "u", "role": "user", "content": "Weather in Paris?"},
        {"id": "a", "role": "assistant", "content": "",
         "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]},
        {"id": "t", "role": "tool", "content": "18°C", "toolCallId": "c1"}
    ]));
    let run = from_agui(&body, &Options::default()).unwrap();
    assert_eq!(run.thread_id, "thread-1");
    assert_eq!(run.run_id, "run-1");
    let AgentInput::Messages(messages) = run.input.unwrap() else { panic!() };
    let roles: Vec<&str> = messages.iter().map(|m| m.role.as_str()).collect();
    assert_eq!(roles, ["system", "system", "user", "assistant", "tool"]);
    assert!(messages[3].content.is_empty());
    assert_eq!(messages[3].tool_calls[0].name, "weather");
    assert_eq!(messages[3].tool_calls[0].arguments, "{\"city\":\"Paris\"}");
    assert_eq!(messages[4].tool_call_id.as_deref(), Some("c1"));
    assert_eq!(messages[4].content, [ContentBlock::text("18°C")]);
}

#[test]
fn reads_binary_parts_by_mime_type() {
    let body = run(json!([{"id": "u", "role": "user", "content": [
        {"type": "text", "text": "Compare"},
        {"type": "binary", "mimeType": "image/png", "data": PNG},
        {"type": "binary", "mimeType": "application/pdf", "data": PDF},
        {"type": "binary", "mimeType": "video/mp4", "url": "s3://bucket/clip.mp4"}
    ]}]));
    let content = &messages(&body)[0].content;
    assert_eq!(content.iter().map(ContentBlock::type_name).collect::<Vec<_>>(), ["text", "image", "document", "video"]);
    assert_eq!(content[1].source(), Some(&Source::Base64(PNG.into())));
    assert_eq!(content[3].source(), Some(&Source::Url("s3://bucket/clip.mp4".into())));
}

#[test]
fn reads_agui_1_0_parts_with_data_and_url_sources() {
    let body = run(json!([{"id": "u", "role": "user", "content": [
        {"type": "image", "source": {"type": "data", "value": PNG, "mimeType": "image/png"}},
        {"type": "document", "source": {"type": "data", "value": PDF, "mimeType": "application/pdf"}},
        {"type": "image", "source": {"type": "url", "value": "https://example.com/cat.jpg"}},
        {"type": "video", "source": {"type": "url", "value": "https://example.com/v", "mimeType": "video/webm"}},
        {"type": "image", "source": {"type": "data", "data": PNG, "mimeType": "image/png"}},
        {"type": "text", "text": "What are these?"}
    ]}]));
    let content = &messages(&body)[0].content;
    assert_eq!(
        content.iter().map(ContentBlock::type_name).collect::<Vec<_>>(),
        ["image", "document", "image", "video", "image", "text"]
    );
    let ContentBlock::Image(cat) = &content[2] else { panic!() };
    assert_eq!(cat.format.as_str(), "jpeg"); // from the URL's extension
    let ContentBlock::Video(video) = &content[3] else { panic!() };
    assert_eq!(video.format.as_str(), "webm");
}

#[test]
fn empty_messages_continue_the_thread() {
    let run = from_agui(&run(json!([])), &Options::default()).unwrap();
    assert_eq!(run.input, None);
}

#[test]
fn text_is_read_as_its_value_is_and_the_limits_hold_before() {
    let body = run(json!([{"id": "u", "role": "user", "content": "hi"}]));
    let text = format!("\u{feff}{body}");
    assert_eq!(from_agui_str(&text, &Options::default()), from_agui(&body, &Options::default()));
    let code = |text: &str, options: &Options| from_agui_str(text, options).unwrap_err().errors[0].code.as_str();
    assert_eq!(code("{\"threadId\": ", &Options::default()), "invalid_json");
    let mut deep = body.clone();
    deep["state"] = json!({"a": {"b": {"c": {}}}});
    let shallow = Options { limits: agent_input::Limits { max_depth: 3, ..Default::default() }, ..Options::default() };
    assert_eq!(code(&deep.to_string(), &shallow), "too_deep");
    let small =
        Options { limits: agent_input::Limits { max_body_bytes: 10, ..Default::default() }, ..Options::default() };
    assert_eq!(code(&body.to_string(), &small), "too_large");
}

#[test]
fn tools_become_tool_specs_and_context_is_kept() {
    let mut body = run(json!([{"id": "u", "role": "user", "content": "hi"}]));
    body["tools"] = json!([{"name": "weather", "description": "Gets the weather",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}]);
    body["context"] = json!([{"description": "user locale", "value": "fr-FR"}]);
    let run = from_agui(&body, &Options::default()).unwrap();
    assert_eq!(run.tools[0].name, "weather");
    assert_eq!(run.tools[0].description.as_deref(), Some("Gets the weather"));
    assert_eq!(run.tools[0].input_schema.as_ref().unwrap()["properties"]["city"]["type"], "string");
    assert_eq!(run.context[0].value, "fr-FR");
}

#[test]
fn activity_and_reasoning_messages_are_skipped_with_a_warning_and_paths_still_point_right() {
    let body = run(json!([
        {"id": "r", "role": "reasoning", "content": "thinking"},
        {"id": "u", "role": "user", "content": [
            {"type": "image", "source": {"type": "data", "value": "@@@", "mimeType": "image/png"}}]}
    ]));
    let report = from_agui(&body, &Options::default()).unwrap_err();
    assert_eq!(report.warnings[0].code, Code::FieldIgnored);
    assert_eq!(report.warnings[0].path.to_string(), "/messages/0");
    assert_eq!(report.errors[0].code, Code::InvalidBase64);
    assert_eq!(report.errors[0].path.to_string(), "/messages/1/content/0/source/value");
}

#[test]
fn every_shape_problem_has_a_code_and_a_path_in_the_agui_body() {
    let part = |p: Value| run(json!([{"id": "u", "role": "user", "content": [p]}]));
    let cases: Vec<(Value, &str, &str)> = vec![
        (json!("hi"), "invalid_field_type", ""),
        (
            json!({"threadId": 1, "runId": "r", "state": {}, "messages": [], "tools": [], "context": [], "forwardedProps": {}}),
            "invalid_field_type",
            "/threadId",
        ),
        (run(json!({})), "invalid_field_type", "/messages"),
        (run(json!([5])), "invalid_field_type", "/messages/0"),
        (run(json!([{"id": "u", "content": "hi"}])), "missing_field", "/messages/0/role"),
        (run(json!([{"id": "u", "role": 3, "content": "hi"}])), "invalid_field_type", "/messages/0/role"),
        (run(json!([{"id": "u", "role": "robot", "content": "hi"}])), "invalid_role", "/messages/0/role"),
        (run(json!([{"id": "u", "role": "user"}])), "missing_field", "/messages/0/content"),
        (run(json!([{"id": "u", "role": "user", "content": 7}])), "invalid_field_type", "/messages/0/content"),
        (run(json!([{"id": "u", "role": "user", "content": "   "}])), "empty_text", "/messages/0/content"),
        (run(json!([{"id": "t", "role": "tool", "content": "x"}])), "missing_field", "/messages/0/toolCallId"),
        (
            run(json!([{"id": "a", "role": "assistant", "toolCalls": {}}])),
            "invalid_field_type",
            "/messages/0/toolCalls",
        ),
        (part(json!("text")), "invalid_field_type", "/messages/0/content/0"),
        (part(json!({"text": "x"})), "missing_field", "/messages/0/content/0/type"),
        (part(json!({"type": "text"})), "missing_field", "/messages/0/content/0/text"),
        (part(json!({"type": "sticker"})), "unsupported_content_type", "/messages/0/content/0/type"),
        (
            part(json!({"type": "audio", "source": {"type": "data", "value": "AAAA", "mimeType": "audio/wav"}})),
            "unsupported_content_type",
            "/messages/0/content/0/type",
        ),
        (
            part(json!({"type": "binary", "mimeType": "audio/mpeg", "data": "AAAA"})),
            "unsupported_content_type",
            "/messages/0/content/0/mimeType",
        ),
        (
            part(json!({"type": "binary", "mimeType": "model/gltf", "data": "AAAA"})),
            "unsupported_format",
            "/messages/0/content/0/mimeType",
        ),
        (
            part(json!({"type": "binary", "mimeType": "image/tiff", "data": "AAAA"})),
            "unsupported_format",
            "/messages/0/content/0/mimeType",
        ),
        (part(json!({"type": "binary", "data": "AAAA"})), "missing_field", "/messages/0/content/0/mimeType"),
        (part(json!({"type": "binary", "mimeType": "image/png"})), "missing_field", "/messages/0/content/0/data"),
        (
            part(json!({"type": "binary", "mimeType": "image/png", "id": "file-1"})),
            "unsupported_source_type",
            "/messages/0/content/0/id",
        ),
        (
            part(json!({"type": "binary", "mimeType": "image/png", "data": "%%%"})),
            "invalid_base64",
            "/messages/0/content/0/data",
        ),
        (part(json!({"type": "image"})), "missing_field", "/messages/0/content/0/source"),
        (part(json!({"type": "image", "source": "x"})), "invalid_field_type", "/messages/0/content/0/source"),
        (
            part(json!({"type": "image", "source": {"value": PNG}})),
            "missing_field",
            "/messages/0/content/0/source/type",
        ),
        (
            part(json!({"type": "image", "source": {"type": "file", "value": "file-123"}})),
            "unsupported_source_type",
            "/messages/0/content/0/source/type",
        ),
        (
            part(json!({"type": "image", "source": {"type": "data", "mimeType": "image/png"}})),
            "missing_field",
            "/messages/0/content/0/source/value",
        ),
        (
            part(json!({"type": "image", "source": {"type": "data", "value": PNG}})),
            "missing_field",
            "/messages/0/content/0/source/mimeType",
        ),
        (
            part(json!({"type": "image", "source": {"type": "data", "value": PNG, "mimeType": "video/mp4"}})),
            "unsupported_format",
            "/messages/0/content/0/source/mimeType",
        ),
        (
            part(json!({"type": "image", "source": {"type": "data", "value": PDF, "mimeType": "image/png"}})),
            "format_mismatch",
            "/messages/0/content/0/source/mimeType",
        ),
        (
            part(json!({"type": "image", "source": {"type": "url", "value": "ftp://x/cat.png"}})),
            "unsupported_url_scheme",
            "/messages/0/content/0/source/value",
        ),
        (
            run(json!([{"id": "a", "role": "assistant", "content": "x", "toolCalls": [
            {"id": "c", "type": "function", "function": {"name": "f", "arguments": "[1]"}}]},
            {"id": "t", "role": "tool", "content": "r", "toolCallId": "c"}])),
            "invalid_tool_arguments",
            "/messages/0/toolCalls/0/function/arguments",
        ),
        (
            run(
                json!([{"id": "u", "role": "user", "content": "hi"}, {"id": "a", "role": "assistant", "content": "yo"}]),
            ),
            "last_message_role",
            "/messages/1/role",
        ),
    ];
    for (body, code, path) in cases {
        let (got_code, got_path) = one_error(&body);
        assert_eq!((got_code.as_str(), got_path.as_str()), (code, path), "{body}");
    }
}

#[test]
fn missing_keys_and_bad_tools_and_context_are_all_reported() {
    let body = json!({"threadId": "t", "messages": [], "tools": [{"description": "no name"}, {"name": " "}, {"name": "f", "parameters": 3}],
                      "context": [{"description": 1}]});
    let errors = errors(&body);
    let expected: Vec<(String, String)> = [
        ("missing_field", "/runId"),
        ("missing_field", "/state"),
        ("missing_field", "/forwardedProps"),
        ("missing_field", "/tools/0/name"),
        ("empty_field", "/tools/1/name"),
        ("invalid_field_type", "/tools/2/parameters"),
        ("invalid_field_type", "/context/0"),
    ]
    .iter()
    .map(|(c, p)| ((*c).to_string(), (*p).to_string()))
    .collect();
    assert_eq!(errors, expected);
}

#[test]
fn standard_messages_round_trip_through_agui() {
    let body = run(json!([
        {"id": "m0", "role": "system", "content": "Be brief."},
        {"id": "m1", "role": "user", "content": "Weather in Paris?"},
        {"id": "m2", "role": "assistant",
         "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Paris\"}"}}]},
        {"id": "m3", "role": "tool", "content": "18°C", "toolCallId": "c1"},
        {"id": "m4", "role": "assistant", "content": "It is 18°C."},
        {"id": "m5", "role": "user", "content": [
            {"type": "text", "text": "And this?"},
            {"type": "image", "source": {"type": "data", "value": PNG, "mimeType": "image/png"}},
            {"type": "document", "source": {"type": "url", "value": "s3://docs-bucket/report.pdf", "mimeType": "application/pdf"}},
            {"type": "video", "source": {"type": "url", "value": "https://example.com/v.mp4", "mimeType": "video/mp4"}}]}
    ]));
    let standard = messages(&body);
    let back = to_agui(&standard, "m").unwrap();
    // The typed AG-UI messages serialize to the very body they came from.
    assert_eq!(serde_json::to_value(&back).unwrap(), body["messages"]);
    // And the typed RunAgentInput reads it (serde), ready for a client.
    let typed: RunAgentInput = serde_json::from_value(body.clone()).unwrap();
    assert_eq!(typed.messages, back);
    // Standard → AG-UI → standard is the identity.
    let mut again = body.clone();
    again["messages"] = serde_json::to_value(&back).unwrap();
    assert_eq!(messages(&again), standard);
}

#[test]
fn binary_parts_come_back_as_1_0_image_parts() {
    let body = run(json!([{"id": "u", "role": "user", "content": [
        {"type": "text", "text": "see"}, {"type": "binary", "mimeType": "image/png", "data": PNG}]}]));
    let back = to_agui(&messages(&body), "id-").unwrap();
    let AgUiMessage::User { id, content: Content::Parts(parts), .. } = &back[0] else { panic!("{back:?}") };
    assert_eq!(id, "id-0");
    assert_eq!(
        parts[1],
        Part::Image { source: PartSource::Data { value: PNG.to_string(), mime_type: "image/png".to_string() } }
    );
}

#[test]
fn to_agui_refuses_what_agui_cannot_hold() {
    let image = ContentBlock::Image(agent_input::Media {
        format: agent_input::format::ImageFormat::Png,
        source: Source::Base64(PNG.into()),
    });
    let messages = vec![
        agent_input::Message::user(vec![ContentBlock::text("hi")]),
        agent_input::Message::assistant(vec![ContentBlock::text("look"), image]),
        agent_input::Message::new(Role::Other("critic".into()), vec![ContentBlock::text("meh")]),
        // A provider item, in any role: AG-UI messages have no place for it.
        agent_input::Message::user(vec![ContentBlock::ProviderItem(agent_input::ProviderItem {
            provider: agent_input::ProviderId::OpenAiResponses,
            item: serde_json::json!({"type": "additional_tools", "tools": []}),
        })]),
    ];
    let report = to_agui(&messages, "m").unwrap_err();
    let got: Vec<(&str, String)> = report.errors.iter().map(|d| (d.code.as_str(), d.path.to_string())).collect();
    assert_eq!(
        got,
        [
            ("media_not_allowed_in_role", "/1/content/1".to_string()),
            ("role_not_supported", "/2/role".to_string()),
            ("unsupported_by_provider", "/3/content/0".to_string())
        ]
    );
    assert!(report.errors[2].message.contains("'additional_tools'"), "{}", report.errors[2].message);
}

mod run_events {
    use agent_input::ProviderId;
    use agent_input::agui::events::{Event, RunEvents};
    use agent_input::stream::{StreamEvent, decode};
    use serde_json::{Value, json};

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(format!("{}/tests/data/stream/{name}", env!("CARGO_MANIFEST_DIR"))).unwrap()
    }

    fn types(events: &[Event]) -> Vec<String> {
        events.iter().map(|e| serde_json::to_value(e).unwrap()["type"].as_str().unwrap().to_string()).collect()
    }

    #[test]
    fn a_provider_stream_becomes_ordered_agui_events() {
        let (stream, _) = decode(ProviderId::AnthropicMessages, &fixture("anthropic_messages.sse"));
        let mut run = RunEvents::new("thread-1", "run-1");
        let mut events: Vec<Event> = stream.iter().flat_map(|e| run.on(e)).collect();
        events.extend(run.finish());
        assert_eq!(
            types(&events),
            [
                "RUN_STARTED",
                "REASONING_START",
                "REASONING_MESSAGE_START",
                "REASONING_MESSAGE_CONTENT",
                "REASONING_MESSAGE_END",
                "REASONING_END",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "TOOL_CALL_START",
                "TOOL_CALL_ARGS",
                "TOOL_CALL_ARGS",
                "TOOL_CALL_END",
                "RUN_FINISHED",
            ]
        );
        let wire: Vec<Value> = events.iter().map(|e| serde_json::to_value(e).unwrap()).collect();
        assert_eq!(wire[0], json!({"type": "RUN_STARTED", "threadId": "thread-1", "runId": "run-1"}));
        assert_eq!(wire[7], json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "run-1-0", "delta": "Let me "}));
        assert_eq!(
            wire[10],
            json!({"type": "TOOL_CALL_START", "toolCallId": "toolu_1", "toolCallName": "get_weather", "parentMessageId": "run-1-0"})
        );
        assert_eq!(
            wire[14],
            json!({"type": "RUN_FINISHED", "threadId": "thread-1", "runId": "run-1",
                   "usage": [{"inputTokens": 12, "outputTokens": 7, "totalTokens": 19}]})
        );
        // The wire form reads back into the same events.
        let back: Vec<Event> = serde_json::from_value(Value::Array(wire)).unwrap();
        assert_eq!(back, events);
    }

    #[test]
    fn exactly_one_terminal_event_whatever_happens() {
        let mut run = RunEvents::new("t", "r");
        let mut events = run.on(&StreamEvent::TextDelta { text: "Part".into() });
        events.extend(
            run.on(&StreamEvent::Error { code: Some("overloaded_error".into()), message: "Overloaded".into() }),
        );
        events.extend(run.on(&StreamEvent::TextDelta { text: "late".into() }));
        events.extend(run.finish());
        events.extend(run.fail("again", None));
        assert_eq!(types(&events), ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT", "RUN_ERROR"]);
        assert!(run.ended());

        let mut run = RunEvents::new("t", "r");
        let mut events = run.fail("cancelled by the client", Some("cancelled".into()));
        events.extend(run.finish());
        assert_eq!(types(&events), ["RUN_STARTED", "RUN_ERROR"]);

        let mut run = RunEvents::new("t", "r");
        let mut events = run.start();
        events.extend(run.start());
        events.extend(run.finish());
        events.extend(run.finish());
        assert_eq!(types(&events), ["RUN_STARTED", "RUN_FINISHED"]);
    }

    #[test]
    fn open_calls_are_closed_and_tool_results_start_a_new_message() {
        let mut run = RunEvents::new("t", "r");
        let mut events = run.on(&StreamEvent::ToolCallStart { id: "c1".into(), name: "f".into() });
        events.extend(run.on(&StreamEvent::ToolCallArgs { id: "c1".into(), delta: "{}".into() }));
        events.extend(run.on(&StreamEvent::ToolCallArgs { id: "unknown".into(), delta: "{}".into() }));
        events.extend(run.tool_result("c1", "42"));
        events.extend(run.on(&StreamEvent::TextDelta { text: "It is 42.".into() }));
        events.extend(run.finish());
        assert_eq!(
            types(&events),
            [
                "RUN_STARTED",
                "TOOL_CALL_START",
                "TOOL_CALL_ARGS",
                "TOOL_CALL_END",
                "TOOL_CALL_RESULT",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "RUN_FINISHED",
            ]
        );
        let result = serde_json::to_value(&events[4]).unwrap();
        assert_eq!(
            result,
            json!({"type": "TOOL_CALL_RESULT", "messageId": "r-tool-c1", "toolCallId": "c1", "content": "42", "role": "tool"})
        );
        assert_eq!(serde_json::to_value(&events[5]).unwrap()["messageId"], "r-1");
    }

    #[test]
    fn a_messages_snapshot_carries_agui_messages() {
        let messages = vec![agent_input::Message::user(vec![agent_input::ContentBlock::text("hi")])];
        let snapshot = Event::MessagesSnapshot { messages: agent_input::agui::to_agui(&messages, "m").unwrap() };
        assert_eq!(
            serde_json::to_value(&snapshot).unwrap(),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"role": "user", "id": "m0", "content": "hi"}]})
        );
    }

    /// One event of every type with a variant (field names as `@ag-ui/core` 1.0's schemas):
    /// each reads as its variant and writes back the same JSON.
    #[test]
    fn every_known_event_type_round_trips() {
        let events = [
            json!({"type": "RUN_STARTED", "threadId": "t", "runId": "r"}),
            json!({"type": "RUN_FINISHED", "threadId": "t", "runId": "r",
                   "usage": [{"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}]}),
            json!({"type": "RUN_ERROR", "message": "boom", "code": "throttled"}),
            json!({"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "assistant"}),
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m", "delta": "Hi"}),
            json!({"type": "TEXT_MESSAGE_END", "messageId": "m"}),
            json!({"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "f", "parentMessageId": "m"}),
            json!({"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": "{}"}),
            json!({"type": "TOOL_CALL_END", "toolCallId": "c"}),
            json!({"type": "TOOL_CALL_RESULT", "messageId": "m2", "toolCallId": "c", "content": "42", "role": "tool"}),
            json!({"type": "REASONING_START", "messageId": "r"}),
            json!({"type": "REASONING_MESSAGE_START", "messageId": "r", "role": "reasoning"}),
            json!({"type": "REASONING_MESSAGE_CONTENT", "messageId": "r", "delta": "hmm"}),
            json!({"type": "REASONING_MESSAGE_END", "messageId": "r"}),
            json!({"type": "REASONING_MESSAGE_CHUNK", "messageId": "r", "delta": "hmm"}),
            json!({"type": "REASONING_END", "messageId": "r"}),
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": "c", "encryptedValue": "c2ln"}),
            json!({"type": "MESSAGES_SNAPSHOT", "messages": [{"role": "user", "id": "m0", "content": "hi"}]}),
            json!({"type": "CUSTOM", "name": "x", "value": {"a": [1]}}),
        ];
        assert_eq!(events.len(), Event::TYPES.len(), "one sample per type");
        for value in events {
            let event: Event = serde_json::from_value(value.clone()).unwrap();
            assert!(!matches!(event, Event::Other { .. }), "{value}");
            assert_eq!(event.kind(), value["type"], "{value}");
            assert!(Event::TYPES.contains(&event.kind()));
            assert_eq!(serde_json::to_value(&event).unwrap(), value);
        }
    }

    /// A type with no variant (AG-UI's steps, state, raw, or a newer one) is kept whole, and
    /// written back unchanged; a known type with a missing field is still refused.
    #[test]
    fn unknown_event_types_are_kept_whole() {
        for value in [
            json!({"type": "STEP_STARTED", "stepName": "plan", "timestamp": 1_700_000_000_000_u64}),
            json!({"type": "STATE_DELTA", "delta": [{"op": "add", "path": "/a", "value": 1}]}),
            json!({"type": "THINKING_TEXT_MESSAGE_CONTENT", "delta": "from before 1.0"}),
            json!({"type": "SOMETHING_NEW"}),
        ] {
            let event: Event = serde_json::from_value(value.clone()).unwrap();
            assert_eq!(event, Event::Other { kind: value["type"].as_str().unwrap().into(), event: value.clone() });
            assert_eq!(event.kind(), value["type"]);
            assert_eq!(serde_json::to_value(&event).unwrap(), value);
            let text = serde_json::to_string(&event).unwrap();
            assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), event);
        }
        for bad in [
            json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m"}),
            json!({"type": "RUN_STARTED", "threadId": 1, "runId": "r"}),
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "reasoning", "entityId": "r", "encryptedValue": "x"}),
            json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "message", "entityId": "r"}),
            json!({"messageId": "m"}),
            json!({"type": 7}),
            json!("RUN_STARTED"),
        ] {
            assert!(serde_json::from_value::<Event>(bad.clone()).is_err(), "{bad}");
        }
    }

    /// AG-UI 1.0 events of every type this crate does not write (tests/agui-client/events-1.0.jsonl,
    /// which the client tests check against `@ag-ui/core`'s schemas): a typed one reads as its
    /// variant and writes back the same JSON value; any other is written back byte for byte.
    #[test]
    fn agui_1_0_events_read_and_write_back_unchanged() {
        let path = format!("{}/../../tests/agui-client/events-1.0.jsonl", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut kinds = Vec::new();
        for line in text.lines() {
            let event: Event = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
            let value: Value = serde_json::from_str(line).unwrap();
            assert_eq!(serde_json::to_value(&event).unwrap(), value, "{line}");
            if Event::TYPES.contains(&event.kind()) {
                assert!(!matches!(event, Event::Other { .. }), "{line}");
            } else {
                assert!(matches!(event, Event::Other { .. }), "{line}");
                assert_eq!(serde_json::to_string(&event).unwrap(), line);
            }
            kinds.push(event.kind().to_string());
        }
        for kind in [
            "REASONING_MESSAGE_CHUNK",
            "REASONING_ENCRYPTED_VALUE",
            "STATE_SNAPSHOT",
            "STATE_DELTA",
            "STEP_STARTED",
            "STEP_FINISHED",
            "ACTIVITY_SNAPSHOT",
            "ACTIVITY_DELTA",
            "SUBAGENT_STARTED",
            "SUBAGENT_FINISHED",
            "SUBAGENT_ERROR",
            "RAW",
            "TEXT_MESSAGE_CHUNK",
            "TOOL_CALL_CHUNK",
            "MESSAGES_SNAPSHOT",
        ] {
            assert!(kinds.iter().any(|k| k == kind), "no sample of {kind}");
        }
    }
}

#[path = "agui/reasoning_state.rs"]
mod reasoning_state;

/// What `to_agui` writes reads back to messages that `to_agui` writes the same again, for states
/// whose positions are not as `to_agui` writes them: on a message without text, past the end,
/// not numbers.
#[test]
fn reasoning_state_written_again_is_unchanged() {
    let call = json!({"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}});
    let cases = [
        // No text (`""` is none): a signature `on` 0 of the message is on its call.
        json!({"id": "a", "role": "assistant", "content": "", "toolCalls": [call],
            "encryptedValue": "{\"provider\":\"gemini\",\"items\":[{\"on\":0,\"thoughtSignature\":\"c2ln\"}]}"}),
        // Positions past the end, and not numbers.
        json!({"id": "a", "role": "assistant", "content": "Hi", "toolCalls": [call],
            "encryptedValue": "{\"provider\":\"gemini\",\"items\":[{\"on\":9,\"thoughtSignature\":\"YQ==\"},{\"before\":9,\"block\":{\"text\":\"t\",\"thought\":true}},{\"on\":\"x\"},{\"before\":-1}]}"}),
        // A call's value only.
        json!({"id": "a", "role": "assistant", "toolCalls": [{"id": "c1", "type": "function",
            "function": {"name": "f", "arguments": "{}"}, "encryptedValue": "{\"provider\":\"gemini\",\"items\":[{\"thoughtSignature\":\"Yg==\"}]}"}]}),
    ];
    for assistant in cases {
        let body = run(json!([{"id": "u", "role": "user", "content": "Hi"}, assistant,
            {"id": "t", "role": "tool", "toolCallId": "c1", "content": "ok"}]));
        let once = to_agui(&messages(&body), "m").unwrap();
        let mut again = body.clone();
        again["messages"] = serde_json::to_value(&once).unwrap();
        let twice = to_agui(&messages(&again), "m").unwrap();
        assert_eq!(twice, once, "{body}");
        let state = &messages(&again)[1].reasoning_state;
        assert!(state.is_some(), "{body}");
    }
}
