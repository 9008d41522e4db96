//! Each options type read from JSON through its table, every problem reported at its path, and
//! its `Deserialize` through the same table.

use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};

use super::fields::{CONVERT, tool_entry};
use super::table::{
    LIMITS, Names, OPTIONS, deserialize_with_report, missing_provider, object, option_path, provider_ids, read,
    received,
};
use super::types::{ConvertOptions, ConvertSettings, Limits, Options, ToolEntry, ToolSpec};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::providers::id::ProviderId;

impl Limits {
    /// Reads `{ maxBodyBytes?, maxDepth?, maxMessages?, maxBlocks? }` (or their `snake_case`
    /// spellings; `null` keeps the default), reporting every problem at `/options/<key>`.
    pub fn read_json(value: &Value) -> (Self, Report) {
        read(value, LIMITS, Names::AsWritten)
    }
}

impl<'de> Deserialize<'de> for Limits {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_with_report(d, Self::read_json)
    }
}

impl Options {
    /// Reads `{ allowPrefill?, mlCommons?, limits? }` (`null` is no options), reporting every problem at
    /// `/options/<key>` and keeping what could be read.
    pub fn read_json(value: &Value) -> (Self, Report) {
        read(value, OPTIONS, Names::AsWritten)
    }
}

impl<'de> Deserialize<'de> for Options {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_with_report(d, Self::read_json)
    }
}

/// An entry of the `tools` option, read as the option reads it.
impl<'de> Deserialize<'de> for ToolEntry {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        tool_entry(&Value::deserialize(d)?).map_err(|why| serde::de::Error::custom(format!("a tool {why}")))
    }
}

/// A function tool spec, read as the `tools` option reads one.
impl<'de> Deserialize<'de> for ToolSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match ToolEntry::deserialize(d)? {
            ToolEntry::Function(spec) => Ok(spec),
            ToolEntry::Provider(_) => Err(serde::de::Error::custom("a provider tool is not a function tool spec")),
        }
    }
}

impl<'de> Deserialize<'de> for ConvertOptions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        deserialize_with_report(d, Self::read_json)
    }
}

impl ConvertOptions {
    /// Reads options from JSON the way callers write them: `snake_case` or camelCase keys
    /// (`max_tokens` / `maxTokens`), and numbers either as JSON numbers or as numeric strings,
    /// since ml-commons stores `model_parameters` as strings. Every problem is reported at
    /// `/options/<key>`, with the key's `snake_case` name.
    ///
    /// # Errors
    /// `invalid_parameter` for unknown keys and values of the wrong type.
    pub fn from_json(value: &Value) -> Result<Self, Report> {
        let (options, report) = Self::read_json(value);
        if report.is_ok() { Ok(options) } else { Err(report) }
    }

    /// Like [`Self::from_json`], but keeps going: the options that could be read, and a report of
    /// those that could not. Callers that go on to convert with the readable ones report every
    /// problem at once — a bad `max_tokens` does not hide an out-of-range `temperature`.
    pub fn read_json(value: &Value) -> (Self, Report) {
        read(value, CONVERT, Names::Canonical)
    }
}

impl ConvertSettings {
    /// Reads the settings, reporting every problem (a missing provider included) and keeping
    /// what could be read, so conversion can still run and report its own problems beside these.
    /// `provider` takes an id (`bedrock-converse`) or an ml-commons name (`Bedrock/Converse`).
    pub fn read_json(value: &Value) -> (Self, Report) {
        let mut report = Report::default();
        let Some(object) = object(value, &mut report) else {
            report.push(missing_provider());
            return (Self::default(), report);
        };
        let (mut validation, mut convert, mut provider) = (Map::new(), Map::new(), None);
        for (key, value) in object {
            if key == "provider" {
                provider = Some(value);
            } else if OPTIONS.iter().any(|f| f.keys.contains(&key.as_str())) {
                validation.insert(key.clone(), value.clone());
            } else {
                convert.insert(key.clone(), value.clone());
            }
        }
        let (validation, errors) = Options::read_json(&Value::Object(validation));
        report.extend(errors);
        let provider = match provider {
            None | Some(Value::Null) => {
                report.push(missing_provider());
                None
            }
            Some(Value::String(raw)) => {
                let parsed = ProviderId::parse(raw);
                if parsed.is_none() {
                    report.push(
                        Diagnostic::new(
                            Code::InvalidParameter,
                            option_path("provider"),
                            format!("unknown provider '{raw}'; use one of {}", provider_ids().join(", ")),
                        )
                        .expected(provider_ids())
                        .received(raw.as_str()),
                    );
                }
                parsed
            }
            Some(other) => {
                report.push(
                    Diagnostic::new(
                        Code::InvalidParameter,
                        option_path("provider"),
                        format!("provider must be a string such as '{}'", ProviderId::ALL[0]),
                    )
                    .received(received(other)),
                );
                None
            }
        };
        let (convert, errors) = ConvertOptions::read_json(&Value::Object(convert));
        report.extend(errors);
        (Self { provider, validation, convert }, report)
    }
}
