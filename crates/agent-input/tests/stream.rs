//! Stream decoders: each provider's streaming wire format, fed in every possible split, gives
//! the same events and the same final answer as the non-streaming parser.
//!
//! The sample streams in `tests/data/stream/` follow the providers' documentation: Bedrock's
//! `ConverseStreamOutput` (AWS API reference) event types in AWS event-stream frames encoded by
//! `@smithy/eventstream-codec` (`make_frames.cjs`), `OpenAI`'s chat completion chunk object and
//! "Streaming responses" guide (Responses API semantic events), Anthropic's "Streaming Messages"
//! event flow, and Gemini's `streamGenerateContent?alt=sse` (each `data:` a
//! `GenerateContentResponse`, no `[DONE]`). All five tell the same answer: some text, then a
//! `get_weather` call for Seattle.

use agent_input::ProviderId;
use agent_input::response::{self, ProviderResponse, Usage};
use agent_input::stream::event_stream::{EventStreamParser, HeaderValue, Message, crc32};
use agent_input::stream::sse::{SseEvent, SseParser};
use agent_input::stream::{Decoder, StreamError, StreamEvent, decode};
use serde_json::Value;

fn fixture(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/stream/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const FIXTURES: [(ProviderId, &str); 5] = [
    (ProviderId::BedrockConverse, "bedrock_converse_stream.bin"),
    (ProviderId::OpenAiChat, "openai_chat.sse"),
    (ProviderId::OpenAiResponses, "openai_responses.sse"),
    (ProviderId::AnthropicMessages, "anthropic_messages.sse"),
    (ProviderId::Gemini, "gemini.sse"),
];

/// The same answer as each provider's non-streaming response body.
fn non_streamed(provider: ProviderId) -> &'static str {
    match provider {
        ProviderId::BedrockConverse => {
            r#"{"output":{"message":{"role":"assistant","content":[{"text":"Let me check the weather. ☀"},
            {"toolUse":{"toolUseId":"tooluse_1","name":"get_weather","input":{"city":"Seattle"}}}]}},
            "stopReason":"tool_use","usage":{"inputTokens":12,"outputTokens":7,"totalTokens":19}}"#
        }
        ProviderId::OpenAiChat => {
            r#"{"choices":[{"index":0,"message":{"role":"assistant","content":"Let me check the weather. ☀",
            "tool_calls":[{"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\": \"Seattle\"}"}}]},
            "finish_reason":"tool_calls"}],"usage":{"prompt_tokens":12,"completion_tokens":7,"total_tokens":19}}"#
        }
        ProviderId::OpenAiResponses => {
            r#"{"status":"completed","output":[
            {"type":"message","id":"msg_1","role":"assistant","content":[{"type":"output_text","text":"Let me check the weather. ☀"}]},
            {"type":"function_call","id":"fc_1","call_id":"call_1","name":"get_weather","arguments":"{\"city\": \"Seattle\"}"}],
            "usage":{"input_tokens":12,"output_tokens":7,"total_tokens":19}}"#
        }
        ProviderId::AnthropicMessages => {
            r#"{"content":[{"type":"thinking","thinking":"The user wants the weather.","signature":"EqQBCgIYAhIM"},
            {"type":"text","text":"Let me check the weather. ☀"},
            {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Seattle"}}],
            "stop_reason":"tool_use","usage":{"input_tokens":12,"output_tokens":7}}"#
        }
        ProviderId::Gemini => {
            r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Thinking about weather","thought":true},
            {"text":"Let me check the weather. ☀"},
            {"functionCall":{"name":"get_weather","args":{"city":"Seattle"}}}]},"finishReason":"STOP"}],
            "usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":7,"totalTokenCount":19}}"#
        }
        _ => unreachable!(),
    }
}

fn text(text: &str) -> StreamEvent {
    StreamEvent::TextDelta { text: text.to_string() }
}

fn start(id: &str) -> StreamEvent {
    StreamEvent::ToolCallStart { id: id.to_string(), name: "get_weather".to_string() }
}

fn args(id: &str, delta: &str) -> StreamEvent {
    StreamEvent::ToolCallArgs { id: id.to_string(), delta: delta.to_string() }
}

fn end(id: &str) -> StreamEvent {
    StreamEvent::ToolCallEnd { id: id.to_string() }
}

fn stop(reason: &str) -> StreamEvent {
    StreamEvent::Stop { reason: reason.to_string() }
}

fn usage(input_tokens: u64, output_tokens: u64, total_tokens: u64) -> StreamEvent {
    StreamEvent::Usage(Usage::new(input_tokens, output_tokens, total_tokens))
}

/// The events each documented stream must give, written from the documentation's event flow.
fn expected_events(provider: ProviderId) -> Vec<StreamEvent> {
    let call = |id: &str| vec![start(id), args(id, "{\"city\":"), args(id, " \"Seattle\"}"), end(id)];
    let mut events = vec![text("Let me "), text("check the weather. ☀")];
    match provider {
        ProviderId::BedrockConverse => events.extend(call("tooluse_1")),
        ProviderId::OpenAiChat | ProviderId::OpenAiResponses => events.extend(call("call_1")),
        ProviderId::AnthropicMessages => {
            events.insert(0, StreamEvent::ReasoningDelta { text: "The user wants the weather.".to_string() });
            events.extend(call("toolu_1"));
        }
        ProviderId::Gemini => {
            return vec![
                text("Let me "),
                usage(12, 2, 14),
                StreamEvent::ReasoningDelta { text: "Thinking about weather".to_string() },
                text("check the weather. ☀"),
                usage(12, 5, 17),
                start("call_0"),
                args("call_0", "{\"city\":\"Seattle\"}"),
                end("call_0"),
                stop("tool_use"),
                usage(12, 7, 19),
            ];
        }
        _ => unreachable!(),
    }
    events.extend([stop("tool_use"), usage(12, 7, 19)]);
    events
}

/// Feeds `body` cut at `cuts` (ascending offsets).
fn decode_cut(
    provider: ProviderId,
    body: &[u8],
    cuts: &[usize],
) -> (Vec<StreamEvent>, Result<ProviderResponse, StreamError>) {
    let mut decoder = Decoder::new(provider);
    let mut events = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&body.len())) {
        match decoder.feed(&body[from..cut]) {
            Ok(more) => events.extend(more),
            Err(error) => return (events, Err(error)),
        }
        from = cut;
    }
    (events, decoder.finish())
}

#[test]
fn every_provider_decodes_its_documented_stream() {
    for (provider, name) in FIXTURES {
        let (events, answer) = decode(provider, &fixture(name));
        assert_eq!(events, expected_events(provider), "{name}");
        let answer = answer.unwrap();
        assert_eq!(response::primary_text(&answer.message).as_deref(), Some("Let me check the weather. ☀"), "{name}");
        assert_eq!(answer.message.tool_calls.len(), 1, "{name}");
        assert_eq!(answer.message.tool_calls[0].name, "get_weather", "{name}");
        assert_eq!(answer.stop_reason.as_deref(), Some("tool_use"), "{name}");
        assert_eq!(answer.usage, Some(Usage::new(12, 7, 19)), "{name}");
    }
}

#[test]
fn the_final_answer_is_the_non_streaming_parsers() {
    for (provider, name) in FIXTURES {
        let (_, streamed) = decode(provider, &fixture(name));
        let mut streamed = streamed.unwrap();
        let mut parsed = response::parse(provider, non_streamed(provider)).unwrap();
        // The Gemini sample streams its thought in the middle of the text, which the whole answer
        // gives first: the same state, placed where each one came.
        for answer in [&mut streamed, &mut parsed] {
            for item in answer.message.reasoning_state.iter_mut().flat_map(|s| &mut s.items) {
                item.as_object_mut().unwrap().retain(|key, _| key != "before" && key != "on");
            }
        }
        assert_eq!(streamed, parsed, "{name}");
    }
}

#[test]
fn a_split_at_every_byte_offset_gives_the_same_events_and_answer() {
    for (provider, name) in FIXTURES {
        let body = fixture(name);
        let (events, answer) = decode(provider, &body);
        let answer = answer.unwrap();
        for cut in 0..=body.len() {
            let (split_events, split_answer) = decode_cut(provider, &body, &[cut]);
            assert_eq!(split_events, events, "{name} cut at {cut}");
            assert_eq!(split_answer.as_ref(), Ok(&answer), "{name} cut at {cut}");
        }
        // One byte at a time.
        let every: Vec<usize> = (1..body.len()).collect();
        assert_eq!(decode_cut(provider, &body, &every), (events, Ok(answer)), "{name} byte by byte");
    }
}

#[test]
fn random_multi_splits_give_the_same_events_and_answer() {
    // A fixed linear congruential generator: the same cuts on every run.
    let mut state: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = move |bound: usize| {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        usize::try_from(state >> 33).unwrap() % bound
    };
    for (provider, name) in FIXTURES {
        let body = fixture(name);
        let whole = decode(provider, &body);
        for round in 0..300 {
            let mut cuts: Vec<usize> = (0..=next(12)).map(|_| next(body.len() + 1)).collect();
            cuts.sort_unstable();
            assert_eq!(decode_cut(provider, &body, &cuts), whole, "{name} round {round} cuts {cuts:?}");
        }
    }
}

#[test]
fn sse_streams_read_the_same_with_lf_crlf_or_cr_line_ends() {
    for (provider, name) in FIXTURES.into_iter().skip(1) {
        let body = String::from_utf8(fixture(name)).unwrap().replace("\r\n", "\n");
        let lf = decode(provider, body.as_bytes());
        assert_eq!(lf.0, expected_events(provider), "{name}");
        for line_end in ["\r\n", "\r"] {
            let other = body.replace('\n', line_end);
            assert_eq!(decode(provider, other.as_bytes()), lf, "{name} {line_end:?}");
            let cuts: Vec<usize> = (1..other.len()).collect();
            assert_eq!(decode_cut(provider, other.as_bytes(), &cuts), lf, "{name} {line_end:?} byte by byte");
        }
    }
}

#[test]
fn the_sse_parser_follows_the_event_stream_standard() {
    let mut parser = SseParser::new(1024);
    let text = "\u{feff}: a comment\nevent: first\ndata: one\ndata:two\ndata\n\nid: 7\nretry: 10\n\n: only a comment\n\ndata:  spaced\r\n\r\nevent: no-data\n\ndata: tail";
    let mut events = Vec::new();
    for byte in text.as_bytes() {
        events.extend(parser.feed(std::slice::from_ref(byte)).unwrap());
    }
    parser.finish();
    assert_eq!(
        events,
        [
            SseEvent { event: "first".to_string(), data: "one\ntwo\n".to_string() },
            SseEvent { event: String::new(), data: " spaced".to_string() },
        ],
        // An event not closed by an empty line (`data: tail`) is not dispatched.
    );
}

#[test]
fn mid_stream_errors_are_an_event_and_the_error_of_the_answer() {
    let cases: [(ProviderId, &[u8], &str, &str); 5] = [
        (ProviderId::BedrockConverse, &fixture("bedrock_exception.bin"), "modelStreamErrorException", "Model stream error: the model stopped"),
        (
            ProviderId::OpenAiChat,
            b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Partial\"}}]}\n\ndata: {\"error\":{\"message\":\"The server had an error\",\"type\":\"server_error\",\"code\":null}}\n\n",
            "server_error",
            "The server had an error",
        ),
        (
            ProviderId::OpenAiResponses,
            b"event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\",\"output_index\":0,\"content_index\":0,\"delta\":\"Partial\"}\n\nevent: error\ndata: {\"type\":\"error\",\"code\":\"server_error\",\"message\":\"Something went wrong\",\"param\":null}\n\n",
            "server_error",
            "Something went wrong",
        ),
        (
            ProviderId::AnthropicMessages,
            b"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Partial\"}}\n\nevent: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n",
            "overloaded_error",
            "Overloaded",
        ),
        (
            ProviderId::Gemini,
            b"data: {\"candidates\":[{\"content\":{\"parts\":[{\"text\":\"Partial\"}]}}]}\r\n\r\ndata: {\"error\":{\"code\":503,\"message\":\"The model is overloaded.\",\"status\":\"UNAVAILABLE\"}}\r\n\r\n",
            "UNAVAILABLE",
            "The model is overloaded.",
        ),
    ];
    for (provider, body, code, message) in cases {
        let error = StreamEvent::Error { code: Some(code.to_string()), message: message.to_string() };
        for cut in 0..=body.len() {
            let (events, answer) = decode_cut(provider, body, &[cut]);
            assert_eq!(events, [text("Partial"), error.clone()], "{provider:?} cut {cut}");
            let failure = answer.unwrap_err();
            assert_eq!(failure, StreamError::Provider { code: Some(code.to_string()), message: message.to_string() });
            assert_eq!(failure.code(), "provider_error");
        }
    }
}

#[test]
fn any_corrupted_byte_of_a_frame_fails_its_checksum() {
    let body = fixture("bedrock_converse_stream.bin");
    let first = u32::from_be_bytes([body[0], body[1], body[2], body[3]]) as usize;
    for i in 0..first {
        let mut corrupt = body.clone();
        corrupt[i] ^= 0x20;
        let (events, answer) = decode(ProviderId::BedrockConverse, &corrupt);
        assert!(events.is_empty());
        let part = if i < 12 { "prelude" } else { "message" };
        assert_eq!(answer, Err(StreamError::CrcMismatch { part }), "byte {i}");
    }
    // A decoder that failed stays failed.
    let mut corrupt = body.clone();
    corrupt[20] ^= 1;
    let mut decoder = Decoder::new(ProviderId::BedrockConverse);
    assert!(decoder.feed(&corrupt).is_err());
    assert_eq!(decoder.feed(&body).unwrap_err().code(), "crc_mismatch");
}

#[test]
fn a_stream_cut_inside_a_frame_is_truncated() {
    let body = fixture("bedrock_converse_stream.bin");
    let (_, answer) = decode(ProviderId::BedrockConverse, &body[..body.len() - 1]);
    assert!(matches!(answer, Err(StreamError::Truncated { .. })), "{answer:?}");
}

#[test]
fn frames_and_events_over_the_limit_are_refused_without_buffering_them() {
    // Bedrock: the prelude announces the length; the frame is refused before its bytes arrive.
    let body = fixture("bedrock_converse_stream.bin");
    let mut decoder = Decoder::with_max_frame_bytes(ProviderId::BedrockConverse, 100);
    let error = decoder.feed(&body[..12]).unwrap_err();
    assert!(matches!(error, StreamError::TooLarge { limit: 100, .. }), "{error:?}");
    // SSE: a line that never ends stops growing at the limit, however small the chunks.
    let mut decoder = Decoder::with_max_frame_bytes(ProviderId::OpenAiChat, 64);
    let mut refused = None;
    for i in 0..1000 {
        if let Err(error) = decoder.feed(b"data: xxxxxxxx") {
            refused = Some((i, error));
            break;
        }
    }
    let (i, error) = refused.expect("refused");
    assert!(i < 6, "refused after {i} chunks");
    assert_eq!(error.code(), "too_large");
    // Many short data lines of one event add up too.
    let mut parser = SseParser::new(64);
    let lines = "data: 0123456789\n".repeat(10);
    assert!(matches!(parser.feed(lines.as_bytes()), Err(StreamError::TooLarge { .. })));
}

#[test]
fn bad_payloads_are_reported() {
    let (_, answer) = decode(ProviderId::OpenAiChat, b"data: {not json\n\n");
    assert_eq!(answer.unwrap_err().code(), "invalid_json");
    let (_, answer) = decode(ProviderId::AnthropicMessages, b"data: \xff\xfe\n\n");
    assert_eq!(answer.unwrap_err(), StreamError::InvalidUtf8);
    let frame =
        Message { headers: vec![(":message-type".into(), HeaderValue::String("surprise".into()))], payload: vec![] };
    let (_, answer) = decode(ProviderId::BedrockConverse, &frame.encode());
    assert_eq!(answer.unwrap_err().code(), "invalid_frame");
    // Lengths that cannot hold the headers, with a correct prelude checksum.
    let mut bad = Vec::new();
    bad.extend_from_slice(&16u32.to_be_bytes());
    bad.extend_from_slice(&8u32.to_be_bytes());
    bad.extend_from_slice(&crc32(&bad).to_be_bytes());
    bad.extend_from_slice(&[0; 4]);
    let (_, answer) = decode(ProviderId::BedrockConverse, &bad);
    assert_eq!(answer.unwrap_err().code(), "invalid_frame");
}

#[test]
fn crc32_is_the_iso_hdlc_checksum() {
    // The standard check value of CRC-32/ISO-HDLC.
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    assert_eq!(crc32(b""), 0);
}

/// The frames described in `frames.json`, built by this crate's encoder.
fn frames_built_here(file: &str) -> Vec<Message> {
    let spec: Value = serde_json::from_slice(&fixture("frames.json")).unwrap();
    spec[file]
        .as_array()
        .unwrap()
        .iter()
        .map(|frame| {
            let headers = frame["headers"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| {
                    let value = &h[2];
                    let header = match h[1].as_str().unwrap() {
                        "boolean" => HeaderValue::Bool(value.as_bool().unwrap()),
                        "byte" => HeaderValue::Byte(i8::try_from(value.as_i64().unwrap()).unwrap()),
                        "short" => HeaderValue::Short(i16::try_from(value.as_i64().unwrap()).unwrap()),
                        "integer" => HeaderValue::Int(i32::try_from(value.as_i64().unwrap()).unwrap()),
                        "long" => HeaderValue::Long(value.as_i64().unwrap()),
                        "binary" => HeaderValue::Bytes(agent_input::base64::decode_head(value.as_str().unwrap(), 1024)),
                        "string" => HeaderValue::String(value.as_str().unwrap().to_string()),
                        "timestamp" => HeaderValue::Timestamp(value.as_i64().unwrap()),
                        "uuid" => {
                            let hex = value.as_str().unwrap().replace('-', "");
                            let mut bytes = [0u8; 16];
                            for (i, byte) in bytes.iter_mut().enumerate() {
                                *byte = u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap();
                            }
                            HeaderValue::Uuid(bytes)
                        }
                        other => panic!("{other}"),
                    };
                    (h[0].as_str().unwrap().to_string(), header)
                })
                .collect();
            Message { headers, payload: frame["payload"].as_str().unwrap().as_bytes().to_vec() }
        })
        .collect()
}

#[test]
fn frames_match_an_independent_encoder_byte_for_byte() {
    for file in ["bedrock_converse_stream.bin", "bedrock_exception.bin", "header_types.bin"] {
        let frames = frames_built_here(file);
        let ours: Vec<u8> = frames.iter().flat_map(Message::encode).collect();
        assert_eq!(ours, fixture(file), "{file}: this crate's frames differ from @smithy/eventstream-codec's");
        let mut parser = EventStreamParser::new(1 << 20);
        assert_eq!(parser.feed(&fixture(file)).unwrap(), frames, "{file}");
    }
    let frame = &frames_built_here("header_types.bin")[0];
    assert_eq!(frame.headers[5], ("l".to_string(), HeaderValue::Long(-5_000_000_000)));
    assert_eq!(frame.headers[8], ("ts".to_string(), HeaderValue::Timestamp(1_700_000_000_123)));
    assert_eq!(frame.header("str"), Some("héllo"));
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Any bytes, in any chunks, give events or an error — never a panic.
        #[test]
        fn on_arbitrary_bytes(body in proptest::collection::vec(any::<u8>(), 0..600), cut in 0usize..600) {
            for (provider, _) in FIXTURES {
                let cut = cut.min(body.len());
                let _ = decode_cut(provider, &body, &[cut]);
            }
        }

        /// A documented stream with bytes changed: an SSE stream still decodes or fails cleanly;
        /// a changed Bedrock frame always fails its checksum.
        #[test]
        fn on_mutated_streams(index in any::<prop::sample::Index>(), byte in any::<u8>()) {
            for (provider, name) in FIXTURES {
                let mut body = fixture(name);
                let i = index.index(body.len());
                let changed = body[i] != byte;
                body[i] = byte;
                let (_, answer) = decode(provider, &body);
                if provider == ProviderId::BedrockConverse && changed {
                    prop_assert_eq!(answer.unwrap_err().code(), "crc_mismatch");
                }
            }
        }
    }
}

/// Found by the `stream_decoders` fuzz target: the first problem in a stream is the one reported,
/// however the stream is cut. The SSE and event-stream readers used to read a whole chunk before
/// the events in it were decoded, so a body fed at once reported a later line's problem (invalid
/// UTF-8, a bad checksum) while the same body fed in pieces reported an earlier event's bad JSON.
#[test]
fn the_first_problem_is_reported_wherever_the_stream_is_cut() {
    let mut sse = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"a\x01\"}}]}\n\n".to_vec();
    sse.extend_from_slice(b"data: \xff\xfe\n\n");
    let mut frames = Message {
        headers: vec![
            (":event-type".to_string(), HeaderValue::String("contentBlockDelta".to_string())),
            (":message-type".to_string(), HeaderValue::String("event".to_string())),
        ],
        payload: b"{not json".to_vec(),
    }
    .encode();
    let mut corrupt = frames.clone();
    let last = corrupt.len() - 1;
    corrupt[last] ^= 1;
    frames.extend(corrupt);
    for (provider, body) in [(ProviderId::OpenAiChat, sse), (ProviderId::BedrockConverse, frames)] {
        let (_, whole) = decode(provider, &body);
        let whole = whole.unwrap_err();
        assert_eq!(whole.code(), "invalid_json", "{provider}: {whole}");
        for cut in 1..body.len() {
            assert_eq!(decode_cut(provider, &body, &[cut]).1.unwrap_err(), whole, "{provider} cut at {cut}");
        }
    }
}

/// An SSE line over the limit is refused by its length, whether it arrives whole or in pieces
/// (a comment line used to pass when whole and fail when cut).
#[test]
fn an_sse_line_over_the_limit_is_refused_however_it_arrives() {
    let body = format!(": {}\n\ndata: [DONE]\n\n", "x".repeat(100));
    for cuts in [vec![], vec![10], vec![10, 50, 90]] {
        let mut decoder = Decoder::with_max_frame_bytes(ProviderId::OpenAiChat, 64);
        let mut from = 0;
        let mut error = None;
        for &cut in cuts.iter().chain(std::iter::once(&body.len())) {
            if let Err(e) = decoder.feed(&body.as_bytes()[from..cut]) {
                error = Some(e);
                break;
            }
            from = cut;
        }
        assert!(matches!(error, Some(StreamError::TooLarge { limit: 64, .. })), "{cuts:?}: {error:?}");
    }
}
