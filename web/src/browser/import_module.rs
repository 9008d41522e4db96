//! "Import a provider request", loaded by `modules.js` the first time the view is opened:
//! `agent-input/import`'s WebAssembly module and the view's script draw the view into the host
//! element and hand each import's standard request back as JSON text.

use wasm_bindgen::prelude::*;

use super::schema_module::{Load, js_text};

#[wasm_bindgen(module = "/src/modules.js")]
extern "C" {
    #[wasm_bindgen(js_name = importOpen)]
    fn import_open(host: &web_sys::Element, apply: &Closure<dyn FnMut(String)>) -> js_sys::Promise;
}

/// Loads the view into `host` (`Ready` or `Failed`); a failed load may be retried. `apply` gets
/// each import's standard request as JSON text.
pub(crate) async fn open(host: &web_sys::Element, apply: impl FnMut(String) + 'static) -> Load {
    let apply = Closure::<dyn FnMut(String)>::new(apply);
    let opened = wasm_bindgen_futures::JsFuture::from(import_open(host, &apply)).await;
    // The view keeps calling it for as long as the page lives.
    apply.forget();
    match opened {
        Ok(_) => Load::Ready,
        Err(e) => Load::Failed(js_text(&e)),
    }
}
