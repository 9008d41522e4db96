//! The options callers pass: how to validate ([`Options`], [`Limits`]), how to convert
//! ([`ConvertOptions`], [`ToolSpec`]) and both with the target provider ([`ConvertSettings`]),
//! as the npm package, the CLI and the gateway take them.
//!
//! Keys are camelCase as JavaScript writes them, or the `snake_case` the fixtures, the CLI and
//! ml-commons' `model_parameters` use; `null` counts as absent, and the numbers ml-commons stores
//! as strings are read as numbers. Each type's `read_json` reports *every* bad option, each as an
//! `invalid_parameter` error at `/options/<key>`, and keeps the readable ones, never an
//! exception: options often come from stored configuration, which is data like any other.
//!
//! Every option is one row of a table ([`Field`]: its spellings and how its value is read), and
//! each type's `Deserialize` goes through the same table, failing with the first problem, so
//! Rust callers that deserialize options (from any serde format) get the same spellings and
//! rules. Not a derived `Deserialize`: a derive stops at the first problem (finding the others
//! means deserializing again), and in the npm package it cost 6.7 KB more gzip than this table
//! (docs/decisions.md, "The WebAssembly boundary").

mod fields;
mod read;
mod table;
mod types;

pub use table::parse;
pub use types::{
    CacheTtl, ConvertOptions, ConvertSettings, Effort, Limits, Options, PromptCache, Reasoning, ResponseFormat,
    ToolChoice, ToolEntry, ToolSpec,
};

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::diagnostic::{Code, Report};
    use crate::providers::id::ProviderId;
    use serde_json::json;

    fn paths(report: &Report) -> Vec<String> {
        let mut paths: Vec<String> = report
            .errors
            .iter()
            .inspect(|d| assert_eq!(d.code, Code::InvalidParameter, "{d:?}"))
            .map(|d| d.path.to_string())
            .collect();
        paths.sort();
        paths
    }

    #[test]
    fn validate_options_accept_both_spellings() {
        let (camel, report) = Options::read_json(
            &json!({"allowPrefill": true, "limits": {"maxDepth": 5, "maxBodyBytes": 10, "maxMessages": 2, "maxBlocks": 3}}),
        );
        assert!(report.is_ok(), "{report}");
        let (snake, report) = Options::read_json(
            &json!({"allow_prefill": true, "limits": {"max_depth": 5, "max_body_bytes": 10, "max_messages": 2, "max_blocks": 3}}),
        );
        assert!(report.is_ok(), "{report}");
        assert_eq!(camel, snake);
        assert!(camel.allow_prefill);
        assert_eq!(camel.limits, Limits { max_body_bytes: 10, max_depth: 5, max_messages: 2, max_blocks: 3 });
    }

    #[test]
    fn absent_and_null_options_are_the_defaults() {
        for value in [
            Value::Null,
            json!({}),
            json!({"allowPrefill": null, "limits": null}),
            json!({"limits": {"maxDepth": null}}),
        ] {
            let (options, report) = Options::read_json(&value);
            assert!(report.is_ok(), "{value}: {report}");
            assert_eq!(options, Options::default(), "{value}");
        }
        let (limits, _) = Options::read_json(&json!({"limits": {"maxDepth": 3}}));
        assert_eq!(limits.limits, Limits { max_depth: 3, ..Limits::default() });
    }

    #[test]
    fn every_bad_validate_option_is_reported_at_its_path() {
        let (options, report) = Options::read_json(
            &json!({"allowPrefill": "yes", "limits": {"maxDepth": -1, "maxBlocks": 1.5, "max_size": 3, "maxMessages": 7}, "maxTokens": 5}),
        );
        assert_eq!(
            paths(&report),
            [
                "/options/allowPrefill",
                "/options/limits/maxBlocks",
                "/options/limits/maxDepth",
                "/options/limits/max_size",
                "/options/maxTokens"
            ]
        );
        // The readable ones are kept.
        assert_eq!(options.limits.max_messages, 7);
        let prefill = report.errors.iter().find(|d| d.path.to_string() == "/options/allowPrefill").unwrap();
        assert_eq!(prefill.message, "allowPrefill must be true or false");
        assert_eq!(prefill.received.as_deref(), Some("yes"));
        let unknown = report.errors.iter().find(|d| d.path.to_string() == "/options/maxTokens").unwrap();
        assert_eq!(unknown.received.as_deref(), Some("maxTokens"));
        assert!(unknown.message.contains("allowPrefill"), "{}", unknown.message);

        let (_, report) = Options::read_json(&json!([1]));
        assert_eq!(paths(&report), ["/options"]);
        // An object where none is taken is at fault as a whole.
        let (_, report) = Options::read_json(&json!({"colour": {"a": 1}, "allowPrefill": {"a": true}}));
        assert_eq!(paths(&report), ["/options/allowPrefill", "/options/colour"]);
        let (_, report) = Options::read_json(&json!({"limits": 5}));
        assert_eq!(paths(&report), ["/options/limits"]);
    }

    #[test]
    fn huge_limits_mean_no_limit() {
        let (options, report) = Options::read_json(&json!({"limits": {"maxBodyBytes": 1e300, "maxDepth": 1e3}}));
        assert!(report.is_ok());
        assert_eq!(options.limits.max_body_bytes, usize::MAX);
        assert_eq!(options.limits.max_depth, 1000);
    }

    #[test]
    fn conversion_options_take_both_spellings_and_numeric_strings() {
        let camel =
            ConvertOptions::from_json(&json!({"systemPrompt": "Be brief.", "maxTokens": 100, "temperature": 0.5,
            "topP": 0.9, "stopSequences": ["END"], "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}))
            .unwrap();
        let snake =
            ConvertOptions::from_json(&json!({"system": "Be brief.", "max_tokens": "100", "temperature": "0.5",
            "top_p": " 0.9 ", "stop_sequences": "END", "tools": [{"name": "t", "input_schema": {"type": "object"}}]}))
            .unwrap();
        assert_eq!(camel, snake);
        assert_eq!(camel.max_tokens, Some(100));
        assert_eq!(camel.top_p, Some(0.9));
        assert_eq!(camel.tools[0].spec().and_then(|spec| spec.input_schema.clone()), Some(json!({"type": "object"})));
        // What `Serialize` writes reads back, and `Deserialize` takes the same spellings.
        assert_eq!(ConvertOptions::from_json(&serde_json::to_value(&camel).unwrap()).unwrap(), camel);
        let deserialized: ConvertOptions = serde_json::from_str(r#"{"systemPrompt": "Be brief.", "max_tokens": "100",
            "temperature": 0.5, "topP": 0.9, "stopSequences": "END", "tools": [{"name": "t", "inputSchema": {"type": "object"}}]}"#)
        .unwrap();
        assert_eq!(deserialized, camel);
        let error = serde_json::from_str::<ConvertOptions>(r#"{"maxTokens": -1}"#).unwrap_err();
        assert_eq!(error.to_string(), "/options/max_tokens: max_tokens must be a whole number from 1 to 2147483647");
        let options: Options = serde_json::from_str(r#"{"allow_prefill": true, "limits": {"maxDepth": 3}}"#).unwrap();
        assert_eq!(
            options,
            Options { allow_prefill: true, limits: Limits { max_depth: 3, ..Limits::default() }, ml_commons: false }
        );
        assert!(serde_json::from_str::<Limits>(r#"{"depth": 3}"#).is_err());
    }

    #[test]
    fn conversion_option_errors_use_the_snake_case_name() {
        let (options, report) =
            ConvertOptions::read_json(&json!({"maxTokens": 1.5, "temperature": "warm", "colour": 1,
            "tools": [{"description": "no name"}], "topP": 0.5}));
        assert_eq!(
            paths(&report),
            ["/options/colour", "/options/max_tokens", "/options/temperature", "/options/tools"]
        );
        assert_eq!(options.top_p, Some(0.5));
        let tokens = &report.errors.iter().find(|d| d.path.to_string() == "/options/max_tokens").unwrap();
        assert_eq!(tokens.message, "max_tokens must be a whole number from 1 to 2147483647");
        assert_eq!(tokens.received.as_deref(), Some("1.5"));
        let tools = &report.errors.iter().find(|d| d.path.to_string() == "/options/tools").unwrap();
        assert!(tools.message.contains("name"), "{}", tools.message);
    }

    #[test]
    fn request_features_take_every_spelling_and_report_bad_values() {
        let cases = [
            (json!("auto"), ToolChoice::Auto),
            (json!("required"), ToolChoice::Any),
            (json!(" any "), ToolChoice::Any),
            (json!("none"), ToolChoice::None),
            (json!({"name": "t"}), ToolChoice::Tool { name: "t".into() }),
            (json!("tool:t"), ToolChoice::Tool { name: "t".into() }),
            (json!("{\"name\": \"t\"}"), ToolChoice::Tool { name: "t".into() }),
        ];
        for (value, want) in cases {
            let options = ConvertOptions::from_json(&json!({"toolChoice": value})).unwrap();
            assert_eq!(options.tool_choice, Some(want), "{value}");
        }
        for (value, want) in [
            (json!(true), Some(PromptCache { ttl: None })),
            (json!("false"), None),
            (json!({"ttl": "1h"}), Some(PromptCache { ttl: Some(CacheTtl::OneHour) })),
            (json!("{\"ttl\": \"5m\"}"), Some(PromptCache { ttl: Some(CacheTtl::FiveMinutes) })),
        ] {
            assert_eq!(ConvertOptions::from_json(&json!({"prompt_cache": value})).unwrap().prompt_cache, want);
        }
        let format =
            ConvertOptions::from_json(&json!({"responseFormat": {"schema": {"type": "object"}, "strict": true}}))
                .unwrap()
                .response_format
                .unwrap();
        assert_eq!((format.name(), format.strict), ("response", Some(true)));
        let (_, report) = ConvertOptions::read_json(&json!({"tool_choice": "tool:", "prompt_cache": {"ttl": "2h"},
            "response_format": {"schema": {}, "name": "a b"}}));
        assert_eq!(paths(&report), ["/options/prompt_cache", "/options/response_format", "/options/tool_choice"]);
        let (_, report) = ConvertOptions::read_json(&json!({"tool_choice": {"name": "t", "type": "tool"},
            "response_format": {"name": "a"}}));
        assert_eq!(paths(&report), ["/options/response_format", "/options/tool_choice"]);
        // What `Serialize` writes reads back.
        let options = ConvertOptions::from_json(&json!({"tool_choice": {"name": "t"}, "prompt_cache": {"ttl": "5m"},
            "response_format": {"schema": {"type": "object"}, "description": "d"}}))
        .unwrap();
        assert_eq!(ConvertOptions::from_json(&serde_json::to_value(&options).unwrap()).unwrap(), options);
    }

    #[test]
    fn tools_hold_provider_tools_and_tool_fields_in_order() {
        let tools = json!([
            {"type": "provider_tool", "provider": "anthropic-messages", "tool": {"type": "bash_20250124", "name": "bash"}},
            {"name": "t", "providerFields": {"provider": "openai-responses", "fields": {"strict": true}}},
            {"name": "u", "provider_fields": {"provider": "gemini", "fields": {}}}
        ]);
        let options = ConvertOptions::from_json(&json!({"tools": tools})).unwrap();
        match &options.tools[..] {
            [ToolEntry::Provider(bash), ToolEntry::Function(t), ToolEntry::Function(u)] => {
                assert_eq!((bash.provider, bash.kind()), (ProviderId::AnthropicMessages, "bash_20250124"));
                let fields = t.provider_fields.as_ref().expect("t's fields");
                assert_eq!(
                    (fields.provider, fields.fields.get("strict")),
                    (ProviderId::OpenAiResponses, Some(&json!(true)))
                );
                assert_eq!(u.provider_fields, None, "no fields carry nothing");
            }
            other => panic!("{other:?}"),
        }
        // What `Serialize` writes reads back, in the option's own shape.
        let written = serde_json::to_value(&options).unwrap();
        assert_eq!(written["tools"][0]["type"], "provider_tool");
        assert_eq!(written["tools"][1]["provider_fields"]["fields"], json!({"strict": true}));
        assert_eq!(ConvertOptions::from_json(&written).unwrap(), options);
    }

    #[test]
    fn bad_tool_entries_are_invalid_parameters_naming_the_entry() {
        for (tool, says) in [
            (json!({"type": "provider_tool", "provider": "openai", "tool": {"type": "web_search"}}), "'openai'"),
            (json!({"type": "provider_tool", "provider": "gemini"}), "\"tool\""),
            (json!({"type": "provider_tool", "provider": "gemini", "tool": {}}), "\"tool\""),
            (json!({"type": "provider_tool", "provider": "gemini", "tool": {"googleSearch": {}}, "x": 1}), "\"x\""),
            (json!({"name": "t", "provider_fields": {"provider": "gemini", "fields": [1]}}), "provider_fields"),
            (json!({"name": "t", "provider_fields": {"provider": "gemini", "fields": {}, "more": 1}}), "\"more\""),
            (json!({"name": "t", "provider_fields": "strict"}), "provider_fields"),
        ] {
            let (_, report) = ConvertOptions::read_json(&json!({"tools": [{"name": "ok"}, tool]}));
            assert_eq!(paths(&report), ["/options/tools"], "{tool}");
            let message = &report.errors[0].message;
            assert!(message.contains("item 1") && message.contains(says), "{tool}: {message}");
        }
    }

    #[test]
    fn provider_fields_take_both_spellings_and_json_text() {
        let want = crate::model::ProviderFields {
            provider: ProviderId::OpenAiResponses,
            fields: json!({"store": false, "reasoning": {"summary": "auto"}}).as_object().unwrap().clone(),
        };
        for options in [
            json!({"provider_fields": {"provider": "openai-responses", "fields": {"store": false, "reasoning": {"summary": "auto"}}}}),
            json!({"providerFields": {"provider": "openai-responses", "fields": {"store": false, "reasoning": {"summary": "auto"}}}}),
            json!({"provider_fields": "{\"provider\": \"openai-responses\", \"fields\": {\"store\": false, \"reasoning\": {\"summary\": \"auto\"}}}"}),
        ] {
            let options = ConvertOptions::from_json(&options).unwrap();
            assert_eq!(options.provider_fields.as_ref(), Some(&want));
            // What `Serialize` writes reads back.
            let written = serde_json::to_value(&options).unwrap();
            assert_eq!(written["provider_fields"]["provider"], "openai-responses");
            assert_eq!(ConvertOptions::from_json(&written).unwrap(), options);
        }
        // No fields carry nothing.
        let empty = json!({"provider_fields": {"provider": "gemini", "fields": {}}});
        assert_eq!(ConvertOptions::from_json(&empty).unwrap().provider_fields, None);
    }

    #[test]
    fn a_bad_provider_fields_option_is_reported_where_it_is_wrong() {
        let cases = [
            (json!(5), vec!["/options/provider_fields"]),
            (json!({"fields": {"a": 1}}), vec!["/options/provider_fields/provider"]),
            (json!({"provider": "openai", "fields": {"a": 1}}), vec!["/options/provider_fields/provider"]),
            (json!({"provider": 3, "fields": {"a": 1}}), vec!["/options/provider_fields/provider"]),
            (json!({"provider": "gemini"}), vec!["/options/provider_fields/fields"]),
            (json!({"provider": "gemini", "fields": "topK"}), vec!["/options/provider_fields/fields"]),
            (
                json!({"provider": "x", "fields": [], "item": 1}),
                vec![
                    "/options/provider_fields/fields",
                    "/options/provider_fields/item",
                    "/options/provider_fields/provider",
                ],
            ),
        ];
        for (value, want) in cases {
            let (options, report) = ConvertOptions::read_json(&json!({"provider_fields": value, "temperature": 0.5}));
            assert_eq!(paths(&report), want, "{value}");
            assert_eq!(options.provider_fields, None, "{value}");
            // The other options are kept.
            assert_eq!(options.temperature, Some(0.5));
        }
        let (_, report) = ConvertOptions::read_json(&json!({"provider_fields": {"provider": "openai", "fields": {}}}));
        let provider = &report.errors[0];
        assert_eq!(provider.received.as_deref(), Some("openai"));
        assert_eq!(
            provider.expected,
            ["bedrock-converse", "openai-chat", "openai-responses", "anthropic-messages", "gemini"]
        );
        assert!(provider.message.contains("openai-responses"), "{}", provider.message);
    }

    #[test]
    fn settings_split_provider_validation_and_conversion() {
        let (settings, report) = ConvertSettings::read_json(
            &json!({"provider": "bedrock-converse", "allowPrefill": true, "limits": {"maxMessages": 4},
                    "system": "Be brief.", "maxTokens": 100, "temperature": "0.5"}),
        );
        assert!(report.is_ok(), "{report}");
        assert_eq!(settings.provider, Some(ProviderId::BedrockConverse));
        assert!(settings.validation.allow_prefill);
        assert_eq!(settings.validation.limits.max_messages, 4);
        assert_eq!(settings.convert.system.as_deref(), Some("Be brief."));
        assert_eq!(settings.convert.temperature, Some(0.5));
        let (settings, report) = ConvertSettings::read_json(&json!({"provider": "Bedrock/Converse"}));
        assert!(report.is_ok());
        assert_eq!(settings.provider, Some(ProviderId::BedrockConverse));
    }

    #[test]
    fn a_missing_or_unknown_provider_is_an_error_listing_the_providers() {
        for options in
            [Value::Null, json!({}), json!({"provider": null}), json!({"provider": "openai"}), json!({"provider": 1})]
        {
            let (settings, report) = ConvertSettings::read_json(&options);
            assert_eq!(settings.provider, None);
            assert_eq!(paths(&report), ["/options/provider"], "{options}");
        }
        let (_, report) = ConvertSettings::read_json(&json!({"provider": "openai"}));
        assert_eq!(
            report.errors[0].expected,
            ["bedrock-converse", "openai-chat", "openai-responses", "anthropic-messages", "gemini"]
        );
        assert_eq!(report.errors[0].received.as_deref(), Some("openai"));
        let (_, report) = ConvertSettings::read_json(
            &json!({"provider": "openai", "temperature": "warm", "colour": 1, "allowPrefill": 0}),
        );
        assert_eq!(
            paths(&report),
            ["/options/allowPrefill", "/options/colour", "/options/provider", "/options/temperature"]
        );
    }
}
