//! Examples taken from the conformance fixtures at build time (build.rs).

use serde_json::Value;

const EXAMPLES: &str = include_str!(concat!(env!("OUT_DIR"), "/examples.json"));

#[derive(Debug, Clone)]
pub(crate) struct Example {
    pub(crate) label: String,
    pub(crate) request: Value,
}

pub(crate) fn all() -> Vec<Example> {
    let parsed: Vec<Value> = serde_json::from_str(EXAMPLES).unwrap_or_default();
    parsed
        .into_iter()
        .map(|e| Example {
            label: e["label"].as_str().unwrap_or_default().to_string(),
            request: expand(e["request"].clone()),
        })
        .collect()
}

/// Expands the fixtures' `{{base64 KIND N}}` strings (tests/README.md): N bytes, the signature
/// of KIND followed by zeros, in standard base64.
fn expand(value: Value) -> Value {
    match value {
        Value::String(s) => Value::String(generated(&s).unwrap_or(s)),
        Value::Array(items) => Value::Array(items.into_iter().map(expand).collect()),
        Value::Object(map) => Value::Object(map.into_iter().map(|(k, v)| (k, expand(v))).collect()),
        other => other,
    }
}

fn generated(s: &str) -> Option<String> {
    let inner = s.strip_prefix("{{base64 ")?.strip_suffix("}}")?;
    let (kind, n) = inner.split_once(' ')?;
    let n: usize = n.trim().parse().ok()?;
    let signature: &[u8] = match kind {
        "png" => b"\x89PNG\r\n\x1a\n",
        "jpeg" => b"\xff\xd8\xff\xe0",
        "gif" => b"GIF89a",
        "webp" => b"RIFF\0\0\0\0WEBP",
        "pdf" => b"%PDF-1.7\n",
        "mp4" => b"\0\0\0\0ftypisom",
        "zero" => b"",
        _ => return None,
    };
    let mut bytes = vec![0u8; n.max(signature.len())];
    bytes[..signature.len()].copy_from_slice(signature);
    Some(agent_input::base64::encode(&bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_example_loads_and_payloads_expand() {
        let all = super::all();
        assert_eq!(all.len(), 10);
        assert!(all.iter().all(|e| e.request.is_object()));
        assert_eq!(super::generated("{{base64 png 9}}").as_deref(), Some("iVBORw0KGgoA"));
    }
}
