//! Anthropic Messages: the adapter the dispatcher calls.

use serde_json::{Map, Value};

use super::request::AnthropicMessages;
use crate::diagnostic::Report;
use crate::providers::adapter::{Adapter, Framing, Likeness, content_blocks};
use crate::providers::common::convert::{Capabilities, ModelCheck, Profile};
use crate::providers::common::import::Import;
use crate::providers::common::response::ProviderResponse;
use crate::providers::common::stream::{Answer, StreamEvent};
use crate::providers::models::Vendor;

impl Adapter for AnthropicMessages {
    const PROFILE: &'static Profile = &super::request::PROFILE;
    const CAPABILITIES: &'static Capabilities = &super::request::CAPABILITIES;
    const VENDORS: &'static [Vendor] = &[Vendor::Anthropic];
    const STOP_REASONS: &'static [(&'static str, &'static str)] = super::response::STOP_REASONS;
    const FRAMING: Framing = Framing::Sse;
    const COMPACT_ARGUMENTS: bool = true;
    const WEB_URLS: bool = true;

    fn names_endpoint(path: &str) -> bool {
        path.ends_with("/messages")
    }

    fn check_model(check: &mut ModelCheck<'_>) {
        check.pixels();
        check.inputs();
        check.sampling();
        check.claude_thinking();
    }

    fn body_likeness(body: &Map<String, Value>) -> Likeness {
        // `system` is a string or typed blocks here (Converse's are untyped); `anthropic_version`
        // is the field Bedrock's InvokeModel and Vertex AI take in place of a header.
        let typed_system = match body.get("system") {
            Some(Value::String(_)) => true,
            Some(Value::Array(blocks)) => blocks.iter().all(|b| b.get("type").is_some()),
            _ => false,
        };
        let own_block = content_blocks(body).any(|b| {
            b.contains_key("source")
                || b.get("type").and_then(Value::as_str).is_some_and(|t| {
                    matches!(t, "tool_use" | "tool_result" | "thinking" | "redacted_thinking" | "document" | "image")
                })
        });
        let own_field =
            ["anthropic_version", "stop_sequences", "top_k", "thinking"].iter().any(|k| body.contains_key(*k));
        // A tool with `input_schema`, or a server tool's dated type (`web_search_20250305`).
        let own_tool = body.get("tools").and_then(Value::as_array).into_iter().flatten().any(|tool| {
            tool.get("input_schema").is_some()
                || tool.get("type").and_then(Value::as_str).is_some_and(|t| {
                    t.rsplit_once('_')
                        .is_some_and(|(_, date)| date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()))
                })
        });
        let own_choice = body
            .get("tool_choice")
            .and_then(|c| c.get("type"))
            .and_then(Value::as_str)
            .is_some_and(|t| matches!(t, "auto" | "any" | "tool" | "none"));
        if typed_system || own_block || own_field || own_tool || own_choice {
            Likeness::Distinctive
        } else if body.get("messages").is_some_and(Value::is_array) && body.contains_key("max_tokens") {
            // Its `max_tokens` is required; Chat Completions takes it too.
            Likeness::Plausible
        } else {
            Likeness::Unlike
        }
    }

    fn import(body: &Value) -> Import {
        super::import::read(body)
    }

    fn parse_response(body: &str) -> Result<ProviderResponse, Report> {
        super::response::parse_anthropic_messages(body)
    }

    fn sse_event(kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
        super::stream::event(kind, body, answer, events);
    }
}
