//! Test helpers: the real `agent-gateway` binary on an ephemeral 127.0.0.1 port, and a scratch
//! directory for its database.

#![allow(dead_code, unreachable_pub)] // each test file uses a different part

pub mod stream_stub;
pub mod stub;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

/// A scratch directory removed on drop.
pub struct Scratch(pub PathBuf);

impl Scratch {
    pub fn new(name: &str) -> Self {
        let dir = std::env::temp_dir().join(format!("agent-gateway-test-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Self(dir)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A running gateway, stopped on drop.
pub struct Gateway {
    child: Child,
    pub url: String,
}

impl Gateway {
    /// Starts the binary with `--listen 127.0.0.1:0 --db DB --quiet` and `extra`, and waits
    /// (at most 20 s) for the URL it prints.
    pub fn start(db: &Path, extra: &[&str]) -> Self {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agent-gateway"))
            .args(["--listen", "127.0.0.1:0", "--quiet", "--db"])
            .arg(db)
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start agent-gateway");
        let stdout = child.stdout.take().unwrap();
        let (sender, receiver) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = sender.send(line);
        });
        let line = receiver.recv_timeout(Duration::from_secs(20)).expect("agent-gateway printed its URL");
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        Self { child, url }
    }

    /// Stops the process with SIGTERM (a graceful shutdown) and waits for it.
    ///
    /// # Panics
    /// The process has not exited 10 s after SIGTERM: a graceful stop that hangs is a failure.
    /// It is killed first, so no process outlives the test.
    pub fn stop(mut self) {
        let _ = Command::new("kill").arg("-TERM").arg(self.child.id().to_string()).status();
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let pid = self.child.id();
        let _ = self.child.kill();
        let _ = self.child.wait();
        panic!(
            "agent-gateway (pid {pid}) did not stop within 10 s of SIGTERM: its graceful shutdown hangs; it was killed"
        );
    }

    /// Kills the process with SIGKILL (no shutdown of any kind) and waits for it.
    pub fn kill9(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn at(&self, path: &str) -> String {
        format!("{}{path}", self.url)
    }
}

impl Drop for Gateway {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn client() -> reqwest::Client {
    reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap()
}

/// POSTs JSON text and returns the status and the body as JSON.
pub async fn post(client: &reqwest::Client, url: &str, body: &str) -> (u16, Value) {
    let response =
        client.post(url).header("content-type", "application/json").body(body.to_string()).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

pub async fn get(client: &reqwest::Client, url: &str) -> (u16, Value) {
    let response = client.get(url).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap_or(Value::Null))
}

/// The `name` output of an `_execute` answer.
pub fn output<'a>(answer: &'a Value, name: &str) -> &'a Value {
    answer["inference_results"][0]["output"]
        .as_array()
        .and_then(|items| items.iter().find(|item| item["name"] == name))
        .unwrap_or_else(|| panic!("no output {name} in {answer}"))
}

/// A 1×1 PNG, base64.
pub const PNG: &str =
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
