//! Property tests: no input makes the library panic, every reported path points into the request,
//! and every valid input either converts into a body that keeps Bedrock's rules or fails with
//! conversion errors.

#![allow(clippy::format_push_string, clippy::missing_panics_doc)] // test code: panics are failures

use agent_input::{Code, ConvertOptions, Path, ProviderId, Segment, Severity, ToolSpec, convert, validate};
use proptest::prelude::*;
use serde_json::{Map, Value, json};

/// The fuzz targets' independent Converse rule checker, run here too.
#[allow(unreachable_pub, dead_code)]
#[path = "../../../fuzz/src/rules.rs"]
mod rules;
use rules::converse as converse_rules;

fn arbitrary_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        prop_oneof![
            "[a-zA-Z0-9 +/=:.]{0,12}",
            Just("text".to_string()),
            Just("image".to_string()),
            Just("base64".to_string()),
            Just("url".to_string()),
            Just("user".to_string()),
            Just("assistant".to_string()),
            Just("tool".to_string()),
            Just("PNG".to_string()),
            Just("iVBORw0KGgo=".to_string()),
            Just("s3://bucket-a/k".to_string()),
            Just("https://x.test/a".to_string()),
            Just("data:image/png;base64,iVBORw0KGgo=".to_string()),
            Just("{\"a\":1}".to_string()),
            ".{0,6}",
        ]
        .prop_map(Value::String),
    ];
    let keys = prop_oneof![
        Just("input"),
        Just("parameters"),
        Just("question"),
        Just("type"),
        Just("text"),
        Just("source"),
        Just("format"),
        Just("data"),
        Just("role"),
        Just("content"),
        Just("toolCalls"),
        Just("toolCallId"),
        Just("id"),
        Just("function"),
        Just("name"),
        Just("arguments"),
        Just("image"),
        Just("x~/y"),
    ];
    leaf.prop_recursive(6, 64, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((keys.clone(), inner), 0..6).prop_map(|entries| Value::Object(
                entries.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>()
            )),
        ]
    })
}

/// Whether `path` (or, for a missing key, its parent) exists in `value`.
fn resolves(value: &Value, path: &Path, code: Code) -> bool {
    let segments = path.segments();
    let check = if matches!(code, Code::MissingField) && !segments.is_empty() {
        &segments[..segments.len() - 1]
    } else {
        segments
    };
    let mut current = value;
    for segment in check {
        current = match (segment, current) {
            (Segment::Key(k), Value::Object(map)) => match map.get(k.as_ref()) {
                Some(v) => v,
                None => return false,
            },
            (Segment::Index(i), Value::Array(items)) => match items.get(*i) {
                Some(v) => v,
                None => return false,
            },
            _ => return false,
        };
    }
    true
}

fn tools() -> ConvertOptions {
    ConvertOptions { tools: vec![ToolSpec::new("get_weather", None, None).into()], ..ConvertOptions::default() }
}

/// Structural rules of a Converse body (`fuzz/src/converse_rules.rs`).
fn check_converse(body: &Value) -> Result<(), String> {
    let problems = converse_rules::violations(body);
    if !problems.is_empty() {
        return Err(problems.join("; "));
    }
    let messages = body["messages"].as_array().ok_or("messages missing")?;
    let mut names = std::collections::HashSet::new();
    let mut previous = "";
    let mut pending_uses: Vec<String> = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        let role = message["role"].as_str().ok_or("role missing")?;
        if i == 0 && role != "user" {
            return Err("first message is not user".into());
        }
        if role == previous {
            return Err(format!("roles do not alternate at {i}"));
        }
        previous = role;
        let content = message["content"].as_array().ok_or("content missing")?;
        if content.is_empty() {
            return Err(format!("empty content at {i}"));
        }
        let ids = |kind: &str| -> Vec<String> {
            content.iter().filter_map(|b| b[kind]["toolUseId"].as_str().map(str::to_string)).collect()
        };
        let mut results = ids("toolResult");
        results.sort();
        pending_uses.sort();
        if role == "user" && results != pending_uses {
            return Err(format!("tool results {results:?} at {i} do not answer the calls {pending_uses:?}"));
        }
        let leading_results = content.iter().take_while(|b| b.get("toolResult").is_some()).count();
        if leading_results != results.len() {
            return Err(format!("tool results are not first in message {i}"));
        }
        pending_uses = if role == "assistant" { ids("toolUse") } else { Vec::new() };
        for block in content {
            let object = block.as_object().ok_or("block is not an object")?;
            if object.len() != 1 {
                return Err(format!("block has {} members", object.len()));
            }
            if let Some(text) = block.get("text")
                && text.as_str().is_none_or(|t| t.trim().is_empty())
            {
                return Err("blank text".into());
            }
            if let Some(document) = block.get("document") {
                let name = document["name"].as_str().ok_or("document without name")?;
                let legal = !name.is_empty()
                    && name.len() <= 200
                    && !name.contains("  ")
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || " -()[]".contains(c));
                if !legal || !names.insert(name.to_ascii_lowercase()) {
                    return Err(format!("bad or duplicate document name {name:?}"));
                }
                if role != "user" {
                    return Err("document outside a user turn".into());
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_json_validates_without_panicking(value in arbitrary_json()) {
        let document = validate::document(&value);
        for validation in [
            validate::validate_request(&document, &validate::Options::default()),
            validate::validate_input(&document, &validate::Options::default()),
        ] {
            prop_assert_eq!(validation.is_valid(), validation.report.errors.is_empty());
            for d in &validation.report.errors {
                prop_assert_eq!(d.severity(), Severity::Error);
                prop_assert!(!d.message.is_empty());
                prop_assert!(resolves(&value, &d.path, d.code) || resolves(&value["input"], &d.path, d.code),
                    "{} at {} does not point into {}", d.code, d.path, value);
            }
            let summary = serde_json::to_value(validation.summary()).unwrap();
            prop_assert_eq!(&summary["valid"], &json!(validation.is_valid()));
            if let Some(request) = &validation.request {
                let _ = request.input.question();
                match convert::convert_to_value(ProviderId::BedrockConverse, request, &tools()) {
                    Ok(converted) => prop_assert!(check_converse(&converted.body).is_ok(), "{:?}", check_converse(&converted.body)),
                    Err(report) => prop_assert!(!report.errors.is_empty()),
                }
            }
        }
    }

    #[test]
    fn arbitrary_text_parses_or_reports(text in ".{0,64}", bytes in prop::collection::vec(any::<u8>(), 0..64)) {
        let limits = agent_input::Limits::default();
        let _ = validate::parse(&text, &limits);
        let lossy = String::from_utf8_lossy(&bytes);
        if let Err(report) = validate::parse(&lossy, &limits) {
            prop_assert!(report.errors.iter().all(|e| matches!(e.code, Code::InvalidJson | Code::TooDeep)));
        }
    }
}

fn valid_block() -> impl Strategy<Value = Value> + Clone {
    prop_oneof![
        "[a-zA-Z][a-zA-Z ?.]{0,20}".prop_map(|t| json!({"type": "text", "text": t})),
        (prop::sample::select(vec!["png", "PNG", "jpg", "gif", "webp"]), prop::bool::ANY).prop_map(|(f, s3)| if s3 {
            json!({"type": "image", "source": {"type": "url", "format": f, "data": "s3://my-bucket/cat.png"}})
        } else {
            json!({"type": "image", "source": {"type": "base64", "format": f, "data": "AAAA"}})
        }),
        (prop::option::of("[a-zA-Z0-9 ._'&\u{e9}]{0,12}"), prop::sample::select(vec!["pdf", "txt", "md", "htm"]))
            .prop_map(|(name, f)| {
                let mut block =
                    json!({"type": "document", "source": {"type": "base64", "format": f, "data": "aGVsbG8="}});
                if let Some(name) = name {
                    block["name"] = json!(name);
                }
                block
            }),
        prop::sample::select(vec!["mp4", "3gp", "mkv"])
            .prop_map(|f| json!({"type": "video", "source": {"type": "url", "format": f, "data": "s3://my-bucket/v"}})),
    ]
}

/// One step of a conversation: a message, or a tool call with its answer (sometimes broken on
/// purpose: a result for another id).
fn valid_step() -> impl Strategy<Value = Vec<Value>> {
    let content = prop::collection::vec(valid_block(), 1..4);
    prop_oneof![
        content.clone().prop_map(|c| vec![json!({"role": "user", "content": c})]),
        content.clone().prop_map(|c| vec![json!({"role": "User", "content": c})]),
        content.clone().prop_map(|c| vec![json!({"role": "system", "content": c})]),
        content.clone().prop_map(|c| vec![json!({"role": "assistant", "content": c})]),
        ("[a-z_]{1,8}", any::<bool>(), content.clone()).prop_map(|(id, matched, c)| vec![
            json!({"role": "assistant", "toolCalls": [{"id": id, "function": {"name": "get_weather", "arguments": "{\"city\":\"x\"}"}}]}),
            json!({"role": "tool", "toolCallId": if matched { id } else { "other".to_string() }, "content": c}),
        ]),
        content.prop_map(|c| vec![json!({"role": "tool", "toolCallId": "call-1", "content": c})]),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn valid_conversations_convert_or_fail_with_conversion_errors(steps in prop::collection::vec(valid_step(), 1..8), prefill in any::<bool>()) {
        let mut messages: Vec<Value> = steps.into_iter().flatten().collect();
        if !prefill {
            messages.push(json!({"role": "user", "content": [{"type": "text", "text": "And now?"}]}));
        }
        let request = json!({"input": messages});
        let options = validate::Options { allow_prefill: prefill, ..validate::Options::default() };
        let document = validate::document(&request);
        let validation = validate::validate_request(&document, &options);
        if validation.report.errors.iter().any(|e| e.code == Code::LastMessageRole) {
            return Ok(());
        }
        prop_assert!(validation.is_valid(), "{}", validation.report);
        let (request, _) = validation.into_result().unwrap();
        match convert::convert_to_value(ProviderId::BedrockConverse, &request, &tools()) {
            Ok(converted) => prop_assert!(check_converse(&converted.body).is_ok(), "{:?} in {}", check_converse(&converted.body), converted.body),
            Err(report) => {
                for e in &report.errors {
                    prop_assert!(matches!(e.code,
                        Code::FirstMessageNotUser | Code::MediaNotAllowedInRole | Code::DocumentRequiresText
                        | Code::ProviderLimit | Code::InvalidForProvider | Code::UnansweredToolCall
                        | Code::UnmatchedToolResult), "unexpected {e}");
                }
            }
        }
    }

    #[test]
    fn serialized_input_validates_to_the_same_input(blocks in prop::collection::vec(valid_block(), 1..6)) {
        let value = json!(blocks);
        let document = validate::document(&value);
        let first = validate::validate_input(&document, &validate::Options::default());
        let (request, _) = first.into_result().unwrap();
        let written = serde_json::to_string(&request.input).unwrap();
        let document = validate::parse(&written, &agent_input::Limits::default()).unwrap();
        let second = validate::validate_input(&document, &validate::Options::default());
        prop_assert!(second.report.warnings.is_empty(), "canonical form has warnings: {}", second.report);
        let (again, _) = second.into_result().unwrap();
        prop_assert_eq!(again.input, request.input);
    }
}

/// The checker itself catches what Bedrock rejects (a checker that passes everything proves nothing).
#[test]
fn catches_what_bedrock_rejects() {
    let good =
        json!({"messages": [{"role": "user", "content": [{"text": "hi"}]}], "inferenceConfig": {"maxTokens": 4096}});
    assert!(converse_rules::violations(&good).is_empty());
    for bad in [
        json!({"messages": []}),
        json!({"messages": [{"role": "assistant", "content": [{"text": "hi"}]}]}),
        json!({"messages": [{"role": "user", "content": [{"text": " "}]}]}),
        json!({"messages": [{"role": "user", "content": [{"image": {"format": "jpg", "source": {"bytes": "aGk="}}}]}]}),
        json!({"messages": [{"role": "user", "content": [{"text": "a"}, {"document": {"format": "pdf", "name": "a  b", "source": {"bytes": "aGk="}}}]}]}),
        json!({"messages": [{"role": "user", "content": [{"document": {"format": "pdf", "name": "a", "source": {"bytes": "aGk="}}}]}]}),
        json!({"messages": [{"role": "user", "content": [{"image": {"format": "png", "source": {"s3Location": "s3://b/k"}}}]}]}),
        json!({"messages": [{"role": "user", "content": [{"text": "a"}]}, {"role": "user", "content": [{"text": "b"}]}]}),
        json!({"messages": [{"role": "user", "content": [{"text": "a", "image": {}}]}]}),
    ] {
        assert!(!converse_rules::violations(&bad).is_empty(), "{bad}");
    }
}
