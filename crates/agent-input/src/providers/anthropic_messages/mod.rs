//! Anthropic Messages: the adapter, the request writer, the importer, the response reader and the stream decoder.

mod adapter;
pub(crate) mod import;
pub mod request;
pub mod response;
pub(crate) mod stream;
