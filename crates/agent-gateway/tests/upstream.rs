//! `--upstream`: the gateway validates the agent API and forwards it to a cluster. The cluster is
//! a local stub (127.0.0.1, plain or TLS with a certificate made here) that records every request
//! and answers in ml-commons' shapes; the gateway is the real binary.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use common::Scratch;
use serde_json::{Value, json};
use tokio::sync::Notify;

const USER: &str = "admin";
const PASSWORD: &str = "cluster-Secret-1";
const GATEWAY_TOKEN: &str = "gateway-token";

/// One request the stub cluster received.
#[derive(Debug, Clone)]
struct Seen {
    method: String,
    /// Path and query.
    target: String,
    authorization: Option<String>,
    content_type: Option<String>,
    body: String,
}

#[derive(Clone)]
struct Cluster {
    seen: Arc<Mutex<Vec<Seen>>>,
    /// Lets the stream go on after its first event.
    release: Arc<Notify>,
}

struct Stub {
    url: String,
    cluster: Cluster,
}

impl Stub {
    fn seen(&self) -> Vec<Seen> {
        self.cluster.seen.lock().unwrap().clone()
    }
}

fn opensearch_error(status: u16, kind: &str, reason: &str) -> Response {
    let body = json!({"error": {"root_cause": [{"type": kind, "reason": reason}], "type": kind, "reason": reason},
        "status": status});
    (StatusCode::from_u16(status).unwrap(), [("content-type", "application/json; charset=UTF-8")], body.to_string())
        .into_response()
}

/// Answers as ml-commons does (`RestMLExecuteAction`, `RestMLRegisterAgentAction`, …), after
/// checking the basic credentials as the security plugin does.
async fn answer(State(cluster): State<Cluster>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = String::from_utf8(axum::body::to_bytes(body, 1 << 26).await.unwrap().to_vec()).unwrap();
    let header = |name: &str| parts.headers.get(name).map(|v| v.to_str().unwrap().to_string());
    let target = parts.uri.path_and_query().map(ToString::to_string).unwrap_or_default();
    cluster.seen.lock().unwrap().push(Seen {
        method: parts.method.to_string(),
        target: target.clone(),
        authorization: header("authorization"),
        content_type: header("content-type"),
        body: body.clone(),
    });
    let expected = format!("Basic {}", agent_input::base64::encode(format!("{USER}:{PASSWORD}").as_bytes()));
    if header("authorization").as_deref() != Some(expected.as_str()) {
        return opensearch_error(
            401,
            "security_exception",
            &format!("missing authentication credentials for REST request [{}]", parts.uri.path()),
        );
    }
    let path = parts.uri.path();
    let json_ok = |value: Value| {
        (StatusCode::OK, [("content-type", "application/json; charset=UTF-8")], value.to_string()).into_response()
    };
    match (parts.method.as_str(), path) {
        ("POST", "/_plugins/_ml/agents/_register") => json_ok(json!({"agent_id": "stub-agent-1"})),
        ("POST", "/_plugins/_ml/agents/broken/_execute") => (
            StatusCode::BAD_GATEWAY,
            [("content-type", "text/html")],
            "<html><body><h1>502 Bad Gateway</h1></body></html>",
        )
            .into_response(),
        ("POST", "/_plugins/_ml/agents/stub-agent-1/_execute") => json_ok(json!({"inference_results": [{"output": [
            {"name": "memory_id", "result": "stub-memory-1"},
            {"name": "parent_interaction_id", "result": "stub-message-1"},
            {"name": "response", "result": "Hello from the cluster"}]}]})),
        ("POST", "/_plugins/_ml/agents/stub-agent-1/_execute/stream") => {
            let (sender, receiver) = tokio::sync::mpsc::channel::<Result<String, std::io::Error>>(4);
            let release = Arc::clone(&cluster.release);
            tokio::spawn(async move {
                let event = |e: Value| Ok(format!("data: {e}\n\n"));
                let _ = sender.send(event(json!({"type": "RUN_STARTED", "threadId": "t1", "runId": "r1"}))).await;
                release.notified().await;
                let _ = sender
                    .send(event(json!({"type": "TEXT_MESSAGE_CONTENT", "messageId": "m1", "delta": "Hello"})))
                    .await;
                let _ = sender.send(event(json!({"type": "RUN_FINISHED", "threadId": "t1", "runId": "r1"}))).await;
            });
            let stream = futures_stream(receiver);
            Response::builder()
                .header("content-type", "text/event-stream")
                .header("cache-control", "no-cache")
                .header("set-cookie", "cluster-session=1")
                .body(Body::from_stream(stream))
                .unwrap()
        }
        ("GET", "/_plugins/_ml/agents/stub-agent-1") => json_ok(json!({"name": "Stub agent", "type": "conversational",
                "model": {"model_id": "gpt-4o", "model_provider": "openai/v1/chat/completions"}})),
        ("DELETE", "/_plugins/_ml/agents/stub-agent-1") => {
            json_ok(json!({"_index": ".plugins-ml-agent", "_id": "stub-agent-1", "result": "deleted"}))
        }
        ("GET", "/_plugins/_ml/memory/stub-memory-1/messages") => json_ok(json!({"messages": [
            {"message_id": "stub-message-1", "input": "Hello", "response": "Hello from the cluster"}]})),
        (_, path) if path.starts_with("/_plugins/_ml/agents/") => {
            let id = path.trim_start_matches("/_plugins/_ml/agents/").split('/').next().unwrap_or_default();
            opensearch_error(404, "status_exception", &format!("Failed to find agent with the provided agent id: {id}"))
        }
        _ => opensearch_error(400, "illegal_argument_exception", "stub: unexpected request"),
    }
}

/// The receiver as a stream of body chunks.
fn futures_stream(
    receiver: tokio::sync::mpsc::Receiver<Result<String, std::io::Error>>,
) -> impl futures_core::Stream<Item = Result<String, std::io::Error>> {
    struct Chunks(tokio::sync::mpsc::Receiver<Result<String, std::io::Error>>);
    impl futures_core::Stream for Chunks {
        type Item = Result<String, std::io::Error>;
        fn poll_next(
            mut self: std::pin::Pin<&mut Self>,
            cx: &mut std::task::Context<'_>,
        ) -> std::task::Poll<Option<Self::Item>> {
            self.0.poll_recv(cx)
        }
    }
    Chunks(receiver)
}

fn cluster() -> (Cluster, Router) {
    let cluster = Cluster { seen: Arc::default(), release: Arc::new(Notify::new()) };
    let app = Router::new().fallback(answer).with_state(cluster.clone());
    (cluster, app)
}

/// A plain-http stub cluster.
async fn stub() -> Stub {
    let (cluster, app) = cluster();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    Stub { url, cluster }
}

/// A TLS stub cluster whose certificate is signed by a CA made here; returns the CA's PEM.
async fn tls_stub() -> (Stub, String) {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, KeyPair};
    use tokio_rustls::rustls;

    let ca_key = KeyPair::generate().unwrap();
    let mut ca_params = CertificateParams::new(Vec::<String>::new()).unwrap();
    ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    ca_params.distinguished_name.push(rcgen::DnType::CommonName, "agent-gateway test CA");
    let ca = ca_params.self_signed(&ca_key).unwrap();
    let leaf_key = KeyPair::generate().unwrap();
    let leaf = CertificateParams::new(vec!["127.0.0.1".to_string(), "localhost".to_string()])
        .unwrap()
        .signed_by(&leaf_key, &ca, &ca_key)
        .unwrap();

    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(
            vec![leaf.der().clone()],
            rustls::pki_types::PrivatePkcs8KeyDer::from(leaf_key.serialize_der()).into(),
        )
        .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));

    let (cluster, app) = cluster();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("https://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        loop {
            let Ok((stream, _)) = listener.accept().await else { continue };
            let (acceptor, app) = (acceptor.clone(), app.clone());
            tokio::spawn(async move {
                // A client that refuses the certificate ends the handshake: nothing to serve.
                let Ok(tls) = acceptor.accept(stream).await else { return };
                let service = hyper::service::service_fn(move |request: hyper::Request<hyper::body::Incoming>| {
                    use tower::ServiceExt as _;
                    app.clone().oneshot(request.map(Body::new))
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(tls), service)
                    .await;
            });
        }
    });
    (Stub { url, cluster }, ca.pem())
}

/// The gateway binary with `args` and `env`, stopped on drop.
struct Gateway {
    child: Child,
    url: String,
}

impl Gateway {
    fn start(db: &std::path::Path, args: &[&str], env: &[(&str, &str)]) -> Self {
        let mut command = Command::new(env!("CARGO_BIN_EXE_agent-gateway"));
        command.args(["--listen", "127.0.0.1:0", "--quiet", "--no-echo-agent", "--db"]).arg(db).args(args);
        for (key, value) in env {
            command.env(key, value);
        }
        let mut child = command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = receiver.recv_timeout(Duration::from_secs(20)).expect("agent-gateway printed its URL");
        let url = line.split_whitespace().find(|w| w.starts_with("http://")).unwrap().trim_end_matches('/').to_string();
        Self { child, url }
    }

    fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The gateway in front of `upstream`: its own API behind a bearer token, the cluster's
/// credentials from the environment (user) and a flag (password).
fn gateway(scratch: &Scratch, upstream: &str, extra: &[&str]) -> Gateway {
    let mut args = vec!["--upstream", upstream, "--upstream-password", PASSWORD, "--bearer-token", GATEWAY_TOKEN];
    args.extend_from_slice(extra);
    Gateway::start(&scratch.path("gateway.db"), &args, &[("AGENT_GATEWAY_UPSTREAM_USER", USER)])
}

fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap()
}

async fn post(gateway: &Gateway, path: &str, body: &str) -> reqwest::Response {
    client()
        .post(gateway.at(path))
        .bearer_auth(GATEWAY_TOKEN)
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .unwrap()
}

async fn send(gateway: &Gateway, method: reqwest::Method, path: &str) -> reqwest::Response {
    client().request(method, gateway.at(path)).bearer_auth(GATEWAY_TOKEN).send().await.unwrap()
}

#[tokio::test]
async fn input_the_agents_type_refuses_is_answered_here() {
    let stub = stub().await;
    let scratch = Scratch::new("upstream-agent-type");
    let messages = r#"{"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}"#;
    let refused = |response: Value| {
        assert_eq!(response["error"]["details"][0]["code"], "unsupported_by_agent_type", "{response}");
        assert_eq!(response["error"]["details"][0]["expected"], json!(["ag_ui", "conversational_v2"]));
    };
    // The type from the registration the gateway forwarded: no read of the agent.
    let gateway = gateway(&scratch, &stub.url, &[]);
    let registration = r#"{"name": "W", "type": "conversational", "model": {"model_id": "gpt-4o",
        "model_provider": "openai/v1/chat/completions", "credential": {"openai_api_key": "sk-x"}}}"#;
    assert_eq!(post(&gateway, "/_plugins/_ml/agents/_register", registration).await.status(), 200);
    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute", messages).await;
    assert_eq!(response.status(), 400);
    refused(response.json().await.unwrap());
    assert_eq!(stub.seen().len(), 1, "only the registration reached the cluster");
    drop(gateway);

    // An agent registered elsewhere: read once, then kept; a text goes through.
    let scratch = Scratch::new("upstream-agent-type-read");
    let gateway = self::gateway(&scratch, &stub.url, &[]);
    for _ in 0..2 {
        let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute", messages).await;
        assert_eq!(response.status(), 400);
        refused(response.json().await.unwrap());
    }
    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute", r#"{"input": "Hi"}"#).await;
    assert_eq!(response.status(), 200);
    let seen = stub.seen();
    let targets: Vec<(&str, &str)> = seen[1..].iter().map(|s| (s.method.as_str(), s.target.as_str())).collect();
    assert_eq!(
        targets,
        [("GET", "/_plugins/_ml/agents/stub-agent-1"), ("POST", "/_plugins/_ml/agents/stub-agent-1/_execute")]
    );
}

#[tokio::test]
async fn the_agent_api_is_forwarded_with_the_clusters_credentials() {
    let stub = stub().await;
    let scratch = Scratch::new("upstream-forward");
    let gateway = gateway(&scratch, &stub.url, &[]);

    let registration = r#"{"name": "Weather", "type": "conversational_v2", "model": {"model_id": "gpt-4o",
        "model_provider": "openai/v1/chat/completions", "credential": {"openai_api_key": "sk-x"}}}"#;
    let response = post(&gateway, "/_plugins/_ml/agents/_register", registration).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap(), json!({"agent_id": "stub-agent-1"}));

    let execute = r#"{"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}"#;
    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute", execute).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    assert_eq!(answer["inference_results"][0]["output"][2]["result"], "Hello from the cluster");

    let response = send(&gateway, reqwest::Method::GET, "/_plugins/_ml/agents/stub-agent-1").await;
    assert_eq!(response.json::<Value>().await.unwrap()["name"], "Stub agent");
    let response =
        send(&gateway, reqwest::Method::GET, "/_plugins/_ml/memory/stub-memory-1/messages?max_results=2").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap()["messages"][0]["message_id"], "stub-message-1");
    let response = send(&gateway, reqwest::Method::DELETE, "/_plugins/_ml/agents/stub-agent-1").await;
    assert_eq!(response.json::<Value>().await.unwrap()["result"], "deleted");

    let seen = stub.seen();
    let targets: Vec<(&str, &str)> = seen.iter().map(|s| (s.method.as_str(), s.target.as_str())).collect();
    assert_eq!(
        targets,
        [
            ("POST", "/_plugins/_ml/agents/_register"),
            ("POST", "/_plugins/_ml/agents/stub-agent-1/_execute"),
            ("GET", "/_plugins/_ml/agents/stub-agent-1"),
            ("GET", "/_plugins/_ml/memory/stub-memory-1/messages?max_results=2"),
            ("DELETE", "/_plugins/_ml/agents/stub-agent-1"),
        ]
    );
    // The bodies byte for byte; the cluster's credentials, never the gateway's token.
    assert_eq!(seen[0].body, registration);
    assert_eq!(seen[1].body, execute);
    assert_eq!(seen[1].content_type.as_deref(), Some("application/json"));
    let basic = format!("Basic {}", agent_input::base64::encode(format!("{USER}:{PASSWORD}").as_bytes()));
    for request in &seen {
        assert_eq!(request.authorization.as_deref(), Some(basic.as_str()), "{request:?}");
    }
}

#[tokio::test]
async fn bad_input_is_answered_here_and_never_reaches_the_cluster() {
    let stub = stub().await;
    let scratch = Scratch::new("upstream-local");
    let gateway = gateway(&scratch, &stub.url, &[]);

    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute", r#"{"input": []}"#).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "illegal_argument_exception");
    assert_eq!(body["error"]["details"][0]["code"], "empty_input");

    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute/stream", "{\"input\": ").await;
    assert_eq!(response.status(), 400);
    assert_eq!(response.json::<Value>().await.unwrap()["error"]["details"][0]["code"], "invalid_json");

    // An AG-UI run with an audio part, which ml-commons cannot take.
    let agui = json!({"threadId": "t", "runId": "r", "state": {}, "tools": [], "context": [], "forwardedProps": {},
        "messages": [{"id": "1", "role": "user", "content": [{"type": "audio", "source": {"type": "data",
        "value": "AAAA", "mimeType": "audio/wav"}}]}]});
    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute/stream", &agui.to_string()).await;
    assert_eq!(response.status(), 400, "{:?}", response.text().await);

    // A provider item, whose block type ml-commons' ContentType refuses: refused here, saying so.
    let item = json!({"input": [{"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
        {"role": "assistant", "content": [{"type": "provider_item", "provider": "openai-responses",
            "item": {"type": "web_search_call", "id": "ws_1", "status": "completed"}}]},
        {"role": "user", "content": [{"type": "text", "text": "Tomorrow?"}]}]});
    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute", &item.to_string()).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    let detail = &body["error"]["details"][0];
    assert_eq!(
        (&detail["code"], &detail["path"]),
        (&json!("unsupported_content_type"), &json!("/input/1/content/0/type"))
    );
    assert!(detail["message"].as_str().unwrap().contains("'web_search_call'"), "{detail}");

    let registration =
        r#"{"name": "W", "type": "conversational", "model": {"model_id": "m", "model_provider": "nope"}}"#;
    let response = post(&gateway, "/_plugins/_ml/agents/_register", registration).await;
    assert_eq!(response.status(), 400);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"]["details"].as_array().unwrap().iter().any(|d| d["path"] == "/model/model_provider"),
        "{body}"
    );

    // Only the agent API is forwarded: the cluster's other APIs are not reachable through it.
    let response = send(&gateway, reqwest::Method::GET, "/_plugins/_ml/models/_search").await;
    assert_eq!(response.status(), 404);
    let response = send(&gateway, reqwest::Method::GET, "/_plugins/_ml/memory/..%2F..%2F_cluster/messages").await;
    assert_eq!(response.status(), 404);
    // The gateway's own protections stand in front: no token, no call.
    let response = client().get(gateway.at("/_plugins/_ml/agents/stub-agent-1")).send().await.unwrap();
    assert_eq!(response.status(), 401);

    assert!(stub.seen().is_empty(), "the cluster saw {:?}", stub.seen());
}

#[tokio::test]
async fn cluster_errors_come_back_with_their_status_in_opensearchs_shape() {
    let stub = stub().await;
    let scratch = Scratch::new("upstream-errors");
    let gateway = gateway(&scratch, &stub.url, &[]);

    let response = post(&gateway, "/_plugins/_ml/agents/nope/_execute", r#"{"input": "Hi"}"#).await;
    assert_eq!(response.status(), 404);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["reason"], "Failed to find agent with the provided agent id: nope");
    assert_eq!(body["status"], 404);

    // A load balancer's HTML page is put in OpenSearch's shape, its status kept.
    let response = post(&gateway, "/_plugins/_ml/agents/broken/_execute", r#"{"input": "Hi"}"#).await;
    assert_eq!(response.status(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "upstream_error");
    assert!(body["error"]["reason"].as_str().unwrap().contains("502 Bad Gateway"), "{body}");

    // Wrong cluster credentials: the cluster's 401, passed on.
    let wrong = Gateway::start(
        &scratch.path("wrong.db"),
        &["--upstream", &stub.url, "--upstream-user", USER, "--upstream-password", "wrong"],
        &[],
    );
    let response = client().get(wrong.at("/_plugins/_ml/agents/stub-agent-1")).send().await.unwrap();
    assert_eq!(response.status(), 401);
    assert_eq!(response.json::<Value>().await.unwrap()["error"]["type"], "security_exception");

    // A cluster that does not answer.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let closed_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let down = Gateway::start(&scratch.path("down.db"), &["--upstream", &closed_url], &[]);
    let response = client().get(down.at("/_plugins/_ml/agents/a")).send().await.unwrap();
    assert_eq!(response.status(), 502);
    assert_eq!(response.json::<Value>().await.unwrap()["error"]["type"], "upstream_unreachable");
}

#[tokio::test]
async fn streams_are_passed_through_as_they_arrive() {
    let stub = stub().await;
    let scratch = Scratch::new("upstream-stream");
    let gateway = gateway(&scratch, &stub.url, &[]);

    let mut response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute/stream", r#"{"input": "Hi"}"#).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "text/event-stream");
    assert_eq!(response.headers()["cache-control"], "no-cache");
    assert!(response.headers().get("set-cookie").is_none(), "the cluster's cookies stay with the gateway");
    // The first event arrives while the cluster is still holding the rest back.
    let first = tokio::time::timeout(Duration::from_secs(10), response.chunk()).await.expect("the first event in time");
    let first = String::from_utf8(first.unwrap().unwrap().to_vec()).unwrap();
    assert!(first.starts_with("data: {") && first.contains("RUN_STARTED"), "{first}");
    stub.cluster.release.notify_one();
    let mut rest = String::new();
    while let Some(chunk) = response.chunk().await.unwrap() {
        rest.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    assert!(rest.contains("TEXT_MESSAGE_CONTENT") && rest.contains("RUN_FINISHED"), "{rest}");
    assert_eq!(stub.seen()[0].body, r#"{"input": "Hi"}"#);
}

#[tokio::test]
async fn template_placeholders_are_forwarded_with_a_warning() {
    let stub = stub().await;
    let scratch = Scratch::new("upstream-warning");
    let gateway = gateway(&scratch, &stub.url, &[]);
    let body = r#"{"input": "What is ${parameters.region}?"}"#;
    let response = post(&gateway, "/_plugins/_ml/agents/stub-agent-1/_execute", body).await;
    assert_eq!(response.status(), 200);
    let warning = response.headers()["warning"].to_str().unwrap().to_string();
    assert!(
        warning.starts_with("299 agent-gateway \"template_placeholder at /input: ${parameters.region}"),
        "{warning}"
    );
    // Nothing substituted, nothing changed: the cluster gets the text as written.
    assert_eq!(stub.seen()[0].body, body);
}

#[tokio::test]
async fn a_self_signed_cluster_needs_its_ca() {
    let (stub, ca) = tls_stub().await;
    let scratch = Scratch::new("upstream-tls");
    let ca_file = scratch.path("ca.pem");
    std::fs::write(&ca_file, ca).unwrap();

    let trusting = gateway(&scratch, &stub.url, &["--upstream-ca", ca_file.to_str().unwrap()]);
    let response = post(&trusting, "/_plugins/_ml/agents/stub-agent-1/_execute", r#"{"input": "Hi"}"#).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap()["inference_results"][0]["output"][0]["result"], "stub-memory-1");
    assert_eq!(stub.seen().len(), 1);

    let db = scratch.path("refusing.db");
    let refusing =
        Gateway::start(&db, &["--upstream", &stub.url, "--upstream-user", USER, "--upstream-password", PASSWORD], &[]);
    let response = client()
        .post(refusing.at("/_plugins/_ml/agents/stub-agent-1/_execute"))
        .header("content-type", "application/json")
        .body(r#"{"input": "Hi"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 502);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "upstream_unreachable");
    assert!(body["error"]["reason"].as_str().unwrap().contains("--upstream-ca"), "{body}");
    assert_eq!(stub.seen().len(), 1, "no request got through the refused handshake");
}
