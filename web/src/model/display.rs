//! How views show values: long base64 shortened to its start and length (in a tree, or while
//! scanning compact JSON text), and byte counts for people.

use std::fmt::Write as _;

use serde_json::Value;

/// Strings longer than this that look like base64 are shortened in views.
pub(crate) const SHORTEN_OVER: usize = 256;
/// How much of a shortened string is kept.
pub(crate) const SHORTEN_KEEP: usize = 48;

fn looks_like_base64(s: &str) -> bool {
    s.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'-' | b'_' | b'\n' | b'\r'))
}

/// A long base64 string as views show it: its start and its length. A `data:…;base64,` URL (the
/// `OpenAI` providers' media) keeps its prefix and has its payload shortened.
pub(crate) fn shorten_str(s: &str) -> Option<String> {
    if s.len() <= SHORTEN_OVER {
        return None;
    }
    let at = data_url_payload(s).unwrap_or(0);
    let payload = &s[at..];
    (payload.len() > SHORTEN_OVER && looks_like_base64(payload)).then(|| {
        let mut short = s[..at].to_owned();
        push_shortened(&mut short, &payload[..SHORTEN_KEEP], payload.len());
        short
    })
}

/// A payload as views show it: its first [`SHORTEN_KEEP`] characters (`head`, as the text being
/// written needs them) and its length.
pub(crate) fn push_shortened(out: &mut String, head: &str, len: usize) {
    let _ = write!(out, "{head}… [{len} base64 characters]");
}

/// Where the payload of a `data:<mime>;base64,` URL starts.
fn data_url_payload(s: &str) -> Option<usize> {
    let head = s.as_bytes().get(..s.len().min(SHORTEN_OVER))?;
    let comma = head.iter().position(|&b| b == b',')?;
    (head.starts_with(b"data:") && head[..comma].ends_with(b";base64")).then_some(comma + 1)
}

/// Where a string literal starting at `rest` is one of `known` (base64 text already checked), as
/// is or after a `data:…;base64,` prefix: (prefix length, payload length). Its first and last 64
/// bytes, its length and its closing quote are compared, so megabytes are not scanned again.
fn known_literal(rest: &str, known: &[&str]) -> Option<(usize, usize)> {
    let at = data_url_payload(rest).unwrap_or(0);
    let bytes = rest.as_bytes();
    known.iter().find_map(|p| {
        let (n, end) = (p.len(), at + p.len());
        (n > SHORTEN_OVER
            && bytes.get(end) == Some(&b'"')
            && bytes[at..at + 64] == p.as_bytes()[..64]
            && bytes[end - 64..end] == p.as_bytes()[n - 64..])
            .then_some((at, n))
    })
}

/// Shortens every long base64 string literal in JSON text, as [`shorten`] does in a tree.
/// Literals that are one of `known` (base64 text already checked, e.g. the validated request's
/// payloads) are shortened without scanning them.
pub(crate) fn shorten_json_text(text: &str, known: &[&str]) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len().min(1 << 16));
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'"' {
            i += 1;
            continue;
        }
        let start = i + 1;
        if let Some((at, n)) = known_literal(&text[start..], known) {
            let end = start + at + n;
            let is_key = bytes[end + 1..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':');
            if !is_key {
                let payload = &text[start + at..end];
                out.push_str(&text[copied..start + at]);
                push_shortened(&mut out, &payload[..SHORTEN_KEEP], n);
                copied = end;
            }
            i = end + 1;
            continue;
        }
        let mut end = start;
        let mut escaped = false;
        while end < bytes.len() && bytes[end] != b'"' {
            if bytes[end] == b'\\' {
                escaped = true;
                end += 1;
            }
            end += 1;
        }
        let end = end.min(bytes.len());
        // Object keys stay whole, as in the tree.
        let is_key = bytes[(end + 1).min(bytes.len())..].iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':');
        if !escaped
            && !is_key
            && let Some(short) = shorten_str(&text[start..end])
        {
            out.push_str(&text[copied..start]);
            out.push_str(&short);
            copied = end;
        }
        i = end + 1;
    }
    out.push_str(&text[copied..]);
    out
}

/// Shortens every long base64 string in a value, in place.
pub(crate) fn shorten(value: &mut Value) {
    match value {
        Value::String(s) => {
            if let Some(short) = shorten_str(s) {
                *s = short;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(shorten),
        Value::Object(map) => map.values_mut().for_each(shorten),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Formats a byte count for people.
pub(crate) fn human_bytes(n: usize) -> String {
    if n < 1024 {
        format!("{n} B")
    } else if n < 1024 * 1024 {
        format!("{} KB", ratio(n as u64, 1024, 1))
    } else {
        format!("{} MB", ratio(n as u64, 1024 * 1024, 2))
    }
}

/// `num / den` with `decimals` digits, rounded half to even as `format!("{:.N}")` rounds the
/// same exact value. Integer arithmetic: the playground formats no float with `{:.N}`, which
/// would link `core::fmt`'s float formatting (about 5 KB gzip of code and tables) into the first
/// download.
fn ratio(num: u64, den: u64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals);
    let (mut units, rest) = (num * scale / den, num * scale % den);
    if rest * 2 > den || (rest * 2 == den && units % 2 == 1) {
        units += 1;
    }
    let (whole, fraction) = (units / scale, units % scale);
    if decimals == 0 { format!("{whole}") } else { format!("{whole}.{fraction:0width$}", width = decimals as usize) }
}

/// A non-negative time or size shown with `decimals` digits (0 to 3), as `format!("{:.N}")`
/// shows it but for ties, which round up; not a number shows as 0.
pub(crate) fn fixed(value: f64, decimals: u32) -> String {
    let scale = 10u32.pow(decimals.min(3));
    // Saturating: negative and NaN become 0, huge values u64::MAX.
    let units = (value * f64::from(scale) + 0.5) as u64;
    ratio(units, u64::from(scale), decimals.min(3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_for_people() {
        assert_eq!(human_bytes(1023), "1023 B");
        assert_eq!(human_bytes(1536), "1.5 KB");
        assert_eq!(human_bytes(5 * 1024 * 1024), "5.00 MB");
        // As `{:.N}` formats the same values, ties to even included.
        #[allow(clippy::cast_precision_loss)]
        for n in (1024..3 * 1024 * 1024).step_by(997).chain([1280, 1152, 1024 * 1024 + 5 * 1024 * 1024 / 1000]) {
            let expected = if n < 1024 * 1024 {
                format!("{:.1} KB", n as f64 / 1024.0)
            } else {
                format!("{:.2} MB", n as f64 / (1024.0 * 1024.0))
            };
            assert_eq!(human_bytes(n), expected, "{n}");
        }
        assert_eq!(fixed(12.34, 1), "12.3");
        assert_eq!(fixed(0.05, 1), "0.1");
        assert_eq!(fixed(1234.5, 0), "1235");
        assert_eq!(fixed(9.96, 1), "10.0");
        assert_eq!(fixed(f64::NAN, 1), "0.0");
        assert_eq!(fixed(-3.0, 0), "0");
    }

    #[test]
    fn data_urls_keep_their_prefix() {
        let data = format!("iVBORw0KGgoA{}", "A".repeat(388));
        let url = format!("data:image/png;base64,{data}");
        assert_eq!(shorten_str(&url), Some(format!("data:image/png;base64,{}… [400 base64 characters]", &data[..48])));
        let text = format!(r#"{{"image_url":{{"url":"{url}"}}}}"#);
        assert_eq!(
            shorten_json_text(&text, &[]),
            format!(r#"{{"image_url":{{"url":"data:image/png;base64,{}… [400 base64 characters]"}}}}"#, &data[..48])
        );
        // Known payloads are shortened the same way without being scanned.
        assert_eq!(shorten_json_text(&text, &[data.as_str()]), shorten_json_text(&text, &[]));
        let bare = format!(r#"{{"bytes":"{data}","other":"{}"}}"#, "B".repeat(300));
        assert_eq!(shorten_json_text(&bare, &[data.as_str()]), shorten_json_text(&bare, &[]));
        // Not base64 after the comma, or not a data URL: unchanged.
        assert_eq!(shorten_str(&format!("data:text/plain,{}", "é".repeat(200))), None);
        assert_eq!(shorten_str(&format!("data:image/png;base64,{}", "A".repeat(200))), None);
        assert_eq!(shorten_str(&format!("https://example.com/{}", "a".repeat(300))), None);
    }
}
