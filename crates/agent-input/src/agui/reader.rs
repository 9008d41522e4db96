//! The reader's state (the problems found so far) and the field readers and diagnostics that every
//! part of an AG-UI body shares.

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::path::Path;

/// Reads an AG-UI body, collecting every problem rather than stopping at the first.
#[derive(Default)]
pub(super) struct Reader {
    pub(super) report: Report,
}

impl Reader {
    /// `object[key]` when it is a string; a problem when it is anything else.
    pub(super) fn string(&mut self, object: &Map<String, Value>, at: &Path, key: &str) -> Option<String> {
        match object.get(key)? {
            Value::String(text) => Some(text.clone()),
            other => {
                self.report.push(wrong(&at.key(key), key, "string", other));
                None
            }
        }
    }

    /// `object[key]` when it is an array, else none (a problem when it is something else).
    pub(super) fn array<'v>(&mut self, object: &'v Map<String, Value>, at: &Path, key: &str) -> &'v [Value] {
        match object.get(key) {
            None => &[],
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.report.push(wrong(&at.key(key), key, "array", other));
                &[]
            }
        }
    }
}

/// Audio, which the standard input cannot carry.
pub(super) fn audio(at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::UnsupportedContentType,
        at,
        "audio is not supported: the standard input has no audio block (send a transcript as text)",
    )
    .expected(["text", "image", "video", "document"])
    .received("audio")
}

/// A value of the wrong JSON type.
pub(super) fn wrong(at: &Path, what: &str, expected: &'static str, found: &Value) -> Diagnostic {
    let found = match found {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    Diagnostic::new(Code::InvalidFieldType, at.clone(), format!("{what} must be a {expected}, not a {found}"))
        .expected([expected])
        .received(found)
}
