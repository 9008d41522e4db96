//! The model rules (`agent_input::models`) against real refusals and real accepted requests.
//!
//! `tests/refusals/<case>/<provider>/` holds byte-identical copies of the requests Braintrust's
//! Lingua corpus (braintrustdata/lingua, `payloads/snapshots`, commit 75f55048, MIT;
//! `tests/refusals/LICENSE`) recorded with an `error.json`: the provider answered 400. Kept are the
//! ones a client could know before sending (tests/refusals/README.md lists the others). Each is
//! given to the rules as a provider will once they are wired in (the fields read here, from the
//! provider's documentation), and the test says which rule catches it, at which place in the body.
//!
//! The accepted side: every captured request of `tests/captures/` that the provider answered
//! must pass every rule.
//!
//! Through the public API, as `agent-input import --from P --to P` runs it (the body's own model,
//! or `--model`): how many of the refusals are caught before sending, and that no accepted
//! request is refused for its model.

#![allow(clippy::missing_panics_doc)] // test code: panics are failures

use std::path::{Path, PathBuf};

use agent_input::ProviderId;
use agent_input::import::{Translation, translate, translate_model};
use agent_input::models::sampling::{Reasoning, Sampling};
use agent_input::models::{self, Finding, Rule, inputs, pixels, roles, sampling, schema, thinking};
use serde_json::Value;

fn workspace(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").join(folder)
}

fn provider_of(folder: &str) -> Option<ProviderId> {
    Some(match folder {
        "anthropic" | "vertex-anthropic" => ProviderId::AnthropicMessages,
        "chat-completions" => ProviderId::OpenAiChat,
        "responses" => ProviderId::OpenAiResponses,
        "google" => ProviderId::Gemini,
        "bedrock" => ProviderId::BedrockConverse,
        _ => return None,
    })
}

/// Every `<case>/<provider>/<file>` under `folder`, with its provider and body.
fn bodies(folder: &str, files: &[&str]) -> Vec<(String, ProviderId, Value)> {
    let mut out = Vec::new();
    for case in std::fs::read_dir(workspace(folder)).expect("the folder").flatten().filter(|c| c.path().is_dir()) {
        for dir in std::fs::read_dir(case.path()).expect("a case").flatten() {
            let Some(provider) = provider_of(&dir.file_name().to_string_lossy()) else { continue };
            for file in files {
                let Ok(text) = std::fs::read_to_string(dir.path().join(file)) else { continue };
                let name =
                    format!("{}/{}/{file}", case.file_name().to_string_lossy(), dir.file_name().to_string_lossy());
                out.push((name, provider, serde_json::from_str(&text).expect("captured JSON")));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn number(body: &Value, pointer: &str) -> Option<f64> {
    body.pointer(pointer).and_then(Value::as_f64)
}

/// Adds findings about the value at `base` in the body.
fn put(out: &mut Vec<(String, Finding)>, base: &str, found: impl IntoIterator<Item = Finding>) {
    out.extend(found.into_iter().map(|f| (format!("{base}{}", f.pointer), f)));
}

/// Each rule's findings for a provider's body, with the place in the body each one is about.
fn findings(provider: ProviderId, body: &Value) -> Vec<(String, Finding)> {
    let mut out: Vec<(String, Finding)> = Vec::new();
    let model_field = if provider == ProviderId::BedrockConverse { "/modelId" } else { "/model" };
    let model_id = body.pointer(model_field).and_then(Value::as_str);
    let family = model_id.and_then(models::lookup);

    // Schema dialects: known from the provider alone.
    match provider {
        ProviderId::Gemini => {
            for (i, tool) in body["tools"].as_array().into_iter().flatten().enumerate() {
                for (j, declaration) in tool["functionDeclarations"].as_array().into_iter().flatten().enumerate() {
                    if let Some(parameters) = declaration.get("parameters") {
                        let base = format!("/tools/{i}/functionDeclarations/{j}/parameters");
                        put(&mut out, &base, schema::gemini(parameters));
                    }
                }
            }
            if let Some(response) = body.pointer("/generationConfig/responseSchema") {
                put(&mut out, "/generationConfig/responseSchema", schema::gemini(response));
            }
        }
        ProviderId::OpenAiChat | ProviderId::OpenAiResponses => {
            let strict = [
                ("/response_format/json_schema/strict", "/response_format/json_schema/schema"),
                ("/text/format/strict", "/text/format/schema"),
            ];
            let tools = body["tools"].as_array().into_iter().flatten().enumerate().flat_map(|(i, _)| {
                [
                    (format!("/tools/{i}/function/strict"), format!("/tools/{i}/function/parameters")),
                    (format!("/tools/{i}/strict"), format!("/tools/{i}/parameters")),
                ]
            });
            let places = strict.iter().map(|(s, p)| ((*s).to_string(), (*p).to_string())).chain(tools);
            for (flag, place) in places {
                if body.pointer(&flag) == Some(&Value::Bool(true))
                    && let Some(schema) = body.pointer(&place)
                {
                    put(&mut out, &place, schema::openai_strict(schema));
                }
            }
        }
        _ => {}
    }

    let Some(family) = family else { return out };
    let model_id = model_id.unwrap_or_default();
    match provider {
        ProviderId::OpenAiChat | ProviderId::OpenAiResponses => {
            let effort =
                body.pointer("/reasoning_effort").or_else(|| body.pointer("/reasoning/effort")).and_then(Value::as_str);
            let reasoning = effort.map_or(Reasoning::Default, Reasoning::Effort);
            let settings =
                Sampling { temperature: number(body, "/temperature"), top_p: number(body, "/top_p"), top_k: None };
            put(&mut out, "", sampling::check(family, model_id, &settings, reasoning));
            let function_tools = body["tools"].as_array().is_some_and(|t| t.iter().any(|t| t["type"] == "function"));
            put(&mut out, "", thinking::tools_with_effort(family, model_id, provider, function_tools, reasoning));
        }
        ProviderId::AnthropicMessages => {
            let reasoning = match body.pointer("/thinking/type").and_then(Value::as_str) {
                Some("enabled") => {
                    Reasoning::Budget(body.pointer("/thinking/budget_tokens").and_then(Value::as_u64).unwrap_or(0))
                }
                Some("adaptive") => Reasoning::Adaptive,
                Some("disabled") => Reasoning::Off,
                _ => Reasoning::Default,
            };
            let settings = Sampling {
                temperature: number(body, "/temperature"),
                top_p: number(body, "/top_p"),
                top_k: number(body, "/top_k"),
            };
            put(&mut out, "", sampling::check(family, model_id, &settings, reasoning));
            let max_tokens = body.pointer("/max_tokens").and_then(Value::as_u64);
            put(&mut out, "", thinking::anthropic_thinking(family, reasoning, max_tokens));
            for (i, message) in body["messages"].as_array().into_iter().flatten().enumerate() {
                let role = message["role"].as_str().unwrap_or_default();
                put(&mut out, "", roles::message_role(family, provider, role, &format!("/messages/{i}/role")));
            }
        }
        ProviderId::Gemini => {
            if let Some(budget) =
                body.pointer("/generationConfig/thinkingConfig/thinkingBudget").and_then(Value::as_i64)
            {
                put(&mut out, "/generationConfig/thinkingConfig", thinking::gemini_budget(family, budget));
            }
        }
        ProviderId::BedrockConverse if body.get("system").is_some() => {
            put(&mut out, "", roles::system_prompt(family, "/system"));
        }
        _ => {}
    }
    let tools = if provider == ProviderId::BedrockConverse { "/toolConfig/tools" } else { "/tools" };
    let function_tools = body.pointer(tools).and_then(Value::as_array).is_some_and(|t| {
        t.iter().any(|t| {
            ["function", "functionDeclarations", "toolSpec", "input_schema"].iter().any(|k| t.get(k).is_some())
                || t["type"] == "function"
        })
    });
    if function_tools {
        put(&mut out, tools, inputs::check(family, inputs::Input::FunctionTools, ""));
    }
    // Pixel limits need the images' headers; the corpus's images are small.
    for image in images(body) {
        if let Ok(size) = agent_input::image::dimensions_base64(image) {
            put(&mut out, "", pixels::check(provider, Some(family), &size, 1, ""));
        }
    }
    out
}

/// The base64 image data of a body, wherever it is (a string value under a `data` key).
fn images(body: &Value) -> Vec<&str> {
    match body {
        Value::Object(map) => map
            .iter()
            .flat_map(|(key, value)| match value {
                Value::String(s) if key == "data" => vec![s.as_str()],
                other => images(other),
            })
            .collect(),
        Value::Array(items) => items.iter().flat_map(images).collect(),
        _ => Vec::new(),
    }
}

/// Each kept refusal, the rule that catches it and where; `None` where only a provider rule can
/// (no model rule is about it).
const EXPECTED: &[(&str, Option<(Rule, &str)>)] = &[
    // Refused on 2026-06-02; three days later the same model took a system message among the
    // messages (tests/captures/anthropicMessageWithSystemMessage), as the table now says it does.
    ("anthropicMidConversationSystemMessage/anthropic", None),
    ("chatCompletionsGcsBackedVideoFileParam/chat-completions", None),
    ("chatCompletionsUrlBackedAudioFileParam/chat-completions", None),
    ("chatCompletionsUrlBackedVideoFileParam/chat-completions", None),
    (
        "exclusiveMinimumToolParam/google",
        Some((
            Rule::SchemaKeyword,
            "/tools/0/functionDeclarations/0/parameters/properties/max_tokens/exclusiveMinimum",
        )),
    ),
    (
        "functionToolsWithReasoningEffortParam/chat-completions",
        Some((Rule::ToolsWithReasoningEffort, "/reasoning_effort")),
    ),
    ("simpleRequestTruncated/responses", None),
    (
        "textFormatJsonSchemaMissingRequiredPropertyParam/chat-completions",
        Some((Rule::StrictSchema, "/response_format/json_schema/schema/required")),
    ),
    (
        "textFormatJsonSchemaMissingRequiredPropertyParam/responses",
        Some((Rule::StrictSchema, "/text/format/schema/required")),
    ),
    ("topPReasoningModelParam/chat-completions", Some((Rule::SamplingWithReasoning, "/top_p"))),
    ("topPReasoningModelParam/responses", Some((Rule::SamplingWithReasoning, "/top_p"))),
];

#[test]
fn the_real_refusals_the_rules_catch() {
    let refusals = bodies("tests/refusals", &["request.json"]);
    let names: Vec<&str> = refusals.iter().map(|(name, ..)| name.trim_end_matches("/request.json")).collect();
    assert_eq!(names, EXPECTED.iter().map(|(name, _)| *name).collect::<Vec<_>>());
    let (mut by_rules, mut by_import, mut by_either) = (0, 0, 0);
    for ((name, provider, body), (_, expected)) in refusals.iter().zip(EXPECTED) {
        let found = findings(*provider, body);
        let got: Vec<(Rule, &str)> = found.iter().map(|(place, f)| (f.rule, place.as_str())).collect();
        assert_eq!(got, expected.iter().copied().collect::<Vec<_>>(), "{name}");
        for (place, _) in &found {
            assert!(body.pointer(place).is_some(), "{name}: {place} is in the body");
        }
        let imported = translate(*provider, body, Some(*provider)).ok;
        eprintln!("{name}: rules {}, import {}", !found.is_empty(), !imported);
        by_rules += usize::from(!found.is_empty());
        by_import += usize::from(!imported);
        by_either += usize::from(!found.is_empty() || !imported);
    }
    eprintln!(
        "refusals known before sending: {}; the model rules catch {by_rules}, import catches {by_import}, either {by_either}",
        refusals.len()
    );
    assert_eq!((refusals.len(), by_rules), (11, 6));
}

/// The captured requests the providers answered with an error (tests/refusals and the ones that
/// could not be known before sending, tests/refusals/README.md).
fn refused(name: &str) -> bool {
    const UNKNOWABLE: &[&str] = &["imageUrlMimeTypeFallbackParam/google", "simpleRequestTruncated/chat-completions"];
    let place = name.trim_end_matches("/request.json");
    name.ends_with("/request.json") && (UNKNOWABLE.contains(&place) || EXPECTED.iter().any(|(case, _)| *case == place))
}

#[test]
fn no_accepted_request_is_refused_by_a_rule() {
    let accepted: Vec<_> = bodies("tests/captures", &["request.json", "followup-request.json"])
        .into_iter()
        .filter(|(name, ..)| !refused(name))
        .collect();
    assert!(accepted.len() > 400, "{}", accepted.len());
    let known = accepted.iter().filter(|(_, provider, body)| {
        let field = if *provider == ProviderId::BedrockConverse { "/modelId" } else { "/model" };
        body.pointer(field).and_then(Value::as_str).and_then(models::lookup).is_some()
    });
    eprintln!("accepted requests: {}, of a known model family: {}", accepted.len(), known.count());
    let refusals: Vec<String> = accepted
        .iter()
        .flat_map(|(name, provider, body)| {
            findings(*provider, body).into_iter().map(move |(place, f)| format!("{name} {place}: {}", f.message))
        })
        .collect();
    assert_eq!(refusals, Vec::<String>::new());
}

/// Whether a translation catches a refusal: an error, or the schema written in a form the provider
/// takes (`schema_rewritten`), with the place it is about.
fn caught(translation: &Translation) -> Vec<String> {
    let errors = translation.errors.iter();
    let rewritten = translation.warnings.iter().filter(|w| w.code.as_str() == "schema_rewritten");
    errors.chain(rewritten).map(|d| format!("{} {}", d.code.as_str(), d.path)).collect()
}

#[test]
fn import_with_the_model_catches_the_real_refusals() {
    let refusals = bodies("tests/refusals", &["request.json"]);
    let mut caught_count = 0;
    for ((name, provider, body), (_, expected)) in refusals.iter().zip(EXPECTED) {
        let translation = translate(*provider, body, Some(*provider));
        let found = caught(&translation);
        eprintln!("{name}: {found:?}");
        if let Some((rule, place)) = expected {
            let code = if *rule == Rule::SchemaKeyword && *provider == ProviderId::Gemini {
                "schema_rewritten".to_string()
            } else {
                rule.code().as_str().to_string()
            };
            assert!(found.contains(&format!("{code} {place}")), "{name}: {code} at {place} in {found:?}");
        }
        caught_count += usize::from(!found.is_empty());
    }
    eprintln!("refusals known before sending: {}; caught through import: {caught_count}", refusals.len());
    assert_eq!((refusals.len(), caught_count), (11, 11));
}

#[test]
fn a_refusal_is_caught_with_the_model_given_and_not_with_one_that_takes_it() {
    let refusals = bodies("tests/refusals", &["request.json"]);
    let (_, provider, body) = refusals
        .iter()
        .find(|(name, ..)| name.starts_with("topPReasoningModelParam/chat-completions"))
        .expect("the case");
    let mut without = body.clone();
    without.as_object_mut().expect("an object").remove("model");
    assert!(translate(*provider, &without, Some(*provider)).ok);
    let given = translate_model(*provider, &without, Some(*provider), Some("gpt-5-nano"));
    assert_eq!(caught(&given), ["invalid_parameter /top_p"]);
    assert!(translate_model(*provider, &without, Some(*provider), Some("gpt-4o")).ok);
    let unknown = translate_model(*provider, &without, Some(*provider), Some("gpt-6-preview"));
    assert!(unknown.ok);
    assert_eq!(unknown.warnings.iter().map(|w| w.code.as_str()).collect::<Vec<_>>(), ["unknown_model"]);
}

#[test]
fn import_refuses_no_accepted_request_for_its_model() {
    let accepted: Vec<_> = bodies("tests/captures", &["request.json", "followup-request.json"])
        .into_iter()
        .filter(|(name, ..)| !refused(name))
        .collect();
    let mut false_refusals = Vec::new();
    let mut checked = 0;
    for (name, provider, body) in &accepted {
        let with_model = translate(*provider, body, Some(*provider));
        let mut without = body.clone();
        if let Some(object) = without.as_object_mut() {
            object.remove("model");
            object.remove("modelId");
        }
        let without_model = translate(*provider, &without, Some(*provider));
        checked += usize::from(with_model.options.get("model").is_some());
        let before: Vec<String> = caught(&without_model);
        for problem in caught(&with_model) {
            let pixels = with_model.errors.iter().any(|e| e.message.contains(" px"));
            if !before.contains(&problem) || pixels {
                false_refusals.push(format!("{name}: {problem}"));
            }
        }
    }
    eprintln!(
        "accepted requests: {}, with a model: {checked}; refused for their model: {}",
        accepted.len(),
        false_refusals.len()
    );
    assert!(checked > 300, "{checked}");
    assert_eq!(false_refusals, Vec::<String>::new());
}
