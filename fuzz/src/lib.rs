//! Shared parts of the fuzz targets: an `arbitrary` generator of plausible (and implausible)
//! execute requests, the providers' rule checkers, and the pipeline every target runs.

pub mod agui;
pub mod rules;
pub mod streams;

use agent_input::{
    Code, ConvertOptions, ProviderFields, ProviderId, ProviderItem, ToolEntry, ToolSpec, convert, validate,
};
use arbitrary::{Arbitrary, Unstructured};
use serde_json::{Map, Value, json};

/// The codes a conversion may fail with (docs/errors.md, "Errors found by conversion").
pub const CONVERSION_CODES: &[Code] = &[
    // Text of only Unicode spaces, which Bedrock rejects as blank (the validator trims as Java).
    Code::EmptyText,
    Code::UrlNotSupportedByProvider,
    Code::UnsupportedByProvider,
    Code::ToolConfigRequired,
    Code::FirstMessageNotUser,
    Code::RoleNotSupported,
    Code::MediaNotAllowedInRole,
    Code::DocumentRequiresText,
    Code::UnansweredToolCall,
    Code::UnmatchedToolResult,
    Code::InvalidForProvider,
    Code::ProviderLimit,
    Code::InvalidParameter,
];

/// Parses, validates and (when valid) converts `text` for every provider, asserting the
/// invariants: no panic (the fuzzer catches those), conversion fails only with conversion codes,
/// and every Bedrock body satisfies the Converse rules.
pub fn run(text: &str, options: &ConvertOptions, validation: &validate::Options) {
    // The document parser takes what serde_json takes, to the same tree (it hands the rest to
    // serde_json, so any difference here is the fast parser's).
    let ours = agent_input::json::Document::parse(text).map(|document| document.root);
    let theirs = serde_json::from_str::<agent_input::json::Json<'_>>(text);
    match (&ours, &theirs) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "the parser and serde_json read different trees"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string()),
        _ => panic!("the parser and serde_json disagree: {ours:?} / {theirs:?}"),
    }
    let document = match validate::parse(text, &validation.limits) {
        Ok(document) => document,
        Err(report) => {
            assert!(!report.errors.is_empty(), "parse failed without an error");
            return;
        }
    };
    let result = validate::validate_request(&document, validation);
    if !result.is_valid() {
        assert!(!result.report.errors.is_empty(), "invalid without an error");
    }
    // The report serializes (the CLI, npm package and gateway all write it).
    serde_json::to_string(&result.summary()).expect("the report serializes");
    let Ok((request, report)) = result.into_result() else { return };
    assert!(report.errors.is_empty(), "accepted with errors: {:?}", report.errors);
    let _ = request.input.question();
    for &provider in ProviderId::ALL {
        check_conversion(provider, &request, options);
    }
}

/// Converts, and checks what came out.
pub fn check_conversion(provider: ProviderId, request: &agent_input::ExecuteRequest<'_>, options: &ConvertOptions) {
    match convert::convert_to_value(provider, request, options) {
        Ok(converted) => {
            for warning in &converted.warnings {
                assert!(warning.code.severity() == agent_input::Severity::Warning, "{warning:?}");
            }
            // What the caller wrote for this provider is sent as written; the rules are the
            // converter's own writing.
            let own = carries_own(provider, request, options);
            if !own {
                let problems = rules::violations(provider, &converted.body);
                assert!(
                    problems.is_empty(),
                    "{provider} body breaks its API's rules: {problems:#?}\nbody: {}",
                    converted.body
                );
            }
            // The string form is the same body.
            let text = convert::convert_to_string(provider, request, options, false).expect("converts twice");
            // Both read by the same parser, which need not give a float back exactly (serde_json
            // without `float_roundtrip`): the texts hold the same numbers when the reads agree.
            let reparsed: Value = serde_json::from_str(&text.body).expect("the body is JSON");
            let value_text = serde_json::to_string(&converted.body).expect("serializes");
            assert_eq!(reparsed, serde_json::from_str::<Value>(&value_text).expect("the body is JSON"));
            if provider == ProviderId::BedrockConverse && !own {
                // Bedrock's body is written by hand (natively): the same bytes as serde_json's.
                let typed =
                    <convert::bedrock_converse::BedrockConverse as convert::Provider>::convert(request, options)
                        .expect("converts a third time");
                assert_eq!(text.body, serde_json::to_string(&typed.body).expect("serializes"));
            }
        }
        Err(report) => {
            assert!(!report.errors.is_empty(), "failed without an error");
            for error in &report.errors {
                assert!(CONVERSION_CODES.contains(&error.code), "{provider}: unlisted conversion error {error:?}");
            }
        }
    }
}

/// Whether the body holds what the caller wrote for `provider` as it stands: provider fields of
/// its (the request's, a tool's, a message's) or one of its own tools.
fn carries_own(provider: ProviderId, request: &agent_input::ExecuteRequest<'_>, options: &ConvertOptions) -> bool {
    let mine = |fields: Option<&ProviderFields>| fields.is_some_and(|f| f.provider == provider);
    let messages = match &request.input {
        agent_input::AgentInput::Messages(messages) => messages.as_slice(),
        _ => &[],
    };
    mine(options.provider_fields.as_ref())
        || options.tools.iter().any(|entry| match entry {
            ToolEntry::Function(spec) => mine(spec.provider_fields.as_ref()),
            ToolEntry::Provider(tool) => tool.provider == provider,
        })
        || messages.iter().filter_map(|m| m.provider_fields.as_ref()).any(|f| f.provider() == Some(provider))
}

/// A generated request: mostly the shapes of contract §3, with wrong types and odd values mixed in.
#[derive(Debug)]
pub struct Request {
    /// The request body.
    pub body: Value,
    /// Conversion options.
    pub options: ConvertOptions,
    /// Allow an assistant prefill.
    pub allow_prefill: bool,
}

impl<'a> Arbitrary<'a> for Request {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Self> {
        let input = match u.int_in_range(0..=9)? {
            0 => Value::String(text(u)?),
            1..=3 => Value::Array(list(u, 6, block)?),
            4..=8 => Value::Array(list(u, 6, message)?),
            _ => any_value(u, 3)?,
        };
        let mut body = Map::new();
        if u.ratio(1, 12)? {
            body.insert("parameters".into(), json!({"question": text(u)?}));
        } else {
            body.insert("input".into(), input);
        }
        if u.ratio(1, 10)? {
            body.insert(word(u)?, any_value(u, 2)?);
        }
        let options = ConvertOptions {
            system: if u.ratio(1, 4)? { Some(text(u)?) } else { None },
            max_tokens: if u.ratio(1, 4)? { Some(u.arbitrary()?) } else { None },
            temperature: if u.ratio(1, 4)? { Some(number(u)?) } else { None },
            top_p: if u.ratio(1, 6)? { Some(number(u)?) } else { None },
            stop_sequences: if u.ratio(1, 6)? { list(u, 3, text)? } else { Vec::new() },
            tools: if u.ratio(1, 3)? { list(u, 3, tool)? } else { Vec::new() },
            provider_fields: if u.ratio(1, 10)? { Some(provider_fields(u)?) } else { None },
            ..ConvertOptions::default()
        };
        Ok(Self { body: Value::Object(body), options, allow_prefill: u.ratio(1, 4)? })
    }
}

fn list<'a, T>(
    u: &mut Unstructured<'a>,
    max: usize,
    item: fn(&mut Unstructured<'a>) -> arbitrary::Result<T>,
) -> arbitrary::Result<Vec<T>> {
    let n = u.int_in_range(0..=max)?;
    (0..n).map(|_| item(u)).collect()
}

fn pick<T: Clone>(u: &mut Unstructured<'_>, items: &[T]) -> arbitrary::Result<T> {
    Ok(u.choose(items)?.clone())
}

fn number(u: &mut Unstructured<'_>) -> arbitrary::Result<f64> {
    Ok(match u.int_in_range(0..=3)? {
        0 => f64::from(u.int_in_range(0..=100)?) / 100.0,
        1 => f64::from(u.arbitrary::<i32>()?),
        2 => 1.0,
        _ => 0.0,
    })
}

fn word(u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
    pick(
        u,
        &[
            "get_weather",
            "search",
            "call-1",
            "call.2:x",
            "bad name",
            "",
            "ünïcode",
            "x",
            "a-b_c",
            "role",
            "type",
            "sorce",
            "toolCalls",
        ],
    )
    .map(str::to_string)
}

fn text(u: &mut Unstructured<'_>) -> arbitrary::Result<String> {
    Ok(match u.int_in_range(0..=5)? {
        0 => String::new(),
        1 => " \t\n".into(),
        2..=3 => pick(u, &["Hello", "What is in this picture?", "Read this.", "你好", "a\u{0}b"])?.into(),
        _ => u.arbitrary::<String>()?,
    })
}

fn base64_of(bytes: &[u8]) -> String {
    agent_input::base64::encode(bytes)
}

fn payload(u: &mut Unstructured<'_>, kind: &str) -> arbitrary::Result<String> {
    let signatures: &[&[u8]] = match kind {
        "image" => &[b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff\xe0", b"GIF89a", b"RIFF\0\0\0\0WEBP", b"BM"],
        "video" => &[b"\0\0\0\0ftypisom", b"\x1a\x45\xdf\xa3", b""],
        _ => &[b"%PDF-1.7\n", b"PK\x03\x04", b"a,b\n1,2\n", b"<html>", b""],
    };
    Ok(match u.int_in_range(0..=9)? {
        0..=4 => {
            let mut bytes = u.choose(signatures)?.to_vec();
            let extra: &[u8] = u.arbitrary()?;
            bytes.extend_from_slice(&extra[..extra.len().min(64)]);
            base64_of(&bytes)
        }
        5 => format!("data:image/png;base64,{}", base64_of(b"\x89PNG\r\n\x1a\n")),
        6 => pick(u, &["s3://bucket/key.png", "s3://Bad_Bucket/x", "s3://ab", "s3://my.bucket-1/a/b"])?.into(),
        7 => pick(u, &["https://example.com/a.png", "http://h/x.pdf", "ftp://x/y", "data:,x", "not a url"])?.into(),
        8 => "iVBORw0K GgoAAAA=\n".into(),
        _ => u.arbitrary::<String>()?,
    })
}

fn block(u: &mut Unstructured<'_>) -> arbitrary::Result<Value> {
    let kind = pick(u, &["text", "text", "image", "document", "video", "audio", "", "TEXT"])?;
    let mut object = Map::new();
    object.insert("type".into(), Value::String(kind.into()));
    match kind {
        "text" | "TEXT" => {
            object.insert("text".into(), if u.ratio(1, 20)? { any_value(u, 1)? } else { Value::String(text(u)?) });
        }
        "" => {}
        _ => {
            let formats: &[&str] = match kind {
                "image" => &["png", "jpeg", "jpg", "JPEG", "gif", "webp", "bmp"],
                "video" => &["mp4", "mkv", "3gp", "three_gp", "mov", "avi"],
                _ => &["pdf", "txt", "csv", "docx", "md", "html", "PDF", "exe"],
            };
            let source_type = pick(u, &["base64", "base64", "url", "URL", "s3", ""])?;
            let data = payload(u, kind)?;
            let mut source = json!({"type": source_type, "format": pick(u, formats)?, "data": data});
            if u.ratio(1, 15)? {
                source.as_object_mut().map(|s| s.remove(pick(u, &["type", "format", "data"]).unwrap_or("data")));
            }
            let key = if u.ratio(1, 20)? { kind.to_string() } else { "source".into() };
            object.insert(key, source);
            if kind == "document" && u.ratio(1, 2)? {
                let name = pick(u, &["report.pdf", "report", "a  b\tc", "../../etc/passwd", "", "Ünïcödé name.txt"])?;
                let name = if u.ratio(1, 4)? { u.arbitrary::<String>()? } else { name.into() };
                object.insert("name".into(), Value::String(name));
            }
        }
    }
    Ok(Value::Object(object))
}

fn tool_call(u: &mut Unstructured<'_>) -> arbitrary::Result<Value> {
    let arguments = pick(u, &["{}", "{\"city\":\"Paris\"}", "[1]", "not json", ""])?;
    Ok(json!({"id": word(u)?, "type": "function", "function": {"name": word(u)?, "arguments": arguments}}))
}

fn message(u: &mut Unstructured<'_>) -> arbitrary::Result<Value> {
    let role = pick(u, &["user", "user", "assistant", "assistant", "system", "tool", "developer", "", "USER"])?;
    let mut object = Map::new();
    object.insert("role".into(), Value::String(role.into()));
    match u.int_in_range(0..=9)? {
        0 => {}
        1 => {
            object.insert("content".into(), Value::String(text(u)?));
        }
        _ => {
            object.insert("content".into(), Value::Array(list(u, 4, block)?));
        }
    }
    if role == "assistant" && u.ratio(1, 3)? {
        object.insert("toolCalls".into(), Value::Array(list(u, 2, tool_call)?));
    }
    if role == "tool" || u.ratio(1, 20)? {
        object.insert("toolCallId".into(), Value::String(word(u)?));
    }
    if u.ratio(1, 15)? {
        let provider = pick(u, &ProviderId::ALL)?.as_str();
        let on = u.int_in_range(0..=3)?;
        let items = json!([{"on": on, "fields": {"cache_control": {"type": "ephemeral"}, "status": "completed"}}]);
        // Mostly an object, as the key takes; sometimes anything.
        let fields = if u.ratio(3, 4)? { json!({"phase": "final_answer"}) } else { any_value(u, 1)? };
        object.insert("providerFields".into(), json!({"provider": provider, "fields": fields, "items": items}));
    }
    Ok(Value::Object(object))
}

fn tool(u: &mut Unstructured<'_>) -> arbitrary::Result<ToolEntry> {
    if u.ratio(1, 8)? {
        let item =
            pick(u, &[json!({"type": "web_search_20250305", "name": "web_search"}), json!({"googleSearch": {}})])?;
        return Ok(ToolEntry::Provider(ProviderItem { provider: pick(u, &ProviderId::ALL)?, item }));
    }
    let schema = pick(
        u,
        &[json!({"type": "object", "properties": {"city": {"type": "string"}}}), json!({"type": "string"}), json!({})],
    )?;
    Ok(ToolEntry::Function(ToolSpec {
        name: word(u)?,
        description: if u.ratio(1, 2)? { Some(text(u)?) } else { None },
        input_schema: if u.ratio(3, 4)? { Some(schema) } else { None },
        provider_fields: if u.ratio(1, 8)? { Some(provider_fields(u)?) } else { None },
    }))
}

/// A provider's own fields: one the writers never write, and sometimes one they do (a conflict).
fn provider_fields(u: &mut Unstructured<'_>) -> arbitrary::Result<ProviderFields> {
    let mut fields = Map::new();
    let own = word(u)?;
    fields.insert(pick(u, &["strict".to_string(), "cache_control".to_string(), own])?, any_value(u, 2)?);
    if u.ratio(1, 4)? {
        fields.insert(pick(u, &["model", "messages", "contents", "max_tokens", "input"])?.into(), any_value(u, 1)?);
    }
    Ok(ProviderFields { provider: pick(u, &ProviderId::ALL)?, fields })
}

/// Any JSON value, `depth` levels deep at most.
pub fn any_value(u: &mut Unstructured<'_>, depth: u32) -> arbitrary::Result<Value> {
    let top = if depth == 0 { 3 } else { 5 };
    Ok(match u.int_in_range(0..=top)? {
        0 => Value::Null,
        1 => Value::Bool(u.arbitrary()?),
        2 => json!(u.arbitrary::<f64>()?),
        3 => Value::String(u.arbitrary()?),
        4 => Value::Array((0..u.int_in_range(0..=4)?).map(|_| any_value(u, depth - 1)).collect::<Result<_, _>>()?),
        _ => {
            let mut object = Map::new();
            for _ in 0..u.int_in_range(0..=4)? {
                object.insert(word(u)?, any_value(u, depth - 1)?);
            }
            Value::Object(object)
        }
    })
}
