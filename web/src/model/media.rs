//! Files as content blocks: the kind and format come from the file's bytes first, then its MIME
//! type, then its name; document names as the Bedrock converter makes them; the key previews are
//! filed under.
//! (`browser::files` reads the files themselves.)

use agent_input::convert::bedrock_converse::names;
use agent_input::format::{self, DocumentFormat, ImageFormat, Signature, VideoFormat};
use serde_json::{Value, json};

use super::display::human_bytes;

/// Most bytes of files attached to one request, all of them together: as base64 (a third more)
/// they take 60 MiB, which leaves the rest of the body room under agent-gateway's default
/// `--max-body-bytes` (64 MiB, also the core's body limit).
pub(crate) const MAX_MEDIA_BYTES: usize = 45 * 1024 * 1024;

/// The bytes the base64 payloads (`data` strings) of a body decode to, about.
pub(crate) fn media_bytes(value: &Value) -> usize {
    match value {
        Value::Array(items) => items.iter().map(media_bytes).sum(),
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| match v {
                Value::String(s) if k == "data" => s.len() / 4 * 3,
                _ => media_bytes(v),
            })
            .sum(),
        Value::Null | Value::Bool(_) | Value::Number(_) | Value::String(_) => 0,
    }
}

/// Whether a file of `size` bytes may join `attached` bytes of media under [`MAX_MEDIA_BYTES`];
/// `Err` is the message: the file, the total it would make, the cap, and that what is attached
/// stays.
pub(crate) fn admit(name: &str, size: usize, attached: usize) -> Result<(), String> {
    let total = attached.saturating_add(size);
    if total <= MAX_MEDIA_BYTES {
        return Ok(());
    }
    let attached =
        if attached == 0 { String::new() } else { format!(" with the {} already attached", human_bytes(attached)) };
    Err(format!(
        "{name} ({}) was not added: the files would total {}{attached}, over the {} one request carries \
         (as base64, under agent-gateway's default 64 MB body limit). What is attached is kept.",
        human_bytes(size),
        human_bytes(total),
        human_bytes(MAX_MEDIA_BYTES)
    ))
}

/// A file read into a content block.
#[derive(Debug, Clone)]
pub(crate) struct MediaFile {
    pub(crate) block: Value,
    /// An object URL of the file, for images read in the browser.
    pub(crate) preview: Option<String>,
    pub(crate) preview_key: String,
    /// The file's name, shown on its block's card.
    pub(crate) name: Option<String>,
}

/// The key a preview is filed under: the payload's length and ends, cheap to compute.
pub(crate) fn preview_key(data: &str) -> String {
    let head = &data[..data.len().min(64)];
    let tail = &data[data.len().saturating_sub(64)..];
    format!("{}:{head}:{tail}", data.len())
}

/// What kind of block, and which format, a file is; `None` format when nothing tells.
pub(crate) fn classify(head: &[u8], mime: &str, name: &str) -> (&'static str, Option<&'static str>) {
    let signature = Signature::sniff(head);
    let kind = match signature {
        Some(Signature::Png | Signature::Jpeg | Signature::Gif | Signature::Webp) => "image",
        Some(Signature::Ebml | Signature::IsoBmff) => "video",
        None if mime.starts_with("image/") => "image",
        None if mime.starts_with("video/") => "video",
        Some(Signature::Pdf | Signature::Zip | Signature::Ole) | None => "document",
    };
    let allowed: &[&'static str] = match kind {
        "image" => ImageFormat::NAMES,
        "video" => VideoFormat::NAMES,
        _ => DocumentFormat::NAMES,
    };
    let extension = name.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).unwrap_or_default();
    let extension = match extension.as_str() {
        "jpg" => "jpeg".to_string(),
        "htm" => "html".to_string(),
        "markdown" => "md".to_string(),
        "3gp" => "three_gp".to_string(),
        _ => extension,
    };
    let by_mime = format::formats_for_mime(mime);
    let candidates: Vec<&'static str> = match signature {
        Some(s) => s.formats().to_vec(),
        None => allowed.to_vec(),
    };
    // Bytes narrow it down; the MIME type or the extension pick among what is left.
    let pick = candidates
        .iter()
        .copied()
        .filter(|f| allowed.contains(f))
        .find(|f| by_mime.contains(f) || *f == extension)
        .or_else(|| signature.and_then(|s| s.formats().iter().copied().find(|f| allowed.contains(f))));
    (kind, pick)
}

/// The content block for a file's bytes: base64, with the kind and format [`classify`] finds.
pub(crate) fn block_for(bytes: &[u8], mime: &str, name: &str) -> MediaFile {
    let (kind, format) = classify(&bytes[..bytes.len().min(format::SNIFF_LEN)], mime, name);
    let data = agent_input::base64::encode(bytes);
    let preview_key = preview_key(&data);
    let mut block = json!({"type": kind, "source": {"type": "base64", "format": format.unwrap_or(""), "data": data}});
    // The name the Bedrock converter would make of the file's (it drops the extension, keeps
    // the characters Bedrock allows); none when nothing of it is left, and the converter
    // numbers the document instead.
    if kind == "document"
        && let Some(name) = names::sanitize(name)
    {
        block["name"] = Value::String(name);
    }
    MediaFile { block, preview: None, preview_key, name: None }
}

/// Why a file cannot be a content block, when no format of its kind fits it (audio, a
/// spreadsheet the core does not take, …): said at pick time, with the file's name.
pub(crate) fn refusal(file: &MediaFile, mime: &str, name: &str) -> Option<String> {
    if file.block.pointer("/source/format").and_then(Value::as_str).is_some_and(|f| !f.is_empty()) {
        return None;
    }
    let what = if mime.starts_with("audio/") { "is audio" } else { "is in no format an agent input takes" };
    Some(format!(
        "{name} was not added: it {what}. Agent inputs take images, video and documents (PDF, Word, text, …)."
    ))
}

/// Whether base64 text holds an image's bytes (so a preview of it can show something).
pub(crate) fn is_image_bytes(base64: &str) -> bool {
    agent_input::base64::check(base64).is_ok()
        && matches!(
            Signature::sniff(&agent_input::base64::decode_head(base64, format::SNIFF_LEN)),
            Some(Signature::Png | Signature::Jpeg | Signature::Gif | Signature::Webp)
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_in_no_format_are_refused_by_name() {
        let mp3 = block_for(b"ID3\x04\0\0\0\0\0\0", "audio/mpeg", "clip.mp3");
        let why = refusal(&mp3, "audio/mpeg", "clip.mp3").unwrap();
        assert!(why.starts_with("clip.mp3 was not added: it is audio."), "{why}");
        let pdf = block_for(b"%PDF-1.7\n", "", "Q3 report.pdf");
        assert_eq!(refusal(&pdf, "", "Q3 report.pdf"), None);
    }

    #[test]
    fn bytes_decide_then_mime_then_name() {
        assert_eq!(classify(b"\x89PNG\r\n\x1a\n\0\0\0\0", "image/jpeg", "x.jpg"), ("image", Some("png")));
        assert_eq!(classify(b"\xff\xd8\xff\xe0", "", "photo"), ("image", Some("jpeg")));
        assert_eq!(classify(b"%PDF-1.7\n", "application/pdf", "a.pdf"), ("document", Some("pdf")));
        assert_eq!(classify(b"PK\x03\x04", "", "sheet.xlsx"), ("document", Some("xlsx")));
        assert_eq!(classify(b"PK\x03\x04", "", "zip"), ("document", Some("docx")));
        assert_eq!(classify(b"hello", "text/markdown", "notes"), ("document", Some("md")));
        assert_eq!(classify(b"hello", "", "notes.markdown"), ("document", Some("md")));
        assert_eq!(classify(b"BM", "image/bmp", "a.bmp"), ("image", None));
        assert_eq!(classify(b"\0\0\0\0ftypisom", "video/mp4", "v.mp4"), ("video", Some("mp4")));
    }

    #[test]
    fn document_names_are_the_bedrock_converters() {
        let name = |file: &str| block_for(b"%PDF-1.7\n", "", file).block.get("name").cloned();
        assert_eq!(name("Q3 report_final.v2.pdf"), Some(json!("Q3 report final v2")));
        assert_eq!(name("Résumé (draft).docx"), Some(json!("Resume (draft)")));
        // Nothing usable left: no name, so the converter numbers the document.
        assert_eq!(name("..pdf"), None);
        assert_eq!(name("   .pdf"), None);
    }

    #[test]
    fn blocks_carry_base64_and_a_name() {
        let file = block_for(b"%PDF-1.7\n", "", "Q3 report.pdf");
        assert_eq!(file.block["type"], "document");
        assert_eq!(file.block["name"], "Q3 report");
        assert_eq!(file.block["source"], json!({"type": "base64", "format": "pdf", "data": "JVBERi0xLjcK"}));
        assert!(is_image_bytes("iVBORw0KGgoA"));
        assert!(!is_image_bytes("JVBERi0xLjcK"));
    }

    #[test]
    fn the_total_of_attached_files_is_capped() {
        let mb = 1024 * 1024;
        let body = json!({"input": [{"type": "image", "source": {"data": "A".repeat(4000)}},
            {"type": "document", "source": {"data": "QUJD"}}, {"type": "text", "text": "data"}]});
        assert_eq!(media_bytes(&body), 3000 + 3);
        assert_eq!(admit("a.png", 15 * mb, 30 * mb), Ok(()));
        let refused = admit("b.png", 16 * mb, 30 * mb).unwrap_err();
        assert_eq!(
            refused,
            "b.png (16.00 MB) was not added: the files would total 46.00 MB with the 30.00 MB already attached, \
             over the 45.00 MB one request carries (as base64, under agent-gateway's default 64 MB body limit). \
             What is attached is kept."
        );
        assert!(admit("c.mov", 46 * mb, 0).unwrap_err().contains("would total 46.00 MB, over"));
        // As base64 with the rest of the body, the cap fits the gateway's 64 MiB.
        assert!(MAX_MEDIA_BYTES.div_ceil(3) * 4 + mb <= 64 * mb);
    }
}
