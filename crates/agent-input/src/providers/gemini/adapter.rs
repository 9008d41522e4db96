//! Gemini: the adapter the dispatcher calls.

use serde_json::{Map, Value};

use super::request::Gemini;
use crate::diagnostic::Report;
use crate::providers::adapter::{Adapter, Framing, Likeness};
use crate::providers::common::convert::{Capabilities, ModelCheck, Profile};
use crate::providers::common::import::Import;
use crate::providers::common::mlcommons::MlCommons;
use crate::providers::common::response::ProviderResponse;
use crate::providers::common::stream::{Answer, StreamEvent};
use crate::providers::models::Vendor;

impl Adapter for Gemini {
    const PROFILE: &'static Profile = &super::request::PROFILE;
    const CAPABILITIES: &'static Capabilities = &super::request::CAPABILITIES;
    const VENDORS: &'static [Vendor] = &[Vendor::Google];
    const STOP_REASONS: &'static [(&'static str, &'static str)] = super::response::STOP_REASONS;
    const FRAMING: Framing = Framing::Sse;
    const COMPACT_ARGUMENTS: bool = true;
    const WEB_URLS: bool = true;
    const ML_COMMONS: Option<&'static MlCommons> = Some(&super::mlcommons::ML_COMMONS);

    fn names_endpoint(path: &str) -> bool {
        let path = path.to_ascii_lowercase();
        path.ends_with(":generatecontent") || path.ends_with(":streamgeneratecontent")
    }

    fn check_model(check: &mut ModelCheck<'_>) {
        check.inputs();
        check.gemini_budget();
    }

    fn body_likeness(body: &Map<String, Value>) -> Likeness {
        const FIELDS: [&str; 6] = [
            "contents",
            "generationConfig",
            "systemInstruction",
            "system_instruction",
            "safetySettings",
            "cachedContent",
        ];
        if FIELDS.iter().any(|k| body.contains_key(*k)) { Likeness::Distinctive } else { Likeness::Unlike }
    }

    fn import(body: &Value) -> Import {
        super::import::read(body)
    }

    fn written_back(body: &Value) -> Vec<crate::diagnostic::Diagnostic> {
        super::import::signatures_added(body)
    }

    fn parse_response(body: &str) -> Result<ProviderResponse, Report> {
        super::response::parse_gemini(body)
    }

    fn sse_event(_kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
        super::stream::event(body, answer, events);
    }
}
