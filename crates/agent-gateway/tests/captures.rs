//! Real provider traffic through the gateway (`tests/captures/`): for each captured exchange, a
//! stub answers the first turn with the captured answer, and the second turn's request — built
//! by the gateway from its stored memory — carries back what the captured follow-up request
//! carried: tool ids, thought signatures, thinking blocks, reasoning items and their ids. The
//! same through `_execute/stream`, the stub streaming the captured events.

mod common;

#[path = "../../agent-input/tests/support/captures.rs"]
mod captures;

use captures::{Capture, answer_turn, read_response, read_stream, wire};
use common::stream_stub::{Script, StreamStub};
use common::{Gateway, Scratch, client, output, post};
use serde_json::{Value, json};

const API_KEY: &str = "sk-captures-stub-key";

fn agent(provider: &str, endpoint: &str) -> Value {
    let credential = if provider == "bedrock-converse" {
        json!({"access_key": common::stub::ACCESS_KEY, "secret_key": common::stub::SECRET_KEY})
    } else {
        json!({"api_key": API_KEY})
    };
    json!({"name": "captured", "type": "conversational", "model": {"model_id": "captured-model",
        "model_provider": provider, "credential": credential,
        "model_parameters": {"endpoint": endpoint, "region": common::stub::REGION, "max_tokens": 100,
            "tools": [{"name": "get_weather", "description": "Weather", "input_schema": {"type": "object"}}]}}})
}

/// The second turn's input: each call answered, or the next question.
fn second_turn(calls: &[(String, String, Value)]) -> Value {
    if calls.is_empty() {
        return json!([{"role": "user", "content": [{"type": "text", "text": "What should I do next?"}]}]);
    }
    calls
        .iter()
        .map(
            |(id, _, _)| json!({"role": "tool", "toolCallId": id, "content": [{"type": "text", "text": "71 degrees"}]}),
        )
        .collect()
}

/// Runs turn one (answered by `first`) and turn two; returns the body of turn two's request.
async fn two_turns(capture: &Capture, first: Script, streamed: bool, calls: &[(String, String, Value)]) -> Value {
    let stub = StreamStub::start(first).await;
    let kind = if streamed { "stream" } else { "whole" };
    let scratch = Scratch::new(&format!("captures-{kind}-{}", capture.name.replace('/', "-")));
    let gateway = Gateway::start(&scratch.path("db.sqlite"), &["--endpoint-allow", "127.0.0.1"]);
    let http = client();
    let (status, registered) =
        post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &agent(capture.provider, &stub.url).to_string())
            .await;
    assert_eq!(status, 200, "{}: {registered}", capture.name);
    let agent_id = registered["agent_id"].as_str().unwrap();
    let memory_id = if streamed {
        let url = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute/stream"));
        let response = http
            .post(&url)
            .header("content-type", "application/json")
            .body(json!({"input": "Hello"}).to_string())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 200, "{}", capture.name);
        let text = response.text().await.unwrap();
        assert!(text.contains("RUN_FINISHED"), "{}: {text}", capture.name);
        let first = text.lines().find_map(|line| line.strip_prefix("data: ")).unwrap();
        let started: Value = serde_json::from_str(first).unwrap();
        started["threadId"].as_str().unwrap().to_string()
    } else {
        let url = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute"));
        let (status, answer) = post(&http, &url, &json!({"input": "Hello"}).to_string()).await;
        assert_eq!(status, 200, "{}: {answer}", capture.name);
        output(&answer, "memory_id")["result"].as_str().unwrap().to_string()
    };
    // Only what the gateway sends on turn two matters, not how that turn is answered.
    let url = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute"));
    let body = json!({"input": second_turn(calls), "parameters": {"memory_id": memory_id}});
    let _ = post(&http, &url, &body.to_string()).await;
    let seen = stub.seen();
    assert_eq!(seen.len(), 2, "{}", capture.name);
    serde_json::from_str(&seen[1].body).unwrap()
}

#[tokio::test]
async fn each_follow_up_through_the_gateway_carries_what_the_captured_one_carried() {
    let mut checked = 0;
    for capture in captures::all() {
        let (Some(body), Some(followup)) = (capture.file("response.json"), capture.json("followup-request.json"))
        else {
            continue;
        };
        let calls = read_response(capture.provider, &serde_json::from_str(&body).unwrap()).calls;
        let first = Script::whole("application/json", body.as_bytes());
        let sent = two_turns(&capture, first, false, &calls).await;
        assert_eq!(
            answer_turn(capture.provider, &sent),
            answer_turn(capture.provider, &followup),
            "{}: the answer's turn in the second request",
            capture.name
        );
        checked += 1;
    }
    assert!(checked >= 14, "only {checked} follow-ups were checked");
}

#[tokio::test]
async fn a_streamed_answer_s_reasoning_state_is_sent_back_on_the_next_turn() {
    let mut checked = 0;
    for capture in captures::all() {
        let Some(events) = capture.json("response-streaming.json") else { continue };
        let events = events.as_array().unwrap();
        let expected = read_stream(capture.provider, events);
        if expected.state.is_empty() || capture.name.starts_with("imageConfigParam") {
            continue;
        }
        let content_type = if capture.provider == "bedrock-converse" {
            "application/vnd.amazon.eventstream"
        } else {
            "text/event-stream"
        };
        let first = Script::whole(content_type, &wire(capture.provider, events));
        let sent = two_turns(&capture, first, true, &expected.calls).await;
        let turn = answer_turn(capture.provider, &sent);
        // Every piece of state the stream gave is in the turn, as given (a Responses message
        // without text as the message of that id).
        for state in &expected.state {
            let state = if state["type"] == "message" { &state["id"] } else { state };
            let found = turn.iter().any(|part| {
                part == state
                    || part.get("signature") == Some(state)
                    || part.get("message").and_then(|m| m.get(0)) == Some(state)
                    || part.get("call").and_then(|c| c.get(0)) == Some(state)
                    // A Gemini call's own id.
                    || part.get("call").and_then(|c| c.get(2)) == Some(state)
            });
            assert!(found, "{}: {state} is not in {turn:?}", capture.name);
        }
        checked += 1;
    }
    assert!(checked >= 4, "only {checked} streams with reasoning state were checked");
}
