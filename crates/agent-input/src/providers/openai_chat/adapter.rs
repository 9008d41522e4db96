//! `OpenAI` Chat Completions: the adapter the dispatcher calls.

use serde_json::{Map, Value};

use super::request::OpenAiChat;
use crate::diagnostic::Report;
use crate::providers::adapter::{Adapter, Framing, Likeness, content_blocks};
use crate::providers::common::convert::{Capabilities, ModelCheck, Profile};
use crate::providers::common::import::Import;
use crate::providers::common::mlcommons::MlCommons;
use crate::providers::common::response::ProviderResponse;
use crate::providers::common::stream::{Answer, StreamEvent};
use crate::providers::models::Vendor;

impl Adapter for OpenAiChat {
    const PROFILE: &'static Profile = &super::request::PROFILE;
    const CAPABILITIES: &'static Capabilities = &super::request::CAPABILITIES;
    const VENDORS: &'static [Vendor] = &[Vendor::OpenAi];
    const STOP_REASONS: &'static [(&'static str, &'static str)] = super::response::STOP_REASONS;
    const FRAMING: Framing = Framing::Sse;
    const COMPACT_ARGUMENTS: bool = false;
    const WEB_URLS: bool = true;
    const ML_COMMONS: Option<&'static MlCommons> = Some(&super::mlcommons::ML_COMMONS);

    fn names_endpoint(path: &str) -> bool {
        path.ends_with("/chat/completions")
    }

    fn check_model(check: &mut ModelCheck<'_>) {
        check.inputs();
        check.sampling();
        check.tools_with_effort();
        check.strict_response_format();
    }

    fn body_likeness(body: &Map<String, Value>) -> Likeness {
        const FIELDS: [&str; 3] = ["max_completion_tokens", "response_format", "reasoning_effort"];
        let own_block = content_blocks(body).any(|b| {
            b.get("type").and_then(Value::as_str).is_some_and(|t| matches!(t, "image_url" | "input_audio" | "file"))
        });
        let own_role = body.get("messages").and_then(Value::as_array).into_iter().flatten().any(|m| {
            m.get("tool_calls").is_some()
                || m.get("role").and_then(Value::as_str).is_some_and(|r| matches!(r, "developer" | "tool"))
        });
        if FIELDS.iter().any(|k| body.contains_key(*k)) || own_block || own_role {
            Likeness::Distinctive
        } else if body.get("messages").is_some_and(Value::is_array) {
            // A bare list of messages is most often this API's.
            Likeness::Plausible
        } else {
            Likeness::Unlike
        }
    }

    fn import(body: &Value) -> Import {
        super::import::read(body)
    }

    fn parse_response(body: &str) -> Result<ProviderResponse, Report> {
        super::response::parse_openai_chat(body)
    }

    fn sse_event(_kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
        super::stream::event(body, answer, events);
    }
}
