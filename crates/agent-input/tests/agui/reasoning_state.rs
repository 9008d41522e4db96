//! Reasoning state (thought signatures, thinking blocks, encrypted reasoning) on AG-UI's
//! `encryptedValue`: written on the assistant message and its tool calls, read back into the
//! message's `reasoningState`, and the provider's body the same as from the original history.

use agent_input::agui::events::{Entity, Event, RunEvents};
use agent_input::agui::{from_agui, to_agui};
use agent_input::stream::Decoder;
use agent_input::validate::{self, Options};
use agent_input::{ConvertOptions, ProviderId, ToolSpec, convert_str};
use serde_json::{Value, json};

use super::run;

fn call(id: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}})
}

/// A standard conversation: a question, the assistant turn under test, the tool results of
/// its calls (or a follow-up question when it has none).
fn conversation(assistant: &Value) -> Value {
    let mut input =
        vec![json!({"role": "user", "content": [{"type": "text", "text": "Weather in Paris?"}]}), assistant.clone()];
    match assistant["toolCalls"].as_array() {
        Some(calls) => input.extend(
            calls
                .iter()
                .map(|c| json!({"role": "tool", "toolCallId": c["id"], "content": [{"type": "text", "text": "18°C"}]})),
        ),
        None => input.push(json!({"role": "user", "content": [{"type": "text", "text": "Thanks. And tomorrow?"}]})),
    }
    Value::Array(input)
}

fn standard(input: &Value) -> Vec<agent_input::Message<'static>> {
    let body = json!({"input": input});
    let document = validate::document(&body);
    let (request, report) =
        validate::validate_request(&document, &Options::default()).into_result().expect("a valid conversation");
    assert!(report.warnings.is_empty(), "{:?}", report.warnings);
    request.input.into_owned().into_messages()
}

fn convert(provider: ProviderId, input: &Value) -> Value {
    let tools = vec![ToolSpec::new("get_weather", Some("Weather".into()), Some(json!({"type": "object"}))).into()];
    let options = ConvertOptions { tools, ..ConvertOptions::default() };
    let text = json!({"input": input}).to_string();
    let converted = convert_str(&text, provider, &options, &Options::default()).expect("converts");
    serde_json::from_str(&converted.body).unwrap()
}

/// The AG-UI assistant message with its `encryptedValue`s read as JSON, for comparison.
fn readable(message: &Value) -> Value {
    let mut message = message.clone();
    let parse = |v: &mut Value| {
        if let Some(text) = v.get("encryptedValue").and_then(Value::as_str) {
            v["encryptedValue"] = serde_json::from_str(text).expect("a JSON value");
        }
    };
    parse(&mut message);
    for call in message["toolCalls"].as_array_mut().into_iter().flatten() {
        parse(call);
    }
    message
}

/// Provider, the assistant turn (one text block at most, as AG-UI carries it), and where
/// AG-UI carries its state: the message's value and each call's (none: no call has one).
type Case = (ProviderId, Value, Value, Vec<Value>);

fn cases() -> Vec<Case> {
    let signature = "CiQBcsjafE2nR0vXhmm+oT8VgZcj0W3pQ==";
    vec![
        // Gemini: a thought part before the call, the signature on the call.
        (
            ProviderId::Gemini,
            json!({"role": "assistant", "content": [], "toolCalls": [call("c1")], "reasoningState": {"provider": "gemini",
                "items": [{"before": 0, "block": {"text": "Look it up.", "thought": true}}, {"on": 0, "thoughtSignature": signature}]}}),
            json!({"provider": "gemini", "items": [{"before": 0, "block": {"text": "Look it up.", "thought": true}}]}),
            vec![json!({"provider": "gemini", "items": [{"thoughtSignature": signature}]})],
        ),
        // Gemini: text, then two parallel calls, each signed; the text signed too.
        (
            ProviderId::Gemini,
            json!({"role": "assistant", "content": [{"type": "text", "text": "Checking."}], "toolCalls": [call("c1"), call("c2")],
                "reasoningState": {"provider": "gemini", "items": [{"on": 0, "thoughtSignature": "dGV4dA=="},
                    {"on": 1, "thoughtSignature": "b25l"}, {"on": 2, "thoughtSignature": "dHdv"}]}}),
            json!({"provider": "gemini", "items": [{"on": 0, "thoughtSignature": "dGV4dA=="}]}),
            vec![
                json!({"provider": "gemini", "items": [{"thoughtSignature": "b25l"}]}),
                json!({"provider": "gemini", "items": [{"thoughtSignature": "dHdv"}]}),
            ],
        ),
        // Gemini: a signed text answer and nothing else.
        (
            ProviderId::Gemini,
            json!({"role": "assistant", "content": [{"type": "text", "text": "Sunny."}],
                "reasoningState": {"provider": "gemini", "items": [{"on": 0, "thoughtSignature": "c3Vu"}]}}),
            json!({"provider": "gemini", "items": [{"on": 0, "thoughtSignature": "c3Vu"}]}),
            vec![],
        ),
        // Anthropic: a thinking block before the text, a redacted one before the call.
        (
            ProviderId::AnthropicMessages,
            json!({"role": "assistant", "content": [{"type": "text", "text": "Let me check."}], "toolCalls": [call("toolu_1")],
                "reasoningState": {"provider": "anthropic-messages", "items": [
                    {"before": 0, "block": {"type": "thinking", "thinking": "The user wants weather.", "signature": "EqQBCgIYAhIM"}},
                    {"before": 1, "block": {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}}]}}),
            json!({"provider": "anthropic-messages", "items": [
                {"before": 0, "block": {"type": "thinking", "thinking": "The user wants weather.", "signature": "EqQBCgIYAhIM"}},
                {"before": 1, "block": {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix"}}]}),
            vec![],
        ),
        // The Responses API: an encrypted reasoning item before the call, the call's item id on it.
        (
            ProviderId::OpenAiResponses,
            json!({"role": "assistant", "content": [], "toolCalls": [call("call_1")],
                "reasoningState": {"provider": "openai-responses", "items": [
                    {"before": 0, "block": {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAABo"}},
                    {"on": 0, "id": "fc_1"}]}}),
            json!({"provider": "openai-responses", "items": [
                {"before": 0, "block": {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "gAAAAABo"}}]}),
            vec![json!({"provider": "openai-responses", "items": [{"id": "fc_1"}]})],
        ),
    ]
}

#[test]
fn the_state_goes_out_on_the_message_and_its_calls_and_comes_back_the_same() {
    for (provider, assistant, message_value, call_values) in cases() {
        let input = conversation(&assistant);
        let agui = serde_json::to_value(to_agui(&standard(&input), "m").unwrap()).unwrap();
        let written = readable(&agui[1]);
        assert_eq!(written["encryptedValue"], message_value, "{provider:?}: {written}");
        let calls: Vec<Value> = written["toolCalls"]
            .as_array()
            .map(|calls| calls.iter().map(|c| c["encryptedValue"].clone()).collect())
            .unwrap_or_default();
        let expected: Vec<Value> =
            if call_values.is_empty() { calls.iter().map(|_| Value::Null).collect() } else { call_values.clone() };
        assert_eq!(calls, expected, "{provider:?}: {written}");

        // Read back: the same reasoning state (its items grouped by where they travelled),
        // and the provider's body the same as from the original history.
        let back = from_agui(&run(agui), &Options::default()).unwrap();
        assert!(back.warnings.is_empty(), "{provider:?}: {:?}", back.warnings);
        let request = back.request();
        let sorted = |state: &Value| {
            let mut state = state.clone();
            state["items"].as_array_mut().unwrap().sort_by_key(ToString::to_string);
            state
        };
        assert_eq!(
            sorted(&request["input"][1]["reasoningState"]),
            sorted(&assistant["reasoningState"]),
            "{provider:?}"
        );
        assert_eq!(convert(provider, &request["input"]), convert(provider, &input), "{provider:?}");
    }
}

#[test]
fn text_blocks_joined_into_one_string_keep_their_state_on_that_text() {
    // Two text blocks are one AG-UI string: the state on either is on that string, and the
    // call after them keeps its signature.
    let assistant = json!({"role": "assistant",
        "content": [{"type": "text", "text": "Let me "}, {"type": "text", "text": "check."}],
        "toolCalls": [call("c1")],
        "reasoningState": {"provider": "gemini", "items": [
            {"before": 1, "block": {"text": "Hm.", "thought": true}}, {"on": 1, "thoughtSignature": "dGV4dA=="},
            {"before": 2, "block": {"text": "Call.", "thought": true}}, {"on": 2, "thoughtSignature": "Y2FsbA=="}]}});
    let agui = serde_json::to_value(to_agui(&standard(&conversation(&assistant)), "m").unwrap()).unwrap();
    assert_eq!(agui[1]["content"], "Let me check.");
    let back = from_agui(&run(agui), &Options::default()).unwrap().request();
    assert_eq!(
        back["input"][1]["reasoningState"],
        json!({"provider": "gemini", "items": [
            {"before": 0, "block": {"text": "Hm.", "thought": true}}, {"on": 0, "thoughtSignature": "dGV4dA=="},
            {"before": 1, "block": {"text": "Call.", "thought": true}}, {"on": 1, "thoughtSignature": "Y2FsbA=="}]})
    );
}

/// A Gemini stream with a thought and a signed call, as the API writes it (`\r\n` lines).
const GEMINI_SIGNED: &str = concat!(
    "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Paris, in Celsius.\",\"thought\": true}],\"role\": \"model\"},\"index\": 0}]}\r\n\r\n",
    "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"get_weather\",\"args\": {\"city\": \"Paris\"}},",
    "\"thoughtSignature\": \"CiQBcsjafE2nR0vX\"}],\"role\": \"model\"},\"finishReason\": \"STOP\",\"index\": 0}],",
    "\"usageMetadata\": {\"promptTokenCount\": 21,\"candidatesTokenCount\": 15,\"totalTokenCount\": 36}}\r\n\r\n",
);

#[test]
fn a_streamed_signature_is_a_reasoning_encrypted_value_on_its_tool_call() {
    let mut decoder = Decoder::new(ProviderId::Gemini);
    let mut run_events = RunEvents::new("t", "r");
    let mut events = Vec::new();
    for chunk in GEMINI_SIGNED.as_bytes().chunks(5) {
        for event in decoder.feed(chunk).unwrap() {
            events.extend(run_events.on(&event));
        }
    }
    let answer = decoder.finish().unwrap();
    events.extend(run_events.answered(&answer.message));
    let wire: Vec<Value> = events.iter().map(|e| serde_json::to_value(e).unwrap()).collect();
    let types: Vec<&str> = wire.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "RUN_STARTED",
            "REASONING_START",
            "REASONING_MESSAGE_START",
            "REASONING_MESSAGE_CONTENT",
            "REASONING_MESSAGE_END",
            "REASONING_END",
            "TOOL_CALL_START",
            "TOOL_CALL_ARGS",
            "TOOL_CALL_END",
            "REASONING_ENCRYPTED_VALUE",
            "REASONING_ENCRYPTED_VALUE",
            "RUN_FINISHED",
        ]
    );
    let call_id = wire[6]["toolCallId"].as_str().unwrap();
    let message_id = wire[6]["parentMessageId"].as_str().unwrap();
    // The thought part goes back before the call, on the message; the signature on the call.
    assert_eq!((wire[9]["subtype"].as_str(), wire[9]["entityId"].as_str()), (Some("message"), Some(message_id)));
    assert_eq!(
        serde_json::from_str::<Value>(wire[9]["encryptedValue"].as_str().unwrap()).unwrap(),
        json!({"provider": "gemini", "items": [{"before": 0, "block": {"text": "Paris, in Celsius.", "thought": true}}]})
    );
    assert_eq!(
        wire[10],
        json!({"type": "REASONING_ENCRYPTED_VALUE", "subtype": "tool-call", "entityId": call_id,
            "encryptedValue": "{\"provider\":\"gemini\",\"items\":[{\"thoughtSignature\":\"CiQBcsjafE2nR0vX\"}]}"})
    );
    assert!(matches!(&events[10], Event::ReasoningEncryptedValue { subtype: Entity::ToolCall, .. }));

    // What an AG-UI client keeps from these events, sent back, is Gemini's parts again.
    let agui = json!([
        {"id": "u", "role": "user", "content": "Weather in Paris?"},
        {"id": message_id, "role": "assistant", "encryptedValue": wire[9]["encryptedValue"],
         "toolCalls": [{"id": call_id, "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
            "encryptedValue": wire[10]["encryptedValue"]}]},
        {"id": "t", "role": "tool", "toolCallId": call_id, "content": "18°C"}]);
    let request = from_agui(&run(agui), &Options::default()).unwrap().request();
    let body = convert(ProviderId::Gemini, &request["input"]);
    assert_eq!(
        body["contents"][1]["parts"],
        json!([{"text": "Paris, in Celsius.", "thought": true},
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "CiQBcsjafE2nR0vX"}])
    );
}

#[test]
fn no_state_no_encrypted_value() {
    let mut run_events = RunEvents::new("t", "r");
    let message = agent_input::Message::assistant(vec![agent_input::ContentBlock::text("Hi")]);
    let events = run_events.answered(&message);
    let types: Vec<&str> = events.iter().map(Event::kind).collect();
    assert_eq!(types, ["RUN_STARTED", "RUN_FINISHED"]);
    assert!(run_events.answered(&message).is_empty(), "the run has ended");
}

fn weather_turn(message_value: Value, call_value: Value) -> Value {
    let mut call = call("c1");
    if !call_value.is_null() {
        call["encryptedValue"] = call_value;
    }
    let mut message = json!({"id": "a", "role": "assistant", "toolCalls": [call]});
    if !message_value.is_null() {
        message["encryptedValue"] = message_value;
    }
    json!([{"id": "u", "role": "user", "content": "Weather?"}, message,
        {"id": "t", "role": "tool", "toolCallId": "c1", "content": "18°C"}])
}

/// Values that cannot be placed: the code, the path in the AG-UI body, and whether it is an
/// error (else a warning, and the run is read without the value).
#[test]
fn values_that_cannot_be_placed_are_named() {
    let ours = json!({"provider": "gemini", "items": [{"thoughtSignature": "c2ln"}]}).to_string();
    let anthropic = json!({"provider": "anthropic-messages", "items": [{"before": 0, "block": {"type": "redacted_thinking", "data": "x"}}]})
        .to_string();
    let cases: Vec<(Value, &str, &str, bool)> = vec![
        (weather_turn(Value::Null, json!(42)), "invalid_field_type", "/messages/1/toolCalls/0/encryptedValue", true),
        (weather_turn(json!(["x"]), Value::Null), "invalid_field_type", "/messages/1/encryptedValue", true),
        // Another agent's opaque value: the client keeps it, nothing here can place it.
        (weather_turn(json!("gAAAAABo_opaque"), Value::Null), "field_ignored", "/messages/1/encryptedValue", false),
        (
            weather_turn(Value::Null, json!("{\"provider\":\"someone\",\"items\":[]}")),
            "field_ignored",
            "/messages/1/toolCalls/0/encryptedValue",
            false,
        ),
        (weather_turn(json!(anthropic), json!(ours)), "field_ignored", "/messages/1/toolCalls/0/encryptedValue", false),
        // The right form with items that are not objects: the standard validator's error.
        (
            weather_turn(json!("{\"provider\":\"gemini\",\"items\":[7]}"), Value::Null),
            "invalid_field_type",
            "/messages/1/encryptedValue",
            true,
        ),
        (
            json!([{"id": "u", "role": "user", "content": "Hi", "encryptedValue": ours}]),
            "field_ignored",
            "/messages/0/encryptedValue",
            false,
        ),
    ];
    for (messages, code, path, is_error) in cases {
        let body = run(messages.clone());
        let (found, others) = match from_agui(&body, &Options::default()) {
            Ok(read) if !is_error => (read.warnings, 0),
            Err(report) if is_error => (report.errors, report.warnings.len()),
            other => panic!("{messages}: {other:?}"),
        };
        let got: Vec<(&str, String)> = found.iter().map(|d| (d.code.as_str(), d.path.to_string())).collect();
        assert_eq!(got, [(code, path.to_string())], "{messages}");
        assert_eq!(others, 0, "{messages}");
    }
}

#[test]
fn one_provider_state_is_kept_when_another_value_disagrees() {
    let ours = json!({"provider": "gemini", "items": [{"thoughtSignature": "c2ln"}]}).to_string();
    let anthropic = json!({"provider": "anthropic-messages", "items": [{"before": 0, "block": {"type": "redacted_thinking", "data": "x"}}]})
        .to_string();
    let body = run(weather_turn(json!(anthropic), json!(ours)));
    let request = from_agui(&body, &Options::default()).unwrap().request();
    assert_eq!(
        request["input"][1]["reasoningState"],
        json!({"provider": "anthropic-messages", "items": [{"before": 0, "block": {"type": "redacted_thinking", "data": "x"}}]})
    );
    assert_eq!(request["input"][1]["toolCalls"][0], call("c1"), "encryptedValue is not a standard key");
}
