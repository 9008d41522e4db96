//! A local Bedrock Runtime stub: records each request, verifies `SigV4` signatures with its own
//! canonical-request code (independent of the gateway's), and answers in Converse's format.

#![allow(dead_code, unreachable_pub)]

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

pub const ACCESS_KEY: &str = "AKIDSTUBEXAMPLE";
pub const SECRET_KEY: &str = "stub/secret+KEY/never-returned";
pub const SESSION_TOKEN: &str = "stub-session-token";
pub const API_KEY: &str = "bedrock-api-key-never-returned";
pub const REGION: &str = "us-west-2";

/// One request the stub received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    pub path: String,
    pub headers: HeaderMap,
    pub body: String,
    /// `Ok` when the `SigV4` signature checked out, `Err(why)` otherwise; `None` without `SigV4`.
    pub signature: Option<Result<(), String>>,
}

/// How the stub answers.
#[derive(Debug, Clone)]
pub enum Mode {
    Answer(&'static str),
    Error { status: u16, error_type: &'static str, message: &'static str },
    Sleep(Duration),
}

pub const ANSWER: &str = r#"{"output":{"message":{"role":"assistant","content":[{"text":"Hello from the stub"}]}},"stopReason":"end_turn","usage":{"inputTokens":12,"outputTokens":5,"totalTokens":17},"metrics":{"latencyMs":3}}"#;

#[derive(Debug)]
pub struct Stub {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    mode: Arc<Mutex<Mode>>,
}

impl Stub {
    /// Starts on an ephemeral 127.0.0.1 port, in the test's runtime.
    pub async fn start() -> Self {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let mode = Arc::new(Mutex::new(Mode::Answer(ANSWER)));
        let app = Router::new().fallback(handle).with_state((Arc::clone(&seen), Arc::clone(&mode)));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        tokio::spawn(async move {
            let _ = axum::serve(listener, app).await;
        });
        Self { url, seen, mode }
    }

    pub fn set(&self, mode: Mode) {
        *self.mode.lock().unwrap() = mode;
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }
}

type StubState = (Arc<Mutex<Vec<Seen>>>, Arc<Mutex<Mode>>);

async fn handle(State((seen, mode)): State<StubState>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, 64 << 20).await.unwrap();
    let signature = parts
        .headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .filter(|v| v.starts_with("AWS4-HMAC-SHA256 "))
        .map(|_| {
            verify(parts.method.as_str(), parts.uri.path(), parts.uri.query().unwrap_or(""), &parts.headers, &body)
        });
    let valid = signature.as_ref().is_none_or(Result::is_ok);
    seen.lock().unwrap().push(Seen {
        method: parts.method.to_string(),
        path: parts.uri.path().to_string(),
        headers: parts.headers.clone(),
        body: String::from_utf8(body.to_vec()).unwrap(),
        signature,
    });
    if !valid {
        return error(403, "InvalidSignatureException", "The request signature we calculated does not match");
    }
    let mode = mode.lock().unwrap().clone();
    match mode {
        Mode::Answer(answer) => ([("content-type", "application/json")], answer).into_response(),
        Mode::Error { status, error_type, message } => error(status, error_type, message),
        Mode::Sleep(duration) => {
            tokio::time::sleep(duration).await;
            ([("content-type", "application/json")], ANSWER).into_response()
        }
    }
}

fn error(status: u16, error_type: &str, message: &str) -> Response {
    Response::builder()
        .status(StatusCode::from_u16(status).unwrap())
        .header("content-type", "application/json")
        .header("x-amzn-errortype", format!("{error_type}:http://internal.amazon.com/coral/com.amazon.bedrock/"))
        .header("retry-after", "7")
        .body(Body::from(format!(r#"{{"message":"{message}"}}"#)))
        .unwrap()
}

/// Checks a `SigV4` `Authorization` header against the request, from scratch.
pub fn verify(method: &str, path: &str, query: &str, headers: &HeaderMap, body: &[u8]) -> Result<(), String> {
    let authorization = headers["authorization"].to_str().map_err(|e| e.to_string())?;
    let rest = authorization.strip_prefix("AWS4-HMAC-SHA256 ").ok_or("not SigV4")?;
    let mut credential = "";
    let mut signed_headers = "";
    let mut signature = "";
    for part in rest.split(", ") {
        let (key, value) = part.split_once('=').ok_or("bad authorization part")?;
        match key {
            "Credential" => credential = value,
            "SignedHeaders" => signed_headers = value,
            "Signature" => signature = value,
            other => return Err(format!("unexpected {other}")),
        }
    }
    let scope: Vec<&str> = credential.split('/').collect();
    let [access_key, date, region, service, terminator] = scope[..] else {
        return Err(format!("bad scope {credential}"));
    };
    if access_key != ACCESS_KEY || region != REGION || service != "bedrock" || terminator != "aws4_request" {
        return Err(format!("unexpected scope {credential}"));
    }
    let amz_date = headers.get("x-amz-date").ok_or("no x-amz-date")?.to_str().map_err(|e| e.to_string())?;
    if !amz_date.starts_with(date) || amz_date.len() != 16 {
        return Err(format!("x-amz-date {amz_date} does not match the scope date {date}"));
    }
    let names: Vec<&str> = signed_headers.split(';').collect();
    for required in ["host", "x-amz-date", "content-type"] {
        if !names.contains(&required) {
            return Err(format!("{required} is not signed"));
        }
    }
    if headers.contains_key("x-amz-security-token") && !names.contains(&"x-amz-security-token") {
        return Err("x-amz-security-token is not signed".into());
    }
    // Canonical request: the wire path's segments encoded once more (every service but S3).
    let canonical_path: Vec<String> = path.split('/').map(encode).collect();
    let mut canonical = format!("{method}\n{}\n{query}\n", canonical_path.join("/"));
    for name in &names {
        let values: Vec<String> = headers
            .get_all(*name)
            .iter()
            .map(|v| v.to_str().unwrap_or_default().split_whitespace().collect::<Vec<_>>().join(" "))
            .collect();
        if values.is_empty() {
            return Err(format!("signed header {name} is missing"));
        }
        let _ = writeln!(canonical, "{name}:{}", values.join(","));
    }
    let _ = write!(canonical, "\n{signed_headers}\n{}", hex(&Sha256::digest(body)));
    let to_sign = format!(
        "AWS4-HMAC-SHA256\n{amz_date}\n{date}/{region}/{service}/aws4_request\n{}",
        hex(&Sha256::digest(canonical.as_bytes()))
    );
    let k_date = mac(format!("AWS4{SECRET_KEY}").as_bytes(), date.as_bytes());
    let k_region = mac(&k_date, region.as_bytes());
    let k_service = mac(&k_region, service.as_bytes());
    let k_signing = mac(&k_service, b"aws4_request");
    let expected = hex(&mac(&k_signing, to_sign.as_bytes()));
    if expected == signature { Ok(()) } else { Err(format!("signature mismatch; canonical request was:\n{canonical}")) }
}

fn encode(segment: &str) -> String {
    segment
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect::<Vec<_>>()
        .concat()
}

fn mac(key: &[u8], data: &[u8]) -> Vec<u8> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).unwrap();
    mac.update(data);
    mac.finalize().into_bytes().to_vec()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().fold(String::new(), |mut out, b| {
        let _ = write!(out, "{b:02x}");
        out
    })
}
