//! Import + convert: the four workloads of `pipeline.rs` written as `OpenAI` Chat Completions
//! request bodies (images as `image_url` data URLs, PDFs as `file` parts with a `file_data` data
//! URL, tool calls as `tool_calls` and `tool` messages), each imported and converted to a target
//! and written as the body's JSON text. The same requests as bench/lingua/workloads.mjs, so the
//! figures read beside the npm package's (docs/performance.md, "Import beside Lingua").
//!
//! Run: `cargo bench -p agent-input --bench import`

use std::hint::black_box;
use std::sync::LazyLock;

use agent_input::{Limits, ProviderId, import};
use divan::Bencher;
use divan::counter::BytesCount;
use serde_json::{Value, json};

#[path = "support/payload.rs"]
mod support;

use support::{PDF, PNG, payload};

fn main() {
    divan::main();
}

const TARGETS: [ProviderId; 3] = [ProviderId::AnthropicMessages, ProviderId::Gemini, ProviderId::BedrockConverse];

fn request(messages: &[Value]) -> String {
    json!({"model": "gpt-4o", "messages": messages, "tools": [{"type": "function", "function":
        {"name": "lookup", "description": "Look something up", "parameters": {"type": "object"}}}]})
    .to_string()
}

fn image(data: &str) -> Value {
    json!({"type": "image_url", "image_url": {"url": format!("data:image/png;base64,{data}")}})
}

/// 20,000 small text requests.
static SMALL_TEXT: LazyLock<Vec<String>> = LazyLock::new(|| {
    (0..20_000)
        .map(|i| {
            request(&[
                json!({"role": "user", "content": format!("Question number {i}: what is the capital of France?")}),
            ])
        })
        .collect()
});

/// One request with a 3.5 MB image.
static BIG_IMAGE: LazyLock<String> = LazyLock::new(|| {
    request(&[json!({"role": "user", "content": [
        {"type": "text", "text": "What is in this picture?"},
        image(&payload(PNG, 3_500_000, 7)),
    ]})])
});

/// A 2,000-message conversation.
static LONG_CONVERSATION: LazyLock<String> = LazyLock::new(|| {
    let mut messages = Vec::new();
    for i in 0..1_000 {
        messages.push(json!({"role": "user", "content": format!("Turn {i}: please summarise the previous answer in two sentences and add one new fact.")}));
        messages.push(json!({"role": "assistant", "content": format!("Answer {i}: here is a summary of what we discussed, with one more fact about the topic at hand.")}));
    }
    messages.pop();
    messages.push(json!({"role": "user", "content": "And finally?"}));
    request(&messages)
});

/// 10 turns carrying 20 images of 150 KB and 2 PDFs of 500 KB in all, with tool use.
static MULTIMODAL: LazyLock<String> = LazyLock::new(|| {
    let mut messages = Vec::new();
    let mut seed = 1;
    for turn in 0..10 {
        let mut content = vec![json!({"type": "text", "text": format!("Turn {turn}: compare these.")})];
        for _ in 0..2 {
            seed += 1;
            content.push(image(&payload(PNG, 150_000, seed)));
        }
        if turn % 5 == 0 {
            seed += 1;
            let data = payload(PDF, 500_000, seed);
            content.push(json!({"type": "file", "file": {"filename": format!("report {turn}.pdf"),
                "file_data": format!("data:application/pdf;base64,{data}")}}));
        }
        messages.push(json!({"role": "user", "content": content}));
        if turn < 9 {
            messages
                .push(json!({"role": "assistant", "content": "Noted.", "tool_calls": [{"id": format!("call-{turn}"),
                "type": "function", "function": {"name": "lookup", "arguments": "{\"q\":\"x\"}"}}]}));
            messages.push(json!({"role": "tool", "tool_call_id": format!("call-{turn}"), "content": "found"}));
        }
    }
    request(&messages)
});

/// What a translating server does per request: import the `OpenAI` Chat body, convert it to
/// `to` and write the target's body as JSON text.
fn import_convert(text: &str, to: ProviderId, limits: &Limits) -> usize {
    let translation = import::translate_str(ProviderId::OpenAiChat, text, Some(to), limits);
    assert!(translation.ok, "benchmark input must import and convert: {:?}", translation.errors);
    let body = translation.body.expect("a target was given");
    serde_json::to_string(&body).expect("serializes").len()
}

#[divan::bench(name = "small_text_x20000", args = TARGETS)]
fn small_text(bencher: Bencher, to: ProviderId) {
    let total: usize = SMALL_TEXT.iter().map(String::len).sum();
    let limits = Limits::default();
    bencher
        .counter(BytesCount::new(total))
        .bench(|| SMALL_TEXT.iter().map(|text| import_convert(black_box(text), to, &limits)).sum::<usize>());
}

#[divan::bench(name = "image_3_5mb", args = TARGETS)]
fn big_image(bencher: Bencher, to: ProviderId) {
    let limits = Limits::default();
    bencher.counter(BytesCount::new(BIG_IMAGE.len())).bench(|| import_convert(black_box(&BIG_IMAGE), to, &limits));
}

#[divan::bench(name = "conversation_2000", args = TARGETS)]
fn long_conversation(bencher: Bencher, to: ProviderId) {
    let limits = Limits::default();
    bencher
        .counter(BytesCount::new(LONG_CONVERSATION.len()))
        .bench(|| import_convert(black_box(&LONG_CONVERSATION), to, &limits));
}

#[divan::bench(name = "multimodal_10_turns", args = TARGETS)]
fn multimodal(bencher: Bencher, to: ProviderId) {
    let limits = Limits::default();
    bencher.counter(BytesCount::new(MULTIMODAL.len())).bench(|| import_convert(black_box(&MULTIMODAL), to, &limits));
}
