//! Browser bindings: everything that talks to JavaScript or the page's environment (fetch,
//! localStorage, the clipboard, files, the JavaScript of the modules and views loaded on demand). No views here; the
//! pure logic they feed lives in `model`.

pub(crate) mod clipboard;
pub(crate) mod code_module;
pub(crate) mod files;
pub(crate) mod http;
pub(crate) mod import_module;
pub(crate) mod json_editor;
pub(crate) mod page;
pub(crate) mod register_module;
pub(crate) mod schema_module;
pub(crate) mod shrink_module;
pub(crate) mod storage;
