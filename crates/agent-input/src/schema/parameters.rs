//! The parameters schema: compiled once, it validates a request's `parameters` and formats them
//! into the `<inputs>` block.

use serde_json::{Map, Value};

use crate::{Code, Diagnostic, ExecuteRequest, Path, Report, Validation};

/// ml-commons' own control parameters: never validated against the schema, never formatted.
pub const CONTROL_PARAMETERS: &[&str] = &[
    "memory_id",
    "parent_interaction_id",
    "message_history_limit",
    "selected_tools",
    "verbose",
    "question",
    "system_prompt",
];

/// A checked `parameters_schema`, merged with the required `prompt` and compiled.
pub struct Schema {
    merged: Value,
    schemas: boon::Schemas,
    index: boon::SchemaIndex,
}

impl std::fmt::Debug for Schema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Schema").field("merged", &self.merged).finish_non_exhaustive()
    }
}

/// Where the compiler files the schemas; never fetched (see [`NoLoader`]).
const GIVEN_URL: &str = "urn:agent-input:parameters-schema";
const MERGED_URL: &str = "urn:agent-input:merged-parameters-schema";

/// Refuses every `$ref` outside the schema: nothing is fetched from the network or read from the
/// file system (the standard meta-schemas are built in).
struct NoLoader;

impl boon::UrlLoader for NoLoader {
    fn load(&self, url: &str) -> Result<Value, Box<dyn std::error::Error>> {
        Err(format!("{url} is outside the schema, and no schema is fetched or read from a file").into())
    }
}

/// Compiles `schema` as draft 2020-12 unless its `$schema` names another draft, with `format` an
/// annotation (as Python's `jsonschema` without a format checker).
fn compile(url: &str, schema: Value) -> Result<(boon::Schemas, boon::SchemaIndex), Box<boon::CompileError>> {
    let mut compiler = boon::Compiler::new();
    compiler.set_default_draft(boon::Draft::V2020_12);
    compiler.use_loader(Box::new(NoLoader));
    // Drafts 4 to 7 assert `format` by default; every name is made an annotation, as Python's
    // `jsonschema` treats them (`regex` cannot be replaced: its check stays).
    for name in FORMATS {
        compiler.register_format(boon::Format { name, func: |_| Ok(()) });
    }
    compiler.add_resource(url, schema).map_err(Box::new)?;
    let mut schemas = boon::Schemas::new();
    let index = compiler.compile(url, &mut schemas).map_err(Box::new)?;
    Ok((schemas, index))
}

/// The `format` names the validator knows (all but `regex`).
const FORMATS: &[&str] = &[
    "ipv4",
    "ipv6",
    "hostname",
    "idn-hostname",
    "email",
    "idn-email",
    "date",
    "time",
    "date-time",
    "duration",
    "period",
    "json-pointer",
    "relative-json-pointer",
    "uuid",
    "uri",
    "iri",
    "uri-reference",
    "iri-reference",
    "uri-template",
];

impl Schema {
    /// Checks a `parameters_schema` (a JSON object that is a valid JSON Schema) and compiles it
    /// merged with the prompt ([`merged_schema`]).
    ///
    /// # Errors
    /// Every `invalid_schema` problem found, each with a `path` into the given schema (`""` is the
    /// schema itself); callers that hold the schema inside a larger document prefix it.
    pub fn new(schema: &Value) -> Result<Self, Report> {
        let mut report = Report::default();
        let Value::Object(object) = schema else {
            report.push(
                Diagnostic::new(
                    Code::InvalidSchema,
                    Path::root(),
                    format!(
                        "a parameters_schema must be a JSON object (a JSON Schema of type object), not {}",
                        json_type(schema)
                    ),
                )
                .received(json_type(schema)),
            );
            return Err(report);
        };
        // The schema as written first, so each problem points at what to fix (the merge rewrites
        // `type` and `required`).
        if let Err(error) = compile(GIVEN_URL, schema.clone()) {
            report.errors.extend(compile_problems(&error, schema));
            return Err(report);
        }
        let merged = merged_schema(object);
        match compile(MERGED_URL, merged.clone()) {
            Ok((schemas, index)) => Ok(Self { merged, schemas, index }),
            Err(error) => {
                report.errors.extend(compile_problems(&error, &merged));
                Err(report)
            }
        }
    }

    /// The schema the parameters are validated against: the given one merged with the prompt.
    pub fn merged(&self) -> &Value {
        &self.merged
    }

    /// Validates the request's [`parameters`] against the merged schema.
    ///
    /// Every violation is a `schema_violation` error whose `path` points into the request:
    /// `/parameters/<name>/...`, or the input (`/input`, `/parameters/question`) for a prompt
    /// extracted from it; a missing or disallowed parameter is reported at the key's own path.
    /// `schema_path` points at the failing keyword of [`Schema::merged`].
    pub fn validate(&self, request: &ExecuteRequest<'_>) -> Report {
        let (instance, prompt_path) = parameters_with_prompt_path(request);
        let instance = Value::Object(instance);
        let mut report = Report::default();
        let Err(error) = self.schemas.validate(&instance, self.index) else {
            return report;
        };
        for Violation { schema_path, error, at } in violations(&error) {
            match &error.kind {
                boon::ErrorKind::Required { want } => {
                    for name in want {
                        let path = request_path(&at.key(name), &prompt_path);
                        let message = format!("{} is required by the agent's parameters_schema", describe(&path));
                        report.push(Diagnostic::new(Code::SchemaViolation, path, message).schema_path(&schema_path));
                    }
                }
                boon::ErrorKind::AdditionalProperties { got } => {
                    for name in got {
                        let path = request_path(&at.key(name), &prompt_path);
                        report.push(not_allowed(path, &schema_path));
                    }
                }
                // `unevaluatedProperties: false` and a `false` property schema fail at the key.
                boon::ErrorKind::FalseSchema => {
                    report.push(not_allowed(request_path(&at, &prompt_path), &schema_path));
                }
                kind => {
                    let path = request_path(&at, &prompt_path);
                    let value = pointer(&instance, &at).unwrap_or(&Value::Null);
                    let mut diagnostic = Diagnostic::new(
                        Code::SchemaViolation,
                        path.clone(),
                        format!(
                            "{} does not match the agent's parameters_schema: {}",
                            describe(&path),
                            kind_message(error)
                        ),
                    )
                    .schema_path(&schema_path)
                    .received(plain(value));
                    match kind {
                        boon::ErrorKind::Enum { want } => diagnostic = diagnostic.expected(want.iter().map(plain)),
                        boon::ErrorKind::Const { want } => diagnostic = diagnostic.expected([plain(want)]),
                        _ => {}
                    }
                    report.push(diagnostic);
                }
            }
        }
        report
    }

    /// Validates the request's parameters and, when they match, formats the prompt
    /// ([`format_request`]).
    ///
    /// # Errors
    /// The `schema_violation` errors of [`Schema::validate`].
    pub fn apply(&self, request: &ExecuteRequest<'_>) -> Result<String, Report> {
        let report = self.validate(request);
        if report.is_ok() { Ok(format_request(request)) } else { Err(report) }
    }
}

fn not_allowed(path: Path, schema_path: &str) -> Diagnostic {
    let keyword = schema_path.rsplit('/').next().unwrap_or_default();
    let message =
        format!("{} is not allowed: the agent's parameters_schema does not define it ({keyword})", describe(&path));
    Diagnostic::new(Code::SchemaViolation, path, message).schema_path(schema_path)
}

/// The `invalid_schema` problems of a schema that does not compile, with paths into `schema`.
fn compile_problems(error: &boon::CompileError, schema: &Value) -> Vec<Diagnostic> {
    match error {
        boon::CompileError::ValidationError { src, .. } => violations(src)
            .into_iter()
            .map(|Violation { schema_path, error, at: path }| {
                let value = pointer(schema, &path).unwrap_or(&Value::Null);
                let message = format!(
                    "the parameters_schema is not a valid JSON Schema at {}: {}",
                    pointer_or_root(&path),
                    meta_problem(error, value, &path)
                );
                Diagnostic::new(Code::InvalidSchema, path, message).schema_path(&schema_path)
            })
            .collect(),
        boon::CompileError::InvalidRegex { url, regex, src } => {
            let path = url_path(url);
            let message = format!(
                "the parameters_schema cannot be compiled at {}: {} is not a regular expression: {src}",
                pointer_or_root(&path),
                quoted(&Value::String(regex.clone()))
            );
            vec![Diagnostic::new(Code::InvalidSchema, path, message)]
        }
        boon::CompileError::UnsupportedDraft { .. }
        | boon::CompileError::InvalidMetaSchemaUrl { .. }
        | boon::CompileError::MetaSchemaCycle { .. } => vec![Diagnostic::new(
            Code::InvalidSchema,
            Path::root().key("$schema"),
            format!("the parameters_schema's meta-schema cannot be used: {error}"),
        )],
        // A `$ref` that does not resolve, an `$id` or anchor that does not parse: no keyword
        // location to give, the message names what.
        other => vec![Diagnostic::new(
            Code::InvalidSchema,
            Path::root(),
            format!("the parameters_schema cannot be compiled: {}", without_urls(&format!("{other:#}"))),
        )],
    }
}

/// A compile message without the compiler's internal names for the schemas.
fn without_urls(message: &str) -> String {
    message.replace(&format!("{MERGED_URL}#"), "#").replace(&format!("{GIVEN_URL}#"), "#")
}

/// The errors to report of a validation error tree, each with its keyword's location as Python's
/// `jsonschema` gives it: the evaluation path, through a `$ref` without naming it. `anyOf`,
/// `oneOf`, `not`, `contains` and `propertyNames` are one error each, as in Python's
/// `iter_errors`; every other applicator reports what failed inside it.
fn violations<'e, 's, 'v>(error: &'e boon::ValidationError<'s, 'v>) -> Vec<Violation<'e, 's, 'v>> {
    fn walk<'e, 's, 'v>(
        error: &'e boon::ValidationError<'s, 'v>,
        parent: Option<&str>,
        mut location: String,
        out: &mut Vec<Violation<'e, 's, 'v>>,
    ) {
        let here = match &error.kind {
            boon::ErrorKind::Schema { url } | boon::ErrorKind::Reference { url, .. } => url,
            _ => error.schema_url,
        };
        if let Some(suffix) = parent.and_then(|parent| error.schema_url.strip_prefix(parent)) {
            location.push_str(&percent_decoded(suffix));
        }
        // Python's `jsonschema` leaves `$ref` (only) out of a schema path.
        if let boon::ErrorKind::Reference { kw, .. } = &error.kind
            && *kw != "$ref"
        {
            location.push('/');
            location.push_str(kw);
        }
        let whole = matches!(
            error.kind,
            boon::ErrorKind::AnyOf
                | boon::ErrorKind::OneOf(_)
                | boon::ErrorKind::Not
                | boon::ErrorKind::Contains
                | boon::ErrorKind::MinContains { .. }
                | boon::ErrorKind::MaxContains { .. }
                | boon::ErrorKind::PropertyName { .. }
        );
        if whole || error.causes.is_empty() {
            if let boon::ErrorKind::AdditionalProperties { .. } = error.kind {
                location.push_str("/additionalProperties");
            } else if let Some(keyword) = error.kind.keyword_path() {
                location.push('/');
                location.push_str(&percent_decoded(&keyword.to_string()));
            }
            out.push(Violation { schema_path: location, error, at: instance_path(&error.instance_location) });
            return;
        }
        for cause in &error.causes {
            walk(cause, Some(here), location.clone(), out);
        }
    }
    let mut out = Vec::new();
    walk(error, None, String::new(), &mut out);
    out
}

/// One error to report: where it is in the instance, and its keyword's location.
struct Violation<'e, 's, 'v> {
    schema_path: String,
    error: &'e boon::ValidationError<'s, 'v>,
    at: Path,
}

/// A URL fragment's JSON Pointer as text (`%20` is a space).
fn percent_decoded(text: &str) -> String {
    if !text.contains('%') {
        return text.to_string();
    }
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The path in a compiler's location (`urn:…#/properties/a/patternProperties`).
fn url_path(url: &str) -> Path {
    url.split_once('#').and_then(|(_, fragment)| Path::parse(&percent_decoded(fragment))).unwrap_or_default()
}

fn instance_path(location: &boon::InstanceLocation<'_>) -> Path {
    location.tokens.iter().fold(Path::root(), |path, token| match token {
        boon::InstanceToken::Prop(name) => path.key(name),
        boon::InstanceToken::Item(i) => path.index(*i),
    })
}

fn pointer<'v>(value: &'v Value, path: &Path) -> Option<&'v Value> {
    path.segments().iter().try_fold(value, |value, segment| match segment {
        crate::Segment::Key(key) => value.get(&**key),
        crate::Segment::Index(i) => value.get(*i),
    })
}

/// The autonomous-agent runner's `_merge_autonomous_schema_with_prompt` (copied in
/// scripts/gen-schema-fixtures.py), rule for rule: the type forced to
/// `object`, a `prompt` property `{"type": "string", "minLength": 1}` added unless the schema
/// defines one, and `prompt` appended to `required` unless listed. Keys keep their order; new
/// ones are added at the end, as a Python dict does.
pub fn merged_schema(schema: &Map<String, Value>) -> Value {
    let mut merged = schema.clone();
    if merged.get("type").and_then(Value::as_str) != Some("object") {
        merged.insert("type".into(), "object".into());
    }
    let properties = merged.entry("properties").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(properties) = properties
        && !properties.contains_key("prompt")
    {
        properties.insert("prompt".into(), serde_json::json!({"type": "string", "minLength": 1}));
    }
    let required = merged.get("required").and_then(Value::as_array).cloned().unwrap_or_default();
    if !required.iter().any(|name| name == "prompt") {
        let mut required = required;
        required.push("prompt".into());
        merged.insert("required".into(), Value::Array(required));
    }
    Value::Object(merged)
}

/// The object a `parameters_schema` validates: the request's `parameters` without ml-commons'
/// [`CONTROL_PARAMETERS`], with `prompt` set to the question extracted from the input
/// ([`crate::AgentInput::question`]) when `parameters.prompt` is absent.
pub fn parameters(request: &ExecuteRequest<'_>) -> Map<String, Value> {
    parameters_with_prompt_path(request).0
}

fn parameters_with_prompt_path(request: &ExecuteRequest<'_>) -> (Map<String, Value>, Path) {
    let mut object: Map<String, Value> = request
        .parameters
        .iter()
        .filter(|(key, _)| !CONTROL_PARAMETERS.contains(&key.as_str()))
        .map(|(key, value)| (key.clone(), value.clone()))
        .collect();
    let prompt_path = if object.contains_key("prompt") {
        Path::root().key("parameters").key("prompt")
    } else {
        object.insert("prompt".into(), Value::String(request.input.question()));
        request.input_path.clone()
    };
    (object, prompt_path)
}

/// Checks `schema` ([`Schema::new`]) and validates the request's parameters against it
/// ([`Schema::validate`]): the `invalid_schema` errors, or every `schema_violation`.
pub fn validate_parameters(request: &ExecuteRequest<'_>, schema: &Value) -> Report {
    match Schema::new(schema) {
        Ok(schema) => schema.validate(request),
        Err(report) => report,
    }
}

/// Validates the request's parameters against `schema` and formats the prompt
/// ([`Schema::apply`]).
///
/// # Errors
/// The errors of [`validate_parameters`].
pub fn format_inputs(request: &ExecuteRequest<'_>, schema: &Value) -> Result<String, Report> {
    Schema::new(schema)?.apply(request)
}

/// A request validation with a `parameters_schema` check added, as every layer reports it: the
/// schema's own problems (`invalid_schema`, paths into the schema) first, then the request's; the
/// parameters are validated only when both are fine. Any error makes the validation invalid.
///
/// The prompt-only request (`{"parameters": {"prompt": ...}}`, no `input`) is valid
/// here: its `missing_input` is lifted and its prompt is the input
/// ([`Validation::prompt_request`]).
pub fn extend_validation<'a>(validation: Validation<'a>, schema: &Value) -> Validation<'a> {
    extend_validation_compiled(validation, &Schema::new(schema))
}

/// [`extend_validation`] with the schema already compiled ([`Schema::new`]'s result), for callers
/// that check many requests against one schema: compiling is most of a check's time.
pub fn extend_validation_compiled<'a>(
    mut validation: Validation<'a>,
    compiled: &Result<Schema, Report>,
) -> Validation<'a> {
    if compiled.is_ok() {
        validation = validation.with_prompt_as_input();
    }
    let errors = match (compiled, &validation.request) {
        (Err(report), _) => report.errors.clone(),
        (Ok(schema), Some(request)) => schema.validate(request).errors,
        (Ok(_), None) => Vec::new(),
    };
    if !errors.is_empty() {
        validation.request = None;
        validation.report.errors.splice(0..0, errors);
    }
    validation
}

/// The autonomous-agent runner's `format_autonomous_inputs` on the request's [`parameters`], without validating
/// them: the prompt alone when there are no other parameters, else an `<inputs>` block (one
/// `key: value` line each, in the request's order; multi-line strings indented under `key:`;
/// lists and objects as Python's `json.dumps`; other values as Python's `str`), a blank line, and
/// the prompt.
pub fn format_request(request: &ExecuteRequest<'_>) -> String {
    format_parameters(&parameters(request))
}

/// [`format_request`] on an object that holds `prompt` and the other parameters. A missing prompt
/// is treated as empty; a prompt that is not a string (a schema may define it so) is written as
/// Python's `str` writes it.
pub fn format_parameters(parameters: &Map<String, Value>) -> String {
    let mut prompt = String::new();
    match parameters.get("prompt") {
        Some(Value::String(text)) => prompt.push_str(text),
        Some(other) => super::python::write_str(other, &mut prompt),
        None => {}
    }
    let mut additional = parameters.iter().filter(|(key, _)| key.as_str() != "prompt").peekable();
    if additional.peek().is_none() {
        return prompt;
    }
    let mut out = String::from("<inputs>\n");
    for (key, value) in additional {
        out.push_str(key);
        match value {
            Value::String(text) if text.contains('\n') => {
                out.push_str(":\n");
                for line in text.split('\n') {
                    out.push_str("  ");
                    out.push_str(line);
                    out.push('\n');
                }
                continue;
            }
            _ => {
                out.push_str(": ");
                super::python::write_str(value, &mut out);
            }
        }
        out.push('\n');
    }
    out.push_str("</inputs>\n\n");
    out.push_str(&prompt);
    out
}

/// A diagnostic path inside the parameters object, as a path into the request.
fn request_path(at: &Path, prompt_path: &Path) -> Path {
    let mut segments = at.segments().iter();
    let (mut path, rest) = match segments.next() {
        Some(crate::Segment::Key(key)) if &**key == "prompt" => (prompt_path.clone(), segments),
        _ => (Path::root().key("parameters"), at.segments().iter()),
    };
    for segment in rest {
        path = match segment {
            crate::Segment::Key(key) => path.key(key),
            crate::Segment::Index(i) => path.index(*i),
        };
    }
    path
}

/// What is wrong with a schema, for a meta-schema violation: the value named, and for a `type`
/// the list of type names (the meta-schema's own `anyOf` says nothing useful).
fn meta_problem(error: &boon::ValidationError<'_, '_>, value: &Value, path: &Path) -> String {
    let at_type = matches!(path.segments().last(), Some(crate::Segment::Key(key)) if &**key == "type");
    if at_type && matches!(error.kind, boon::ErrorKind::AnyOf) {
        format!(
            "{} is not a JSON Schema type; use one of string, number, integer, boolean, object, array, null (or a list of them)",
            quoted(value)
        )
    } else {
        format!("{}: {}", quoted(value), kind_message(error))
    }
}

/// The validator's message for an error; for a property name, what is wrong with it too.
fn kind_message(error: &boon::ValidationError<'_, '_>) -> String {
    match (&error.kind, error.causes.first()) {
        (boon::ErrorKind::PropertyName { .. }, Some(cause)) => format!("{}: {}", error.kind, kind_message(cause)),
        (kind, _) => kind.to_string(),
    }
}

/// A value quoted in a message: its JSON, cut at 40 characters.
fn quoted(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(40) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// How a message names what is at a request path.
fn describe(path: &Path) -> String {
    match path.segments() {
        [crate::Segment::Key(p), crate::Segment::Key(name)] if &**p == "parameters" => format!("parameter '{name}'"),
        [crate::Segment::Key(p)] if &**p == "parameters" => "parameters".to_string(),
        [crate::Segment::Key(p), ..] if &**p == "parameters" => format!("the value at {path}"),
        _ => format!("the prompt (the question extracted from {})", pointer_or_root(path)),
    }
}

fn pointer_or_root(path: &Path) -> String {
    let text = path.to_string();
    if text.is_empty() { "/".to_string() } else { text }
}

/// A value for `expected`/`received`: a string as itself, anything else as JSON.
fn plain(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The value's JSON type as this module's messages write it: "null", "a string", "an object".
fn json_type(value: &Value) -> String {
    match crate::json::type_name(value) {
        "null" => "null".to_string(),
        name => format!("{} {name}", crate::text::a_or_an(name)),
    }
}
