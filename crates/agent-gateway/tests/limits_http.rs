//! The limit cases over real HTTP: each ends in its status and error code, a 200 MB upload is
//! cut off (413, connection closed, not read to the end), the process's peak memory stays
//! bounded and it keeps answering; and every API route is behind the configured auth.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use common::stub::{self, Stub};
use common::{Gateway, Scratch, client, post};
use serde_json::{Value, json};

const MIB: usize = 1024 * 1024;

/// The process's peak resident set in MiB.
fn peak_mib(pid: u32) -> usize {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kib: usize = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    kib / 1024
}

/// Sends a 200 MB body on a raw connection: the answer must come, and the connection close,
/// long before the upload would have finished.
fn upload_200_mb(address: &str) -> (String, usize) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let total = 200 * MIB;
    write!(
        stream,
        "POST /_plugins/_ml/agents/echo/_execute HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\ncontent-length: {total}\r\n\r\n"
    )
    .unwrap();
    let mut writer = stream.try_clone().unwrap();
    let sender = std::thread::spawn(move || {
        let chunk = vec![b' '; MIB];
        let mut sent = 0;
        while sent < total {
            if writer.write_all(&chunk).is_err() {
                break; // the server closed the connection
            }
            sent += chunk.len();
        }
        sent
    });
    let mut answer = Vec::new();
    // read_to_end returns only at EOF: a connection held open would time out here instead.
    let read = stream.read_to_end(&mut answer);
    let _ = stream.shutdown(std::net::Shutdown::Both);
    let sent = sender.join().unwrap();
    read.unwrap_or_else(|e| panic!("the connection was not closed: {e}; got {}", String::from_utf8_lossy(&answer)));
    (String::from_utf8_lossy(&answer).into_owned(), sent)
}

/// POSTs `body` on a raw connection (`connection: close`) and returns the status and the JSON
/// answer. (reqwest in a debug build moves tens of megabytes slowly; the gateway is not the
/// bottleneck being measured.)
fn raw_post(address: &str, path: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nhost: {address}\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    let status = answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let json = answer.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_limit_ends_in_its_error_over_http_and_the_gateway_stays_healthy() {
    let stub = Stub::start().await;
    let scratch = Scratch::new("limits-http");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let echo = gateway.at("/_plugins/_ml/agents/echo/_execute");
    let register = json!({"name": "b", "type": "conversational", "model": {"model_id": "m",
        "model_provider": "bedrock/converse", "credential": {"api_key": stub::API_KEY},
        "model_parameters": {"endpoint": stub.url}}});
    let (_, answer) = post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &register.to_string()).await;
    let bedrock = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", answer["agent_id"].as_str().unwrap()));

    let started = Instant::now();
    let address = gateway.url.trim_start_matches("http://").to_string();
    let (answer, sent) = tokio::task::spawn_blocking(move || upload_200_mb(&address)).await.unwrap();
    assert!(answer.starts_with("HTTP/1.1 413"), "{}", &answer[..answer.len().min(300)]);
    assert!(answer.contains("too_large"));
    assert!(sent < 200 * MIB, "the whole 200 MB upload was read");
    eprintln!("200 MB upload: 413 after {} MiB sent, {:?}", sent / MIB, started.elapsed());

    let cases: Vec<(&str, &str, String, u16, &str)> = vec![
        (
            "100,000-deep nesting",
            &echo,
            format!("{{\"input\": {}\"x\"{}}}", "[".repeat(100_000), "]".repeat(100_000)),
            400,
            "too_deep",
        ),
        (
            "100,000 messages",
            &echo,
            format!("{{\"input\": [{}]}}", vec![r#"{"role": "user", "content": "hi"}"#; 100_000].join(",")),
            400,
            "too_many",
        ),
        (
            "10,000 documents",
            &bedrock,
            format!(
                "{{\"input\": [{{\"type\": \"text\", \"text\": \"Read\"}}, {}]}}",
                vec![r#"{"type": "document", "source": {"type": "base64", "format": "txt", "data": "aGk="}}"#; 10_000]
                    .join(",")
            ),
            400,
            "too_many",
        ),
        (
            "a 60 MB base64 image",
            &bedrock,
            format!(
                "{{\"input\": [{{\"type\": \"text\", \"text\": \"Look\"}}, {{\"type\": \"image\", \"source\": {{\"type\": \"base64\", \"format\": \"png\", \"data\": \"{}\"}}}}]}}",
                "A".repeat(60 * MIB)
            ),
            400,
            "provider_limit",
        ),
    ];
    let address = gateway.url.trim_start_matches("http://").to_string();
    for (name, url, body, status, code) in cases {
        let started = Instant::now();
        let (path, address) = (url.trim_start_matches(&gateway.url).to_string(), address.clone());
        let (got, answer) = tokio::task::spawn_blocking(move || raw_post(&address, &path, &body)).await.unwrap();
        assert_eq!(got, status, "{name}: {answer}");
        assert_eq!(answer["error"]["details"][0]["code"], code, "{name}: {answer}");
        let elapsed = started.elapsed();
        eprintln!("{name}: {got} {code} in {elapsed:?}");
        assert!(elapsed < Duration::from_secs(20), "{name} took {elapsed:?}");
    }
    assert!(stub.seen().is_empty(), "nothing over a limit reached the provider");

    // Still healthy.
    let (status, answer) = post(&http, &echo, r#"{"input": "still there?"}"#).await;
    assert_eq!(status, 200, "{answer}");
    let peak = peak_mib(gateway.pid());
    eprintln!("gateway peak RSS {peak} MiB");
    // The largest accepted body is the 60 MB one: about two copies of it at most, never 200 MB.
    assert!(peak < 256, "gateway peak RSS {peak} MiB");
}

#[tokio::test]
async fn every_api_route_is_behind_the_configured_auth() {
    let scratch = Scratch::new("auth-routes");
    let site = scratch.path("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html><title>playground</title>").unwrap();
    let gateway =
        Gateway::start(&scratch.path("g.db"), &["--basic-auth", "ada:lovelace", "--site", site.to_str().unwrap()]);
    let http = client();
    let (_, answer) = {
        let response = http
            .post(gateway.at("/_plugins/_ml/agents/echo/_execute"))
            .basic_auth("ada", Some("lovelace"))
            .header("content-type", "application/json")
            .body(r#"{"input": "hi"}"#)
            .send()
            .await
            .unwrap();
        (response.status().as_u16(), response.json::<Value>().await.unwrap())
    };
    let memory = common::output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    let routes = [
        (reqwest::Method::POST, "/_plugins/_ml/agents/_register".to_string()),
        (reqwest::Method::GET, "/_plugins/_ml/agents/echo".to_string()),
        (reqwest::Method::DELETE, "/_plugins/_ml/agents/echo".to_string()),
        (reqwest::Method::POST, "/_plugins/_ml/agents/echo/_execute".to_string()),
        (reqwest::Method::GET, format!("/_plugins/_ml/memory/{memory}/messages")),
        (reqwest::Method::GET, "/_plugins/_ml/models/x".to_string()),
        // With basic auth the browser asks for the password on the page, then sends it with
        // every API call: the playground is protected too.
        (reqwest::Method::GET, "/".to_string()),
        (reqwest::Method::GET, "/index.html".to_string()),
    ];
    for (method, path) in &routes {
        for auth in [None, Some(("ada", "wrong")), Some(("eve", "lovelace"))] {
            let mut request = http.request(method.clone(), gateway.at(path)).body(r#"{"input": "hi"}"#);
            if let Some((user, password)) = auth {
                request = request.basic_auth(user, Some(password));
            }
            let response = request.send().await.unwrap();
            assert_eq!(response.status().as_u16(), 401, "{method} {path} with {auth:?}");
            assert!(response.headers()["www-authenticate"].to_str().unwrap().starts_with("Basic"));
            let body = response.text().await.unwrap();
            assert!(!body.contains("playground") && !body.contains(&memory), "{method} {path} leaked: {body}");
        }
    }
    // With the right credentials the memory and the site are there (the agent was not deleted).
    let response = http
        .get(gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages")))
        .basic_auth("ada", Some("lovelace"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let response = http.get(gateway.at("/")).basic_auth("ada", Some("lovelace")).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    assert!(response.text().await.unwrap().contains("playground"));
}
