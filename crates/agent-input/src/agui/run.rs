//! Reading an AG-UI `RunAgentInput` body: whether a body is one, and the run it asks for with its
//! messages as the standard input.

use serde_json::{Value, json};

use super::model;
use super::origin::{MessageOrigin, to_agui_path};
use super::reader::{Reader, wrong};
use crate::convert::ToolSpec;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::AgentInput;
use crate::path::Path;
use crate::validate;

/// The keys ml-commons requires before it reads a body as AG-UI input.
pub const REQUIRED_KEYS: [&str; 7] = ["threadId", "runId", "state", "messages", "tools", "context", "forwardedProps"];

/// Whether a request body is AG-UI input, decided exactly as ml-commons does: an object with all
/// of [`REQUIRED_KEYS`], `messages`, `tools` and `context` arrays. Other keys
/// (`protocolVersion`, `parentRunId`, `resume`) do not matter.
pub fn is_run_agent_input(body: &Value) -> bool {
    let Some(object) = body.as_object() else { return false };
    REQUIRED_KEYS.iter().all(|key| object.contains_key(*key))
        && ["messages", "tools", "context"].iter().all(|key| object.get(*key).is_some_and(Value::is_array))
}

/// An AG-UI run read into the standard input.
#[derive(Debug, Clone, PartialEq)]
pub struct AgUiRun {
    /// `threadId`: the memory id.
    pub thread_id: String,
    /// `runId`.
    pub run_id: String,
    /// The messages as the standard input; `None` when there are none (ml-commons then continues
    /// from the thread's stored history).
    pub input: Option<AgentInput<'static>>,
    /// `tools`, as tool specs.
    pub tools: Vec<ToolSpec>,
    /// `context`, as given.
    pub context: Vec<model::Context>,
    /// `state`, as given.
    pub state: Value,
    /// `forwardedProps`, as given.
    pub forwarded_props: Value,
    /// Warnings, with paths into the AG-UI body.
    pub warnings: Vec<Diagnostic>,
    /// Where each message of `input` came from in the AG-UI body.
    pub(super) origins: Vec<MessageOrigin>,
}

/// Reads an AG-UI `RunAgentInput` body.
///
/// # Errors
/// Every problem found, each with a path into the AG-UI body: `missing_field` /
/// `invalid_field_type` for the run's shape, `invalid_role`, `unsupported_content_type` (audio,
/// unknown parts), `unsupported_source_type` (`file` sources), `unsupported_format` (a MIME type
/// no block takes), and anything the standard validator finds in the resulting input.
pub fn from_agui(body: &Value, options: &validate::Options) -> Result<AgUiRun, Report> {
    let mut reader = Reader::default();
    let root = Path::root();
    let Some(object) = body.as_object() else {
        return Err(wrong(&root, "the AG-UI body", "object", body).into());
    };
    for key in REQUIRED_KEYS {
        if !object.contains_key(key) {
            reader.report.push(Diagnostic::new(
                Code::MissingField,
                root.key(key),
                format!("an AG-UI RunAgentInput needs `{key}`"),
            ));
        }
    }
    let thread_id = reader.string(object, &root, "threadId");
    let run_id = reader.string(object, &root, "runId");
    let messages = reader.array(object, &root, "messages");
    let tools = reader.array(object, &root, "tools");
    let context = reader.array(object, &root, "context");

    let mut standard = Vec::new();
    for (i, message) in messages.iter().enumerate() {
        if let Some(converted) = reader.message(message, &root.key("messages").index(i)) {
            standard.push(converted);
        }
    }
    let tools =
        tools.iter().enumerate().filter_map(|(i, tool)| reader.tool(tool, &root.key("tools").index(i))).collect();
    let context = context
        .iter()
        .enumerate()
        .filter_map(|(i, entry)| {
            let path = root.key("context").index(i);
            let read = serde_json::from_value::<model::Context>(entry.clone()).ok();
            if read.is_none() {
                reader.report.push(wrong(
                    &path,
                    "a context entry",
                    "object with string `description` and `value`",
                    entry,
                ));
            }
            read
        })
        .collect();
    if !reader.report.is_ok() {
        return Err(reader.report);
    }

    let (values, origins): (Vec<Value>, Vec<MessageOrigin>) = standard.into_iter().unzip();
    let input = if values.is_empty() {
        None
    } else {
        let body = json!({ "input": values });
        let document = validate::document(&body);
        let validation = validate::validate_request(&document, options);
        let remap = |d: Diagnostic| Diagnostic { path: to_agui_path(&d.path, &origins), ..d };
        match validation.into_result() {
            Ok((request, report)) => {
                reader.report.warnings.extend(report.warnings.into_iter().map(remap));
                Some(request.input.into_owned())
            }
            Err(report) => {
                reader.report.errors.extend(report.errors.into_iter().map(remap));
                reader.report.warnings.extend(report.warnings.into_iter().map(remap));
                return Err(reader.report);
            }
        }
    };
    Ok(AgUiRun {
        thread_id: thread_id.unwrap_or_default(),
        run_id: run_id.unwrap_or_default(),
        input,
        tools,
        context,
        state: object.get("state").cloned().unwrap_or(Value::Null),
        forwarded_props: object.get("forwardedProps").cloned().unwrap_or(Value::Null),
        warnings: reader.report.warnings,
        origins,
    })
}

/// Reads an AG-UI `RunAgentInput` body from its JSON text, parsed once under the options' limits.
///
/// # Errors
/// [`validate::parse`]'s (`invalid_json`, `too_large`, `too_deep`), then [`from_agui`]'s.
pub fn from_agui_str(text: &str, options: &validate::Options) -> Result<AgUiRun, Report> {
    let body = validate::parse(text, &options.limits)?.root.to_value();
    from_agui(&body, options)
}
