//! `agent-input/import`'s WebAssembly module (a provider's request read into the standard one),
//! imported by `import_loader.js` the first time "Import a provider request" is opened, and its
//! `importRequest` bound as JSON text both ways (`model::import::read_report` reads the report).

use wasm_bindgen::prelude::*;

use super::schema_module::{Load, js_text};

#[wasm_bindgen(module = "/src/import_loader.js")]
extern "C" {
    #[wasm_bindgen(js_name = importLoad)]
    fn import_load() -> js_sys::Promise;
    #[wasm_bindgen(js_name = importRequest, catch)]
    fn import_request(provider: &str, body: &str) -> Result<String, JsValue>;
}

/// Loads the module (`Ready` or `Failed`); a failed load may be retried.
pub(crate) async fn load() -> Load {
    match wasm_bindgen_futures::JsFuture::from(import_load()).await {
        Ok(_) => Load::Ready,
        Err(e) => Load::Failed(js_text(&e)),
    }
}

/// `importRequest(provider, body)`'s report as JSON text; only once `load` is `Ready`.
pub(crate) fn import(provider: &str, body: &str) -> Result<String, String> {
    import_request(provider, body).map_err(|e| js_text(&e))
}
