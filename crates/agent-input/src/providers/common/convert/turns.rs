//! The conversation as converters walk it — one [`Turn`] per message, text and content-block
//! inputs being one user turn — and the rules about its shape that providers share: roles, media
//! in roles that take only text, who opens the conversation, same-role turns merged
//! ([`Alternation`]), tool calls paired with tool results, tool specs, and prefills.

use super::context::Conversion;
use crate::diagnostic::{Code, Diagnostic};
use crate::model::{AgentInput, ContentBlock, Message, MessageFields, ReasoningState, Role, ToolCall};
use crate::options::ConvertOptions;
use crate::path::Path;
use crate::providers::id::ProviderId;
use crate::text::quote;

/// Where one message of the input sits in the request, for paths.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Origin {
    /// Text input: the input itself.
    Text,
    /// Content-block input: the blocks are the input array.
    Blocks,
    /// Message `i` of a messages input.
    Message(usize),
}

impl Origin {
    pub(crate) fn message_path(self, base: &Path) -> Path {
        match self {
            Self::Text | Self::Blocks => base.clone(),
            Self::Message(i) => base.index(i),
        }
    }

    pub(crate) fn block_path(self, base: &Path, j: usize) -> Path {
        match self {
            Self::Text => base.clone(),
            Self::Blocks => base.index(j),
            Self::Message(i) => base.index(i).key("content").index(j),
        }
    }

    pub(crate) fn field_path(self, base: &Path, key: &str) -> Path {
        self.message_path(base).key(key)
    }
}

/// A message of the input with its location: text and content-block inputs become one user message.
#[derive(Debug)]
pub(crate) struct Turn<'r, 'a> {
    pub(crate) role: &'r Role<'a>,
    /// Text input's text, which has no block of its own.
    pub(crate) text: Option<&'r str>,
    pub(crate) content: &'r [ContentBlock<'a>],
    pub(crate) tool_calls: &'r [ToolCall<'a>],
    pub(crate) tool_call_id: Option<&'r str>,
    /// A tool message's text blocks hold JSON values (`resultFormat`).
    pub(crate) json_result: bool,
    /// An assistant message's reasoning state, whichever provider it came from.
    pub(crate) reasoning_state: Option<&'r ReasoningState>,
    /// The message's provider fields, whichever provider they came from.
    pub(crate) provider_fields: Option<&'r MessageFields>,
    pub(crate) origin: Origin,
}

static USER: Role<'static> = Role::User;

impl<'r, 'a> Turn<'r, 'a> {
    pub(crate) fn all(input: &'r AgentInput<'a>) -> Vec<Turn<'r, 'a>> {
        match input {
            AgentInput::Text(text) => vec![Turn {
                role: &USER,
                text: Some(text),
                content: &[],
                tool_calls: &[],
                tool_call_id: None,
                json_result: false,
                reasoning_state: None,
                provider_fields: None,
                origin: Origin::Text,
            }],
            AgentInput::Blocks(blocks) => vec![Turn {
                role: &USER,
                text: None,
                content: blocks,
                tool_calls: &[],
                tool_call_id: None,
                json_result: false,
                reasoning_state: None,
                provider_fields: None,
                origin: Origin::Blocks,
            }],
            AgentInput::Messages(messages) => messages
                .iter()
                .enumerate()
                .map(|(i, m): (usize, &'r Message<'a>)| Turn {
                    role: &m.role,
                    text: None,
                    content: &m.content,
                    tool_calls: &m.tool_calls,
                    tool_call_id: m.tool_call_id.as_deref(),
                    json_result: m.json_result,
                    reasoning_state: m.reasoning_state.as_ref(),
                    provider_fields: m.provider_fields.as_ref(),
                    origin: Origin::Message(i),
                })
                .collect(),
        }
    }
}

/// A tool call of the history, for lookups by id.
#[derive(Debug, Clone)]
pub(crate) struct CallSite<'a> {
    pub(crate) id: &'a str,
    pub(crate) name: &'a str,
    /// The assistant message that made it: an id may come back in a later message.
    pub(crate) origin: Origin,
}

/// The tool calls and tool results of one turn as the provider receives it, each with the path
/// of its id, for [`Conversion::pairs_by_sent_turn`].
#[derive(Debug, Default)]
pub(crate) struct ToolBlocks<'a> {
    pub(crate) calls: Vec<(&'a str, Path)>,
    pub(crate) results: Vec<(&'a str, Path)>,
}

impl<'a> ToolBlocks<'a> {
    pub(crate) fn extend(&mut self, other: ToolBlocks<'a>) {
        self.calls.extend(other.calls);
        self.results.extend(other.results);
    }
}

impl Conversion<'_> {
    /// The name of `turn`'s tool call `k`, by the provider's tool name rule.
    pub(crate) fn call_name(&mut self, name: &str, turn: &Turn<'_, '_>, k: usize) {
        if !(self.profile.tool_name.holds)(name) {
            let path = turn.origin.field_path(self.base, "toolCalls").index(k).key("function").key("name");
            self.bad_tool_name(name, path);
        }
    }

    /// A role the provider has no place for.
    pub(crate) fn role_not_supported(&mut self, turn: &Turn<'_, '_>) {
        let profile = self.profile;
        let message = format!("{} has no role {}; use {}", self.name(), quote(turn.role.as_str()), profile.roles_text);
        self.error(
            Diagnostic::new(Code::RoleNotSupported, turn.origin.field_path(self.base, "role"), message)
                .expected(profile.roles.iter().copied())
                .received(turn.role.as_str()),
        );
    }

    /// The turn's reasoning state when it came from `provider`, which takes it back; state from
    /// another provider is left out with a `reasoning_state_dropped` warning naming it.
    pub(crate) fn reasoning_state<'r>(
        &mut self,
        turn: &Turn<'r, '_>,
        provider: ProviderId,
    ) -> Option<&'r ReasoningState> {
        let state = turn.reasoning_state?;
        if state.provider == provider {
            return Some(state);
        }
        let from = state.provider.display_name();
        let message = format!(
            "{} from {from} is left out of the {} request: only {from} reads it back",
            describe_state(state),
            self.name(),
        );
        self.error(
            Diagnostic::new(Code::ReasoningStateDropped, turn.origin.field_path(self.base, "reasoningState"), message)
                .received(state.provider.as_str()),
        );
        None
    }

    /// Media where the role takes only text.
    pub(crate) fn media_in_role(&mut self, turn: &Turn<'_, '_>, j: usize, block: &ContentBlock<'_>, place: &str) {
        let message = format!(
            "{} {place} hold only text, so this {} block from {} cannot be sent; move it into a user message",
            self.name(),
            block.type_name(),
            quote(turn.role.as_str())
        );
        self.error(Diagnostic::new(Code::MediaNotAllowedInRole, turn.origin.block_path(self.base, j), message));
    }

    /// The text blocks of a message whose role takes only text (`place`: where the text goes);
    /// other blocks are errors.
    pub(crate) fn text_only<'a>(&mut self, turn: &Turn<'a, 'a>, place: &str) -> Vec<&'a str> {
        let mut texts = Vec::with_capacity(turn.content.len());
        for (j, block) in turn.content.iter().enumerate() {
            match block {
                ContentBlock::Text(text) => texts.push(text.as_ref()),
                // Another provider's item is left out with its warning.
                ContentBlock::ProviderItem(item) if self.provider_item(turn, j, item).is_none() => {}
                other => self.media_in_role(turn, j, other, place),
            }
        }
        texts
    }

    /// The first message the provider receives (system messages and roles it lacks aside) must
    /// be the user's.
    pub(crate) fn first_is_user(&mut self, turns: &[Turn<'_, '_>]) {
        // Roles the provider lacks are reported on their own.
        if let Some(first) = turns.iter().find(|t| matches!(t.role, Role::User | Role::Assistant | Role::Tool)) {
            self.opens(first, false);
        }
    }

    /// `first` opens the conversation: it must be the user's, or a tool's where tool results
    /// travel in user turns and `tool_opens` says such a turn may open.
    pub(crate) fn opens(&mut self, first: &Turn<'_, '_>, tool_opens: bool) {
        if matches!(first.role, Role::User) || (tool_opens && matches!(first.role, Role::Tool)) {
            return;
        }
        let message = format!(
            "{} conversations must start with a user message, but the first non-system message is from {}",
            self.name(),
            quote(first.role.as_str())
        );
        self.error(
            Diagnostic::new(Code::FirstMessageNotUser, first.origin.field_path(self.base, "role"), message)
                .expected(["user"])
                .received(first.role.as_str()),
        );
    }

    /// Providers that need the tool specs to read tool calls and results in the history: the
    /// first message with either is reported when no tools are given.
    pub(crate) fn tool_specs_required(&mut self, turns: &[Turn<'_, '_>], options: &ConvertOptions) {
        if self.declares_tools(options) {
            return;
        }
        let at = turns.iter().find_map(|turn| {
            if !turn.tool_calls.is_empty() {
                Some(turn.origin.field_path(self.base, "toolCalls"))
            } else if *turn.role == Role::Tool {
                Some(turn.origin.field_path(self.base, "toolCallId"))
            } else {
                None
            }
        });
        if let Some(at) = at {
            let message = format!(
                "the conversation has tool calls or tool results, so {} needs the tool specs: pass tools (name, description, input_schema)",
                self.name()
            );
            self.error(Diagnostic::new(Code::ToolConfigRequired, at, message));
        }
    }

    /// Pairs tool calls and results over the standard messages: the tool messages right after
    /// an assistant message with tool calls answer each of its calls exactly once.
    /// `system_breaks`: whether a system message between them breaks the pairing (it does where
    /// system messages stay in the conversation). Returns every call, for lookups by id.
    pub(crate) fn pairs_by_message<'a>(&mut self, turns: &[Turn<'a, 'a>], system_breaks: bool) -> Vec<CallSite<'a>> {
        let mut calls = Vec::new();
        // Calls of the assistant message being answered: id, path, answered.
        let mut open: Vec<(&'a str, Path, bool)> = Vec::new();
        for turn in turns {
            match turn.role {
                Role::Tool => {
                    let id = turn.tool_call_id.unwrap_or_default();
                    let path = turn.origin.field_path(self.base, "toolCallId");
                    match open.iter_mut().find(|(call, _, _)| *call == id) {
                        Some((_, _, answered)) if !*answered => *answered = true,
                        found => self.unmatched_result(id, path, found.is_some()),
                    }
                }
                Role::System if !system_breaks => {}
                _ => {
                    self.unanswered(&open);
                    open.clear();
                    for (k, call) in turn.tool_calls.iter().enumerate() {
                        let path = turn.origin.field_path(self.base, "toolCalls").index(k).key("id");
                        open.push((call.id.as_ref(), path, false));
                        calls.push(CallSite { id: call.id.as_ref(), name: call.name.as_ref(), origin: turn.origin });
                    }
                }
            }
        }
        // A trailing assistant message with calls (a prefill) is unanswered too: the APIs
        // reject a call without its result wherever it stands.
        self.unanswered(&open);
        calls
    }

    fn unanswered(&mut self, open: &[(&str, Path, bool)]) {
        for (id, path, answered) in open {
            if !answered {
                self.unanswered_call(id, path.clone());
            }
        }
    }

    /// Pairs tool calls and results over the turns the provider receives, after same-role
    /// messages are merged: the turn after one with tool calls holds exactly one result per call,
    /// and no other results.
    pub(crate) fn pairs_by_sent_turn<'a, T: AsRef<ToolBlocks<'a>>>(&mut self, turns: &[T]) {
        for (i, turn) in turns.iter().map(AsRef::as_ref).enumerate() {
            let previous_calls = if i > 0 { turns[i - 1].as_ref().calls.as_slice() } else { &[] };
            // Which of the previous turn's calls are answered, by their index: sized at the first
            // answer, so a turn without results allocates nothing.
            let mut answered: Vec<bool> = Vec::new();
            for (id, path) in &turn.results {
                let call = previous_calls.iter().position(|(call_id, _)| call_id == id);
                let first_answer = call.is_some_and(|k| {
                    answered.resize(previous_calls.len(), false);
                    !std::mem::replace(&mut answered[k], true)
                });
                if !first_answer {
                    self.unmatched_result(id, path.clone(), call.is_some());
                }
            }
            // A trailing assistant turn (a prefill) has no answers at all.
            let next = turns.get(i + 1).map(AsRef::as_ref);
            for (id, path) in &turn.calls {
                if !next.is_some_and(|next| next.results.iter().any(|(result_id, _)| result_id == id)) {
                    self.unanswered_call(id, path.clone());
                }
            }
        }
    }

    /// A tool result that answers no open call (`answered_before`: its call was answered already).
    fn unmatched_result(&mut self, id: &str, path: Path, answered_before: bool) {
        let why = if answered_before {
            "answers a tool call that was already answered"
        } else {
            "answers no tool call of the assistant message just before it"
        };
        let message = format!(
            "this tool result ({}) {why}; {} needs each tool result right after the assistant message that made the call",
            quote(id),
            self.name()
        );
        self.error(Diagnostic::new(Code::UnmatchedToolResult, path, message).received(id));
    }

    fn unanswered_call(&mut self, id: &str, path: Path) {
        let message = format!(
            "tool call {} has no tool message answering it next; {} needs a tool message with this toolCallId right after the assistant message",
            quote(id),
            self.name()
        );
        self.error(Diagnostic::new(Code::UnansweredToolCall, path, message).received(id));
    }

    /// Providers that reject a final assistant message (a prefill) ending with whitespace.
    pub(crate) fn prefill_without_trailing_space(&mut self, turns: &[Turn<'_, '_>]) {
        let Some(last) = turns.iter().rev().find(|t| *t.role != Role::System) else { return };
        if *last.role != Role::Assistant || !last.tool_calls.is_empty() {
            return;
        }
        if let Some(ContentBlock::Text(text)) = last.content.last()
            && text.ends_with(char::is_whitespace)
        {
            let message = format!(
                "{} rejects a final assistant message (a prefill) that ends with whitespace; remove the trailing spaces or line breaks",
                self.name()
            );
            self.error(Diagnostic::new(
                Code::InvalidForProvider,
                last.origin.block_path(self.base, last.content.len() - 1).key("text"),
                message,
            ));
        }
    }
}

/// A provider's wire turn, for providers whose user and assistant turns must alternate.
pub(crate) trait AlternatingTurn: Sized {
    /// The wire role.
    type Role: Copy + PartialEq;
    /// The wire block.
    type Block;
    /// The two roles as messages name them: `"user and assistant"`.
    const ROLES: &'static str;

    fn new(role: Self::Role, blocks: Vec<Self::Block>) -> Self;
    fn role(&self) -> Self::Role;
    fn blocks(&mut self) -> &mut Vec<Self::Block>;
    /// The role as messages name it.
    fn role_name(role: Self::Role) -> &'static str;
    /// Whether a block is a tool result, which goes first in its turn.
    fn is_tool_result(block: &Self::Block) -> bool;
}

/// Turns built in order, a message of the same role as the turn before merged into it (with a
/// `messages_merged` warning, except for consecutive tool messages, which always share a turn).
pub(crate) struct Alternation<T> {
    pub(crate) turns: Vec<T>,
    /// Whether the last turn is made only of tool results.
    last_is_tool_group: bool,
}

impl<T: AlternatingTurn> Alternation<T> {
    pub(crate) fn new() -> Self {
        Self::with_capacity(0)
    }

    /// Room for `n` turns, so a long conversation is not copied as it grows.
    pub(crate) fn with_capacity(n: usize) -> Self {
        Self { turns: Vec::with_capacity(n), last_is_tool_group: false }
    }

    /// Adds `turn`'s blocks as a `role` turn; returns whether they were merged into the last one.
    pub(crate) fn push(
        &mut self,
        cx: &mut Conversion<'_>,
        turn: &Turn<'_, '_>,
        role: T::Role,
        blocks: Vec<T::Block>,
    ) -> bool {
        let is_tool = *turn.role == Role::Tool;
        let Some(last) = self.turns.last_mut().filter(|last| last.role() == role) else {
            self.turns.push(T::new(role, blocks));
            self.last_is_tool_group = is_tool;
            return false;
        };
        if !(is_tool && self.last_is_tool_group) {
            let message = format!(
                "this message was merged into the previous {} turn: {} needs {} turns to alternate",
                T::role_name(role),
                cx.name(),
                T::ROLES
            );
            cx.report.push(Diagnostic::new(Code::MessagesMerged, turn.origin.message_path(cx.base), message));
        }
        let merged = last.blocks();
        merged.extend(blocks);
        if merged.iter().any(T::is_tool_result) {
            // Tool results come first in a turn, each side in its order: a stable partition, not a
            // stable sort, whose code is several kilobytes per provider in the npm `.wasm`.
            let (mut first, rest): (Vec<_>, Vec<_>) = std::mem::take(merged).into_iter().partition(T::is_tool_result);
            first.extend(rest);
            *merged = first;
        }
        self.last_is_tool_group = self.last_is_tool_group && is_tool;
        true
    }
}

/// The `block` of each item of `state` placed before element `at` of `len`. One function for
/// every writer, not an iterator chain built in each.
pub(crate) fn state_blocks(state: Option<&ReasoningState>, at: usize, len: usize) -> Vec<&serde_json::Value> {
    state.into_iter().flat_map(|s| s.before(at, len)).filter_map(|item| item.get("block")).collect()
}

/// The text under `key` of the first item of `state` on element `at` of `len`.
pub(crate) fn state_on<'r>(state: Option<&'r ReasoningState>, at: usize, len: usize, key: &str) -> Option<&'r str> {
    state.and_then(|s| s.on(at, len).find_map(|item| item.get(key).and_then(serde_json::Value::as_str)))
}

/// What a reasoning state holds, for a message: "2 thinking blocks", "1 thought signature".
pub(crate) fn describe_state(state: &ReasoningState) -> String {
    use std::fmt::Write as _;
    // Each kind as a name, " block" or nothing after it, and a count.
    let mut kinds: Vec<(&str, &str, usize)> = Vec::new();
    for item in &state.items {
        let (name, tail) = if item.get("thoughtSignature").is_some() {
            ("thought signature", "")
        } else if item.get("id").is_some() && item.get("on").is_some() {
            ("item id", "")
        } else if let Some(block) = item.get("block") {
            match (block.get("type").and_then(serde_json::Value::as_str), block.as_object()) {
                (Some("reasoning"), _) => ("reasoning item", ""),
                (Some(kind), _) => (kind, " block"),
                (None, Some(object)) => object.keys().next().map_or(("item", ""), |k| (k.as_str(), " block")),
                (None, None) => ("item", ""),
            }
        } else {
            ("item", "")
        };
        match kinds.iter_mut().find(|(n, t, _)| *n == name && *t == tail) {
            Some((_, _, n)) => *n += 1,
            None => kinds.push((name, tail, 1)),
        }
    }
    if kinds.is_empty() {
        return "an empty reasoning state".to_owned();
    }
    let mut out = String::from("the reasoning state (");
    for (i, (name, tail, n)) in kinds.into_iter().enumerate() {
        let comma = if i == 0 { "" } else { ", " };
        let plural = if n == 1 { "" } else { "s" };
        let _ = write!(out, "{comma}{n} {name}{tail}{plural}");
    }
    out.push(')');
    out
}

#[cfg(test)]
mod tests {
    use super::{AlternatingTurn, Alternation, Origin, Turn};
    use crate::model::Role;
    use crate::path::Path;
    use crate::providers::common::convert::{Conversion, PLAIN_NAME, Profile};

    static PROFILE: Profile = Profile {
        provider: crate::providers::id::ProviderId::Gemini,
        name: "Test",
        max_temperature: 1.0,
        max_stop_sequences: None,
        tool_name: PLAIN_NAME,
        tool_call_id: None,
        roles: &[],
        roles_text: "",
        too_large: "",
        legacy_option_wording: false,
        min_max_tokens: 1,
        temperature_or_top_p: false,
    };

    /// A wire turn whose blocks are (is a tool result, which message it came from).
    struct Wire {
        role: &'static str,
        blocks: Vec<(bool, usize)>,
    }

    impl AlternatingTurn for Wire {
        type Role = &'static str;
        type Block = (bool, usize);
        const ROLES: &'static str = "user and model";

        fn new(role: &'static str, blocks: Vec<(bool, usize)>) -> Self {
            Self { role, blocks }
        }
        fn role(&self) -> &'static str {
            self.role
        }
        fn blocks(&mut self) -> &mut Vec<(bool, usize)> {
            &mut self.blocks
        }
        fn role_name(role: &'static str) -> &'static str {
            role
        }
        fn is_tool_result(block: &(bool, usize)) -> bool {
            block.0
        }
    }

    static USER: Role<'static> = Role::User;
    static ASSISTANT: Role<'static> = Role::Assistant;
    static TOOL: Role<'static> = Role::Tool;

    fn message(role: &'static Role<'static>, i: usize) -> Turn<'static, 'static> {
        Turn {
            role,
            text: None,
            content: &[],
            tool_calls: &[],
            tool_call_id: None,
            json_result: false,
            reasoning_state: None,
            provider_fields: None,
            origin: Origin::Message(i),
        }
    }

    /// docs/decisions/providers.md: same-role runs are merged with `messages_merged`, tool results
    /// first in their turn; consecutive tool messages share a turn without a warning.
    #[test]
    fn same_role_messages_merge_with_tool_results_first() {
        let base = Path::root().key("input");
        let mut cx = Conversion::new(&PROFILE, &base);
        let mut turns = Alternation::<Wire>::new();
        let sent = [
            (&ASSISTANT, "model", false),
            (&TOOL, "user", true),
            (&TOOL, "user", true),
            (&USER, "user", false),
            (&TOOL, "user", true),
            (&ASSISTANT, "model", false),
        ];
        let merged: Vec<bool> = sent
            .iter()
            .enumerate()
            .map(|(i, (role, wire_role, result))| turns.push(&mut cx, &message(role, i), wire_role, vec![(*result, i)]))
            .collect();
        assert_eq!(merged, [false, false, true, true, true, false]);
        let order: Vec<Vec<usize>> = turns.turns.iter().map(|t| t.blocks.iter().map(|b| b.1).collect()).collect();
        assert_eq!(order, [vec![0], vec![1, 2, 4, 3], vec![5]]);
        let warnings: Vec<(String, &str)> =
            cx.report.warnings.iter().map(|w| (w.path.to_string(), w.message.as_str())).collect();
        let text = "this message was merged into the previous user turn: Test needs user and model turns to alternate";
        assert_eq!(warnings, [("/input/3".to_string(), text), ("/input/4".to_string(), text)]);
        assert!(cx.report.errors.is_empty());
    }
}
