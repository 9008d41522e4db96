//! A streaming provider stub on 127.0.0.1, written on a bare socket so the test decides every
//! write: the answer is sent with chunked transfer encoding in the pieces the test gives, each
//! written and flushed alone (`TCP_NODELAY`), with a pause between them. It records each request
//! and notices when the gateway hangs up before the answer is complete.

#![allow(dead_code, unreachable_pub)]

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::{HeaderMap, HeaderName, HeaderValue};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One request the stub received.
#[derive(Debug, Clone)]
pub struct Seen {
    pub method: String,
    /// The path without the query.
    pub path: String,
    pub query: String,
    pub headers: HeaderMap,
    pub body: String,
}

/// What the stub answers.
#[derive(Debug, Clone)]
pub struct Script {
    pub status: u16,
    pub content_type: &'static str,
    /// The body's pieces, each one write.
    pub pieces: Vec<Vec<u8>>,
    /// Pause before each piece after the first.
    pub pause: Duration,
    /// End the connection without the closing chunk (a provider that dies mid-answer).
    pub cut: bool,
}

impl Script {
    /// `body` in one piece.
    pub fn whole(content_type: &'static str, body: &[u8]) -> Self {
        Self { status: 200, content_type, pieces: vec![body.to_vec()], pause: Duration::ZERO, cut: false }
    }

    /// `body` split at each of `at` (ascending offsets).
    pub fn split(content_type: &'static str, body: &[u8], at: &[usize], pause: Duration) -> Self {
        let mut pieces = Vec::new();
        let mut start = 0;
        for &offset in at.iter().chain(std::iter::once(&body.len())) {
            if offset > start {
                pieces.push(body[start..offset].to_vec());
                start = offset;
            }
        }
        Self { status: 200, content_type, pieces, pause, cut: false }
    }
}

#[derive(Debug, Clone)]
pub struct StreamStub {
    pub url: String,
    seen: Arc<Mutex<Vec<Seen>>>,
    script: Arc<Mutex<Script>>,
    /// Answers the gateway hung up on before their end.
    abandoned: Arc<AtomicUsize>,
    /// Answers written to the end.
    completed: Arc<AtomicUsize>,
}

impl StreamStub {
    pub async fn start(script: Script) -> Self {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let stub = Self {
            url,
            seen: Arc::default(),
            script: Arc::new(Mutex::new(script)),
            abandoned: Arc::default(),
            completed: Arc::default(),
        };
        let shared = stub.clone();
        tokio::spawn(async move {
            while let Ok((socket, _)) = listener.accept().await {
                let stub = shared.clone();
                tokio::spawn(async move { stub.serve(socket).await });
            }
        });
        stub
    }

    pub fn set(&self, script: Script) {
        *self.script.lock().unwrap() = script;
    }

    pub fn seen(&self) -> Vec<Seen> {
        self.seen.lock().unwrap().clone()
    }

    pub fn last(&self) -> Seen {
        self.seen().pop().expect("a request reached the stub")
    }

    pub fn abandoned(&self) -> usize {
        self.abandoned.load(Ordering::SeqCst)
    }

    pub fn completed(&self) -> usize {
        self.completed.load(Ordering::SeqCst)
    }

    async fn serve(&self, mut socket: TcpStream) {
        socket.set_nodelay(true).unwrap();
        let Some(seen) = read_request(&mut socket).await else { return };
        self.seen.lock().unwrap().push(seen);
        let script = self.script.lock().unwrap().clone();
        let reason = if script.status == 200 { "OK" } else { "Error" };
        let head = format!(
            "HTTP/1.1 {} {reason}\r\ncontent-type: {}\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n",
            script.status, script.content_type
        );
        if socket.write_all(head.as_bytes()).await.is_err() {
            self.abandoned.fetch_add(1, Ordering::SeqCst);
            return;
        }
        for (i, piece) in script.pieces.iter().enumerate() {
            if i > 0 && !script.pause.is_zero() {
                tokio::time::sleep(script.pause).await;
            }
            let mut chunk = format!("{:x}\r\n", piece.len()).into_bytes();
            chunk.extend_from_slice(piece);
            chunk.extend_from_slice(b"\r\n");
            if socket.write_all(&chunk).await.is_err() || socket.flush().await.is_err() {
                self.abandoned.fetch_add(1, Ordering::SeqCst);
                return;
            }
        }
        if script.cut {
            let _ = socket.shutdown().await;
            return;
        }
        if socket.write_all(b"0\r\n\r\n").await.is_ok() {
            self.completed.fetch_add(1, Ordering::SeqCst);
        } else {
            self.abandoned.fetch_add(1, Ordering::SeqCst);
        }
        let _ = socket.shutdown().await;
    }
}

/// Reads one request with a `content-length` body.
async fn read_request(socket: &mut TcpStream) -> Option<Seen> {
    let mut buffer = Vec::new();
    let mut byte = [0_u8; 4096];
    let head_end = loop {
        let n = socket.read(&mut byte).await.ok()?;
        if n == 0 {
            return None;
        }
        buffer.extend_from_slice(&byte[..n]);
        if let Some(i) = buffer.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8(buffer[..head_end].to_vec()).ok()?;
    let mut lines = head.split("\r\n");
    let mut request_line = lines.next()?.split(' ');
    let method = request_line.next()?.to_string();
    let target = request_line.next()?.to_string();
    let mut headers = HeaderMap::new();
    for line in lines.filter(|l| !l.is_empty()) {
        let (name, value) = line.split_once(':')?;
        headers.append(
            HeaderName::from_bytes(name.trim().to_ascii_lowercase().as_bytes()).ok()?,
            HeaderValue::from_str(value.trim()).ok()?,
        );
    }
    let length: usize = headers.get("content-length").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok())?;
    let mut body = buffer[head_end..].to_vec();
    while body.len() < length {
        let n = socket.read(&mut byte).await.ok()?;
        if n == 0 {
            return None;
        }
        body.extend_from_slice(&byte[..n]);
    }
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    Some(Seen {
        method,
        path: path.to_string(),
        query: query.to_string(),
        headers,
        body: String::from_utf8(body).ok()?,
    })
}
