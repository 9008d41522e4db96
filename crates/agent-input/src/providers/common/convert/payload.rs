//! Media written into request bodies: base64 payloads and `data:` URLs as JSON strings, copied
//! once rather than escaped, and the file names documents are sent under.

use std::cell::RefCell;
use std::fmt;

use serde::Serialize;
use serde_json::value::RawValue;

use crate::json::Literal;

/// Payloads of at least this many bytes are written raw, never through the escaper, or as splice
/// marks (see [`Splice`]); every writer of a body uses this one threshold.
pub(crate) const RAW_FROM: usize = 16 * 1024;

/// What stands in the body, inside the payload's string, for a payload left to the
/// caller: an escape `serde_json` never writes (it escapes only quotes, backslashes and control
/// characters). Text copied raw from the request (tool arguments) could hold it; the caller
/// counts the marks, and any extra one means converting again without a [`Splice`].
pub const MARK: &str = "\\uFFFF";

/// Where each [`MARK`] starts in `body`, escaped or not, as a caller splitting the body on it
/// finds them (npm/splice.js): the marks a writer left, and any that text copied raw from the
/// request holds.
pub fn marks(body: &str) -> impl Iterator<Item = usize> + '_ {
    crate::json::occurrences(body, MARK)
}

/// Whether `text` holds U+FFFD.
#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
fn holds_replacement(text: &str) -> bool {
    crate::json::occurrences(text, "\u{FFFD}").next().is_some()
}

/// The source texts whose large payloads a body leaves out, each written as [`MARK`], and the
/// payloads so marked. Given to [`crate::convert::convert_into_spliced`]; the caller puts the bytes
/// back from its own copy of the sources: the npm package splices the body in JavaScript rather
/// than copying megabytes of base64 out of wasm memory, and the playground shows a shortened
/// payload where each mark is, so a keystroke's conversion does not grow with the media.
///
/// A payload is marked when it is at least 16 KiB, is a slice of one of the sources (the same
/// address, not an equal copy) and would be written verbatim. A marked payload is neither copied
/// nor scanned: the caller answers for its bytes being JSON string content. A slice of JSON text
/// that a parser read as a string without unescaping is, by construction; checked base64 is too.
/// Text copied raw from the request (tool arguments) could hold a mark too: the caller counts
/// the marks, and any extra one means converting again without a splice.
///
/// A payload that is a copy rather than a slice (the standard request an import builds from the
/// parsed request holds copies) is marked too when it is the end of a string of a source given
/// to [`Splice::add_originals`], its bytes compared: the span is then that end of the source.
///
/// A splice [`with_texts`](Splice::with_texts) leaves out text strings too, where the body's
/// writer (the fast one: native builds and the npm package's Node module) can take them from a
/// source as they stand there: a slice of a source with nothing to escape, or an escaped
/// string whose escapes are as the writer would write them ([`Splice::add_literals`]).
#[derive(Debug)]
pub struct Splice<'s> {
    sources: Vec<&'s str>,
    /// (source, start, length) of each payload marked, in the order the marks were written.
    spans: RefCell<Vec<(usize, usize, usize)>>,
    /// Whether text strings are marked too (by the fast writer only).
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "speed")), allow(dead_code))]
    texts: bool,
    /// The escaped strings that can be taken from a source, by address: the decoded text's
    /// address and length, the literal's address and length (addresses alone, so the splice
    /// stays covariant in the sources' lifetime).
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "speed")), allow(dead_code))]
    literals: RefCell<Vec<(usize, usize, usize, usize)>>,
    /// Strings of the sources whose copies are marked ([`Splice::add_originals`]): their last 16
    /// bytes, source, start and length, sorted by those bytes.
    #[cfg_attr(all(target_arch = "wasm32", not(feature = "speed")), allow(dead_code))]
    originals: RefCell<Vec<Original>>,
}

/// A string of a source whose copies are marked: its last 16 bytes, source, start and length.
type Original = ([u8; 16], usize, usize, usize);

impl<'s> Splice<'s> {
    /// A splice of the payloads that lie in `sources`.
    pub fn new(sources: &[&'s str]) -> Self {
        Self {
            sources: sources.to_vec(),
            spans: RefCell::new(Vec::new()),
            texts: false,
            literals: RefCell::default(),
            originals: RefCell::default(),
        }
    }

    /// A splice of the payloads and the text strings of at least [`Literal::FROM`] bytes that lie
    /// in `sources` as the body would hold them.
    pub fn with_texts(sources: &[&'s str]) -> Self {
        Self { texts: true, ..Self::new(sources) }
    }

    /// Adds escaped strings a source's parse decoded ([`Document::literals`]): each of them,
    /// written into the body, is then left out as a mark for its literal. They must stay where
    /// they are while the splice marks: the document they come from must outlive the writing.
    ///
    /// [`Document::literals`]: crate::json::Document::literals
    pub fn add_literals(&self, literals: &[Literal<'_>]) {
        // Only the fast writer marks texts; elsewhere the parser lists none anyway.
        #[cfg(not(any(not(target_arch = "wasm32"), feature = "speed")))]
        let _ = literals;
        #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
        if self.texts {
            let mut kept = self.literals.borrow_mut();
            kept.extend(literals.iter().map(|l| (l.address, l.len, l.raw.as_ptr() as usize, l.raw.len())));
            kept.sort_unstable_by_key(|literal| literal.0);
        }
    }

    /// Adds strings lying in the sources (a parse's unescaped strings) whose copies are marked
    /// as they stand there: a payload that equals the end of one of them, byte for byte, is its
    /// span in that source. Strings shorter than a payload that is marked, or not in a source,
    /// are passed over.
    pub fn add_originals(&self, strings: &[&str]) {
        // Only the fast writer's builds mark copies (the npm browsers' module, for its size,
        // does not).
        #[cfg(not(any(not(target_arch = "wasm32"), feature = "speed")))]
        let _ = strings;
        #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
        {
            let mut originals = self.originals.borrow_mut();
            for string in strings.iter().filter(|s| s.len() >= RAW_FROM) {
                if let Some((i, start)) = self.lying_in(string.as_ptr() as usize, string.len()) {
                    originals.push((last16(string), i, start, string.len()));
                }
            }
            originals.sort_unstable_by_key(|original| original.0);
        }
    }

    #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
    /// How many marks have been written.
    pub(crate) fn marked(&self) -> usize {
        self.spans.borrow().len()
    }

    #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
    /// Forgets the marks after the first `n`, for a body written again without them.
    pub(crate) fn forget_after(&self, n: usize) {
        self.spans.borrow_mut().truncate(n);
    }

    #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
    /// With texts marked: whether `text`, written as a JSON string, can be taken from a source as
    /// it stands there ([`Marked::Yes`]: its span there is recorded, and the caller writes a
    /// mark), or else is known to need no escaping. A text holding U+FFFD is never marked: where
    /// the caller's copy of the source holds what its conversion to UTF-8 replaced (a JavaScript
    /// string's unpaired surrogate), the body must hold U+FFFD, as it would unspliced.
    pub(crate) fn mark_text(&self, text: &str) -> Marked {
        if !self.texts || text.len() < Literal::FROM {
            return Marked::No;
        }
        let at = text.as_ptr() as usize;
        let (raw_at, raw_len) = if self.lying_in(at, text.len()).is_some() {
            // A slice of a source that needs no escaping is its own literal; in ASCII, copying it
            // costs less than taking it from the source.
            match crate::json::plain(text.as_bytes()) {
                Some(true) if !holds_replacement(text) => (at, text.len()),
                Some(_) => return Marked::Plain,
                None => return Marked::No,
            }
        } else {
            let literals = self.literals.borrow();
            match literals.binary_search_by_key(&at, |literal| literal.0) {
                Ok(i) if literals[i].1 == text.len() && !holds_replacement(text) => (literals[i].2, literals[i].3),
                _ => return Marked::No,
            }
        };
        let Some((i, start)) = self.lying_in(raw_at, raw_len) else { return Marked::No };
        self.spans.borrow_mut().push((i, start, raw_len));
        Marked::Yes
    }

    /// Which source the `len` bytes at address `at` lie in, and where.
    fn lying_in(&self, at: usize, len: usize) -> Option<(usize, usize)> {
        self.sources.iter().enumerate().find_map(|(i, source)| {
            let start = source.as_ptr() as usize;
            (at >= start && at + len <= start + source.len()).then(|| (i, at - start))
        })
    }

    /// The payloads marked so far, in the order of their marks: (index in the sources, start,
    /// length), in bytes.
    pub fn into_spans(self) -> Vec<(usize, usize, usize)> {
        self.spans.into_inner()
    }

    /// Which source `part` lies in, or the end of which original it is a copy of, when it is
    /// large enough to be marked.
    fn source_of(&self, part: &str) -> Option<(usize, usize)> {
        if part.len() < RAW_FROM {
            return None;
        }
        let found = self.lying_in(part.as_ptr() as usize, part.len());
        #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
        let found = found.or_else(|| self.copied_from(part));
        found
    }

    /// The source and start of the end of an original ([`Splice::add_originals`]) that holds the
    /// same bytes as `part`.
    #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
    fn copied_from(&self, part: &str) -> Option<(usize, usize)> {
        let originals = self.originals.borrow();
        let key = last16(part);
        let first = originals.partition_point(|original| original.0 < key);
        originals[first..].iter().take_while(|original| original.0 == key).find_map(|&(_, i, start, len)| {
            let end = start + len;
            let at = end.checked_sub(part.len()).filter(|&at| at >= start)?;
            same_bytes(&self.sources[i].as_bytes()[at..end], part.as_bytes()).then_some((i, at))
        })
    }

    /// `parts`, joined, as a JSON string with each large part that lies in a source replaced by
    /// [`MARK`] (its span recorded); `None` when no part qualifies, or a part left in place needs
    /// escaping. `safe` says whether a part is known to need no escaping.
    fn mark(&self, parts: &[&str], safe: fn(&str) -> bool) -> Option<Box<RawValue>> {
        let sources: Vec<Option<(usize, usize)>> = parts.iter().map(|part| self.source_of(part)).collect();
        if sources.iter().all(Option::is_none)
            || parts.iter().zip(&sources).any(|(part, source)| source.is_none() && !safe(part))
        {
            return None;
        }
        let mut literal = String::with_capacity(64);
        literal.push('"');
        let mut spans = self.spans.borrow_mut();
        for (part, source) in parts.iter().zip(sources) {
            match source {
                Some((i, start)) => {
                    spans.push((i, start, part.len()));
                    literal.push_str(MARK);
                }
                None => literal.push_str(part),
            }
        }
        literal.push('"');
        // SAFETY: a quote, characters none of which JSON escapes (`safe`), marks (a valid escape)
        // and a quote: one well-formed JSON string.
        #[allow(unsafe_code)]
        Some(unsafe { RawValue::from_string_unchecked(literal) })
    }

    /// Base64 text that lies in a source, as a mark.
    pub(crate) fn mark_base64(&self, text: &str) -> Option<Box<RawValue>> {
        self.mark(&[text], |_| false)
    }
}

/// What [`Splice::mark_text`] made of a text.
#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Marked {
    /// Left out: the caller writes a mark.
    Yes,
    /// Not left out, and nothing in it needs escaping.
    Plain,
    /// Not left out.
    No,
}

/// The last 16 bytes of a string of at least 16 bytes.
#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
fn last16(text: &str) -> [u8; 16] {
    let mut key = [0; 16];
    key.copy_from_slice(&text.as_bytes()[text.len() - 16..]);
    key
}

#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
/// Whether `a` and `b` hold the same bytes: a block at a time, without a branch per byte (the
/// loop vectorizes; `memcmp` in WebAssembly goes a byte at a time).
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    const BLOCK: usize = 4096;
    a.len() == b.len()
        && a.chunks(BLOCK).zip(b.chunks(BLOCK)).all(|(x, y)| x.iter().zip(y).fold(0, |d, (p, q)| d | (p ^ q)) == 0)
}

fn unescaped(part: &str) -> bool {
    if part.len() >= RAW_FROM {
        crate::base64::is_json_safe_alphabet(part)
    } else {
        part.bytes().all(crate::json::plain_byte)
    }
}

/// `data:<mime>;base64,<data>`, written straight into the body without an intermediate string.
#[derive(Debug, Clone, Copy)]
pub struct DataUrl<'a> {
    /// The MIME type.
    pub mime: &'static str,
    /// Standard base64.
    pub data: &'a str,
    /// Where `data` is left out as a mark, if it can be.
    pub splice: Option<&'a Splice<'a>>,
}

impl fmt::Display for DataUrl<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("data:")?;
        f.write_str(self.mime)?;
        f.write_str(";base64,")?;
        f.write_str(self.data)
    }
}

impl Serialize for DataUrl<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        plain_string(serializer, &["data:", self.mime, ";base64,", self.data], self.splice)
    }
}

/// Base64 data as a JSON string, written like [`DataUrl`]: megabytes copied once, not escaped,
/// or left out as a mark when a [`Splice`] is given.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a>(pub &'a str, pub Option<&'a Splice<'a>>);

impl Serialize for Payload<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        plain_string(serializer, &[self.0], self.1)
    }
}

/// Serializes `parts`, joined, as one JSON string. A large one (base64 media) that needs no
/// escaping is handed over as a raw JSON literal: `serde_json`'s escape scan goes a byte at a time,
/// which in WebAssembly made media requests several times slower than the copy.
pub(crate) fn plain_string<S: serde::Serializer>(
    serializer: S,
    parts: &[&str],
    splice: Option<&Splice<'_>>,
) -> Result<S::Ok, S::Error> {
    match plain_literal(parts, splice) {
        Ok(raw) => raw.serialize(serializer),
        Err(text) => serializer.serialize_str(&text),
    }
}

/// [`plain_string`]'s JSON literal (`Ok`), or the joined text for the serializer to escape
/// (`Err`). Not generic: one copy for every serializer.
fn plain_literal(parts: &[&str], splice: Option<&Splice<'_>>) -> Result<Box<RawValue>, String> {
    let len = parts.iter().map(|part| part.len()).sum::<usize>();
    if len >= RAW_FROM
        && let Some(raw) = splice.and_then(|splice| splice.mark(parts, unescaped))
    {
        return Ok(raw);
    }
    if len < RAW_FROM || !parts.iter().all(|part| unescaped(part)) {
        let mut text = String::with_capacity(len);
        for part in parts {
            text.push_str(part);
        }
        return Err(text);
    }
    let mut literal = String::with_capacity(len + 2);
    literal.push('"');
    for part in parts {
        literal.push_str(part);
    }
    literal.push('"');
    // SAFETY: `literal` is a quote, characters none of which JSON escapes (checked just above:
    // no control character, quote or backslash), and a quote: one well-formed JSON string.
    #[allow(unsafe_code)]
    Ok(unsafe { RawValue::from_string_unchecked(literal) })
}

/// `text` as one raw JSON value, surrounding whitespace trimmed: what
/// `serde_json::from_str::<&RawValue>` returns, without its code path. That path's error for a
/// non-string token formats floating-point numbers, which costs the npm `.wasm` about 20 KB raw
/// (docs/decisions/npm.md, "The base module's size"); checking with `IgnoredAny` runs the same
/// reader (`ignore_value`, the same depth limit, trailing characters rejected) with no such error.
pub(crate) fn raw_json(text: &str) -> Option<Box<RawValue>> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let json = text.trim_matches([' ', '\n', '\t', '\r']);
    // SAFETY: `json` was just read as exactly one JSON value, which is what
    // `from_string_unchecked` requires.
    #[allow(unsafe_code)]
    Some(unsafe { RawValue::from_string_unchecked(json.to_owned()) })
}

/// A file name for a document sent as a file: the given name (with the format's extension added
/// when it has none) or `document-N.<ext>`.
pub(crate) fn file_name(name: Option<&str>, extension: &str, n: usize) -> String {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(name) if name.to_ascii_lowercase().ends_with(&format!(".{extension}")) => name.to_string(),
        Some(name) => format!("{name}.{extension}"),
        None => format!("document-{n}.{extension}"),
    }
}

#[cfg(test)]
mod tests {
    use super::{DataUrl, Payload, Splice, holds_replacement, marks, raw_json};

    /// Every `\uFFFF`, escaped or not, as `split` finds them.
    #[test]
    fn marks_are_found_as_a_split_finds_them() {
        for body in [r#"{"a":"\uFFFF","b":"x\\uFFFF\uFFFFy"}"#, "", r"\uFFF", r"\u\uFFFF\uFFFF"] {
            assert_eq!(marks(body).count(), body.split(super::MARK).count() - 1, "{body}");
        }
        assert_eq!(marks(r"a\uFFFFb").collect::<Vec<_>>(), [1]);
    }

    /// U+FFFD is `EF BF BD`; other characters starting with `EF` (fullwidth forms) are not it.
    #[test]
    fn the_replacement_character_is_found_by_its_bytes() {
        for (text, holds) in
            [("a\u{FFFD}b", true), ("\u{FFFD}", true), ("？！\u{FFFC}\u{FFFE}", false), ("東京 🙂", false), ("", false)]
        {
            assert_eq!(holds_replacement(text), holds, "{text:?}");
            assert_eq!(holds_replacement(text), text.contains('\u{FFFD}'), "{text:?}");
        }
    }

    /// `raw_json` takes and returns what `serde_json::from_str::<&RawValue>` does.
    #[test]
    fn raw_json_reads_as_serde_json_does() {
        let deep = format!("{}{}", "[".repeat(200), "]".repeat(200));
        let cases = [
            "{}",
            " {\"a\": [1, 2.5e3, null]}\n",
            "\t\r\n\"x\" ",
            "1.5",
            "-0",
            "true",
            "",
            " ",
            "{",
            "{} {}",
            "{}x",
            "[1,]",
            "nan",
            "{\"a\":1,}",
            "\"\\u00e9\"",
            "\u{a0}{}",
            "{}\u{a0}",
            &deep,
        ];
        for text in cases {
            let expected =
                serde_json::from_str::<&serde_json::value::RawValue>(text).ok().map(serde_json::value::RawValue::get);
            assert_eq!(raw_json(text).as_deref().map(serde_json::value::RawValue::get), expected, "{text:?}");
        }
    }

    /// Raw or escaped, the JSON text must be what `serde_json` writes for the same string.
    #[test]
    fn payloads_serialize_as_the_plain_string_would() {
        let big = "QUJD".repeat(5_000);
        let url = |mime, data| DataUrl { mime, data, splice: None };
        let cases = [
            (serde_json::to_string(&Payload("QUJD", None)), "QUJD".to_owned()),
            (serde_json::to_string(&Payload(&big, None)), big.clone()),
            (serde_json::to_string(&Payload(&format!("{big}\n\"x\\"), None)), format!("{big}\n\"x\\")),
            (serde_json::to_string(&url("image/png", &big)), format!("data:image/png;base64,{big}")),
            (serde_json::to_string(&url("image/png", "QQ==")), "data:image/png;base64,QQ==".to_owned()),
        ];
        for (got, want) in cases {
            assert_eq!(got.unwrap(), serde_json::to_string(&want).unwrap());
        }
        let value = serde_json::to_value(Payload(&big, None)).unwrap();
        assert_eq!(value, serde_json::Value::String(big));
    }

    /// With a splice, a large payload that lies in its source is a mark and a span; one that does
    /// not (a copy), or beside a part that needs escaping, is written as without one.
    #[test]
    fn spliced_payloads_are_marks_with_their_ranges() {
        let big = "QUJD".repeat(5_000);
        let source = format!(r#"{{"a": "{big}", "b": "x"}}"#);
        let data = &source[7..7 + big.len()];
        assert_eq!(data, big);
        let copy = big.clone();
        let splice = Splice::new(&[&source]);
        let written = [
            serde_json::to_string(&Payload(data, Some(&splice))).unwrap(),
            serde_json::to_string(&DataUrl { mime: "image/png", data, splice: Some(&splice) }).unwrap(),
            serde_json::to_string(&Payload(&copy, Some(&splice))).unwrap(),
            serde_json::to_string(&Payload(&source[7..20], Some(&splice))).unwrap(),
        ];
        assert_eq!(written[0], "\"\\uFFFF\"");
        assert_eq!(written[1], "\"data:image/png;base64,\\uFFFF\"");
        assert_eq!(written[2], serde_json::to_string(&big).unwrap());
        assert_eq!(written[3], serde_json::to_string(&source[7..20]).unwrap());
        // A part written in place that needs escaping stops the marking.
        assert_eq!(splice.mark(&["\"", data], super::unescaped).map(|r| r.get().to_owned()), None);
        assert_eq!(splice.into_spans(), [(0, 7, big.len()), (0, 7, big.len())]);
        // Without a splice, nothing is marked.
        assert_eq!(serde_json::to_string(&Payload(data, None)).unwrap(), serde_json::to_string(&big).unwrap());
    }

    /// A copy of a payload (not a slice of the source) is marked as the end of the original it
    /// equals, byte for byte: a data URL's data copied out of it is that URL's end. A copy that
    /// differs by one byte, or of a string not given as an original, is written.
    #[test]
    fn copies_of_originals_are_marked_as_their_end_in_the_source() {
        let big = "QUJD".repeat(5_000);
        let source = format!(r#"{{"url": "data:image/png;base64,{big}", "other": "{big}"}}"#);
        let start = source.find("data:").unwrap();
        let at = source.find(&big).unwrap();
        let original = &source[start..at + big.len()];
        let splice = Splice::new(&[&source]);
        splice.add_originals(&[original, "not in the source"]);
        let copy = big.clone();
        let mut changed = big.clone();
        changed.replace_range(100..101, "Z");
        let shorter = big[4..].to_string();
        let written = [
            serde_json::to_string(&Payload(&copy, Some(&splice))).unwrap(),
            serde_json::to_string(&Payload(&changed, Some(&splice))).unwrap(),
            serde_json::to_string(&DataUrl { mime: "image/png", data: &shorter, splice: Some(&splice) }).unwrap(),
        ];
        assert_eq!(written[0], "\"\\uFFFF\"");
        assert_eq!(written[1], serde_json::to_string(&changed).unwrap());
        assert_eq!(written[2], "\"data:image/png;base64,\\uFFFF\"", "the end of the original, shorter");
        assert_eq!(splice.into_spans(), [(0, at, big.len()), (0, at + 4, big.len() - 4)]);
    }

    /// Over several sources, each mark says which source its payload lies in, in the order the
    /// marks are written.
    #[test]
    fn a_splice_of_several_sources_reports_each_payloads_source() {
        let a = "QUJD".repeat(5_000);
        let b = format!("x{}", "QUJD".repeat(4_100));
        let splice = Splice::new(&[&a, &b]);
        let written = serde_json::to_string(&[Payload(&b[1..], Some(&splice)), Payload(&a, Some(&splice))]).unwrap();
        assert_eq!(written, r#"["\uFFFF","\uFFFF"]"#);
        assert_eq!(splice.into_spans(), [(1, 1, b.len() - 1), (0, 0, a.len())]);
    }

    /// Every provider's body, by whichever writer it has, splices a large image of the request:
    /// one mark in the body, its span in the request, and the rest as written without splicing.
    #[test]
    fn every_provider_writes_a_large_payload_as_a_mark() {
        use crate::convert::{ConvertOptions, ProviderId, convert_into, convert_into_spliced};
        use crate::validate;

        let data = format!("iVBORw0KGgoA{}", "QUJD".repeat(5_000));
        let text = serde_json::json!({"input": [
            {"type": "text", "text": "What is this?"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": data}}
        ]})
        .to_string();
        let options = validate::Options::default();
        let document = validate::parse(&text, &options.limits).unwrap();
        let (request, _) = validate::validate_request(&document, &options).into_result().unwrap();
        let at = text.find(&data).unwrap();
        for &provider in ProviderId::ALL {
            let convert = ConvertOptions::default();
            let mut whole = String::new();
            convert_into(provider, &request, &convert, false, &mut whole).unwrap();
            let mut marked = String::new();
            let splice = Splice::new(&[&text]);
            convert_into_spliced(provider, &request, &convert, false, &mut marked, Some(&splice)).unwrap();
            assert_eq!(splice.into_spans(), [(0, at, data.len())], "{provider:?}");
            assert_eq!(marked.matches(super::MARK).count(), 1, "{provider:?}");
            assert_eq!(marked.replace(super::MARK, &data), whole, "{provider:?}");
        }
    }

    /// With texts marked, every text of at least [`Literal::FROM`] bytes that the request holds
    /// as the body would is a mark, its span the literal in the request: plain text, text whose
    /// escapes are as written (quotes, line breaks, `\u001f`), beside text whose escapes are
    /// not (`\/`, `\u00e9`, `\u000A`), which is written, as is text with U+FFFD. Put back, the
    /// body is the same bytes.
    #[test]
    fn every_provider_writes_texts_as_the_request_holds_them_as_marks() {
        use crate::convert::{ConvertOptions, ProviderId, convert_into, convert_into_spliced};
        use crate::validate;

        let plain = "A plain question of some length — with é and 東京 🙂, nothing escaped.";
        let escaped = r#"A \"quoted\" question\nover two lines,\twith a tab and \\ and \u001f — é"#;
        let other = [
            r"Escaped as no writer writes it: a \/ slash and more",
            r"An \u00e9 written as an escape, and more text",
            r"A line break in capitals\u000A and more text",
        ];
        let short = r#"short \"one\""#;
        let mut input = vec![
            serde_json::json!({"role": "user", "content": [{"type": "text", "text": "PLAIN"}]}),
            serde_json::json!({"role": "assistant", "content": [{"type": "text", "text": "ESCAPED"}]}),
        ];
        for k in 0..other.len() {
            input.push(serde_json::json!({"role": "user", "content": [{"type": "text", "text": format!("OTHER{k}")}]}));
            input.push(serde_json::json!({"role": "assistant", "content": [{"type": "text", "text": "SHORT"}]}));
        }
        // U+FFFD may stand for what the caller's copy holds otherwise (an unpaired surrogate).
        input.push(serde_json::json!({"role": "user", "content": [{"type": "text", "text": "A text of some length with \u{fffd} in it, é"}]}));
        input.push(serde_json::json!({"role": "assistant", "content": [{"type": "text", "text": "An escaped \"text\" of some length with \u{fffd}"}]}));
        input.push(serde_json::json!({"role": "user", "content": [{"type": "text", "text": "And?"}]}));
        let mut text = serde_json::json!({"input": input})
            .to_string()
            .replace("PLAIN", plain)
            .replace("ESCAPED", escaped)
            .replace("SHORT", short);
        for (k, other) in other.iter().enumerate() {
            text = text.replace(&format!("OTHER{k}"), other);
        }
        let options = validate::Options::default();
        let document = validate::parse(&text, &options.limits).unwrap();
        assert_eq!(document.literals().len(), 2, "{:?}", document.literals());
        let (request, _) = validate::validate_request(&document, &options).into_result().unwrap();
        let expected = [(0, text.find(plain).unwrap(), plain.len()), (0, text.find(escaped).unwrap(), escaped.len())];
        for &provider in ProviderId::ALL {
            let convert = ConvertOptions::default();
            let mut whole = String::new();
            convert_into(provider, &request, &convert, false, &mut whole).unwrap();
            let mut marked = String::new();
            let splice = Splice::with_texts(&[&text]);
            splice.add_literals(document.literals());
            convert_into_spliced(provider, &request, &convert, false, &mut marked, Some(&splice)).unwrap();
            let spans = splice.into_spans();
            assert_eq!(spans, expected, "{provider:?}");
            let mut pieces = marked.split(super::MARK);
            let mut joined = pieces.next().unwrap().to_string();
            for ((_, start, len), piece) in spans.iter().zip(pieces) {
                joined.push_str(&text[*start..start + len]);
                joined.push_str(piece);
            }
            assert_eq!(joined, whole, "{provider:?}");
        }
    }
}
