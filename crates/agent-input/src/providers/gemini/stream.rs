//! Gemini `streamGenerateContent?alt=sse` chunks → [`StreamEvent`]s.

use serde_json::Value;

use crate::providers::common::response::Place;
use crate::providers::common::stream::{Answer, StreamEvent, error_message, str_at, usage};

/// The key of the thought part being streamed.
const THOUGHT: u64 = u64::MAX;
/// The key of the first code execution part; the next ones count down from it.
const ITEM: u64 = u64::MAX - 1;

pub(crate) fn event(body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
    if body.get("error").is_some() {
        let code = str_at(body, "/error/status").map(str::to_string);
        answer.error(code, error_message(body), events);
        return;
    }
    let candidate = body.pointer("/candidates/0");
    if let Some(candidate) = candidate {
        for part in candidate.pointer("/content/parts").and_then(Value::as_array).into_iter().flatten() {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                let text = str_at(part, "/text").unwrap_or_default();
                answer.reasoning(0, text, events);
                // One thought part of the chunks' text, as the whole answer gives it.
                if answer.pending_block(THOUGHT).is_none() {
                    answer.begin_block(THOUGHT, serde_json::json!({"text": "", "thought": true}));
                }
                if let Some(Value::Object(block)) = answer.pending_block(THOUGHT) {
                    if let Some(Value::String(held)) = block.get_mut("text") {
                        held.push_str(text);
                    }
                    if let Some(signature) = part.get("thoughtSignature") {
                        block.insert("thoughtSignature".to_string(), signature.clone());
                    }
                }
                continue;
            }
            answer.end_block(THOUGHT);
            // Code execution: the provider's own parts, kept whole (with their signature).
            if part.get("executableCode").is_some() || part.get("codeExecutionResult").is_some() {
                answer.item(ITEM - answer.items() as u64, part.clone());
                continue;
            }
            // The streamed answer's text is one block, or one between each two items.
            let text_key = answer.items() as u64;
            if let Some(signature) = str_at(part, "/thoughtSignature") {
                // A signature after the text (on blank text) goes with the last element.
                let place = match str_at(part, "/text") {
                    Some(text) if !text.trim().is_empty() && text_key == 0 => Place::OnText(0),
                    Some(text) if !text.trim().is_empty() && answer.has_text(text_key) => answer.state.last_text(),
                    Some(text) if !text.trim().is_empty() => answer.state.next_text(),
                    _ if part.get("functionCall").is_some() => answer.state.next_call(),
                    _ => answer.state.next(),
                };
                answer.state.on(place, "thoughtSignature", signature);
            }
            if let Some(text) = str_at(part, "/text") {
                // Chunks split one answer's text anywhere: it is one block.
                answer.text(text_key, text, events);
            } else if let Some(call) = part.get("functionCall") {
                let key = 1 + answer.calls.len() as u64;
                let id = str_at(call, "/id").map_or_else(|| format!("call_{}", answer.calls.len()), str::to_string);
                if let Some(given) = str_at(call, "/id") {
                    // Kept in the state too, so the call goes back to Gemini with its id.
                    answer.state.on(answer.state.next_call(), "id", given);
                }
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
                super::response::stop_reason(reason)
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
