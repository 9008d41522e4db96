//! `OpenAI` Chat, `OpenAI` Responses, Anthropic Messages and Gemini against a local stub on
//! 127.0.0.1 that records the exact request (path, auth headers, body) and answers in each
//! provider's own response format; the answer read back; provider errors mapped.

mod common;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use common::{Gateway, PNG, Scratch, client, get, output, post};
use serde_json::{Value, json};

const API_KEY: &str = "sk-stub-key-never-returned";

#[derive(Debug, Clone)]
struct Seen {
    path: String,
    headers: HeaderMap,
    body: String,
}

/// What the stub answers: a status, a `Retry-After` when some, and a body.
type Answer = (u16, Option<&'static str>, String);

#[derive(Clone)]
struct Stub {
    url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    answer: Arc<Mutex<Answer>>,
}

impl Stub {
    async fn start(body: &str) -> Self {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let answer = Arc::new(Mutex::new((200, None, body.to_string())));
        let app = Router::new().fallback(handle).with_state((Arc::clone(&seen), Arc::clone(&answer)));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, seen, answer }
    }

    fn answer(&self, status: u16, retry_after: Option<&'static str>, body: &str) {
        *self.answer.lock().unwrap() = (status, retry_after, body.to_string());
    }

    fn last(&self) -> Seen {
        self.seen.lock().unwrap().last().cloned().expect("a request reached the stub")
    }
}

type StubState = (Arc<Mutex<Vec<Seen>>>, Arc<Mutex<Answer>>);

async fn handle(State((seen, answer)): State<StubState>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 64 << 20).await.unwrap();
    seen.lock().unwrap().push(Seen {
        path: parts.uri.path().to_string(),
        headers: parts.headers,
        body: String::from_utf8(body.to_vec()).unwrap(),
    });
    let (status, retry_after, body) = answer.lock().unwrap().clone();
    let mut response =
        (axum::http::StatusCode::from_u16(status).unwrap(), [("content-type", "application/json")], body)
            .into_response();
    if let Some(seconds) = retry_after {
        response.headers_mut().insert("retry-after", seconds.parse().unwrap());
    }
    response
}

struct Case {
    provider: &'static str,
    model_id: &'static str,
    path: &'static str,
    /// The auth headers the provider documents.
    headers: &'static [(&'static str, &'static str)],
    body: String,
    answer: &'static str,
    /// A documented error body of the provider, with its `(type, message)`.
    error: &'static str,
    error_type: &'static str,
}

fn cases() -> Vec<Case> {
    let question = "What is in this picture?";
    vec![
        Case {
            provider: "openai/v1/chat/completions",
            model_id: "gpt-4o",
            path: "/v1/chat/completions",
            headers: &[("authorization", "Bearer sk-stub-key-never-returned")],
            body: format!(
                r#"{{"model":"gpt-4o","messages":[{{"role":"system","content":"Be brief."}},{{"role":"user","content":[{{"type":"text","text":"{question}"}},{{"type":"image_url","image_url":{{"url":"data:image/png;base64,{PNG}"}}}}]}}],"max_completion_tokens":512,"temperature":0.5}}"#
            ),
            answer: r#"{"id":"chatcmpl-1","object":"chat.completion","model":"gpt-4o","choices":[{"index":0,"message":{"role":"assistant","content":"A red square.","refusal":null},"finish_reason":"stop"}],"usage":{"prompt_tokens":20,"completion_tokens":4,"total_tokens":24}}"#,
            error: r#"{"error":{"message":"Invalid image.","type":"invalid_request_error","param":null,"code":null}}"#,
            error_type: "invalid_request_error",
        },
        Case {
            provider: "openai-responses",
            model_id: "gpt-4o",
            path: "/v1/responses",
            headers: &[("authorization", "Bearer sk-stub-key-never-returned")],
            body: format!(
                r#"{{"model":"gpt-4o","instructions":"Be brief.","input":[{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{question}"}},{{"type":"input_image","image_url":"data:image/png;base64,{PNG}","detail":"auto"}}]}}],"max_output_tokens":512,"temperature":0.5}}"#
            ),
            answer: r#"{"id":"resp_1","object":"response","status":"completed","output":[{"type":"message","id":"msg_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"A red square.","annotations":[]}]}],"usage":{"input_tokens":20,"output_tokens":4,"total_tokens":24}}"#,
            error: r#"{"error":{"message":"Invalid image.","type":"invalid_request_error","param":null,"code":null}}"#,
            error_type: "invalid_request_error",
        },
        Case {
            provider: "anthropic-messages",
            model_id: "claude-sonnet-4-5",
            path: "/v1/messages",
            headers: &[("x-api-key", "sk-stub-key-never-returned"), ("anthropic-version", "2023-06-01")],
            body: format!(
                r#"{{"model":"claude-sonnet-4-5","max_tokens":512,"system":[{{"type":"text","text":"Be brief."}}],"messages":[{{"role":"user","content":[{{"type":"text","text":"{question}"}},{{"type":"image","source":{{"type":"base64","media_type":"image/png","data":"{PNG}"}}}}]}}],"temperature":0.5}}"#
            ),
            answer: r#"{"id":"msg_1","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"A red square."}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":20,"output_tokens":4}}"#,
            error: r#"{"type":"error","error":{"type":"invalid_request_error","message":"Invalid image."}}"#,
            error_type: "invalid_request_error",
        },
        Case {
            provider: "gemini/v1beta/generatecontent",
            model_id: "gemini-2.5-flash",
            path: "/v1beta/models/gemini-2.5-flash:generateContent",
            headers: &[("x-goog-api-key", "sk-stub-key-never-returned")],
            body: format!(
                r#"{{"contents":[{{"role":"user","parts":[{{"text":"{question}"}},{{"inlineData":{{"mimeType":"image/png","data":"{PNG}"}}}}]}}],"systemInstruction":{{"parts":[{{"text":"Be brief."}}]}},"generationConfig":{{"maxOutputTokens":512,"temperature":0.5}}}}"#
            ),
            answer: r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"A red square."}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":20,"candidatesTokenCount":4,"totalTokenCount":24},"modelVersion":"gemini-2.5-flash"}"#,
            error: r#"{"error":{"code":400,"message":"Invalid image.","status":"INVALID_ARGUMENT"}}"#,
            error_type: "INVALID_ARGUMENT",
        },
    ]
}

fn agent(case: &Case, endpoint: &str) -> String {
    json!({"name": case.provider, "type": "conversational", "model": {
        "model_id": case.model_id, "model_provider": case.provider, "credential": {"api_key": API_KEY},
        "model_parameters": {"endpoint": endpoint, "max_tokens": "512", "temperature": "0.5",
            "system_prompt": "Be brief."}}})
    .to_string()
}

#[tokio::test]
async fn each_provider_gets_its_exact_request_and_its_answer_is_read() {
    let scratch = Scratch::new("hosted");
    // The stub is listed, so its error bodies are passed on like the real provider's.
    let gateway =
        Gateway::start(&scratch.path("g.db"), &["--provider-timeout-secs", "1", "--endpoint-allow", "127.0.0.1"]);
    let http = client();
    for case in cases() {
        let stub = Stub::start(case.answer).await;
        let (status, registered) =
            post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &agent(&case, &stub.url)).await;
        assert_eq!(status, 200, "{}: {registered}", case.provider);
        let agent_id = registered["agent_id"].as_str().unwrap().to_string();
        let execute = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute"));

        let input = json!({"input": [{"type": "text", "text": "What is in this picture?"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": PNG}}]});
        let (status, answer) = post(&http, &execute, &input.to_string()).await;
        assert_eq!(status, 200, "{}: {answer}", case.provider);
        let seen = stub.last();
        assert_eq!(seen.path, case.path, "{}", case.provider);
        assert_eq!(seen.headers["content-type"], "application/json");
        for (name, value) in case.headers {
            assert_eq!(seen.headers[*name], *value, "{}: {name}", case.provider);
        }
        for other in ["authorization", "x-api-key", "x-goog-api-key"] {
            if !case.headers.iter().any(|(name, _)| *name == other) {
                assert!(!seen.headers.contains_key(other), "{}: {other} sent", case.provider);
            }
        }
        assert_eq!(seen.body, case.body, "{}", case.provider);
        let response = output(&answer, "response");
        assert_eq!(response["result"], "A red square.", "{}: {answer}", case.provider);
        let data = &response["dataAsMap"];
        assert_eq!(data["stop_reason"], "end_turn", "{}", case.provider);
        assert_eq!(data["usage"], json!({"input_tokens": 20, "output_tokens": 4, "total_tokens": 24}));

        // The next turn sends the whole conversation, the model's answer included.
        let memory_id = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
        let second = json!({"input": "Thanks", "parameters": {"memory_id": memory_id}});
        let (status, answer) = post(&http, &execute, &second.to_string()).await;
        assert_eq!(status, 200, "{}: {answer}", case.provider);
        let body: Value = serde_json::from_str(&stub.last().body).unwrap();
        let text = body.to_string();
        assert!(text.contains("A red square.") && text.contains("Thanks"), "{}: {text}", case.provider);

        // The provider's own error body is read; 400 stays 400, 429 keeps Retry-After, 401 is 502.
        stub.answer(400, None, case.error);
        let (status, body) = post(&http, &execute, r#"{"input": "Hi"}"#).await;
        assert_eq!(status, 400, "{}: {body}", case.provider);
        assert_eq!(body["error"]["type"], "provider_rejected_request");
        let reason = body["error"]["reason"].as_str().unwrap();
        assert!(reason.ends_with(&format!("answered 400 {}: Invalid image.", case.error_type)), "{reason}");
        stub.answer(429, Some("7"), case.error);
        let response = http
            .post(&execute)
            .header("content-type", "application/json")
            .body(r#"{"input": "Hi"}"#)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), 429);
        assert_eq!(response.headers()["retry-after"], "7");
        stub.answer(401, None, case.error);
        let (status, body) = post(&http, &execute, r#"{"input": "Hi"}"#).await;
        assert_eq!((status, body["error"]["type"].as_str()), (502, Some("provider_authentication_failed")));
        stub.answer(200, None, r#"{"unexpected": true}"#);
        let (status, body) = post(&http, &execute, r#"{"input": "Hi"}"#).await;
        assert_eq!((status, body["error"]["type"].as_str()), (502, Some("provider_bad_response")), "{body}");

        // The key is never returned.
        let (_, stored) = get(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}"))).await;
        assert!(!stored.to_string().contains(API_KEY));
    }
}

#[tokio::test]
async fn registration_needs_a_key_and_capability_gaps_are_400s_before_sending() {
    let scratch = Scratch::new("hosted-gaps");
    // The stub is listed, so its error bodies are passed on like the real provider's.
    let gateway =
        Gateway::start(&scratch.path("g.db"), &["--provider-timeout-secs", "1", "--endpoint-allow", "127.0.0.1"]);
    let http = client();
    let register = gateway.at("/_plugins/_ml/agents/_register");
    let no_key = json!({"name": "x", "type": "conversational", "model": {"model_id": "claude",
        "model_provider": "anthropic-messages", "credential": {}, "model_parameters": {"endpoint": "ftp://x"}}});
    let (status, body) = post(&http, &register, &no_key.to_string()).await;
    assert_eq!(status, 400, "{body}");
    let paths: Vec<&str> =
        body["error"]["details"].as_array().unwrap().iter().filter_map(|d| d["path"].as_str()).collect();
    assert!(
        paths.contains(&"/model/credential/api_key") && paths.contains(&"/model/model_parameters/endpoint"),
        "{paths:?}"
    );

    let stub = Stub::start("{}").await;
    let case = &cases()[0];
    let (status, registered) = post(&http, &register, &agent(case, &stub.url)).await;
    assert_eq!(status, 200, "{registered}");
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", registered["agent_id"].as_str().unwrap()));
    let video = json!({"input": [{"type": "text", "text": "Watch"},
        {"type": "video", "source": {"type": "url", "format": "mp4", "data": "s3://bucket/clip.mp4"}}]});
    let (status, body) = post(&http, &execute, &video.to_string()).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["details"][0]["code"], "unsupported_by_provider");
    assert_eq!(body["error"]["details"][0]["path"], "/input/1");
    assert!(stub.seen.lock().unwrap().is_empty(), "nothing is sent");

    // A slow provider is a 504 within the time limit.
    let slow = {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let app = Router::new().fallback(|| async {
                tokio::time::sleep(Duration::from_secs(3)).await;
                "{}"
            });
            let _ = axum::serve(listener, app).await;
        });
        url
    };
    let (_, registered) = post(&http, &register, &agent(&cases()[3], &slow)).await;
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", registered["agent_id"].as_str().unwrap()));
    let started = std::time::Instant::now();
    let (status, body) = post(&http, &execute, r#"{"input": "Hi"}"#).await;
    assert_eq!((status, body["error"]["type"].as_str()), (504, Some("provider_timeout")), "{body}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

#[tokio::test]
async fn what_the_registered_model_refuses_is_a_400_before_sending() {
    let scratch = Scratch::new("hosted-model");
    let gateway =
        Gateway::start(&scratch.path("g.db"), &["--provider-timeout-secs", "1", "--endpoint-allow", "127.0.0.1"]);
    let http = client();
    let register = gateway.at("/_plugins/_ml/agents/_register");
    let stub = Stub::start("{}").await;
    let registered = |model_id: &str| {
        json!({"name": model_id, "type": "conversational", "model": {
            "model_id": model_id, "model_provider": "openai-chat", "credential": {"api_key": API_KEY},
            "model_parameters": {"endpoint": stub.url, "temperature": "0.5"}}})
        .to_string()
    };
    // o3-mini reasons and takes `temperature` only at 1: refused, the model named, nothing sent.
    let (status, agent) = post(&http, &register, &registered("o3-mini")).await;
    assert_eq!(status, 200, "{agent}");
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", agent["agent_id"].as_str().unwrap()));
    let (status, body) = post(&http, &execute, r#"{"input": "Hi"}"#).await;
    assert_eq!(status, 400, "{body}");
    let detail = &body["error"]["details"][0];
    assert_eq!(detail["code"], "invalid_parameter", "{body}");
    assert!(detail["message"].as_str().unwrap().contains("o3-mini"), "{body}");
    assert!(stub.seen.lock().unwrap().is_empty(), "nothing is sent");
    // GPT-4o takes it: the request reaches the provider.
    let (_, agent) = post(&http, &register, &registered("gpt-4o")).await;
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", agent["agent_id"].as_str().unwrap()));
    let _ = post(&http, &execute, r#"{"input": "Hi"}"#).await;
    assert!(stub.last().body.contains(r#""temperature":0.5"#), "{}", stub.last().body);
}
