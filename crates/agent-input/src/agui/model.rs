//! AG-UI 1.0 types (`@ag-ui/core`'s zod schemas, `ag-ui-protocol`'s models), as serde structs.
//!
//! Every AG-UI object is "loose": unknown keys are allowed, so deserializing ignores them.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The body of an AG-UI run: `RunAgentInput`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RunAgentInput {
    /// The conversation; this project uses it as the memory id.
    pub thread_id: String,
    /// This run.
    pub run_id: String,
    /// The agent's state, opaque here.
    #[serde(default)]
    pub state: Value,
    /// The messages so far.
    pub messages: Vec<Message>,
    /// Tools the front-end offers.
    #[serde(default)]
    pub tools: Vec<Tool>,
    /// Context entries.
    #[serde(default)]
    pub context: Vec<Context>,
    /// Anything else the front-end forwards, opaque here.
    #[serde(default)]
    pub forwarded_props: Value,
}

/// An AG-UI message, told apart by `role`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "lowercase", rename_all_fields = "camelCase")]
pub enum Message {
    /// Instructions from the developer.
    Developer {
        /// The message id.
        id: String,
        /// Opaque reasoning state for the sender to get back ([`super::reasoning`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_value: Option<String>,
        /// The text.
        content: String,
    },
    /// A system prompt.
    System {
        /// The message id.
        id: String,
        /// Opaque reasoning state for the sender to get back ([`super::reasoning`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_value: Option<String>,
        /// The text.
        content: String,
    },
    /// A message from the agent.
    Assistant {
        /// The message id.
        id: String,
        /// Opaque reasoning state for the sender to get back ([`super::reasoning`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_value: Option<String>,
        /// The text, absent for a turn of tool calls only.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        content: Option<String>,
        /// Tools the agent calls.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// A message from the person.
    User {
        /// The message id.
        id: String,
        /// Opaque reasoning state for the sender to get back ([`super::reasoning`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_value: Option<String>,
        /// Text or parts.
        content: Content,
    },
    /// A tool's answer.
    Tool {
        /// The message id.
        id: String,
        /// Opaque reasoning state for the sender to get back ([`super::reasoning`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_value: Option<String>,
        /// Text or parts.
        content: Content,
        /// The call this answers.
        tool_call_id: String,
    },
    /// The model's reasoning, shown to the person; not sent to a model.
    Reasoning {
        /// The message id.
        id: String,
        /// The reasoning text.
        #[serde(default)]
        content: String,
        /// Opaque reasoning state for the sender to get back ([`super::reasoning`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        encrypted_value: Option<String>,
    },
    /// A front-end's activity (progress, plans), not sent to a model.
    Activity {
        /// The message id.
        id: String,
        /// What kind of activity.
        activity_type: String,
        /// Its structured content, opaque here.
        content: Value,
    },
}

/// Message content: a string, or parts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Content {
    /// Plain text.
    Text(String),
    /// Text and media parts.
    Parts(Vec<Part>),
}

/// One part of a message body.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", rename_all_fields = "camelCase")]
pub enum Part {
    /// Text.
    Text {
        /// The text.
        text: String,
    },
    /// An image.
    Image {
        /// Where the bytes are.
        source: PartSource,
    },
    /// Audio (refused on input: the standard input has no audio block).
    Audio {
        /// Where the bytes are.
        source: PartSource,
    },
    /// A video.
    Video {
        /// Where the bytes are.
        source: PartSource,
    },
    /// A document.
    Document {
        /// Where the bytes are.
        source: PartSource,
    },
    /// The pre-1.0 media part, still what ml-commons reads.
    Binary {
        /// The media type, which tells the kind and the format.
        mime_type: String,
        /// Base64 bytes.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        data: Option<String>,
        /// Or a URL.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
}

/// Where a media part's bytes are.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase", rename_all_fields = "camelCase")]
pub enum PartSource {
    /// Base64 bytes inline.
    Data {
        /// The base64 text.
        value: String,
        /// Its media type.
        mime_type: String,
    },
    /// A URL.
    Url {
        /// The URL.
        value: String,
        /// Its media type, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// A handle a provider issued (refused on input: no provider here can resolve it).
    File {
        /// The handle.
        value: String,
        /// The provider that issued it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provider: Option<String>,
        /// Its media type, if known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
}

/// An assistant's tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    /// The call's id.
    pub id: String,
    /// Always `function`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The function called.
    pub function: FunctionCall,
    /// Opaque reasoning state for the sender to get back ([`super::reasoning`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encrypted_value: Option<String>,
}

/// The function of a tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FunctionCall {
    /// The tool's name.
    pub name: String,
    /// The arguments, a JSON object in a string.
    pub arguments: String,
}

/// A tool the front-end offers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Tool {
    /// The tool's name.
    pub name: String,
    /// What it does.
    #[serde(default)]
    pub description: String,
    /// JSON Schema of its arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<Value>,
}

/// A context entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Context {
    /// What the value is.
    pub description: String,
    /// The value.
    pub value: String,
}
