//! Loading and checking the shared conformance fixtures (see `tests/README.md`).
//!
//! The checks work on the JSON that a layer prints (a validation report, a conversion report),
//! so the core, the CLI and any other Rust-driven layer share one comparison.

#![allow(clippy::format_push_string, clippy::missing_panics_doc)] // test code: panics are failures

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use serde_json::{Map, Value, json};

/// One fixture case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// Unique within its file.
    pub name: String,
    /// The rule the case checks.
    #[serde(default)]
    pub spec: Option<String>,
    /// An execute request body.
    #[serde(default)]
    pub request: Option<Value>,
    /// A bare input.
    #[serde(default)]
    pub bare: Option<Value>,
    /// Raw request text.
    #[serde(default)]
    pub raw: Option<String>,
    /// Limit overrides.
    #[serde(default)]
    pub limits: Option<Map<String, Value>>,
    /// An agent's `parameters_schema` (contract §8): the request's parameters are validated against it
    /// and the prompt is formatted.
    #[serde(default)]
    pub schema: Option<Value>,
    /// What must happen.
    pub expect: Expect,
}

/// Expected outcome of a case.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expect {
    /// Whether the input is valid.
    pub valid: bool,
    /// `TEXT`, `CONTENT_BLOCKS`, `MESSAGES` or null; required when `valid`, else unchecked when
    /// absent.
    #[serde(default, deserialize_with = "some_value")]
    pub input_type: Option<Value>,
    /// Expected errors.
    #[serde(default)]
    pub errors: Vec<Value>,
    /// Expected warnings.
    #[serde(default)]
    pub warnings: Vec<Value>,
    /// The extracted question (contract §5); required when `valid`.
    #[serde(default)]
    pub question: Option<String>,
    /// With a `schema`: the prompt with its `<inputs>` block; only for valid input.
    #[serde(default)]
    pub formatted_prompt: Option<String>,
    /// Per provider id: options and the expected body or errors.
    #[serde(default)]
    pub convert: Map<String, Value>,
}

fn some_value<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// The input of a case, after payload generation.
#[derive(Debug, Clone)]
pub enum Subject {
    /// A request body.
    Request(Value),
    /// A bare input.
    Bare(Value),
    /// Raw text.
    Raw(String),
}

impl Case {
    /// The case's input with `{{base64 KIND N}}` strings expanded.
    pub fn subject(&self) -> Subject {
        match (&self.request, &self.bare, &self.raw) {
            (Some(request), None, None) => Subject::Request(expand(request)),
            (None, Some(bare), None) => Subject::Bare(expand(bare)),
            (None, None, Some(raw)) => Subject::Raw(raw.clone()),
            _ => panic!("case {:?} must have exactly one of request, bare, raw", self.name),
        }
    }

    /// The subject as request text, as a CLI reads it.
    pub fn subject_text(&self) -> String {
        match self.subject() {
            Subject::Request(v) | Subject::Bare(v) => v.to_string(),
            Subject::Raw(raw) => raw,
        }
    }

    /// Limits with the case's overrides.
    pub fn limits(&self) -> agent_input::Limits {
        let mut limits = agent_input::Limits::default();
        for (key, value) in self.limits.iter().flatten() {
            let n = usize::try_from(value.as_u64().expect("limits are numbers")).expect("limit fits usize");
            match key.as_str() {
                "max_body_bytes" => limits.max_body_bytes = n,
                "max_depth" => limits.max_depth = n,
                "max_messages" => limits.max_messages = n,
                "max_blocks" => limits.max_blocks = n,
                other => panic!("unknown limit {other:?} in case {:?}", self.name),
            }
        }
        limits
    }
}

/// A fixture file: a description, its cases, and its provider response cases.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct File {
    /// What the file covers.
    pub description: String,
    /// The cases.
    pub cases: Vec<Case>,
    /// Provider responses read back into the standard format.
    #[serde(default)]
    pub responses: Vec<ResponseCase>,
}

/// One provider response body and what reading it must give (`tests/README.md`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResponseCase {
    /// Unique within its file.
    pub name: String,
    /// The rule the case checks.
    #[serde(default)]
    pub spec: Option<String>,
    /// The provider id (or ml-commons name) whose response this is.
    pub provider: String,
    /// The response body ...
    #[serde(default)]
    pub body: Option<Value>,
    /// ... or raw response text.
    #[serde(default)]
    pub raw: Option<String>,
    /// `{"message", "stop_reason", "usage", "reasoning"?}` on success, or `{"errors": [...]}`.
    pub expect: Value,
}

impl ResponseCase {
    /// The response text, as a client receives it.
    pub fn text(&self) -> String {
        match (&self.body, &self.raw) {
            (Some(body), None) => body.to_string(),
            (None, Some(raw)) => raw.clone(),
            _ => panic!("response case {:?} must have exactly one of body, raw", self.name),
        }
    }
}

/// Checks a parsed response (`{"message", "stop_reason", "usage", "reasoning"?}`; usage with the
/// cache counts when reported) or the errors of a failed
/// read against a response case.
pub fn check_response(case: &ResponseCase, result: Result<Value, Vec<Value>>, out: &mut String) {
    let want_errors = case.expect.get("errors").and_then(Value::as_array);
    match (result, want_errors) {
        (Ok(got), None) => {
            for key in ["message", "stop_reason", "usage", "reasoning"] {
                let want = case.expect.get(key).unwrap_or(&Value::Null);
                if !json_eq(want, got.get(key).unwrap_or(&Value::Null)) {
                    let _ = writeln!(out, "{key} is {}, expected {want}", got.get(key).unwrap_or(&Value::Null));
                }
            }
        }
        (Ok(got), Some(_)) => {
            let _ = writeln!(out, "the response was read but errors were expected: {got}");
        }
        (Err(errors), Some(want)) => check_diagnostics("error", want, &errors, out),
        (Err(errors), None) => {
            let _ = writeln!(out, "reading failed: {errors:?}");
        }
    }
}

/// Every response case of every fixture file, named `file/response/case`.
pub fn load_responses() -> Vec<(String, ResponseCase)> {
    let mut cases = Vec::new();
    for (stem, file) in files() {
        for case in file.responses {
            cases.push((format!("{stem}/response/{}", case.name), case));
        }
    }
    cases
}

fn files() -> Vec<(String, File)> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("tests/fixtures exists")
        .map(|entry| entry.expect("readable").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).expect("readable fixture");
            let file: File = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (stem, file)
        })
        .collect()
}

/// One import case (`tests/fixtures/import/*.json`): a provider's request body, an optional
/// target provider, and what importing (and converting) it must give.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportCase {
    /// Unique within its file.
    pub name: String,
    /// The rule the case checks.
    #[serde(default)]
    pub spec: Option<String>,
    /// The provider whose request `body` is.
    pub from: String,
    /// A provider to convert the imported request to.
    #[serde(default)]
    pub to: Option<String>,
    /// The provider's request body.
    pub body: Value,
    /// What must happen.
    pub expect: ImportExpect,
}

/// Expected outcome of an import case: compared as a conversion report is.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImportExpect {
    /// Whether it imports (and converts) without errors.
    pub ok: bool,
    /// The standard request, when given.
    #[serde(default)]
    pub request: Option<Value>,
    /// The options set, when given.
    #[serde(default)]
    pub options: Option<Value>,
    /// The target's body, when given.
    #[serde(default)]
    pub body: Option<Value>,
    /// Expected errors, at paths into `body`.
    #[serde(default)]
    pub errors: Vec<Value>,
    /// Expected warnings, at paths into `body`.
    #[serde(default)]
    pub warnings: Vec<Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImportFile {
    #[allow(dead_code)]
    description: String,
    imports: Vec<ImportCase>,
}

/// Every import case, named `import/<file>/<case>`.
pub fn load_imports() -> Vec<(String, ImportCase)> {
    let dir = fixtures_dir().join("import");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("tests/fixtures/import exists")
        .map(|entry| entry.expect("readable").path())
        .filter(|path| path.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut cases = Vec::new();
    for path in paths {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).expect("readable fixture");
        let file: ImportFile = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        for case in file.imports {
            cases.push((format!("import/{stem}/{}", case.name), case));
        }
    }
    cases
}

/// Compares an import report (`{"ok", "request", "options", "body"?, "errors", "warnings"}`)
/// with a case's expectations.
pub fn check_import(case: &ImportCase, report: &Value, out: &mut String) {
    let want = &case.expect;
    if report["ok"] != Value::Bool(want.ok) {
        let _ = writeln!(out, "ok is {}, expected {}", report["ok"], want.ok);
    }
    for (key, expected) in [("request", &want.request), ("options", &want.options), ("body", &want.body)] {
        if let Some(expected) = expected.as_ref().map(expand)
            && !json_eq(&expected, &report[key])
        {
            let _ = writeln!(out, "{key} is {}, expected {}", shorten(&report[key]), shorten(&expected));
        }
    }
    let list = |key: &str| report[key].as_array().cloned().unwrap_or_default();
    check_diagnostics("error", &want.errors, &list("errors"), out);
    check_diagnostics("warning", &want.warnings, &list("warnings"), out);
}

/// `tests/fixtures`.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// Every case of every fixture file, named `file/case`.
pub fn load_all() -> Vec<(String, Case)> {
    let mut cases = Vec::new();
    for (stem, file) in files() {
        for case in file.cases {
            cases.push((format!("{stem}/{}", case.name), case));
        }
    }
    cases
}

/// Expands `{{base64 KIND N}}` strings anywhere in a value.
pub fn expand(value: &Value) -> Value {
    match value {
        Value::String(s) => match generated(s) {
            Some(data) => Value::String(data),
            None => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(expand).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), expand(v))).collect()),
        other => other.clone(),
    }
}

fn generated(s: &str) -> Option<String> {
    let inner = s.strip_prefix("{{base64 ")?.strip_suffix("}}")?;
    let (kind, n) = inner.split_once(' ')?;
    let n: usize = n.trim().parse().ok()?;
    let signature: &[u8] = match kind {
        "png" => b"\x89PNG\r\n\x1a\n",
        "jpeg" => b"\xff\xd8\xff\xe0",
        "gif" => b"GIF89a",
        "webp" => b"RIFF\0\0\0\0WEBP",
        "pdf" => b"%PDF-1.7\n",
        "mp4" => b"\0\0\0\0ftypisom",
        "zero" => b"",
        other => panic!("unknown generated payload kind {other:?}"),
    };
    assert!(n >= signature.len(), "{s}: N is smaller than the signature");
    let mut bytes = signature.to_vec();
    bytes.resize(n, 0);
    Some(agent_input::base64::encode(&bytes))
}

/// Compares expected diagnostics with actual ones as multisets of `{code, path}`, checking the
/// optional fields a fixture gives.
pub fn check_diagnostics(kind: &str, expected: &[Value], actual: &[Value], out: &mut String) {
    let key =
        |d: &Value| (d["code"].as_str().unwrap_or("?").to_string(), d["path"].as_str().unwrap_or("?").to_string());
    let mut remaining: Vec<&Value> = actual.iter().collect();
    for want in expected {
        let want_key = key(want);
        match remaining.iter().position(|got| key(got) == want_key) {
            Some(i) => {
                let got = remaining.remove(i);
                for field in ["expected", "received", "limit", "actual", "schema_path"] {
                    if let Some(want_value) = want.get(field)
                        && !json_eq(want_value, &got[field])
                    {
                        let _ = writeln!(out, "{kind} {want_key:?}: {field} is {}, expected {want_value}", got[field]);
                    }
                }
                for needle in want.get("message_contains").and_then(Value::as_array).into_iter().flatten() {
                    let needle = needle.as_str().unwrap_or_default();
                    let message = got["message"].as_str().unwrap_or_default();
                    if !message.contains(needle) {
                        let _ = writeln!(out, "{kind} {want_key:?}: message {message:?} does not contain {needle:?}");
                    }
                }
            }
            None => {
                let _ = writeln!(out, "missing {kind} {} at {:?}", want_key.0, want_key.1);
            }
        }
    }
    for extra in remaining {
        let _ = writeln!(out, "unexpected {kind} {} at {:?}: {}", key(extra).0, key(extra).1, extra["message"]);
    }
}

/// JSON equality with numbers compared by value.
pub fn json_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(x, y)| json_eq(x, y)),
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

/// Checks a validation report (`{"valid", "input_type", "errors", "warnings"}`) against a case.
pub fn check_validation(case: &Case, report: &Value, out: &mut String) {
    let expect = &case.expect;
    if report["valid"] != json!(expect.valid) {
        let _ = writeln!(out, "valid is {}, expected {}", report["valid"], expect.valid);
    }
    if let Some(input_type) = &expect.input_type
        && report["input_type"] != *input_type
    {
        let _ = writeln!(out, "input_type is {}, expected {input_type}", report["input_type"]);
    }
    // A valid case says what the input is and what ml-commons' agent reads from it.
    if expect.valid && (expect.input_type.is_none() || expect.question.is_none()) {
        let _ = writeln!(out, "a valid case must pin input_type and question (tests/README.md)");
    }
    check_diagnostics("error", &expect.errors, report["errors"].as_array().map_or(&[], Vec::as_slice), out);
    check_diagnostics("warning", &expect.warnings, report["warnings"].as_array().map_or(&[], Vec::as_slice), out);
}

/// Whether a provider entry expects the conversion to succeed.
pub fn expects_success(entry: &Value) -> bool {
    entry.get("body").is_some() || entry["errors"].as_array().is_some_and(Vec::is_empty)
}

/// Checks a conversion report (`{"ok", "body", "errors", "warnings"}`) against one provider entry.
/// Validation warnings are part of a conversion's warnings, so the case's own warnings are
/// expected there too.
pub fn check_conversion(case: &Case, entry: &Value, report: &Value, out: &mut String) {
    let mut warnings: Vec<Value> = case.expect.warnings.clone();
    warnings.extend(entry["warnings"].as_array().cloned().unwrap_or_default());
    match entry.get("body") {
        Some(body) => {
            if report["ok"] != json!(true) {
                let _ = writeln!(out, "conversion failed: {}", report["errors"]);
                return;
            }
            // A body may hold `{{base64 KIND N}}` too: the payload the request generated.
            let (want, got) = (expand(body), &report["body"]);
            if !json_eq(&want, got) {
                let _ = writeln!(out, "body differs\n  expected: {}\n  actual:   {}", shorten(&want), shorten(got));
            }
        }
        // Every entry compares something: a body, or the errors that stop the conversion.
        None if entry["errors"].as_array().is_none_or(Vec::is_empty) => {
            let _ = writeln!(out, "the entry gives neither a body nor errors: nothing would be compared");
        }
        None => {
            if report["ok"] != json!(false) {
                let _ = writeln!(out, "conversion succeeded but errors were expected");
            }
        }
    }
    let errors = entry["errors"].as_array().cloned().unwrap_or_default();
    check_diagnostics("conversion error", &errors, report["errors"].as_array().map_or(&[], Vec::as_slice), out);
    check_diagnostics("conversion warning", &warnings, report["warnings"].as_array().map_or(&[], Vec::as_slice), out);
}

fn shorten(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 2000 { format!("{}…", &text[..2000]) } else { text }
}

/// The conversion options of a provider entry, read as every layer reads them
/// ([`agent_input::ConvertOptions::read_json`]: the readable ones and a report of the rest), plus
/// whether assistant prefill is allowed.
pub fn convert_options(entry: &Value) -> ((agent_input::ConvertOptions, agent_input::Report), bool) {
    let mut options = entry.get("options").cloned().unwrap_or_else(|| json!({}));
    let allow_prefill =
        options.as_object_mut().and_then(|o| o.remove("allow_prefill")).and_then(|v| v.as_bool()).unwrap_or(false);
    options.as_object_mut().map(|o| o.remove("ml_commons"));
    options.as_object_mut().map(|o| o.remove("agent_type"));
    (agent_input::ConvertOptions::read_json(&options), allow_prefill)
}

/// Whether a provider entry asks for ml-commons parity mode (`"options": {"ml_commons": true}`):
/// its `body` is then `{"question", "body", "no_escape_params"?}`.
///
/// Parity entries hold what a real ml-commons 3.6 node sends for an agent that maps the input by
/// its form (`ag_ui`; a `conversational` agent takes text only), so they are run as
/// `--ml-commons --agent-type ag_ui --ml-commons-version 3.6` (tests/opensearch checks the node),
/// unless the entry names another `agent_type`.
pub fn ml_commons(entry: &Value) -> bool {
    entry["options"]["ml_commons"].as_bool().unwrap_or(false)
}

/// The agent type a parity entry is for: its `agent_type` option, or `ag_ui`.
pub fn ml_commons_agent(entry: &Value) -> &str {
    entry["options"]["agent_type"].as_str().unwrap_or("ag_ui")
}
