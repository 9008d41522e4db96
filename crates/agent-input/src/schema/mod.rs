//! Agent input schemas (contract §8): an agent's `parameters_schema` validates the request's
//! `parameters`, and the parameters other than the prompt are formatted into an `<inputs>` block
//! in front of it.
//!
//! ```
//! use agent_input::schema::{self, Schema};
//! use serde_json::json;
//!
//! let schema = Schema::new(&json!({
//!     "type": "object",
//!     "required": ["topic"],
//!     "properties": {"topic": {"type": "string"}, "max_words": {"type": "integer", "minimum": 50}}
//! })).unwrap();
//! let value = json!({"input": "Write it.", "parameters": {"topic": "AI", "max_words": 300}});
//! let document = agent_input::validate::document(&value);
//! let (request, _) = agent_input::validate::validate_request(&document, &Default::default())
//!     .into_result().unwrap();
//! assert!(schema.validate(&request).is_ok());
//! assert_eq!(schema.apply(&request).unwrap(),
//!     "<inputs>\ntopic: AI\nmax_words: 300\n</inputs>\n\nWrite it.");
//! ```
//!
//! Validation uses the [`boon`] crate (draft 2020-12 unless the schema's `$schema` names
//! another; `format` is an annotation, as in Python's `jsonschema`); no `$ref` is fetched from the
//! network or the file system.

mod parameters;
mod python;

pub use parameters::*;
