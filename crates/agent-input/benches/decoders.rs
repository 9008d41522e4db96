//! Stream decoder throughput: each provider's streaming answer, about 1 MiB of text deltas, fed
//! in 16 KiB chunks (a network read's size) through [`Decoder`] to the final answer, reported as
//! bytes of wire format per second. Two more rows time the framing alone (event-stream frames
//! with both CRCs; SSE lines), the floor under the JSON decoding.
//!
//! The streams are the sample streams of `tests/data/stream/` (written from each provider's
//! documentation) with their first text delta repeated.
//!
//! Run: `cargo bench -p agent-input --bench decoders`

use std::hint::black_box;
use std::sync::LazyLock;

use agent_input::ProviderId;
use agent_input::stream::Decoder;
use agent_input::stream::event_stream::EventStreamParser;
use agent_input::stream::sse::SseParser;
use divan::Bencher;
use divan::counter::BytesCount;

fn main() {
    divan::main();
}

const TARGET: usize = 1024 * 1024;
const CHUNK: usize = 16 * 1024;

fn sample(name: &str) -> Vec<u8> {
    let path = format!("{}/tests/data/stream/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// An SSE sample with its first text-delta event repeated until the body is about [`TARGET`].
fn sse(name: &str, separator: &str) -> Vec<u8> {
    let text = String::from_utf8(sample(name)).expect("UTF-8 sample");
    let events: Vec<&str> = text.split_inclusive(separator).collect();
    let delta = events.iter().position(|e| e.contains("Let me ")).expect("a text delta");
    let copies = TARGET / events[delta].len();
    let mut body = String::new();
    for (i, event) in events.iter().enumerate() {
        let n = if i == delta { copies } else { 1 };
        for _ in 0..n {
            body.push_str(event);
        }
    }
    body.into_bytes()
}

/// The Bedrock sample with its first text-delta frame repeated.
fn event_stream() -> Vec<u8> {
    let frames = EventStreamParser::new(usize::MAX).feed(&sample("bedrock_converse_stream.bin")).expect("frames");
    let delta = frames.iter().position(|m| m.payload.windows(7).any(|w| w == b"Let me ")).expect("a text delta");
    let copies = TARGET / frames[delta].encode().len();
    let mut body = Vec::new();
    for (i, frame) in frames.iter().enumerate() {
        let n = if i == delta { copies } else { 1 };
        for _ in 0..n {
            body.extend(frame.encode());
        }
    }
    body
}

static STREAMS: LazyLock<Vec<(ProviderId, Vec<u8>)>> = LazyLock::new(|| {
    vec![
        (ProviderId::BedrockConverse, event_stream()),
        (ProviderId::OpenAiChat, sse("openai_chat.sse", "\n\n")),
        (ProviderId::OpenAiResponses, sse("openai_responses.sse", "\n\n")),
        (ProviderId::AnthropicMessages, sse("anthropic_messages.sse", "\n\n")),
        (ProviderId::Gemini, sse("gemini.sse", "\r\n\r\n")),
    ]
});

fn stream(provider: ProviderId) -> &'static [u8] {
    &STREAMS.iter().find(|(id, _)| *id == provider).expect("a stream").1
}

#[divan::bench(args = ProviderId::ALL.iter().copied())]
fn decoder(bencher: Bencher, provider: ProviderId) {
    let body = stream(provider);
    bencher.counter(BytesCount::new(body.len())).bench(|| {
        let mut decoder = Decoder::new(provider);
        let mut events = 0;
        for chunk in black_box(body).chunks(CHUNK) {
            events += decoder.feed(chunk).expect("decodes").len();
        }
        let answer = decoder.finish().expect("an answer");
        (events, answer)
    });
}

#[divan::bench]
fn framing_event_stream(bencher: Bencher) {
    let body = stream(ProviderId::BedrockConverse);
    bencher.counter(BytesCount::new(body.len())).bench(|| {
        let mut parser = EventStreamParser::new(agent_input::stream::DEFAULT_MAX_FRAME_BYTES);
        black_box(body).chunks(CHUNK).map(|chunk| parser.feed(chunk).expect("frames").len()).sum::<usize>()
    });
}

#[divan::bench]
fn framing_sse(bencher: Bencher) {
    let body = stream(ProviderId::OpenAiChat);
    bencher.counter(BytesCount::new(body.len())).bench(|| {
        let mut parser = SseParser::new(agent_input::stream::DEFAULT_MAX_FRAME_BYTES);
        black_box(body).chunks(CHUNK).map(|chunk| parser.feed(chunk).expect("events").len()).sum::<usize>()
    });
}
