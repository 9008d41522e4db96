//! URL sources and provider time limits: the gateway fetches a URL only from an allowlisted
//! host (`--fetch-allow`), inlines it for Bedrock, never contacts any other host (local servers
//! record every request), follows no redirect off the list, and caps the size; a provider that
//! never answers is cut off at the provider time limit.

mod common;

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use common::stub::{self, Stub};
use common::{Gateway, Scratch, client, post};
use serde_json::{Value, json};

/// The PNG signature and a few bytes: what the file server serves at `/cat.png`.
const PNG_BYTES: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

/// The paths requested, and where `/redirect` points.
type FilesState = (Arc<Mutex<Vec<String>>>, Option<String>);

/// A file server on 127.0.0.1 that records every path requested.
struct Files {
    url: String,
    hits: Arc<Mutex<Vec<String>>>,
}

impl Files {
    /// `redirect_to` is where `/redirect` points.
    async fn start(redirect_to: Option<String>) -> Self {
        let hits = Arc::new(Mutex::new(Vec::new()));
        let state = (Arc::clone(&hits), redirect_to);
        let app = Router::new().fallback(serve).with_state(state);
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, hits }
    }

    fn hits(&self) -> Vec<String> {
        self.hits.lock().unwrap().clone()
    }
}

async fn serve(State((hits, redirect_to)): State<FilesState>, request: Request) -> Response {
    let path = request.uri().path().to_string();
    hits.lock().unwrap().push(path.clone());
    match path.as_str() {
        "/cat.png" => ([("content-type", "image/png")], PNG_BYTES).into_response(),
        "/big.png" => {
            let mut bytes = PNG_BYTES.to_vec();
            bytes.resize(4 * 1024 * 1024, 0);
            ([("content-type", "image/png")], bytes).into_response()
        }
        "/page.png" => ([("content-type", "text/html")], "<html>login</html>").into_response(),
        "/redirect" => (axum::http::StatusCode::FOUND, [("location", redirect_to.unwrap_or_default())]).into_response(),
        _ => axum::http::StatusCode::NOT_FOUND.into_response(),
    }
}

fn bedrock_agent(endpoint: &str) -> String {
    json!({"name": "b", "type": "conversational", "model": {"model_id": "m", "model_provider": "bedrock/converse",
        "credential": {"api_key": stub::API_KEY}, "model_parameters": {"endpoint": endpoint}}})
    .to_string()
}

fn with_image(url: &str) -> String {
    json!({"input": [{"type": "text", "text": "What is this?"},
        {"type": "image", "source": {"type": "url", "format": "png", "data": url}}]})
    .to_string()
}

#[tokio::test]
async fn only_allowlisted_urls_are_fetched_and_inlined_for_bedrock() {
    let outside = Files::start(None).await;
    let allowed = Files::start(Some(format!("{}/cat.png", outside.url))).await;
    let stub = Stub::start().await;
    let scratch = Scratch::new("fetch");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--fetch-allow", &allowed.url]);
    let http = client();
    let (status, answer) = post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &bedrock_agent(&stub.url)).await;
    assert_eq!(status, 200, "{answer}");
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", answer["agent_id"].as_str().unwrap()));

    // Allowlisted: fetched once, sent to Bedrock as bytes.
    let (status, answer) = post(&http, &execute, &with_image(&format!("{}/cat.png", allowed.url))).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(allowed.hits(), ["/cat.png"]);
    let sent: Value = serde_json::from_str(&stub.seen()[0].body).unwrap();
    assert_eq!(
        sent["messages"][0]["content"][1],
        json!({"image": {"format": "png", "source": {"bytes": agent_input::base64::encode(PNG_BYTES)}}})
    );

    // Not allowlisted: never contacted, refused as Bedrock refuses web URLs.
    let (status, answer) = post(&http, &execute, &with_image(&format!("{}/cat.png", outside.url))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["details"][0]["code"], "url_not_supported_by_provider");
    assert_eq!(answer["error"]["details"][0]["path"], "/input/1/source/data");

    // A redirect from an allowlisted host to another is not followed.
    let (status, answer) = post(&http, &execute, &with_image(&format!("{}/redirect", allowed.url))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["type"], "url_fetch_failed");
    assert!(answer["error"]["reason"].as_str().unwrap().contains("/input/1/source/data"), "{answer}");
    assert!(outside.hits().is_empty(), "the outside server was contacted: {:?}", outside.hits());

    // Over Bedrock's 3.75 MB image limit: provider_limit, with the numbers.
    let (status, answer) = post(&http, &execute, &with_image(&format!("{}/big.png", allowed.url))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["details"][0]["code"], "provider_limit");
    assert_eq!(answer["error"]["details"][0]["limit"], 3_932_160);

    // What was fetched is checked like any base64 data: an HTML page is not a PNG.
    let (status, answer) = post(&http, &execute, &with_image(&format!("{}/page.png", allowed.url))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["details"][0]["code"], "format_mismatch", "{answer}");

    // A missing file.
    let (status, answer) = post(&http, &execute, &with_image(&format!("{}/missing.png", allowed.url))).await;
    assert_eq!(status, 400, "{answer}");
    assert!(answer["error"]["reason"].as_str().unwrap().contains("404"), "{answer}");
    assert_eq!(stub.seen().len(), 1, "only the first request reached Bedrock");
}

#[tokio::test]
async fn without_an_allowlist_nothing_is_fetched() {
    let files = Files::start(None).await;
    let stub = Stub::start().await;
    let scratch = Scratch::new("fetch-none");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let (_, answer) = post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &bedrock_agent(&stub.url)).await;
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", answer["agent_id"].as_str().unwrap()));
    let (status, answer) = post(&http, &execute, &with_image(&format!("{}/cat.png", files.url))).await;
    assert_eq!(status, 400, "{answer}");
    assert_eq!(answer["error"]["details"][0]["code"], "url_not_supported_by_provider");
    // The echo model takes URLs as they are: nothing fetched either.
    let (status, answer) =
        post(&http, &gateway.at("/_plugins/_ml/agents/echo/_execute"), &with_image(&format!("{}/cat.png", files.url)))
            .await;
    assert_eq!(status, 200, "{answer}");
    assert!(files.hits().is_empty(), "{:?}", files.hits());
    assert!(stub.seen().is_empty());
}

#[tokio::test]
async fn a_provider_that_never_answers_is_cut_off_at_the_time_limit() {
    // Accepts connections and reads, but never writes a byte.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let endpoint = format!("http://{}", silent.local_addr().unwrap());
    tokio::spawn(async move {
        let mut held = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            held.push(socket);
        }
    });
    let scratch = Scratch::new("silent");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--provider-timeout-secs", "1"]);
    let http = client();
    let (_, answer) = post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &bedrock_agent(&endpoint)).await;
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", answer["agent_id"].as_str().unwrap()));
    let started = Instant::now();
    let (status, answer) = post(&http, &execute, r#"{"input": "hello"}"#).await;
    let elapsed = started.elapsed();
    assert_eq!(status, 504, "{answer}");
    assert_eq!(answer["error"]["type"], "provider_timeout");
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    // The gateway is still answering.
    let (status, _) = post(&http, &gateway.at("/_plugins/_ml/agents/echo/_execute"), r#"{"input": "hi"}"#).await;
    assert_eq!(status, 200);
}
