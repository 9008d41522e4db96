//! The JSON editor's placeholders for media: payloads over 4 KB are shown as
//! `⟪media N: … kept by the playground⟫` and put back when the text is read, so the textarea never
//! holds megabytes of base64. Also the forms' light snapshot, which shows payloads as sizes.

use serde_json::{Value, json};

use super::media::preview_key;

/// Payloads longer than this are shown in the JSON editor as placeholders.
pub(crate) const TOKEN_OVER: usize = 4096;

/// A media payload the JSON editor shows as a placeholder: the placeholder (as shown, and as a
/// JSON string literal), the payload itself, whether it passed the base64 check when the editor
/// was filled (so the keystrokes after need not check it again), and its stand-in for the schema
/// check (a JSON string literal).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Token {
    text: String,
    placeholder: String,
    /// The payload; moved into the analysed tree and back while the analysis runs.
    pub(crate) data: String,
    /// The payload's length as a JSON string literal.
    quoted_len: usize,
    pub(crate) valid: bool,
    stand_in: String,
}

impl Token {
    /// Whether a string of the editor's JSON is this token's placeholder.
    pub(crate) fn is_placeholder(&self, s: &str) -> bool {
        s == self.text
    }

    /// How much longer `text` is with this token's payload in place of its placeholder.
    pub(crate) fn extra_len(&self, text: &str) -> usize {
        text.matches(self.placeholder.as_str()).count() * self.quoted_len.saturating_sub(self.placeholder.len())
    }
}

/// A copy of the body for the JSON editor: every long `data` string replaced by a placeholder
/// (recorded in `tokens`), so the editor never holds megabytes of base64.
pub(crate) fn with_tokens(value: &Value, tokens: &mut Vec<Token>) -> Value {
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
                        let quote = |s: &str| serde_json::to_string(s).unwrap_or_default();
                        tokens.push(Token {
                            placeholder: quote(&token),
                            text: token.clone(),
                            quoted_len: quote(s).len(),
                            valid: agent_input::base64::check(s).is_ok(),
                            data: s.clone(),
                            stand_in: quote(&stand_in(s)),
                        });
                        (k.clone(), Value::String(token))
                    }
                    _ => (k.clone(), with_tokens(v, tokens)),
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The editor's text with each placeholder (as a whole JSON string) replaced by its payload, or
/// with `for_schema`, by its stand-in.
pub(crate) fn expand_tokens(text: &str, tokens: &[Token], for_schema: bool) -> String {
    let mut text = text.to_string();
    for token in tokens {
        if text.contains(token.placeholder.as_str()) {
            let payload;
            let with = if for_schema {
                &token.stand_in
            } else {
                payload = serde_json::to_string(&token.data).unwrap_or_default();
                &payload
            };
            text = text.replace(token.placeholder.as_str(), with);
        }
    }
    text
}

/// What the schema check gets for a media payload: its first 64 base64 characters, a whole
/// base64 string with the payload's signature, so the check (which reads the parameters and
/// the prompt, never the media) is not handed megabytes a keystroke.
pub(crate) fn stand_in(data: &str) -> String {
    let mut head: String = data.chars().filter(|c| !c.is_ascii_whitespace()).take(64).collect();
    if head.contains('=') || !head.len().is_multiple_of(4) {
        head.clear();
    }
    head
}

/// The body for the schema check: every long `data` string replaced by its [`stand_in`].
pub(crate) fn for_schema(value: &Value) -> Value {
    match value {
        Value::Array(items) => Value::Array(items.iter().map(for_schema).collect()),
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| match v {
                    Value::String(s) if k == "data" && s.len() > TOKEN_OVER => (k.clone(), Value::String(stand_in(s))),
                    _ => (k.clone(), for_schema(v)),
                })
                .collect(),
        ),
        other => other.clone(),
    }
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
        let back: Value = serde_json::from_str(&expand_tokens(&text, &tokens, false)).unwrap();
        assert_eq!(back, body);
        let light: Value = serde_json::from_str(&expand_tokens(&text, &tokens, true)).unwrap();
        assert_eq!(light, for_schema(&body));
        assert_eq!(light["input"][0]["source"]["data"], json!("A".repeat(64)));
        assert_eq!(light["input"][1], body["input"][1]);
        // An edited placeholder is text like any other.
        let edited = text.replace("media 1", "media 9");
        let back: Value = serde_json::from_str(&expand_tokens(&edited, &tokens, false)).unwrap();
        assert!(back["input"][0]["source"]["data"].as_str().unwrap().starts_with("⟪media 9"));
    }

    #[test]
    fn stand_ins_are_whole_base64() {
        assert_eq!(stand_in(&format!("iVBO\nRw0K{}", "A".repeat(5000))).len(), 64);
        assert!(stand_in(&format!("iVBO\nRw0K{}", "A".repeat(5000))).starts_with("iVBORw0K"));
        assert_eq!(stand_in("QUJD=="), "");
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
