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
        for (key, value) in extra(object, known) {
            if carried {
                carry(self, key, value, at);
            } else {
                self.other_key(key, value, at);
            }
        }
    }
}

/// The fields of `object` but `read`, each with a value (`null`, `[]` and `{}` carry nothing and
/// are passed over): a provider's own fields of the element read from it.
pub(crate) fn extra<'v>(object: &'v Map<String, Value>, read: &[&str]) -> Vec<(&'v str, &'v Value)> {
    object
        .iter()
        .filter(|(k, v)| !read.contains(&k.as_str()) && !carries_nothing(v))
        .map(|(k, v)| (k.as_str(), v))
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use crate::path::Path;
    use crate::providers::common::import::Import;
    use crate::providers::id::ProviderId;

    fn object(value: &Value) -> &serde_json::Map<String, Value> {
        value.as_object().expect("an object")
    }

    #[test]
    fn a_key_goes_with_the_block_just_added_and_is_left_out_without_one() {
        let mut im = Import::new(ProviderId::AnthropicMessages);
        let at = Path::root().key("messages").index(0).key("content");
        im.open("user", &Path::root());
        let kept = json!({"type": "text", "text": "Hi", "cache_control": {"type": "ephemeral"}});
        let before = im.tally();
        im.text("Hi", &at.index(0));
        im.block_keys(before, object(&kept), &at.index(0), &["type", "text"]);
        // An empty text adds no block: its key must not land on the block before it.
        let empty = json!({"type": "text", "text": "", "citations": [1]});
        let before = im.tally();
        im.text("", &at.index(1));
        im.block_keys(before, object(&empty), &at.index(1), &["type", "text"]);
        let request = im.request();
        assert_eq!(
            request["input"][0]["providerFields"],
            json!({"provider": "anthropic-messages", "items": [{"on": 0, "fields": {"cache_control": {"type": "ephemeral"}}}]})
        );
        let dropped: Vec<String> = im.report.warnings.iter().map(|w| w.path.to_string()).collect();
        assert_eq!(dropped, ["/messages/0/content/1/citations"]);
    }

    #[test]
    fn a_call_key_needs_a_call_added_in_this_message_or_a_new_one() {
        let mut im = Import::new(ProviderId::BedrockConverse);
        im.open("assistant", &Path::root());
        let before = im.tally();
        let fields = crate::providers::common::import::CallFields {
            id: Path::root().key("id"),
            name: Path::root().key("name"),
            arguments: Path::root().key("input"),
        };
        im.call("t1", "f", "{}", &Path::root(), &fields);
        im.call_keys(before, object(&json!({"type": "tool_use"})), &Path::root(), &[]);
        let before = im.tally();
        im.call_keys(before, object(&json!({"type": "tool_use"})), &Path::root().key("next"), &[]);
        let request = im.request();
        assert_eq!(request["input"][0]["providerFields"]["items"], json!([{"on": 0, "fields": {"type": "tool_use"}}]));
        assert_eq!(im.report.warnings.len(), 1, "the second key had no call: {:?}", im.report.warnings);
    }
}
