//! Real provider traffic (`tests/captures/`, recorded against the real APIs): every answer read
//! by `response::parse` and every stream, written back as the provider sends it and fed to the
//! decoder in small pieces, says what an independent reading of the same JSON says — text, tool
//! calls and the reasoning state — and the next turn's request carries back what the captured
//! follow-up request carried.

#[path = "support/captures.rs"]
mod captures;

use agent_input::stream::Decoder;
use agent_input::{AgentInput, ContentBlock, ConvertOptions, ExecuteRequest, Message, Path, ProviderId, Role};
use captures::{Reading, answer_turn, read_response, read_stream, state_of, wire};
use serde_json::{Value, json};

fn provider(id: &str) -> ProviderId {
    ProviderId::parse(id).unwrap()
}

/// The crate's answer, in the terms of the independent reading.
fn reading_of(message: &Message<'_>) -> Reading {
    let mut text = String::new();
    let mut items = Vec::new();
    for block in &message.content {
        match block {
            ContentBlock::Text(t) => text.push_str(t),
            ContentBlock::ProviderItem(item) => items.push(item.item.clone()),
            _ => {}
        }
    }
    let calls = message
        .tool_calls
        .iter()
        .map(|c| (c.id.to_string(), c.name.to_string(), serde_json::from_str(&c.arguments).unwrap()))
        .collect();
    let state = message.reasoning_state.iter().flat_map(|s| &s.items).map(state_of).collect();
    Reading { text, calls, state, items }
}

/// Texts are compared without the whitespace the crate drops from blank blocks.
fn same(ours: &Reading, theirs: &Reading) -> bool {
    ours.text.trim() == theirs.text.trim()
        && ours.calls == theirs.calls
        && ours.state == theirs.state
        && ours.items == theirs.items
}

#[test]
fn every_captured_answer_reads_as_the_provider_wrote_it() {
    let mut read = 0;
    for capture in captures::all() {
        let Some(body) = capture.file("response.json") else { continue };
        let response = agent_input::response::parse(provider(capture.provider), &body)
            .unwrap_or_else(|e| panic!("{}: {e:?}", capture.name));
        let ours = reading_of(&response.message);
        let theirs = read_response(capture.provider, &serde_json::from_str(&body).unwrap());
        assert!(same(&ours, &theirs), "{}:\n ours   {ours:?}\n theirs {theirs:?}", capture.name);
        if let Some(state) = &response.message.reasoning_state {
            assert_eq!(state.provider, provider(capture.provider), "{}", capture.name);
        }
        read += 1;
    }
    assert!(read >= 17, "only {read} answers were read");
}

#[test]
fn every_captured_stream_decodes_in_small_pieces() {
    let mut streams = 0;
    for capture in captures::all() {
        let Some(events) = capture.json("response-streaming.json") else { continue };
        let events = events.as_array().unwrap();
        let bytes = wire(capture.provider, events);
        // Small pieces, split anywhere (inside a UTF-8 character or a frame header too).
        let piece = if bytes.len() > 1 << 20 { 4093 } else { 61 };
        let mut decoder = Decoder::new(provider(capture.provider));
        for chunk in bytes.chunks(piece) {
            decoder.feed(chunk).unwrap_or_else(|e| panic!("{}: {e}", capture.name));
        }
        let response = decoder.finish().unwrap_or_else(|e| panic!("{}: {e}", capture.name));
        let ours = reading_of(&response.message);
        let theirs = read_stream(capture.provider, events);
        assert!(same(&ours, &theirs), "{}:\n ours   {ours:?}\n theirs {theirs:?}", capture.name);
        streams += 1;
    }
    assert!(streams >= 18, "only {streams} streams were decoded");
}

/// The Gemini image stream's one event is 1.65 MB: larger than any fixed 1 MiB frame limit.
#[test]
fn a_stream_event_as_large_as_a_generated_image_decodes() {
    let capture = captures::all().into_iter().find(|c| c.name == "imageConfigParam/google").unwrap();
    let events = capture.json("response-streaming.json").unwrap();
    let bytes = wire(capture.provider, events.as_array().unwrap());
    assert!(bytes.len() > 1 << 20, "the capture holds an event over 1 MiB");
    let mut decoder = Decoder::new(ProviderId::Gemini);
    decoder.feed(&bytes).unwrap();
    decoder.finish().unwrap();
    let mut small = Decoder::with_max_frame_bytes(ProviderId::Gemini, 1 << 20);
    assert_eq!(small.feed(&bytes).unwrap_err().code(), "too_large", "a smaller limit still holds");
}

/// The conversation of a follow-up: a user's text, the captured answer as the crate read it,
/// then each call's result or the next question.
fn follow_up(answer: Message<'static>) -> Vec<Message<'static>> {
    let mut messages = vec![Message::user(vec![ContentBlock::text("Hello")])];
    let calls: Vec<String> = answer.tool_calls.iter().map(|c| c.id.to_string()).collect();
    messages.push(answer);
    if calls.is_empty() {
        messages.push(Message::user(vec![ContentBlock::text("What should I do next?")]));
    }
    for id in calls {
        let mut result = Message::new(Role::Tool, vec![ContentBlock::text("71 degrees")]);
        result.tool_call_id = Some(id.into());
        messages.push(result);
    }
    messages
}

fn options_for(request: &Value) -> ConvertOptions {
    // The tools the captured request declared, so tool history converts.
    let tools = request
        .get("tools")
        .or_else(|| request.pointer("/toolConfig/tools"))
        .map(|_| json!([{"name": "get_weather", "description": "Weather", "input_schema": {"type": "object"}}]));
    let mut options = ConvertOptions::default();
    if let Some(tools) = tools {
        options.tools = serde_json::from_value(tools).unwrap();
    }
    options
}

#[test]
fn each_follow_up_carries_back_what_the_captured_follow_up_carried() {
    let mut checked = 0;
    for capture in captures::all() {
        let (Some(body), Some(followup)) = (capture.file("response.json"), capture.json("followup-request.json"))
        else {
            continue;
        };
        let id = provider(capture.provider);
        let answer = agent_input::response::parse(id, &body).unwrap().message;
        let request = ExecuteRequest {
            input: AgentInput::Messages(follow_up(answer)),
            parameters: serde_json::Map::new(),
            legacy_question: false,
            input_path: Path::root().key("input"),
            source_text: None,
        };
        let options = options_for(&capture.json("request.json").unwrap());
        let converted = agent_input::convert::convert_to_value(id, &request, &options)
            .unwrap_or_else(|e| panic!("{}: {e:?}", capture.name));
        let ours = answer_turn(capture.provider, &converted.body);
        let theirs = answer_turn(capture.provider, &followup);
        assert_eq!(ours, theirs, "{}: the answer's turn in the follow-up request", capture.name);
        checked += 1;
    }
    assert!(checked >= 14, "only {checked} follow-ups were checked");
}

/// The corpus holds no Bedrock reasoning and no redacted thinking: these answers follow the API
/// references (Converse `ReasoningContentBlock`, Anthropic `redacted_thinking`).
#[test]
fn reasoning_blocks_the_corpus_lacks_go_back_as_given() {
    let bedrock = r#"{"output":{"message":{"role":"assistant","content":[
        {"reasoningContent":{"reasoningText":{"text":"Think.","signature":"c2ln"}}},
        {"reasoningContent":{"redactedContent":"cmVkYWN0ZWQ="}},
        {"toolUse":{"toolUseId":"t1","name":"get_weather","input":{"city":"Paris"}}}]}},"stopReason":"tool_use"}"#;
    let anthropic = r#"{"content":[{"type":"thinking","thinking":"Think.","signature":"c2ln"},
        {"type":"redacted_thinking","data":"ZGF0YQ=="},
        {"type":"tool_use","id":"t1","name":"get_weather","input":{"city":"Paris"}}],"stop_reason":"tool_use"}"#;
    for (id, body) in [(ProviderId::BedrockConverse, bedrock), (ProviderId::AnthropicMessages, anthropic)] {
        let provider_name = id.as_str();
        let answer = agent_input::response::parse(id, body).unwrap().message;
        let mut result = Message::new(Role::Tool, vec![ContentBlock::text("rain")]);
        result.tool_call_id = Some("t1".into());
        let request = ExecuteRequest {
            input: AgentInput::Messages(vec![Message::user(vec![ContentBlock::text("Weather?")]), answer, result]),
            parameters: serde_json::Map::new(),
            legacy_question: false,
            input_path: Path::root().key("input"),
            source_text: None,
        };
        let options = options_for(&json!({"tools": []}));
        let body_sent = agent_input::convert::convert_to_value(id, &request, &options).unwrap().body;
        let theirs: Value = serde_json::from_str(body).unwrap();
        let given = match id {
            ProviderId::BedrockConverse => theirs.pointer("/output/message/content").unwrap().clone(),
            _ => theirs["content"].clone(),
        };
        let expected: Vec<Value> = given.as_array().unwrap()[..2].to_vec();
        let turn = answer_turn(provider_name, &body_sent);
        assert_eq!(turn[..2], expected[..], "{provider_name}");
        assert_eq!(turn.len(), 3, "{provider_name}: the call follows its reasoning");
    }
}
