//! What the store reads and writes, as Rust values: agents with their model and credentials,
//! memories' headers and messages; its error; and the clock its times are in.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{Map, Value};

/// Credentials: string keys and values, never returned by the API nor logged.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credential(pub BTreeMap<String, String>);

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl Credential {
    /// A value, if present and not blank.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str).filter(|v| !v.trim().is_empty())
    }
}

/// The ml-commons `model` block.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSpec {
    /// The provider's model id.
    pub model_id: String,
    /// `echo`, or a provider id / alias (`bedrock/converse`).
    pub model_provider: String,
    /// Secrets.
    pub credential: Credential,
    /// Region, endpoint, inference parameters.
    pub model_parameters: Map<String, Value>,
}

/// A registered agent.
#[derive(Debug, Clone, PartialEq)]
pub struct Agent {
    /// Its id.
    pub id: String,
    /// Name.
    pub name: String,
    /// ml-commons agent type (`conversational`, `flow`, …), kept as given.
    pub kind: String,
    /// Description.
    pub description: Option<String>,
    /// The model it runs.
    pub model: ModelSpec,
    /// Agent parameters, kept as given.
    pub parameters: Map<String, Value>,
    /// The agent's `parameters_schema` (contract §8), checked at registration; `None` for none.
    pub parameters_schema: Option<Value>,
    /// Registration time, milliseconds since the epoch.
    pub created_ms: i64,
}

/// One stored message.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage {
    /// Position in the memory, from 1.
    pub message_id: i64,
    /// The message's role.
    pub role: String,
    /// The message in the standard format, as JSON text.
    pub message: String,
    /// When it was written, milliseconds since the epoch.
    pub created_ms: i64,
}

/// A memory's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    /// Its id.
    pub id: String,
    /// The agent that created it.
    pub agent_id: String,
    /// Created, milliseconds since the epoch.
    pub created_ms: i64,
    /// Last turn, milliseconds since the epoch.
    pub updated_ms: i64,
}

/// A storage failure.
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        Self(format!("storage error: {error}"))
    }
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
