//! [`Adapter`]: everything one provider knows, behind one trait of associated items. Each
//! provider's folder implements it once (`adapter.rs`); `dispatch` maps a [`ProviderId`] to the
//! implementation, and the public faces (`convert`, `import`, `response`, `stream`, `register`)
//! call `dispatch`, never a provider by name.

use serde_json::{Map, Value};

use crate::diagnostic::Report;
use crate::providers::common::convert::{Capabilities, ModelCheck, Profile, Provider};
use crate::providers::common::import::Import;
use crate::providers::common::mlcommons::MlCommons;
use crate::providers::common::response::ProviderResponse;
use crate::providers::common::stream::event_stream::Message;
use crate::providers::common::stream::{Answer, StreamError, StreamEvent};
use crate::providers::models::Vendor;

/// How a provider frames its streaming answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Framing {
    /// Server-sent events.
    Sse,
    /// AWS event-stream binary frames.
    EventStream,
}

/// How much a request body's shape looks like one provider's (`import::provider_for_body`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Likeness {
    /// Nothing of it is the provider's.
    Unlike,
    /// It could be the provider's, as it could be others' (a bare `messages` list).
    Plausible,
    /// It has a field or block only this provider's requests have.
    Distinctive,
}

/// The blocks of a body's `messages[*].content` lists that are objects.
pub(crate) fn content_blocks(body: &Map<String, Value>) -> impl Iterator<Item = &Map<String, Value>> {
    body.get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|message| message.get("content").and_then(Value::as_array))
        .flatten()
        .filter_map(Value::as_object)
}

/// One provider: its identity and request writer ([`Provider`]), its profile and capabilities,
/// importer, response reader, stream decoder, stop reasons and ml-commons facts.
pub(crate) trait Adapter: Provider {
    /// What the shared conversion checks need to know about it.
    const PROFILE: &'static Profile;
    /// What its converter can carry.
    const CAPABILITIES: &'static Capabilities;
    /// Who makes the models it serves: a `model` of another vendor's family is checked as an
    /// unknown one.
    const VENDORS: &'static [Vendor];

    /// The rules of the request's model and the provider's pixel and schema limits
    /// ([`ModelCheck`]'s steps it applies); none by default.
    fn check_model(_check: &mut ModelCheck<'_>) {}
    /// Its documented stop reasons in the standard words.
    const STOP_REASONS: &'static [(&'static str, &'static str)];
    /// How its streaming answer is framed.
    const FRAMING: Framing;
    /// Whether its response reader writes a tool call's `input` object back as compact JSON, so
    /// streamed arguments are read and written the same way.
    const COMPACT_ARGUMENTS: bool;
    /// Whether it fetches media at web (`https://`) URLs itself; otherwise they must be sent
    /// inline.
    const WEB_URLS: bool;
    /// Its ml-commons model provider, if ml-commons has one.
    const ML_COMMONS: Option<&'static MlCommons> = None;

    /// Whether an endpoint's path (no query, fragment or trailing `/`) is this provider's API.
    fn names_endpoint(path: &str) -> bool;

    /// How much a request body (an object) looks like this provider's.
    fn body_likeness(body: &Map<String, Value>) -> Likeness;

    /// Reads a request body of this provider into the standard form.
    fn import(body: &Value) -> Import;

    /// Changes the writer makes to a body of this provider imported and written back to it
    /// that no other diagnostic names, each a warning at its path into `body`.
    fn written_back(body: &Value) -> Vec<crate::diagnostic::Diagnostic> {
        let _ = body;
        Vec::new()
    }

    /// Reads a response body.
    ///
    /// # Errors
    /// `invalid_json`, or `missing_field` / `invalid_field_type` with a path.
    fn parse_response(body: &str) -> Result<ProviderResponse, Report>;

    /// One server-sent event (its `event` name and its JSON data) of a streaming answer.
    fn sse_event(_kind: &str, _body: &Value, _answer: &mut Answer, _events: &mut Vec<StreamEvent>) {}

    /// One event-stream message of a streaming answer.
    ///
    /// # Errors
    /// When the message is not the provider's stream format.
    fn event_stream_message(
        _message: &Message,
        _answer: &mut Answer,
        _events: &mut Vec<StreamEvent>,
    ) -> Result<(), StreamError> {
        Ok(())
    }
}
