//! `OpenAI` Chat Completions: the adapter the dispatcher calls.

use serde_json::Value;

use super::request::OpenAiChat;
use crate::diagnostic::Report;
use crate::providers::adapter::{Adapter, Framing};
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
