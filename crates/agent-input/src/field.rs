//! Reading the fields of a JSON object, typed, with each problem as a [`Diagnostic`] at the
//! field's path.
//!
//! The request validator, the provider response parsers and the gateway's registration API all
//! read "field `key` of this object, as a string / array / object" and report a missing field or
//! a wrong type at that field's JSON Pointer. [`Fields`] is that reading, written once, for both
//! trees ([`crate::json::Json`] and `serde_json::Value`). What differs between callers is given,
//! not re-implemented: how `null` counts ([`Nulls`]) and the sentences of the problems
//! ([`Wording`]). A reader returns `Result<_, Diagnostic>`, so a caller that collects every
//! problem files it with [`Report::record`](crate::Report::record) and a caller that stops at the
//! first returns it with `?` (a [`Diagnostic`] converts into a [`Report`](crate::Report)).
//!
//! ```
//! use agent_input::field::{Fields, Nulls, Wording};
//! use agent_input::{Code, Diagnostic, Path, Report};
//!
//! /// The wording of a registration API.
//! struct Registration;
//!
//! impl Wording for Registration {
//!     fn missing(&self, field: Path, key: &str) -> Diagnostic {
//!         Diagnostic::new(Code::MissingField, field, format!("{key} must be provided"))
//!     }
//!     fn wrong_type(&self, field: Path, key: &str, expected: &'static str, found: &'static str) -> Diagnostic {
//!         Diagnostic::new(Code::InvalidFieldType, field, format!("{key} must be a {expected}"))
//!             .expected([expected])
//!             .received(found)
//!     }
//! }
//!
//! let body = serde_json::json!({"name": "echo", "description": 5, "model": null});
//! let root = Path::root();
//! let fields = Fields::new(body.as_object().unwrap(), &root, Registration).nulls(Nulls::Absent);
//! let mut report = Report::default();
//! assert_eq!(report.record(fields.str("name")), Some("echo"));
//! assert_eq!(report.record(fields.optional_str("description")), None);
//! assert_eq!(report.record(fields.object("model")), None);
//! let problems: Vec<String> = report.errors.iter().map(ToString::to_string).collect();
//! assert_eq!(problems, [
//!     "invalid_field_type at /description: description must be a string",
//!     "missing_field at /model: model must be provided",
//! ]);
//! ```

use crate::diagnostic::Diagnostic;
use crate::json::{JsonObject, JsonType, JsonValue, type_name};
use crate::path::{Loc, Path};

/// Where the object being read is: a [`Path`], or the validator's borrowed path frames. The
/// field's path is only built when there is a problem to report.
pub trait Location {
    /// The path of field `key` of the object here.
    fn field(&self, key: &str) -> Path;
}

impl Location for &Path {
    fn field(&self, key: &str) -> Path {
        self.key(key)
    }
}

impl Location for Loc<'_> {
    fn field(&self, key: &str) -> Path {
        self.key(key).to_path()
    }
}

/// The sentences of a reader's problems. Each caller keeps its established wording (the messages
/// are part of its output); the codes, paths and the decision of what is a problem are shared.
pub trait Wording {
    /// Field `key`, at `field`, is absent (or `null` where [`Nulls`] makes that absent).
    fn missing(&self, field: Path, key: &str) -> Diagnostic;
    /// Field `key`, at `field`, is a `found` (a [`type_name`]) where an `expected` is needed.
    fn wrong_type(&self, field: Path, key: &str, expected: &'static str, found: &'static str) -> Diagnostic;
}

/// How a field holding `null` is read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Nulls {
    /// `null` is a value of the wrong type wherever it is: the request validator shows a `null`
    /// as the mistake it is.
    Value,
    /// An optional field may be `null` (the same as absent); a required one may not. Provider
    /// responses write `null` for "none".
    #[default]
    AbsentIfOptional,
    /// `null` is the same as absent, required or not (ml-commons' REST APIs).
    Absent,
}

/// The fields of one object at one location, read in one [`Wording`].
#[derive(Debug, Clone, Copy)]
pub struct Fields<'v, O, L, W> {
    object: &'v O,
    at: L,
    wording: W,
    nulls: Nulls,
}

#[allow(
    clippy::result_large_err,
    reason = "the problem goes into a Report by value; boxing it would only add an allocation per problem"
)]
impl<'v, O, L, W> Fields<'v, O, L, W>
where
    O: JsonObject,
    L: Location,
    W: Wording,
{
    /// A reader of `object`, which is at `at`; `null` as in [`Nulls::AbsentIfOptional`].
    pub fn new(object: &'v O, at: L, wording: W) -> Self {
        Self { object, at, wording, nulls: Nulls::default() }
    }

    /// The same reader with another [`Nulls`] policy.
    #[must_use]
    pub fn nulls(self, nulls: Nulls) -> Self {
        Self { nulls, ..self }
    }

    /// A required field of any type (`null` included, unless [`Nulls::Absent`]).
    ///
    /// # Errors
    /// The [`Wording::missing`] problem.
    pub fn value(&self, key: &str) -> Result<&'v O::Value, Diagnostic> {
        match self.object.get(key) {
            Some(value) if !(self.nulls == Nulls::Absent && value.json_type() == JsonType::Null) => Ok(value),
            _ => Err(self.wording.missing(self.at.field(key), key)),
        }
    }

    /// A required string field.
    ///
    /// # Errors
    /// The [`Wording::missing`] or [`Wording::wrong_type`] problem.
    pub fn str(&self, key: &str) -> Result<&'v str, Diagnostic> {
        self.required(key, "string", JsonValue::as_str)
    }

    /// An optional string field: `None` when absent.
    ///
    /// # Errors
    /// The [`Wording::wrong_type`] problem.
    pub fn optional_str(&self, key: &str) -> Result<Option<&'v str>, Diagnostic> {
        self.optional(key, "string", JsonValue::as_str)
    }

    /// A required array field.
    ///
    /// # Errors
    /// The [`Wording::missing`] or [`Wording::wrong_type`] problem.
    pub fn array(&self, key: &str) -> Result<&'v [O::Value], Diagnostic> {
        self.required(key, "array", JsonValue::as_array)
    }

    /// An optional array field: `None` when absent.
    ///
    /// # Errors
    /// The [`Wording::wrong_type`] problem.
    pub fn optional_array(&self, key: &str) -> Result<Option<&'v [O::Value]>, Diagnostic> {
        self.optional(key, "array", JsonValue::as_array)
    }

    /// A required object field.
    ///
    /// # Errors
    /// The [`Wording::missing`] or [`Wording::wrong_type`] problem.
    pub fn object(&self, key: &str) -> Result<&'v O, Diagnostic> {
        self.required(key, "object", JsonValue::as_object)
    }

    /// An optional object field: `None` when absent.
    ///
    /// # Errors
    /// The [`Wording::wrong_type`] problem.
    pub fn optional_object(&self, key: &str) -> Result<Option<&'v O>, Diagnostic> {
        self.optional(key, "object", JsonValue::as_object)
    }

    fn required<T>(
        &self,
        key: &str,
        expected: &'static str,
        cast: impl FnOnce(&'v O::Value) -> Option<T>,
    ) -> Result<T, Diagnostic> {
        match self.read(key, false, expected, cast)? {
            Some(value) => Ok(value),
            None => Err(self.wording.missing(self.at.field(key), key)),
        }
    }

    fn optional<T>(
        &self,
        key: &str,
        expected: &'static str,
        cast: impl FnOnce(&'v O::Value) -> Option<T>,
    ) -> Result<Option<T>, Diagnostic> {
        self.read(key, true, expected, cast)
    }

    /// The field as `T`; `None` when absent or a `null` that counts as absent.
    fn read<T>(
        &self,
        key: &str,
        optional: bool,
        expected: &'static str,
        cast: impl FnOnce(&'v O::Value) -> Option<T>,
    ) -> Result<Option<T>, Diagnostic> {
        let Some(value) = self.object.get(key) else { return Ok(None) };
        let null_is_absent = match self.nulls {
            Nulls::Value => false,
            Nulls::AbsentIfOptional => optional,
            Nulls::Absent => true,
        };
        if null_is_absent && value.json_type() == JsonType::Null {
            return Ok(None);
        }
        match cast(value) {
            Some(read) => Ok(Some(read)),
            None => Err(self.wording.wrong_type(self.at.field(key), key, expected, type_name(value))),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::Code;
    use crate::json::Document;

    struct Plain;

    impl Wording for Plain {
        fn missing(&self, field: Path, key: &str) -> Diagnostic {
            Diagnostic::new(Code::MissingField, field, format!("no {key}"))
        }
        fn wrong_type(&self, field: Path, key: &str, expected: &'static str, found: &'static str) -> Diagnostic {
            Diagnostic::new(Code::InvalidFieldType, field, format!("{key}: {expected}, not {found}"))
        }
    }

    fn problem<T>(read: Result<T, Diagnostic>) -> String {
        read.err().map(|d| d.to_string()).unwrap_or_default()
    }

    #[test]
    fn reads_both_trees_alike() {
        let text = r#"{"s": "x", "a": [1], "o": {}, "n": null, "i": 3}"#;
        let value: serde_json::Value = serde_json::from_str(text).unwrap();
        let document = Document::parse(text).unwrap();
        let at = Path::root().key("body");
        let map = Fields::new(value.as_object().unwrap(), &at, Plain);
        let tree = Fields::new(document.root.as_object().unwrap(), &at, Plain);
        assert_eq!(map.str("s").unwrap(), "x");
        assert_eq!(tree.str("s").unwrap(), "x");
        assert_eq!(map.array("a").unwrap().len(), 1);
        assert_eq!(tree.array("a").unwrap().len(), 1);
        assert!(map.object("o").is_ok() && tree.object("o").is_ok());
        assert_eq!(problem(map.str("i")), "invalid_field_type at /body/i: i: string, not number");
        assert_eq!(problem(tree.str("i")), problem(map.str("i")));
        assert_eq!(problem(tree.array("missing")), "missing_field at /body/missing: no missing");
        assert_eq!(tree.optional_object("missing").unwrap(), None);
    }

    #[test]
    fn null_policies() {
        let value = json!({"n": null});
        let object = value.as_object().unwrap();
        let root = Path::root();
        let strict = Fields::new(object, &root, Plain).nulls(Nulls::Value);
        assert_eq!(problem(strict.optional_str("n")), "invalid_field_type at /n: n: string, not null");
        assert_eq!(problem(strict.str("n")), "invalid_field_type at /n: n: string, not null");
        assert!(strict.value("n").is_ok());
        let response = Fields::new(object, &root, Plain);
        assert_eq!(response.optional_str("n").unwrap(), None);
        assert_eq!(problem(response.str("n")), "invalid_field_type at /n: n: string, not null");
        let absent = Fields::new(object, &root, Plain).nulls(Nulls::Absent);
        assert_eq!(absent.optional_array("n").unwrap(), None);
        assert_eq!(problem(absent.str("n")), "missing_field at /n: no n");
        assert_eq!(problem(absent.value("n")), "missing_field at /n: no n");
    }
}
