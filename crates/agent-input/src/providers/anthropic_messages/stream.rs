//! Anthropic Messages stream events → [`StreamEvent`]s.

use serde_json::Value;

use crate::providers::common::response::Usage;
use crate::providers::common::stream::{Answer, StreamEvent, error_message, str_at, u64_at, usage};

pub(crate) fn event(kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
    let kind = if kind.is_empty() { str_at(body, "/type").unwrap_or_default() } else { kind };
    let index = u64_at(body, "/index").unwrap_or(0);
    match kind {
        "message_start" => {
            // Input tokens come first; output tokens arrive (cumulative) in message_delta.
            if let Some(usage) = usage(
                body.pointer("/message/usage"),
                "input_tokens",
                "output_tokens",
                None,
                ["/cache_read_input_tokens", "/cache_creation_input_tokens"],
            ) {
                answer.usage = Some(usage);
            }
        }
        "content_block_start" => {
            let block = body.get("content_block").unwrap_or(&Value::Null);
            match str_at(block, "/type") {
                Some("tool_use") => {
                    let id = str_at(block, "/id").unwrap_or_default();
                    answer.start_call(index, id, str_at(block, "/name").unwrap_or_default(), events);
                    // The start carries `input: {}`; the object's text follows as deltas.
                }
                Some("text") => answer.text(index, str_at(block, "/text").unwrap_or_default(), events),
                // Kept whole, with the signature that ends it, as reasoning state.
                Some("thinking" | "redacted_thinking") => answer.begin_block(index, block.clone()),
                // A server tool's call (its input follows as deltas) or result: kept whole.
                _ => answer.item(index, block.clone()),
            }
        }
        "content_block_delta" => match str_at(body, "/delta/type") {
            Some("text_delta") => answer.text(index, str_at(body, "/delta/text").unwrap_or_default(), events),
            Some("input_json_delta") => {
                let delta = str_at(body, "/delta/partial_json").unwrap_or_default();
                if !answer.item_input(index, delta) {
                    answer.call_args(index, delta, events);
                }
            }
            Some("thinking_delta") => {
                let text = str_at(body, "/delta/thinking").unwrap_or_default();
                if let Some(Value::String(thinking)) = answer.pending_block(index).and_then(|b| b.get_mut("thinking")) {
                    thinking.push_str(text);
                }
                answer.reasoning(index, text, events);
            }
            Some("signature_delta") => {
                let signature = str_at(body, "/delta/signature").unwrap_or_default();
                if let Some(Value::Object(block)) = answer.pending_block(index) {
                    let entry = block.entry("signature").or_insert_with(|| Value::from(""));
                    if let Value::String(held) = entry {
                        held.push_str(signature);
                    }
                }
            }
            _ => {}
        },
        "content_block_stop" => {
            answer.end_call(index, events);
            answer.end_block(index);
            answer.end_item(index);
        }
        "message_delta" => {
            if let Some(reason) = str_at(body, "/delta/stop_reason") {
                answer.end_all_calls(events);
                answer.stop(super::response::stop_reason(reason), events);
            }
            if let Some(output) = u64_at(body, "/usage/output_tokens") {
                let input =
                    u64_at(body, "/usage/input_tokens").or_else(|| answer.usage.map(|u| u.input_tokens)).unwrap_or(0);
                // The cache counts came with message_start, or come again here.
                let started = answer.usage.unwrap_or_default();
                let cached = |key: &str, before: Option<u64>| u64_at(body, key).or(before);
                let usage = Usage {
                    cache_read_input_tokens: cached("/usage/cache_read_input_tokens", started.cache_read_input_tokens),
                    cache_write_input_tokens: cached(
                        "/usage/cache_creation_input_tokens",
                        started.cache_write_input_tokens,
                    ),
                    ..Usage::new(input, output, input + output)
                };
                answer.usage(usage, events);
            }
        }
        "error" => {
            let code = str_at(body, "/error/type").map(str::to_string);
            answer.error(code, error_message(body), events);
        }
        _ => {}
    }
}
