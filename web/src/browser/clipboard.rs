//! The clipboard: writing text (the share link, the whole request, the curl command).

/// Writes `text` to the clipboard; `Err` when the browser refuses.
pub(crate) async fn write_text(text: &str) -> Result<(), ()> {
    let Some(window) = web_sys::window() else { return Err(()) };
    wasm_bindgen_futures::JsFuture::from(window.navigator().clipboard().write_text(text))
        .await
        .map(|_| ())
        .map_err(|_| ())
}
