//! The playground's pure logic: no Leptos, no web-sys, tested natively with `cargo test`.
//! The body is a `serde_json::Value` edited at JSON Pointers; everything the panes show is
//! computed from it here.

pub(crate) mod analysis;
pub(crate) mod backend;
pub(crate) mod chat;
pub(crate) mod deploy;
pub(crate) mod display;
pub(crate) mod examples;
pub(crate) mod export;
pub(crate) mod input_form;
pub(crate) mod jsonpos;
pub(crate) mod location;
pub(crate) mod media;
pub(crate) mod models;
pub(crate) mod placeholders;
pub(crate) mod pointer;
pub(crate) mod reasoning;
pub(crate) mod schema;
pub(crate) mod settings;
pub(crate) mod share;
pub(crate) mod shrink;
pub(crate) mod text_offsets;
pub(crate) mod tools;
pub(crate) mod verdict;
