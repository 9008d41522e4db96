//! Gemini `generateContent` response → standard message.

use crate::diagnostic::Report;
use crate::json::Json;
use crate::path::Path;
use crate::providers::common::response::{
    Content, ProviderResponse, StateItems, UsageKeys, assistant, assistant_of, fields, object, reasoning, root,
    tool_call, usage,
};
use crate::providers::id::ProviderId;

/// Reads a `generateContent` response (`{"candidates": [{"content": {"parts"}, "finishReason"}],
/// "usageMetadata"}`); only the first candidate is read. `text` parts (not `thought` ones) and
/// `functionCall` parts; a call without an `id` gets `call_<n>`, its position among the calls.
/// Each `thoughtSignature` is reasoning state `on` the element its part gave. A
/// prompt blocked before any candidate is an empty message with stop reason `content_filtered`.
///
/// # Errors
/// `invalid_json`, or `missing_field` / `invalid_field_type` with the path of the bad part.
pub fn parse_gemini(body: &str) -> Result<ProviderResponse, Report> {
    let document = root(body)?;
    let top = Path::root();
    let root = object(&document.root, &top, "the response")?;
    let usage = usage(
        root.get("usageMetadata").and_then(Json::as_object),
        &UsageKeys {
            input: "promptTokenCount",
            output: "candidatesTokenCount",
            total: Some("totalTokenCount"),
            cache_read: &["cachedContentTokenCount"],
            cache_write: &[],
        },
    );
    let candidates = match root.get("candidates") {
        None | Some(Json::Null) => &[][..],
        Some(_) => fields(root, &top).array("candidates")?,
    };
    let Some(candidate) = candidates.first() else {
        let blocked =
            root.get("promptFeedback").and_then(Json::as_object).is_some_and(|f| f.contains_key("blockReason"));
        if !blocked {
            return Err(Report::from(crate::Diagnostic::new(
                crate::Code::MissingField,
                top.key("candidates"),
                "the response has no candidates and no promptFeedback.blockReason",
            )));
        }
        return Ok(ProviderResponse {
            message: assistant(Vec::new(), Vec::new()),
            stop_reason: Some("content_filtered".to_string()),
            usage,
            reasoning: None,
        });
    };
    let path = top.key("candidates").index(0);
    let candidate = object(candidate, &path, "a candidate")?;
    let mut content_blocks = Content::default();
    let mut calls = Vec::new();
    let mut thoughts = Vec::new();
    let mut state = StateItems::default();
    if let Some(content) = candidate.get("content") {
        let content_path = path.key("content");
        let content = object(content, &content_path, "content")?;
        let parts = match content.get("parts") {
            None => &[][..],
            Some(_) => fields(content, &content_path).array("parts")?,
        };
        for (i, part) in parts.iter().enumerate() {
            let part_path = content_path.key("parts").index(i);
            let part = object(part, &part_path, "a part")?;
            // A signature belongs to the element its part gave, or to the next one when the
            // part gave none (a thought, blank text; the last element when none follows).
            if matches!(part.get("thought"), Some(Json::Bool(true))) {
                if let Some(text) = part.get("text").and_then(Json::as_str) {
                    thoughts.push(text.to_string());
                }
                // Sent back as given, with any signature on it, as Gemini's own history keeps it.
                state.block(serde_json::Value::Object(part.to_map()));
                continue;
            }
            // Code execution: the provider's own parts, kept whole (with their signature).
            if part.contains_key("executableCode") || part.contains_key("codeExecutionResult") {
                content_blocks.item(ProviderId::Gemini, serde_json::Value::Object(part.to_map()), &mut state);
                continue;
            }
            if let Some(signature) = fields(part, &part_path).optional_str("thoughtSignature")? {
                let place = match part.get("text").and_then(Json::as_str) {
                    Some(text) if !text.trim().is_empty() => state.next_text(),
                    _ if part.contains_key("functionCall") => state.next_call(),
                    _ => state.next(),
                };
                state.on(place, "thoughtSignature", signature);
            }
            if let Some(text) = fields(part, &part_path).optional_str("text")? {
                content_blocks.text(text, &mut state);
            } else if let Some(call) = part.get("functionCall") {
                let call_path = part_path.key("functionCall");
                let call = object(call, &call_path, "functionCall")?;
                let name = fields(call, &call_path).str("name")?;
                let id = match fields(call, &call_path).optional_str("id")? {
                    Some(id) => {
                        // Kept in the state too, so the call goes back to Gemini with its id.
                        state.on(state.next_call(), "id", id);
                        id.to_string()
                    }
                    None => format!("call_{}", calls.len()),
                };
                state.call();
                let arguments = match call.get("args") {
                    None | Some(Json::Null) => "{}".to_string(),
                    Some(args @ Json::Object(_)) => crate::json::compact(&args.to_value()),
                    Some(other) => {
                        return Err(crate::providers::common::response::wrong(
                            &call_path.key("args"),
                            "args",
                            "object",
                            other,
                        ));
                    }
                };
                calls.push(tool_call(&id, name, arguments));
            }
        }
    }
    let stop_reason = fields(candidate, &path)
        .optional_str("finishReason")?
        .map(|reason| if reason == "STOP" && !calls.is_empty() { "tool_use".to_string() } else { stop_reason(reason) });
    let mut message = assistant_of(content_blocks.blocks, calls);
    message.reasoning_state = state.into_state(ProviderId::Gemini);
    Ok(ProviderResponse { message, stop_reason, usage, reasoning: reasoning(thoughts) })
}

/// Gemini's documented stop reasons (google-genai's `FinishReason`) in the standard words.
pub(super) const STOP_REASONS: &[(&str, &str)] = &[
    ("STOP", "end_turn"),
    ("MAX_TOKENS", "max_tokens"),
    ("SAFETY", "content_filtered"),
    ("RECITATION", "content_filtered"),
    ("BLOCKLIST", "content_filtered"),
    ("PROHIBITED_CONTENT", "content_filtered"),
    ("SPII", "content_filtered"),
    ("IMAGE_SAFETY", "content_filtered"),
    ("IMAGE_PROHIBITED_CONTENT", "content_filtered"),
    ("IMAGE_RECITATION", "content_filtered"),
    ("MODEL_ARMOR", "content_filtered"),
    ("MALFORMED_FUNCTION_CALL", "malformed_output"),
    ("MALFORMED_RESPONSE", "malformed_output"),
    ("UNEXPECTED_TOOL_CALL", "malformed_output"),
    ("TOO_MANY_TOOL_CALLS", "malformed_output"),
    ("MISSING_THOUGHT_SIGNATURE", "malformed_output"),
];

/// A stop reason in the standard words; an unknown one is kept as given.
pub(super) fn stop_reason(raw: &str) -> String {
    crate::providers::common::response::stop_reason(STOP_REASONS, raw)
}
