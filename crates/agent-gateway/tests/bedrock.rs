//! `bedrock/converse` against a local stub that verifies the `SigV4` signature independently and
//! the exact request body, and answers in Converse's format; provider failures mapped.

mod common;

use std::time::Duration;

use common::stub::{self, Mode, Stub};
use common::{Gateway, PNG, Scratch, client, get, output, post};
use serde_json::{Value, json};

const MODEL_ID: &str = "anthropic.claude-3-haiku-20240307-v1:0";
const WIRE_PATH: &str = "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse";

fn sigv4_agent(endpoint: &str) -> String {
    json!({"name": "Claude", "type": "conversational", "model": {
        "model_id": MODEL_ID, "model_provider": "bedrock/converse",
        "credential": {"access_key": stub::ACCESS_KEY, "secret_key": stub::SECRET_KEY, "session_token": stub::SESSION_TOKEN},
        "model_parameters": {"region": stub::REGION, "endpoint": endpoint, "max_tokens": "512", "temperature": "0.5",
            "system_prompt": "Be brief."}}})
    .to_string()
}

async fn register(http: &reqwest::Client, gateway: &Gateway, body: &str) -> String {
    let (status, answer) = post(http, &gateway.at("/_plugins/_ml/agents/_register"), body).await;
    assert_eq!(status, 200, "{answer}");
    answer["agent_id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn sigv4_signed_converse_with_the_exact_body_and_a_continued_conversation() {
    let stub = Stub::start().await;
    let scratch = Scratch::new("bedrock-sigv4");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let agent_id = register(&http, &gateway, &sigv4_agent(&stub.url)).await;
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute"));

    let first = json!({"input": [{"type": "text", "text": "What is in this picture?"},
        {"type": "image", "source": {"type": "base64", "format": "png", "data": PNG}}]});
    let (status, answer) = post(&http, &execute, &first.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let seen = stub.seen();
    assert_eq!(seen.len(), 1);
    let request = &seen[0];
    assert_eq!(request.method, "POST");
    assert_eq!(request.path, WIRE_PATH);
    assert_eq!(request.signature, Some(Ok(())), "the stub's own SigV4 check");
    assert_eq!(request.headers["x-amz-security-token"], stub::SESSION_TOKEN);
    assert_eq!(request.headers["content-type"], "application/json");
    let image = format!(r#"{{"image":{{"format":"png","source":{{"bytes":"{PNG}"}}}}}}"#);
    let config = r#""system":[{"text":"Be brief."}],"inferenceConfig":{"maxTokens":512,"temperature":0.5}"#;
    assert_eq!(
        request.body,
        format!(
            r#"{{"messages":[{{"role":"user","content":[{{"text":"What is in this picture?"}},{image}]}}],{config}}}"#
        )
    );
    assert_eq!(output(&answer, "response")["result"], "Hello from the stub");
    let data = &output(&answer, "response")["dataAsMap"];
    assert_eq!(data["usage"], json!({"input_tokens": 12, "output_tokens": 5, "total_tokens": 17}));
    assert_eq!(data["stop_reason"], "end_turn");

    // The second turn sends the whole history again, the image included.
    let memory_id = output(&answer, "memory_id")["result"].as_str().unwrap();
    let second = json!({"input": [{"role": "user", "content": [{"type": "text", "text": "Thanks"}]}],
        "parameters": {"memory_id": memory_id}});
    let (status, answer) = post(&http, &execute, &second.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let request = &stub.seen()[1];
    assert_eq!(request.signature, Some(Ok(())));
    assert_eq!(
        request.body,
        format!(
            r#"{{"messages":[{{"role":"user","content":[{{"text":"What is in this picture?"}},{image}]}},{{"role":"assistant","content":[{{"text":"Hello from the stub"}}]}},{{"role":"user","content":[{{"text":"Thanks"}}]}}],{config}}}"#
        )
    );

    // Credentials are never returned.
    let (status, agent) = get(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}"))).await;
    assert_eq!(status, 200);
    let text = agent.to_string();
    for secret in [stub::ACCESS_KEY, stub::SECRET_KEY, stub::SESSION_TOKEN] {
        assert!(!text.contains(secret), "{text}");
    }
    assert_eq!(agent["model"]["model_parameters"]["region"], stub::REGION);
}

#[tokio::test]
async fn api_key_is_sent_as_a_bearer_token() {
    let stub = Stub::start().await;
    let scratch = Scratch::new("bedrock-bearer");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let agent = json!({"name": "k", "type": "conversational", "model": {"model_id": MODEL_ID,
        "model_provider": "Bedrock/Converse", "credential": {"api_key": stub::API_KEY},
        "model_parameters": {"endpoint": stub.url}}});
    let agent_id = register(&http, &gateway, &agent.to_string()).await;
    let (status, answer) =
        post(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute")), r#"{"input": "Hi"}"#).await;
    assert_eq!(status, 200, "{answer}");
    let request = &stub.seen()[0];
    assert_eq!(request.headers["authorization"], format!("Bearer {}", stub::API_KEY));
    assert!(!request.headers.contains_key("x-amz-date"));
    assert_eq!(
        request.body,
        r#"{"messages":[{"role":"user","content":[{"text":"Hi"}]}],"inferenceConfig":{"maxTokens":4096}}"#
    );
    let (_, agent) = get(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}"))).await;
    assert!(!agent.to_string().contains(stub::API_KEY));
}

#[tokio::test]
async fn provider_failures_become_clear_errors() {
    let stub = Stub::start().await;
    let scratch = Scratch::new("bedrock-failures");
    // The stub is listed, so its error bodies are passed on like the real provider's.
    let gateway =
        Gateway::start(&scratch.path("g.db"), &["--provider-timeout-secs", "1", "--endpoint-allow", "127.0.0.1"]);
    let http = client();
    let agent_id = register(&http, &gateway, &sigv4_agent(&stub.url)).await;
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute"));
    let hi = r#"{"input": "Hi"}"#;

    let cases = [
        (
            Mode::Error { status: 400, error_type: "ValidationException", message: "Malformed input request" },
            400,
            "provider_rejected_request",
        ),
        (
            Mode::Error { status: 403, error_type: "AccessDeniedException", message: "denied" },
            502,
            "provider_authentication_failed",
        ),
        (
            Mode::Error { status: 429, error_type: "ThrottlingException", message: "Too many requests" },
            429,
            "provider_throttled",
        ),
        (Mode::Error { status: 500, error_type: "InternalServerException", message: "boom" }, 502, "provider_error"),
        (Mode::Answer(r#"{"nope": true}"#), 502, "provider_bad_response"),
        (Mode::Sleep(Duration::from_secs(3)), 504, "provider_timeout"),
    ];
    for (mode, status, kind) in cases {
        stub.set(mode.clone());
        let started = std::time::Instant::now();
        let response = http.post(&execute).header("content-type", "application/json").body(hi).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{mode:?}");
        if status == 429 {
            assert_eq!(response.headers()["retry-after"], "7");
        }
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["type"], kind, "{body}");
        assert_eq!(body["status"], status);
        assert!(started.elapsed() < Duration::from_secs(3), "{mode:?} took {:?}", started.elapsed());
        if kind == "provider_rejected_request" {
            assert_eq!(
                body["error"]["reason"],
                "bedrock/converse answered 400 ValidationException: Malformed input request"
            );
            assert_eq!(body["error"]["provider_status"], 400);
        }
    }
    // A failed turn stores nothing: no memory was created.
    stub.set(Mode::Answer(stub::ANSWER));

    // What the provider cannot carry is a 400 before anything is sent.
    let before = stub.seen().len();
    let web_image = r#"{"input": [{"type": "text", "text": "Look"},
        {"type": "image", "source": {"type": "url", "format": "png", "data": "https://example.com/cat.png"}}]}"#;
    let (status, body) = post(&http, &execute, web_image).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["details"][0]["code"], "url_not_supported_by_provider");
    assert_eq!(body["error"]["details"][0]["path"], "/input/1/source/data");
    assert_eq!(stub.seen().len(), before);

    // A wrong secret fails the stub's independent check (so the check is not vacuous).
    let wrong = sigv4_agent(&stub.url).replace(stub::SECRET_KEY, "wrong-secret");
    let agent_id = register(&http, &gateway, &wrong).await;
    let (status, body) = post(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute")), hi).await;
    assert_eq!((status, body["error"]["type"].as_str()), (502, Some("provider_authentication_failed")), "{body}");
    assert!(matches!(stub.seen().last().unwrap().signature, Some(Err(_))));

    // Nothing listening: a 502 at once, not a hang.
    let closed = {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", listener.local_addr().unwrap())
    };
    let agent_id = register(&http, &gateway, &sigv4_agent(&closed)).await;
    let (status, body) = post(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute")), hi).await;
    assert_eq!((status, body["error"]["type"].as_str()), (502, Some("provider_unreachable")), "{body}");
}
