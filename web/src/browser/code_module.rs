//! "Copy as code", loaded by `modules.js` the first time one is opened: the view's script
//! (`code_view.js`, from `export/`) draws the copy buttons and the code into the host element and
//! asks the app what the request is each time (`model::export`'s facts, as JSON text).

use wasm_bindgen::prelude::*;

use super::schema_module::{Load, js_text};

#[wasm_bindgen(module = "/src/modules.js")]
extern "C" {
    #[wasm_bindgen(js_name = codeOpen)]
    fn code_open(
        host: &web_sys::Element,
        testid: &str,
        what: &str,
        make: &Closure<dyn FnMut() -> String>,
    ) -> js_sys::Promise;
}

/// Loads the view into `host` (`Ready` or `Failed`); a failed load may be retried. `make` returns
/// the request's facts (`{"ok": …}` or `{"error": why}`, JSON text).
pub(crate) async fn open(
    host: &web_sys::Element,
    testid: &str,
    what: &str,
    make: impl FnMut() -> String + 'static,
) -> Load {
    let make = Closure::<dyn FnMut() -> String>::new(make);
    let opened = wasm_bindgen_futures::JsFuture::from(code_open(host, testid, what, &make)).await;
    // The view keeps calling it for as long as the page lives.
    make.forget();
    match opened {
        Ok(_) => Load::Ready,
        Err(e) => Load::Failed(js_text(&e)),
    }
}
