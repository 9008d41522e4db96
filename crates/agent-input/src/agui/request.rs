//! A standard request → an AG-UI `RunAgentInput`: the way back of [`super::from_agui`], for a
//! front-end (or a test) that speaks AG-UI to an agent described by a standard request.

use serde_json::{Map, Value};

use super::model::{RunAgentInput, Tool};
use crate::convert::ToolSpec;
use crate::diagnostic::{Diagnostic, Report};
use crate::model::ExecuteRequest;
use crate::path::Segment;

/// Writes a validated request as a `RunAgentInput` of `thread_id` and `run_id`.
///
/// The input becomes the messages (text or content blocks are one user message), written by
/// [`super::to_agui`] with ids `<run_id>-<index>`; `tools` become AG-UI tools (`inputSchema` →
/// `parameters`); `state` and `forwardedProps` are empty objects and `context` is empty.
///
/// # Errors
/// What AG-UI cannot carry ([`super::to_agui`]'s errors), with paths into the request
/// (`/input/2/content/0`).
pub fn run_agent_input(
    request: &ExecuteRequest<'_>,
    thread_id: &str,
    run_id: &str,
    tools: &[ToolSpec],
) -> Result<RunAgentInput, Report> {
    let messages = request.input.clone().into_messages();
    let messages = super::output::to_agui(&messages, &format!("{run_id}-")).map_err(|report| {
        // The paths are into the messages array: `/i/...` is the request's `<input>/i/...`.
        let prefix = |d: Diagnostic| {
            let mut path = request.input_path.clone();
            for segment in d.path.segments() {
                path = match segment {
                    Segment::Key(key) => path.key(key),
                    Segment::Index(i) => path.index(*i),
                };
            }
            Diagnostic { path, ..d }
        };
        Report {
            errors: report.errors.into_iter().map(prefix).collect(),
            warnings: report.warnings.into_iter().map(prefix).collect(),
        }
    })?;
    let tools = tools
        .iter()
        .map(|tool| Tool {
            name: tool.name.clone(),
            description: tool.description.clone().unwrap_or_default(),
            parameters: tool.input_schema.clone(),
        })
        .collect();
    Ok(RunAgentInput {
        thread_id: thread_id.to_string(),
        run_id: run_id.to_string(),
        state: Value::Object(Map::new()),
        messages,
        tools,
        context: Vec::new(),
        forwarded_props: Value::Object(Map::new()),
    })
}

/// The memory id a standard request continues (`parameters.memory_id`), the natural `threadId`.
pub fn memory_id<'r>(request: &'r ExecuteRequest<'_>) -> Option<&'r str> {
    request.parameters.get("memory_id").and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate;
    use serde_json::json;

    fn request(value: &Value) -> ExecuteRequest<'static> {
        let document = validate::document(value);
        let (request, _) =
            validate::validate_request(&document, &validate::Options::default()).into_result().expect("valid request");
        request.into_owned()
    }

    #[test]
    fn text_is_one_user_message_and_tools_carry_their_schema() {
        let request = request(&json!({"input": "Hi", "parameters": {"memory_id": "m1"}}));
        assert_eq!(memory_id(&request), Some("m1"));
        let tools = [ToolSpec::new("t", None, Some(json!({"type": "object"})))];
        let run = run_agent_input(&request, "m1", "r1", &tools).expect("converts");
        assert_eq!(
            serde_json::to_value(&run).expect("json"),
            json!({"threadId": "m1", "runId": "r1", "state": {}, "context": [], "forwardedProps": {},
                "messages": [{"role": "user", "id": "r1-0", "content": "Hi"}],
                "tools": [{"name": "t", "description": "", "parameters": {"type": "object"}}]})
        );
    }

    #[test]
    fn errors_point_into_the_request() {
        let request = request(&json!({"input": [
            {"role": "critic", "content": [{"type": "text", "text": "Hm"}]},
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]}));
        let report = run_agent_input(&request, "t", "r", &[]).expect_err("AG-UI has no such role");
        assert_eq!(report.errors[0].path.to_string(), "/input/0/role");
    }
}
