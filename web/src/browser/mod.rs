//! Browser bindings: everything that talks to JavaScript or the page's environment (fetch,
//! localStorage, the clipboard, files, the schema module's JavaScript). No views here; the
//! pure logic they feed lives in `model`.

pub(crate) mod clipboard;
pub(crate) mod files;
pub(crate) mod http;
pub(crate) mod schema_module;
pub(crate) mod storage;

/// Milliseconds from the page's performance clock (0 where there is none).
pub(crate) fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// This page's origin (`http://127.0.0.1:9200`), or empty.
pub(crate) fn origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}
