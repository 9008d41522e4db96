//! `OpenAI` Chat Completions stream chunks → [`StreamEvent`]s.

use serde_json::Value;

use crate::providers::common::stream::{Answer, StreamEvent, error_message, str_at, u64_at, usage};

pub(crate) fn event(body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
    if body.get("error").is_some() {
        let code = str_at(body, "/error/code").or_else(|| str_at(body, "/error/type")).map(str::to_string);
        answer.error(code, error_message(body), events);
        return;
    }
    let choice = body
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|choices| choices.iter().find(|c| u64_at(c, "/index").unwrap_or(0) == 0));
    if let Some(choice) = choice {
        if let Some(text) = str_at(choice, "/delta/content") {
            answer.text(0, text, events);
        }
        if let Some(refusal) = str_at(choice, "/delta/refusal") {
            answer.text(1, refusal, events);
        }
        if let Some(text) = str_at(choice, "/delta/reasoning_content").or_else(|| str_at(choice, "/delta/reasoning")) {
            events.push(StreamEvent::ReasoningDelta { text: text.to_string() });
        }
        for call in choice.pointer("/delta/tool_calls").and_then(Value::as_array).into_iter().flatten() {
            let key = u64_at(call, "/index").unwrap_or(0);
            // The first chunk of a call carries its id; some compatible servers repeat it.
            if let Some(id) = str_at(call, "/id")
                && !answer.calls.iter().any(|c| c.key == key && c.open && c.id == id)
            {
                answer.start_call(key, id, str_at(call, "/function/name").unwrap_or_default(), events);
            }
            if let Some(arguments) = str_at(call, "/function/arguments") {
                answer.call_args(key, arguments, events);
            }
        }
        if let Some(reason) = str_at(choice, "/finish_reason") {
            answer.end_all_calls(events);
            answer.stop(super::response::stop_reason(reason), events);
        }
    }
    if let Some(usage) = usage(
        body.get("usage"),
        "prompt_tokens",
        "completion_tokens",
        Some("total_tokens"),
        ["/prompt_tokens_details/cached_tokens", ""],
    ) {
        answer.usage(usage, events);
    }
}
