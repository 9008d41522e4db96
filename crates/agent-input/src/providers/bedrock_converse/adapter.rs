//! Bedrock Converse: the adapter the dispatcher calls.

use serde_json::{Map, Value};

use super::request::BedrockConverse;
use crate::diagnostic::Report;
use crate::providers::adapter::{Adapter, Framing, Likeness, content_blocks};
use crate::providers::common::convert::{Capabilities, ModelCheck, Profile};
use crate::providers::common::import::Import;
use crate::providers::common::mlcommons::MlCommons;
use crate::providers::common::response::ProviderResponse;
use crate::providers::common::stream::event_stream::Message;
use crate::providers::common::stream::{Answer, StreamError, StreamEvent};
use crate::providers::models::Vendor;

impl Adapter for BedrockConverse {
    const PROFILE: &'static Profile = &super::request::PROFILE;
    const CAPABILITIES: &'static Capabilities = &super::request::CAPABILITIES;
    const VENDORS: &'static [Vendor] = &[Vendor::Anthropic, Vendor::Meta, Vendor::Amazon, Vendor::Mistral];
    const STOP_REASONS: &'static [(&'static str, &'static str)] = super::response::STOP_REASONS;
    const FRAMING: Framing = Framing::EventStream;
    const COMPACT_ARGUMENTS: bool = true;
    const WEB_URLS: bool = false;
    const ML_COMMONS: Option<&'static MlCommons> = Some(&super::mlcommons::ML_COMMONS);

    fn names_endpoint(path: &str) -> bool {
        path.ends_with("/converse") || path.ends_with("/converse-stream")
    }

    fn check_model(check: &mut ModelCheck<'_>) {
        check.pixels();
        check.inputs();
        check.system_prompt();
        check.sampling();
        check.claude_thinking();
    }

    fn body_likeness(body: &Map<String, Value>) -> Likeness {
        const FIELDS: [&str; 6] = [
            "inferenceConfig",
            "modelId",
            "additionalModelRequestFields",
            "guardrailConfig",
            "promptVariables",
            "performanceConfig",
        ];
        // Converse's blocks are untyped, named by their one key (`{"text": …}`, `{"toolUse": …}`).
        const BLOCKS: [&str; 8] =
            ["text", "image", "document", "video", "toolUse", "toolResult", "reasoningContent", "cachePoint"];
        let untyped = |b: &Map<String, Value>| !b.contains_key("type") && BLOCKS.iter().any(|k| b.contains_key(*k));
        let own_system = body
            .get("system")
            .and_then(Value::as_array)
            .is_some_and(|blocks| blocks.iter().filter_map(Value::as_object).any(untyped));
        // Gemini's `toolConfig` has no `tools`.
        let own_tools = body.get("toolConfig").is_some_and(|c| c.get("tools").is_some());
        if FIELDS.iter().any(|k| body.contains_key(*k)) || own_system || own_tools || content_blocks(body).any(untyped)
        {
            Likeness::Distinctive
        } else {
            Likeness::Unlike
        }
    }

    fn import(body: &Value) -> Import {
        super::import::read(body)
    }

    fn parse_response(body: &str) -> Result<ProviderResponse, Report> {
        super::response::parse_bedrock_converse(body)
    }

    fn event_stream_message(
        message: &Message,
        answer: &mut Answer,
        events: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        super::stream::message(message, answer, events)
    }
}
