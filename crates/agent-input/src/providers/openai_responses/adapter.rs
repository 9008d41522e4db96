//! `OpenAI` Responses: the adapter the dispatcher calls.

use serde_json::{Map, Value};

use super::request::OpenAiResponses;
use crate::diagnostic::Report;
use crate::providers::adapter::{Adapter, Framing, Likeness};
use crate::providers::common::convert::{Capabilities, ModelCheck, Profile};
use crate::providers::common::import::Import;
use crate::providers::common::response::ProviderResponse;
use crate::providers::common::stream::{Answer, StreamEvent};
use crate::providers::models::Vendor;

impl Adapter for OpenAiResponses {
    const PROFILE: &'static Profile = &super::request::PROFILE;
    const CAPABILITIES: &'static Capabilities = &super::request::CAPABILITIES;
    const VENDORS: &'static [Vendor] = &[Vendor::OpenAi];
    const STOP_REASONS: &'static [(&'static str, &'static str)] = super::response::STOP_REASONS;
    const FRAMING: Framing = Framing::Sse;
    const COMPACT_ARGUMENTS: bool = false;
    const WEB_URLS: bool = true;

    fn names_endpoint(path: &str) -> bool {
        path.ends_with("/responses")
    }

    fn check_model(check: &mut ModelCheck<'_>) {
        check.inputs();
        check.sampling();
        check.strict_response_format();
    }

    fn body_likeness(body: &Map<String, Value>) -> Likeness {
        const FIELDS: [&str; 4] = ["input", "instructions", "max_output_tokens", "previous_response_id"];
        if FIELDS.iter().any(|k| body.contains_key(*k)) { Likeness::Distinctive } else { Likeness::Unlike }
    }

    fn import(body: &Value) -> Import {
        super::import::read(body)
    }

    fn parse_response(body: &str) -> Result<ProviderResponse, Report> {
        super::response::parse_openai_responses(body)
    }

    fn sse_event(kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
        super::stream::event(kind, body, answer, events);
    }
}
