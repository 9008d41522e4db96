//! `OpenAI` Chat Completions response → standard message.

use crate::diagnostic::Report;
use crate::json::Json;
use crate::path::Path;
use crate::providers::common::response::{
    ProviderResponse, UsageKeys, assistant, fields, object, root, tool_call, usage,
};

/// Reads a Chat Completions response (`{"choices": [{"message", "finish_reason"}], "usage"}`);
/// only the first choice is read. A refusal becomes the message text.
///
/// # Errors
/// `invalid_json`, or `missing_field` / `invalid_field_type` with the path of the bad part.
pub fn parse_openai_chat(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let choices = fields(root, &top).array("choices")?;
    let choice_path = top.key("choices").index(0);
    let Some(choice) = choices.first() else {
        return Err(Report::from(crate::Diagnostic::new(
            crate::Code::MissingField,
            choice_path,
            "the response has no choices",
        )));
    };
    let choice = object(choice, &choice_path, "a choice")?;
    let message_path = choice_path.key("message");
    let message = object(fields(choice, &choice_path).value("message")?, &message_path, "message")?;
    let mut texts = Vec::new();
    match message.get("content") {
        None | Some(Json::Null) => {}
        Some(Json::String(text)) => texts.push(text.to_string()),
        Some(Json::Array(parts)) => {
            for (i, part) in parts.iter().enumerate() {
                let path = message_path.key("content").index(i);
                if let Some(text) = fields(object(part, &path, "a content part")?, &path).optional_str("text")? {
                    texts.push(text.to_string());
                }
            }
        }
        Some(other) => {
            return Err(crate::providers::common::response::wrong(
                &message_path.key("content"),
                "content",
                "string",
                other,
            ));
        }
    }
    if let Some(refusal) = fields(message, &message_path).optional_str("refusal")? {
        texts.push(refusal.to_string());
    }
    let mut calls = Vec::new();
    if let Some(Json::Array(items)) = message.get("tool_calls") {
        for (k, item) in items.iter().enumerate() {
            let path = message_path.key("tool_calls").index(k);
            let item = object(item, &path, "a tool call")?;
            let id = fields(item, &path).str("id")?;
            let function_path = path.key("function");
            let function = object(fields(item, &path).value("function")?, &function_path, "function")?;
            let name = fields(function, &function_path).str("name")?;
            let arguments = fields(function, &function_path).optional_str("arguments")?.unwrap_or_default();
            let arguments = if arguments.trim().is_empty() { "{}" } else { arguments };
            calls.push(tool_call(id, name, arguments.to_string()));
        }
    }
    let stop_reason = fields(choice, &choice_path).optional_str("finish_reason")?.map(stop_reason);
    Ok(ProviderResponse {
        message: assistant(texts, calls),
        stop_reason,
        usage: usage(
            root.get("usage").and_then(Json::as_object),
            &UsageKeys {
                input: "prompt_tokens",
                output: "completion_tokens",
                total: Some("total_tokens"),
                cache_read: &["prompt_tokens_details", "cached_tokens"],
                cache_write: &[],
            },
        ),
        reasoning: None,
    })
}

/// `OpenAI` Chat Completions's documented stop reasons (the `OpenAI` SDK's `finish_reason` literals) in the standard words.
pub(super) const STOP_REASONS: &[(&str, &str)] = &[
    ("stop", "end_turn"),
    ("tool_calls", "tool_use"),
    ("function_call", "tool_use"),
    ("length", "max_tokens"),
    ("content_filter", "content_filtered"),
];

/// A stop reason in the standard words; an unknown one is kept as given.
pub(super) fn stop_reason(raw: &str) -> String {
    crate::providers::common::response::stop_reason(STOP_REASONS, raw)
}
