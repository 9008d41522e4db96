//! What the measuring examples share: a Bedrock `ConverseStream` event as the provider writes it,
//! one AWS event-stream frame.

use agent_input::stream::event_stream::{HeaderValue, Message};
use serde_json::Value;

/// One event-stream frame holding the JSON event `payload` of type `kind`.
pub(crate) fn frame(kind: &str, payload: &Value) -> Vec<u8> {
    Message {
        headers: vec![
            (":event-type".into(), HeaderValue::String(kind.into())),
            (":content-type".into(), HeaderValue::String("application/json".into())),
            (":message-type".into(), HeaderValue::String("event".into())),
        ],
        payload: payload.to_string().into_bytes(),
    }
    .encode()
}
