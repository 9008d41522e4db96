//! What the validation and output panes show: the core's validation and conversion of the current
//! body, with long base64 shortened for display. Pure functions, tested natively.

use agent_input::json::Document;
use agent_input::{ConvertOptions, Diagnostic, ProviderId, Report, convert, validate};
use serde_json::{Map, Value};

/// Strings longer than this that look like base64 are shortened in views.
pub(crate) const SHORTEN_OVER: usize = 256;
/// How much of a shortened string is kept.
pub(crate) const SHORTEN_KEEP: usize = 48;

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

    fn options(&self) -> (ConvertOptions, Report) {
        let (json, mut report) = self.options_json();
        let (options, read) = ConvertOptions::read_json(&json);
        report.extend(read);
        (options, report)
    }

    pub(crate) fn validation_options(&self) -> validate::Options {
        validate::Options { allow_prefill: self.allow_prefill, ..validate::Options::default() }
    }
}

/// The conversion's outcome.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Output {
    /// The input has errors; nothing to convert.
    Invalid,
    /// The body, pretty-printed with long base64 shortened, and the conversion's warnings.
    Converted { view: String, warnings: Vec<Diagnostic> },
    /// The provider cannot take this input (or the options are wrong).
    Failed(Report),
}

/// Everything the validation and output panes show for one body.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Analysis {
    pub(crate) input_type: Option<&'static str>,
    pub(crate) valid: bool,
    pub(crate) errors: Vec<Diagnostic>,
    pub(crate) warnings: Vec<Diagnostic>,
    /// Where the text stops being JSON: (line, column), both from 1.
    pub(crate) json_error_at: Option<(usize, usize)>,
    pub(crate) question: Option<String>,
    pub(crate) output: Output,
    /// The schema's say, when the schema editor is on.
    pub(crate) schema: Option<crate::schema::Outcome>,
}

impl Analysis {
    pub(crate) fn empty() -> Self {
        Self {
            input_type: None,
            valid: false,
            errors: Vec::new(),
            warnings: Vec::new(),
            json_error_at: None,
            question: None,
            output: Output::Invalid,
            schema: None,
        }
    }

    /// The schema's violations (none while the editor is off).
    pub(crate) fn violations(&self) -> &[crate::schema::Finding] {
        self.schema.as_ref().map_or(&[], |s| &s.violations)
    }

    /// The schema's own problems (shown at the schema editor): not JSON counts as one.
    pub(crate) fn schema_problems(&self) -> usize {
        self.schema.as_ref().map_or(0, |s| s.problems.len() + usize::from(s.json_error.is_some()))
    }

    /// Valid, and within a usable schema.
    pub(crate) fn all_valid(&self) -> bool {
        self.valid && self.violations().is_empty() && self.schema_problems() == 0
    }
}

/// Validates and converts request text (the JSON editor's).
pub(crate) fn analyze_text(text: &str, settings: &Settings) -> Analysis {
    let options = settings.validation_options();
    match validate::parse(text, &options.limits) {
        Ok(document) => analyze_document(&document, settings),
        Err(report) => {
            let json_error_at =
                serde_json::from_str::<serde::de::IgnoredAny>(text.strip_prefix('\u{feff}').unwrap_or(text))
                    .err()
                    .map(|e| (e.line(), e.column()));
            Analysis { errors: report.errors, warnings: report.warnings, json_error_at, ..Analysis::empty() }
        }
    }
}

/// Validates and converts a body the forms hold.
pub(crate) fn analyze_value(value: &Value, settings: &Settings) -> Analysis {
    analyze_document(&validate::document(value), settings)
}

fn analyze_document(document: &Document<'_>, settings: &Settings) -> Analysis {
    let validation = validate::validate_request(document, &settings.validation_options());
    let input_type = validation.input_type.map(agent_input::InputType::as_str);
    let valid = validation.is_valid();
    let errors = validation.report.errors.clone();
    let warnings = validation.report.warnings.clone();
    let (question, output) = match validation.into_result() {
        Err(_) => (None, Output::Invalid),
        Ok((request, _)) => {
            let question = Some(request.input.question());
            let (options, mut report) = settings.options();
            // Compact text first, shortened while scanning it, and only then a tree to
            // pretty-print: megabytes of base64 are copied once, never into a JSON tree.
            let output = match convert::convert_to_string(settings.provider, &request, &options, false) {
                Ok(converted) if report.errors.is_empty() => {
                    let short = shorten_json_text(&converted.body);
                    let view = serde_json::from_str::<Value>(&short)
                        .and_then(|v| serde_json::to_string_pretty(&v))
                        .unwrap_or(short);
                    let mut warnings = report.warnings;
                    warnings.extend(converted.warnings);
                    Output::Converted { view, warnings }
                }
                Ok(converted) => {
                    report.warnings.extend(converted.warnings);
                    Output::Failed(report)
                }
                Err(errors) => {
                    report.extend(errors);
                    Output::Failed(report)
                }
            };
            (question, output)
        }
    };
    Analysis { input_type, valid, errors, warnings, json_error_at: None, question, output, schema: None }
}

/// The whole converted body, pretty-printed, for the Copy button.
pub(crate) fn full_body(value: &Value, settings: &Settings) -> Result<String, String> {
    let document = validate::document(value);
    let validation = validate::validate_request(&document, &settings.validation_options());
    let (request, _) = validation.into_result().map_err(|_| "the input has errors".to_string())?;
    let (options, report) = settings.options();
    if !report.errors.is_empty() {
        return Err("the conversion options have errors".into());
    }
    convert::convert_to_string(settings.provider, &request, &options, true)
        .map(|c| c.body)
        .map_err(|_| "the provider cannot take this input".into())
}

fn looks_like_base64(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_' | b'\n' | b'\r'))
}

/// A long base64 string as views show it: its start and its length.
pub(crate) fn shorten_str(s: &str) -> Option<String> {
    (s.len() > SHORTEN_OVER && looks_like_base64(s))
        .then(|| format!("{}… [{} base64 characters]", &s[..SHORTEN_KEEP], s.len()))
}

/// Shortens every long base64 string literal in JSON text, as [`shorten`] does in a tree.
pub(crate) fn shorten_json_text(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i + 1;
        let mut end = start;
        let mut escaped = false;
        while end < bytes.len() && bytes[end] != b'"' {
            if bytes[end] == b'\\' {
                escaped = true;
                end += 1;
            }
            end += 1;
        }
        let end = end.min(bytes.len());
        // Object keys stay whole, as in the tree.
        let is_key = bytes[(end + 1).min(bytes.len())..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':');
        if !escaped
            && !is_key
            && let Some(short) = shorten_str(&text[start..end])
        {
            out.push_str(&text[copied..start]);
            out.push_str(&short);
            copied = end;
        }
        i = end + 1;
    }
    out.push_str(&text[copied..]);
    out
}

/// Shortens every long base64 string in a value, in place.
pub(crate) fn shorten(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Some(short) = shorten_str(s) {
                *s = short;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(shorten),
        Value::Object(map) => map.values_mut().for_each(shorten),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Formats a byte count for people.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn human_bytes(n: usize) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{:.1} KB", n as f64 / 1024.0)
    } else {
        format!("{:.2} MB", n as f64 / (1024.0 * 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn valid_text_converts() {
        let a = analyze_text(r#"{"input": "Hi"}"#, &Settings::default());
        assert!(a.valid);
        assert_eq!(a.input_type, Some("TEXT"));
        assert_eq!(a.question.as_deref(), Some("Hi"));
        let Output::Converted { view, warnings } = a.output else { panic!("not converted") };
        assert!(warnings.is_empty());
        let body: Value = serde_json::from_str(&view).unwrap();
        assert_eq!(body["messages"][0], json!({"role": "user", "content": [{"text": "Hi"}]}));
    }

    #[test]
    fn invalid_json_says_where() {
        let a = analyze_text("{\n  \"input\": [1,\n}", &Settings::default());
        assert_eq!(a.errors[0].code.as_str(), "invalid_json");
        assert_eq!(a.json_error_at.map(|(line, _)| line), Some(3));
    }

    #[test]
    fn bad_options_fail_the_conversion_not_the_validation() {
        let settings = Settings { temperature: "hot".into(), tools: "[".into(), ..Settings::default() };
        let a = analyze_value(&json!({"input": "Hi"}), &settings);
        assert!(a.valid);
        let Output::Failed(report) = a.output else { panic!("converted") };
        let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert!(paths.contains(&"/options/temperature".to_string()), "{paths:?}");
        assert!(paths.contains(&"/options/tools".to_string()), "{paths:?}");
    }

    #[test]
    fn long_base64_is_shortened_and_the_copy_is_whole() {
        let data = format!("iVBORw0KGgoA{}", "A".repeat(3988));
        let value = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": data}}]});
        let a = analyze_value(&value, &Settings::default());
        let Output::Converted { view, .. } = a.output else { panic!("not converted") };
        assert!(view.contains("… [4000 base64 characters]"), "{view}");
        assert!(!view.contains(&data));
        let full = full_body(&value, &Settings::default()).unwrap();
        assert!(full.contains(&data));
        assert_eq!(shorten_str("short"), None);
        let text = format!(r#"{{"a":"{data}","b":["x\"{data}",1],"{data}":"é"}}"#);
        let mut tree: Value = serde_json::from_str(&text).unwrap();
        shorten(&mut tree);
        let by_text: Value = serde_json::from_str(&shorten_json_text(&text)).unwrap();
        assert_eq!(by_text, tree);
        assert_eq!(shorten_str(&"é".repeat(300)), None);
    }
}
