//! `OpenAI` Chat Completions: the adapter, the request writer, the importer, the response reader and the stream decoder.

mod adapter;
pub(crate) mod import;
pub(crate) mod mlcommons;
pub mod request;
pub mod response;
pub(crate) mod stream;
