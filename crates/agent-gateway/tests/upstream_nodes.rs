//! `--upstream` once per node of a cluster: requests spread over the nodes in service, a node that
//! fails is taken out and probed back, a request goes to another node only when it certainly never
//! reached the first (or is a read), and when no node answers the gateway answers a JSON 502/504
//! within its time limit. Each node is a local stub on 127.0.0.1 that counts what reached it: one
//! that answers as ml-commons does, one that reads a request and then breaks the connection, one
//! that reads it and never answers, and a port where nothing listens.

mod common;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{Request, State};
use axum::response::{IntoResponse, Response};
use common::{Gateway, Scratch};
use serde_json::{Value, json};
use tokio::io::AsyncReadExt;

const EXECUTE: &str = "/_plugins/_ml/agents/a1/_execute";
const MEMORY: &str = "/_plugins/_ml/memory/m1/messages";

/// How a stub node treats a request that reached it.
#[derive(Clone, Copy)]
enum Behaviour {
    /// Answers 200 with its own number, as a node of the cluster would.
    Answers,
    /// Reads the whole request, then resets the connection (a node killed mid-request).
    Breaks,
    /// Reads the whole request and never answers (a node that hangs).
    Hangs,
}

/// A node stub: its URL and how many agent API requests reached it (the gateway's probes of a
/// node out of service, `GET /`, are not counted).
struct Node {
    url: String,
    reached: Arc<AtomicUsize>,
}

impl Node {
    fn reached(&self) -> usize {
        self.reached.load(Ordering::SeqCst)
    }
}

async fn node(number: usize, behaviour: Behaviour) -> Node {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    serve(listener, number, behaviour)
}

fn serve(listener: tokio::net::TcpListener, number: usize, behaviour: Behaviour) -> Node {
    let url = format!("http://{}", listener.local_addr().unwrap());
    let reached = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&reached);
    match behaviour {
        Behaviour::Answers => {
            let app = Router::new().fallback(answer).with_state((number, counter));
            tokio::spawn(async move {
                let _ = axum::serve(listener, app).await;
            });
        }
        Behaviour::Breaks | Behaviour::Hangs => {
            tokio::spawn(async move {
                let mut held = Vec::new();
                while let Ok((mut stream, _)) = listener.accept().await {
                    if read_request(&mut stream).await.contains(" /_plugins/") {
                        counter.fetch_add(1, Ordering::SeqCst);
                    }
                    if matches!(behaviour, Behaviour::Breaks) {
                        // A reset, as when the node's process is killed (a zero linger does not
                        // block the drop).
                        #[allow(deprecated)]
                        let _ = stream.set_linger(Some(Duration::ZERO));
                        drop(stream);
                    } else {
                        held.push(stream);
                    }
                }
            });
        }
    }
    Node { url, reached }
}

async fn answer(State((number, reached)): State<(usize, Arc<AtomicUsize>)>, request: Request) -> Response {
    if request.uri().path().starts_with("/_plugins/") {
        reached.fetch_add(1, Ordering::SeqCst);
    }
    let _ = axum::body::to_bytes(request.into_body(), 1 << 20).await;
    ([("content-type", "application/json")], json!({"node": number}).to_string()).into_response()
}

/// Reads one HTTP/1.1 request: its headers, then as many body bytes as `content-length` says;
/// returns the request line.
async fn read_request(stream: &mut tokio::net::TcpStream) -> String {
    let mut data = Vec::new();
    let mut buffer = [0_u8; 4096];
    loop {
        let Ok(n) = stream.read(&mut buffer).await else { return String::new() };
        if n == 0 {
            return String::new();
        }
        data.extend_from_slice(&buffer[..n]);
        let text = String::from_utf8_lossy(&data);
        if let Some(end) = text.find("\r\n\r\n") {
            let length = text[..end]
                .lines()
                .find_map(|line| {
                    line.to_ascii_lowercase().strip_prefix("content-length:").map(|v| v.trim().to_string())
                })
                .and_then(|v| v.parse::<usize>().ok())
                .unwrap_or(0);
            if data.len() >= end + 4 + length {
                return text.lines().next().unwrap_or_default().to_string();
            }
        }
    }
}

/// A URL where nothing listens (its port was just freed), and the port's listener-to-be.
async fn closed() -> (String, std::net::SocketAddr) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    (format!("http://{address}"), address)
}

fn gateway(scratch: &Scratch, urls: &[&str], extra: &[&str]) -> Gateway {
    let mut args = vec!["--no-echo-agent"];
    for url in urls {
        args.extend(["--upstream", url]);
    }
    args.extend_from_slice(extra);
    Gateway::start(&scratch.path("gateway.db"), &args)
}

async fn call(gateway: &Gateway, method: &str, path: &str) -> (u16, Value) {
    let client = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
    let request = if method == "GET" {
        client.get(gateway.at(path))
    } else {
        client.post(gateway.at(path)).header("content-type", "application/json").body(r#"{"input": "Hello"}"#)
    };
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn requests_take_turns_over_the_nodes() {
    let nodes =
        [node(1, Behaviour::Answers).await, node(2, Behaviour::Answers).await, node(3, Behaviour::Answers).await];
    let scratch = Scratch::new("nodes-turns");
    let urls: Vec<&str> = nodes.iter().map(|n| n.url.as_str()).collect();
    let gateway = gateway(&scratch, &urls, &[]);
    let mut answered_by = Vec::new();
    for k in 0..6 {
        let (status, body) =
            call(&gateway, if k % 2 == 0 { "POST" } else { "GET" }, if k % 2 == 0 { EXECUTE } else { MEMORY }).await;
        assert_eq!(status, 200, "{body}");
        answered_by.push(body["node"].as_u64().unwrap());
    }
    assert_eq!(answered_by, [1, 2, 3, 1, 2, 3]);
    // Bad input is answered by the gateway: no node sees it.
    let client = reqwest::Client::new();
    let refused =
        client.post(gateway.at(EXECUTE)).header("content-type", "application/json").body(r#"{"input": "  "}"#);
    assert_eq!(refused.send().await.unwrap().status(), 400);
    assert_eq!(nodes.iter().map(Node::reached).collect::<Vec<_>>(), [2, 2, 2]);
}

#[tokio::test]
async fn a_node_that_refuses_is_taken_out_and_comes_back_when_it_answers() {
    let first = node(1, Behaviour::Answers).await;
    let (down_url, down_address) = closed().await;
    let third = node(3, Behaviour::Answers).await;
    let scratch = Scratch::new("nodes-refused");
    let gateway = gateway(&scratch, &[&first.url, &down_url, &third.url], &[]);
    // Every request is answered: a refused connection never reached node 2, so the write goes on
    // to the next node.
    for _ in 0..6 {
        let (status, body) = call(&gateway, "POST", EXECUTE).await;
        assert_eq!(status, 200, "{body}");
    }
    assert_eq!(first.reached() + third.reached(), 6);
    assert!(first.reached() >= 2 && third.reached() >= 2, "the others share the load");

    // Node 2 starts: the probe puts it back in service, and it takes its turn again.
    let back = serve(tokio::net::TcpListener::bind(down_address).await.unwrap(), 2, Behaviour::Answers);
    let started = Instant::now();
    while back.reached() == 0 {
        assert!(started.elapsed() < Duration::from_secs(20), "node 2 never came back in service");
        let (status, _) = call(&gateway, "GET", MEMORY).await;
        assert_eq!(status, 200);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_write_that_may_have_reached_a_node_is_never_sent_again_a_read_is() {
    let broken = node(1, Behaviour::Breaks).await;
    let healthy = node(2, Behaviour::Answers).await;
    let scratch = Scratch::new("nodes-broken");
    // The first request goes to node 1, which reads it and breaks the connection.
    let gateway = gateway(&scratch, &[&broken.url, &healthy.url], &[]);
    let (status, body) = call(&gateway, "POST", EXECUTE).await;
    assert_eq!(status, 502, "{body}");
    assert_eq!(body["error"]["type"], "upstream_unreachable");
    assert!(body["error"]["reason"].as_str().unwrap().contains("may have reached the cluster"), "{body}");
    assert_eq!((broken.reached(), healthy.reached()), (1, 0), "the _execute ran at most once");

    // A read is sent again, to the next node.
    let scratch = Scratch::new("nodes-broken-read");
    let gateway_for_reads = self::gateway(&scratch, &[&broken.url, &healthy.url], &[]);
    let (status, body) = call(&gateway_for_reads, "GET", MEMORY).await;
    assert_eq!((status, &body["node"]), (200, &json!(2)), "{body}");
    assert_eq!((broken.reached(), healthy.reached()), (2, 1));
}

#[tokio::test]
async fn when_no_node_answers_the_gateway_answers_a_json_error_in_time() {
    let (one, _) = closed().await;
    let (two, _) = closed().await;
    let scratch = Scratch::new("nodes-none");
    let gateway = gateway(&scratch, &[&one, &two], &[]);
    for method in ["POST", "GET"] {
        let path = if method == "POST" { EXECUTE } else { MEMORY };
        let (status, body) = call(&gateway, method, path).await;
        assert_eq!(status, 502, "{body}");
        assert_eq!(body["error"]["type"], "upstream_unreachable");
        assert_eq!(body["status"], 502);
        let reason = body["error"]["reason"].as_str().unwrap();
        assert!(reason.contains("2 tried") && reason.contains(&one) && reason.contains(&two), "{reason}");
    }

    // A node that reads the request and never answers: 504 once the read timeout passes, well
    // inside the request's time limit; the write is not sent to the other node.
    let hanging = node(1, Behaviour::Hangs).await;
    let other = node(2, Behaviour::Answers).await;
    let scratch = Scratch::new("nodes-hang");
    let gateway = self::gateway(
        &scratch,
        &[&hanging.url, &other.url],
        &["--provider-timeout-secs", "1", "--request-timeout-secs", "10"],
    );
    let started = Instant::now();
    let (status, body) = call(&gateway, "POST", EXECUTE).await;
    assert_eq!(status, 504, "{body}");
    assert_eq!(body["error"]["type"], "upstream_unreachable");
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!((hanging.reached(), other.reached()), (1, 0));
}
