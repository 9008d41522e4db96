//! AG-UI `RunAgentInput` ⇄ the standard input.
//!
//! [AG-UI](model) is the protocol agent front-ends speak. ml-commons takes a `RunAgentInput` body
//! at the execute API when it has all seven of its keys; this module reads such a body into the
//! standard input ([`from_agui`], or [`from_agui_str`] from its text) and writes standard messages
//! back as AG-UI messages ([`to_agui`], for a `MESSAGES_SNAPSHOT`). [`AgUiRun::request`] is the
//! standard `_execute` request a run stands for, and [`AgUiRun::turn`] the part of it that is new
//! to a thread whose memory already holds the conversation.
//!
//! Reading builds the standard input the body stands for and runs the standard validator on it,
//! so an AG-UI body gets every check a standard one does; each problem's path is mapped back into
//! the AG-UI body (`/messages/2/content/1/source/value`, not `/input/...`).
//!
//! ```
//! use agent_input::agui;
//!
//! let body = serde_json::json!({
//!     "threadId": "t1", "runId": "r1", "state": {}, "tools": [], "context": [], "forwardedProps": {},
//!     "messages": [{"id": "m1", "role": "user", "content": [
//!         {"type": "text", "text": "What is this?"},
//!         {"type": "image", "source": {"type": "data", "value": "iVBORw0KGgo=", "mimeType": "image/png"}}]}]
//! });
//! assert!(agui::is_run_agent_input(&body));
//! let run = agui::from_agui(&body, &Default::default()).unwrap();
//! assert_eq!(run.thread_id, "t1");
//! assert_eq!(run.input.unwrap().question(), "What is this?\n");
//!
//! let bad = serde_json::json!({
//!     "threadId": "t1", "runId": "r1", "state": {}, "tools": [], "context": [], "forwardedProps": {},
//!     "messages": [{"id": "m1", "role": "user", "content": [
//!         {"type": "image", "source": {"type": "data", "value": "not base64!", "mimeType": "image/png"}}]}]
//! });
//! let report = agui::from_agui(&bad, &Default::default()).unwrap_err();
//! assert_eq!(report.errors[0].code.as_str(), "invalid_base64");
//! assert_eq!(report.errors[0].path.to_string(), "/messages/0/content/0/source/value");
//! ```
//!
//! An assistant message's reasoning state (thought signatures, thinking blocks, encrypted
//! reasoning) travels as AG-UI's `encryptedValue` on the message and its tool calls: written by
//! [`to_agui`] and by [`events::RunEvents`] (`REASONING_ENCRYPTED_VALUE`), read back by
//! [`from_agui`] into the message's `reasoningState`.
//!
//! Within this module, dependencies go one way. [`model`] (the AG-UI types), `origin` (where
//! each standard part came from in the AG-UI body) and `reasoning` (reasoning state ⇄
//! `encryptedValue`) depend on nothing here. Reading goes `reader` → `media` → `messages` → `run`
//! → `turn`, each using only those before it; writing goes `output` → `request`; [`events`] uses
//! [`model`] and `reasoning`.

pub mod events;
mod media;
mod messages;
pub mod model;
mod origin;
mod output;
mod reader;
mod reasoning;
mod request;
mod run;
mod turn;

pub use output::to_agui;
pub use request::{memory_id, run_agent_input};
pub use run::{AgUiRun, REQUIRED_KEYS, from_agui, from_agui_str, is_run_agent_input};
pub use turn::Turn;
