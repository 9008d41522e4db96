//! Throughput of the core's Bedrock `ConverseStream` decoder, on the body the gateway reads:
//! about 19 MB of AWS event-stream frames (text deltas of 20 to 80 characters, as models stream
//! them), fed in 16 KiB chunks. Writes the body to FILE so the same bytes can be decoded by
//! `@smithy/eventstream-codec` (`node tests/agui-client/bench-eventstream.mjs FILE`).
//!
//!     cargo run --release -p agent-gateway --example decoder_throughput [FILE]
//!
//! Prints MB/s (10^6 bytes per second) for the framing alone (prelude, headers, both CRCs) and
//! for the whole decoder (framing, JSON, events, the answer), the best of 7 runs each.

#![allow(clippy::print_stdout)] // a measuring program: its report is its output

mod common;

use std::time::Instant;

use agent_input::ProviderId;
use agent_input::stream::event_stream::EventStreamParser;
use agent_input::stream::{DEFAULT_MAX_FRAME_BYTES, Decoder};
use common::frame;
use serde_json::json;

const CHUNK: usize = 16 * 1024;

fn body() -> (Vec<u8>, usize) {
    let words = ["the ", "weather ", "in ", "Seattle ", "is ", "mild, ", "with ", "rain ", "later ", "today. ☀ "];
    let mut out = frame("messageStart", &json!({"role": "assistant"}));
    let mut deltas = 0;
    let mut i = 0_usize;
    while out.len() < 19_000_000 {
        let mut text = String::new();
        while text.len() < 20 + i % 61 {
            text.push_str(words[(i * 7 + text.len()) % words.len()]);
        }
        out.extend(frame(
            "contentBlockDelta",
            &json!({"contentBlockIndex": 0, "delta": {"text": text}, "p": "abcdefgh"}),
        ));
        deltas += 1;
        i += 1;
    }
    out.extend(frame("contentBlockStop", &json!({"contentBlockIndex": 0})));
    out.extend(frame("messageStop", &json!({"stopReason": "end_turn"})));
    out.extend(frame(
        "metadata",
        &json!({"usage": {"inputTokens": 9, "outputTokens": deltas, "totalTokens": deltas + 9}}),
    ));
    (out, deltas)
}

fn best(runs: usize, mut f: impl FnMut() -> usize) -> f64 {
    (0..runs)
        .map(|_| {
            let start = Instant::now();
            std::hint::black_box(f());
            start.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

fn main() {
    let (body, deltas) = body();
    if let Some(path) = std::env::args().nth(1) {
        std::fs::write(&path, &body).unwrap();
        println!("wrote {path}: {} bytes, {deltas} text deltas", body.len());
    }
    #[allow(clippy::cast_precision_loss)]
    let megabytes = body.len() as f64 / 1e6;
    let framing = best(7, || {
        let mut parser = EventStreamParser::new(DEFAULT_MAX_FRAME_BYTES);
        body.chunks(CHUNK).map(|chunk| parser.feed(chunk).unwrap().len()).sum()
    });
    let decoder = best(7, || {
        let mut decoder = Decoder::new(ProviderId::BedrockConverse);
        let events: usize = body.chunks(CHUNK).map(|chunk| decoder.feed(chunk).unwrap().len()).sum();
        let answer = decoder.finish().unwrap();
        assert_eq!(answer.stop_reason.as_deref(), Some("end_turn"));
        events
    });
    println!("framing (prelude, headers, CRCs): {:.1} MB/s", megabytes / framing);
    println!("whole decoder (framing, JSON, events, answer): {:.1} MB/s", megabytes / decoder);
}
