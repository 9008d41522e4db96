//! Share links: the request and the conversion settings in the URL's fragment, base64url JSON.
//! Never the backend settings (so never a secret), and large media left out with a note.

use serde_json::{Value, json};

use super::settings::Settings;

/// Base64 payloads longer than this are left out of links.
pub(crate) const MAX_SHARED_MEDIA: usize = 16 * 1024;

/// The fragment for a body and settings, and how many payloads (and base64 characters) were left out.
pub(crate) fn encode(body: &Value, settings: &Settings) -> (String, usize, usize) {
    let mut body = body.clone();
    let (mut count, mut chars) = (0, 0);
    strip_media(&mut body, &mut count, &mut chars);
    let (options, _) = settings.options_json();
    let mut shared = json!({"v": 1, "request": body, "options": options, "provider": settings.provider.as_str()});
    if count > 0 {
        shared["omitted"] = json!(count);
    }
    if settings.allow_prefill {
        shared["allow_prefill"] = Value::Bool(true);
    }
    if !settings.schema.is_empty() {
        shared["schema"] = Value::String(settings.schema.clone());
        shared["schema_on"] = Value::Bool(settings.schema_on);
    }
    let text = serde_json::to_string(&shared).unwrap_or_default();
    let encoded = agent_input::base64::encode(text.as_bytes()).replace('+', "-").replace('/', "_");
    (format!("#share={}", encoded.trim_end_matches('=')), count, chars)
}

fn strip_media(value: &mut Value, count: &mut usize, chars: &mut usize) {
    match value {
        Value::Object(map) => {
            let is_base64 = map.get("type").and_then(Value::as_str).is_some_and(|t| t.eq_ignore_ascii_case("base64"));
            if is_base64
                && let Some(Value::String(data)) = map.get_mut("data")
                && data.len() > MAX_SHARED_MEDIA
            {
                *count += 1;
                *chars += data.len();
                data.clear();
            }
            map.values_mut().for_each(|v| strip_media(v, count, chars));
        }
        Value::Array(items) => items.iter_mut().for_each(|v| strip_media(v, count, chars)),
        _ => {}
    }
}

/// Reads a fragment back: the request, the settings, and how many payloads were left out.
pub(crate) fn decode(fragment: &str) -> Option<(Value, Settings, usize)> {
    let encoded = fragment.strip_prefix('#').unwrap_or(fragment).strip_prefix("share=")?;
    let standard = encoded.replace('-', "+").replace('_', "/");
    let padded = format!("{standard}{}", "=".repeat((4 - standard.len() % 4) % 4));
    agent_input::base64::check(&padded).ok()?;
    let bytes = agent_input::base64::decode_head(&padded, padded.len());
    let shared: Value = serde_json::from_slice(&bytes).ok()?;
    let request = shared.get("request")?.clone();
    let options = shared.get("options").cloned().unwrap_or(Value::Null);
    let text = |key: &str| match options.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    };
    let pretty =
        |value: Option<&Value>| value.map(|v| serde_json::to_string_pretty(v).unwrap_or_default()).unwrap_or_default();
    let mut settings = Settings {
        provider: shared
            .get("provider")
            .and_then(Value::as_str)
            .and_then(agent_input::ProviderId::parse)
            .unwrap_or(agent_input::ProviderId::ALL[0]),
        system: text("system"),
        max_tokens: text("max_tokens"),
        temperature: text("temperature"),
        top_p: text("top_p"),
        stop_sequences: options
            .get("stop_sequences")
            .and_then(Value::as_array)
            .map(|items| items.iter().filter_map(Value::as_str).collect::<Vec<_>>().join("\n"))
            .unwrap_or_default(),
        tools: pretty(options.get("tools")),
        provider_fields: pretty(options.get("provider_fields")),
        allow_prefill: shared.get("allow_prefill").and_then(Value::as_bool).unwrap_or(false),
        schema: shared.get("schema").and_then(Value::as_str).unwrap_or_default().to_string(),
        schema_on: shared.get("schema_on").and_then(Value::as_bool).unwrap_or(false),
        ..Settings::default()
    };
    settings.read_features(&options);
    let omitted = shared.get("omitted").and_then(Value::as_u64).map_or(0, |n| usize::try_from(n).unwrap_or(0));
    Some((request, settings, omitted))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_without_large_media() {
        let big = "A".repeat(MAX_SHARED_MEDIA + 4);
        let body = json!({"input": [{"type": "text", "text": "Hi ünïcode?&#"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": big}},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": "iVBORw0KGgo="}}]});
        let settings = Settings {
            system: "Be brief.".into(),
            max_tokens: "100".into(),
            stop_sequences: "END\nSTOP".into(),
            schema: "{\"properties\": {\"topic\": {\"type\": \"string\"}}}".into(),
            schema_on: true,
            ..Settings::default()
        };
        let (fragment, count, chars) = encode(&body, &settings);
        assert_eq!((count, chars), (1, MAX_SHARED_MEDIA + 4));
        let payload = fragment.strip_prefix("#share=").unwrap();
        assert!(!payload.contains('+') && !payload.contains('/') && !payload.contains('='));
        let (request, read, omitted) = decode(&fragment).unwrap();
        assert_eq!(omitted, 1);
        assert_eq!(request["input"][0]["text"], "Hi ünïcode?&#");
        assert_eq!(request["input"][1]["source"]["data"], "");
        assert_eq!(request["input"][2]["source"]["data"], "iVBORw0KGgo=");
        assert_eq!(read, settings);
        assert!(decode("#share=!!").is_none());
        assert!(decode("#other").is_none());
    }
}
