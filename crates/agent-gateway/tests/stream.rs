//! `POST …/_execute/stream` over real HTTP on 127.0.0.1: the echo agent, and each of the five
//! providers against a stub that streams its exact wire format (the sample streams of the core's
//! `tests/data/stream/`, written after the providers' documentation; the Bedrock frames encoded by
//! `@smithy/eventstream-codec`). The AG-UI event order, memory, mid-stream failures, a client that
//! hangs up, AG-UI input, and input errors answered before any stream.

mod common;

use std::time::Duration;

use common::stream_stub::{Script, StreamStub};
use common::{Gateway, PNG, Scratch, client, get, output, post};
use serde_json::{Value, json};

const API_KEY: &str = "sk-stream-stub-key";

fn sample(name: &str) -> Vec<u8> {
    let path = format!("{}/../agent-input/tests/data/stream/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn stream_url(gateway: &Gateway, agent: &str) -> String {
    gateway.at(&format!("/_plugins/_ml/agents/{agent}/_execute/stream"))
}

/// A streamed answer: status, headers, and the events in order.
struct Streamed {
    status: u16,
    content_type: String,
    cache_control: String,
    events: Vec<Value>,
}

impl Streamed {
    fn types(&self) -> Vec<&str> {
        self.events.iter().map(|e| e["type"].as_str().unwrap()).collect()
    }

    fn of(&self, kind: &str) -> Vec<&Value> {
        self.events.iter().filter(|e| e["type"] == kind).collect()
    }

    fn text(&self) -> String {
        self.of("TEXT_MESSAGE_CONTENT").iter().map(|e| e["delta"].as_str().unwrap()).collect()
    }

    fn thread(&self) -> String {
        self.events[0]["threadId"].as_str().unwrap().to_string()
    }

    /// The protocol's shape: one `RUN_STARTED` first, one terminal event last, each event with a
    /// `timestamp`, every message and call opened before it is written to and closed once.
    fn check_protocol(&self) {
        let types = self.types();
        assert_eq!(types.first(), Some(&"RUN_STARTED"), "{types:?}");
        assert_eq!(types.iter().filter(|t| **t == "RUN_STARTED").count(), 1, "{types:?}");
        let terminal = types.iter().filter(|t| matches!(**t, "RUN_FINISHED" | "RUN_ERROR")).count();
        assert_eq!(terminal, 1, "{types:?}");
        assert!(matches!(*types.last().unwrap(), "RUN_FINISHED" | "RUN_ERROR"), "{types:?}");
        let mut open = std::collections::BTreeSet::new();
        for event in &self.events {
            assert!(event["timestamp"].as_i64().is_some_and(|t| t > 1_600_000_000_000), "{event}");
            let id = event.get("messageId").or_else(|| event.get("toolCallId")).and_then(Value::as_str);
            let kind = event["type"].as_str().unwrap();
            match kind {
                "TEXT_MESSAGE_START" | "TOOL_CALL_START" | "REASONING_MESSAGE_START" => {
                    assert!(open.insert(id.unwrap().to_string()), "{kind} twice: {event}");
                }
                "TEXT_MESSAGE_CONTENT" | "TOOL_CALL_ARGS" | "REASONING_MESSAGE_CONTENT" => {
                    assert!(open.contains(id.unwrap()), "{kind} of nothing open: {event}");
                }
                "TEXT_MESSAGE_END" | "TOOL_CALL_END" | "REASONING_MESSAGE_END" => {
                    assert!(open.remove(id.unwrap()), "{kind} of nothing open: {event}");
                }
                "RUN_FINISHED" => assert!(open.is_empty(), "left open: {open:?}"),
                _ => {}
            }
        }
    }
}

/// Reads `data:` events as they come (one per SSE event, as the contract says).
fn parse_sse(text: &str) -> Vec<Value> {
    assert!(text.ends_with("\n\n") || text.is_empty(), "the stream ends mid-event: {text:?}");
    text.split("\n\n")
        .filter(|block| !block.is_empty())
        .filter_map(|block| {
            let lines: Vec<&str> = block.lines().filter(|l| !l.starts_with(':')).collect();
            if lines.is_empty() {
                return None; // a keep-alive comment
            }
            assert_eq!(lines.len(), 1, "one data line per event: {block:?}");
            let data = lines[0].strip_prefix("data: ").unwrap_or_else(|| panic!("not a data line: {block:?}"));
            Some(serde_json::from_str(data).unwrap_or_else(|e| panic!("{e}: {data}")))
        })
        .collect()
}

async fn stream(http: &reqwest::Client, url: &str, body: &Value) -> Streamed {
    let response =
        http.post(url).header("content-type", "application/json").body(body.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    let header =
        |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).unwrap_or_default().to_string();
    let (content_type, cache_control) = (header("content-type"), header("cache-control"));
    let text = response.text().await.unwrap();
    let events = if status == 200 { parse_sse(&text) } else { vec![serde_json::from_str(&text).unwrap()] };
    Streamed { status, content_type, cache_control, events }
}

async fn memory_len(http: &reqwest::Client, gateway: &Gateway, id: &str) -> Option<usize> {
    let (status, body) = get(http, &gateway.at(&format!("/_plugins/_ml/memory/{id}/messages"))).await;
    (status == 200).then(|| body["messages"].as_array().unwrap().len())
}

async fn register(http: &reqwest::Client, gateway: &Gateway, body: &Value) -> String {
    let (status, answer) = post(http, &gateway.at("/_plugins/_ml/agents/_register"), &body.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    answer["agent_id"].as_str().unwrap().to_string()
}

fn agent(provider: &str, model: &str, endpoint: &str) -> Value {
    let credential = if provider == "bedrock/converse" {
        json!({"access_key": common::stub::ACCESS_KEY, "secret_key": common::stub::SECRET_KEY})
    } else {
        json!({"api_key": API_KEY})
    };
    json!({"name": "s", "type": "conversational", "model": {"model_id": model, "model_provider": provider,
        "credential": credential,
        "model_parameters": {"endpoint": endpoint, "region": common::stub::REGION, "max_tokens": 100,
            "tools": [{"name": "get_weather", "description": "Weather", "input_schema": {"type": "object"}}]}}})
}

#[tokio::test]
async fn echo_streams_its_answer_in_chunks_and_continues_the_memory() {
    let scratch = Scratch::new("stream-echo");
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &[]);
    let http = client();
    let body = json!({"input": "Hello there, please describe what you received in some detail."});
    let (_, whole) = post(&http, &gateway.at("/_plugins/_ml/agents/echo/_execute"), &body.to_string()).await;
    let whole_text = output(&whole, "response")["result"].as_str().unwrap().to_string();

    let streamed = stream(&http, &stream_url(&gateway, "echo"), &body).await;
    assert_eq!(streamed.status, 200);
    assert_eq!(streamed.content_type, "text/event-stream");
    assert_eq!(streamed.cache_control, "no-cache");
    streamed.check_protocol();
    let types = streamed.types();
    let deltas = streamed.of("TEXT_MESSAGE_CONTENT").len();
    assert!(deltas >= 3, "several chunks: {types:?}");
    let mut expected = vec!["RUN_STARTED", "TEXT_MESSAGE_START"];
    expected.extend(std::iter::repeat_n("TEXT_MESSAGE_CONTENT", deltas));
    expected.extend(["TEXT_MESSAGE_END", "RUN_FINISHED"]);
    assert_eq!(types, expected);
    assert_eq!(streamed.text(), whole_text, "the same text as the non-streamed answer");
    // Deterministic: the same pieces every time.
    let again = stream(&http, &stream_url(&gateway, "echo"), &body).await;
    let pieces = |s: &Streamed| s.of("TEXT_MESSAGE_CONTENT").iter().map(|e| e["delta"].clone()).collect::<Vec<_>>();
    assert_eq!(pieces(&again), pieces(&streamed));

    // RUN_STARTED names the memory; the turn is stored like a non-streamed one.
    let memory = streamed.thread();
    let finished = streamed.of("RUN_FINISHED")[0];
    assert_eq!(finished["threadId"], memory.as_str());
    assert_eq!(finished["runId"], streamed.events[0]["runId"]);
    assert_eq!(finished["usage"][0]["outputTokens"].as_u64().map(|n| n > 0), Some(true), "{finished}");
    // Its result is what _execute answers: the memory, the turn, the new assistant message.
    let result = &finished["result"];
    assert_eq!(result["memory_id"], memory.as_str());
    assert_eq!(result["parent_message_id"], "1");
    assert_eq!(result["response"], whole_text.as_str());
    assert_eq!(result["message"], json!({"role": "assistant", "content": [{"type": "text", "text": whole_text}]}));
    assert_eq!(memory_len(&http, &gateway, &memory).await, Some(2));
    let next = json!({"input": "And now?", "parameters": {"memory_id": memory}});
    let continued = stream(&http, &stream_url(&gateway, "echo"), &next).await;
    continued.check_protocol();
    assert_eq!(continued.thread(), memory);
    assert!(continued.text().starts_with("echo: 3 messages (user, assistant, user)"), "{}", continued.text());
    assert_eq!(memory_len(&http, &gateway, &memory).await, Some(4));
    // The non-streamed API continues it too.
    let (status, answer) = post(
        &http,
        &gateway.at("/_plugins/_ml/agents/echo/_execute"),
        &json!({"input": "Last", "parameters": {"memory_id": memory}}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert!(output(&answer, "response")["result"].as_str().unwrap().starts_with("echo: 5 messages"));
}

/// Each provider: its sample stream, where the gateway must send the streaming request, and what
/// the stub must see.
fn providers() -> Vec<(&'static str, &'static str, Vec<u8>, &'static str, Value)> {
    vec![
        (
            "bedrock/converse",
            "application/vnd.amazon.eventstream",
            sample("bedrock_converse_stream.bin"),
            "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream",
            json!({}),
        ),
        (
            "openai/v1/chat/completions",
            "text/event-stream",
            sample("openai_chat.sse"),
            "/v1/chat/completions",
            json!({"stream": true, "stream_options": {"include_usage": true}}),
        ),
        (
            "openai-responses",
            "text/event-stream",
            sample("openai_responses.sse"),
            "/v1/responses",
            json!({"stream": true}),
        ),
        (
            "anthropic-messages",
            "text/event-stream",
            sample("anthropic_messages.sse"),
            "/v1/messages",
            json!({"stream": true}),
        ),
        (
            "gemini/v1beta/generatecontent",
            "text/event-stream",
            sample("gemini.sse"),
            "/v1beta/models/gemini-2.5-flash:streamGenerateContent",
            json!({}),
        ),
    ]
}

fn model_of(provider: &str) -> &'static str {
    match provider {
        "bedrock/converse" => "anthropic.claude-3-haiku-20240307-v1:0",
        "gemini/v1beta/generatecontent" => "gemini-2.5-flash",
        _ => "some-model",
    }
}

#[tokio::test]
async fn every_provider_streams_its_wire_format_through_the_gateway() {
    let scratch = Scratch::new("stream-providers");
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &[]);
    let http = client();
    let stub = StreamStub::start(Script::whole("text/plain", b"")).await;
    for (provider, content_type, body, path, fields) in providers() {
        let agent_id = register(&http, &gateway, &agent(provider, model_of(provider), &stub.url)).await;
        // Pieces of 7 bytes, so frames and lines arrive split.
        let cuts: Vec<usize> = (7..body.len()).step_by(7).collect();
        stub.set(Script::split(content_type, &body, &cuts, Duration::from_millis(1)));
        let streamed = stream(&http, &stream_url(&gateway, &agent_id), &json!({"input": "Weather in Seattle?"})).await;
        assert_eq!(streamed.status, 200, "{provider}");
        streamed.check_protocol();
        assert_eq!(streamed.text(), "Let me check the weather. ☀", "{provider}");
        let calls = streamed.of("TOOL_CALL_START");
        assert_eq!(calls.len(), 1, "{provider}: {:?}", streamed.types());
        assert_eq!(calls[0]["toolCallName"], "get_weather", "{provider}");
        let call_id = calls[0]["toolCallId"].as_str().unwrap();
        let arguments: String = streamed
            .of("TOOL_CALL_ARGS")
            .iter()
            .inspect(|e| assert_eq!(e["toolCallId"], call_id))
            .map(|e| e["delta"].as_str().unwrap())
            .collect();
        assert_eq!(serde_json::from_str::<Value>(&arguments).unwrap(), json!({"city": "Seattle"}), "{provider}");
        assert_eq!(streamed.of("TOOL_CALL_END").len(), 1, "{provider}");
        assert_eq!(*streamed.types().last().unwrap(), "RUN_FINISHED", "{provider}");
        if provider == "anthropic-messages" {
            let reasoning: String =
                streamed.of("REASONING_MESSAGE_CONTENT").iter().map(|e| e["delta"].as_str().unwrap()).collect();
            assert_eq!(reasoning, "The user wants the weather.");
        }

        // The streaming request, as each provider documents it.
        let seen = stub.last();
        assert_eq!(seen.method, "POST");
        assert_eq!(seen.path, path, "{provider}");
        let sent: Value = serde_json::from_str(&seen.body).unwrap();
        for (key, value) in fields.as_object().unwrap() {
            assert_eq!(&sent[key], value, "{provider}: {key} in {sent}");
        }
        match provider {
            "bedrock/converse" => {
                assert_eq!(sent.get("stream"), None);
                let signature =
                    common::stub::verify(&seen.method, &seen.path, &seen.query, &seen.headers, seen.body.as_bytes());
                assert_eq!(signature, Ok(()), "SigV4 over the converse-stream path");
                assert_eq!(seen.headers["accept"], "application/vnd.amazon.eventstream");
            }
            "gemini/v1beta/generatecontent" => {
                assert_eq!(seen.query, "alt=sse");
                assert_eq!(seen.headers["x-goog-api-key"], API_KEY);
                assert_eq!(sent.get("stream"), None);
            }
            "anthropic-messages" => {
                assert_eq!(seen.headers["x-api-key"], API_KEY);
                assert_eq!(seen.headers["anthropic-version"], "2023-06-01");
                assert_eq!(sent["model"], "some-model");
            }
            _ => {
                assert_eq!(seen.headers["authorization"], format!("Bearer {API_KEY}"));
                assert_eq!(sent["model"], "some-model");
            }
        }
        if provider != "bedrock/converse" {
            assert_eq!(seen.headers["accept"], "text/event-stream", "{provider}");
        }

        // The finished turn is in memory as the non-streaming parser would have read it.
        let memory = streamed.thread();
        let (status, messages) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
        assert_eq!(status, 200, "{provider}");
        let answer = &messages["messages"][1]["message"];
        assert_eq!(answer["role"], "assistant", "{provider}");
        assert_eq!(answer["content"][0]["text"], "Let me check the weather. ☀", "{provider}");
        assert_eq!(answer["toolCalls"][0]["function"]["name"], "get_weather", "{provider}: {answer}");
    }
}

#[tokio::test]
async fn bedrock_frames_split_at_every_byte_offset() {
    let scratch = Scratch::new("stream-splits");
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &[]);
    let http = client();
    let body = sample("bedrock_converse_stream.bin");
    let stub = StreamStub::start(Script::whole("application/vnd.amazon.eventstream", &body)).await;
    let agent_id = register(&http, &gateway, &agent("bedrock/converse", model_of("bedrock/converse"), &stub.url)).await;
    let url = stream_url(&gateway, &agent_id);
    let reference = stream(&http, &url, &json!({"input": "Weather?"})).await;
    reference.check_protocol();
    let strip = |s: &Streamed| {
        s.events
            .iter()
            .map(|e| {
                let mut e = e.clone();
                for key in ["timestamp", "threadId", "runId", "messageId", "parentMessageId"] {
                    e.as_object_mut().unwrap().remove(key);
                }
                if let Some(result) = e.get_mut("result").and_then(Value::as_object_mut) {
                    result.remove("memory_id");
                }
                e
            })
            .collect::<Vec<_>>()
    };
    // The first two frames' lengths: every offset inside them, and across their boundary.
    let first = u32::from_be_bytes(body[..4].try_into().unwrap()) as usize;
    let second = u32::from_be_bytes(body[first..first + 4].try_into().unwrap()) as usize;
    for offset in 1..first + second {
        stub.set(Script::split("application/vnd.amazon.eventstream", &body, &[offset], Duration::from_millis(1)));
        let split = stream(&http, &url, &json!({"input": "Weather?"})).await;
        assert_eq!(strip(&split), strip(&reference), "split at byte {offset}");
    }
    // One byte at a time.
    let every: Vec<usize> = (1..body.len()).collect();
    stub.set(Script::split("application/vnd.amazon.eventstream", &body, &every, Duration::ZERO));
    let bytewise = stream(&http, &url, &json!({"input": "Weather?"})).await;
    assert_eq!(strip(&bytewise), strip(&reference));
}

#[tokio::test]
async fn a_provider_failing_mid_stream_ends_the_run_with_run_error() {
    let scratch = Scratch::new("stream-errors");
    // The stub's error bodies are passed on only from an allowlisted host.
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &["--endpoint-allow", "127.0.0.1"]);
    let http = client();
    let stub =
        StreamStub::start(Script::whole("application/vnd.amazon.eventstream", &sample("bedrock_exception.bin"))).await;
    let bedrock = register(&http, &gateway, &agent("bedrock/converse", model_of("bedrock/converse"), &stub.url)).await;
    let input = json!({"input": "Weather?"});

    // An exception frame after some text.
    let streamed = stream(&http, &stream_url(&gateway, &bedrock), &input).await;
    streamed.check_protocol();
    assert_eq!(streamed.text(), "Partial");
    let error = streamed.of("RUN_ERROR")[0];
    assert_eq!(error["code"], "modelStreamErrorException", "{error}");
    assert!(error["message"].as_str().unwrap().contains("Model stream error: the model stopped"), "{error}");
    assert!(streamed.of("RUN_FINISHED").is_empty());
    assert_eq!(memory_len(&http, &gateway, &streamed.thread()).await, None, "no half answer stored");

    // The connection cut inside a frame.
    let body = sample("bedrock_converse_stream.bin");
    let first = u32::from_be_bytes(body[..4].try_into().unwrap()) as usize;
    stub.set(Script { cut: true, ..Script::whole("application/vnd.amazon.eventstream", &body[..first + 10]) });
    let cut = stream(&http, &stream_url(&gateway, &bedrock), &input).await;
    cut.check_protocol();
    assert_eq!(*cut.types().last().unwrap(), "RUN_ERROR", "{:?}", cut.types());
    assert_eq!(memory_len(&http, &gateway, &cut.thread()).await, None);

    // An SSE provider's error event (Anthropic: `event: error`).
    let anthropic = register(&http, &gateway, &agent("anthropic-messages", "m", &stub.url)).await;
    let events = "event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"m\",\"stop_reason\":null,\"usage\":{\"input_tokens\":3,\"output_tokens\":1}}}\n\n\
        event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n\
        event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hal\"}}\n\n\
        event: error\ndata: {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}\n\n";
    stub.set(Script::whole("text/event-stream", events.as_bytes()));
    let overloaded = stream(&http, &stream_url(&gateway, &anthropic), &input).await;
    overloaded.check_protocol();
    let error = overloaded.of("RUN_ERROR")[0];
    assert_eq!(error["code"], "overloaded_error", "{error}");
    assert!(error["message"].as_str().unwrap().contains("Overloaded"), "{error}");

    // An error status before any event: RUN_ERROR with the gateway's code for it.
    stub.set(Script {
        status: 429,
        ..Script::whole(
            "application/json",
            br#"{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}"#,
        )
    });
    let throttled = stream(&http, &stream_url(&gateway, &anthropic), &input).await;
    throttled.check_protocol();
    assert_eq!(throttled.types(), ["RUN_STARTED", "RUN_ERROR"]);
    let error = &throttled.events[1];
    assert_eq!(error["code"], "provider_throttled", "{error}");
    assert!(error["message"].as_str().unwrap().contains("Slow down"), "{error}");

    // A stream that ends without its closing events is still not an answer to store only if it
    // is broken: garbage in an SSE data line.
    stub.set(Script::whole("text/event-stream", b"event: content_block_delta\ndata: {not json\n\n"));
    let garbage = stream(&http, &stream_url(&gateway, &anthropic), &input).await;
    garbage.check_protocol();
    assert_eq!(garbage.of("RUN_ERROR")[0]["code"], "invalid_json");
}

#[tokio::test]
async fn a_client_that_hangs_up_cancels_the_provider_call_and_stores_nothing() {
    let scratch = Scratch::new("stream-disconnect");
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &[]);
    let http = client();
    // Text only (a tool call would need a tool result before the next turn).
    let mut events: Vec<Value> = ["One ", "two ", "three ", "four ", "five ", "six ", "seven."]
        .iter()
        .map(|word| json!({"choices": [{"index": 0, "delta": {"content": word}, "finish_reason": null}]}))
        .collect();
    events.push(json!({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}));
    let mut body = events.iter().map(|event| format!("data: {event}\n\n")).collect::<Vec<_>>().concat();
    body.push_str("data: [DONE]\n\n");
    let body = body.into_bytes();
    let stub = StreamStub::start(Script::whole("text/event-stream", &body)).await;
    let agent_id = register(&http, &gateway, &agent("openai/v1/chat/completions", "m", &stub.url)).await;
    let url = stream_url(&gateway, &agent_id);
    // A whole first turn: the memory holds 2 messages.
    let first = stream(&http, &url, &json!({"input": "Weather?"})).await;
    let memory = first.thread();
    assert_eq!(memory_len(&http, &gateway, &memory).await, Some(2));

    // The next answer comes slowly, an event every 1.5 s (nine events: 12 s if read whole);
    // the client reads the first events and leaves.
    let cuts: Vec<usize> = body.windows(2).enumerate().filter(|(_, w)| w == b"\n\n").map(|(i, _)| i + 2).collect();
    stub.set(Script::split("text/event-stream", &body, &cuts, Duration::from_millis(1500)));
    let mut response = http
        .post(&url)
        .header("content-type", "application/json")
        .body(json!({"input": "Again?", "parameters": {"memory_id": memory}}).to_string())
        .send()
        .await
        .unwrap();
    let mut read = String::new();
    while !read.contains("TEXT_MESSAGE_CONTENT") {
        let chunk = response.chunk().await.unwrap().unwrap_or_else(|| panic!("events before the end: {read}"));
        read.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    drop(response);
    let hung_up = std::time::Instant::now();
    while stub.abandoned() == 0 {
        assert!(hung_up.elapsed() < Duration::from_secs(7), "the provider call was not cancelled");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(stub.completed(), 1, "the second answer was not read to its end");
    // Nothing of the broken turn is stored, and the memory goes on from its last whole turn.
    assert_eq!(memory_len(&http, &gateway, &memory).await, Some(2));
    stub.set(Script::whole("text/event-stream", &body));
    let next = stream(&http, &url, &json!({"input": "Once more", "parameters": {"memory_id": memory}})).await;
    next.check_protocol();
    assert_eq!(*next.types().last().unwrap(), "RUN_FINISHED");
    assert_eq!(memory_len(&http, &gateway, &memory).await, Some(4));
    let sent: Value = serde_json::from_str(&stub.last().body).unwrap();
    let roles: Vec<&str> = sent["messages"].as_array().unwrap().iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "user"], "the broken turn's input is not in the history");
}

fn agui(thread: &str, run: &str, messages: &Value) -> Value {
    json!({"threadId": thread, "runId": run, "state": {}, "messages": messages, "tools": [], "context": [],
        "forwardedProps": {}, "protocolVersion": "1.0"})
}

#[tokio::test]
async fn agui_input_runs_and_continues_its_thread() {
    let scratch = Scratch::new("stream-agui");
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &[]);
    let http = client();
    let url = stream_url(&gateway, "echo");
    let thread = "thread-from-an-agui-client";
    assert_eq!(memory_len(&http, &gateway, thread).await, None);
    let first_messages = json!([
        {"id": "m1", "role": "system", "content": "Be brief."},
        {"id": "m2", "role": "user", "content": [{"type": "text", "text": "What is this?"},
            {"type": "binary", "mimeType": "image/png", "data": PNG}]}]);
    let first = stream(&http, &url, &agui(thread, "run-1", &first_messages)).await;
    assert_eq!(first.status, 200, "{:?}", first.events);
    first.check_protocol();
    assert_eq!(first.events[0]["threadId"], thread);
    assert_eq!(first.events[0]["runId"], "run-1");
    assert!(first.text().starts_with("echo: 2 messages (system, user); last from user: text (13 chars), image png"));
    // An unknown thread starts a memory under its id.
    assert_eq!(memory_len(&http, &gateway, thread).await, Some(3));

    // HttpAgent sends the whole conversation again: only what follows the last assistant
    // message is new.
    let mut messages = first_messages.as_array().unwrap().clone();
    messages.push(json!({"id": "m3", "role": "assistant", "content": first.text()}));
    messages.push(json!({"id": "m4", "role": "user", "content": "And then?"}));
    let second = stream(&http, &url, &agui(thread, "run-2", &Value::Array(messages.clone()))).await;
    second.check_protocol();
    assert_eq!(second.events[0]["runId"], "run-2");
    assert!(second.text().starts_with("echo: 4 messages (system, user, assistant, user)"), "{}", second.text());
    assert_eq!(memory_len(&http, &gateway, thread).await, Some(5));

    // Nothing new after the last assistant message of a known thread: a 400, no stream.
    messages.push(json!({"id": "m5", "role": "assistant", "content": "done"}));
    let nothing = stream(&http, &url, &agui(thread, "run-3", &Value::Array(messages))).await;
    assert_eq!(nothing.status, 400);
    let path = nothing.events[0]["error"]["details"][0]["path"].as_str().unwrap();
    assert!(path.starts_with("/messages"), "{path}");
    assert_eq!(memory_len(&http, &gateway, thread).await, Some(5));
}

#[tokio::test]
async fn input_errors_are_answered_before_any_stream() {
    let scratch = Scratch::new("stream-400");
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &["--bearer-token", "t0ken"]);
    let http = client();
    let url = stream_url(&gateway, "echo");
    let send = |body: String, content_type: &'static str, token: &'static str| {
        let request = http.post(&url).header("content-type", content_type).bearer_auth(token).body(body);
        async move {
            let response = request.send().await.unwrap();
            let status = response.status().as_u16();
            let content_type =
                response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
            (status, content_type, response.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let good = json!({"input": "hi"}).to_string();
    assert_eq!(send(good.clone(), "application/json", "wrong").await.0, 401);
    assert_eq!(send(good.clone(), "text/plain", "t0ken").await.0, 415);

    // The standard envelope: every problem, with its path, as `_execute` reports it.
    let bad = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": "@@"}}],
        "parameters": {"memory_id": 5}});
    let (status, content_type, body) = send(bad.to_string(), "application/json", "t0ken").await;
    assert_eq!(status, 400, "{body}");
    assert!(content_type.starts_with("application/json"));
    let (_, _, plain) = send(bad.to_string(), "application/json", "t0ken").await;
    assert_eq!(body, plain);
    let paths: Vec<&str> =
        body["error"]["details"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert!(paths.contains(&"/input/0/source/data"), "{body}");
    let execute = http
        .post(gateway.at("/_plugins/_ml/agents/echo/_execute"))
        .header("content-type", "application/json")
        .bearer_auth("t0ken")
        .body(bad.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(execute.json::<Value>().await.unwrap(), body, "the same 400 as _execute");

    let (status, _, body) = send("{\"input\": ".into(), "application/json", "t0ken").await;
    assert_eq!((status, body["error"]["details"][0]["code"].as_str()), (400, Some("invalid_json")));
    let unknown = json!({"input": "hi", "parameters": {"memory_id": "no-such-memory"}});
    assert_eq!(send(unknown.to_string(), "application/json", "t0ken").await.0, 404);
    let missing = http
        .post(stream_url(&gateway, "no-such-agent"))
        .header("content-type", "application/json")
        .bearer_auth("t0ken")
        .body(good)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status().as_u16(), 404);

    // AG-UI input: paths into the AG-UI body.
    let messages = json!([{"id": "m1", "role": "user", "content": [
        {"type": "image", "source": {"type": "data", "value": "not base64!", "mimeType": "image/png"}},
        {"type": "audio", "source": {"type": "data", "value": "AAAA", "mimeType": "audio/wav"}}]}]);
    let (status, _, body) = send(agui("t", "r", &messages).to_string(), "application/json", "t0ken").await;
    assert_eq!(status, 400, "{body}");
    let paths: Vec<&str> =
        body["error"]["details"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    assert!(paths.iter().any(|p| p.starts_with("/messages/0/content/1")), "audio refused: {body}");
    let (status, _, body) = send(
        agui("", "r", &json!([{"id": "m", "role": "user", "content": "hi"}])).to_string(),
        "application/json",
        "t0ken",
    )
    .await;
    assert_eq!((status, body["error"]["details"][0]["path"].as_str()), (400, Some("/threadId")), "{body}");
    let (status, _, body) = send(agui("t", "r", &json!([])).to_string(), "application/json", "t0ken").await;
    assert_eq!((status, body["error"]["details"][0]["path"].as_str()), (400, Some("/messages")), "{body}");
}

/// A Gemini stream with a thought and a signed call, in the API's framing (`\r\n` lines).
const GEMINI_SIGNED: &str = concat!(
    "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"Paris, in Celsius.\",\"thought\": true}],",
    "\"role\": \"model\"},\"index\": 0}],\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\n",
    "data: {\"candidates\": [{\"content\": {\"parts\": [{\"functionCall\": {\"name\": \"get_weather\",",
    "\"args\": {\"city\": \"Paris\"}},\"thoughtSignature\": \"CiQBcsjafE2nR0vX\"}],\"role\": \"model\"},",
    "\"finishReason\": \"STOP\",\"index\": 0}],\"usageMetadata\": {\"promptTokenCount\": 21,",
    "\"candidatesTokenCount\": 15,\"totalTokenCount\": 36},\"modelVersion\": \"gemini-2.5-flash\"}\r\n\r\n",
);

const GEMINI_TEXT: &str = "data: {\"candidates\": [{\"content\": {\"parts\": [{\"text\": \"18°C.\"}],\"role\": \"model\"},\
    \"finishReason\": \"STOP\",\"index\": 0}]}\r\n\r\n";

#[tokio::test]
async fn a_gemini_signature_goes_out_as_an_encrypted_value_and_comes_back_from_agui_input() {
    let scratch = Scratch::new("stream-agui-signature");
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &[]);
    let http = client();
    let body = GEMINI_SIGNED.as_bytes();
    let cuts: Vec<usize> = (9..body.len()).step_by(9).collect();
    let stub = StreamStub::start(Script::split("text/event-stream", body, &cuts, Duration::from_millis(1))).await;
    let agent_id =
        register(&http, &gateway, &agent("gemini/v1beta/generatecontent", "gemini-2.5-flash", &stub.url)).await;
    let url = stream_url(&gateway, &agent_id);
    let question = json!({"id": "u1", "role": "user", "content": "Weather in Paris?"});

    let first = stream(&http, &url, &agui("signature-1", "run-1", &json!([question]))).await;
    assert_eq!(first.status, 200, "{:?}", first.events);
    first.check_protocol();
    let start = first.of("TOOL_CALL_START")[0].clone();
    let values = first.of("REASONING_ENCRYPTED_VALUE");
    let subjects: Vec<(&str, &str)> =
        values.iter().map(|e| (e["subtype"].as_str().unwrap(), e["entityId"].as_str().unwrap())).collect();
    let (message_id, call_id) = (start["parentMessageId"].as_str().unwrap(), start["toolCallId"].as_str().unwrap());
    assert_eq!(subjects, [("message", message_id), ("tool-call", call_id)]);
    let types = first.types();
    assert_eq!(&types[types.len() - 3..], ["REASONING_ENCRYPTED_VALUE", "REASONING_ENCRYPTED_VALUE", "RUN_FINISHED"]);
    let (message_value, call_value) = (values[0]["encryptedValue"].clone(), values[1]["encryptedValue"].clone());
    assert!(call_value.as_str().unwrap().contains("CiQBcsjafE2nR0vX"), "{call_value}");

    // The history as an AG-UI client keeps it, on a thread this gateway has never seen: the
    // values are the only way back for the signature.
    stub.set(Script::whole("text/event-stream", GEMINI_TEXT.as_bytes()));
    let history = json!([question,
        {"id": "r-reasoning", "role": "reasoning", "content": "Paris, in Celsius."},
        {"id": message_id, "role": "assistant", "encryptedValue": message_value, "toolCalls": [{"id": call_id,
            "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
            "encryptedValue": call_value}]},
        {"id": "t1", "role": "tool", "toolCallId": call_id, "content": "18°C"}]);
    let second = stream(&http, &url, &agui("signature-2", "run-2", &history)).await;
    assert_eq!(second.status, 200, "{:?}", second.events);
    second.check_protocol();
    assert_eq!(second.text(), "18°C.");
    let sent: Value = serde_json::from_str(&stub.last().body).unwrap();
    assert_eq!(
        sent["contents"][1],
        json!({"role": "model", "parts": [{"text": "Paris, in Celsius.", "thought": true},
            {"functionCall": {"name": "get_weather", "args": {"city": "Paris"}}, "thoughtSignature": "CiQBcsjafE2nR0vX"}]})
    );
    assert_eq!(sent["contents"][2]["parts"][0]["functionResponse"]["name"], "get_weather");
}
