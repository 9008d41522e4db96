//! `OpenAI` Responses stream events → [`StreamEvent`]s.

use serde_json::Value;

use crate::providers::common::stream::{Answer, StreamEvent, error_message, str_at, u64_at, usage};

pub(crate) fn event(kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
    // The `type` key repeats the `event:` name; either is enough.
    let kind = if kind.is_empty() { str_at(body, "/type").unwrap_or_default() } else { kind };
    let output = u64_at(body, "/output_index").unwrap_or(0);
    let part = u64_at(body, "/content_index").unwrap_or(0);
    let text_key = (output << 32) | (part & 0xFFFF_FFFF);
    match kind {
        "response.output_text.delta" | "response.refusal.delta" => {
            answer.text(text_key, str_at(body, "/delta").unwrap_or_default(), events);
        }
        "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
            // One block per summary or content part of each output item, as the parser reads them.
            let (part, kind) = match u64_at(body, "/summary_index") {
                Some(part) => (part, 0),
                None => (u64_at(body, "/content_index").unwrap_or(0), 1),
            };
            let key = (u64_at(body, "/output_index").unwrap_or(0) << 32) | (kind << 31) | part;
            answer.reasoning(key, str_at(body, "/delta").unwrap_or_default(), events);
        }
        "response.output_item.added" if str_at(body, "/item/type") == Some("reasoning") => {
            answer.begin_block(output, body.get("item").cloned().unwrap_or_default());
        }
        "response.output_item.done" if str_at(body, "/item/type") == Some("reasoning") => {
            // The finished item: its summary, and its encrypted_content when asked for.
            if let (Some(held), Some(item)) = (answer.pending_block(output), body.get("item")) {
                held.clone_from(item);
            }
            answer.end_block(output);
        }
        "response.output_item.added" if str_at(body, "/item/type") == Some("message") => {
            answer.begin_block(output, Value::Null);
        }
        "response.output_item.done" if str_at(body, "/item/type") == Some("message") => {
            // Its id pairs it with the reasoning item before it: on its text, or the whole item
            // when it has none (placed where it began).
            let item = body.get("item").unwrap_or(&Value::Null);
            let parts = item.get("content").and_then(Value::as_array).into_iter().flatten();
            let blank =
                parts.filter_map(|p| str_at(p, "/text").or_else(|| str_at(p, "/refusal"))).all(|t| t.trim().is_empty());
            match str_at(item, "/id") {
                Some(_) if blank => {
                    if let Some(held) = answer.pending_block(output) {
                        held.clone_from(item);
                    }
                    answer.end_block(output);
                }
                Some(id) => {
                    answer.drop_block(output);
                    let place = answer.state.last_text();
                    answer.state.on(place, "id", id);
                }
                None => answer.drop_block(output),
            }
        }
        "response.output_item.added" if str_at(body, "/item/type") == Some("function_call") => {
            if let Some(item_id) = str_at(body, "/item/id") {
                let place = answer.state.next_call();
                answer.state.on(place, "id", item_id);
            }
            let id = str_at(body, "/item/call_id").unwrap_or_default();
            answer.start_call(output, id, str_at(body, "/item/name").unwrap_or_default(), events);
            answer.call_args(output, str_at(body, "/item/arguments").unwrap_or_default(), events);
        }
        // A built-in tool's call or any other item: kept whole, as it is when done.
        "response.output_item.added"
            if !matches!(str_at(body, "/item/type"), Some("reasoning" | "message" | "function_call")) =>
        {
            answer.item(output, body.get("item").cloned().unwrap_or_default());
        }
        "response.output_item.done"
            if !matches!(str_at(body, "/item/type"), Some("reasoning" | "message" | "function_call")) =>
        {
            if let Some(item) = body.get("item") {
                answer.replace_item(output, item);
            }
        }
        "response.function_call_arguments.delta" => {
            answer.call_args(output, str_at(body, "/delta").unwrap_or_default(), events);
        }
        "response.output_item.done" if str_at(body, "/item/type") == Some("function_call") => {
            answer.end_call(output, events);
        }
        "response.completed" | "response.incomplete" => {
            answer.end_all_calls(events);
            let response = body.get("response").unwrap_or(&Value::Null);
            // The finished response's reasoning items are the ones to send back (each event
            // carries its own encryption of the same item).
            for item in response.get("output").and_then(Value::as_array).into_iter().flatten() {
                if let (Some("reasoning"), Some(id)) = (str_at(item, "/type"), str_at(item, "/id")) {
                    answer.state.replace_block(id, item);
                }
            }
            let status = str_at(response, "/status");
            let reason = match (status, str_at(response, "/incomplete_details/reason")) {
                (_, Some(reason)) => Some(super::response::stop_reason(reason)),
                (Some("completed"), None) if !answer.calls.is_empty() => Some("tool_use".to_string()),
                (Some(status), None) => Some(super::response::stop_reason(status)),
                (None, None) => None,
            };
            if let Some(reason) = reason {
                answer.stop(reason, events);
            }
            if let Some(usage) = usage(
                response.get("usage"),
                "input_tokens",
                "output_tokens",
                Some("total_tokens"),
                ["/input_tokens_details/cached_tokens", ""],
            ) {
                answer.usage(usage, events);
            }
        }
        "response.failed" => {
            let error = body.pointer("/response/error").unwrap_or(&Value::Null);
            let code = str_at(error, "/code").map(str::to_string);
            let message = str_at(error, "/message").unwrap_or("the response failed").to_string();
            answer.error(code, message, events);
        }
        "error" => {
            let code = str_at(body, "/code").or_else(|| str_at(body, "/error/code")).map(str::to_string);
            answer.error(code, error_message(body), events);
        }
        _ => {}
    }
}
