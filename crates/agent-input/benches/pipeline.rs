//! Parse + validate + convert + serialize, on the four workloads of the core issue, reported as
//! throughput of input JSON. Each workload also runs a floor, `serde_json`'s parse and re-serialize
//! of the same text alone, so the cost of validation and conversion reads off side by side.
//!
//! Run: `cargo bench -p agent-input --bench pipeline`

use std::hint::black_box;
use std::sync::LazyLock;

use agent_input::{ConvertOptions, ProviderId, ToolSpec, validate};
use divan::Bencher;
use divan::counter::BytesCount;
use serde_json::json;

#[path = "support/payload.rs"]
mod support;

use support::{PDF, PNG, payload};

fn main() {
    divan::main();
}

/// 20,000 small text requests.
static SMALL_TEXT: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..20_000)
        .map(|i| json!({"input": format!("Question number {i}: what is the capital of France?"), "parameters": {"verbose": true}}).to_string())
        .collect()
});

/// One request with a 3.5 MB image.
static BIG_IMAGE: LazyLock<String> = LazyLock::new(|| {
    json!({"input": [
        {"type": "text", "text": "What is in this picture?"},
        {"type": "image", "source": {"type": "base64", "format": "png", "data": payload(PNG, 3_500_000, 7)}}
    ]})
    .to_string()
});

/// A 2,000-message conversation.
static LONG_CONVERSATION: LazyLock<String> = LazyLock::new(|| {
    let mut messages = Vec::new();
    for i in 0..1_000 {
        messages.push(json!({"role": "user", "content": [{"type": "text", "text": format!("Turn {i}: please summarise the previous answer in two sentences and add one new fact.")}]}));
        messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": format!("Answer {i}: here is a summary of what we discussed, with one more fact about the topic at hand.")}]}));
    }
    messages.pop();
    messages.push(json!({"role": "user", "content": [{"type": "text", "text": "And finally?"}]}));
    json!({"input": messages}).to_string()
});

/// 10 turns carrying 20 images of 150 KB and 2 PDFs of 500 KB in all, with tool use.
static MULTIMODAL: LazyLock<String> = LazyLock::new(|| {
    let mut messages = Vec::new();
    let mut seed = 1;
    for turn in 0..10 {
        let mut content = vec![json!({"type": "text", "text": format!("Turn {turn}: compare these.")})];
        for _ in 0..2 {
            seed += 1;
            content.push(json!({"type": "image", "source": {"type": "base64", "format": "png", "data": payload(PNG, 150_000, seed)}}));
        }
        if turn % 5 == 0 {
            seed += 1;
            content.push(json!({"type": "document", "name": format!("report {turn}.pdf"), "source": {"type": "base64", "format": "pdf", "data": payload(PDF, 500_000, seed)}}));
        }
        messages.push(json!({"role": "user", "content": content}));
        if turn < 9 {
            messages.push(json!({"role": "assistant", "content": [{"type": "text", "text": "Noted."}],
                "toolCalls": [{"id": format!("call-{turn}"), "type": "function", "function": {"name": "lookup", "arguments": "{\"q\":\"x\"}"}}]}));
            messages.push(json!({"role": "tool", "toolCallId": format!("call-{turn}"), "content": [{"type": "text", "text": "found"}]}));
        }
    }
    json!({"input": messages}).to_string()
});

fn options() -> ConvertOptions {
    ConvertOptions {
        tools: vec![ToolSpec::new("lookup", Some("Look something up".into()), Some(json!({"type": "object"}))).into()],
        ..ConvertOptions::default()
    }
}

/// What a server does per request: parse, validate, convert, and write the body into a buffer
/// it reuses from one request to the next.
fn pipeline(text: &str, options: &ConvertOptions, out: &mut String) -> usize {
    let validation = validate::Options::default();
    let document = validate::parse(text, &validation.limits).expect("benchmark input is JSON");
    let (request, _) = validate::validate_request(&document, &validation)
        .into_result()
        .unwrap_or_else(|report| panic!("benchmark input must be valid: {report}"));
    agent_input::convert::convert_into(ProviderId::BedrockConverse, &request, options, false, out)
        .unwrap_or_else(|report| panic!("benchmark input must convert: {report}"));
    out.len()
}

fn floor(text: &str) -> usize {
    let value: serde_json::Value = serde_json::from_str(text).expect("JSON");
    serde_json::to_string(&value).expect("serializes").len()
}

#[divan::bench(name = "small_text_x20000")]
fn small_text(bencher: Bencher) {
    let total: usize = SMALL_TEXT.iter().map(String::len).sum();
    let options = options();
    bencher.counter(BytesCount::new(total)).bench(|| {
        let mut out = String::new();
        let mut n = 0;
        for text in SMALL_TEXT.iter() {
            n += pipeline(black_box(text), &options, &mut out);
        }
        n
    });
}

#[divan::bench(name = "small_text_x20000_floor")]
fn small_text_floor(bencher: Bencher) {
    let total: usize = SMALL_TEXT.iter().map(String::len).sum();
    bencher.counter(BytesCount::new(total)).bench(|| SMALL_TEXT.iter().map(|t| floor(black_box(t))).sum::<usize>());
}

#[divan::bench(name = "image_3_5mb")]
fn big_image(bencher: Bencher) {
    let options = options();
    let mut out = String::new();
    bencher
        .counter(BytesCount::new(BIG_IMAGE.len()))
        .bench_local(move || pipeline(black_box(&BIG_IMAGE), &options, &mut out));
}

#[divan::bench(name = "image_3_5mb_floor")]
fn big_image_floor(bencher: Bencher) {
    bencher.counter(BytesCount::new(BIG_IMAGE.len())).bench(|| floor(black_box(&BIG_IMAGE)));
}

#[divan::bench(name = "conversation_2000")]
fn long_conversation(bencher: Bencher) {
    let options = options();
    let mut out = String::new();
    bencher
        .counter(BytesCount::new(LONG_CONVERSATION.len()))
        .bench_local(move || pipeline(black_box(&LONG_CONVERSATION), &options, &mut out));
}

#[divan::bench(name = "conversation_2000_floor")]
fn long_conversation_floor(bencher: Bencher) {
    bencher.counter(BytesCount::new(LONG_CONVERSATION.len())).bench(|| floor(black_box(&LONG_CONVERSATION)));
}

#[divan::bench(name = "multimodal_10_turns")]
fn multimodal(bencher: Bencher) {
    let options = options();
    let mut out = String::new();
    bencher
        .counter(BytesCount::new(MULTIMODAL.len()))
        .bench_local(move || pipeline(black_box(&MULTIMODAL), &options, &mut out));
}

#[divan::bench(name = "multimodal_10_turns_floor")]
fn multimodal_floor(bencher: Bencher) {
    bencher.counter(BytesCount::new(MULTIMODAL.len())).bench(|| floor(black_box(&MULTIMODAL)));
}
