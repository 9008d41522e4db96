//! Import names every loss and carries every setting that has a place: for captured requests
//! (`tests/captures/`, Lingua's recorded traffic), the settings read into the options, the
//! request's own fields carried as provider fields, and the `import_dropped` warnings, each at the
//! field of the captured body it is about.

#![allow(clippy::missing_panics_doc)] // test code: panics are failures

use std::path::PathBuf;

use agent_input::import::translate;
use agent_input::{ConvertOptions, ProviderId, convert, validate};
use serde_json::{Value, json};

fn capture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/captures").join(name);
    serde_json::from_str(&std::fs::read_to_string(path).expect("the capture")).expect("captured JSON")
}

/// (capture, its provider, the `import_dropped` warnings' paths in order).
const DROPPED: &[(&str, ProviderId, &[&str])] = &[
    // A model turn with nothing in it (an answer cut short): no standard message holds it, and
    // Gemini's parts are its items, so there is no item to carry it either.
    ("simpleRequestTruncated/google/followup-request.json", ProviderId::Gemini, &["/contents/1"]),
];

#[test]
fn every_field_left_out_is_named_where_it_is() {
    for (name, provider, expected) in DROPPED {
        let body = capture(name);
        let translation = translate(*provider, &body, Some(*provider));
        assert!(translation.ok, "{name}: {:?}", translation.errors);
        let mut got: Vec<String> = translation
            .warnings
            .iter()
            .filter(|w| w.code.as_str() == "import_dropped")
            .map(|w| w.path.to_string())
            .collect();
        got.sort();
        assert_eq!(got, *expected, "{name}");
        for path in &got {
            assert!(body.pointer(path).is_some(), "{name}: {path} is in the captured body");
        }
    }
}

/// (capture, its provider, where each of the request's own fields is in the captured body): fields
/// with no standard place, the defaults a writer leaves out among them (thinking turned off, an
/// answer format of plain text).
const OWN_FIELDS: &[(&str, ProviderId, &[&str])] = &[
    ("thinkingDisabledParam/anthropic/request.json", ProviderId::AnthropicMessages, &["/thinking"]),
    ("textFormatTextParam/chat-completions/request.json", ProviderId::OpenAiChat, &["/response_format"]),
    ("textFormatTextParam/responses/request.json", ProviderId::OpenAiResponses, &["/text/format"]),
    ("topKParam/google/request.json", ProviderId::Gemini, &["/generationConfig/topK"]),
    ("topKParam/anthropic/request.json", ProviderId::AnthropicMessages, &["/top_k"]),
    ("metadataParam/responses/request.json", ProviderId::OpenAiResponses, &["/metadata"]),
    ("storeDisabledParam/chat-completions/request.json", ProviderId::OpenAiChat, &["/store"]),
    (
        "bedrockGuardrailStopReasonStreamingParam/bedrock/request.json",
        ProviderId::BedrockConverse,
        &["/additionalModelResponseFieldPaths"],
    ),
];

#[test]
fn the_requests_own_fields_go_back_to_their_provider_and_are_named_for_another() {
    for (name, provider, fields) in OWN_FIELDS {
        let body = capture(name);
        let same = translate(*provider, &body, Some(*provider));
        assert!(same.ok, "{name}: {:?}", same.errors);
        assert!(same.warnings.is_empty(), "{name}: {:?}", same.warnings);
        assert_eq!(same.options["provider_fields"]["provider"], provider.as_str(), "{name}");
        let written = same.body.expect("a body");
        for field in *fields {
            assert!(body.pointer(field).is_some(), "{name}: {field} is in the captured body");
            assert_eq!(written.pointer(field), body.pointer(field), "{name}: {field} written back");
        }
        // Another provider has no place for them: each is named where it is.
        let other = if *provider == ProviderId::Gemini { ProviderId::OpenAiChat } else { ProviderId::Gemini };
        let translated = translate(*provider, &body, Some(other));
        assert!(translated.ok, "{name}: {:?}", translated.errors);
        let named: Vec<String> = translated
            .warnings
            .iter()
            .filter(|w| w.code.as_str() == "provider_fields_dropped")
            .inspect(|w| assert_eq!(w.received.as_deref(), Some(provider.as_str()), "{name}"))
            .map(|w| w.path.to_string())
            .collect();
        assert_eq!(named, *fields, "{name}");
    }
}

/// (capture, its provider, the option, its value read from the captured body at `from`).
const CARRIED: &[(&str, ProviderId, &str, &str)] = &[
    // Anthropic's extended thinking budget is the reasoning option's budget.
    (
        "thinkingSignatureRequest/vertex-anthropic/request.json",
        ProviderId::AnthropicMessages,
        "reasoning",
        "/thinking/budget_tokens",
    ),
    // Adaptive thinking's effort is the reasoning option's effort.
    (
        "opus47AdaptiveThinkingReasoningEffortParam/anthropic/request.json",
        ProviderId::AnthropicMessages,
        "reasoning",
        "/output_config/effort",
    ),
    // Every effort the provider writes is one of the option's.
    (
        "reasoningEffortMinimalParam/chat-completions/request.json",
        ProviderId::OpenAiChat,
        "reasoning",
        "/reasoning_effort",
    ),
    ("reasoningEffortNoneParam/responses/request.json", ProviderId::OpenAiResponses, "reasoning", "/reasoning/effort"),
    (
        "responsesReasoningEffortMaxParam/responses/request.json",
        ProviderId::OpenAiResponses,
        "reasoning",
        "/reasoning/effort",
    ),
    (
        "anthropicOpus5AdaptiveThinkingMaxEffortParam/anthropic/request.json",
        ProviderId::AnthropicMessages,
        "reasoning",
        "/output_config/effort",
    ),
    ("stopSequencesParam/chat-completions/request.json", ProviderId::OpenAiChat, "stop_sequences", "/stop"),
    ("stopSequencesParam/anthropic/request.json", ProviderId::AnthropicMessages, "stop_sequences", "/stop_sequences"),
    (
        "textFormatJsonSchemaParam/responses/request.json",
        ProviderId::OpenAiResponses,
        "response_format",
        "/text/format/schema",
    ),
];

#[test]
fn every_setting_with_a_place_is_carried() {
    for (name, provider, option, from) in CARRIED {
        let body = capture(name);
        let source = body.pointer(from).unwrap_or_else(|| panic!("{name}: {from}"));
        let translation = translate(*provider, &body, Some(*provider));
        assert!(translation.ok, "{name}: {:?}", translation.errors);
        let expected = match (*option, *from) {
            ("reasoning", "/thinking/budget_tokens") => json!({"budget_tokens": source}),
            ("reasoning", _) => json!({"effort": source}),
            ("response_format", _) => translation.options[option].clone(),
            _ => source.clone(),
        };
        assert_eq!(translation.options[option], expected, "{name}");
        if *option == "response_format" {
            assert_eq!(&translation.options[option]["schema"], source, "{name}");
        }
        // Carried, so not reported left out.
        assert!(
            translation.warnings.iter().all(|w| !w.path.to_string().starts_with(from)),
            "{name}: {:?}",
            translation.warnings
        );
        // And written back where it was.
        let written = translation.body.expect("a body");
        assert_eq!(written.pointer(from), Some(source), "{name}");
    }
}

#[test]
fn the_tool_choice_of_each_provider_is_carried() {
    // (capture, provider, the field, the option).
    let cases: [(&str, ProviderId, &str, Value); 4] = [
        (
            "toolChoiceRequiredParam/chat-completions/request.json",
            ProviderId::OpenAiChat,
            "/tool_choice",
            json!({"name": "get_weather"}),
        ),
        (
            "toolChoiceRequiredParam/responses/request.json",
            ProviderId::OpenAiResponses,
            "/tool_choice",
            json!({"name": "get_weather"}),
        ),
        ("toolChoiceAnyParam/anthropic/request.json", ProviderId::AnthropicMessages, "/tool_choice", json!("any")),
        ("toolChoiceNoneParam/google/request.json", ProviderId::Gemini, "/toolConfig", json!("none")),
    ];
    for (name, provider, field, expected) in cases {
        let body = capture(name);
        let translation = translate(provider, &body, Some(provider));
        assert!(translation.ok, "{name}: {:?}", translation.errors);
        assert_eq!(translation.options["tool_choice"], expected, "{name}");
        assert_eq!(translation.body.expect("a body").pointer(field), body.pointer(field), "{name}");
    }
}

#[test]
fn an_effort_a_provider_does_not_take_is_refused_naming_those_it_takes() {
    let hi = json!({"input": "Hi"});
    let document = validate::document(&hi);
    let request = validate::validate_request(&document, &validate::Options::default()).request.expect("valid");
    // (provider, effort, refused, the efforts named): OpenAI takes all seven; Anthropic's adaptive
    // thinking low to max; Gemini's thinkingLevel minimal to high (their API references).
    let cases: [(ProviderId, &str, bool, &str); 6] = [
        (ProviderId::OpenAiChat, "xhigh", false, ""),
        (ProviderId::OpenAiResponses, "none", false, ""),
        (ProviderId::AnthropicMessages, "max", false, ""),
        (ProviderId::AnthropicMessages, "minimal", true, "low, medium, high, max"),
        (ProviderId::Gemini, "minimal", false, ""),
        (ProviderId::Gemini, "max", true, "minimal, low, medium, high"),
    ];
    for (provider, effort, refused, named) in cases {
        let (options, report) = ConvertOptions::read_json(&json!({"reasoning": effort}));
        assert!(report.errors.is_empty(), "{effort}: {:?}", report.errors);
        match convert::convert_to_value(provider, &request, &options) {
            Ok(converted) => {
                assert!(!refused, "{provider} {effort}: {}", converted.body);
                assert!(
                    converted.body.to_string().to_ascii_lowercase().contains(&format!("\"{effort}\"")),
                    "{provider} {effort}: {}",
                    converted.body
                );
            }
            Err(report) => {
                assert!(refused, "{provider} {effort}: {:?}", report.errors);
                let error = &report.errors[0];
                assert_eq!(
                    (error.code.as_str(), error.path.to_string().as_str()),
                    ("unsupported_by_provider", "/options/reasoning")
                );
                assert!(error.message.contains(named), "{}", error.message);
            }
        }
    }
}
