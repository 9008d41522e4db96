//! What every request importer builds on: the standard messages being built, each block, call and
//! option with the place in the provider's body it came from; the conversion options the body
//! implies; and the report, at paths into that body. Nothing here knows a particular provider;
//! each provider's `import` reads its own body through it and `import` dispatches to them.
//!
//! The rule every importer follows: what the standard input and its options cannot carry is a
//! warning (`import_dropped`) at the field left out; what would change the conversation's meaning
//! if left out is an error (`import_unsupported`); nothing is left out silently.
//!
//! Reasoning in an assistant turn becomes that message's `reasoningState`, gathered as the
//! provider's response reader gathers it ([`StateItems`]), so the provider's request writer puts
//! it back where it was.

mod builder;
mod carry;
mod fields;
mod media;
mod tools;

pub(crate) use builder::*;
pub(crate) use carry::extra;
pub(crate) use media::{Media, from_data_url, from_extension, from_mime};
pub(crate) use tools::{SpecFields, ToolRead, own_fields};
