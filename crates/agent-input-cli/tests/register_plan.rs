//! `agent-input register-plan`: the JSON plan, exit codes, the template preview, and the curl
//! script run with bash against a local stub cluster that records what it receives.

#![allow(clippy::missing_panics_doc)] // test code: panics are failures

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;

use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_agent-input");
const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../agent-input/tests/data/registration/");

fn fixture(name: &str) -> Value {
    let text = std::fs::read_to_string(format!("{DATA}{name}")).expect("fixture");
    serde_json::from_str(&text).expect("fixture is JSON")
}

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    // A usage error exits before reading standard input: a closed pipe then is not a failure.
    if let Err(error) = child.stdin.take().expect("stdin").write_all(stdin.as_bytes()) {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {error}");
    }
    child.wait_with_output().expect("the binary finishes")
}

fn stdout_json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout)
        .unwrap_or_else(|e| panic!("stdout is not JSON ({e}); stderr: {}", String::from_utf8_lossy(&output.stderr)))
}

#[test]
fn json_plan_is_the_fixture_plan() {
    let case = fixture("bedrock_legacy.json");
    let output = run(&["register-plan", "--version", "3.4"], &case["registration"].to_string());
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    let plan = stdout_json(&output);
    assert_eq!(plan["api"], "legacy");
    assert_eq!(plan["steps"], case["expect"]["steps"]);
    assert_eq!(plan["warnings"], json!([]));
}

#[test]
fn default_version_is_the_unified_call() {
    let case = fixture("unified.json");
    let output = run(&["register-plan", "-"], &case["registration"].to_string());
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(stdout_json(&output)["steps"], case["expect"]["steps"]);
}

#[test]
fn problems_exit_1_with_paths_and_codes() {
    let output = run(
        &["register-plan", "--version", "3.4"],
        r#"{"name": "x", "type": "conversational", "model": {"model_id": "m", "model_provider": "anthropic/messages"}}"#,
    );
    assert_eq!(output.status.code(), Some(1));
    let report = stdout_json(&output);
    assert_eq!(report["errors"][0]["code"], "invalid_parameter");
    assert_eq!(report["errors"][0]["path"], "/model/model_provider");
    let curl = run(&["register-plan", "--format", "curl"], "{");
    assert_eq!(curl.status.code(), Some(1));
    assert!(curl.stdout.is_empty(), "no script for a bad body");
    assert!(String::from_utf8_lossy(&curl.stderr).contains("invalid_json"));
}

#[test]
fn a_bad_version_is_a_usage_error() {
    let output = run(&["register-plan", "--version", "three"], "{}");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn preview_prints_the_filled_payload() {
    let cases = fixture("preview.json");
    let case = &cases["cases"][0];
    let request = std::env::temp_dir().join(format!("register-plan-preview-{}.json", std::process::id()));
    std::fs::write(&request, case["request"].to_string()).expect("write request");
    let output =
        run(&["register-plan", "--preview", request.to_str().expect("utf-8 path")], &case["registration"].to_string());
    let _ = std::fs::remove_file(&request);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stdout));
    assert_eq!(stdout_json(&output)["payload"], case["expect"]["payload"]);
}

/// One recorded request.
#[derive(Debug)]
struct Recorded {
    method: String,
    path: String,
    authorization: Option<String>,
    body: Value,
}

/// A stub cluster on 127.0.0.1 answering each request with the next of `answers` (status, body).
fn stub(answers: Vec<(u16, Value)>) -> (String, mpsc::Receiver<Recorded>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    let (sender, receiver) = mpsc::channel();
    thread::spawn(move || {
        for (status, answer) in answers {
            let Ok((stream, _)) = listener.accept() else { return };
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut line = String::new();
            reader.read_line(&mut line).expect("request line");
            let mut parts = line.split_whitespace();
            let (method, path) = (parts.next().unwrap_or("").to_owned(), parts.next().unwrap_or("").to_owned());
            let (mut length, mut authorization, mut expect) = (0usize, None, false);
            loop {
                let mut header = String::new();
                reader.read_line(&mut header).expect("header");
                let header = header.trim_end();
                if header.is_empty() {
                    break;
                }
                let (name, value) = header.split_once(':').unwrap_or((header, ""));
                match name.to_ascii_lowercase().as_str() {
                    "content-length" => length = value.trim().parse().unwrap_or(0),
                    "authorization" => authorization = Some(value.trim().to_owned()),
                    "expect" => expect = value.trim().eq_ignore_ascii_case("100-continue"),
                    _ => {}
                }
            }
            let mut writer = stream;
            if expect {
                writer.write_all(b"HTTP/1.1 100 Continue\r\n\r\n").expect("100");
            }
            let mut body = vec![0; length];
            reader.read_exact(&mut body).expect("body");
            let body = serde_json::from_slice(&body).unwrap_or(Value::Null);
            sender.send(Recorded { method, path, authorization, body }).expect("record");
            let answer = answer.to_string();
            let reason = if status == 200 { "OK" } else { "Bad Request" };
            write!(
                writer,
                "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{answer}",
                answer.len()
            )
            .expect("answer");
        }
    });
    (url, receiver)
}

fn run_script(script: &[u8], url: &str) -> Output {
    let mut child = Command::new("bash")
        .arg("-s")
        .env("OPENSEARCH_URL", url)
        .env("OPENSEARCH_AUTH", "admin:secret")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash starts");
    child.stdin.take().expect("stdin").write_all(script).expect("script");
    child.wait_with_output().expect("bash finishes")
}

#[test]
fn the_curl_script_threads_the_ids_through_a_stub_cluster() {
    let case = fixture("bedrock_legacy.json");
    let plan = run(&["register-plan", "--version", "3.4", "--format", "curl"], &case["registration"].to_string());
    assert_eq!(plan.status.code(), Some(0));
    // ml-commons' answers: connector create, model register (remote: the id at once), agent.
    let (url, recorded) = stub(vec![
        (200, json!({"connector_id": "c-1"})),
        (200, json!({"task_id": "t-1", "status": "CREATED", "model_id": "m-1"})),
        (200, json!({"agent_id": "a-1"})),
    ]);
    let output = run_script(&plan.stdout, &url);
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert_eq!(String::from_utf8_lossy(&output.stdout).trim(), "a-1");
    let calls: Vec<Recorded> = recorded.try_iter().collect();
    let expected = &case["expect"]["steps"];
    assert_eq!(calls.len(), 3);
    for (call, step) in calls.iter().zip(expected.as_array().expect("steps")) {
        assert_eq!(call.method, step["method"]);
        assert_eq!(call.path, step["path"]);
        assert_eq!(call.authorization.as_deref(), Some("Basic YWRtaW46c2VjcmV0"), "admin:secret");
    }
    // The connector arrives exactly as planned: `${parameters.…}` is not expanded by the shell.
    assert_eq!(calls[0].body, expected[0]["body"]);
    assert_eq!(calls[1].body["connector_id"], "c-1");
    assert_eq!(calls[2].body["llm"]["model_id"], "m-1");
    let mut agent = expected[2]["body"].clone();
    agent["llm"]["model_id"] = json!("m-1");
    assert_eq!(calls[2].body, agent);
}

#[test]
fn the_curl_script_stops_at_a_cluster_error() {
    let case = fixture("bedrock_legacy.json");
    let plan = run(&["register-plan", "--version", "3.4", "--format", "curl"], &case["registration"].to_string());
    let error = json!({"error": {"root_cause": [{"type": "illegal_argument_exception", "reason": "Missing credential"}],
        "type": "illegal_argument_exception", "reason": "Missing credential"}, "status": 400});
    let (url, recorded) = stub(vec![(400, error)]);
    let output = run_script(&plan.stdout, &url);
    assert_ne!(output.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&output.stderr).contains("Missing credential"));
    assert_eq!(recorded.try_iter().count(), 1, "nothing is sent after the failed call");
}
