//! The table every option type is read through: a [`Field`] per option, read with every problem
//! reported at its path, and the readers of the values the limits and validation options take.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::types::{Limits, Options};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::path::Path;
use crate::providers::id::ProviderId;

pub(super) fn provider_ids() -> Vec<&'static str> {
    ProviderId::ALL.iter().map(|p| p.as_str()).collect()
}

pub(super) fn missing_provider() -> Diagnostic {
    Diagnostic::new(
        Code::InvalidParameter,
        option_path("provider"),
        format!("provider is required; use one of {}", provider_ids().join(", ")),
    )
    .expected(provider_ids())
}

pub(super) fn option_path(key: &str) -> Path {
    Path::root().key("options").key(key)
}

/// How a received value is shown: strings as they are, anything else as JSON.
pub(super) fn received(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => crate::json::compact(other),
    }
}

/// The options object; `None` for `null` (no options) and for anything else, which is reported.
pub(super) fn object<'v>(value: &'v Value, report: &mut Report) -> Option<&'v Map<String, Value>> {
    match value {
        Value::Object(map) => Some(map),
        Value::Null => None,
        other => {
            report.push(
                Diagnostic::new(Code::InvalidParameter, Path::root().key("options"), "options must be an object")
                    .received(received(other)),
            );
            None
        }
    }
}

/// One option: the keys it is written with (the first is the name listed in messages), and how
/// its value is read into `T`. A reader gets the option's path for the problems inside the value
/// (a limit inside `limits`); what it returns as `Err` is reported at that path, after the
/// option's name: `"must be true or false"`.
pub(super) struct Field<T> {
    pub(super) keys: &'static [&'static str],
    pub(super) read: fn(&Value, &mut T, &Path, &mut Report) -> Result<(), String>,
}

/// How keys are shown in paths and messages: as the caller wrote them, or by the field's first
/// key (conversion options, reported by their `snake_case` name as ml-commons writes them).
#[derive(Clone, Copy)]
pub(super) enum Names {
    AsWritten,
    Canonical,
}

/// Reads every key of `object` with the field that takes it, reporting each unknown key and each
/// bad value (`null` is absent) under `path`; `what` names the keys in messages (`option`).
pub(super) fn read_fields<T>(
    object: &Map<String, Value>,
    fields: &[Field<T>],
    names: Names,
    what: &str,
    path: &Path,
    into: &mut T,
    report: &mut Report,
) {
    for (key, value) in object {
        let Some(field) = fields.iter().find(|f| f.keys.contains(&key.as_str())) else {
            let known: Vec<&str> = fields.iter().map(|f| f.keys[0]).collect();
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    path.key(key),
                    format!("unknown {what} '{key}'; the {what}s are {}", known.join(", ")),
                )
                .received(key.as_str()),
            );
            continue;
        };
        if value.is_null() {
            continue;
        }
        let name = match names {
            Names::AsWritten => key.as_str(),
            Names::Canonical => field.keys[0],
        };
        let at = path.key(name);
        if let Err(message) = (field.read)(value, into, &at, report) {
            report.push(
                Diagnostic::new(Code::InvalidParameter, at, format!("{name} {message}")).received(received(value)),
            );
        }
    }
}

/// Reads an options object with `fields` (`null` is no options).
pub(super) fn read<T: Default>(value: &Value, fields: &[Field<T>], names: Names) -> (T, Report) {
    let mut report = Report::default();
    let mut options = T::default();
    if let Some(object) = object(value, &mut report) {
        read_fields(object, fields, names, "option", &Path::root().key("options"), &mut options, &mut report);
    }
    (options, report)
}

/// A `Deserialize` through [`read`]: any format, the first problem as the error.
pub(super) fn deserialize_with_report<'de, D: Deserializer<'de>, T>(
    d: D,
    read: fn(&Value) -> (T, Report),
) -> Result<T, D::Error> {
    let (options, report) = read(&Value::deserialize(d)?);
    match report.errors.into_iter().next() {
        None => Ok(options),
        Some(error) => Err(D::Error::custom(format!("{}: {}", error.path, error.message))),
    }
}

pub(super) const WHOLE: &str = "must be a whole number of at least 0";

/// A whole number of at least 0; one written as a float (`1e3`) is read too, and one too large
/// for this platform is no limit.
pub(super) fn count(value: &Value) -> Result<usize, String> {
    let Value::Number(n) = value else { return Err(WHOLE.into()) };
    if let Some(n) = n.as_u64() {
        return Ok(usize::try_from(n).unwrap_or(usize::MAX));
    }
    match n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0) {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
        Some(f) => Ok(if f < usize::MAX as f64 { f as usize } else { usize::MAX }),
        None => Err(WHOLE.into()),
    }
}

pub(super) const LIMITS: &[Field<Limits>] = &[
    Field { keys: &["maxBodyBytes", "max_body_bytes"], read: |v, l, _, _| count(v).map(|n| l.max_body_bytes = n) },
    Field { keys: &["maxDepth", "max_depth"], read: |v, l, _, _| count(v).map(|n| l.max_depth = n) },
    Field { keys: &["maxMessages", "max_messages"], read: |v, l, _, _| count(v).map(|n| l.max_messages = n) },
    Field { keys: &["maxBlocks", "max_blocks"], read: |v, l, _, _| count(v).map(|n| l.max_blocks = n) },
];

pub(super) const OPTIONS: &[Field<Options>] = &[
    Field {
        keys: &["allowPrefill", "allow_prefill"],
        read: |v, o, _, _| v.as_bool().map(|b| o.allow_prefill = b).ok_or_else(|| "must be true or false".into()),
    },
    Field {
        keys: &["mlCommons", "ml_commons"],
        read: |v, o, _, _| v.as_bool().map(|b| o.ml_commons = b).ok_or_else(|| "must be true or false".into()),
    },
    Field {
        keys: &["limits"],
        read: |v, o, path, report| {
            let Value::Object(limits) = v else {
                return Err("must be an object: { maxBodyBytes, maxDepth, maxMessages, maxBlocks }".into());
            };
            read_fields(limits, LIMITS, Names::AsWritten, "limit", path, &mut o.limits, report);
            Ok(())
        },
    },
];

/// A JSON number, or a string holding exactly one (read by the library's JSON parser rather than
/// `str::parse`, whose float tables the WebAssembly build would carry).
pub(super) fn number(value: &Value) -> Option<f64> {
    match value {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => match crate::json::Document::parse(s.trim()).ok()?.root {
            crate::json::Json::Number(n) => n.as_f64().filter(|n| n.is_finite()),
            _ => None,
        },
        _ => None,
    }
}

/// Options from their JSON text (`null` when it is not JSON), for [`Options::read_json`] and the
/// others. Parsed by the library's own JSON reader: `serde_json::from_str` into a `Value`, the
/// only other way, brings `core::fmt`'s float formatting (serde's error paths) into the
/// WebAssembly build, 14 KB of code.
pub fn parse(text: &str) -> Value {
    crate::json::Document::parse(text).map_or(Value::Null, |document| document.root.to_value())
}
