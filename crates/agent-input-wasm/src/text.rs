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
    let units = text.length() as usize;
    // A UTF-16 code unit becomes at most three bytes of UTF-8.
    let capacity = units * 3;
    BUFFER.with_borrow_mut(|buffer| {
        if buffer.len() < capacity {
            buffer.resize(capacity, 0);
        }
        let result = ENCODER.with(|encoder| encoder.encode_into(text, &mut buffer[..capacity]));
        debug_assert_eq!(result.read() as usize, units);
        let bytes = &buffer[..result.written() as usize];
        // encodeInto writes well-formed UTF-8 (unpaired surrogates become U+FFFD).
        let text = std::str::from_utf8(bytes).unwrap_or_default();
        f(text)
    })
}
