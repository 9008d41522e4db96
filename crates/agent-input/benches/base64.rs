//! The base64 validator against the `base64` crate, on the media payloads of the pipeline bench
//! (a 3.5 MB image; four 1 MB images; forty small ones): the project's `check` scans without
//! decoding, the crate can only validate by decoding (`decode_slice` into a reused buffer, so no
//! allocation is counted against it). The outcome decides whether the hand-written validator stays
//! (docs/decisions.md). Throughput is of base64 text.
//!
//! Run: `cargo bench -p agent-input --bench base64`

use std::hint::black_box;
use std::sync::LazyLock;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use divan::Bencher;
use divan::counter::BytesCount;

#[path = "support/payload.rs"]
mod support;

use support::payload;

fn main() {
    divan::main();
}

static WORKLOADS: LazyLock<[(&str, Vec<String>); 3]> = LazyLock::new(|| {
    [
        ("one 3.5 MB image", vec![payload(b"", 3_500_000, 7)]),
        ("four 1 MB images", (0..4).map(|i| payload(b"", 1_000_000, 11 + i)).collect()),
        ("forty 20 KB images", (0..40).map(|i| payload(b"", 20_000, 23 + i)).collect()),
    ]
});

const NAMES: [&str; 3] = ["one 3.5 MB image", "four 1 MB images", "forty 20 KB images"];

fn workload(name: &str) -> &'static [String] {
    &WORKLOADS.iter().find(|(n, _)| *n == name).expect("a workload").1
}

fn bytes(payloads: &[String]) -> BytesCount {
    BytesCount::new(payloads.iter().map(String::len).sum::<usize>())
}

/// The project's validator: one vectorized scan, no output.
#[divan::bench(args = NAMES)]
fn check(bencher: Bencher, name: &str) {
    let payloads = workload(name);
    bencher.counter(bytes(payloads)).bench(|| {
        for data in payloads {
            black_box(agent_input::base64::check(black_box(data)).is_ok());
        }
    });
}

/// The crate: decoding into a buffer reused from one payload to the next.
#[divan::bench(args = NAMES)]
fn crate_decode_slice(bencher: Bencher, name: &str) {
    let payloads = workload(name);
    let mut scratch = vec![0u8; payloads.iter().map(String::len).max().unwrap_or(0)];
    bencher.counter(bytes(payloads)).bench_local(|| {
        for data in payloads {
            black_box(STANDARD.decode_slice(black_box(data), &mut scratch).is_ok());
        }
    });
}

/// The crate: decoding into a new vector, as a caller without a buffer would.
#[divan::bench(args = NAMES)]
fn crate_decode_vec(bencher: Bencher, name: &str) {
    let payloads = workload(name);
    bencher.counter(bytes(payloads)).bench(|| {
        for data in payloads {
            black_box(STANDARD.decode(black_box(data)).is_ok());
        }
    });
}
