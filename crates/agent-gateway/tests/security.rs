//! The gateway's defences against the real binary on 127.0.0.1: no web page can drive the
//! gateway, no agent can turn it into a proxy, no slow client can exhaust it.

mod common;

use std::io::{Read as _, Write as _};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use common::{Gateway, Scratch, client};
use serde_json::{Value, json};

/// Sends `head` (request line and headers, without the final blank line) and `body` on a raw
/// connection and returns the status and the answer's text.
fn raw(address: &str, head: &str, body: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(address).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(stream, "{head}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len()).unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    (answer.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0), answer)
}

fn address(gateway: &Gateway) -> String {
    gateway.url.trim_start_matches("http://").to_string()
}

#[test]
fn web_pages_cannot_drive_the_gateway() {
    let scratch = Scratch::new("sec-browser");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--cors-origin", "http://localhost:5173"]);
    let at = address(&gateway);
    let execute = "POST /_plugins/_ml/agents/echo/_execute HTTP/1.1";
    let input = r#"{"input": "hi"}"#;

    // A form or a text/plain fetch (no preflight) is refused before anything runs.
    for content_type in ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"] {
        let (status, answer) = raw(&at, &format!("{execute}\r\nhost: {at}\r\ncontent-type: {content_type}"), input);
        assert_eq!(status, 415, "{content_type}: {answer}");
        assert!(answer.contains("unsupported_media_type"), "{answer}");
    }
    let (status, _) = raw(&at, &format!("{execute}\r\nhost: {at}"), input);
    assert_eq!(status, 415);
    let register = "POST /_plugins/_ml/agents/_register HTTP/1.1";
    let (status, _) = raw(&at, &format!("{register}\r\nhost: {at}\r\ncontent-type: text/plain"), "{}");
    assert_eq!(status, 415);
    let (status, _) =
        raw(&at, &format!("{execute}\r\nhost: {at}\r\ncontent-type: Application/JSON; charset=utf-8"), input);
    assert_eq!(status, 200);

    // DNS rebinding: the page's own name arrives as Host.
    for host in ["evil.example:80", "evil.example", "127.0.0.1.evil.example", ""] {
        let (status, answer) = raw(&at, &format!("{execute}\r\nhost: {host}\r\ncontent-type: application/json"), input);
        assert_eq!(status, 403, "{host}: {answer}");
        assert!(answer.contains("host_not_allowed"), "{answer}");
        let (status, _) = raw(&at, &format!("GET /_plugins/_ml/agents/echo HTTP/1.1\r\nhost: {host}"), "");
        assert_eq!(status, 403, "{host}");
    }
    let port = at.rsplit_once(':').unwrap().1;
    for host in [format!("localhost:{port}"), format!("[::1]:{port}"), at.clone()] {
        let (status, _) = raw(&at, &format!("GET /_plugins/_ml/agents/echo HTTP/1.1\r\nhost: {host}"), "");
        assert_eq!(status, 200, "{host}");
    }

    // A cross-origin page is refused; the gateway's own page and the CORS list are not.
    let json = format!("{execute}\r\nhost: {at}\r\ncontent-type: application/json");
    let (status, answer) = raw(&at, &format!("{json}\r\norigin: http://evil.example"), input);
    assert_eq!(status, 403, "{answer}");
    assert!(answer.contains("origin_not_allowed"), "{answer}");
    let (status, _) = raw(&at, &format!("{json}\r\norigin: null"), input);
    assert_eq!(status, 403);
    let (status, _) = raw(&at, &format!("{json}\r\norigin: http://{at}"), input);
    assert_eq!(status, 200);
    let (status, _) = raw(&at, &format!("{json}\r\norigin: http://localhost:5173"), input);
    assert_eq!(status, 200);

    // No page may frame it.
    let (status, answer) = raw(&at, &format!("GET / HTTP/1.1\r\nhost: {at}"), "");
    assert_eq!(status, 200);
    let lower = answer.to_ascii_lowercase();
    assert!(lower.contains("x-frame-options: deny") && lower.contains("frame-ancestors 'none'"), "{answer}");
}

#[test]
fn allowed_hosts_are_configurable() {
    let scratch = Scratch::new("sec-allowed-host");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--allowed-host", "gateway.example"]);
    let at = address(&gateway);
    let (status, _) = raw(&at, "GET /_plugins/_ml/agents/echo HTTP/1.1\r\nhost: gateway.example:8080", "");
    assert_eq!(status, 200);
    let (status, _) = raw(&at, "GET /_plugins/_ml/agents/echo HTTP/1.1\r\nhost: other.example", "");
    assert_eq!(status, 403);
}

#[test]
fn exposed_setups_refuse_to_start() {
    let scratch = Scratch::new("sec-refuse");
    let site = scratch.path("www");
    std::fs::create_dir_all(&site).unwrap();
    // Runs the binary, which must exit by itself within 10 s (a gateway that starts serving is
    // killed, and the test fails on its exit status).
    let run = |args: &[&str]| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agent-gateway"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("run agent-gateway");
        let deadline = Instant::now() + Duration::from_secs(10);
        while child.try_wait().unwrap().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = child.kill();
        let output = child.wait_with_output().unwrap();
        (output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned())
    };
    let db = scratch.path("g.db");
    let (code, stderr) = run(&["--listen", "0.0.0.0:0", "--db", db.to_str().unwrap(), "--quiet"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("without authentication"), "{stderr}");
    let inside = site.join("g.db");
    let (code, stderr) =
        run(&["--db", inside.to_str().unwrap(), "--site", site.to_str().unwrap(), "--listen", "127.0.0.1:0"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(stderr.contains("inside --site"), "{stderr}");
    assert!(!inside.exists(), "the database was created before refusing");
}

/// A local server that answers every request with a redirect to `target` (or with an error page
/// holding a secret), and a second one that counts what reaches it.
#[derive(Clone)]
struct Redirector {
    status: u16,
    target: String,
}

async fn redirect(State(redirector): State<Redirector>) -> Response {
    if redirector.status == 500 {
        return (axum::http::StatusCode::INTERNAL_SERVER_ERROR, "INTERNAL-SECRET: db password hunter2").into_response();
    }
    (
        axum::http::StatusCode::from_u16(redirector.status).unwrap(),
        [("location", redirector.target.clone())],
        "INTERNAL-SECRET redirect body",
    )
        .into_response()
}

async fn count(State(hits): State<Arc<AtomicUsize>>, request: Request) -> &'static str {
    let keyed = ["x-api-key", "x-goog-api-key", "authorization", "x-amz-security-token"]
        .iter()
        .any(|h| request.headers().contains_key(*h));
    hits.fetch_add(if keyed { 1000 } else { 1 }, Ordering::SeqCst);
    "INTERNAL-SECRET from the redirect target"
}

async fn serve(app: Router) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    url
}

async fn post_json(http: &reqwest::Client, url: &str, body: &Value) -> (u16, Value) {
    let response =
        http.post(url).header("content-type", "application/json").body(body.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn provider_endpoints_are_no_proxy_and_follow_no_redirect() {
    let hits = Arc::new(AtomicUsize::new(0));
    let target = serve(Router::new().fallback(count).with_state(Arc::clone(&hits))).await;
    let scratch = Scratch::new("sec-endpoints");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--provider-timeout-secs", "5"]);
    let http = client();
    let register_url = gateway.at("/_plugins/_ml/agents/_register");
    let agent = |provider: &str, credential: Value, endpoint: &str| {
        json!({"name": "a", "type": "conversational", "model": {"model_id": "m", "model_provider": provider,
            "credential": credential, "model_parameters": {"endpoint": endpoint}}})
    };
    let keys = [
        ("anthropic-messages", json!({"api_key": "sk-secret"})),
        ("gemini", json!({"api_key": "g-secret"})),
        ("openai-chat", json!({"api_key": "o-secret"})),
        ("bedrock/converse", json!({"access_key": "AKID", "secret_key": "s", "session_token": "tok-secret"})),
    ];

    // Only loopback, the provider's own host, or --endpoint-allow hosts; http only to loopback.
    for endpoint in ["https://internal.example.com", "https://169.254.169.254", "http://10.0.0.1:8080"] {
        for (provider, credential) in &keys {
            let (status, body) = post_json(&http, &register_url, &agent(provider, credential.clone(), endpoint)).await;
            assert_eq!(status, 400, "{provider} {endpoint}: {body}");
            assert_eq!(body["error"]["details"][0]["path"], "/model/model_parameters/endpoint", "{body}");
        }
    }

    // Every redirect status, every provider: not followed, keys never reach the target, and
    // the untrusted endpoint's body is not passed on.
    for status in [301, 302, 303, 307, 308, 500] {
        let redirector = Redirector { status, target: format!("{target}/steal") };
        let endpoint = serve(Router::new().fallback(redirect).with_state(redirector)).await;
        for (provider, credential) in &keys {
            let (code, body) = post_json(&http, &register_url, &agent(provider, credential.clone(), &endpoint)).await;
            assert_eq!(code, 200, "{body}");
            let id = body["agent_id"].as_str().unwrap();
            let execute = gateway.at(&format!("/_plugins/_ml/agents/{id}/_execute"));
            let (code, body) = post_json(&http, &execute, &json!({"input": "hi"})).await;
            assert_eq!(code, 502, "{provider} {status}: {body}");
            assert_eq!(body["error"]["provider_status"], status, "{body}");
            assert!(!body.to_string().contains("INTERNAL-SECRET"), "{provider} {status} leaked: {body}");
        }
    }
    assert_eq!(hits.load(Ordering::SeqCst), 0, "a redirect was followed");
}

/// Opens `n` connections that send headers one byte at a time, never finishing; returns how
/// many the server closed within `within`.
fn slowloris(address: &str, n: usize, within: Duration) -> usize {
    let mut streams: Vec<TcpStream> = (0..n).filter_map(|_| TcpStream::connect(address).ok()).collect();
    for stream in &mut streams {
        let _ = stream.write_all(b"POST /_plugins/_ml/agents/echo/_execute HTTP/1.1\r\nhost: ");
        stream.set_nonblocking(true).unwrap();
    }
    let deadline = Instant::now() + within;
    let mut closed = vec![false; streams.len()];
    while Instant::now() < deadline && closed.iter().any(|c| !c) {
        for (stream, closed) in streams.iter_mut().zip(closed.iter_mut()) {
            if *closed {
                continue;
            }
            let mut buf = [0_u8; 512];
            match stream.read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if stream.write_all(b"x").is_err() {
                        *closed = true;
                    }
                }
                // The end of the stream, an answer (408) before it, or a reset.
                _ => *closed = true,
            }
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    closed.iter().filter(|c| **c).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_clients_are_cut_off_and_others_are_served_meanwhile() {
    let scratch = Scratch::new("sec-slowloris");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--header-timeout-secs", "2", "--max-connections", "200"]);
    let at = address(&gateway);
    let attacker = {
        let at = at.clone();
        std::thread::spawn(move || slowloris(&at, 150, Duration::from_secs(8)))
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let http = client();
    let started = Instant::now();
    let mut served = 0;
    while started.elapsed() < Duration::from_secs(2) {
        let (status, _) =
            post_json(&http, &gateway.at("/_plugins/_ml/agents/echo/_execute"), &json!({"input": "hi"})).await;
        assert_eq!(status, 200);
        served += 1;
    }
    let closed = tokio::task::spawn_blocking(move || attacker.join().unwrap()).await.unwrap();
    assert_eq!(closed, 150, "every slow connection is closed by the header timeout");
    assert!(served > 10, "only {served} requests served beside the slow clients");
}

#[test]
fn idle_connections_are_closed_and_the_cap_queues_the_rest() {
    let scratch = Scratch::new("sec-idle");
    let gateway = Gateway::start(
        &scratch.path("g.db"),
        &["--header-timeout-secs", "30", "--idle-timeout-secs", "1", "--max-connections", "2"],
    );
    let at = address(&gateway);
    // Two silent connections fill the cap; a third request waits until the idle timeout frees one.
    let silent: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(&at).unwrap()).collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let (status, _) = raw(&at, &format!("GET /_plugins/_ml/agents/echo HTTP/1.1\r\nhost: {at}"), "");
    let waited = started.elapsed();
    assert_eq!(status, 200);
    assert!(waited >= Duration::from_millis(500), "the cap did not hold: answered in {waited:?}");
    assert!(waited < Duration::from_secs(5), "the idle timeout did not free a slot: {waited:?}");
    for mut stream in silent {
        stream.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let mut buf = [0_u8; 16];
        match stream.read(&mut buf) {
            Ok(0) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
            other => panic!("an idle connection stayed open: {other:?}"),
        }
    }
}
