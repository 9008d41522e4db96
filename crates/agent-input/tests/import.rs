//! Import: real provider requests and generated ones read into the standard form and written back.
//!
//! The captured requests under `tests/captures/<case>/<provider>/` (`request.json`,
//! `followup-request.json`) are byte-identical copies of Braintrust's Lingua corpus
//! (braintrustdata/lingua, `payloads/snapshots`, commit 75f55048, MIT; `tests/captures/LICENSE`):
//! real traffic of Anthropic Messages (`anthropic`, and `vertex-anthropic` through Vertex AI),
//! Chat Completions (`chat-completions`), Responses (`responses`), Gemini (`google`) and Bedrock
//! Converse (`bedrock`). Reasoning is compared too: the follow-up requests replay Anthropic
//! thinking, Gemini signatures and Responses reasoning items.
//!
//! For each one: every reported path resolves in the request; and a request that imports without
//! errors, converted back to its own provider, carries the same conversation and settings. That
//! is compared through a projection of each provider's body written here from the provider's
//! documentation (text, media, calls, results, sampling, tools), independent of the importer, so
//! the expected values come from the captured request itself.

#![allow(clippy::missing_panics_doc)] // test code: panics are failures

use std::path::PathBuf;

use agent_input::import::{self, translate};
use agent_input::{ConvertOptions, ProviderId, ToolSpec, convert, validate};
use proptest::prelude::*;
use serde_json::{Value, json};

#[path = "import/projection.rs"]
mod projection;

use projection::project;

fn captures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/captures")
}

fn provider_of(folder: &str) -> Option<ProviderId> {
    Some(match folder {
        // Vertex AI's Messages bodies are Anthropic's, with `anthropic_version` for the model.
        "anthropic" | "vertex-anthropic" => ProviderId::AnthropicMessages,
        "chat-completions" => ProviderId::OpenAiChat,
        "responses" => ProviderId::OpenAiResponses,
        "google" => ProviderId::Gemini,
        "bedrock" => ProviderId::BedrockConverse,
        _ => return None,
    })
}

/// Every captured request: (name, provider, body).
fn corpus() -> Vec<(String, ProviderId, Value)> {
    let mut out = Vec::new();
    let mut cases: Vec<_> = std::fs::read_dir(captures()).expect("tests/captures").flatten().collect();
    cases.sort_by_key(std::fs::DirEntry::file_name);
    for case in cases.into_iter().filter(|c| c.path().is_dir()) {
        let mut providers: Vec<_> = std::fs::read_dir(case.path()).expect("case folder").flatten().collect();
        providers.sort_by_key(std::fs::DirEntry::file_name);
        for folder in providers {
            let Some(provider) = provider_of(&folder.file_name().to_string_lossy()) else { continue };
            for file in ["request.json", "followup-request.json"] {
                let path = folder.path().join(file);
                let Ok(text) = std::fs::read_to_string(&path) else { continue };
                let body: Value = serde_json::from_str(&text).expect("captured JSON");
                let name =
                    format!("{}/{}/{file}", case.file_name().to_string_lossy(), folder.file_name().to_string_lossy());
                out.push((name, provider, body));
            }
        }
    }
    out
}

/// Whether `pointer` names a place in `body` (an index one past the end counts: an array that
/// should have had an item).
fn resolves(body: &Value, pointer: &str) -> bool {
    if body.pointer(pointer).is_some() {
        return true;
    }
    // A missing field is reported at the key it should have: its parent must exist.
    let parent = pointer.rsplit_once('/').map_or("", |(p, _)| p);
    body.pointer(parent).is_some_and(|p| p.is_object() || p.is_array())
}

/// Where a setting is in a provider's body, for the settings a body may hold in a form the
/// options have no word for.
fn field_of(provider: ProviderId, key: &str) -> Option<&'static str> {
    match (provider, key) {
        (ProviderId::Gemini, "tool_choice") => Some("/toolConfig/functionCallingConfig"),
        // A reasoning setting the options have no word for (an effort of `minimal`, a dynamic
        // thinking budget) is reported where it is.
        (ProviderId::Gemini, "reasoning") => Some("/generationConfig/thinkingConfig"),
        (ProviderId::AnthropicMessages, "reasoning") => Some("/thinking"),
        (ProviderId::OpenAiResponses, "reasoning") => Some("/reasoning/effort"),
        (ProviderId::OpenAiChat, "reasoning") => Some("/reasoning_effort"),
        _ => None,
    }
}

/// Equal JSON, numbers compared by value (`0` and `0.0`).
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

#[test]
fn every_captured_request_imports_with_paths_into_it_and_round_trips() {
    let corpus = corpus();
    assert!(corpus.len() >= 400, "only {} captured requests found", corpus.len());
    let (mut clean, mut failures) = (0, Vec::new());
    let (mut with_state, mut with_setting, mut with_items) = (0, 0, 0);
    for (name, provider, body) in &corpus {
        let translation = translate(*provider, body, Some(*provider));
        for d in translation.errors.iter().chain(&translation.warnings) {
            let path = d.path.to_string();
            if !resolves(body, &path) {
                failures.push(format!("{name}: {} at {path:?} does not resolve in the request", d.code));
            }
        }
        if !translation.errors.is_empty() {
            continue;
        }
        clean += 1;
        let back = translation.body.as_ref().expect("a body with a target");
        let (mut want, got) = (project(*provider, body), project(*provider, back));
        // Reasoning with nothing after it in its turn has no standard message to go with: it is
        // reported left out.
        let alone = |w: &agent_input::Diagnostic| w.message.contains("nothing but reasoning");
        if translation.warnings.iter().any(alone) {
            want.atoms = without_lone_reasoning(&want.atoms);
        }
        let reasoning = |a: &Value| matches!(a[1].as_str(), Some("reasoning" | "signature" | "id"));
        with_state += usize::from(want.atoms.iter().any(reasoning));
        with_setting += usize::from(want.settings.contains_key("reasoning"));
        let item = |a: &Value| a[0] == "item" || a[1] == "item";
        with_items += usize::from(want.atoms.iter().any(item));
        if want.atoms != got.atoms {
            failures.push(format!(
                "{name}: the conversation changed\n  source:  {}\n  written: {}",
                json!(want.atoms),
                json!(got.atoms)
            ));
        }
        for (key, value) in &want.settings {
            // A setting reported as left out (Gemini's `VALIDATED` calling mode) is not written.
            let dropped = |field: &str| {
                translation
                    .warnings
                    .iter()
                    .any(|w| w.code.as_str() == "import_dropped" && w.path.to_string().starts_with(field))
            };
            if got.settings.get(key).is_none() && field_of(*provider, key).is_some_and(dropped) {
                continue;
            }
            if got.settings.get(key).is_none_or(|got| !same(got, value)) {
                failures.push(format!("{name}: setting {key} was {value}, written {:?}", got.settings.get(key)));
            }
        }
        // The written body is a fixed point: read and written again, it is the same body.
        let again = translate(*provider, back, Some(*provider));
        if again.body.as_ref() != Some(back) {
            failures.push(format!("{name}: the written body, read and written again, changes"));
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    assert!(clean * 10 >= corpus.len() * 6, "only {clean} of {} captured requests import without errors", corpus.len());
    // The corpus holds Anthropic thinking, Gemini signatures and Responses reasoning items.
    assert!(with_state >= 50, "only {with_state} captured requests carry reasoning state");
    // And built-in and server tools' calls and results, code execution, tools added mid-way.
    assert!(with_items >= 14, "only {with_items} captured requests carry provider items");
    eprintln!(
        "{clean} of {} captured requests round-trip, {with_state} with their reasoning state, {with_setting} with a reasoning setting, {with_items} with provider items",
        corpus.len()
    );
}

/// `atoms` without the reasoning atoms that no assistant text or call follows in their turn.
fn without_lone_reasoning(atoms: &[Value]) -> Vec<Value> {
    let reasoning = |a: &Value| a[0] == "assistant" && a[1] == "reasoning";
    let mut kept = Vec::new();
    for (i, atom) in atoms.iter().enumerate() {
        let followed = atoms[i + 1..].iter().find(|a| !reasoning(a)).is_some_and(|a| a[0] == "assistant");
        if !reasoning(atom) || followed {
            kept.push(atom.clone());
        }
    }
    kept
}

/// Every captured request that imports converts to every other provider, or says why not at a
/// path into the captured request. The body alone, written as text from the request's text
/// (`translate_str_into`), is the same body with the same problems.
#[test]
fn every_pair_of_providers_translates() {
    let mut converted = 0;
    let limits = agent_input::Limits::default();
    for (name, from, body) in corpus() {
        if !import::import(from, &body).report.errors.is_empty() {
            continue;
        }
        let text = body.to_string();
        for to in ProviderId::ALL {
            let translation = translate(from, &body, Some(*to));
            let mut written = String::new();
            let report = import::translate_str_into(from, &text, *to, None, &limits, &mut written, None);
            assert_eq!(report.is_ok(), translation.ok, "{name} → {to}");
            let problems = |list: &[agent_input::Diagnostic]| -> Vec<String> {
                list.iter().map(|d| format!("{} {}", d.code, d.path)).collect()
            };
            assert_eq!(problems(&report.errors), problems(&translation.errors), "{name} → {to}");
            assert_eq!(problems(&report.warnings), problems(&translation.warnings), "{name} → {to}");
            if translation.ok {
                assert_eq!(
                    serde_json::from_str::<Value>(&written).ok().as_ref(),
                    translation.body.as_ref(),
                    "{name} → {to}"
                );
            } else {
                assert!(written.is_empty(), "{name} → {to}: a body with errors");
            }
            match &translation.body {
                Some(Value::Null) => {
                    assert!(!translation.errors.is_empty(), "{name} → {to}: no body and no error");
                    for e in &translation.errors {
                        assert!(resolves(&body, &e.path.to_string()), "{name} → {to}: {e} does not resolve");
                    }
                }
                Some(_) => converted += 1,
                None => panic!("{name} → {to}: no body field with a target"),
            }
        }
    }
    assert!(converted > 1000, "only {converted} translations succeeded");
}

/// The captured Responses and Gemini requests lose no field of a message, part, call or item: what
/// the standard form has no place for is carried in the message's `providerFields` (no
/// `import_dropped` below a whole item or content), and translated to another provider each part
/// of those fields is named by a `provider_fields_dropped` warning of its own.
#[test]
fn message_fields_are_carried_and_named_when_left_out() {
    let (mut carried, mut failures) = (0, Vec::new());
    for (name, from, body) in corpus() {
        let (list, other) = match from {
            ProviderId::OpenAiResponses => ("input", ProviderId::Gemini),
            ProviderId::Gemini => ("contents", ProviderId::OpenAiResponses),
            _ => continue,
        };
        let translation = translate(from, &body, Some(from));
        for w in &translation.warnings {
            let inside = w.path.to_string().starts_with(&format!("/{list}/")) && w.path.segments().len() > 2;
            if w.code.as_str() == "import_dropped" && inside {
                failures.push(format!("{name}: {} left out at {}", w.code, w.path));
            }
        }
        let messages = translation.request["input"].as_array().map_or(&[][..], Vec::as_slice);
        let parts: usize = messages
            .iter()
            .filter_map(|m| m.get("providerFields"))
            .map(|f| usize::from(f.get("fields").is_some()) + f["items"].as_array().map_or(0, Vec::len))
            .sum();
        if parts == 0 || !translation.errors.is_empty() {
            continue;
        }
        carried += 1;
        let elsewhere = translate(from, &body, Some(other));
        if elsewhere.errors.is_empty() {
            // The messages' own; the request's own fields are named too, at their own paths.
            let named = elsewhere
                .warnings
                .iter()
                .filter(|w| {
                    w.code.as_str() == "provider_fields_dropped" && w.path.to_string().starts_with(&format!("/{list}/"))
                })
                .count();
            if named != parts {
                failures.push(format!("{name}: {parts} parts of provider fields, {named} named for {other}"));
            }
        }
    }
    assert!(failures.is_empty(), "{} problems:\n{}", failures.len(), failures.join("\n"));
    assert!(carried >= 10, "only {carried} captured requests carry provider fields of a message");
}

// Generated requests: any standard conversation with options, written by a provider's converter,
// imports and converts back to the very same body.

const PNG: &str = "iVBORw0KGgo=";
const PDF: &str = "JVBERi0xLjQK";

fn step() -> impl Strategy<Value = Vec<Value>> {
    prop_oneof![
        ("[a-zA-Z][a-zA-Z ?.]{0,16}", 0..4u8).prop_map(|(text, media)| {
            let mut content = vec![json!({"type": "text", "text": text})];
            match media {
                1 => content.push(json!({"type": "image", "source": {"type": "base64", "format": "png", "data": PNG}})),
                2 => content.push(json!({"type": "document", "name": "report", "source": {"type": "base64", "format": "pdf", "data": PDF}})),
                3 => content.push(json!({"type": "image", "source": {"type": "url", "format": "jpeg", "data": "https://example.com/cat.jpeg"}})),
                _ => {}
            }
            vec![json!({"role": "user", "content": content})]
        }),
        "[a-zA-Z][a-zA-Z .]{0,16}"
            .prop_map(|t| vec![json!({"role": "assistant", "content": [{"type": "text", "text": t}]}), json!({"role": "user", "content": [{"type": "text", "text": "Go on."}]})]),
        (prop::collection::vec("[a-z0-9_]{1,6}", 1..4), any::<bool>(), any::<bool>()).prop_map(|(ids, with_text, json_result)| {
            let ids: Vec<String> = ids.iter().enumerate().map(|(i, id)| format!("{id}_{i}")).collect();
            let calls: Vec<Value> = ids
                .iter()
                .map(|id| json!({"id": id, "function": {"name": "get_weather", "arguments": format!("{{\"id\":\"{id}\"}}")}}))
                .collect();
            let content = if with_text { json!([{"type": "text", "text": "Checking."}]) } else { json!([]) };
            let mut messages = vec![json!({"role": "assistant", "content": content, "toolCalls": calls})];
            messages.extend(ids.iter().map(|id| {
                if json_result {
                    // A JSON result (§3.5 resultFormat): an object, as a tool gives one.
                    let text = format!("{{\"temperature\":71,\"id\":\"{id}\"}}");
                    json!({"role": "tool", "toolCallId": id, "resultFormat": "json", "content": [{"type": "text", "text": text}]})
                } else {
                    json!({"role": "tool", "toolCallId": id, "content": [{"type": "text", "text": format!("result {id}")}]})
                }
            }));
            messages
        }),
    ]
}

fn request() -> impl Strategy<Value = Value> {
    prop_oneof![
        "[a-zA-Z][a-zA-Z ?]{0,20}".prop_map(|text| json!({"input": text})),
        (any::<bool>(), prop::collection::vec(step(), 0..6)).prop_map(|(system, steps)| {
            let mut messages = Vec::new();
            if system {
                messages.push(json!({"role": "system", "content": [{"type": "text", "text": "Be brief."}]}));
            }
            messages.push(json!({"role": "user", "content": [{"type": "text", "text": "Hello"}]}));
            messages.extend(steps.into_iter().flatten());
            if messages.last().is_some_and(|m| m["role"] == "assistant") {
                messages.push(json!({"role": "user", "content": [{"type": "text", "text": "Thanks."}]}));
            }
            json!({"input": messages})
        }),
    ]
}

/// Reasoning state on every assistant message, as `provider`'s response reader gives it (§3.5):
/// blocks before the first element, signatures and item ids on each.
fn with_state(provider: ProviderId, request: &mut Value) {
    let Some(messages) = request["input"].as_array_mut() else { return };
    for (m, message) in messages.iter_mut().enumerate().filter(|(_, m)| m["role"] == "assistant") {
        let texts = message["content"].as_array().map_or(0, Vec::len);
        let len = texts + message.get("toolCalls").and_then(Value::as_array).map_or(0, Vec::len);
        let items: Vec<Value> = match provider {
            ProviderId::AnthropicMessages => vec![
                json!({"before": 0, "block": {"type": "thinking", "thinking": "Think.", "signature": format!("c2ln{m}")}}),
                json!({"before": 0, "block": {"type": "redacted_thinking", "data": format!("cmVk{m}")}}),
            ],
            ProviderId::BedrockConverse => vec![json!({"before": 0, "block":
                {"reasoningContent": {"reasoningText": {"text": "Think.", "signature": format!("c2ln{m}")}}}})],
            // Each element's signature, and each call's own id, as Gemini 3 gives them.
            ProviderId::Gemini => std::iter::once(json!({"before": 0, "block": {"text": "Think.", "thought": true}}))
                .chain((0..len).flat_map(|i| {
                    let signature = json!({"on": i, "thoughtSignature": format!("c2ln{m}_{i}")});
                    let id = message.pointer(&format!("/toolCalls/{}/id", i.wrapping_sub(texts))).cloned();
                    std::iter::once(signature).chain(id.filter(|_| i >= texts).map(|id| json!({"on": i, "id": id})))
                }))
                .collect(),
            ProviderId::OpenAiResponses => std::iter::once(
                json!({"before": 0, "block": {"type": "reasoning", "id": format!("rs_{m}"), "summary": []}}),
            )
            .chain((0..len).map(|i| {
                let id = if i < texts { format!("msg_{m}") } else { format!("fc_{m}_{i}") };
                json!({"on": i, "id": id})
            }))
            .collect(),
            _ => continue,
        };
        message["reasoningState"] = json!({"provider": provider.as_str(), "items": items});
    }
}

/// Every `reasoningState` of a standard request, in order.
fn states(request: &Value) -> Vec<Value> {
    let messages = request["input"].as_array().map_or(&[][..], Vec::as_slice);
    messages.iter().filter_map(|m| m.get("reasoningState").cloned()).collect()
}

fn reasoning() -> impl Strategy<Value = Option<agent_input::options::Reasoning>> {
    use agent_input::options::{Effort, Reasoning};
    prop_oneof![
        Just(None),
        prop_oneof![Just(Effort::Low), Just(Effort::Medium), Just(Effort::High)]
            .prop_map(|e| Some(Reasoning::Effort(e))),
        (1024u64..4096).prop_map(|b| Some(Reasoning::BudgetTokens(b))),
    ]
}

fn options() -> impl Strategy<Value = ConvertOptions> {
    (
        reasoning(),
        prop::option::of(1u64..100_000),
        prop::option::of((0u8..=10).prop_map(|t| f64::from(t) / 10.0)),
        prop::option::of((1u8..=10).prop_map(|t| f64::from(t) / 10.0)),
        prop::collection::vec("[A-Z]{1,5}", 0..3),
        0..4u8,
        any::<bool>(),
    )
        .prop_map(|(reasoning, max_tokens, temperature, top_p, stop_sequences, choice, schema)| ConvertOptions {
            reasoning,
            max_tokens,
            temperature,
            top_p,
            stop_sequences,
            tools: vec![
                ToolSpec::new(
                    "get_weather",
                    Some("The weather in a city.".into()),
                    Some(json!({"type": "object", "properties": {"id": {"type": "string"}}})),
                )
                .into(),
            ],
            tool_choice: match choice {
                1 => Some(agent_input::options::ToolChoice::Any),
                2 => Some(agent_input::options::ToolChoice::Tool { name: "get_weather".into() }),
                3 => Some(agent_input::options::ToolChoice::Auto),
                _ => None,
            },
            response_format: schema.then(|| agent_input::options::ResponseFormat {
                schema: json!({"type": "object", "properties": {"answer": {"type": "string"}}}),
                name: Some("answer".into()),
                description: None,
                strict: None,
            }),
            ..ConvertOptions::default()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_generated_body_round_trips_exactly(
        mut request in request(),
        options in options(),
        which in 0..5usize,
        state in any::<bool>(),
    ) {
        let provider = ProviderId::ALL[which];
        if state {
            with_state(provider, &mut request);
        }
        let document = validate::document(&request);
        let (standard, _) = validate::validate_request(&document, &validate::Options::default())
            .into_result()
            .expect("generated requests are valid");
        // A provider that cannot take this request (Bedrock and web URLs, Anthropic and both
        // samplings or thinking and a temperature, Responses and stop sequences, a budget where
        // only an effort is taken) has no body to read back.
        let Ok(written) = convert::convert_to_value(provider, &standard, &options) else { return Ok(()) };
        let translation = translate(provider, &written.body, Some(provider));
        prop_assert!(translation.errors.is_empty(), "{provider}: {:?}\n{}", translation.errors, written.body);
        prop_assert_eq!(translation.body.as_ref(), Some(&written.body), "{}", provider);
        // The reasoning state and setting read back as they were given.
        prop_assert_eq!(states(&translation.request), states(&request), "{}\n{}", provider, written.body);
        let setting = translation.options.get("reasoning").cloned().unwrap_or(Value::Null);
        prop_assert_eq!(setting, json!(options.reasoning), "{}", provider);
    }
}

// Each provider's documented endpoint, as a curl command pasted into the playground names it.
#[test]
fn an_endpoint_url_names_its_provider() {
    let cases = [
        ("https://api.openai.com/v1/chat/completions", Some(ProviderId::OpenAiChat)),
        ("https://api.openai.com/v1/responses?stream=true", Some(ProviderId::OpenAiResponses)),
        ("https://api.anthropic.com/v1/messages/", Some(ProviderId::AnthropicMessages)),
        (
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
            Some(ProviderId::Gemini),
        ),
        ("https://generativelanguage.googleapis.com/v1beta/models/g:generatecontent#x", Some(ProviderId::Gemini)),
        ("https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse", Some(ProviderId::BedrockConverse)),
        ("https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream", Some(ProviderId::BedrockConverse)),
        ("https://bedrock-runtime.us-east-1.amazonaws.com/model/m/Converse", None),
        (
            "https://bedrock-runtime-fips.us-gov-west-1.amazonaws.com/model/arn%3Aaws%3Abedrock%3Aeu-west-1%3A1%3Ainference-profile%2Feu.m/converse",
            Some(ProviderId::BedrockConverse),
        ),
        (
            "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:generateContent",
            Some(ProviderId::Gemini),
        ),
        (
            "https://r.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21",
            Some(ProviderId::OpenAiChat),
        ),
        ("https://r.openai.azure.com/openai/v1/responses", Some(ProviderId::OpenAiResponses)),
        ("https://api.openai.com/v1/embeddings", None),
        ("https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke", None),
        (
            "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/c:rawPredict",
            None,
        ),
        ("", None),
    ];
    for (url, want) in cases {
        assert_eq!(import::provider_for_url(url), want, "{url}");
    }
}

// A pasted body without its URL: each provider's documented request shape names it; a body that
// fits none, or carries the marks of two, names none.
#[test]
fn a_body_shape_names_its_provider() {
    let cases = [
        (json!({"model": "gpt-5", "messages": [{"role": "user", "content": "Hi"}]}), Some(ProviderId::OpenAiChat)),
        (
            json!({"model": "gpt-5", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}]}),
            Some(ProviderId::OpenAiChat),
        ),
        (json!({"model": "gpt-5", "input": "Hi"}), Some(ProviderId::OpenAiResponses)),
        (
            json!({"model": "gpt-5", "instructions": "Be brief.", "input": [{"role": "user", "content": "Hi"}]}),
            Some(ProviderId::OpenAiResponses),
        ),
        (
            json!({"model": "claude-x", "max_tokens": 512, "system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}),
            Some(ProviderId::AnthropicMessages),
        ),
        (
            json!({"anthropic_version": "vertex-2023-10-16", "max_tokens": 512, "messages": [{"role": "user", "content": "Hi"}]}),
            Some(ProviderId::AnthropicMessages),
        ),
        (
            json!({"model": "claude-x", "max_tokens": 512, "messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}}]}]}),
            Some(ProviderId::AnthropicMessages),
        ),
        (json!({"contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}), Some(ProviderId::Gemini)),
        (json!({"contents": [], "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}}), Some(ProviderId::Gemini)),
        (json!({"messages": [{"role": "user", "content": [{"text": "Hi"}]}]}), Some(ProviderId::BedrockConverse)),
        (
            json!({"system": [{"text": "Be brief."}], "messages": [], "inferenceConfig": {"maxTokens": 512}}),
            Some(ProviderId::BedrockConverse),
        ),
        (json!({"messages": [], "toolConfig": {"tools": []}}), Some(ProviderId::BedrockConverse)),
        (
            json!({"model": "claude-x", "max_tokens": 64, "messages": [], "tools": [{"name": "f", "input_schema": {"type": "object"}}], "tool_choice": {"type": "any"}}),
            Some(ProviderId::AnthropicMessages),
        ),
        (
            json!({"model": "claude-x", "max_tokens": 64, "messages": [], "tools": [{"type": "web_search_20250305", "name": "web_search"}]}),
            Some(ProviderId::AnthropicMessages),
        ),
        // A bare list of messages is taken for Chat Completions', the most common; with
        // `max_tokens`, Messages (which requires it) fits as well, and neither is named.
        (json!({"messages": []}), Some(ProviderId::OpenAiChat)),
        (json!({"model": "m", "max_tokens": 64, "messages": [{"role": "user", "content": "Hi"}]}), None),
        // The marks of two providers, or of none.
        (json!({"contents": [], "input": "Hi"}), None),
        (json!({"system": "Be brief.", "inferenceConfig": {}}), None),
        (json!({"model": "m"}), None),
        (json!([{"role": "user", "content": "Hi"}]), None),
        (json!("Hi"), None),
    ];
    for (body, want) in cases {
        assert_eq!(import::provider_for_body(&body), want, "{body}");
    }
}

// A captured request (the SDKs' own, sent to the real APIs) is named by its shape as its
// provider's, or by none when its fields are all ones another provider shares: never another's.
#[test]
fn a_captured_request_is_never_taken_for_another_providers() {
    let corpus = corpus();
    let mut named = 0;
    let mut wrong = Vec::new();
    for (name, provider, body) in &corpus {
        match import::provider_for_body(body) {
            Some(got) if got == *provider => named += 1,
            Some(got) => wrong.push(format!("{name}: {got}, not {provider}")),
            None => {}
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} taken for another provider's:\n{}",
        wrong.len(),
        corpus.len(),
        wrong.join("\n")
    );
    // Most name one; the rest are a model, `max_tokens` and messages, which both Messages and Chat
    // Completions take.
    assert!(named * 5 >= corpus.len() * 4, "only {named} of {} named by their shape", corpus.len());
}
