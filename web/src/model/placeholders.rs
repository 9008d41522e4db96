//! The JSON editor's placeholders for media: payloads over 4 KB are shown as
//! `⟪media N: … kept by the playground⟫` and put back when the text is read, so the textarea never
//! holds megabytes of base64. Also the forms' light snapshot, which shows payloads as sizes.

use serde_json::{Value, json};

use super::media::preview_key;

/// Payloads longer than this are shown in the JSON editor as placeholders.
pub(crate) const TOKEN_OVER: usize = 4096;

/// A copy of the body for the JSON editor: every long `data` string replaced by a placeholder
/// (recorded in `tokens`), so the editor never holds megabytes of base64.
pub(crate) fn with_tokens(value: &Value, tokens: &mut Vec<(String, String)>) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(|v| with_tokens(v, tokens)).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match v {
                    Value::String(s) if k == "data" && s.len() > TOKEN_OVER => {
                        let token = format!(
                            "⟪media {}: {} of base64, kept by the playground⟫",
                            tokens.len() + 1,
                            super::display::human_bytes(s.len())
                        );
                        tokens.push((token.clone(), s.clone()));
                        (k.clone(), Value::String(token))
                    }
                    _ => (k.clone(), with_tokens(v, tokens)),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The editor's text with each placeholder (as a whole JSON string) replaced by its payload.
pub(crate) fn expand_tokens(text: &str, tokens: &[(String, String)]) -> String {
    let mut text = text.to_string();
    for (token, data) in tokens {
        let quoted = format!("\"{token}\"");
        if text.contains(&quoted) {
            text = text.replace(&quoted, &serde_json::to_string(data).unwrap_or_default());
        }
    }
    text
}

/// A copy of a value with long `data` strings (media payloads) replaced by a marker holding
/// their length and preview key: what the forms render from.
pub(crate) fn light(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(light).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match v {
                    Value::String(s) if k == "data" && s.len() > TOKEN_OVER => {
                        (k.clone(), json!({"$large": s.len(), "key": preview_key(s)}))
                    }
                    _ => (k.clone(), light(v)),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether a value of a light snapshot is a payload's marker.
pub(crate) fn is_large(value: &Value) -> bool {
    value.get("$large").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_editor_holds_placeholders_for_media() {
        let data = "A".repeat(TOKEN_OVER + 4);
        let body = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": data}},
            {"type": "text", "text": "data"}]});
        let mut tokens = Vec::new();
        let shown = with_tokens(&body, &mut tokens);
        assert_eq!(tokens.len(), 1);
        let text = serde_json::to_string_pretty(&shown).unwrap();
        assert!(text.len() < 400, "{text}");
        let back: Value = serde_json::from_str(&expand_tokens(&text, &tokens)).unwrap();
        assert_eq!(back, body);
        // An edited placeholder is text like any other.
        let edited = text.replace("media 1", "media 9");
        let back: Value = serde_json::from_str(&expand_tokens(&edited, &tokens)).unwrap();
        assert!(back["input"][0]["source"]["data"].as_str().unwrap().starts_with("⟪media 9"));
    }

    #[test]
    fn light_snapshots_hold_sizes() {
        let data = "A".repeat(TOKEN_OVER + 1);
        let shown = light(&json!({"source": {"data": data}, "text": {"data": "short"}}));
        assert!(is_large(&shown["source"]["data"]));
        assert_eq!(shown["source"]["data"]["$large"], json!(TOKEN_OVER + 1));
        assert_eq!(shown["text"]["data"], json!("short"));
    }
}
