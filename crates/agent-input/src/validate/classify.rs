//! contract §3, the three input forms: a string is text; an array is content blocks or messages, as
//! its first classifiable item says (an item with `role` is a message, else one with `type` a
//! block). Empty, mixed and unclassifiable arrays and other JSON types are reported here; the
//! items themselves in `message` and `block`.

use std::borrow::Cow;

use crate::json::{Json, type_name};
use crate::model::{AgentInput, InputType, java_trim};
use crate::path::Loc;

use super::diagnostics;
use super::validator::Validator;

/// What an input array item is, by its keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ItemKind {
    Message,
    Block,
}

impl ItemKind {
    /// An item with `role` is a message even if it also has `type` (ml-commons parity).
    fn of(item: &Json<'_>) -> Option<Self> {
        let Json::Object(object) = item else { return None };
        if object.contains_key("role") {
            Some(Self::Message)
        } else if object.contains_key("type") {
            Some(Self::Block)
        } else {
            None
        }
    }
}

impl Validator<'_> {
    pub(super) fn input<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<AgentInput<'a>> {
        match value {
            Json::String(text) => {
                self.input_type = Some(InputType::Text);
                if java_trim(text).is_empty() {
                    self.push(diagnostics::blank_input_text(loc.to_path()));
                    return None;
                }
                Some(AgentInput::Text(Cow::Borrowed(text)))
            }
            Json::Array(items) => self.array(items, loc),
            other => {
                self.push(diagnostics::invalid_input_type(loc.to_path(), type_name(other)));
                None
            }
        }
    }

    fn array<'a>(&mut self, items: &'a [Json<'_>], loc: Loc<'_>) -> Option<AgentInput<'a>> {
        if items.is_empty() {
            self.push(diagnostics::empty_input_array(loc.to_path()));
            return None;
        }
        // The first classifiable item decides the kind (ml-commons reads the first item).
        let kind = items.iter().find_map(ItemKind::of);
        if let Some(kind) = kind {
            let (limit, what) = match kind {
                ItemKind::Message => (self.options.limits.max_messages, "messages"),
                ItemKind::Block => (self.options.limits.max_blocks, "content blocks"),
            };
            if items.len() > limit {
                // The form is known from the first item, even though the items are not examined.
                self.input_type = Some(match kind {
                    ItemKind::Message => InputType::Messages,
                    ItemKind::Block => InputType::ContentBlocks,
                });
                self.too_many(loc, items.len(), limit, what);
                return None;
            }
        }
        let mut ok = true;
        let mut mixed_reported = false;
        for (i, item) in items.iter().enumerate() {
            match ItemKind::of(item) {
                None => {
                    ok = false;
                    self.push(diagnostics::invalid_item(loc.index(i).to_path(), type_name(item)));
                }
                Some(found) if Some(found) != kind && !mixed_reported => {
                    ok = false;
                    mixed_reported = true;
                    let (expected, got) = match kind {
                        Some(ItemKind::Message) => ("messages", "a content block"),
                        _ => ("content blocks", "a message"),
                    };
                    self.push(diagnostics::mixed_array(loc.index(i).to_path(), i, expected, got));
                }
                Some(_) => {}
            }
        }
        if !ok {
            return None;
        }
        match kind {
            Some(ItemKind::Block) => {
                self.input_type = Some(InputType::ContentBlocks);
                let blocks = self.blocks(items, loc);
                blocks.map(AgentInput::Blocks)
            }
            Some(ItemKind::Message) => {
                self.input_type = Some(InputType::Messages);
                self.messages(items, loc).map(AgentInput::Messages)
            }
            None => None,
        }
    }
}
