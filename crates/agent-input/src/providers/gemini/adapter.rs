//! Gemini: the adapter the dispatcher calls.

use serde_json::Value;

use super::request::Gemini;
use crate::conversion::mlcommons::MlCommons;
use crate::conversion::{Capabilities, Profile};
use crate::decoding::{Answer, StreamEvent};
use crate::diagnostic::Report;
use crate::importing::Import;
use crate::providers::adapter::{Adapter, Framing};
use crate::reading::ProviderResponse;

impl Adapter for Gemini {
    const PROFILE: &'static Profile = &super::request::PROFILE;
    const CAPABILITIES: &'static Capabilities = &super::request::CAPABILITIES;
    const STOP_REASONS: &'static [(&'static str, &'static str)] = super::response::STOP_REASONS;
    const FRAMING: Framing = Framing::Sse;
    const COMPACT_ARGUMENTS: bool = true;
    const ML_COMMONS: Option<&'static MlCommons> = Some(&super::mlcommons::ML_COMMONS);

    fn import(body: &Value) -> Import {
        super::import::read(body)
    }

    fn parse_response(body: &str) -> Result<ProviderResponse, Report> {
        super::response::parse_gemini(body)
    }

    fn sse_event(_kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
        super::stream::event(body, answer, events);
    }
}
