//! Bedrock Converse: the adapter the dispatcher calls.

use serde_json::Value;

use super::request::BedrockConverse;
use crate::diagnostic::Report;
use crate::providers::adapter::{Adapter, Framing};
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
