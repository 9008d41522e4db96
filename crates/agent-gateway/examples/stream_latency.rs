//! The time the gateway adds between a provider's first byte and the client's first event, over
//! loopback: a provider stub and the gateway in this process (one clock), a client reading
//! `_execute/stream`. For each run the stub notes when it writes the first body byte of its
//! stream; the client notes when the first event made of it (`TEXT_MESSAGE_START`) arrives.
//!
//!     cargo run --release -p agent-gateway --example stream_latency [RUNS]
//!
//! Prints p50, p99 and max per provider format (Bedrock event-stream frames, `OpenAI` SSE).

#![allow(clippy::print_stdout)] // a measuring program: its report is its output

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use clap::Parser as _;
use serde_json::{Value, json};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// When the stub wrote the first body byte of each answer.
type Marks = Arc<Mutex<Vec<Instant>>>;

fn main() {
    let runs: usize = std::env::args().nth(1).and_then(|n| n.parse().ok()).unwrap_or(500);
    let runtime = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().unwrap();
    runtime.block_on(measure(runs));
}

async fn measure(runs: usize) {
    let dir = std::env::temp_dir().join(format!("agent-gateway-latency-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("db.sqlite");
    let args = agent_gateway::Args::parse_from([
        "agent-gateway",
        "--listen",
        "127.0.0.1:0",
        "--quiet",
        "--db",
        db.to_str().unwrap(),
    ]);
    let state = agent_gateway::prepare(agent_gateway::Config::from_args(args).unwrap()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let gateway = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(agent_gateway::serve(state, listener, std::future::pending()));

    let http = reqwest::Client::new();
    for (name, provider, content_type, body) in [
        ("bedrock converse-stream", "bedrock/converse", "application/vnd.amazon.eventstream", bedrock_body()),
        ("openai chat SSE", "openai/v1/chat/completions", "text/event-stream", openai_body()),
    ] {
        let marks: Marks = Arc::default();
        let stub = stub(content_type, body, Arc::clone(&marks)).await;
        let agent = json!({"name": "bench", "type": "conversational", "model": {"model_id": "m", "model_provider": provider,
            "credential": {"api_key": "k"}, "model_parameters": {"endpoint": stub}}});
        let registered: Value = http
            .post(format!("{gateway}/_plugins/_ml/agents/_register"))
            .header("content-type", "application/json")
            .body(agent.to_string())
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let url = format!("{gateway}/_plugins/_ml/agents/{}/_execute/stream", registered["agent_id"].as_str().unwrap());
        let mut added = Vec::with_capacity(runs);
        for run in 0..runs + 20 {
            let mut response = http
                .post(&url)
                .header("content-type", "application/json")
                .body(r#"{"input": "Hello"}"#)
                .send()
                .await
                .unwrap();
            let mut seen = String::new();
            let mut first = None;
            while let Some(chunk) = response.chunk().await.unwrap() {
                seen.push_str(std::str::from_utf8(&chunk).unwrap());
                if first.is_none() && seen.contains("TEXT_MESSAGE_START") {
                    first = Some(Instant::now());
                }
            }
            assert!(seen.contains("RUN_FINISHED"), "{seen}");
            let wrote = marks.lock().unwrap().last().copied().unwrap();
            if run >= 20 {
                // The first 20 warm the connections up.
                added.push(first.unwrap().duration_since(wrote));
            }
        }
        added.sort();
        let at = |q: f64| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
            let i = ((added.len() as f64 * q).ceil() as usize).clamp(1, added.len()) - 1;
            added[i]
        };
        println!(
            "{name}: {runs} runs, provider's first byte -> client's first event: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            ms(at(0.50)),
            ms(at(0.99)),
            ms(*added.last().unwrap())
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

/// A stub provider on a bare socket: it answers the headers at once, waits 2 ms (so the gateway
/// is idle, waiting), notes the time and writes the body in one chunk.
async fn stub(content_type: &'static str, body: Vec<u8>, marks: Marks) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let body = Arc::new(body);
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let (body, marks) = (Arc::clone(&body), Arc::clone(&marks));
            tokio::spawn(async move {
                socket.set_nodelay(true).unwrap();
                loop {
                    // Keep-alive: one request after another on this connection.
                    let mut request = Vec::new();
                    let mut buffer = [0_u8; 8192];
                    let length = loop {
                        let Ok(n) = socket.read(&mut buffer).await else { return };
                        if n == 0 {
                            return;
                        }
                        request.extend_from_slice(&buffer[..n]);
                        if let Some(end) = request.windows(4).position(|w| w == b"\r\n\r\n") {
                            let head = String::from_utf8_lossy(&request[..end]).to_ascii_lowercase();
                            let length: usize = head
                                .lines()
                                .find_map(|l| l.strip_prefix("content-length:"))
                                .and_then(|v| v.trim().parse().ok())
                                .unwrap_or(0);
                            break end + 4 + length;
                        }
                    };
                    while request.len() < length {
                        let Ok(n) = socket.read(&mut buffer).await else { return };
                        if n == 0 {
                            return;
                        }
                        request.extend_from_slice(&buffer[..n]);
                    }
                    let head = format!(
                        "HTTP/1.1 200 OK\r\ncontent-type: {content_type}\r\ntransfer-encoding: chunked\r\n\r\n"
                    );
                    if socket.write_all(head.as_bytes()).await.is_err() {
                        return;
                    }
                    tokio::time::sleep(Duration::from_millis(2)).await;
                    let mut chunk = format!("{:x}\r\n", body.len()).into_bytes();
                    chunk.extend_from_slice(&body);
                    chunk.extend_from_slice(b"\r\n0\r\n\r\n");
                    marks.lock().unwrap().push(Instant::now());
                    if socket.write_all(&chunk).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    url
}

fn bedrock_body() -> Vec<u8> {
    let frame = common::frame;
    [
        frame("messageStart", &json!({"role": "assistant"})),
        frame("contentBlockDelta", &json!({"contentBlockIndex": 0, "delta": {"text": "Hello"}})),
        frame("contentBlockStop", &json!({"contentBlockIndex": 0})),
        frame("messageStop", &json!({"stopReason": "end_turn"})),
        frame("metadata", &json!({"usage": {"inputTokens": 1, "outputTokens": 1, "totalTokens": 2}})),
    ]
    .concat()
}

fn openai_body() -> Vec<u8> {
    concat!(
        "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n",
        "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
        "data: [DONE]\n\n"
    )
    .as_bytes()
    .to_vec()
}
