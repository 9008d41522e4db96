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

    /// As [`Gateway::start`], with `env` set and its standard error kept in the returned [`Log`].
    pub fn start_logged(db: &Path, extra: &[&str], env: &[(&str, &str)]) -> (Self, Log) {
        let mut child = Command::new(env!("CARGO_BIN_EXE_agent-gateway"))
            .args(["--listen", "127.0.0.1:0", "--quiet", "--db"])
            .arg(db)
            .args(extra)
            .envs(env.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start agent-gateway");
        let log = Log::default();
        let stderr = child.stderr.take().unwrap();
        let lines = std::sync::Arc::clone(&log.0);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                eprintln!("{line}");
                lines.lock().unwrap().push(line);
            }
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("agent-gateway printed its URL");
        let url = line
            .split_whitespace()
            .find(|word| word.starts_with("http://"))
            .unwrap_or_else(|| panic!("no URL in {line:?}"))
            .trim_end_matches('/')
            .to_string();
        (Self { child, url }, log)
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

/// The lines a gateway wrote to standard error.
#[derive(Clone, Default)]
pub struct Log(pub std::sync::Arc<std::sync::Mutex<Vec<String>>>);

impl Log {
    /// The first line containing `needle`, waiting for it at most `within`.
    pub fn wait_for(&self, needle: &str, within: Duration) -> String {
        let deadline = std::time::Instant::now() + within;
        loop {
            if let Some(line) = self.0.lock().unwrap().iter().find(|line| line.contains(needle)) {
                return line.clone();
            }
            assert!(std::time::Instant::now() < deadline, "no line with {needle:?} within {within:?}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Base64 of `n` bytes of a made-up image, different for each `seed`.
pub fn image(seed: u8, n: usize) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::from("iVBORw0KGgo"); // PNG's signature
    let mut state = u32::from(seed).wrapping_mul(2_654_435_761).wrapping_add(1);
    while out.len() < n / 3 * 4 {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        out.push(char::from(ALPHABET[(state % 64) as usize]));
    }
    out
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
