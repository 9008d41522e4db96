//! The agent input schema (contract §8) as data: the schema module's report on the current body
//! (`SchemaReport`, reached through the `SchemaModule` trait so this stays free of JavaScript),
//! the form generated from the schema's properties, and a field's text as a parameter value.

use std::sync::Arc;

use serde::Deserialize;
use serde_json::Value;

use super::settings::Settings;

/// The schema module's two calls, JSON text both ways (`browser::schema_module` binds them to
/// `agent-input/schema`'s WebAssembly module; `Err` is the module's own failure, as text).
pub(crate) trait SchemaModule {
    /// `checkSchema`: is the schema usable.
    fn check(&self, schema: &str) -> Result<String, String>;
    /// `formatInputsJson`: the body's parameters checked against the schema and the prompt formatted.
    fn format(&self, body: &str, schema: &str, allow_prefill: bool) -> Result<String, String>;
}

/// A diagnostic of the schema module (its JavaScript shape).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Finding {
    pub(crate) code: String,
    pub(crate) path: String,
    pub(crate) message: String,
    #[serde(rename = "schemaPath", default)]
    pub(crate) schema_path: Option<String>,
    #[serde(default)]
    pub(crate) expected: Vec<String>,
    #[serde(default)]
    pub(crate) received: Option<String>,
}

/// What the schema says about the current body (`Analysis::schema`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct SchemaReport {
    /// The schema text is not JSON: where and why.
    pub(crate) json_error: Option<String>,
    /// `invalid_schema` problems, paths into the schema.
    pub(crate) problems: Vec<Finding>,
    /// `schema_violation` errors, paths into the request.
    pub(crate) violations: Vec<Finding>,
    /// What `formatInputsJson` returns when everything is valid.
    pub(crate) prompt: Option<String>,
    /// Not checked: the module is not loaded yet, or the request itself is invalid.
    pub(crate) pending: Option<&'static str>,
}

#[derive(Deserialize)]
struct Check {
    valid: bool,
    #[serde(default)]
    errors: Vec<Finding>,
}

#[derive(Deserialize)]
struct Formatted {
    ok: bool,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    errors: Vec<Finding>,
}

/// The schema's JSON: `Err` says where it breaks.
fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text)
        .map_err(|e| format!("The schema is not JSON: line {}, column {}: {e}.", e.line(), e.column()))
}

/// Checks the schema and the body against it. `module`: the schema module, once loaded.
/// `body_valid`: the request passed the core's own validation (an invalid request is not checked
/// against a schema, as the gateway does).
pub(crate) fn check(
    settings: &Settings,
    module: Option<&dyn SchemaModule>,
    body_valid: bool,
    body: impl FnOnce() -> String,
) -> SchemaReport {
    let mut out = SchemaReport::default();
    if settings.schema.trim().is_empty() {
        out.pending = Some("Paste or write an agent's parameters_schema.");
        return out;
    }
    if let Err(why) = parse(&settings.schema) {
        out.json_error = Some(why);
        return out;
    }
    let Some(module) = module else {
        out.pending = Some("Loading the schema validator…");
        return out;
    };
    match module.check(&settings.schema).map(|t| serde_json::from_str::<Check>(&t)) {
        Ok(Ok(check)) if !check.valid => {
            out.problems = check.errors;
            return out;
        }
        Ok(Ok(_)) => {}
        Ok(Err(e)) => {
            out.json_error = Some(format!("The schema module answered unexpectedly: {e}."));
            return out;
        }
        Err(e) => {
            out.json_error = Some(format!("The schema module failed: {e}."));
            return out;
        }
    }
    if !body_valid {
        out.pending = Some("Fix the request's errors first: its parameters are checked once it is valid.");
        return out;
    }
    match module
        .format(&body(), &settings.schema, settings.allow_prefill)
        .map(|t| serde_json::from_str::<Formatted>(&t))
    {
        Ok(Ok(formatted)) => {
            out.prompt = if formatted.ok { formatted.prompt } else { None };
            out.violations = formatted.errors.into_iter().filter(|f| f.code == "schema_violation").collect();
        }
        Ok(Err(e)) => out.json_error = Some(format!("The schema module answered unexpectedly: {e}.")),
        Err(e) => out.json_error = Some(format!("The schema module failed: {e}.")),
    }
    out
}

/// The kinds of field the generated form has.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FieldKind {
    /// `enum`: a select of the values (as JSON text).
    Choice(Vec<Value>),
    Text {
        multiline: bool,
    },
    Number {
        integer: bool,
    },
    Boolean,
    /// Arrays, objects and anything else: JSON text.
    Json,
}

/// One generated field: a top-level property of the schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) kind: FieldKind,
    pub(crate) required: bool,
    pub(crate) description: Option<String>,
}

/// The generated form: the schema's properties but `prompt` (the prompt is the input, or
/// `parameters.prompt` in the parameters editor).
pub(crate) fn form_spec(settings: &Settings) -> Option<Arc<Vec<Field>>> {
    if !settings.schema_on {
        return None;
    }
    let schema = parse(&settings.schema).ok()?;
    let properties = schema.get("properties")?.as_object()?;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let fields = properties
        .iter()
        .filter(|(name, _)| name.as_str() != "prompt")
        .map(|(name, property)| Field {
            name: name.clone(),
            kind: kind(property),
            required: required.contains(&name.as_str()),
            description: property.get("description").and_then(Value::as_str).map(str::to_string),
        })
        .collect();
    Some(Arc::new(fields))
}

fn kind(property: &Value) -> FieldKind {
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        return FieldKind::Choice(values.clone());
    }
    // `"type": ["string", "null"]`: the first type that is not null.
    let type_name = match property.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    };
    match type_name {
        Some("string") => {
            // Short bounded strings get one line; anything else may be prose.
            let short = property.get("maxLength").and_then(Value::as_u64).is_some_and(|n| n <= 100);
            FieldKind::Text { multiline: !short }
        }
        Some("integer") => FieldKind::Number { integer: true },
        Some("number") => FieldKind::Number { integer: false },
        Some("boolean") => FieldKind::Boolean,
        _ => FieldKind::Json,
    }
}

/// What a form field's text becomes in the body; `None` removes the parameter.
pub(crate) fn value_of(kind: &FieldKind, text: &str) -> Result<Option<Value>, String> {
    match kind {
        FieldKind::Text { .. } => Ok((!text.is_empty()).then(|| Value::String(text.to_string()))),
        FieldKind::Choice(_) | FieldKind::Boolean => {
            if text.is_empty() {
                Ok(None)
            } else {
                serde_json::from_str(text).map(Some).map_err(|e| e.to_string())
            }
        }
        // Not a number: kept as text, so the schema reports it.
        FieldKind::Number { .. } => Ok(match text.trim() {
            "" => None,
            t => Some(match serde_json::from_str::<Value>(t) {
                Ok(n @ Value::Number(_)) => n,
                _ => Value::String(text.to_string()),
            }),
        }),
        FieldKind::Json => {
            if text.trim().is_empty() {
                Ok(None)
            } else {
                serde_json::from_str(text).map(Some).map_err(|e| format!("Not JSON: {e}"))
            }
        }
    }
}

/// A value as its field shows it.
pub(crate) fn text_of(kind: &FieldKind, value: Option<&Value>) -> String {
    match (kind, value) {
        (_, None) => String::new(),
        (FieldKind::Text { .. } | FieldKind::Number { .. }, Some(Value::String(s))) => s.clone(),
        (FieldKind::Json, Some(v)) => serde_json::to_string_pretty(v).unwrap_or_default(),
        (_, Some(v)) => v.to_string(),
    }
}

/// Re-indents the schema (two spaces), or says why it cannot.
pub(crate) fn prettify(text: &str) -> Result<String, String> {
    parse(text).map(|v| serde_json::to_string_pretty(&v).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A schema module that answers from fixed text.
    struct Fake {
        check: &'static str,
        format: &'static str,
    }

    impl SchemaModule for Fake {
        fn check(&self, _: &str) -> Result<String, String> {
            Ok(self.check.into())
        }
        fn format(&self, _: &str, _: &str, _: bool) -> Result<String, String> {
            Ok(self.format.into())
        }
    }

    #[test]
    fn the_report_says_what_stops_the_check() {
        let on = |schema: &str| Settings { schema: schema.into(), schema_on: true, ..Settings::default() };
        let valid = Fake { check: r#"{"valid": true}"#, format: r#"{"ok": true, "prompt": "P"}"# };
        assert!(check(&on(""), Some(&valid), true, String::new).pending.is_some());
        assert!(check(&on("{"), Some(&valid), true, String::new).json_error.is_some());
        assert_eq!(check(&on("{}"), None, true, String::new).pending, Some("Loading the schema validator…"));
        assert!(check(&on("{}"), Some(&valid), false, String::new).pending.is_some());
        assert_eq!(check(&on("{}"), Some(&valid), true, String::new).prompt.as_deref(), Some("P"));
        let bad = Fake {
            check: r#"{"valid": false, "errors": [{"code": "invalid_schema", "path": "/type", "message": "m"}]}"#,
            format: "",
        };
        assert_eq!(check(&on("{}"), Some(&bad), true, String::new).problems[0].path, "/type");
        let violating = Fake {
            check: r#"{"valid": true}"#,
            format: r#"{"ok": false, "errors": [{"code": "schema_violation", "path": "/parameters/n", "message": "m"}]}"#,
        };
        let report = check(&on("{}"), Some(&violating), true, String::new);
        assert_eq!((report.prompt, report.violations.len()), (None, 1));
    }

    #[test]
    fn fields_follow_the_schema() {
        let settings = Settings {
            schema_on: true,
            schema: json!({"required": ["topic"], "properties": {
                "topic": {"type": "string", "description": "What about"},
                "format": {"type": "string", "enum": ["summary", "essay"]},
                "code": {"type": "string", "maxLength": 8},
                "max_words": {"type": "integer"},
                "ratio": {"type": ["number", "null"]},
                "draft": {"type": "boolean"},
                "audience": {"type": "array"},
                "prompt": {"type": "string"}
            }})
            .to_string(),
            ..Settings::default()
        };
        let fields = form_spec(&settings).unwrap();
        let kinds: Vec<(&str, &FieldKind, bool)> =
            fields.iter().map(|f| (f.name.as_str(), &f.kind, f.required)).collect();
        assert_eq!(
            kinds,
            [
                ("topic", &FieldKind::Text { multiline: true }, true),
                ("format", &FieldKind::Choice(vec![json!("summary"), json!("essay")]), false),
                ("code", &FieldKind::Text { multiline: false }, false),
                ("max_words", &FieldKind::Number { integer: true }, false),
                ("ratio", &FieldKind::Number { integer: false }, false),
                ("draft", &FieldKind::Boolean, false),
                ("audience", &FieldKind::Json, false),
            ]
        );
        assert_eq!(fields[0].description.as_deref(), Some("What about"));
        assert!(form_spec(&Settings { schema_on: false, ..settings.clone() }).is_none());
        assert!(form_spec(&Settings { schema: "{".into(), ..settings }).is_none());
    }

    #[test]
    fn field_text_becomes_parameters() {
        let int = FieldKind::Number { integer: true };
        assert_eq!(value_of(&int, "300"), Ok(Some(json!(300))));
        assert_eq!(value_of(&int, "300.0"), Ok(Some(json!(300.0))));
        assert_eq!(value_of(&int, "lots"), Ok(Some(json!("lots"))));
        assert_eq!(value_of(&int, " "), Ok(None));
        assert_eq!(value_of(&FieldKind::Boolean, "false"), Ok(Some(json!(false))));
        assert_eq!(value_of(&FieldKind::Choice(vec![json!(1)]), "1"), Ok(Some(json!(1))));
        assert_eq!(value_of(&FieldKind::Text { multiline: true }, "a\nb"), Ok(Some(json!("a\nb"))));
        assert_eq!(value_of(&FieldKind::Text { multiline: true }, ""), Ok(None));
        assert_eq!(value_of(&FieldKind::Json, "[\"a\"]"), Ok(Some(json!(["a"]))));
        assert!(value_of(&FieldKind::Json, "[").is_err());
        assert_eq!(text_of(&FieldKind::Choice(vec![]), Some(&json!("essay"))), "\"essay\"");
        assert_eq!(text_of(&int, Some(&json!(5))), "5");
    }

    #[test]
    fn schema_json_errors_say_where() {
        let err = prettify("{\n  \"type\": \"object\",\n}").unwrap_err();
        assert!(err.contains("line 3, column 1"), "{err}");
        assert_eq!(prettify("{\"a\":1}").unwrap(), "{\n  \"a\": 1\n}");
    }
}
