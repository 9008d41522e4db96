use std::collections::BTreeMap;

use crate::model::ExecuteRequest;
use crate::options::{CacheTtl, PromptCache, ResponseFormat, ToolChoice};
use crate::providers::anthropic_messages::request::AnthropicMessages;
use crate::providers::bedrock_converse::request::BedrockConverse;
use crate::providers::common::convert::{ConvertOptions, Provider, ToolSpec};
use crate::providers::gemini::request::Gemini;
use crate::providers::openai_chat::request::OpenAiChat;
use crate::providers::openai_responses::request::OpenAiResponses;
use crate::validate;

use serde::Serialize;
use serde_json::json;
use serde_json::value::RawValue;

fn ours<T: Serialize + ?Sized>(value: &T) -> String {
    let mut out = String::new();
    super::write(value, &mut out, None).unwrap();
    out
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Wire<'a> {
    text: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    absent: Option<u8>,
    present: Option<i64>,
    nothing: Option<()>,
    items: Vec<Item<'a>>,
    tagged: Vec<Tagged<'a>>,
    raw: &'a RawValue,
    tuple: (u8, char, f32),
    bytes: &'a [u8],
    map: BTreeMap<i32, (Unit, u8)>,
    value: serde_json::Value,
    #[serde(flatten)]
    extra: BTreeMap<&'a str, f64>,
}

#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Item<'a> {
    Plain,
    Text(&'a str),
    Pair(u64, i8),
    Named { key: &'a str, n: u16 },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Tagged<'a> {
    Text { text: &'a str },
    Empty,
    Inner(Named),
}

#[derive(Serialize)]
struct Named {
    n: u32,
}

#[derive(Serialize, PartialEq, Eq, PartialOrd, Ord)]
struct Unit;

/// Every shape serde has, strings with every kind of character, numbers at their limits: the
/// bytes `serde_json` writes.
#[test]
fn writes_what_serde_json_writes() {
    let mut all_bytes = String::new();
    for c in (0u8..=0x7f).map(char::from).chain(['é', '東', '🙂', '\u{2028}', '\u{ffff}']) {
        all_bytes.push(c);
    }
    let raw = RawValue::from_string(r#" {"a": [1, "\u00e9"]} "#.trim().to_string()).unwrap();
    let wire = Wire {
        text: &all_bytes,
        absent: None,
        present: Some(i64::MIN),
        nothing: None,
        items: vec![Item::Plain, Item::Text("a\"b"), Item::Pair(u64::MAX, -128), Item::Named { key: "k\n", n: 7 }],
        tagged: vec![Tagged::Text { text: "x" }, Tagged::Empty, Tagged::Inner(Named { n: 0 })],
        raw: &raw,
        tuple: (0, '"', 1.5),
        bytes: &[0, 1, 255],
        map: [(-3, (Unit, 1)), (12, (Unit, 2))].into_iter().collect(),
        value: json!({"k": [null, true, false, 0, -1, 2.5, 1e300, -1e-300, 123_456_789_012u64, "s\u{1}t"], "": {}, "e": []}),
        extra: [("flat", 0.1), ("other \"key\"", f64::NAN)].into_iter().collect(),
    };
    assert_eq!(ours(&wire), serde_json::to_string(&wire).unwrap());
    for text in ["", "a", "\"", "\\\\", "abcdefgh\u{1f}", "12345678\"12345678", "plain text of some length, no escapes"]
    {
        assert_eq!(ours(text), serde_json::to_string(text).unwrap(), "{text:?}");
    }
}

/// Each provider's body as this writer writes it and as `serde_json` does, when it converts.
fn same_bytes<P: Provider>(request: &ExecuteRequest<'_>, options: &ConvertOptions) -> bool {
    let Ok(converted) = P::convert(request, options) else { return false };
    let mut ours = String::new();
    super::write(&converted.body, &mut ours, None).unwrap();
    assert_eq!(ours, serde_json::to_string(&converted.body).unwrap(), "{:?}", P::ID);
    true
}

/// Every provider's body, with every kind of block it takes, escapes, a large payload, system
/// text, every inference field, tools and the request features: the same bytes as
/// `serde_json`.
#[test]
fn every_provider_writes_what_serde_json_writes() {
    let big = "QUJD".repeat(5_000);
    let request = json!({"input": [
        {"role": "system", "content": [{"type": "text", "text": "Be \"brief\"\n\u{1}é\u{2028}"}]},
        {"role": "user", "content": [
            {"type": "text", "text": "plain text ☀ and a \\ backslash"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": format!("iVBORw0KGgoA{big}")}},
            {"type": "image", "source": {"type": "url", "data": "s3://bucket/key.png", "format": "png"}},
            {"type": "document", "name": "résumé (1)", "source": {"type": "base64", "format": "pdf", "data": "JVBERi0xLjQK"}},
            {"type": "video", "source": {"type": "base64", "format": "mp4", "data": "AAAAGGZ0eXBpc29t"}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "calling"}],
         "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": [1, 2.5, \"x\"]}"}}]},
        {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "found"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": "iVBORw0KGgo="}}]},
        {"role": "user", "content": [{"type": "text", "text": "and?"}]}
    ]});
    // Without what only Converse takes (video, `s3://`), for the others.
    let common = json!({"input": [
        {"role": "system", "content": [{"type": "text", "text": "Be \"brief\"\n\u{1}é\u{2028}"}]},
        {"role": "user", "content": [
            {"type": "text", "text": "plain text ☀ and a \\ backslash"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": format!("iVBORw0KGgoA{big}")}},
            {"type": "image", "source": {"type": "url", "data": "https://example.com/a.png", "format": "png"}},
            {"type": "document", "name": "résumé (1)", "source": {"type": "base64", "format": "pdf", "data": "JVBERi0xLjQK"}}]},
        {"role": "assistant", "content": [{"type": "text", "text": "calling"}],
         "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": [1, 2.5, \"x\"]}"}}]},
        {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "found"}]},
        {"role": "user", "content": [{"type": "text", "text": "and?"}]}
    ]});
    let texts = [request.to_string(), common.to_string()];
    let documents: Vec<_> =
        texts.iter().map(|text| validate::parse(text, &validate::Limits::default()).unwrap()).collect();
    let requests: Vec<_> = documents
        .iter()
        .map(|document| validate::validate_request(document, &validate::Options::default()).into_result().unwrap().0)
        .collect();
    let tool = |name: &str, description: Option<&str>| {
        let schema = json!({"type": "object", "properties": {"q": {"type": "string", "description": "a \"q\"",
                "enum": [1, -2.5, 1e300, null, true, false, "x\u{1}", [], {}], "pattern": "^\\d+$"}}});
        ToolSpec::new(name, description.map(Into::into), Some(schema)).into()
    };
    let options = [
        ConvertOptions { tools: vec![tool("lookup", None)], ..ConvertOptions::default() },
        ConvertOptions {
            system: Some("Answer in French.\t".into()),
            max_tokens: Some(77),
            temperature: Some(0.3),
            stop_sequences: vec!["\n\nHuman:".into(), "END".into()],
            tools: vec![tool("lookup", Some("Look it up \"now\"")), tool("other", None)],
            ..ConvertOptions::default()
        },
        ConvertOptions { top_p: Some(0.9), tools: vec![tool("lookup", Some(""))], ..ConvertOptions::default() },
        // The request features: a tool choice, cache points after the system prompt and the
        // tools, and structured output.
        ConvertOptions {
            system: Some("Be brief.".into()),
            tools: vec![tool("lookup", None)],
            tool_choice: Some(ToolChoice::Tool { name: "lookup".into() }),
            prompt_cache: Some(PromptCache { ttl: Some(CacheTtl::OneHour) }),
            response_format: Some(ResponseFormat {
                schema: json!({"type": "object", "properties": {"answer": {"type": "string"}}}),
                name: Some("answer".into()),
                description: Some("The \"answer\"".into()),
                strict: None,
            }),
            ..ConvertOptions::default()
        },
        ConvertOptions {
            tools: vec![tool("lookup", None)],
            tool_choice: Some(ToolChoice::Any),
            prompt_cache: Some(PromptCache { ttl: None }),
            ..ConvertOptions::default()
        },
    ];
    let mut written = [0; 5];
    for request in &requests {
        for options in &options {
            for (n, same) in [
                same_bytes::<BedrockConverse>,
                same_bytes::<OpenAiChat>,
                same_bytes::<OpenAiResponses>,
                same_bytes::<AnthropicMessages>,
                same_bytes::<Gemini>,
            ]
            .iter()
            .enumerate()
            {
                written[n] += usize::from(same(request, options));
            }
        }
    }
    // Each provider wrote the common request with most sets of options at least.
    assert!(written.iter().all(|&n| n >= 3), "{written:?}");
}

#[test]
fn plain_text_and_whether_it_is_ascii() {
    for (text, expected) in [
        ("", Some(false)),
        ("short", Some(false)),
        ("eight by", Some(false)),
        ("a longer text in ASCII only", Some(false)),
        ("a longer text, then é", Some(true)),
        ("é then a longer text", Some(true)),
        ("東京", Some(true)),
        ("a \"quote\" in it", None),
        ("a line\nbreak after eight bytes", None),
        ("a long text ending in a backslash \\", None),
    ] {
        assert_eq!(crate::json::plain(text.as_bytes()), expected, "{text:?}");
    }
}

#[test]
fn leaves_other_map_keys_to_serde_json() {
    let map: BTreeMap<bool, u8> = [(true, 1)].into_iter().collect();
    assert!(super::write(&map, &mut String::new(), None).is_err());
}
