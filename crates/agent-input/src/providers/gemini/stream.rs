//! Gemini `streamGenerateContent?alt=sse` chunks → [`StreamEvent`]s.

use serde_json::Value;

use crate::decoding::{Answer, StreamEvent, error_message, str_at, usage};

pub(crate) fn event(body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
    if body.get("error").is_some() {
        let code = str_at(body, "/error/status").map(str::to_string);
        answer.error(code, error_message(body), events);
        return;
    }
    let candidate = body.pointer("/candidates/0");
    if let Some(candidate) = candidate {
        for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
            if let Some(text) = str_at(part, "/text") {
                if part.get("thought").and_then(Value::as_bool) == Some(true) {
                    answer.reasoning(0, text, events);
                } else {
                    // Chunks split one answer's text anywhere: it is one block.
                    answer.text(0, text, events);
                }
            } else if let Some(call) = part.get("functionCall") {
                let key = 1 + answer.calls.len() as u64;
                let id = str_at(call, "/id").map_or_else(|| format!("call_{}", answer.calls.len()), str::to_string);
                answer.start_call(key, &id, str_at(call, "/name").unwrap_or_default(), events);
                let args = match call.get("args") {
                    None | Some(Value::Null) => "{}".to_string(),
                    Some(args) => args.to_string(),
                };
                answer.call_args(key, &args, events);
                answer.end_call(key, events);
            }
        }
        if let Some(reason) = str_at(candidate, "/finishReason") {
            let reason = if reason == "STOP" && !answer.calls.is_empty() {
                "tool_use".to_string()
            } else {
                super::stop_reason(reason)
            };
            answer.stop(reason, events);
        }
    } else if body.pointer("/promptFeedback/blockReason").is_some() {
        answer.stop("content_filtered".to_string(), events);
    }
    if let Some(usage) = usage(
        body.get("usageMetadata"),
        "promptTokenCount",
        "candidatesTokenCount",
        Some("totalTokenCount"),
        ["/cachedContentTokenCount", ""],
    ) {
        answer.usage(usage, events);
    }
}
