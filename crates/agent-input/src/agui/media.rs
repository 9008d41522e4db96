//! Media parts: ml-commons' `binary` part and AG-UI 1.0's `image` / `video` / `document` parts,
//! read into standard media blocks (the kind and format told by the MIME type).

use serde_json::{Map, Value, json};

use super::origin::BlockOrigin;
use super::reader::{Reader, audio, wrong};
use crate::diagnostic::{Code, Diagnostic};
use crate::format::{DocumentFormat, ImageFormat, VideoFormat};
use crate::path::Path;

impl Reader {
    /// ml-commons' `{"type": "binary", "mimeType", "data"}` (or `url`); the kind is the MIME type's.
    pub(super) fn binary(&mut self, object: &Map<String, Value>, at: &Path) -> Option<(Value, BlockOrigin)> {
        let mime_path = at.key("mimeType");
        let Some(mime) = self.string(object, at, "mimeType") else {
            if !object.contains_key("mimeType") {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    mime_path,
                    "a binary part needs a `mimeType`, which tells what it is",
                ));
            }
            return None;
        };
        let top = mime.split('/').next().unwrap_or_default().trim().to_ascii_lowercase();
        let kind = match top.as_str() {
            "image" => Kind::Image,
            "video" => Kind::Video,
            "text" | "application" => Kind::Document,
            "audio" => {
                self.report.push(audio(mime_path));
                return None;
            }
            _ => {
                self.report.push(
                    Diagnostic::new(
                        Code::UnsupportedFormat,
                        mime_path,
                        "a binary part's MIME type must be image/*, video/*, text/* or application/*",
                    )
                    .expected(["image/*", "video/*", "text/*", "application/*"])
                    .received(mime),
                );
                return None;
            }
        };
        let (source_type, data, data_path) = if let Some(data) = self.string(object, at, "data") {
            ("base64", data, at.key("data"))
        } else if let Some(url) = self.string(object, at, "url") {
            ("url", url, at.key("url"))
        } else if object.contains_key("id") && !object.contains_key("data") && !object.contains_key("url") {
            // AG-UI 0.x let `id` name bytes uploaded elsewhere; nothing here can fetch them.
            self.report.push(
                Diagnostic::new(
                    Code::UnsupportedSourceType,
                    at.key("id"),
                    "a binary part's `id` names bytes stored elsewhere; send them as base64 `data` or a `url`",
                )
                .expected(["data", "url"])
                .received("id"),
            );
            return None;
        } else {
            if !object.contains_key("data") && !object.contains_key("url") {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    at.key("data"),
                    "a binary part needs base64 `data` (or a `url`)",
                ));
            }
            return None;
        };
        let format = self.format(kind, &mime, &mime_path)?;
        let origin = BlockOrigin { part: at.clone(), data: data_path, mime_type: mime_path };
        Some((kind.block(source_type, &format, &data), origin))
    }

    /// An AG-UI 1.0 `image` / `video` / `document` part with a `source`.
    pub(super) fn media(&mut self, object: &Map<String, Value>, at: &Path, kind: Kind) -> Option<(Value, BlockOrigin)> {
        let source_path = at.key("source");
        let source = match object.get("source") {
            Some(Value::Object(source)) => source,
            None => {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    source_path,
                    "a media part needs a `source` ({\"type\": \"data\" | \"url\", \"value\", \"mimeType\"})",
                ));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&source_path, "source", "object", other));
                return None;
            }
        };
        let source_type = match source.get("type") {
            Some(Value::String(kind)) => kind.as_str(),
            None => {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    source_path.key("type"),
                    "a source needs a `type`",
                ));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&source_path.key("type"), "type", "string", other));
                return None;
            }
        };
        let standard_type = match source_type {
            "data" => "base64",
            "url" => "url",
            _ => {
                let message = if source_type == "file" {
                    "a `file` source names bytes already at one provider; send them as `data` or a `url`"
                } else {
                    "an AG-UI source's type is data or url"
                };
                self.report.push(
                    Diagnostic::new(Code::UnsupportedSourceType, source_path.key("type"), message)
                        .expected(["data", "url"])
                        .received(source_type),
                );
                return None;
            }
        };
        // 1.0 names the bytes `value`; early drafts and some clients write `data`.
        let data_key = if source.contains_key("value") || !source.contains_key("data") { "value" } else { "data" };
        let data_path = source_path.key(data_key);
        let data = match source.get(data_key) {
            Some(Value::String(data)) => data.clone(),
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, data_path, "a source needs a `value`"));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&data_path, data_key, "string", other));
                return None;
            }
        };
        let mime_path = source_path.key("mimeType");
        let mime = match source.get("mimeType") {
            Some(Value::String(mime)) => Some(mime.as_str()),
            None | Some(Value::Null) => None,
            Some(other) => {
                self.report.push(wrong(&mime_path, "mimeType", "string", other));
                return None;
            }
        };
        let format = if let Some(mime) = mime {
            self.format(kind, mime, &mime_path)?
        } else {
            // A URL without a MIME type: its extension is the only hint of the format.
            let extension = (standard_type == "url")
                .then(|| data.split(['?', '#']).next().and_then(|p| p.rsplit_once('.')).map(|(_, e)| e))
                .flatten();
            let Some(format) = extension.and_then(|e| kind.format_of_extension(e)) else {
                self.report.push(Diagnostic::new(
                    Code::MissingField,
                    mime_path,
                    "a media source needs a `mimeType` to tell its format",
                ));
                return None;
            };
            format
        };
        let origin = BlockOrigin { part: at.clone(), data: data_path, mime_type: mime_path };
        Some((kind.block(standard_type, &format, &data), origin))
    }

    /// The standard format of a MIME type for a block kind.
    fn format(&mut self, kind: Kind, mime: &str, at: &Path) -> Option<String> {
        let essence = mime.split(';').next().unwrap_or_default();
        let formats = crate::format::formats_for_mime(essence);
        let allowed = kind.formats();
        if let Some(format) = formats.iter().find(|f| allowed.contains(f)) {
            return Some((*format).to_string());
        }
        if essence.trim().to_ascii_lowercase().starts_with("audio/") {
            self.report.push(audio(at.clone()));
            return None;
        }
        self.report.push(
            Diagnostic::new(
                Code::UnsupportedFormat,
                at.clone(),
                format!("{} is not a MIME type a {} block takes", mime.trim(), kind.name()),
            )
            .expected(kind.mime_types())
            .received(mime),
        );
        None
    }
}

/// The kind of a media block.
#[derive(Debug, Clone, Copy)]
pub(super) enum Kind {
    Image,
    Video,
    Document,
}

impl Kind {
    /// The kind of an `image`, `video` or `document` part.
    pub(super) fn parse(name: &str) -> Self {
        match name {
            "image" => Self::Image,
            "video" => Self::Video,
            _ => Self::Document,
        }
    }

    const fn name(self) -> &'static str {
        match self {
            Self::Image => "image",
            Self::Video => "video",
            Self::Document => "document",
        }
    }

    fn formats(self) -> Vec<&'static str> {
        match self {
            Self::Image => ImageFormat::ALL.iter().map(|f| f.as_str()).collect(),
            Self::Video => VideoFormat::ALL.iter().map(|f| f.as_str()).collect(),
            Self::Document => DocumentFormat::ALL.iter().map(|f| f.as_str()).collect(),
        }
    }

    fn mime_types(self) -> Vec<&'static str> {
        let mut types: Vec<&'static str> = match self {
            Self::Image => ImageFormat::ALL.iter().map(|f| f.mime_type()).collect(),
            Self::Video => VideoFormat::ALL.iter().map(|f| f.mime_type()).collect(),
            Self::Document => DocumentFormat::ALL.iter().map(|f| f.mime_type()).collect(),
        };
        types.dedup();
        types
    }

    fn format_of_extension(self, extension: &str) -> Option<String> {
        use crate::format::Parsed;
        fn name<F>(parsed: Option<Parsed<F>>, as_str: fn(F) -> &'static str) -> Option<String> {
            match parsed? {
                Parsed::Exact(format) | Parsed::Normalized(format) => Some(as_str(format).to_string()),
            }
        }
        match self {
            Self::Image => name(ImageFormat::parse(extension), ImageFormat::as_str),
            Self::Video => name(VideoFormat::parse(extension), VideoFormat::as_str),
            Self::Document => name(DocumentFormat::parse(extension), DocumentFormat::as_str),
        }
    }

    fn block(self, source_type: &str, format: &str, data: &str) -> Value {
        json!({"type": self.name(), "source": {"type": source_type, "format": format, "data": data}})
    }
}
