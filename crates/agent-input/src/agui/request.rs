//! A standard request → an AG-UI `RunAgentInput`: the way back of [`super::from_agui`], for a
//! front-end (or a test) that speaks AG-UI to an agent described by a standard request.

use serde_json::{Map, Value};

use super::model::{RunAgentInput, Tool};
use crate::convert::{Converted, ToolEntry};
use crate::diagnostic::{Diagnostic, Report};
use crate::model::ExecuteRequest;
use crate::path::Segment;
use crate::providers::common::convert::option_path;
use crate::providers::common::{fields, items};

/// Writes a validated request as a `RunAgentInput` of `thread_id` and `run_id`.
///
/// The input becomes the messages (text or content blocks are one user message), written by
/// [`super::to_agui`] with ids `<run_id>-<index>`; function `tools` become AG-UI tools
/// (`inputSchema` → `parameters`); `state` and `forwardedProps` are empty objects and `context`
/// is empty. What AG-UI has no place for is left out with a warning: a provider's own tool
/// (`provider_item_dropped` at `/options/tools/<i>`), and provider fields of messages and tools
/// (`provider_fields_dropped`).
///
/// # Errors
/// What AG-UI cannot carry ([`super::to_agui`]'s errors), with paths into the request
/// (`/input/2/content/0`).
pub fn run_agent_input(
    request: &ExecuteRequest<'_>,
    thread_id: &str,
    run_id: &str,
    tools: &[ToolEntry],
) -> Result<Converted<RunAgentInput>, Report> {
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
    let mut warnings = Vec::new();
    fields::all_dropped(request, "AG-UI", &mut warnings);
    let mut written = Vec::with_capacity(tools.len());
    for (i, entry) in tools.iter().enumerate() {
        let at = option_path("tools").index(i);
        match entry {
            ToolEntry::Function(spec) => {
                if let Some(own) = &spec.provider_fields {
                    warnings.push(fields::dropped(&own.fields, own.provider, "AG-UI", at.key("provider_fields")));
                }
                written.push(Tool {
                    name: spec.name.clone(),
                    description: spec.description.clone().unwrap_or_default(),
                    parameters: spec.input_schema.clone(),
                });
            }
            // AG-UI's tools are the caller's functions: a provider's own tool has no place there.
            ToolEntry::Provider(tool) => {
                warnings.push(items::left_out(at, tool, "tool", ": AG-UI's tools are the caller's functions"));
            }
        }
    }
    let body = RunAgentInput {
        thread_id: thread_id.to_string(),
        run_id: run_id.to_string(),
        state: Value::Object(Map::new()),
        messages,
        tools: written,
        context: Vec::new(),
        forwarded_props: Value::Object(Map::new()),
    };
    Ok(Converted::new(body, warnings))
}

/// The memory id a standard request continues (`parameters.memory_id`), the natural `threadId`.
pub fn memory_id<'r>(request: &'r ExecuteRequest<'_>) -> Option<&'r str> {
    request.parameters.get("memory_id").and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::ToolSpec;
    use crate::diagnostic::Code;
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
        let tools = [ToolSpec::new("t", None, Some(json!({"type": "object"}))).into()];
        let run = run_agent_input(&request, "m1", "r1", &tools).expect("converts");
        assert!(run.warnings.is_empty(), "{:?}", run.warnings);
        assert_eq!(
            serde_json::to_value(&run.body).expect("json"),
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

    /// Provider fields and a provider's own tool have no place in AG-UI: each is named where it
    /// was, and the rest is written.
    #[test]
    fn what_agui_has_no_place_for_is_named() {
        let request = request(&json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "Hi"}],
             "providerFields": {"provider": "anthropic-messages", "items": [{"on": 0, "fields": {"cache_control": {"type": "ephemeral"}}}]}}]}));
        let mut spec = ToolSpec::new("t", None, None);
        spec.provider_fields = Some(crate::ProviderFields {
            provider: crate::ProviderId::OpenAiResponses,
            fields: json!({"strict": true}).as_object().cloned().unwrap_or_default(),
        });
        let hosted = crate::ProviderItem { provider: crate::ProviderId::Gemini, item: json!({"googleSearch": {}}) };
        let run = run_agent_input(&request, "t", "r", &[ToolEntry::Provider(hosted), spec.into()]).expect("converts");
        let named: Vec<(String, Code)> = run.warnings.iter().map(|w| (w.path.to_string(), w.code)).collect();
        assert_eq!(
            named,
            [
                ("/input/0/providerFields/items/0/fields".to_string(), Code::ProviderFieldsDropped),
                ("/options/tools/0".to_string(), Code::ProviderItemDropped),
                ("/options/tools/1/provider_fields".to_string(), Code::ProviderFieldsDropped),
            ]
        );
        assert!(run.warnings[0].message.contains("'cache_control'"), "{}", run.warnings[0].message);
        assert!(run.warnings[1].message.contains("'googleSearch'"), "{}", run.warnings[1].message);
        assert_eq!(serde_json::to_value(&run.body.tools).expect("json"), json!([{"name": "t", "description": ""}]));
        assert_eq!(run.body.messages.len(), 1);
    }
}
