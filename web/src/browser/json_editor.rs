//! The JSON editor's line numbers and bracket matching (`json_editor.js`), loaded by `modules.js`
//! the first time the JSON tab is shown.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(module = "/src/modules.js")]
extern "C" {
    #[wasm_bindgen(js_name = jsonEditorOpen)]
    fn json_editor_open(textarea: &web_sys::HtmlTextAreaElement);
    #[wasm_bindgen(js_name = jsonEditorRefresh)]
    fn json_editor_refresh();
}

/// Numbers the lines of `textarea` and matches its brackets (once; the script is fetched then).
pub(crate) fn open(textarea: &web_sys::HtmlTextAreaElement) {
    json_editor_open(textarea);
}

/// The text was set by the app, not typed: the line numbers and marks follow.
pub(crate) fn refresh() {
    json_editor_refresh();
}
