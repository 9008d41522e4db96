//! An import (`agent-input/import`'s `importRequest`, through the on-demand view) read into the
//! playground: the standard request for the editor and the options for the conversion settings.

use serde_json::Value;

use super::settings::Settings;

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
    fn an_import_fills_the_request_and_the_settings() {
        let request = json!({"input": [
            {"role": "system", "content": [{"type": "text", "text": "Be brief."}]},
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]}]});
        let options = json!({"max_tokens": 300, "temperature": 0.2, "stop_sequences": ["END"],
            "tools": [{"name": "f", "input_schema": {"type": "object"}}], "tool_choice": "auto"});
        let current = Settings { top_p: "0.5".into(), ..Settings::default() };
        let (request, settings) = apply(request, &options, &current);
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

    #[test]
    fn a_system_message_with_more_than_text_stays_in_the_request() {
        let request = json!({"input": [
            {"role": "system", "content": [{"type": "image", "source": {"type": "url", "format": "png", "data": "u"}}]},
            {"role": "user", "content": "Hi"}]});
        let (kept, settings) = apply(request.clone(), &json!({}), &Settings::default());
        assert_eq!((kept, settings.system.as_str()), (request, ""));
    }
}
