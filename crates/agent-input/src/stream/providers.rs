//! Each provider's stream events → [`StreamEvent`]s and the [`Answer`] so far.

use serde_json::Value;

use super::event_stream::Message;
use super::sse::SseEvent;
use super::{Answer, StreamError, StreamEvent};
use crate::convert::ProviderId;
use crate::response::{Usage, normalize_stop_reason};

fn json(text: &str) -> Result<Value, StreamError> {
    serde_json::from_str(text).map_err(|e| StreamError::InvalidJson(e.to_string()))
}

fn str_at<'v>(value: &'v Value, pointer: &str) -> Option<&'v str> {
    value.pointer(pointer).and_then(Value::as_str)
}

fn u64_at(value: &Value, pointer: &str) -> Option<u64> {
    value.pointer(pointer).and_then(Value::as_u64)
}

/// Token counts from an object with the given keys; the total is summed when not given, as the
/// non-streaming parsers do.
/// The cache counts are at JSON Pointers into the object (`""` where the provider has none).
fn usage(object: Option<&Value>, input: &str, output: &str, total: Option<&str>, cache: [&str; 2]) -> Option<Usage> {
    let object = object.filter(|o| o.is_object())?;
    let count = |key: &str| object.get(key).and_then(Value::as_u64).unwrap_or(0);
    let (input_tokens, output_tokens) = (count(input), count(output));
    let total_tokens = total.map_or(input_tokens + output_tokens, count);
    let cached =
        |pointer: &str| if pointer.is_empty() { None } else { object.pointer(pointer).and_then(Value::as_u64) };
    Some(Usage {
        cache_read_input_tokens: cached(cache[0]),
        cache_write_input_tokens: cached(cache[1]),
        ..Usage::new(input_tokens, output_tokens, total_tokens)
    })
}

/// The `message` of an `{"error": {...}}` or `{"message": ...}` object.
fn error_message(value: &Value) -> String {
    str_at(value, "/error/message")
        .or_else(|| str_at(value, "/message"))
        .or_else(|| value.get("error").and_then(Value::as_str))
        .map_or_else(|| value.to_string(), str::to_string)
}

/// One Bedrock `ConverseStream` event-stream message.
pub(super) fn bedrock_message(
    message: &Message,
    answer: &mut Answer,
    events: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    let payload = || -> Result<Value, StreamError> {
        let text = std::str::from_utf8(&message.payload).map_err(|_| StreamError::InvalidUtf8)?;
        if text.trim().is_empty() { Ok(Value::Null) } else { json(text) }
    };
    match message.header(":message-type") {
        Some("event") => {}
        Some("exception") => {
            let code = message.header(":exception-type").map(str::to_string);
            let message = payload()
                .map_or_else(|_| String::from_utf8_lossy(&message.payload).into_owned(), |v| error_message(&v));
            answer.error(code, message, events);
            return Ok(());
        }
        Some("error") => {
            let code = message.header(":error-code").map(str::to_string);
            let text = message.header(":error-message").unwrap_or("unknown error").to_string();
            answer.error(code, text, events);
            return Ok(());
        }
        other => {
            return Err(StreamError::InvalidFrame(format!("unknown :message-type {}", other.unwrap_or("(absent)"))));
        }
    }
    let body = payload()?;
    let index = u64_at(&body, "/contentBlockIndex").unwrap_or(0);
    match message.header(":event-type") {
        Some("contentBlockStart") => {
            if let Some(tool) = body.pointer("/start/toolUse") {
                let id = str_at(tool, "/toolUseId").unwrap_or_default();
                let name = str_at(tool, "/name").unwrap_or_default();
                answer.start_call(index, id, name, events);
            }
        }
        Some("contentBlockDelta") => {
            if let Some(text) = str_at(&body, "/delta/text") {
                answer.text(index, text, events);
            } else if let Some(input) = str_at(&body, "/delta/toolUse/input") {
                answer.call_args(index, input, events);
            } else if let Some(text) = str_at(&body, "/delta/reasoningContent/text") {
                answer.reasoning(index, text, events);
            }
        }
        Some("contentBlockStop") => answer.end_call(index, events),
        Some("messageStop") => {
            answer.end_all_calls(events);
            if let Some(reason) = str_at(&body, "/stopReason") {
                answer.stop(normalize_stop_reason(ProviderId::BedrockConverse, reason), events);
            }
        }
        Some("metadata") => {
            if let Some(usage) = usage(
                body.get("usage"),
                "inputTokens",
                "outputTokens",
                Some("totalTokens"),
                ["/cacheReadInputTokens", "/cacheWriteInputTokens"],
            ) {
                answer.usage(usage, events);
            }
        }
        // messageStart carries only the role; later event types are skipped as the parser skips
        // unknown blocks.
        _ => {}
    }
    Ok(())
}

/// One server-sent event of an SSE provider.
pub(super) fn sse_event(
    provider: ProviderId,
    event: &SseEvent,
    answer: &mut Answer,
    events: &mut Vec<StreamEvent>,
) -> Result<(), StreamError> {
    let data = event.data.trim();
    if data.is_empty() || data == "[DONE]" {
        return Ok(());
    }
    let body = json(data)?;
    match provider {
        ProviderId::OpenAiChat => openai_chat(&body, answer, events),
        ProviderId::OpenAiResponses => openai_responses(&event.event, &body, answer, events),
        ProviderId::AnthropicMessages => anthropic(&event.event, &body, answer, events),
        ProviderId::Gemini => gemini(&body, answer, events),
        ProviderId::BedrockConverse => {}
    }
    Ok(())
}

fn openai_chat(body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
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
            answer.stop(normalize_stop_reason(ProviderId::OpenAiChat, reason), events);
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

fn openai_responses(kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
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
        "response.output_item.added" if str_at(body, "/item/type") == Some("function_call") => {
            let id = str_at(body, "/item/call_id").unwrap_or_default();
            answer.start_call(output, id, str_at(body, "/item/name").unwrap_or_default(), events);
            answer.call_args(output, str_at(body, "/item/arguments").unwrap_or_default(), events);
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
            let status = str_at(response, "/status");
            let reason = match (status, str_at(response, "/incomplete_details/reason")) {
                (_, Some(reason)) => Some(normalize_stop_reason(ProviderId::OpenAiResponses, reason)),
                (Some("completed"), None) if !answer.calls.is_empty() => Some("tool_use".to_string()),
                (Some(status), None) => Some(normalize_stop_reason(ProviderId::OpenAiResponses, status)),
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

fn anthropic(kind: &str, body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
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
                _ => {}
            }
        }
        "content_block_delta" => match str_at(body, "/delta/type") {
            Some("text_delta") => answer.text(index, str_at(body, "/delta/text").unwrap_or_default(), events),
            Some("input_json_delta") => {
                answer.call_args(index, str_at(body, "/delta/partial_json").unwrap_or_default(), events);
            }
            Some("thinking_delta") => {
                answer.reasoning(index, str_at(body, "/delta/thinking").unwrap_or_default(), events);
            }
            _ => {}
        },
        "content_block_stop" => answer.end_call(index, events),
        "message_delta" => {
            if let Some(reason) = str_at(body, "/delta/stop_reason") {
                answer.end_all_calls(events);
                answer.stop(normalize_stop_reason(ProviderId::AnthropicMessages, reason), events);
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

fn gemini(body: &Value, answer: &mut Answer, events: &mut Vec<StreamEvent>) {
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
                normalize_stop_reason(ProviderId::Gemini, reason)
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
