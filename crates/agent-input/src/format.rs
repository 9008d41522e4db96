//! Media formats: the allowed lists, aliases, MIME types and byte signatures.

use std::fmt;

use serde::Serialize;

/// How a format string given by the user was understood.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Parsed<F> {
    /// Exactly a canonical name.
    Exact(F),
    /// An alias or a different letter case, normalized to the format.
    Normalized(F),
}

macro_rules! formats {
    (
        $(#[$doc:meta])* $name:ident, $kind:literal {
            $($variant:ident = $id:literal, mime $mime:literal;)*
        }
        aliases { $($alias:literal => $target:ident),* $(,)? }
    ) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        pub enum $name {
            $(#[doc = concat!("`", $id, "`")] $variant,)*
        }

        impl $name {
            /// Every format, in the order error messages list them.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];
            /// The canonical names of [`Self::ALL`].
            pub const NAMES: &'static [&'static str] = &[$($id,)*];
            /// The block type these formats belong to.
            pub const KIND: &'static str = $kind;

            /// The canonical lowercase name.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $id,)*
                }
            }

            /// The MIME type providers that want one expect.
            pub const fn mime_type(self) -> &'static str {
                match self {
                    $($name::$variant => $mime,)*
                }
            }

            /// Parses a format name case-insensitively, accepting aliases.
            pub fn parse(raw: &str) -> Option<Parsed<Self>> {
                $(if raw == $id { return Some(Parsed::Exact($name::$variant)); })*
                let lower = raw.to_ascii_lowercase();
                $(if lower == $id { return Some(Parsed::Normalized($name::$variant)); })*
                $(if lower == $alias { return Some(Parsed::Normalized($name::$target)); })*
                None
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                serializer.serialize_str(self.as_str())
            }
        }
    };
}

formats! {
    /// Image formats (Bedrock's `ImageFormat`).
    ImageFormat, "image" {
        Png = "png", mime "image/png";
        Jpeg = "jpeg", mime "image/jpeg";
        Gif = "gif", mime "image/gif";
        Webp = "webp", mime "image/webp";
    }
    aliases { "jpg" => Jpeg }
}

formats! {
    /// Video formats (Bedrock's `VideoFormat`).
    VideoFormat, "video" {
        Mkv = "mkv", mime "video/x-matroska";
        Mov = "mov", mime "video/quicktime";
        Mp4 = "mp4", mime "video/mp4";
        Webm = "webm", mime "video/webm";
        Flv = "flv", mime "video/x-flv";
        Mpeg = "mpeg", mime "video/mpeg";
        Mpg = "mpg", mime "video/mpeg";
        Wmv = "wmv", mime "video/x-ms-wmv";
        ThreeGp = "three_gp", mime "video/3gpp";
    }
    aliases { "3gp" => ThreeGp }
}

formats! {
    /// Document formats (Bedrock's `DocumentFormat`).
    DocumentFormat, "document" {
        Pdf = "pdf", mime "application/pdf";
        Csv = "csv", mime "text/csv";
        Doc = "doc", mime "application/msword";
        Docx = "docx", mime "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
        Xls = "xls", mime "application/vnd.ms-excel";
        Xlsx = "xlsx", mime "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
        Html = "html", mime "text/html";
        Txt = "txt", mime "text/plain";
        Md = "md", mime "text/markdown";
    }
    aliases { "htm" => Html, "markdown" => Md }
}

/// A file family recognised from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signature {
    /// `89 50 4E 47 0D 0A 1A 0A`
    Png,
    /// `FF D8 FF`
    Jpeg,
    /// `GIF87a` / `GIF89a`
    Gif,
    /// `RIFF....WEBP`
    Webp,
    /// `%PDF-`
    Pdf,
    /// EBML header `1A 45 DF A3`: Matroska or `WebM`.
    Ebml,
    /// ISO base media `....ftyp`: MP4, MOV, 3GP.
    IsoBmff,
    /// `PK 03 04`: ZIP, the container of docx and xlsx.
    Zip,
    /// `D0 CF 11 E0 A1 B1 1A E1`: OLE compound file, the container of doc and xls.
    Ole,
}

/// How many decoded bytes [`Signature::sniff`] needs at most.
pub const SNIFF_LEN: usize = 12;

impl Signature {
    /// Recognises the family of a file from its first bytes (at least [`SNIFF_LEN`] when available).
    pub fn sniff(head: &[u8]) -> Option<Self> {
        let starts = |prefix: &[u8]| head.starts_with(prefix);
        if starts(b"\x89PNG\r\n\x1a\n") {
            Some(Self::Png)
        } else if starts(b"\xff\xd8\xff") {
            Some(Self::Jpeg)
        } else if starts(b"GIF87a") || starts(b"GIF89a") {
            Some(Self::Gif)
        } else if starts(b"RIFF") && head.get(8..12) == Some(b"WEBP") {
            Some(Self::Webp)
        } else if starts(b"%PDF-") {
            Some(Self::Pdf)
        } else if starts(b"\x1a\x45\xdf\xa3") {
            Some(Self::Ebml)
        } else if head.get(4..8) == Some(b"ftyp") {
            Some(Self::IsoBmff)
        } else if starts(b"PK\x03\x04") {
            Some(Self::Zip)
        } else if starts(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1") {
            Some(Self::Ole)
        } else {
            None
        }
    }

    /// What the bytes look like, for messages.
    pub const fn describe(self) -> &'static str {
        match self {
            Self::Png => "a PNG image",
            Self::Jpeg => "a JPEG image",
            Self::Gif => "a GIF image",
            Self::Webp => "a WebP image",
            Self::Pdf => "a PDF document",
            Self::Ebml => "a Matroska/WebM video",
            Self::IsoBmff => "an MP4/MOV/3GP video",
            Self::Zip => "a ZIP archive (docx/xlsx)",
            Self::Ole => "an OLE compound file (doc/xls)",
        }
    }

    /// The formats whose files carry this signature.
    pub const fn formats(self) -> &'static [&'static str] {
        match self {
            Self::Png => &["png"],
            Self::Jpeg => &["jpeg"],
            Self::Gif => &["gif"],
            Self::Webp => &["webp"],
            Self::Pdf => &["pdf"],
            Self::Ebml => &["mkv", "webm"],
            Self::IsoBmff => &["mp4", "mov", "three_gp"],
            Self::Zip => &["docx", "xlsx"],
            Self::Ole => &["doc", "xls"],
        }
    }
}

/// The formats a MIME type (from a `data:` URL) stands for, read off each format's
/// [`mime_type`](ImageFormat::mime_type); empty when the type says nothing about the format
/// (`application/octet-stream`, unknown types).
pub fn formats_for_mime(mime: &str) -> Vec<&'static str> {
    let mime = mime.trim().to_ascii_lowercase();
    // Spellings of image/jpeg seen in the wild.
    let mime = match mime.as_str() {
        "image/jpg" | "image/pjpeg" => "image/jpeg",
        other => other,
    };
    let images = ImageFormat::ALL.iter().filter(|f| f.mime_type() == mime).map(|f| f.as_str());
    let videos = VideoFormat::ALL.iter().filter(|f| f.mime_type() == mime).map(|f| f.as_str());
    let documents = DocumentFormat::ALL.iter().filter(|f| f.mime_type() == mime).map(|f| f.as_str());
    images.chain(videos).chain(documents).collect()
}

/// The closest allowed name to an unsupported one, for a "did you mean" hint.
pub fn suggest<'a>(raw: &str, allowed: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    // Nothing long is close to a short format name; don't spend time (or memory) finding out.
    const MAX_LEN: usize = 64;
    if raw.len() > MAX_LEN {
        return None;
    }
    let lower = raw.trim().to_ascii_lowercase();
    // A MIME type such as `image/png` names the format in its subtype.
    let subtype = lower.rsplit('/').next().unwrap_or(&lower);
    let subtype = subtype.strip_prefix("x-").unwrap_or(subtype);
    let mut best: Option<(usize, &str)> = None;
    for candidate in allowed {
        let distance = if subtype == candidate { 0 } else { edit_distance(subtype, candidate) };
        // Short names are easy to confuse, so they get less slack.
        let slack = if candidate.len() <= 4 { 1 } else { 2 };
        if distance <= slack && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Optimal string alignment distance: Levenshtein plus adjacent transpositions (`pgn` → `png` is 1).
#[allow(clippy::needless_range_loop)] // the recurrence reads three cells; indices say it plainest
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_canonical_alias_and_case() {
        assert_eq!(ImageFormat::parse("png"), Some(Parsed::Exact(ImageFormat::Png)));
        assert_eq!(ImageFormat::parse("JPG"), Some(Parsed::Normalized(ImageFormat::Jpeg)));
        assert_eq!(ImageFormat::parse("Png"), Some(Parsed::Normalized(ImageFormat::Png)));
        assert_eq!(VideoFormat::parse("3gp"), Some(Parsed::Normalized(VideoFormat::ThreeGp)));
        assert_eq!(DocumentFormat::parse("markdown"), Some(Parsed::Normalized(DocumentFormat::Md)));
        assert_eq!(ImageFormat::parse("bmp"), None);
        assert_eq!(VideoFormat::parse("three_gp"), Some(Parsed::Exact(VideoFormat::ThreeGp)));
    }

    #[test]
    fn suggests_close_names() {
        let images = ImageFormat::ALL.iter().map(|f| f.as_str());
        assert_eq!(suggest("pgn", images.clone()), Some("png"));
        assert_eq!(suggest("image/webp", images.clone()), Some("webp"));
        assert_eq!(suggest("bmp", images.clone()), None);
        assert_eq!(suggest("tiff", images.clone()), None);
        assert_eq!(suggest("jpgg", images), Some("jpeg"));
        let videos = VideoFormat::ALL.iter().map(|f| f.as_str());
        assert_eq!(suggest("mpeg4", videos.clone()), Some("mpeg"));
        assert_eq!(suggest("video/quicktime", videos), None);
    }

    #[test]
    fn mime_types_name_their_formats() {
        assert_eq!(formats_for_mime("image/png"), ["png"]);
        assert_eq!(formats_for_mime(" Image/JPG "), ["jpeg"]);
        assert_eq!(formats_for_mime("image/pjpeg"), ["jpeg"]);
        assert_eq!(formats_for_mime("video/mpeg"), ["mpeg", "mpg"]);
        assert_eq!(formats_for_mime("video/3gpp"), ["three_gp"]);
        assert_eq!(formats_for_mime("text/markdown"), ["md"]);
        assert!(formats_for_mime("application/octet-stream").is_empty());
    }

    #[test]
    fn sniffs_signatures() {
        assert_eq!(Signature::sniff(b"\x89PNG\r\n\x1a\n\0\0\0\0"), Some(Signature::Png));
        assert_eq!(Signature::sniff(b"\0\0\0\x18ftypmp42"), Some(Signature::IsoBmff));
        assert_eq!(Signature::sniff(b"RIFF\0\0\0\0WEBP"), Some(Signature::Webp));
        assert_eq!(Signature::sniff(b"RIFF\0\0\0\0WAVE"), None);
        assert_eq!(Signature::sniff(b"hello"), None);
    }
}
