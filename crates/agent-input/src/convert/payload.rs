//! Media written into request bodies: base64 payloads and `data:` URLs as JSON strings, copied
//! once rather than escaped, and the file names documents are sent under.

use std::fmt;

use serde::Serialize;

/// `data:<mime>;base64,<data>`, written straight into the body without an intermediate string.
#[derive(Debug, Clone, Copy)]
pub struct DataUrl<'a> {
    /// The MIME type.
    pub mime: &'static str,
    /// Standard base64.
    pub data: &'a str,
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
        plain_string(serializer, &["data:", self.mime, ";base64,", self.data])
    }
}

/// Base64 data as a JSON string, written like [`DataUrl`]: megabytes copied once, not escaped.
#[derive(Debug, Clone, Copy)]
pub struct Payload<'a>(pub &'a str);

impl Serialize for Payload<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        plain_string(serializer, &[self.0])
    }
}

/// Serializes `parts`, joined, as one JSON string. A large one (base64 media) that needs no
/// escaping is handed over as a raw JSON literal: `serde_json`'s escape scan goes a byte at a time,
/// which in WebAssembly made media requests several times slower than the copy.
pub(crate) fn plain_string<S: serde::Serializer>(serializer: S, parts: &[&str]) -> Result<S::Ok, S::Error> {
    const RAW_FROM: usize = 16 * 1024;
    let len = parts.iter().map(|part| part.len()).sum::<usize>();
    let unescaped = |part: &&str| {
        if part.len() >= RAW_FROM {
            crate::base64::is_json_safe_alphabet(part)
        } else {
            part.bytes().all(|b| b >= 0x20 && b != b'"' && b != b'\\')
        }
    };
    if len < RAW_FROM || !parts.iter().all(unescaped) {
        let mut text = String::with_capacity(len);
        for part in parts {
            text.push_str(part);
        }
        return serializer.serialize_str(&text);
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
    let raw = unsafe { serde_json::value::RawValue::from_string_unchecked(literal) };
    raw.serialize(serializer)
}

/// `text` as one raw JSON value, surrounding whitespace trimmed: what
/// `serde_json::from_str::<&RawValue>` returns, without its code path. That path's error for a
/// non-string token formats floating-point numbers, which costs the npm `.wasm` about 20 KB raw
/// (docs/decisions.md, "npm size"); checking with `IgnoredAny` runs the same reader
/// (`ignore_value`, the same depth limit, trailing characters rejected) with no such error.
pub(crate) fn raw_json(text: &str) -> Option<&serde_json::value::RawValue> {
    serde_json::from_str::<serde::de::IgnoredAny>(text).ok()?;
    let json = text.trim_matches([' ', '\n', '\t', '\r']);
    // SAFETY: `RawValue` is `#[repr(transparent)]` over `str` (serde_json casts the same way in
    // `RawValue::from_borrowed`), and `json` was just read as exactly one JSON value.
    #[allow(unsafe_code)]
    Some(unsafe { &*(std::ptr::from_ref::<str>(json) as *const serde_json::value::RawValue) })
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
    use super::{DataUrl, Payload, raw_json};

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
            assert_eq!(raw_json(text).map(serde_json::value::RawValue::get), expected, "{text:?}");
        }
    }

    /// Raw or escaped, the JSON text must be what `serde_json` writes for the same string.
    #[test]
    fn payloads_serialize_as_the_plain_string_would() {
        let big = "QUJD".repeat(5_000);
        let cases = [
            (serde_json::to_string(&Payload("QUJD")), "QUJD".to_owned()),
            (serde_json::to_string(&Payload(&big)), big.clone()),
            (serde_json::to_string(&Payload(&format!("{big}\n\"x\\"))), format!("{big}\n\"x\\")),
            (serde_json::to_string(&DataUrl { mime: "image/png", data: &big }), format!("data:image/png;base64,{big}")),
            (
                serde_json::to_string(&DataUrl { mime: "image/png", data: "QQ==" }),
                "data:image/png;base64,QQ==".to_owned(),
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got.unwrap(), serde_json::to_string(&want).unwrap());
        }
        let value = serde_json::to_value(Payload(&big)).unwrap();
        assert_eq!(value, serde_json::Value::String(big));
    }
}
