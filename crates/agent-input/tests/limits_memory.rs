//! The limit cases of `limits.rs` again, each in a child process of its own so its peak memory
//! (`VmHWM` of `/proc/self/status`) and time can be measured: every one must end in its error
//! using little more memory than the input itself occupies, and quickly.
//!
//! Each test re-runs this test binary with `AGENT_INPUT_LIMITS_CASE` set; the child builds the
//! input, runs the case, checks the error and prints its input size, peak memory and time.

#![cfg(target_os = "linux")]

use std::process::Command;
use std::time::{Duration, Instant};

use agent_input::{Code, ConvertOptions, Limits, ProviderId, convert, validate};

const CASE: &str = "AGENT_INPUT_LIMITS_CASE";
const MIB: u64 = 1024 * 1024;

/// What the child measured.
#[derive(Debug)]
struct Measured {
    input_bytes: u64,
    peak_bytes: u64,
    elapsed: Duration,
}

/// Runs `case` here when this process is the child for it; otherwise starts the child and
/// returns what it measured.
fn measure(test: &str, case: fn() -> (usize, Code)) -> Option<Measured> {
    if std::env::var(CASE).is_ok_and(|c| c == test) {
        let started = Instant::now();
        let (input_bytes, code) = case();
        let elapsed = started.elapsed();
        eprintln!("LIMITS {code} input={input_bytes} peak={} micros={}", peak_kib() * 1024, elapsed.as_micros());
        return None;
    }
    let output = Command::new(std::env::current_exe().unwrap())
        .args([test, "--exact", "--nocapture", "--test-threads=1"])
        .env(CASE, test)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{test} failed in its child:\n{stderr}");
    let line = stderr.lines().find(|l| l.starts_with("LIMITS ")).unwrap_or_else(|| panic!("no measurement:\n{stderr}"));
    let field = |name: &str| -> u64 {
        line.split_whitespace()
            .find_map(|w| w.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no {name} in {line}"))
    };
    let measured = Measured {
        input_bytes: field("input"),
        peak_bytes: field("peak"),
        elapsed: Duration::from_micros(field("micros")),
    };
    eprintln!(
        "{test}: input {} KiB, peak RSS {} KiB, {:?}",
        measured.input_bytes / 1024,
        measured.peak_bytes / 1024,
        measured.elapsed
    );
    Some(measured)
}

/// The process's peak resident set in KiB.
fn peak_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// The peak may exceed the input by `overhead_mib` and the time may reach `seconds` (a debug
/// build on a shared machine; release is several times faster).
fn assert_bounded(measured: Option<Measured>, overhead_mib: u64, seconds: u64) {
    let Some(m) = measured else { return };
    assert!(
        m.peak_bytes <= m.input_bytes + overhead_mib * MIB,
        "peak {} bytes for an input of {} bytes: more than {overhead_mib} MiB over",
        m.peak_bytes,
        m.input_bytes
    );
    assert!(m.elapsed <= Duration::from_secs(seconds), "took {:?}", m.elapsed);
}

/// `prefix`, `n` copies of the ASCII `fill`, `suffix`, built in place (no second copy of the
/// filler, and fast in a debug build).
fn wrapped(prefix: &str, fill: u8, n: usize, suffix: &str) -> String {
    let mut bytes = vec![fill; prefix.len() + n + suffix.len()];
    bytes[..prefix.len()].copy_from_slice(prefix.as_bytes());
    bytes[prefix.len() + n..].copy_from_slice(suffix.as_bytes());
    String::from_utf8(bytes).unwrap()
}

fn only_code(report: &agent_input::Report) -> Code {
    assert_eq!(report.errors.len(), 1, "{:?}", report.errors);
    report.errors[0].code
}

#[test]
fn a_200_mb_body_costs_only_itself() {
    assert_bounded(
        measure("a_200_mb_body_costs_only_itself", || {
            let text = wrapped("{\"input\": \"", b'x', 200 * 1024 * 1024, "\"}");
            let code = only_code(&validate::parse(&text, &Limits::default()).unwrap_err());
            assert_eq!(code, Code::TooLarge);
            (text.len(), code)
        }),
        16,
        10,
    );
}

#[test]
fn nesting_100_000_deep_costs_almost_nothing() {
    assert_bounded(
        measure("nesting_100_000_deep_costs_almost_nothing", || {
            let text = format!("{{\"input\": {}\"x\"{}}}", "[".repeat(100_000), "]".repeat(100_000));
            let code = only_code(&validate::parse(&text, &Limits::default()).unwrap_err());
            assert_eq!(code, Code::TooDeep);
            (text.len(), code)
        }),
        16,
        10,
    );
}

#[test]
fn a_100_000_message_conversation_is_refused_cheaply() {
    assert_bounded(
        measure("a_100_000_message_conversation_is_refused_cheaply", || {
            let messages = vec![r#"{"role": "user", "content": "hello"}"#; 100_000].join(",");
            let text = format!("{{\"input\": [{messages}]}}");
            let document = validate::parse(&text, &Limits::default()).unwrap();
            let validation = validate::validate_request(&document, &validate::Options::default());
            let code = only_code(&validation.report);
            assert_eq!(code, Code::TooMany);
            (text.len(), code)
        }),
        // The parsed tree of 100,000 small objects: tens of bytes of input, ~10 words each.
        96,
        20,
    );
}

#[test]
fn a_60_mb_base64_image_is_refused_without_a_copy() {
    assert_bounded(
        measure("a_60_mb_base64_image_is_refused_without_a_copy", || {
            let text = wrapped(
                r#"{"input": [{"type": "text", "text": "Look"}, {"type": "image", "source": {"type": "base64", "format": "png", "data": ""#,
                b'A',
                60 * 1024 * 1024,
                r#""}}]}"#,
            );
            let report = agent_input::convert_str(
                &text,
                ProviderId::BedrockConverse,
                &ConvertOptions::default(),
                &validate::Options::default(),
            )
            .unwrap_err();
            let code = only_code(&report);
            assert_eq!(code, Code::ProviderLimit);
            (text.len(), code)
        }),
        16,
        30,
    );
}

#[test]
fn ten_thousand_documents_are_refused_cheaply() {
    assert_bounded(
        measure("ten_thousand_documents_are_refused_cheaply", || {
            let documents =
                vec![r#"{"type": "document", "source": {"type": "base64", "format": "txt", "data": "aGk="}}"#; 10_000]
                    .join(",");
            let text = format!("{{\"input\": [{{\"type\": \"text\", \"text\": \"Read\"}}, {documents}]}}");
            let document = validate::parse(&text, &Limits::default()).unwrap();
            let options =
                validate::Options { limits: Limits { max_blocks: 20_000, ..Limits::default() }, ..Default::default() };
            let (request, _) = validate::validate_request(&document, &options).into_result().unwrap();
            let report = convert::convert_to_value(ProviderId::BedrockConverse, &request, &ConvertOptions::default())
                .unwrap_err();
            let code = only_code(&report);
            assert_eq!(code, Code::ProviderLimit);
            (text.len(), code)
        }),
        64,
        20,
    );
}
