//! The page's reactive state (Leptos signals), between the pure `model` and the views: the body
//! and its editors ([`Editor`]), and its analysis kept current ([`Analyzer`]).

mod analyzer;
mod editor;

pub(crate) use analyzer::Analyzer;
pub(crate) use editor::{Editor, EditorView};
