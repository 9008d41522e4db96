//! contract §3 Content blocks: a block's `type` (case-insensitive), a text block's text, and a media
//! block's shape — `source` (read in `source`), a document's `name`, and the misplaced media key
//! (`{"type": "image", "image": {...}}`) answered with the corrected block (`use_source_field`).

use std::borrow::Cow;

use crate::json::{Json, Object, type_name};
use crate::model::{self, ContentBlock, Media, java_trim};
use crate::path::Loc;

use super::diagnostics::{self, Subject};
use super::media_format::{AnyFormat, MediaKind};
use super::validator::{Validator, fields};

/// The content block types.
const CONTENT_TYPES: [&str; 4] = ["text", "image", "video", "document"];

/// A provider's own item, carried opaquely (contract §3.2, Provider items).
const PROVIDER_ITEM: &str = "provider_item";

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
        // Case-insensitive without a lowercase copy: this runs once a block.
        let kind = CONTENT_TYPES.into_iter().find(|known| raw_type.eq_ignore_ascii_case(known));
        match kind.unwrap_or_default() {
            "text" => {
                self.ignore_unknown_keys(object, loc, &["type", "text"], Subject::TextBlock);
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
            _ if raw_type.eq_ignore_ascii_case(PROVIDER_ITEM) => self.provider_item(object, loc),
            _ => {
                self.push(diagnostics::unsupported_content_type(type_loc.to_path(), raw_type, &CONTENT_TYPES));
                None
            }
        }
    }

    /// `{"type": "provider_item", "provider", "item"}`: a provider of the library and an object,
    /// kept as given. The input's size and depth limits hold it like any other JSON.
    fn provider_item<'a>(&mut self, object: &'a Object<'_>, loc: Loc<'_>) -> Option<ContentBlock<'a>> {
        self.ignore_unknown_keys(object, loc, &["type", "provider", "item"], Subject::ProviderItem);
        let provider = self.record(fields(object, loc, "the provider_item block").str("provider"));
        let item = match object.get("item") {
            Some(Json::Object(_)) => object.get("item"),
            Some(other) => {
                self.wrong_type(loc.key("item"), "'item'", "object", other);
                None
            }
            None => {
                self.record(fields(object, loc, "the provider_item block").value("item"));
                None
            }
        };
        let provider = match provider.map(|p| (p, crate::ProviderId::parse(p))) {
            Some((_, Some(provider))) => provider,
            Some((raw, None)) => {
                self.push(diagnostics::unknown_provider(loc.key("provider").to_path(), raw, "the item came from"));
                return None;
            }
            None => return None,
        };
        let item = model::ProviderItem { provider, item: item?.to_value() };
        if self.options.ml_commons {
            self.push(diagnostics::provider_item_for_ml_commons(loc.key("type").to_path(), item.kind()));
            return None;
        }
        Some(ContentBlock::ProviderItem(item))
    }

    fn media<'a>(&mut self, object: &'a Object<'_>, loc: Loc<'_>, kind: MediaKind) -> Option<ContentBlock<'a>> {
        let (block_type, known): (&'static str, &[&str]) = match kind {
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
                    let at = loc.key(key).to_path();
                    self.push(diagnostics::use_source_field(at, key, block_type, object.get(key)));
                } else {
                    self.push(diagnostics::missing_source(source_loc.to_path(), block_type));
                }
                None
            }
        };
        // The misused key is already an error when it stands in for `source`.
        let what = Subject::MediaBlock(block_type);
        self.ignore_keys_except(object, loc, known, what, if source.is_none() { misused_key } else { None });
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
