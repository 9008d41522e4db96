//! Media payloads stored once: a message is stored with each large base64 payload replaced by a
//! reference to it (`sha256:` and the hex SHA-256 of the base64 text), and the payload is stored
//! under that hash, once however many messages and memories carry it. Reading a message back puts
//! each payload where its reference is, so the message is the one that was written.
//!
//! The hash is of the base64 text as the core normalized it (no `data:` prefix, no line breaks),
//! not of the decoded bytes: the text is what comes back, byte for byte, with no decoding on the
//! way in nor encoding on the way out.

use std::fmt::Write as _;

use agent_input::{ContentBlock, Message, Source};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// Base64 payloads of at least this many characters are stored by hash; shorter ones stay in
/// their message.
pub const OUT_OF_LINE: usize = 1024;

/// What a reference begins with, in place of a payload's `data`. `:` is not in the base64
/// alphabet, so no payload looks like a reference.
pub const REFERENCE: &str = "sha256:";

/// A payload stored by its hash.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Payload {
    /// Hex SHA-256 of `data`.
    pub hash: String,
    /// The base64 text.
    pub data: String,
}

/// A message as it is stored: its JSON with references, and the payloads they name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    /// The message's role.
    pub role: String,
    /// The message in the standard format, each large payload a reference.
    pub json: String,
    /// Bytes of the message as it is read back (each reference counted with its payload): what
    /// the memory caps count.
    pub bytes: usize,
    /// The payloads its references name, each once.
    pub payloads: Vec<Payload>,
}

/// Hex SHA-256 of `data`.
pub fn hash(data: &str) -> String {
    let digest = Sha256::digest(data.as_bytes());
    let mut hex = String::with_capacity(64);
    for byte in digest {
        let _ = write!(hex, "{byte:02x}");
    }
    hex
}

fn source_mut<'m, 'a>(block: &'m mut ContentBlock<'a>) -> Option<&'m mut Source<'a>> {
    match block {
        ContentBlock::Image(media) => Some(&mut media.source),
        ContentBlock::Video(media) => Some(&mut media.source),
        ContentBlock::Document(document) => Some(&mut document.source),
        ContentBlock::Text(_) | ContentBlock::ProviderItem(_) => None,
    }
}

fn large<'s>(source: &'s Source<'_>) -> Option<&'s str> {
    match source {
        Source::Base64(data) if data.len() >= OUT_OF_LINE => Some(data),
        _ => None,
    }
}

/// The stored form of `message`.
///
/// # Errors
/// The message cannot be serialized.
pub fn stored(message: &Message<'_>) -> Result<NewMessage, serde_json::Error> {
    let role = message.role.as_str().to_string();
    let mut references = Vec::new();
    let mut payloads: Vec<Payload> = Vec::new();
    let mut inline = 0;
    for block in &message.content {
        let source = match block {
            ContentBlock::Image(media) => &media.source,
            ContentBlock::Video(media) => &media.source,
            ContentBlock::Document(document) => &document.source,
            ContentBlock::Text(_) | ContentBlock::ProviderItem(_) => continue,
        };
        let Some(data) = large(source) else { continue };
        let hash = hash(data);
        references.push(format!("{REFERENCE}{hash}"));
        inline += data.len();
        if !payloads.iter().any(|p| p.hash == hash) {
            payloads.push(Payload { hash, data: data.to_string() });
        }
    }
    if references.is_empty() {
        let json = serde_json::to_string(message)?;
        return Ok(NewMessage { role, bytes: json.len(), json, payloads });
    }
    // A copy with each large payload replaced by its reference (the input borrows its payloads
    // from the request, so the copy does not copy them).
    let mut copy = message.clone();
    let mut next = references.iter();
    for block in &mut copy.content {
        if let Some(source) = source_mut(block)
            && large(source).is_some()
            && let Some(reference) = next.next()
        {
            *source = Source::Base64(reference.as_str().into());
        }
    }
    let json = serde_json::to_string(&copy)?;
    let bytes = json.len() + inline - references.iter().map(String::len).sum::<usize>();
    Ok(NewMessage { role, json, bytes, payloads })
}

/// The hash a `data` value refers to, if it is a reference.
fn reference(data: &str) -> Option<&str> {
    data.strip_prefix(REFERENCE).filter(|hash| hash.len() == 64 && hash.bytes().all(|b| b.is_ascii_hexdigit()))
}

/// Each media source of a stored message (`content[*].source` with type `base64`), mutably.
fn sources(message: &mut Value) -> impl Iterator<Item = &mut serde_json::Map<String, Value>> {
    message
        .get_mut("content")
        .and_then(Value::as_array_mut)
        .into_iter()
        .flatten()
        .filter_map(|block| block.get_mut("source").and_then(Value::as_object_mut))
        .filter(|source| source.get("type").and_then(Value::as_str) == Some("base64"))
}

/// The hashes a stored message refers to, each once.
pub fn references(message: &Value) -> Vec<String> {
    let mut hashes: Vec<String> = Vec::new();
    let blocks = message.get("content").and_then(Value::as_array).into_iter().flatten();
    for source in blocks.filter_map(|block| block.get("source")) {
        if source.get("type").and_then(Value::as_str) != Some("base64") {
            continue;
        }
        if let Some(hash) = source.get("data").and_then(Value::as_str).and_then(reference)
            && !hashes.iter().any(|h| h == hash)
        {
            hashes.push(hash.to_string());
        }
    }
    hashes
}

/// Whether stored JSON text may hold a reference (cheap: no parsing).
pub fn may_refer(json: &str) -> bool {
    json.contains(REFERENCE)
}

/// Puts each payload back where its reference is; `payload(hash)` gives the base64 text.
///
/// # Errors
/// A reference whose payload `payload` does not have.
pub fn restore(message: &mut Value, mut payload: impl FnMut(&str) -> Option<String>) -> Result<(), String> {
    for source in sources(message) {
        let Some(hash) = source.get("data").and_then(Value::as_str).and_then(reference).map(str::to_string) else {
            continue;
        };
        let data = payload(&hash).ok_or_else(|| format!("the stored payload {hash} is missing"))?;
        source.insert("data".into(), Value::String(data));
    }
    Ok(())
}

/// Moves the large payloads of a message stored whole (by an earlier version) out of it: the
/// message with references, and the payloads.
pub fn extract(message: &mut Value) -> Vec<Payload> {
    let mut payloads: Vec<Payload> = Vec::new();
    for source in sources(message) {
        let Some(Value::String(data)) = source.get_mut("data") else { continue };
        if data.len() < OUT_OF_LINE {
            continue;
        }
        let hash = hash(data);
        let data = std::mem::replace(data, format!("{REFERENCE}{hash}"));
        if !payloads.iter().any(|p| p.hash == hash) {
            payloads.push(Payload { hash, data });
        }
    }
    payloads
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_input::validate;

    fn message(text: &str) -> Message<'static> {
        let document = validate::parse(text, &validate::Limits::default()).unwrap();
        let (request, _) = validate::validate_request(&document, &validate::Options::default()).into_result().unwrap();
        request.input.into_owned().into_messages().remove(0)
    }

    #[test]
    fn large_payloads_are_stored_once_by_hash_and_come_back_whole() {
        let image = "iVBORw0KGgo".repeat(200);
        let text = format!(
            r#"{{"input": [{{"role": "user", "content": [{{"type": "text", "text": "sha256:{0}"}},
            {{"type": "image", "source": {{"type": "base64", "format": "png", "data": "{image}"}}}},
            {{"type": "document", "name": "a", "source": {{"type": "base64", "format": "pdf", "data": "JVBERi0="}}}},
            {{"type": "image", "source": {{"type": "base64", "format": "png", "data": "{image}"}}}}]}}]}}"#,
            "0".repeat(64)
        );
        let message = message(&text);
        let whole = serde_json::to_string(&message).unwrap();
        let stored = stored(&message).unwrap();
        assert_eq!(stored.payloads.len(), 1, "the same image twice is one payload");
        assert_eq!(stored.payloads[0].hash, hash(&image));
        assert_eq!(stored.bytes, whole.len());
        assert!(stored.json.len() < 600, "{}", stored.json);
        assert!(stored.json.contains("JVBERi0="), "a small payload stays in its message");
        let mut value: Value = serde_json::from_str(&stored.json).unwrap();
        assert_eq!(references(&value), [hash(&image)]);
        // A text that looks like a reference is text: only sources are read.
        restore(&mut value, |h| (h == hash(&image)).then(|| image.clone())).unwrap();
        assert_eq!(value.to_string(), whole);
        let mut again: Value = serde_json::from_str(&stored.json).unwrap();
        assert!(restore(&mut again, |_| None).unwrap_err().contains("missing"));

        let mut old: Value = serde_json::from_str(&whole).unwrap();
        let moved = extract(&mut old);
        assert_eq!(moved, stored.payloads);
        assert_eq!(old.to_string(), stored.json);
    }
}
