//! The request writer every provider implements ([`Provider`]), what it can carry
//! ([`Capabilities`]), what it returns ([`Converted`]), and the JSON text it writes.

use serde::Serialize;

use super::payload::Splice;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::ExecuteRequest;
use crate::options::ConvertOptions;
use crate::path::Path;
use crate::providers::id::ProviderId;

/// What one converter can carry: the rows of the capability matrix in `docs/providers.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Capabilities {
    /// The provider.
    pub provider: ProviderId,
    /// Base64 images.
    pub image_base64: &'static str,
    /// Images by URL.
    pub image_url: &'static str,
    /// Base64 documents.
    pub document_base64: &'static str,
    /// Documents by URL.
    pub document_url: &'static str,
    /// Video.
    pub video: &'static str,
    /// `s3://` URLs.
    pub s3_urls: &'static str,
    /// Where system text goes.
    pub system: &'static str,
    /// Standard roles taken.
    pub roles: &'static str,
    /// Media in messages other than the user's.
    pub media_outside_user: &'static str,
    /// How tool results are carried.
    pub tool_results: &'static str,
    /// Count, size and option limits checked.
    pub limits: &'static str,
}

impl Capabilities {
    /// The matrix rows: a label and the field's value.
    pub const fn rows(&self) -> [(&'static str, &'static str); 11] {
        [
            ("image, base64", self.image_base64),
            ("image, URL", self.image_url),
            ("document, base64", self.document_base64),
            ("document, URL", self.document_url),
            ("video", self.video),
            ("`s3://` URLs", self.s3_urls),
            ("system text", self.system),
            ("roles", self.roles),
            ("media outside user messages", self.media_outside_user),
            ("tool results", self.tool_results),
            ("limits checked", self.limits),
        ]
    }
}

/// A converted body and the warnings produced on the way.
#[derive(Debug, Clone)]
pub struct Converted<T> {
    /// The provider request body.
    pub body: T,
    /// What was changed to fit the provider.
    pub warnings: Vec<Diagnostic>,
    /// Provider fields to merge into `body` (`providers/common/fields.rs`): the typed body
    /// leaves them out, and `convert::convert_to_value` and `convert::convert_into` merge them.
    pub(crate) placements: Vec<super::context::Placement>,
}

impl<T> Converted<T> {
    /// A body with its warnings and no provider fields.
    pub fn new(body: T, warnings: Vec<Diagnostic>) -> Self {
        Self { body, warnings, placements: Vec::new() }
    }
}

/// A provider request format: standard input in, typed request body out.
pub trait Provider {
    /// Which provider this is.
    const ID: ProviderId;
    /// The request body's wire type.
    type Request<'a>: Serialize;

    /// Converts a validated request.
    ///
    /// # Errors
    /// Every problem the provider would reject, each with the path of the offending part.
    fn convert<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
    ) -> Result<Converted<Self::Request<'a>>, Report> {
        Self::convert_spliced(request, options, None)
    }

    /// Converts a validated request into a body that, with a [`Splice`], leaves each large
    /// payload lying in its sources out as a mark when it is written.
    ///
    /// # Errors
    /// As [`Provider::convert`].
    fn convert_spliced<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
        splice: Option<&'a Splice<'a>>,
    ) -> Result<Converted<Self::Request<'a>>, Report>;

    /// Appends `body` as compact JSON text, as `serde_json` writes it.
    ///
    /// # Errors
    /// When the body cannot be written (`serde_json`'s errors).
    fn write_body(body: &Self::Request<'_>, out: &mut Vec<u8>) -> serde_json::Result<()> {
        serde_json::to_writer(out, body)
    }

    /// Replaces `out` with `body` as compact JSON text ([`Provider::write_body`]'s bytes),
    /// reusing its allocation. Native builds and the npm package's Node module write it with the
    /// crate's own writer (`json::write`), straight into text, and with a `splice` that marks
    /// texts, leave such texts out; elsewhere `serde_json` writes bytes that are then checked as
    /// UTF-8.
    ///
    /// # Errors
    /// When the body cannot be written, or its bytes are not UTF-8.
    fn write_text(body: &Self::Request<'_>, out: &mut String, splice: Option<&Splice<'_>>) -> Result<(), Report> {
        #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
        {
            let marked = splice.map(Splice::marked);
            out.clear();
            if crate::json::write::write(body, out, splice).is_ok() {
                return Ok(());
            }
            // What the writer leaves to `serde_json`: written again, without the marks so far.
            if let (Some(splice), Some(marked)) = (splice, marked) {
                splice.forget_after(marked);
            }
        }
        #[cfg(not(any(not(target_arch = "wasm32"), feature = "speed")))]
        let _ = splice;
        let mut buffer = std::mem::take(out).into_bytes();
        buffer.clear();
        let written = Self::write_body(body, &mut buffer);
        utf8_text(Self::ID, written, buffer, out)
    }
}

/// The written body as text into `out`, or the writer's error. Not generic: one copy, not one
/// per provider.
fn utf8_text(
    provider: ProviderId,
    written: serde_json::Result<()>,
    buffer: Vec<u8>,
    out: &mut String,
) -> Result<(), Report> {
    written.map_err(|e| serialize_failure(provider, &e))?;
    *out = String::from_utf8(buffer).map_err(|e| {
        let mut report = Report::default();
        report.push(Diagnostic::new(Code::InvalidForProvider, Path::root(), format!("the body is not UTF-8: {e}")));
        report
    })?;
    Ok(())
}

/// Compact JSON text indented as `serde_json::to_string_pretty` writes it (two spaces, `": "`,
/// empty arrays and objects kept as `[]` and `{}`).
pub(crate) fn indent(compact: &str) -> String {
    let bytes = compact.as_bytes();
    let mut out = String::with_capacity(compact.len() + compact.len() / 4);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut start = 0;
    let mut i = 0;
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'{' | b'[' | b'}' | b']' | b',' | b':' => {
                out.push_str(&compact[start..i]);
                start = i + 1;
                match b {
                    b'{' | b'[' if matches!(bytes.get(i + 1), Some(b'}' | b']')) => {
                        out.push_str(&compact[i..i + 2]);
                        i += 1;
                        start = i + 1;
                    }
                    b'{' | b'[' => {
                        out.push(b as char);
                        depth += 1;
                        newline(&mut out, depth);
                    }
                    b'}' | b']' => {
                        depth = depth.saturating_sub(1);
                        newline(&mut out, depth);
                        out.push(b as char);
                    }
                    b',' => {
                        out.push(',');
                        newline(&mut out, depth);
                    }
                    _ => out.push_str(": "),
                }
            }
            _ => {}
        }
        i += 1;
    }
    out.push_str(&compact[start..]);
    out
}

pub(crate) fn serialize_failure(provider: ProviderId, error: &serde_json::Error) -> Report {
    // Wire structs hold only strings, numbers and already-parsed JSON, so this is not expected.
    let mut report = Report::default();
    report.push(Diagnostic::new(
        Code::InvalidForProvider,
        Path::root(),
        format!("the {} request could not be written as JSON: {error}", provider.display_name()),
    ));
    report
}

#[cfg(test)]
mod tests {
    #[test]
    fn indent_writes_what_serde_json_pretty_writes() {
        let value = serde_json::json!({"a": [], "b": {}, "c": [1, {"d": "x,{}[]:\\\"y"}, [[]]], "e": null, "f": "é"});
        let compact = serde_json::to_string(&value).unwrap();
        assert_eq!(super::indent(&compact), serde_json::to_string_pretty(&value).unwrap());
    }
}
