//! Escaped strings a writer can copy from the request text as they stand there.

/// A string the parser decoded from escapes that are all as `serde_json` writes them, so writing
/// the decoded text gives back the literal as it stands in the request: the decoded text by its
/// address and length, and the literal between its quotes. Only strings the tree owns are
/// listed; those it borrows are slices of the text anyway.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Literal<'a> {
    pub(crate) address: usize,
    pub(crate) len: usize,
    pub(crate) raw: &'a str,
}

#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
impl<'a> Literal<'a> {
    /// Shorter strings are not listed: writing them costs less than taking them from the text.
    pub(crate) const FROM: usize = 32;

    pub(crate) fn new(decoded: &str, raw: &'a str) -> Self {
        Self { address: decoded.as_ptr() as usize, len: decoded.len(), raw }
    }
}
