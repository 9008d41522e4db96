//! URL sources within the provider's limits: counted before any fetch, each distinct URL fetched
//! once, all at the same time, within one byte budget (a local file server records every fetch).

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use common::stub::{self, Stub};
use common::{Gateway, Scratch, client, post};
use serde_json::{Value, json};

const PNG_BYTES: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

/// `/slow/<name>.png` answers after a second; `/size/<n>.png` is a PNG padded to `n` bytes.
async fn serve(State(hits): State<Arc<Mutex<Vec<String>>>>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    hits.lock().unwrap().push(path.clone());
    if path.starts_with("/slow/") {
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    let size = path.strip_prefix("/size/").and_then(|p| p.trim_end_matches(".png").parse().ok()).unwrap_or(0);
    let mut bytes = PNG_BYTES.to_vec();
    bytes.resize(size.max(PNG_BYTES.len()), 0);
    ([("content-type", "image/png")], bytes).into_response()
}

async fn files() -> (String, Arc<Mutex<Vec<String>>>) {
    let hits = Arc::new(Mutex::new(Vec::new()));
    let app = Router::new().fallback(serve).with_state(Arc::clone(&hits));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (url, hits)
}

fn with_sources(kind: &str, format: &str, urls: &[String]) -> String {
    let mut content = vec![json!({"type": "text", "text": "What are these?"})];
    for url in urls {
        content.push(json!({"type": kind, "source": {"type": "url", "format": format, "data": url}}));
    }
    json!({"input": [{"role": "user", "content": content}]}).to_string()
}

/// The gateway (dropped before its scratch directory), the execute URL of a Bedrock agent on the
/// stub, the file server and what it served, and the stub.
type Setup = ((Gateway, Scratch), String, String, Arc<Mutex<Vec<String>>>, Stub);

async fn setup(name: &str, extra: &[&str]) -> Setup {
    let (files, hits) = files().await;
    let stub = Stub::start().await;
    let scratch = Scratch::new(name);
    let mut args = vec!["--fetch-allow", files.as_str(), "--provider-timeout-secs", "10"];
    args.extend_from_slice(extra);
    let gateway = Gateway::start(&scratch.path("g.db"), &args);
    let agent = json!({"name": "b", "type": "conversational", "model": {"model_id": "m", "model_provider": "bedrock/converse",
        "credential": {"api_key": stub::API_KEY}, "model_parameters": {"endpoint": stub.url}}});
    let (status, answer) = post(&client(), &gateway.at("/_plugins/_ml/agents/_register"), &agent.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", answer["agent_id"].as_str().unwrap()));
    ((gateway, scratch), execute, files, hits, stub)
}

#[tokio::test]
async fn sources_are_counted_before_anything_is_fetched() {
    let (_gateway, execute, files, hits, _stub) = setup("budget-count", &[]).await;
    let http = client();
    let images: Vec<String> = (0..21).map(|i| format!("{files}/size/{i}.png")).collect();
    let (status, answer) = post(&http, &execute, &with_sources("image", "png", &images)).await;
    assert_eq!(status, 400, "{answer}");
    let detail = &answer["error"]["details"][0];
    assert_eq!(detail["code"], "provider_limit", "{answer}");
    assert_eq!((detail["limit"].as_u64(), detail["actual"].as_u64()), (Some(20), Some(21)));
    assert_eq!(detail["path"], "/input/0/content/21/source/data");
    let documents: Vec<String> = (0..6).map(|i| format!("{files}/size/{i}.png")).collect();
    let (status, answer) = post(&http, &execute, &with_sources("document", "pdf", &documents)).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["details"][0]["limit"], 5);
    assert!(hits.lock().unwrap().is_empty(), "fetched before counting: {:?}", hits.lock().unwrap());
}

#[tokio::test]
async fn each_url_is_fetched_once_and_all_at_the_same_time() {
    let (_gateway, execute, files, hits, stub) = setup("budget-dedupe", &[]).await;
    let http = client();
    let same = vec![format!("{files}/size/100.png"); 5];
    let (status, answer) = post(&http, &execute, &with_sources("image", "png", &same)).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(hits.lock().unwrap().len(), 1, "{:?}", hits.lock().unwrap());
    let sent: Value = serde_json::from_str(&stub.seen()[0].body).unwrap();
    assert_eq!(sent["messages"][0]["content"].as_array().unwrap().len(), 6);

    // Three files that take a second each: fetched side by side, not one after another.
    let slow: Vec<String> = (0..3).map(|i| format!("{files}/slow/{i}.png")).collect();
    let started = Instant::now();
    let (status, answer) = post(&http, &execute, &with_sources("image", "png", &slow)).await;
    let took = started.elapsed();
    assert_eq!(status, 200, "{answer}");
    assert!(took < Duration::from_millis(2500), "three 1 s fetches took {took:?}");
}

#[tokio::test]
async fn all_sources_together_stay_within_the_body_limit() {
    let (_gateway, execute, files, hits, stub) = setup("budget-bytes", &["--max-body-bytes", "1000000"]).await;
    let http = client();
    // Each file is under Bedrock's 3.75 MB image limit; together they are over what 1 MB leaves.
    let big: Vec<String> = (0..3).map(|i| format!("{files}/size/{}.png", 400_000 + i)).collect();
    let (status, answer) = post(&http, &execute, &with_sources("image", "png", &big)).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["details"][0]["code"], "too_large", "{answer}");
    assert!(stub.seen().is_empty());
    assert!(hits.lock().unwrap().len() <= 3);
    let (status, answer) = post(&http, &execute, &with_sources("image", "png", &big[..1])).await;
    assert_eq!(status, 200, "{answer}");
}
