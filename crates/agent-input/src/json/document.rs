//! A parsed request: the tree, the text it borrows from, and the depth its parser measured.

use serde_json::Value;

use super::value::{Json, exceeds_depth};

/// `serde_json`'s own nesting limit: deeper text fails while parsing, whatever `max_depth` says.
pub const PARSER_MAX_DEPTH: usize = 128;

/// A parsed request: the tree and, when it was parsed from text, that text.
#[derive(Debug, Clone, PartialEq)]
pub struct Document<'a> {
    /// The root value. Validation takes the depth the parser measured as this tree's: build a
    /// new document rather than put another tree here.
    pub root: Json<'a>,
    /// The text the tree borrows from, when it came from text.
    pub text: Option<&'a str>,
    /// How deep the arrays and objects nest (a top-level one is 1), when the parser measured it.
    depth: Option<usize>,
}

impl<'a> Document<'a> {
    /// Parses JSON text, borrowing unescaped strings from it.
    ///
    /// # Errors
    /// `serde_json`'s error for text that is not JSON or nests deeper than 128 levels.
    pub fn parse(text: &'a str) -> Result<Self, serde_json::Error> {
        #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
        let parsed = super::parse::parse(text);
        // The browsers' npm module keeps serde_json's parser alone, for its size.
        #[cfg(not(any(not(target_arch = "wasm32"), feature = "speed")))]
        let parsed = None;
        let (root, depth) = match parsed {
            Some((root, depth)) => (root, Some(depth)),
            // What the fast parser leaves (errors, deep nesting): serde_json's tree or its error.
            None => (serde_json::from_str(text)?, None),
        };
        Ok(Self { root, text: Some(text), depth })
    }

    /// A tree over a `serde_json::Value`, borrowing its strings.
    pub fn from_value(value: &'a Value) -> Self {
        Self { root: Json::from_value(value), text: None, depth: None }
    }

    /// Whether the arrays and objects nest deeper than `max_depth`: the depth the parser measured,
    /// or else a walk of the tree.
    pub(crate) fn deeper_than(&self, max_depth: usize) -> bool {
        self.depth.map_or_else(|| exceeds_depth(&self.root, max_depth), |depth| depth > max_depth)
    }
}
