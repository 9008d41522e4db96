//! Import: what the user pasted (a provider's request body, or a curl command carrying one) read
//! into the body and the provider it is for, and the import module's report read back into the
//! standard request, the conversion settings and the losses (each at a JSON Pointer into the
//! pasted body).

use agent_input::ProviderId;
use serde_json::Value;

use super::settings::Settings;

/// What was pasted, taken apart: the request body's text and the provider it was detected for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pasted {
    pub(crate) body: String,
    /// From the URL of a curl command, or else from the body's shape.
    pub(crate) provider: Option<ProviderId>,
    /// Whether the text was a curl command.
    pub(crate) curl: bool,
}

/// Reads the pasted text: a curl command's `-d`/`--data`/`--data-raw`/`--data-binary` body and
/// its URL's provider, or the text itself as the body.
pub(crate) fn read_pasted(text: &str) -> Pasted {
    let trimmed = text.trim_start();
    if !trimmed.starts_with("curl") || !trimmed[4..].starts_with(char::is_whitespace) {
        return Pasted { body: text.to_string(), provider: shape_provider(text), curl: false };
    }
    let words = shell_words(trimmed);
    let mut body = None;
    let mut url = None;
    let mut i = 1;
    while i < words.len() {
        let word = &words[i];
        let data = ["-d", "--data", "--data-raw", "--data-binary", "--data-ascii"];
        if data.contains(&word.as_str()) {
            body = words.get(i + 1).cloned();
            i += 2;
            continue;
        }
        if let Some((flag, value)) = word.split_once('=')
            && data.contains(&flag)
            && flag.starts_with("--")
        {
            body = Some(value.to_string());
        } else if let Some(value) = word.strip_prefix("-d").filter(|v| !v.is_empty() && !word.starts_with("--")) {
            body = Some(value.to_string());
        } else if word == "--url" {
            url = words.get(i + 1).cloned();
            i += 1;
        } else if word.starts_with("http://") || word.starts_with("https://") {
            url = Some(word.clone());
        } else if ["-H", "--header", "-X", "--request", "-u", "--user", "-o", "--output"].contains(&word.as_str()) {
            i += 1;
        }
        i += 1;
    }
    let body = body.unwrap_or_default();
    let provider = url.as_deref().and_then(url_provider).or_else(|| shape_provider(&body));
    Pasted { body, provider, curl: true }
}

/// The provider an endpoint's path names: `/chat/completions`, `/responses`, `/messages`,
/// `:generateContent` (or `:streamGenerateContent`), `/converse` (or `/converse-stream`).
pub(crate) fn url_provider(url: &str) -> Option<ProviderId> {
    let path = url.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
    if path.ends_with("/chat/completions") {
        Some(ProviderId::OpenAiChat)
    } else if path.ends_with("/responses") {
        Some(ProviderId::OpenAiResponses)
    } else if path.ends_with("/messages") {
        Some(ProviderId::AnthropicMessages)
    } else if path.ends_with(":generateContent") || path.ends_with(":streamGenerateContent") {
        Some(ProviderId::Gemini)
    } else if path.ends_with("/converse") || path.ends_with("/converse-stream") {
        Some(ProviderId::BedrockConverse)
    } else {
        None
    }
}

/// The provider a body's shape suggests, when it parses: `contents` (Gemini), `input` or
/// `instructions` (Responses), `inferenceConfig`/`toolConfig` or `{text}` blocks (Converse), a
/// top-level `system`, `anthropic_version` or `source` blocks (Messages), else `messages` (Chat).
pub(crate) fn shape_provider(text: &str) -> Option<ProviderId> {
    let body: Value = serde_json::from_str(text).ok()?;
    let object = body.as_object()?;
    if object.contains_key("contents") {
        return Some(ProviderId::Gemini);
    }
    if object.contains_key("input") || object.contains_key("instructions") {
        return Some(ProviderId::OpenAiResponses);
    }
    if object.contains_key("inferenceConfig") || object.contains_key("toolConfig") || object.contains_key("modelId") {
        return Some(ProviderId::BedrockConverse);
    }
    let messages = object.get("messages")?.as_array()?;
    let blocks = || messages.iter().filter_map(|m| m.get("content")?.as_array()).flatten();
    if blocks().any(|b| b.get("type").is_none() && (b.get("text").is_some() || b.get("image").is_some())) {
        return Some(ProviderId::BedrockConverse);
    }
    if object.contains_key("system")
        || object.contains_key("anthropic_version")
        || blocks().any(|b| b.get("source").is_some() || b["type"] == "tool_use" || b["type"] == "tool_result")
    {
        return Some(ProviderId::AnthropicMessages);
    }
    Some(ProviderId::OpenAiChat)
}

/// A command line split as a POSIX shell splits it: single quotes literal, double quotes with
/// backslash escapes, a backslash before a newline joining lines.
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                started = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                started = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => {
                            word.extend(chars.next());
                        }
                        '\\' if chars.peek() == Some(&'\n') => {
                            chars.next();
                        }
                        c => word.push(c),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\r') if chars.peek() == Some(&'\n') => {
                    chars.next();
                }
                Some('\n' | '\r') | None => {}
                Some(c) => {
                    started = true;
                    word.push(c);
                }
            },
            c if c.is_whitespace() => {
                if started {
                    words.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            c => {
                started = true;
                word.push(c);
            }
        }
    }
    if started {
        words.push(word);
    }
    words
}

/// A problem of the import, at a JSON Pointer into the pasted body.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Loss {
    pub(crate) severity: &'static str,
    pub(crate) code: String,
    pub(crate) path: String,
    pub(crate) message: String,
}

/// The import module's report: the standard request (`None` when the body is not JSON), the
/// options set, and every error and warning.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Report {
    pub(crate) ok: bool,
    pub(crate) request: Option<Value>,
    pub(crate) options: Value,
    pub(crate) losses: Vec<Loss>,
}

/// Reads `importRequest`'s report (JSON text).
pub(crate) fn read_report(text: &str) -> Result<Report, String> {
    let report: Value =
        serde_json::from_str(text).map_err(|e| format!("the import module's report does not parse: {e}"))?;
    let list = |key: &str, severity: &'static str| -> Vec<Loss> {
        report[key]
            .as_array()
            .map(|items| {
                items
                    .iter()
                    .map(|d| Loss {
                        severity,
                        code: d["code"].as_str().unwrap_or_default().to_string(),
                        path: d["path"].as_str().unwrap_or_default().to_string(),
                        message: d["message"].as_str().unwrap_or_default().to_string(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    };
    let mut losses = list("errors", "error");
    losses.extend(list("warnings", "warning"));
    Ok(Report {
        ok: report["ok"].as_bool().unwrap_or(false),
        request: Some(report["request"].clone()).filter(|r| !r.is_null()),
        options: report["options"].clone(),
        losses,
    })
}

/// The request and the settings an import leads to: a leading system message of plain text
/// becomes the system prompt (the same request for every provider), and the options fill the
/// settings they name (the others are cleared; the provider and the schema stay).
pub(crate) fn apply(mut request: Value, options: &Value, current: &Settings) -> (Value, Settings) {
    let mut settings = Settings {
        provider: current.provider,
        schema: current.schema.clone(),
        schema_on: current.schema_on,
        ..Settings::default()
    };
    if let Some(Value::Array(messages)) = request.get_mut("input")
        && messages.len() > 1
        && let Some(system) = plain_system(&messages[0])
    {
        settings.system = system;
        messages.remove(0);
        // Left with a single user text: the text form, as the core writes such a request.
        if let [only] = messages.as_slice()
            && only["role"] == "user"
            && let Some(text) = plain_text(&only["content"])
        {
            request["input"] = Value::String(text);
        }
    }
    let text = |key: &str| match options.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    settings.max_tokens = text("max_tokens");
    settings.temperature = text("temperature");
    settings.top_p = text("top_p");
    if let Some(Value::String(system)) = options.get("system") {
        settings.system.clone_from(system);
    }
    settings.stop_sequences = options
        .get("stop_sequences")
        .and_then(Value::as_array)
        .map(|items| items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n"))
        .unwrap_or_default();
    settings.tools =
        options.get("tools").map(|t| serde_json::to_string_pretty(t).unwrap_or_default()).unwrap_or_default();
    settings.read_features(options);
    (request, settings)
}

/// A system message's text, when it is only text.
fn plain_system(message: &Value) -> Option<String> {
    if !message["role"].as_str().is_some_and(|r| r.eq_ignore_ascii_case("system")) {
        return None;
    }
    plain_text(&message["content"])
}

/// A message content's text, when it is only text.
fn plain_text(content: &Value) -> Option<String> {
    match content {
        Value::String(text) => Some(text.clone()),
        Value::Array(blocks) => blocks
            .iter()
            .map(|b| (b["type"] == "text").then(|| b["text"].as_str()).flatten())
            .collect::<Option<Vec<_>>>()
            .map(|texts| texts.join("\n")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_curl_command_gives_its_body_and_its_provider() {
        let pasted = read_pasted(
            "curl https://api.openai.com/v1/chat/completions \\\n  -H \"Content-Type: application/json\" \\\n  -H \"Authorization: Bearer $OPENAI_API_KEY\" \\\n  -d '{\"model\": \"gpt-5\", \"messages\": [{\"role\": \"user\", \"content\": \"it'\\''s\"}]}'",
        );
        assert!(pasted.curl);
        assert_eq!(pasted.provider, Some(ProviderId::OpenAiChat));
        assert_eq!(pasted.body, r#"{"model": "gpt-5", "messages": [{"role": "user", "content": "it's"}]}"#);
        let gemini = read_pasted(
            r#"curl -X POST "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent?key=$K" --data-raw "{\"contents\": []}""#,
        );
        assert_eq!((gemini.provider, gemini.body.as_str()), (Some(ProviderId::Gemini), r#"{"contents": []}"#));
        let converse = read_pasted(
            "curl --url https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse --data-binary='{}'",
        );
        assert_eq!((converse.provider, converse.body.as_str()), (Some(ProviderId::BedrockConverse), "{}"));
        assert_eq!(read_pasted("curl https://x/v1/messages -d'{}'").provider, Some(ProviderId::AnthropicMessages));
        assert_eq!(read_pasted("curl https://x/v1/responses -d '{}'").provider, Some(ProviderId::OpenAiResponses));
    }

    #[test]
    fn a_body_alone_is_told_by_its_shape() {
        let body = |v: Value| read_pasted(&v.to_string()).provider;
        assert_eq!(body(json!({"contents": []})), Some(ProviderId::Gemini));
        assert_eq!(body(json!({"model": "gpt-5", "input": "hi"})), Some(ProviderId::OpenAiResponses));
        assert_eq!(
            body(json!({"messages": [{"role": "user", "content": [{"text": "hi"}]}]})),
            Some(ProviderId::BedrockConverse)
        );
        assert_eq!(body(json!({"system": "s", "messages": []})), Some(ProviderId::AnthropicMessages));
        assert_eq!(body(json!({"messages": [{"role": "user", "content": "hi"}]})), Some(ProviderId::OpenAiChat));
        assert_eq!(read_pasted("not json").provider, None);
    }

    #[test]
    fn the_report_fills_the_request_and_the_settings() {
        let report = read_report(
            &json!({"ok": true, "request": {"input": [
                {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
                {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]},
                "options": {"max_tokens": 300, "temperature": 0.2, "stop_sequences": ["END"],
                    "tools": [{"name": "f", "input_schema": {"type": "object"}}], "tool_choice": "auto"},
                "errors": [], "warnings": [{"code": "import_dropped", "path": "/model", "message": "not carried"}]})
            .to_string(),
        )
        .unwrap();
        assert_eq!(report.losses[0].path, "/model");
        let current = Settings { top_p: "0.5".into(), ..Settings::default() };
        let (request, settings) = apply(report.request.unwrap(), &report.options, &current);
        assert_eq!(request, json!({"input": "Hi"}));
        assert_eq!(settings.system, "Be brief.");
        assert_eq!(
            (settings.max_tokens.as_str(), settings.temperature.as_str(), settings.top_p.as_str()),
            ("300", "0.2", "")
        );
        assert_eq!(settings.stop_sequences, "END");
        assert!(settings.tools.contains("\"input_schema\""));
        assert_eq!(settings.tool_choice, "auto");
    }
}
