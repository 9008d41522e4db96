//! Base64: checks that never decode the whole payload, a decoder of the few bytes read for
//! signature sniffing, and the `base64` crate for encoding.
//!
//! Payloads can be tens of megabytes, so validation is a single branch-light scan (measured
//! against the crate's decoding in `benches/base64.rs`, see docs/decisions.md), the decoded size
//! comes from the length, and only the first few bytes are decoded for signature sniffing.

use std::borrow::Cow;

use ::base64::Engine as _;

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

/// WebAssembly SIMD (`simd128`, which the npm build enables): 16 bytes a step where the
/// scalar loops below, built for size, take one. Skips the longest run of whole 16-byte blocks
/// that are all in the alphabet (and `=` when `pad`); the scalar code checks the rest, so errors
/// and their offsets come from one place.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn alphabet_prefix(bytes: &[u8], pad: bool) -> usize {
    use core::arch::wasm32::{
        i8x16_all_true, u8x16_eq, u8x16_ge, u8x16_le, u8x16_splat, v128, v128_and, v128_load, v128_or,
    };
    let mut at = 0;
    while at + 16 <= bytes.len() {
        // SAFETY: `at + 16 <= bytes.len()`, and wasm loads need no alignment.
        #[allow(unsafe_code, clippy::cast_ptr_alignment)] // `v128_load` takes any alignment
        let v = unsafe { v128_load(bytes.as_ptr().add(at).cast::<v128>()) };
        // A letter of either case, once 0x20 is set, is in `a..=z`; nothing else lands there.
        let folded = v128_or(v, u8x16_splat(0x20));
        let letter = v128_and(u8x16_ge(folded, u8x16_splat(b'a')), u8x16_le(folded, u8x16_splat(b'z')));
        let digit = v128_and(u8x16_ge(v, u8x16_splat(b'0')), u8x16_le(v, u8x16_splat(b'9')));
        let sign = v128_or(u8x16_eq(v, u8x16_splat(b'+')), u8x16_eq(v, u8x16_splat(b'/')));
        let mut ok = v128_or(v128_or(letter, digit), sign);
        if pad {
            ok = v128_or(ok, u8x16_eq(v, u8x16_splat(b'=')));
        }
        if !i8x16_all_true(ok) {
            break;
        }
        at += 16;
    }
    at
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const fn alphabet_prefix(_: &[u8], _: bool) -> usize {
    0
}

/// Whether every byte is in the base64 alphabet or is `=`: such text never needs JSON escaping.
/// Checks 32 bytes at a time with no early exit, so the loop vectorizes.
pub fn is_json_safe_alphabet(s: &str) -> bool {
    let bytes = s.as_bytes();
    let bytes = &bytes[alphabet_prefix(bytes, true)..];
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
    let mut chunks = body[alphabet_prefix(body, false)..].chunks_exact(32);
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
    ::base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// Decodes at most the first `max` bytes of checked base64 text (empty when it is not base64).
/// Only the quads those bytes come from are decoded, so sniffing a 50 MB payload reads a few
/// bytes of it.
pub fn decode_head(s: &str, max: usize) -> Vec<u8> {
    let head = &s.as_bytes()[..s.len().min(max.div_ceil(3).saturating_mul(4))];
    let mut out = decode(head).unwrap_or_default();
    out.truncate(max);
    out
}

/// The six bits a symbol of the standard alphabet stands for.
const fn sextet(b: u8) -> Option<u8> {
    match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    }
}

/// Decodes as [`check`] accepts, and as the `base64` crate does with padding optional and any
/// bits after the last byte ignored (`None` where it refuses): every quad but the last one full of
/// symbols; the last one two to four symbols, then `=` up to its end. Its own code rather than
/// the crate's: the crate's decoder was 1.3 KB gzip of the npm module, which needs only this.
fn decode(input: &[u8]) -> Option<Vec<u8>> {
    let last = input.len().saturating_sub(match input.len() % 4 {
        0 => 4,
        rem => rem,
    });
    let (body, tail) = input.split_at(last);
    let mut out = Vec::with_capacity(body.len() / 4 * 3 + 3);
    for quad in body.chunks_exact(4) {
        let mut bits = 0u32;
        for &b in quad {
            bits = bits << 6 | u32::from(sextet(b)?);
        }
        out.extend_from_slice(&bits.to_be_bytes()[1..]);
    }
    let symbols = tail.iter().take_while(|&&b| b != b'=').count();
    if !tail.is_empty() && symbols < 2 || tail[symbols..].iter().any(|&b| b != b'=') {
        return None;
    }
    let mut bits = 0u32;
    for &b in &tail[..symbols] {
        bits = bits << 6 | u32::from(sextet(b)?);
    }
    bits <<= 6 * (4 - symbols);
    out.extend_from_slice(&bits.to_be_bytes()[1..=symbols * 6 / 8]);
    Some(out)
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
        // Bits after the last byte are not checked, so not refused here either.
        assert_eq!(decode_head("QR==", 12), b"A");
        assert_eq!(decode_head("QUJDRA==", 3), b"ABC");
        assert_eq!(decode_head("not base64!", 3), b"");
        assert_eq!(strip_whitespace("QU\r\nJD"), "QUJD");
    }

    /// The `base64` crate's decoder, configured as [`check`] accepts: bits after the last byte
    /// ignored, padding optional.
    const LENIENT: ::base64::engine::GeneralPurpose = ::base64::engine::GeneralPurpose::new(
        &::base64::alphabet::STANDARD,
        ::base64::engine::GeneralPurposeConfig::new()
            .with_decode_allow_trailing_bits(true)
            .with_decode_padding_mode(::base64::engine::DecodePaddingMode::Indifferent),
    );

    #[test]
    fn decodes_as_the_crate_does() {
        // Every string of up to seven of these bytes: symbols at both ends of the alphabet,
        // padding, and bytes outside it.
        const BYTES: [u8; 7] = [b'A', b'w', b'/', b'9', b'=', b'!', b'\n'];
        let mut input = Vec::new();
        for len in 0..=7u32 {
            for mut n in 0..BYTES.len().pow(len) {
                input.clear();
                for _ in 0..len {
                    input.push(BYTES[n % BYTES.len()]);
                    n /= BYTES.len();
                }
                assert_eq!(decode(&input), LENIENT.decode(&input).ok(), "{:?}", String::from_utf8_lossy(&input));
            }
        }
        // Every byte in every place of a quad, after a valid one.
        for at in 0..4 {
            for b in 0..=255u8 {
                let mut input = *b"QUJDRA==";
                input[4 + at] = b;
                assert_eq!(decode(&input), LENIENT.decode(input).ok(), "{input:?}");
            }
        }
        let long: String = (0..3000)
            .map(|i| char::from(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"[i * 7 % 64]))
            .collect();
        assert_eq!(decode(long.as_bytes()), LENIENT.decode(&long).ok());
    }
}
