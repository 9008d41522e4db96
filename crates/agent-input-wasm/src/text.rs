//! Moving JavaScript strings into wasm memory fast, and long text back out.
//!
//! wasm-bindgen's own string conversion copies ASCII one character at a time in a JavaScript
//! loop before it falls back to `TextEncoder.encodeInto`: about 4 ms per megabyte, most of the
//! cost of a request carrying a multi-megabyte image. `encodeInto` straight into a buffer kept
//! from call to call does the same in a few hundredths of that. Text over the body limit is
//! measured a window at a time and never copied whole.

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

/// Calls `f` with `text` as a `&str` in wasm memory, whatever its size.
#[cfg(any(feature = "agui", feature = "import", feature = "register", feature = "response", feature = "schema"))]
pub(crate) fn with_str<R>(text: &JsString, f: impl FnOnce(&str) -> R) -> R {
    with_str_within(text, usize::MAX, |text| f(text.unwrap_or_default()))
}

/// Calls `f` with `text` as a `&str` in wasm memory (`Ok`), or, when its UTF-8 is longer than
/// `max` bytes, with `Err` of that length, having copied none of it: a limit is checked before
/// the copy it protects.
pub(crate) fn with_str_within<R>(text: &JsString, max: usize, f: impl FnOnce(Result<&str, usize>) -> R) -> R {
    BUFFER.with_borrow_mut(|buffer| f(read_within(text, max, buffer)))
}

/// [`with_str_within`]'s reading, not generic: one copy in the module, not one per caller.
fn read_within<'b>(text: &JsString, max: usize, buffer: &'b mut Vec<u8>) -> Result<&'b str, usize> {
    let length = text.length();
    let units = length as usize;
    let written = ENCODER.with(|encoder| {
        // UTF-8 takes 1 to 3 bytes per UTF-16 code unit (4 per surrogate pair): text of at most
        // `max / 3` units fits, text of more than `max` does not; in between, count first.
        if units > max / 3 {
            let bytes = utf8_len(encoder, text, buffer);
            if bytes > max {
                return Err(bytes);
            }
        }
        // Request text is mostly ASCII, one byte per UTF-16 code unit: try that first, and
        // give what is left, if anything, the three bytes a unit can take.
        let first = encoder.encode_into(text, grown(buffer, units));
        let mut written = first.written() as usize;
        if first.read() < length {
            let rest = text.slice(first.read(), length);
            let end = written + rest.length() as usize * 3;
            written += encoder.encode_into(&rest, &mut grown(buffer, end)[written..]).written() as usize;
        }
        Ok(written)
    })?;
    // encodeInto writes well-formed UTF-8 (an unpaired surrogate becomes U+FFFD).
    #[cfg(feature = "speed")]
    let text = simdutf8::basic::from_utf8(&buffer[..written]).ok();
    #[cfg(not(feature = "speed"))]
    let text = std::str::from_utf8(&buffer[..written]).ok();
    Ok(text.unwrap_or_default())
}

/// The length of `text` in UTF-8 (as `encodeInto` writes it), encoded a window at a time into the
/// start of `buffer`, so measuring a string of any size grows wasm memory by at most the window.
fn utf8_len(encoder: &Encoder, text: &JsString, buffer: &mut Vec<u8>) -> usize {
    const WINDOW: usize = 256 * 1024;
    let length = text.length();
    let window = grown(buffer, WINDOW);
    let (mut read, mut bytes) = (0, 0);
    while read < length {
        // encodeInto stops before a character that does not fit, never inside a surrogate pair.
        let step = encoder.encode_into(&text.slice(read, length), window);
        if step.read() == 0 {
            break;
        }
        read += step.read();
        bytes += step.written() as usize;
    }
    bytes
}

/// `text` as a JavaScript string. Text over [`PIECE`] bytes is decoded a piece at a time and the
/// pieces joined with `concat`, which makes a rope (what `JSON.stringify` returns for long output
/// too): V8 puts a flat string of 128 KiB or more in its large-object space, and that allocation
/// cost ten times the decoding of a 250 KB body (docs/decisions/npm.md, "A module for
/// Node built for speed"). The string is the same either way.
#[cfg(any(feature = "base", feature = "import"))]
pub(crate) fn js_string(text: &str) -> JsValue {
    /// At most 32 Ki characters, so at most 64 KiB even as a two-byte string.
    const PIECE: usize = 32 * 1024;
    if text.len() <= PIECE {
        return JsValue::from_str(text);
    }
    let mut joined: Option<JsString> = None;
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = rest.len().min(PIECE);
        while !rest.is_char_boundary(end) {
            end -= 1;
        }
        let (piece, tail) = rest.split_at(end);
        let piece = JsString::from(piece);
        joined = Some(match joined {
            Some(head) => head.concat(&piece),
            None => piece,
        });
        rest = tail;
    }
    joined.map_or_else(|| JsValue::from_str(""), JsValue::from)
}

/// A body written with marks where payloads of `source` go (`spans`: start and length of each in
/// `source`'s code units, a pair each, in the order of the marks), as one JavaScript string:
/// the text between the marks decoded, the payloads sliced from `source`, joined with `concat`.
#[cfg(all(feature = "import", feature = "speed"))]
pub(crate) fn spliced(body: &str, source: &JsString, spans: &[u32]) -> JsString {
    // Only the marks the spans are for: a body written whole has none, and keeps any mark text
    // its tool arguments hold.
    let (mut joined, mut at) = (JsString::from(""), 0);
    for (span, mark) in spans.chunks_exact(2).zip(agent_input::convert::marks(body)) {
        joined = joined.concat(&js_string(&body[at..mark])).concat(&source.slice(span[0], span[0] + span[1]));
        at = mark + agent_input::convert::MARK.len();
    }
    joined.concat(&js_string(&body[at..]))
}

/// The first `len` bytes of the buffer, growing it if needed.
fn grown(buffer: &mut Vec<u8>, len: usize) -> &mut [u8] {
    if buffer.len() < len {
        buffer.resize(len, 0);
    }
    &mut buffer[..len]
}

#[cfg(feature = "base")]
/// The payloads the last `convertJson` left out of its body, for the entry modules' splice
/// (npm/splice.js): start and length in the request string's code units, a pair each.
#[wasm_bindgen(js_name = takeSplices, skip_typescript)]
#[must_use]
#[allow(unreachable_pub)] // exported to JavaScript, not to Rust
pub fn take_splices() -> Vec<u32> {
    crate::api::take_splices()
}
