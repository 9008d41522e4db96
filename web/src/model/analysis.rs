//! What the validation and output panes show for one body: the core's validation and conversion
//! (long base64 shortened for display), the schema's report when the schema editor is on, and
//! the summary line.

use agent_input::json::Document;
use agent_input::{Diagnostic, Report, convert, validate};
use serde_json::Value;

use super::display::shorten_json_text;
use super::schema::{Finding, SchemaReport};
use super::settings::Settings;

/// The provider request the body converts to, as the output pane shows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Conversion {
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
    pub(crate) conversion: Conversion,
    /// The schema's say, when the schema editor is on.
    pub(crate) schema: Option<SchemaReport>,
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
            conversion: Conversion::Invalid,
            schema: None,
        }
    }

    /// The schema's violations (none while the editor is off).
    pub(crate) fn violations(&self) -> &[Finding] {
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
    let mut validation = validate::validate_request(document, &settings.validation_options());
    if settings.schema_on {
        // Seed 004's `{"parameters": {"prompt": ...}}` is valid under a schema (contract §8).
        validation = validation.with_prompt_as_input();
    }
    let input_type = validation.input_type.map(agent_input::InputType::as_str);
    let valid = validation.is_valid();
    let errors = validation.report.errors.clone();
    let warnings = validation.report.warnings.clone();
    let (question, conversion) = match validation.into_result() {
        Err(_) => (None, Conversion::Invalid),
        Ok((request, _)) => {
            let question = Some(request.input.question());
            let (options, mut report) = settings.options();
            // Compact text first, shortened while scanning it, and only then a tree to
            // pretty-print: megabytes of base64 are copied once, never into a JSON tree.
            let conversion = match convert::convert_to_string(settings.provider, &request, &options, false) {
                Ok(converted) if report.errors.is_empty() => {
                    let short = shorten_json_text(&converted.body);
                    let view = serde_json::from_str::<Value>(&short)
                        .and_then(|v| serde_json::to_string_pretty(&v))
                        .unwrap_or(short);
                    let mut warnings = report.warnings;
                    warnings.extend(converted.warnings);
                    Conversion::Converted { view, warnings }
                }
                Ok(converted) => {
                    report.warnings.extend(converted.warnings);
                    Conversion::Failed(report)
                }
                Err(errors) => {
                    report.extend(errors);
                    Conversion::Failed(report)
                }
            };
            (question, conversion)
        }
    };
    Analysis { input_type, valid, errors, warnings, json_error_at: None, question, conversion, schema: None }
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

/// The validation pane's summary line ("2 errors · MESSAGES · 1 warning"); `pending` while the
/// last edit is not analysed yet.
pub(crate) fn summary(a: &Analysis, pending: bool) -> String {
    use std::fmt::Write as _;
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let errors = a.errors.len() + a.violations().len();
    let mut text = match (a.all_valid(), errors) {
        (true, _) => "Valid".to_string(),
        (false, 0) => "The schema has errors".to_string(),
        (false, n) => count(n, "error"),
    };
    if errors > 0 && a.schema_problems() > 0 {
        text.push_str(" · the schema has errors");
    }
    if let Some(t) = a.input_type {
        let _ = write!(text, " · {t}");
    }
    if !a.warnings.is_empty() {
        let _ = write!(text, " · {}", count(a.warnings.len(), "warning"));
    }
    if pending {
        text.push_str(" · checking…");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::display::{shorten, shorten_str};
    use serde_json::json;

    #[test]
    fn valid_text_converts() {
        let a = analyze_text(r#"{"input": "Hi"}"#, &Settings::default());
        assert!(a.valid);
        assert_eq!(a.input_type, Some("TEXT"));
        assert_eq!(a.question.as_deref(), Some("Hi"));
        let Conversion::Converted { view, warnings } = a.conversion else { panic!("not converted") };
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
        let Conversion::Failed(report) = a.conversion else { panic!("converted") };
        let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert!(paths.contains(&"/options/temperature".to_string()), "{paths:?}");
        assert!(paths.contains(&"/options/tools".to_string()), "{paths:?}");
    }

    #[test]
    fn long_base64_is_shortened_and_the_copy_is_whole() {
        let data = format!("iVBORw0KGgoA{}", "A".repeat(3988));
        let value = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": data}}]});
        let a = analyze_value(&value, &Settings::default());
        let Conversion::Converted { view, .. } = a.conversion else { panic!("not converted") };
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

    #[test]
    fn the_summary_counts() {
        let a = analyze_text(r#"{"input": ""}"#, &Settings::default());
        assert_eq!(summary(&a, false), "1 error · TEXT");
        let ok = analyze_text(r#"{"input": "Hi"}"#, &Settings::default());
        assert_eq!(summary(&ok, true), "Valid · TEXT · checking…");
    }
}
