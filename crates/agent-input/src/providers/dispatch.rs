//! The one place that maps a [`ProviderId`] to its [`Adapter`]: [`dispatch!`] binds the
//! provider's implementation to a type name for one expression, and the functions below are what
//! the public faces ask of a provider chosen at run time. Adding a provider adds one arm here.

use serde_json::{Map, Value};

use super::adapter::{Adapter as _, Framing, Likeness};
use crate::diagnostic::Report;
use crate::providers::common::convert::{Capabilities, ModelCheck, Profile};
use crate::providers::common::import::Import;
use crate::providers::common::mlcommons::MlCommons;
use crate::providers::common::response::ProviderResponse;
use crate::providers::common::stream::event_stream::Message;
use crate::providers::common::stream::{Answer, StreamError, StreamEvent};
use crate::providers::id::ProviderId;

/// Evaluates `$body` with `$adapter` naming the [`Adapter`] of `$provider`.
macro_rules! dispatch {
    ($provider:expr, $adapter:ident => $body:expr) => {
        match $provider {
            $crate::providers::id::ProviderId::BedrockConverse => {
                type $adapter = $crate::providers::bedrock_converse::request::BedrockConverse;
                $body
            }
            $crate::providers::id::ProviderId::OpenAiChat => {
                type $adapter = $crate::providers::openai_chat::request::OpenAiChat;
                $body
            }
            $crate::providers::id::ProviderId::OpenAiResponses => {
                type $adapter = $crate::providers::openai_responses::request::OpenAiResponses;
                $body
            }
            $crate::providers::id::ProviderId::AnthropicMessages => {
                type $adapter = $crate::providers::anthropic_messages::request::AnthropicMessages;
                $body
            }
            $crate::providers::id::ProviderId::Gemini => {
                type $adapter = $crate::providers::gemini::request::Gemini;
                $body
            }
        }
    };
}
pub(crate) use dispatch;

/// The providers ml-commons has, in `ModelProviderType` order.
pub(crate) const ML_COMMONS: &[ProviderId] = &[ProviderId::BedrockConverse, ProviderId::Gemini, ProviderId::OpenAiChat];

/// The provider's data for the shared conversion checks.
pub(crate) const fn profile(provider: ProviderId) -> &'static Profile {
    dispatch!(provider, A => A::PROFILE)
}

/// What the provider's converter can carry.
pub(crate) const fn capabilities(provider: ProviderId) -> &'static Capabilities {
    dispatch!(provider, A => A::CAPABILITIES)
}

/// Who makes the models `provider` serves.
pub(crate) const fn vendors(provider: ProviderId) -> &'static [crate::providers::models::Vendor] {
    dispatch!(provider, A => A::VENDORS)
}

/// The provider's rules of the request's model ([`ModelCheck`]).
pub(crate) fn check_model(provider: ProviderId, check: &mut ModelCheck<'_>) {
    dispatch!(provider, A => A::check_model(check));
}

/// The provider's stop reason in the standard words; an unknown one is kept as given.
pub(crate) fn stop_reason(provider: ProviderId, raw: &str) -> String {
    crate::providers::common::response::stop_reason(dispatch!(provider, A => A::STOP_REASONS), raw)
}

/// Whether an endpoint's path is `provider`'s API.
pub(crate) fn names_endpoint(provider: ProviderId, path: &str) -> bool {
    dispatch!(provider, A => A::names_endpoint(path))
}

/// How much a request body looks like `provider`'s.
pub(crate) fn body_likeness(provider: ProviderId, body: &Map<String, Value>) -> Likeness {
    dispatch!(provider, A => A::body_likeness(body))
}

/// Reads `body`, a request of `provider`.
pub(crate) fn import(provider: ProviderId, body: &Value) -> Import {
    dispatch!(provider, A => A::import(body))
}

/// [`Adapter::written_back`](super::adapter::Adapter::written_back) of `provider`.
pub(crate) fn written_back(provider: ProviderId, body: &Value) -> Vec<crate::diagnostic::Diagnostic> {
    dispatch!(provider, A => A::written_back(body))
}

/// Reads a response body of `provider`.
pub(crate) fn parse_response(provider: ProviderId, body: &str) -> Result<ProviderResponse, Report> {
    dispatch!(provider, A => A::parse_response(body))
}

/// How `provider` frames its streaming answer.
pub(crate) const fn framing(provider: ProviderId) -> Framing {
    dispatch!(provider, A => A::FRAMING)
}

/// Whether `provider`'s streamed tool-call arguments are written back as compact JSON.
pub(crate) const fn compact_arguments(provider: ProviderId) -> bool {
    dispatch!(provider, A => A::COMPACT_ARGUMENTS)
}

/// Whether `provider` fetches media at web URLs itself.
pub(crate) const fn web_urls(provider: ProviderId) -> bool {
    dispatch!(provider, A => A::WEB_URLS)
}

/// One server-sent event of `provider`'s stream.
pub(crate) fn sse_event(
    provider: ProviderId,
    kind: &str,
    body: &Value,
    answer: &mut Answer,
    events: &mut Vec<StreamEvent>,
) {
    dispatch!(provider, A => A::sse_event(kind, body, answer, events));
}

/// One event-stream message of `provider`'s stream.
pub(crate) fn event_stream_message(
    provider: ProviderId,
    message: &Message,
    answer: &mut Answer,
    events: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    dispatch!(provider, A => A::event_stream_message(message, answer, events))
}

/// `provider`'s ml-commons model provider, if ml-commons has one.
pub(crate) const fn ml_commons(provider: ProviderId) -> Option<&'static MlCommons> {
    dispatch!(provider, A => A::ML_COMMONS)
}

/// The provider ml-commons names `name` (`ModelProviderType.from`: case-insensitive).
pub(crate) fn ml_commons_named(name: &str) -> Option<(ProviderId, &'static MlCommons)> {
    ML_COMMONS
        .iter()
        .find_map(|&provider| ml_commons(provider).filter(|m| name.eq_ignore_ascii_case(m.name)).map(|m| (provider, m)))
}
