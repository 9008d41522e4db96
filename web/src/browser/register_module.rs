//! `agent-input/register`'s WebAssembly module (the registration planner), imported by
//! `register_loader.js` the first time "Deploy to `OpenSearch`" is opened, and its
//! `planRegistration` bound as JSON text both ways (`model::deploy::read_plan` reads the report).

use wasm_bindgen::prelude::*;

use super::schema_module::{Load, js_text};

#[wasm_bindgen(module = "/src/register_loader.js")]
extern "C" {
    #[wasm_bindgen(js_name = registerLoad)]
    fn register_load() -> js_sys::Promise;
    #[wasm_bindgen(js_name = registerPlan, catch)]
    fn register_plan(body: &str, version: &str, api: Option<String>) -> Result<String, JsValue>;
}

/// Loads the module (`Ready` or `Failed`); a failed load may be retried.
pub(crate) async fn load() -> Load {
    match wasm_bindgen_futures::JsFuture::from(register_load()).await {
        Ok(_) => Load::Ready,
        Err(e) => Load::Failed(js_text(&e)),
    }
}

/// `planRegistration(body, {version, api?})`'s report as JSON text; only once `load` is `Ready`.
pub(crate) fn plan(body: &str, version: &str, api: Option<&str>) -> Result<String, String> {
    register_plan(body, version, api.map(str::to_string)).map_err(|e| js_text(&e))
}
