//! Moving JavaScript strings into wasm memory fast.
//!
//! wasm-bindgen's own string conversion copies ASCII one character at a time in a JavaScript
//! loop before it falls back to `TextEncoder.encodeInto`: about 4 ms per megabyte, most of the
//! cost of a request carrying a multi-megabyte image. `encodeInto` straight into a buffer kept
//! from call to call does the same in a few hundredths of that.

use std::cell::RefCell;

use js_sys::JsString;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The platform's `TextEncoder` (UTF-8).
    #[wasm_bindgen(js_name = TextEncoder)]
    type Encoder;

    #[wasm_bindgen(constructor, js_class = "TextEncoder")]
    fn new() -> Encoder;

    /// Writes `source` as UTF-8 into `destination`, which is a view of wasm memory.
    #[wasm_bindgen(method, js_class = "TextEncoder", js_name = encodeInto)]
    fn encode_into(this: &Encoder, source: &JsString, destination: &mut [u8]) -> EncodeResult;

    /// `{ read, written }`
    type EncodeResult;

    #[wasm_bindgen(method, getter)]
    fn read(this: &EncodeResult) -> u32;

    #[wasm_bindgen(method, getter)]
    fn written(this: &EncodeResult) -> u32;
}

thread_local! {
    static ENCODER: Encoder = Encoder::new();
    /// The UTF-8 of the last string read, kept for the next: it only ever grows, and wasm memory
    /// never shrinks anyway.
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Calls `f` with `text` as a `&str` in wasm memory.
pub(crate) fn with_str<R>(text: &JsString, f: impl FnOnce(&str) -> R) -> R {
    let length = text.length();
    let units = length as usize;
    BUFFER.with_borrow_mut(|buffer| {
        let written = ENCODER.with(|encoder| {
            // Request text is mostly ASCII, one byte per UTF-16 code unit: try that first, and
            // give what is left, if anything, the three bytes a unit can take.
            let first = encoder.encode_into(text, grown(buffer, units));
            let mut written = first.written() as usize;
            if first.read() < length {
                let rest = text.slice(first.read(), length);
                let end = written + rest.length() as usize * 3;
                written += encoder.encode_into(&rest, &mut grown(buffer, end)[written..]).written() as usize;
            }
            written
        });
        // encodeInto writes well-formed UTF-8 (an unpaired surrogate becomes U+FFFD).
        f(std::str::from_utf8(&buffer[..written]).unwrap_or_default())
    })
}

/// The first `len` bytes of the buffer, growing it if needed.
fn grown(buffer: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if buffer.len() < len {
        buffer.resize(len, 0);
    }
    &mut buffer[..len]
}
