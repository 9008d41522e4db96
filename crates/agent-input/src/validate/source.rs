//! contract §3 Sources: a media block's `source` — its `type` (base64 or url), `format` (read in
//! `media_format`) and `data`. Base64 data: a `data:` URL prefix stripped (its MIME type checked
//! against `format`), whitespace removed, the alphabet and padding checked, and the first bytes'
//! signature checked against `format`. URL data: parsed, and only https, http and s3.

use std::borrow::Cow;

use crate::base64::{self, Base64Error};
use crate::format::{self, Signature};
use crate::json::Object;
use crate::model::Source;
use crate::path::Loc;
use crate::url::{self, UrlError};

use super::diagnostics::{self, Evidence, Subject};
use super::media_format::{AnyFormat, MediaKind};
use super::validator::{Validator, fields};

/// The source types.
const SOURCE_TYPES: [&str; 2] = ["base64", "url"];

impl Validator<'_> {
    pub(super) fn source<'a>(
        &mut self,
        object: &'a Object<'_>,
        loc: Loc<'_>,
        kind: MediaKind,
    ) -> Option<(AnyFormat, Source<'a>)> {
        self.ignore_unknown_keys(object, loc, &["type", "format", "data"], Subject::Source);
        let source_type = self.record(fields(object, loc, "the source").str("type")).and_then(|raw| {
            let known = SOURCE_TYPES.into_iter().find(|known| raw.eq_ignore_ascii_case(known));
            if known.is_some() {
                known
            } else {
                self.push(diagnostics::unsupported_source_type(loc.key("type").to_path(), raw, &SOURCE_TYPES));
                None
            }
        });
        let format_loc = loc.key("format");
        let format = self
            .record(fields(object, loc, "the source").str("format"))
            .and_then(|raw| self.format(raw, format_loc, kind));
        let data = self.required_nonblank(object, "data", loc, "the source");
        let data_loc = loc.key("data");
        let source = match (source_type, data) {
            (Some("base64"), Some(data)) => self.base64(data, data_loc, format_loc, format.as_ref()),
            (Some(_), Some(data)) => self.url(data, data_loc),
            _ => None,
        };
        Some((format?, source?))
    }

    fn base64<'a>(
        &mut self,
        data: &'a str,
        loc: Loc<'_>,
        format_loc: Loc<'_>,
        format: Option<&AnyFormat>,
    ) -> Option<Source<'a>> {
        let mut text = data;
        let mut prefix_len = 0;
        let mut mime = None;
        let leading = data.len() - data.trim_start_matches([' ', '\t', '\r', '\n']).len();
        if data.as_bytes().get(leading..leading + 5).is_some_and(|p| p.eq_ignore_ascii_case(b"data:")) {
            text = &data[leading..];
            let Some(comma) = text.find(',') else {
                self.push(diagnostics::data_url_without_comma(loc.to_path()));
                return None;
            };
            let header = &text[5..comma];
            let Some(media_type) = header
                .len()
                .checked_sub(7)
                .filter(|&i| header.is_char_boundary(i) && header[i..].eq_ignore_ascii_case(";base64"))
                .map(|i| &header[..i])
            else {
                self.push(diagnostics::data_url_not_base64(loc.to_path()));
                return None;
            };
            self.push(diagnostics::data_url_prefix_stripped(loc.to_path(), header));
            // `image/png;charset=x` names the type before its parameters.
            mime = media_type.split(';').next();
            prefix_len = leading + comma + 1;
            text = &text[comma + 1..];
        }
        // One vectorized pass decides the common case (none for text the caller has seen pass
        // it); only invalid text is searched for whitespace.
        let clean = self.known_base64.is_some_and(|known| known(text)) || base64::check(text).is_ok();
        let stripped = if clean { Cow::Borrowed(text) } else { base64::strip_whitespace(text) };
        if matches!(stripped, Cow::Owned(_)) {
            self.push(diagnostics::base64_whitespace_removed(loc.to_path()));
        }
        if stripped.is_empty() {
            self.push(diagnostics::empty_base64(loc.to_path()));
            return None;
        }
        // Text that passed once is not scanned again.
        if let Err(error) = if clean { Ok(()) } else { base64::check(&stripped) } {
            let offset = match error {
                Base64Error::InvalidChar { offset, .. } | Base64Error::MisplacedPadding { offset } => offset,
                Base64Error::BadLength { len } => len.min(stripped.len()),
            };
            let offset = prefix_len + original_offset(text, offset);
            self.push(diagnostics::invalid_base64(loc.to_path(), error, offset));
            return None;
        }
        if let Some(format) = format {
            let declared = format.as_str();
            let mime_formats = mime.map(format::formats_for_mime).unwrap_or_default();
            if !mime_formats.is_empty() && !mime_formats.contains(&declared) {
                let what = Evidence::Mime(mime.unwrap_or_default());
                self.format_mismatch(format_loc, format, what, &mime_formats);
                return None;
            }
            let head = base64::decode_head(&stripped, format::SNIFF_LEN);
            if let Some(signature) = Signature::sniff(&head)
                && !signature.formats().contains(&declared)
            {
                self.format_mismatch(
                    format_loc,
                    format,
                    Evidence::Signature(signature.describe()),
                    signature.formats(),
                );
                return None;
            }
        }
        Some(Source::Base64(stripped))
    }

    fn url<'a>(&mut self, data: &'a str, loc: Loc<'_>) -> Option<Source<'a>> {
        let trimmed = data.trim();
        match url::check(trimmed) {
            Ok(_) => Some(Source::Url(url::normalize_scheme(trimmed))),
            Err(UrlError::Invalid(reason)) => {
                self.push(diagnostics::invalid_url(loc.to_path(), data, reason));
                None
            }
            Err(UrlError::Scheme(scheme)) => {
                self.push(diagnostics::unsupported_url_scheme(loc.to_path(), &scheme));
                None
            }
        }
    }
}

/// The offset in `original` of the `n`th byte once whitespace is removed.
fn original_offset(original: &str, n: usize) -> usize {
    let mut seen = 0;
    for (i, b) in original.bytes().enumerate() {
        if matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
            continue;
        }
        if seen == n {
            return i;
        }
        seen += 1;
    }
    original.len()
}
