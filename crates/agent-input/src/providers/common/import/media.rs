//! Media as providers name it — a MIME type, a `data:` URL, a file name's extension — read into
//! the standard block type and format.

use crate::format::{DocumentFormat, ImageFormat, Parsed, VideoFormat};

/// A standard block type and format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Media {
    /// `image`, `video` or `document`.
    pub(crate) kind: &'static str,
    /// The standard format name.
    pub(crate) format: &'static str,
}

/// The block type and format of a MIME type (`image/png`, `application/pdf`; `image/jpg` and
/// Gemini's `text/md` are read too); `None` for a type the standard input has no format for.
pub(crate) fn from_mime(mime: &str) -> Option<Media> {
    let mime = mime.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    let mime = match mime.as_str() {
        "image/jpg" | "image/pjpeg" => "image/jpeg",
        "text/md" => "text/markdown",
        other => other,
    };
    if let Some(f) = ImageFormat::ALL.iter().find(|f| f.mime_type() == mime) {
        return Some(Media { kind: "image", format: f.as_str() });
    }
    if let Some(f) = VideoFormat::ALL.iter().find(|f| f.mime_type() == mime) {
        return Some(Media { kind: "video", format: f.as_str() });
    }
    DocumentFormat::ALL.iter().find(|f| f.mime_type() == mime).map(|f| Media { kind: "document", format: f.as_str() })
}

/// The MIME type and base64 data of a `data:<mime>;base64,<data>` URL.
pub(crate) fn from_data_url(url: &str) -> Option<(&str, &str)> {
    let rest = url.trim_start().strip_prefix("data:")?;
    let (head, data) = rest.split_once(',')?;
    let mime = head.strip_suffix(";base64")?;
    Some((mime.split(';').next().unwrap_or_default(), data))
}

/// The block type and format a URL's or file name's extension names (`cat.JPG`, `clip.mp4?x=1`).
pub(crate) fn from_extension(name: &str) -> Option<Media> {
    fn exact<F>(parsed: Option<Parsed<F>>) -> Option<F> {
        match parsed? {
            Parsed::Exact(format) | Parsed::Normalized(format) => Some(format),
        }
    }
    let name = name.split(['?', '#']).next().unwrap_or_default();
    let file = name.rsplit('/').next().unwrap_or_default();
    let (_, extension) = file.rsplit_once('.')?;
    if let Some(f) = exact(ImageFormat::parse(extension)) {
        return Some(Media { kind: "image", format: f.as_str() });
    }
    if let Some(f) = exact(VideoFormat::parse(extension)) {
        return Some(Media { kind: "video", format: f.as_str() });
    }
    exact(DocumentFormat::parse(extension)).map(|f| Media { kind: "document", format: f.as_str() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mime_types_extensions_and_data_urls() {
        assert_eq!(from_mime("image/JPG"), Some(Media { kind: "image", format: "jpeg" }));
        assert_eq!(from_mime("application/pdf"), Some(Media { kind: "document", format: "pdf" }));
        assert_eq!(from_mime("text/md"), Some(Media { kind: "document", format: "md" }));
        assert_eq!(from_mime("video/mp4"), Some(Media { kind: "video", format: "mp4" }));
        assert_eq!(from_mime("audio/wav"), None);
        assert_eq!(from_extension("https://x.test/a/cat.JPG?w=2"), Some(Media { kind: "image", format: "jpeg" }));
        assert_eq!(from_extension("report.final.docx"), Some(Media { kind: "document", format: "docx" }));
        assert_eq!(from_extension("https://x.test/image?id=3"), None);
        assert_eq!(from_data_url("data:image/png;base64,iVBO"), Some(("image/png", "iVBO")));
        assert_eq!(from_data_url("data:text/plain,hello"), None);
    }
}
