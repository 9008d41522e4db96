//! Provider items (contract §3.2): a provider's own item with no standard form — a hosted or
//! server tool's call or result, a code execution part — read by import into a `provider_item`
//! block of the message it stood in, written back exactly where it stood for that provider, and
//! left out with a `provider_item_dropped` warning naming it for any other.

use serde_json::{Value, json};

use crate::diagnostic::{Code, Diagnostic};
use crate::model::{ContentBlock, ProviderItem};
use crate::path::Path;
use crate::providers::common::convert::Conversion;
use crate::providers::common::convert::turns::Turn;
use crate::providers::common::import::Import;
use crate::providers::id::ProviderId;
use crate::text::quote;

impl Import {
    /// `item`, read from `at`, a `provider_item` block of the standard message of `role` (the
    /// current one when it has that role, a new one otherwise).
    pub(crate) fn provider_item(&mut self, role: &str, item: &Value, at: &Path) {
        self.continue_as(role, at);
        let block = json!({"type": "provider_item", "provider": self.provider.as_str(), "item": item});
        self.block(block, at, &[("item", at)]);
    }
}

impl Conversion<'_> {
    /// Whether the body being written is `provider`'s.
    pub(crate) fn writes_for(&self, provider: ProviderId) -> bool {
        self.profile.provider == provider
    }

    /// The item as the provider takes it back, when it is this provider's; another provider's
    /// item is left out with a warning naming it.
    pub(crate) fn provider_item<'r>(
        &mut self,
        turn: &Turn<'_, '_>,
        j: usize,
        item: &'r ProviderItem,
    ) -> Option<&'r Value> {
        let path = turn.origin.block_path(self.base, j);
        self.provider_item_at(item, path)
    }

    /// [`Conversion::provider_item`] for the block at `path`.
    pub(crate) fn provider_item_at<'r>(&mut self, item: &'r ProviderItem, path: Path) -> Option<&'r Value> {
        if self.writes_for(item.provider) {
            return Some(&item.item);
        }
        self.drop_item(path, item, "");
        None
    }

    /// The turns the provider is sent: a turn holding nothing but other providers' items is left
    /// out, each item with its warning, since providers refuse a message without content.
    pub(crate) fn carried<'r, 'a>(&mut self, turns: Vec<Turn<'r, 'a>>) -> Vec<Turn<'r, 'a>> {
        let mut turns = turns;
        turns.retain(|turn| !self.only_foreign_items(turn));
        turns
    }

    fn only_foreign_items(&mut self, turn: &Turn<'_, '_>) -> bool {
        let foreign =
            |block: &ContentBlock<'_>| matches!(block, ContentBlock::ProviderItem(i) if !self.writes_for(i.provider));
        let only = turn.text.is_none()
            && turn.tool_calls.is_empty()
            && !turn.content.is_empty()
            && turn.content.iter().all(foreign);
        if only {
            for (j, block) in turn.content.iter().enumerate() {
                if let ContentBlock::ProviderItem(item) = block {
                    let path = turn.origin.block_path(self.base, j);
                    self.drop_item(path, item, "; the message holds nothing else and is left out with it");
                }
            }
        }
        only
    }

    /// A provider item in a tool message: another provider's is left out, and its own has no
    /// place in a tool result.
    pub(crate) fn item_in_tool_result(&mut self, turn: &Turn<'_, '_>, j: usize, item: &ProviderItem) {
        if self.provider_item(turn, j, item).is_some() {
            let path = turn.origin.block_path(self.base, j);
            self.unsupported(path, "its own items in a tool result", "put the item in the turn it came with");
        }
    }

    /// Another provider's tool of the `tools` option, left out with a warning naming it.
    pub(crate) fn drop_tool(&mut self, path: Path, tool: &ProviderItem) {
        let rest = format!(" of the {} request: only {} reads it back", self.name(), tool.provider.display_name());
        self.error(left_out(path, tool, "tool", &rest));
    }

    fn drop_item(&mut self, path: Path, item: &ProviderItem, more: &str) {
        let rest =
            format!(" of the {} request: only {} reads it back{more}", self.name(), item.provider.display_name());
        self.error(left_out(path, item, "item", &rest));
    }
}

/// `provider_item_dropped` at `path`: "<provider>'s '<kind>' `what` is left out`rest`", where
/// `rest` says of what and why.
pub(crate) fn left_out(path: Path, item: &ProviderItem, what: &str, rest: &str) -> Diagnostic {
    let message = format!("{}'s {} {what} is left out{rest}", item.provider.display_name(), quote(item.kind()));
    Diagnostic::new(Code::ProviderItemDropped, path, message).received(item.provider.as_str())
}
