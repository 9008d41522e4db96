//! `agent-input/schema`'s WebAssembly module (the JSON Schema validator), imported by
//! `modules.js` the first time the schema editor is turned on, and its two calls bound to
//! `model::schema::SchemaModule`.

use wasm_bindgen::prelude::*;

use crate::model::schema::SchemaModule;

#[wasm_bindgen(module = "/src/modules.js")]
extern "C" {
    #[wasm_bindgen(js_name = schemaLoad)]
    fn schema_load() -> js_sys::Promise;
    #[wasm_bindgen(js_name = schemaCheck, catch)]
    fn schema_check(schema: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(js_name = schemaFormat, catch)]
    fn schema_format(body: &str, schema: &str, allow_prefill: bool) -> Result<String, JsValue>;
}

/// Where the schema module is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Load {
    NotLoaded,
    Loading,
    Ready,
    Failed(String),
}

/// The loaded module (only reachable through a `Load::Ready`).
pub(crate) struct Loaded;

impl Load {
    /// The module, when it is loaded.
    pub(crate) fn module(&self) -> Option<&'static dyn SchemaModule> {
        (*self == Load::Ready).then_some(&Loaded as &'static dyn SchemaModule)
    }
}

impl SchemaModule for Loaded {
    fn check(&self, schema: &str) -> Result<String, String> {
        schema_check(schema).map_err(|e| js_text(&e))
    }

    fn format(&self, body: &str, schema: &str, allow_prefill: bool) -> Result<String, String> {
        schema_format(body, schema, allow_prefill).map_err(|e| js_text(&e))
    }
}

/// Loads the module (`Loading`, then `Ready` or `Failed`); a failed load may be retried.
pub(crate) async fn load() -> Load {
    match wasm_bindgen_futures::JsFuture::from(schema_load()).await {
        Ok(_) => Load::Ready,
        Err(e) => Load::Failed(js_text(&e)),
    }
}

pub(super) fn js_text(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}
