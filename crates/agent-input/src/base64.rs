//! Base64 checks that never decode the whole payload.
//!
//! Payloads can be tens of megabytes, so validation is a single branch-light scan, the decoded
//! size comes from the length, and only the first few bytes are decoded for signature sniffing.

use std::borrow::Cow;

/// Why a base64 string was rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Base64Error {
    /// A character outside the standard alphabet, at this byte offset of the checked text.
    InvalidChar { offset: usize, ch: char },
    /// `=` before the end, or more than two of them.
    MisplacedPadding { offset: usize },
    /// The length (without whitespace) is not a multiple of four.
    BadLength { len: usize },
}

/// Whether `s` contains any of the whitespace characters tolerated inside base64.
pub fn has_whitespace(s: &str) -> bool {
    s.bytes().any(is_space)
}

const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// `s` without spaces and line breaks, borrowed when there are none.
pub fn strip_whitespace(s: &str) -> Cow<'_, str> {
    if has_whitespace(s) {
        Cow::Owned(s.chars().filter(|c| !c.is_ascii() || !is_space(*c as u8)).collect())
    } else {
        Cow::Borrowed(s)
    }
}

/// Whether `b` is in the standard base64 alphabet. Natively the range checks vectorize; in
/// WebAssembly (no SIMD, built for size) one table load a byte is several times faster.
#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::inline_always)] // the hot loop must see through it even at opt-level z
#[inline(always)]
const fn is_alphabet(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

#[cfg(target_arch = "wasm32")]
#[allow(clippy::inline_always)] // the hot loop must see through it even at opt-level z
#[inline(always)]
fn is_alphabet(b: u8) -> bool {
    ALPHABET_TABLE[usize::from(b)]
}

#[cfg(target_arch = "wasm32")]
static ALPHABET_TABLE: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        #[allow(clippy::cast_possible_truncation)] // b < 256
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || byte == b'+' || byte == b'/';
        b += 1;
    }
    table
};

/// Whether every byte is in the base64 alphabet or is `=`: such text never needs JSON escaping.
/// Checks 32 bytes at a time with no early exit, so the loop vectorizes.
pub fn is_json_safe_alphabet(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut chunks = bytes.chunks_exact(32);
    for chunk in &mut chunks {
        let mut ok = true;
        for &b in chunk {
            ok &= is_alphabet(b) || (b == b'=');
        }
        if !ok {
            return false;
        }
    }
    chunks.remainder().iter().all(|&b| is_alphabet(b) || b == b'=')
}

/// Checks standard (RFC 4648 §4) base64 with padding. `s` must already be free of whitespace;
/// offsets refer to `s`.
pub fn check(s: &str) -> Result<(), Base64Error> {
    let bytes = s.as_bytes();
    let body_len = bytes.len() - bytes.iter().rev().take_while(|&&b| b == b'=').count();
    let body = &bytes[..body_len];
    // Fast path: check 32 bytes at a time with no early exit, so the loop vectorizes.
    let mut chunks = body.chunks_exact(32);
    let mut bad = false;
    for chunk in &mut chunks {
        let mut ok = true;
        for &b in chunk {
            ok &= is_alphabet(b);
        }
        if !ok {
            bad = true;
            break;
        }
    }
    if bad || !chunks.remainder().iter().all(|&b| is_alphabet(b)) {
        let offset = body.iter().position(|&b| !is_alphabet(b)).unwrap_or(0);
        let ch = s[offset..].chars().next().unwrap_or('?');
        return Err(if ch == '=' {
            Base64Error::MisplacedPadding { offset }
        } else {
            Base64Error::InvalidChar { offset, ch }
        });
    }
    let padding = bytes.len() - body_len;
    if padding > 2 {
        return Err(Base64Error::MisplacedPadding { offset: body_len + 2 });
    }
    if !bytes.len().is_multiple_of(4) {
        return Err(Base64Error::BadLength { len: bytes.len() });
    }
    Ok(())
}

/// The decoded size of checked base64 text.
pub fn decoded_len(s: &str) -> usize {
    let padding = s.bytes().rev().take_while(|&b| b == b'=').count();
    (s.len() / 4) * 3 - padding.min(2)
}

/// Standard base64 with padding: what a `base64` source holds. Callers that read files (a
/// browser upload, a fetched URL) use this to inline them.
pub fn encode(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], chunk.get(1).copied().unwrap_or(0), chunk.get(2).copied().unwrap_or(0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            out.push(if i <= chunk.len() { char::from(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]) } else { '=' });
        }
    }
    out
}

/// Decodes at most the first `max` bytes of checked base64 text.
pub fn decode_head(s: &str, max: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(max + 3);
    for quad in s.as_bytes().chunks(4) {
        if out.len() >= max {
            break;
        }
        let mut acc = 0u32;
        let mut n = 0;
        for &b in quad {
            if let Some(v) = value(b) {
                acc = (acc << 6) | u32::from(v);
                n += 1;
            }
        }
        let bytes = acc.to_be_bytes();
        match n {
            4 => out.extend_from_slice(&bytes[1..4]),
            3 => out.extend_from_slice(&((acc << 6).to_be_bytes()[1..3])),
            2 => out.push((acc << 12).to_be_bytes()[1]),
            _ => {}
        }
    }
    out.truncate(max);
    out
}

const fn value(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_padded_standard_base64() {
        for s in ["", "QQ==", "QUI=", "QUJD", "aGVsbG8gd29ybGQ=", "+/+/"] {
            assert_eq!(check(s), Ok(()), "{s}");
        }
    }

    #[test]
    fn reports_first_bad_character() {
        assert_eq!(check("QU!D"), Err(Base64Error::InvalidChar { offset: 2, ch: '!' }));
        assert_eq!(check("QU-D"), Err(Base64Error::InvalidChar { offset: 2, ch: '-' }));
        assert_eq!(check("QQ==QUJD"), Err(Base64Error::MisplacedPadding { offset: 2 }));
        assert_eq!(check("QUJ"), Err(Base64Error::BadLength { len: 3 }));
        assert_eq!(check("Q==="), Err(Base64Error::MisplacedPadding { offset: 3 }));
        let long = format!("{}é", "A".repeat(40));
        assert_eq!(check(&long), Err(Base64Error::InvalidChar { offset: 40, ch: 'é' }));
    }

    #[test]
    fn encodes_rfc4648_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in vectors {
            assert_eq!(encode(plain.as_bytes()), encoded);
            assert_eq!(check(encoded), Ok(()));
            assert_eq!(decode_head(encoded, 64), plain.as_bytes());
        }
    }

    #[test]
    fn sizes_and_heads() {
        assert_eq!(decoded_len("aGVsbG8gd29ybGQ="), 11);
        assert_eq!(decoded_len("QQ=="), 1);
        assert_eq!(decoded_len(""), 0);
        assert_eq!(decode_head("aGVsbG8gd29ybGQ=", 5), b"hello");
        assert_eq!(decode_head("aGVsbG8gd29ybGQ=", 64), b"hello world");
        assert_eq!(decode_head("QQ==", 12), b"A");
        assert_eq!(strip_whitespace("QU\r\nJD"), "QUJD");
    }
}
