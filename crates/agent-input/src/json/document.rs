//! A parsed request: the tree, the text it borrows from, and the depth its parser measured.

use serde_json::Value;

use super::literal::Literal;
use super::value::{Json, exceeds_depth};

/// `serde_json`'s own nesting limit: deeper text fails while parsing, whatever `max_depth` says.
pub const PARSER_MAX_DEPTH: usize = 128;

/// A parsed request: the tree and, when it was parsed from text, that text.
#[derive(Debug)]
pub struct Document<'a> {
    /// The root value. Validation takes the depth the parser measured as this tree's: build a
    /// new document rather than put another tree here.
    pub root: Json<'a>,
    /// The text the tree borrows from, when it came from text.
    pub text: Option<&'a str>,
    /// How deep the arrays and objects nest (a top-level one is 1), when the parser measured it.
    depth: Option<usize>,
    /// The escaped strings of the tree that a writer can take from the text as they stand there.
    literals: Vec<Literal<'a>>,
}

/// A copy owns new strings, at other addresses: it lists no literals.
impl Clone for Document<'_> {
    fn clone(&self) -> Self {
        Self { root: self.root.clone(), text: self.text, depth: self.depth, literals: Vec::new() }
    }
}

/// The same tree from the same text; where the strings lie does not count.
impl PartialEq for Document<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.root == other.root && self.text == other.text && self.depth == other.depth
    }
}

impl<'a> Document<'a> {
    /// Parses JSON text, borrowing unescaped strings from it.
    ///
    /// # Errors
    /// `serde_json`'s error for text that is not JSON or nests deeper than 128 levels.
    pub fn parse(text: &'a str) -> Result<Self, serde_json::Error> {
        // The browsers' npm module keeps serde_json's parser alone, for its size.
        #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
        if let Some(parsed) = super::parse::parse(text) {
            let super::parse::Parsed { root, depth, literals } = parsed;
            return Ok(Self { root, text: Some(text), depth: Some(depth), literals });
        }
        // What the fast parser leaves (errors, deep nesting): serde_json's tree or its error.
        Ok(Self { root: serde_json::from_str(text)?, text: Some(text), depth: None, literals: Vec::new() })
    }

    /// A tree over a `serde_json::Value`, borrowing its strings.
    pub fn from_value(value: &'a Value) -> Self {
        Self { root: Json::from_value(value), text: None, depth: None, literals: Vec::new() }
    }

    /// The escaped strings of the tree that can be taken from the text as they stand there (see
    /// [`Literal`]), for a [`Splice`](crate::convert::Splice). Valid while the tree is.
    pub fn literals(&self) -> &[Literal<'a>] {
        &self.literals
    }

    /// Whether the arrays and objects nest deeper than `max_depth`: the depth the parser measured,
    /// or else a walk of the tree.
    pub(crate) fn deeper_than(&self, max_depth: usize) -> bool {
        self.depth.map_or_else(|| exceeds_depth(&self.root, max_depth), |depth| depth > max_depth)
    }
}
