//! "Deploy to `OpenSearch`", loaded by `modules.js` the first time the view is opened:
//! `agent-input/register`'s WebAssembly module (the registration planner) and the view's script
//! draw the view into the host element; the app hands it what the conversion settings give the
//! registration body, and writes each plan's curl script with the core's writer.

use wasm_bindgen::prelude::*;

use super::schema_module::{Load, js_text};

#[wasm_bindgen(module = "/src/modules.js")]
extern "C" {
    #[wasm_bindgen(js_name = deployOpen)]
    fn deploy_open(host: &web_sys::Element, curl: &Closure<dyn FnMut(String, String) -> String>) -> js_sys::Promise;
    #[wasm_bindgen(js_name = deploySettings)]
    fn deploy_settings(facts: &str);
}

/// Loads the view into `host` (`Ready` or `Failed`); a failed load may be retried. `curl` gets
/// `planRegistration`'s report (JSON text) and the version, and returns the plan's curl script.
pub(crate) async fn open(host: &web_sys::Element, curl: impl FnMut(String, String) -> String + 'static) -> Load {
    let curl = Closure::<dyn FnMut(String, String) -> String>::new(curl);
    let opened = wasm_bindgen_futures::JsFuture::from(deploy_open(host, &curl)).await;
    // The view keeps calling it for as long as the page lives.
    curl.forget();
    match opened {
        Ok(_) => Load::Ready,
        Err(e) => Load::Failed(js_text(&e)),
    }
}

/// What the conversion settings give the registration body (`model::deploy::facts`), as JSON text.
pub(crate) fn settings(facts: &str) {
    deploy_settings(facts);
}
