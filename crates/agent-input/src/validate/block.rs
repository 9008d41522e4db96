//! SPEC §3 Content blocks: a block's `type` (case-insensitive), a text block's text, and a media
//! block's shape — `source` (read in `source`), a document's `name`, and the misplaced media key
//! (`{"type": "image", "image": {...}}`) answered with the corrected block (`use_source_field`).

use std::borrow::Cow;

use serde_json::{Map, Value};

use crate::json::{Json, Object, type_name};
use crate::model::{self, ContentBlock, Media, java_trim};
use crate::path::Loc;
use crate::text::a_or_an;

use super::diagnostics;
use super::media_format::{AnyFormat, MediaKind};
use super::validator::{Validator, fields};

/// The content block types.
const CONTENT_TYPES: [&str; 4] = ["text", "image", "video", "document"];

impl Validator<'_> {
    /// The blocks of a content-blocks input.
    pub(super) fn blocks<'a>(&mut self, items: &'a [Json<'_>], loc: Loc<'_>) -> Option<Vec<ContentBlock<'a>>> {
        let mut blocks = Vec::with_capacity(items.len());
        let mut all = true;
        for (i, item) in items.iter().enumerate() {
            match self.block(item, loc.index(i)) {
                Some(block) => blocks.push(block),
                None => all = false,
            }
        }
        all.then_some(blocks)
    }

    /// An item of a message's `content`, which holds blocks only.
    pub(super) fn nested_block<'a>(&mut self, item: &'a Json<'_>, loc: Loc<'_>) -> Option<ContentBlock<'a>> {
        match item {
            Json::Object(object) if object.contains_key("role") => {
                self.push(diagnostics::message_in_content(loc.to_path()));
                None
            }
            Json::Object(object) if !object.contains_key("type") => {
                self.push(diagnostics::block_missing_type(loc.key("type").to_path()));
                None
            }
            Json::Object(_) => self.block(item, loc),
            other => {
                self.push(diagnostics::content_item_not_object(loc.to_path(), type_name(other)));
                None
            }
        }
    }

    fn block<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<ContentBlock<'a>> {
        let object = value.as_object()?;
        let type_loc = loc.key("type");
        let raw_type = self.record(fields(object, loc, "the content block").str("type"))?;
        let kind = raw_type.to_ascii_lowercase();
        match kind.as_str() {
            "text" => {
                self.ignore_unknown_keys(object, loc, &["type", "text"], "a text block");
                let text = self.record(fields(object, loc, "the text block").str("text"))?;
                if java_trim(text).is_empty() {
                    self.push(diagnostics::empty_text(loc.key("text").to_path()));
                    return None;
                }
                Some(ContentBlock::Text(Cow::Borrowed(text)))
            }
            "image" => self.media(object, loc, MediaKind::Image),
            "video" => self.media(object, loc, MediaKind::Video),
            "document" => self.media(object, loc, MediaKind::Document),
            _ => {
                self.push(diagnostics::unsupported_content_type(type_loc.to_path(), raw_type, &CONTENT_TYPES));
                None
            }
        }
    }

    fn media<'a>(&mut self, object: &'a Object<'_>, loc: Loc<'_>, kind: MediaKind) -> Option<ContentBlock<'a>> {
        let (block_type, known): (&str, &[&str]) = match kind {
            MediaKind::Image => ("image", &["type", "source"]),
            MediaKind::Video => ("video", &["type", "source"]),
            MediaKind::Document => ("document", &["type", "source", "name"]),
        };
        let source_loc = loc.key("source");
        let misused_key =
            ["image", "video", "document"].into_iter().find(|key| object.contains_key(key) && !known.contains(key));
        let source = match object.get("source") {
            Some(Json::Object(source)) => Some(source),
            Some(other) => {
                self.wrong_type(source_loc, "'source'", "object", other);
                None
            }
            None => {
                if let Some(key) = misused_key {
                    let example = object.get(key).map_or_else(String::new, corrected_source);
                    self.push(diagnostics::use_source_field(loc.key(key).to_path(), key, block_type, &example));
                } else {
                    self.push(diagnostics::missing_source(source_loc.to_path(), block_type));
                }
                None
            }
        };
        // The misused key is already an error when it stands in for `source`.
        let what = format!("{} {block_type} block", a_or_an(block_type));
        self.ignore_keys_except(object, loc, known, &what, if source.is_none() { misused_key } else { None });
        let mut name_ok = true;
        let mut name = None;
        if matches!(kind, MediaKind::Document) {
            match self.record(fields(object, loc, "the document block").optional_str("name")) {
                Some(given) => name = given.map(Cow::Borrowed),
                None => name_ok = false,
            }
        }
        let (format, source) = self.source(source?, source_loc, kind)?;
        if !name_ok {
            return None;
        }
        Some(match format {
            AnyFormat::Image(format) => ContentBlock::Image(Media { format, source }),
            AnyFormat::Video(format) => ContentBlock::Video(Media { format, source }),
            AnyFormat::Document(format) => ContentBlock::Document(model::Document { name, format, source }),
        })
    }
}

/// The misplaced media object rewritten as a `source`, for the corrected block a message shows:
/// long strings shortened, a source `type` added when missing, and Bedrock's own shape
/// (`{"format", "source": {"bytes" | "s3Location"}}`) translated.
fn corrected_source(value: &Json<'_>) -> String {
    fn shorten(value: &Value) -> Value {
        match value {
            Value::String(s) if s.chars().count() > 24 => {
                Value::String(format!("{}…", s.chars().take(24).collect::<String>()))
            }
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), shorten(v))).collect()),
            Value::Array(items) => Value::Array(items.iter().map(shorten).collect()),
            other => other.clone(),
        }
    }
    let Value::Object(given) = shorten(&value.to_value()) else {
        return "{\"type\": \"base64\", \"format\": ..., \"data\": ...}".to_string();
    };
    let mut source = Map::new();
    let bedrock = given.get("source").and_then(Value::as_object);
    let bytes = bedrock.and_then(|s| s.get("bytes")).cloned();
    let s3 = bedrock.and_then(|s| s.get("s3Location")).and_then(|l| l.get("uri")).cloned();
    let data = given.get("data").cloned();
    let (kind, data) = match (bytes, s3, data) {
        (Some(bytes), _, _) => ("base64", Some(bytes)),
        (None, Some(uri), _) => ("url", Some(uri)),
        (None, None, Some(data)) => {
            let is_url = data.as_str().is_some_and(|d| d.contains("://"));
            (if is_url { "url" } else { "base64" }, Some(data))
        }
        (None, None, None) => ("base64", None),
    };
    let kind = given.get("type").cloned().unwrap_or_else(|| Value::String(kind.into()));
    source.insert("type".into(), kind);
    source.insert("format".into(), given.get("format").cloned().unwrap_or_else(|| Value::String("...".into())));
    source.insert("data".into(), data.unwrap_or_else(|| Value::String("...".into())));
    let text = Value::Object(source).to_string();
    if text.len() > 300 { "{...}".to_string() } else { text }
}
