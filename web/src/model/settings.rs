//! The conversion settings as the output pane's fields hold them, and their reading into the
//! core's options (numbers as typed text; a bad value is an `invalid_parameter` at
//! `/options/<key>`, as everywhere else).

use agent_input::{ConvertOptions, Diagnostic, ProviderId, Report, validate};
use serde_json::{Map, Value};

/// The conversion settings as the output pane's fields hold them (text, as typed).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub(crate) provider: ProviderId,
    pub(crate) system: String,
    pub(crate) max_tokens: String,
    pub(crate) temperature: String,
    pub(crate) top_p: String,
    /// One stop sequence a line.
    pub(crate) stop_sequences: String,
    /// A JSON array of tool specs, or empty.
    pub(crate) tools: String,
    pub(crate) allow_prefill: bool,
    /// An agent's `parameters_schema`, as typed, and whether the parameters are checked against it.
    pub(crate) schema: String,
    pub(crate) schema_on: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            provider: ProviderId::ALL[0],
            system: String::new(),
            max_tokens: String::new(),
            temperature: String::new(),
            top_p: String::new(),
            stop_sequences: String::new(),
            tools: String::new(),
            allow_prefill: false,
            schema: String::new(),
            schema_on: false,
        }
    }
}

impl Settings {
    /// The options as JSON in the shape `ConvertOptions::read_json` reads (numbers as typed
    /// text: it takes numeric strings, and reports what is not a number at `/options/<key>`).
    pub(crate) fn options_json(&self) -> (Value, Report) {
        let mut object = Map::new();
        let mut report = Report::default();
        let text = |s: &str| (!s.trim().is_empty()).then(|| Value::String(s.trim().to_string()));
        if !self.system.is_empty() {
            object.insert("system".into(), Value::String(self.system.clone()));
        }
        for (name, value) in
            [("max_tokens", &self.max_tokens), ("temperature", &self.temperature), ("top_p", &self.top_p)]
        {
            if let Some(v) = text(value) {
                object.insert(name.into(), v);
            }
        }
        let stops: Vec<Value> =
            self.stop_sequences.lines().filter(|l| !l.is_empty()).map(|l| Value::String(l.to_string())).collect();
        if !stops.is_empty() {
            object.insert("stop_sequences".into(), Value::Array(stops));
        }
        if !self.tools.trim().is_empty() {
            match serde_json::from_str::<Value>(&self.tools) {
                Ok(tools) => {
                    object.insert("tools".into(), tools);
                }
                Err(e) => report.push(Diagnostic::new(
                    agent_input::Code::InvalidParameter,
                    agent_input::Path::root().key("options").key("tools"),
                    format!("tools is not valid JSON: {e}"),
                )),
            }
        }
        (Value::Object(object), report)
    }

    pub(crate) fn options(&self) -> (ConvertOptions, Report) {
        let (json, mut report) = self.options_json();
        let (options, read) = ConvertOptions::read_json(&json);
        report.extend(read);
        (options, report)
    }

    pub(crate) fn validation_options(&self) -> validate::Options {
        validate::Options { allow_prefill: self.allow_prefill, ..validate::Options::default() }
    }
}
