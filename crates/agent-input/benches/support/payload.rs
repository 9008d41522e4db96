//! The benches' media: deterministic pseudo-random bytes, so every run converts the same input.

/// A PNG's signature.
#[allow(dead_code, reason = "not every bench sends images")]
pub(crate) const PNG: &[u8] = b"\x89PNG\r\n\x1a\n";
/// A PDF's signature.
#[allow(dead_code, reason = "not every bench sends documents")]
pub(crate) const PDF: &[u8] = b"%PDF-1.7\n";

/// `len` bytes starting with `signature` (a real one, so format sniffing passes; or none),
/// base64-encoded.
pub(crate) fn payload(signature: &[u8], len: usize, seed: u64) -> String {
    let mut bytes = Vec::with_capacity(len + 8);
    bytes.extend_from_slice(signature);
    let mut x = seed | 1;
    while bytes.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes.truncate(len);
    agent_input::base64::encode(&bytes)
}
