//! "Shrink to fit", loaded by `modules.js` the first time the button is clicked: the drawing script
//! (`shrink.js`, from `shrink/`) scales the image down in its own format and hands back JSON text
//! (`{ data, width, height, bytes, preview }` or `{ error }`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/modules.js")]
extern "C" {
    #[wasm_bindgen(js_name = shrinkToFit)]
    fn shrink_to_fit(data: &str, mime: &str, max_side: f64, max_bytes: f64, done: JsValue);
}

/// Draws the base64 image `data` (of type `mime`) within `max_side` px a side and `max_bytes`
/// (0: no limit); `done` gets the result, or why there is none (the script did not load, the
/// browser cannot write the format), once.
pub(crate) fn shrink(data: &str, mime: &str, max_side: f64, max_bytes: f64, done: impl FnOnce(String) + 'static) {
    shrink_to_fit(data, mime, max_side, max_bytes, Closure::once_into_js(done));
}
