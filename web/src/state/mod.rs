//! The page's reactive state (Leptos signals), between the pure `model` and the views: the body
//! and its editors ([`Editor`]), its analysis kept current ([`Analyzer`]), and the streamed conversation
//! ([`ChatState`]).

mod analyzer;
mod chat;
mod editor;

pub(crate) use analyzer::Analyzer;
pub(crate) use chat::ChatState;
pub(crate) use editor::{Editor, EditorView};
