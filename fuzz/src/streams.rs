//! The stream decoders under arbitrary bytes and arbitrary chunking.
//!
//! An input is one byte choosing the provider and the mode, two bytes seeding the chunking, and
//! the body. In the framed mode (Bedrock only) the body is lines `<event-type> <JSON payload>`
//! (`!<exception-type> <payload>` for an exception), each written as a real event-stream frame
//! with valid checksums, so the fuzzer reaches the event decoding behind the CRCs.

use agent_input::ProviderId;
use agent_input::agui::events::{Event, RunEvents};
use agent_input::response::ProviderResponse;
use agent_input::stream::event_stream::{HeaderValue, Message};
use agent_input::stream::{Decoder, StreamError, StreamEvent};

/// A decoded fuzz input.
pub struct Case {
    /// The decoder's provider.
    pub provider: ProviderId,
    /// The body, as the network gives it.
    pub body: Vec<u8>,
    /// Ascending cut offsets into `body`.
    pub cuts: Vec<usize>,
}

/// Reads a fuzz input; `None` when it is too short.
pub fn case(data: &[u8]) -> Option<Case> {
    let (&[mode, a, b], rest) = data.split_first_chunk::<3>()?;
    let provider = ProviderId::ALL[usize::from(mode & 0x7f) % ProviderId::ALL.len()];
    let body = if mode & 0x80 != 0 && provider == ProviderId::BedrockConverse { frames(rest) } else { rest.to_vec() };
    let cuts = cuts(u16::from_le_bytes([a, b]), body.len());
    Some(Case { provider, body, cuts })
}

/// Writes `<event-type> <payload>` lines as event-stream frames.
pub fn frames(lines: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in lines.split(|&b| b == b'\n') {
        let split = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
        let (name, payload) = (String::from_utf8_lossy(&line[..split]), line.get(split + 1..).unwrap_or_default());
        let string = |key: &str, value: &str| (key.to_string(), HeaderValue::String(value.to_string()));
        let headers = match name.strip_prefix('!') {
            Some(exception) => vec![string(":message-type", "exception"), string(":exception-type", exception)],
            None => vec![
                string(":event-type", &name),
                string(":content-type", "application/json"),
                string(":message-type", "event"),
            ],
        };
        out.extend(Message { headers, payload: payload.to_vec() }.encode());
    }
    out
}

/// Cut offsets from a seed: pieces of 1 to 8 bytes when the seed is odd (every frame split many
/// times), up to 4 KiB otherwise.
fn cuts(seed: u16, len: usize) -> Vec<usize> {
    let max = if seed & 1 == 1 { 8 } else { 4096 };
    let mut state = u32::from(seed) | 0x1_0000;
    let mut at = 0;
    let mut cuts = Vec::new();
    loop {
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        at += 1 + state as usize % max;
        if at >= len {
            return cuts;
        }
        cuts.push(at);
    }
}

/// What a decoder made of a body fed in pieces.
#[derive(Debug)]
pub struct Decoded {
    /// The events, up to the first error.
    pub events: Vec<StreamEvent>,
    /// Whether a `feed` failed (rather than `finish`).
    pub feed_failed: bool,
    /// The final answer or the error.
    pub result: Result<ProviderResponse, StreamError>,
}

/// Feeds `body` cut at `cuts`, then finishes.
pub fn decode(provider: ProviderId, body: &[u8], cuts: &[usize]) -> Decoded {
    let mut decoder = Decoder::new(provider);
    let mut events = Vec::new();
    let mut from = 0;
    for &cut in cuts.iter().chain(std::iter::once(&body.len())) {
        match decoder.feed(&body[from..cut]) {
            Ok(more) => events.extend(more),
            Err(error) => {
                // The decoder stays failed.
                assert_eq!(decoder.feed(b"more").unwrap_err(), error);
                return Decoded { events, feed_failed: true, result: Err(error) };
            }
        }
        from = cut;
    }
    Decoded { events, feed_failed: false, result: decoder.finish() }
}

/// The invariants: no panic, and the same outcome whatever the chunking; the events make a
/// well-formed AG-UI run.
pub fn check(case: &Case) {
    let whole = decode(case.provider, &case.body, &[]);
    let cut = decode(case.provider, &case.body, &case.cuts);
    assert_eq!(whole.feed_failed, cut.feed_failed, "{whole:?}\n{cut:?}");
    match (&whole.result, &cut.result) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        // How much of an over-long frame was seen depends on where the chunk ended.
        (Err(StreamError::TooLarge { limit: a, .. }), Err(StreamError::TooLarge { limit: b, .. })) => {
            assert_eq!(a, b);
        }
        (Err(a), Err(b)) => assert_eq!(a, b),
        (a, b) => panic!("whole: {a:?}\ncut: {b:?}"),
    }
    if !whole.feed_failed {
        assert_eq!(whole.events, cut.events);
    }
    agui_run(&cut.events, cut.result.as_ref().err());
}

/// The AG-UI events for a decoded stream: `RUN_STARTED` first, exactly one terminal event, last.
fn agui_run(events: &[StreamEvent], error: Option<&StreamError>) {
    let mut run = RunEvents::new("thread", "run");
    let mut out = run.start();
    for event in events {
        out.extend(run.on(event));
    }
    out.extend(match error {
        Some(error) => run.fail(error.to_string(), Some(error.code().to_string())),
        None => run.finish(),
    });
    assert!(run.ended());
    assert!(matches!(out.first(), Some(Event::RunStarted { .. })), "{out:?}");
    let terminal = |e: &Event| matches!(e, Event::RunFinished { .. } | Event::RunError { .. });
    assert_eq!(out.iter().filter(|e| terminal(e)).count(), 1, "{out:?}");
    assert!(out.last().is_some_and(terminal), "{out:?}");
    for event in &out {
        serde_json::to_string(event).expect("an AG-UI event serializes");
    }
}
