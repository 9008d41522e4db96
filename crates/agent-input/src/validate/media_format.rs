//! contract §3, the format table: the formats each media block type takes, aliases and letter case
//! (`format_normalized`), unknown formats with a suggestion (`unsupported_format`), and data
//! whose real format contradicts the declared one (`format_mismatch`). The tables themselves are
//! in [`crate::format`].

use crate::format::{self, DocumentFormat, ImageFormat, Parsed, VideoFormat};
use crate::path::Loc;

use super::diagnostics::{self, Evidence};
use super::validator::Validator;

/// The media block types.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MediaKind {
    Image,
    Video,
    Document,
}

impl MediaKind {
    pub(super) fn name(self) -> &'static str {
        match self {
            Self::Image => ImageFormat::KIND,
            Self::Video => VideoFormat::KIND,
            Self::Document => DocumentFormat::KIND,
        }
    }

    /// The formats this block type takes.
    pub(super) fn formats(self) -> &'static [&'static str] {
        match self {
            Self::Image => ImageFormat::NAMES,
            Self::Video => VideoFormat::NAMES,
            Self::Document => DocumentFormat::NAMES,
        }
    }

    /// Reads a format of this block type, and whether it was normalized (alias or letter case).
    fn parse(self, raw: &str) -> Option<(AnyFormat, bool)> {
        fn split<F>(parsed: Parsed<F>, wrap: fn(F) -> AnyFormat) -> (AnyFormat, bool) {
            match parsed {
                Parsed::Exact(f) => (wrap(f), false),
                Parsed::Normalized(f) => (wrap(f), true),
            }
        }
        match self {
            Self::Image => ImageFormat::parse(raw).map(|p| split(p, AnyFormat::Image)),
            Self::Video => VideoFormat::parse(raw).map(|p| split(p, AnyFormat::Video)),
            Self::Document => DocumentFormat::parse(raw).map(|p| split(p, AnyFormat::Document)),
        }
    }
}

/// A format of any media block type.
pub(super) enum AnyFormat {
    Image(ImageFormat),
    Video(VideoFormat),
    Document(DocumentFormat),
}

impl AnyFormat {
    pub(super) fn kind(&self) -> MediaKind {
        match self {
            Self::Image(_) => MediaKind::Image,
            Self::Video(_) => MediaKind::Video,
            Self::Document(_) => MediaKind::Document,
        }
    }

    pub(super) fn as_str(&self) -> &'static str {
        match self {
            Self::Image(f) => f.as_str(),
            Self::Video(f) => f.as_str(),
            Self::Document(f) => f.as_str(),
        }
    }
}

impl Validator<'_> {
    /// The `format` of a source of a `kind` block.
    pub(super) fn format(&mut self, raw: &str, loc: Loc<'_>, kind: MediaKind) -> Option<AnyFormat> {
        let (format, normalized) = kind.parse(raw).map_or((None, false), |(f, n)| (Some(f), n));
        let (allowed, type_name) = (kind.formats(), kind.name());
        if let Some(format) = format {
            if normalized {
                self.push(diagnostics::format_normalized(loc.to_path(), type_name, raw, format.as_str()));
            }
            Some(format)
        } else {
            let suggestion = format::suggest(raw, allowed.iter().copied());
            self.push(diagnostics::unsupported_format(loc.to_path(), type_name, raw, allowed, suggestion));
            None
        }
    }

    /// The data is of `actual` formats but `format` is declared. When the block type cannot
    /// carry the actual format at all, the fix is another block type, not another format.
    pub(super) fn format_mismatch(
        &mut self,
        loc: Loc<'_>,
        format: &AnyFormat,
        what: Evidence<'_>,
        actual: &[&'static str],
    ) {
        let fitting: Vec<&str> = actual.iter().copied().filter(|f| format.kind().formats().contains(f)).collect();
        self.push(diagnostics::format_mismatch(
            loc.to_path(),
            what,
            format.as_str(),
            fitting,
            format.kind().name(),
            actual.first().copied().unwrap_or_default(),
        ));
    }
}
