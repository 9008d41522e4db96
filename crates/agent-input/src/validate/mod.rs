//! Parsing and validation: JSON in, typed input and every problem out.
//!
//! Validation walks the parsed tree with a path, reports every problem it finds (not just the
//! first), and builds the typed [`AgentInput`](crate::AgentInput) only when there are none.
//! Deserializing straight into typed structs would stop at the first error and say little about
//! where.
//!
//! The modules follow the contract's sections, so a rule is found where the spec states it:
//!
//! | module | rules |
//! | --- | --- |
//! | this one | the API; parsing, body size and nesting depth (§4 limits) |
//! | `envelope` | the execute request body: `input` vs `parameters.question` (§2) |
//! | `classify` | the three input forms: text, content blocks, messages; mixed and bad items (§3) |
//! | `message` | a message: role, content by role, `toolCallId`, the last message's role (§3 Messages) |
//! | `tool_call` | a tool call: `id`, `type`, `function.name`, `function.arguments` (§3 Messages) |
//! | `block` | a content block: type, text, media block shape, `use_source_field` (§3 Content blocks) |
//! | `media_format` | a media format per block type, aliases, format mismatches (§3 format table) |
//! | `source` | a source: base64 (data URLs, whitespace, signatures) and URLs (§3 Sources) |
//! | `placeholder` | with `ml_commons`: `${` in the input, which the cluster substitutes (§9) |
//! | `diagnostics` | every problem's code, message and data, one constructor each (§4) |
//! | `validator` | the state of one validation and the field reading all of them share |
//!
//! A new rule is a check in the module of its section that pushes a problem built by a new
//! constructor in `diagnostics` (a new code also goes in [`Code`](crate::Code) and
//! `docs/errors.md`), and a fixture in `tests/fixtures/` that shows it.

mod block;
mod classify;
mod diagnostics;
pub(crate) use diagnostics::provider_item_for_ml_commons;
mod envelope;
mod media_format;
mod message;
mod placeholder;
mod source;
mod tool_call;
mod validation;
mod validator;

use serde_json::{Map, Value};

use crate::diagnostic::Report;
use crate::json::{Document, Json};
use crate::model::ExecuteRequest;
use crate::path::{Loc, Path};
use validator::Validator;

// Moved to `crate::text`; kept here for code that still imports them from `validate`.
#[allow(unused_imports)]
pub(crate) use crate::text::{a_or_an, quote};

pub use crate::options::{Limits, Options};
pub use validation::{Validation, ValidationReport};

pub use crate::json::PARSER_MAX_DEPTH;

/// Parses request text, enforcing the body size limit before parsing and the depth limit after.
/// Strings without escapes stay borrowed from `text`.
pub fn parse<'a>(text: &'a str, limits: &Limits) -> Result<Document<'a>, Report> {
    if text.len() > limits.max_body_bytes {
        return Err(too_large(text.len(), limits));
    }
    // A byte order mark is not JSON, but editors write one; RFC 8259 lets parsers ignore it.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match Document::parse(text) {
        Ok(document) if document.deeper_than(limits.max_depth) => Err(too_deep(limits.max_depth)),
        Ok(document) => Ok(document),
        Err(error) => {
            let effective = limits.max_depth.min(PARSER_MAX_DEPTH);
            let diagnostic = if error.to_string().contains("recursion limit") {
                diagnostics::too_deep_to_parse(effective, error.line(), error.column())
            } else {
                diagnostics::invalid_json(&describe_json_error(&error), error.line(), error.column())
            };
            Err(diagnostic.into())
        }
    }
}

/// The report [`parse`] gives text of `len` bytes over `limits.max_body_bytes`: for callers that
/// measure a body held elsewhere (the npm package, in a JavaScript string) and refuse it before
/// copying it.
pub fn too_large(len: usize, limits: &Limits) -> Report {
    diagnostics::too_large(len, limits.max_body_bytes).into()
}

fn describe_json_error(error: &serde_json::Error) -> String {
    // `rfind(" at line ")` by bytes: the reverse substring searcher costs 1 KB raw in the npm
    // `.wasm`. The needle starts with an ASCII byte, so every match is at a char boundary.
    const SUFFIX: &[u8] = b" at line ";
    let text = error.to_string();
    // serde_json appends " at line L column C"; the caller says where in its own words.
    match text.as_bytes().windows(SUFFIX.len()).rposition(|w| w == SUFFIX) {
        Some(i) => text[..i].to_string(),
        None => text,
    }
}

/// Fails with `too_deep` when `value` nests deeper than `max_depth` arrays and objects.
pub fn check_depth(value: &Json<'_>, max_depth: usize) -> Result<(), Report> {
    // Parsed values are at most 128 deep (serde_json's own limit), so the recursion is bounded;
    // a deeper value built in code stops at max_depth + 1, the depth every report gives.
    if crate::json::exceeds_depth(value, max_depth) { Err(too_deep(max_depth)) } else { Ok(()) }
}

/// The report of a value nesting deeper than `max_depth`: every report gives `max_depth + 1`.
fn too_deep(max_depth: usize) -> Report {
    diagnostics::too_deep(max_depth, max_depth + 1).into()
}

/// Validates an execute request body: `{"input": ..., "parameters": {...}}`.
pub fn validate_request<'a>(document: &'a Document<'_>, options: &Options) -> Validation<'a> {
    validate_request_known(document, options, None)
}

/// [`validate_request`] for a caller that validates the same large payloads again and again (the
/// playground, once a keystroke): `known(text)` answering `true` says this base64 text is one the
/// caller has already seen pass [`crate::base64::check`], and the alphabet scan is skipped (the
/// signature is still sniffed). The caller must answer from text it owns and has not changed
/// since (its address and length), never from a guess at the content.
pub fn validate_request_known<'a, 'o>(
    document: &'a Document<'_>,
    options: &'o Options,
    known: Option<&'o dyn Fn(&str) -> bool>,
) -> Validation<'a> {
    if document.deeper_than(options.limits.max_depth) {
        return Validation::failed(too_deep(options.limits.max_depth));
    }
    let mut validator = Validator::new(options);
    validator.known_base64 = known;
    let root = Path::root();
    let request = validator.request(&document.root, Loc::Root(&root));
    if options.ml_commons
        && let Json::Object(body) = &document.root
    {
        let loc = Loc::Root(&root);
        if let Some(input) = body.get("input") {
            validator.placeholders(input, loc.key("input"));
        } else if let Some(Json::Object(parameters)) = body.get("parameters")
            && let Some(question) = parameters.get("question")
        {
            let at = loc.key("parameters");
            validator.placeholders(question, at.key("question"));
        }
    }
    validator.finish(request, document.text)
}

/// Validates a bare input (a string or an array); paths are relative to it.
pub fn validate_input<'a>(document: &'a Document<'_>, options: &Options) -> Validation<'a> {
    if document.deeper_than(options.limits.max_depth) {
        return Validation::failed(too_deep(options.limits.max_depth));
    }
    let mut validator = Validator::new(options);
    let root = Path::root();
    let input = validator.input(&document.root, Loc::Root(&root));
    if options.ml_commons {
        validator.placeholders(&document.root, Loc::Root(&root));
    }
    let request = input.map(|input| ExecuteRequest {
        input,
        parameters: Map::new(),
        legacy_question: false,
        input_path: Path::root(),
        source_text: None,
    });
    validator.finish(request, document.text)
}

/// Validates a request body given as a `serde_json::Value`. The typed request borrows from the
/// tree in `document`, which this fills in.
///
/// ```
/// let value = serde_json::json!({"input": "Hello"});
/// let document = agent_input::validate::document(&value);
/// let validation = agent_input::validate::validate_request(&document, &Default::default());
/// assert!(validation.is_valid());
/// ```
pub fn document(value: &Value) -> Document<'_> {
    Document::from_value(value)
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_errors_lose_their_position_as_with_rfind() {
        for text in ["{", "[1,]", "{\"a\" 1}", "\"\\u12\"", "nul", "[1] x", "\"é at line \" x"] {
            let error = serde_json::from_str::<serde_json::Value>(text).unwrap_err();
            let full = error.to_string();
            let expected = &full[..full.rfind(" at line ").unwrap()];
            assert_eq!(super::describe_json_error(&error), expected, "{text}");
        }
    }
}
