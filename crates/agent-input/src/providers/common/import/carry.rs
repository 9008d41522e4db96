//! The keys of a provider's message, block or call that the standard form has no place for,
//! carried as that element's provider fields (`providerFields`), so the same provider gets them
//! back where they were. A key whose element was not added (an empty text, a block refused) is
//! left out with a warning, as before: nothing is attached to the wrong element.

use serde_json::{Map, Value};

use crate::path::Path;

use super::builder::{Import, carries_nothing};

/// How many messages the standard input holds, and the last one's content blocks and tool calls:
/// taken before an element is read, to tell whether it added one.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Tally {
    messages: usize,
    blocks: usize,
    calls: usize,
}

impl Import {
    /// Where the standard messages stand now.
    pub(crate) fn tally(&self) -> Tally {
        let last = self.messages.last();
        let len = |key: &str| last.and_then(|m| m.get(key)).and_then(Value::as_array).map_or(0, Vec::len);
        Tally { messages: self.messages.len(), blocks: len("content"), calls: len("toolCalls") }
    }

    /// Whether a content block (`calls`: a tool call) was added since `before`.
    fn added(&self, before: Tally, calls: bool) -> bool {
        let now = self.tally();
        let (was, is) = if calls { (before.calls, now.calls) } else { (before.blocks, now.blocks) };
        if now.messages == before.messages { is > was } else { is > 0 }
    }

    /// Each key of `object` (at `at`) but `known`: a provider field of the content block added
    /// since `before`; left out with a warning when none was.
    pub(crate) fn block_keys(&mut self, before: Tally, object: &Map<String, Value>, at: &Path, known: &[&str]) {
        let carried = self.added(before, false);
        self.keys(object, at, known, carried, Self::block_field);
    }

    /// Each key of `object` (at `at`) but `known`: a provider field of the tool call added since
    /// `before`; left out with a warning when none was.
    pub(crate) fn call_keys(&mut self, before: Tally, object: &Map<String, Value>, at: &Path, known: &[&str]) {
        let carried = self.added(before, true);
        self.keys(object, at, known, carried, Self::call_field);
    }

    /// Each key of `object` (at `at`) but `known`: a provider field of the current standard
    /// message, which the caller has opened for it.
    pub(crate) fn message_keys(&mut self, object: &Map<String, Value>, at: &Path, known: &[&str]) {
        self.keys(object, at, known, true, Self::message_field);
    }

    fn keys(
        &mut self,
        object: &Map<String, Value>,
        at: &Path,
        known: &[&str],
        carried: bool,
        carry: fn(&mut Self, &str, &Value, &Path),
    ) {
        for (key, value) in object {
            if known.contains(&key.as_str()) || carries_nothing(value) {
                continue;
            }
            if carried {
                carry(self, key, value, at);
            } else {
                self.other_key(key, value, at);
            }
        }
    }
}
