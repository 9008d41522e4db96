//! What every provider's response reader shares: the standard [`ProviderResponse`] and [`Usage`],
//! and the reading of a body's fields with paths (`fields`, `object`, `wrong`). Nothing here knows
//! a particular provider; each reader lives in its folder under `providers/`.

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::field::{Fields, Wording};
use crate::json::{Document, Json, Object};
use crate::model::{ContentBlock, Message, ProviderItem, ReasoningState, Role, ToolCall};
use crate::path::Path;
use crate::providers::id::ProviderId;

/// Token counts reported by a provider.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens generated.
    pub output_tokens: u64,
    /// Their sum, as the provider reports it.
    pub total_tokens: u64,
    /// Input tokens read from the prompt cache, when reported.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_read_input_tokens: Option<u64>,
    /// Input tokens written to the prompt cache, when reported (Bedrock, Anthropic).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_write_input_tokens: Option<u64>,
}

impl Usage {
    /// Counts without cache figures.
    pub const fn new(input_tokens: u64, output_tokens: u64, total_tokens: u64) -> Self {
        Self {
            input_tokens,
            output_tokens,
            total_tokens,
            cache_read_input_tokens: None,
            cache_write_input_tokens: None,
        }
    }
}

/// One provider response in the standard format.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProviderResponse {
    /// The assistant's message: text and tool calls.
    pub message: Message<'static>,
    /// Why generation stopped, normalized to Anthropic's words: `end_turn`,
    /// `tool_use`, `max_tokens`, `stop_sequence`, `content_filtered`; any other reason is kept
    /// as the provider gives it.
    pub stop_reason: Option<String>,
    /// Token counts, when reported.
    pub usage: Option<Usage>,
    /// The model's reasoning (thinking) text, when it shows it; not part of the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<String>,
}

/// The assistant message of text blocks (blank ones skipped) and tool calls.
pub(crate) fn assistant(texts: Vec<String>, tool_calls: Vec<ToolCall<'static>>) -> Message<'static> {
    let content =
        texts.into_iter().filter(|t| !t.trim().is_empty()).map(|t| ContentBlock::Text(Cow::Owned(t))).collect();
    assistant_of(content, tool_calls)
}

/// An answer's content blocks as they are read: its texts and the provider's own items (a
/// hosted tool's call or result, a code execution part), in the answer's order, each counted
/// as an element of the message for its reasoning state.
#[derive(Debug, Default)]
pub(crate) struct Content {
    pub(crate) blocks: Vec<ContentBlock<'static>>,
}

impl Content {
    /// A text of the answer (a blank one is not a block).
    pub(crate) fn text(&mut self, text: &str, state: &mut StateItems) {
        state.text(text);
        if !text.trim().is_empty() {
            self.blocks.push(ContentBlock::Text(Cow::Owned(text.to_owned())));
        }
    }

    /// An item of `provider`'s with no standard form, kept as a `provider_item` block.
    pub(crate) fn item(&mut self, provider: ProviderId, item: Value, state: &mut StateItems) {
        state.content();
        self.blocks.push(ContentBlock::ProviderItem(ProviderItem { provider, item }));
    }

    /// Whether no text has been read since `since` blocks.
    pub(crate) fn no_text_since(&self, since: usize) -> bool {
        !self.blocks[since..].iter().any(|b| matches!(b, ContentBlock::Text(_)))
    }
}

/// The assistant message of `content` and tool calls.
pub(crate) fn assistant_of(
    content: Vec<ContentBlock<'static>>,
    tool_calls: Vec<ToolCall<'static>>,
) -> Message<'static> {
    Message {
        role: Role::Assistant,
        content,
        tool_calls,
        tool_call_id: None,
        json_result: false,
        reasoning_state: None,
        provider_fields: None,
    }
}

/// The reasoning state a provider gives back to itself, gathered while its answer is read: each
/// item placed against the standard message's elements — its non-blank text blocks, then its
/// tool calls — which are counted as they are read and resolved once all are known.
#[derive(Debug, Clone, Default)]
pub(crate) struct StateItems {
    items: Vec<(Place, Value)>,
    texts: usize,
    calls: usize,
}

/// Where a state item goes, in the counts read when it came.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Place {
    /// Before whatever element came next (texts read, calls read).
    Before(usize, usize),
    /// On text block `i`.
    OnText(usize),
    /// On tool call `k`.
    OnCall(usize),
    /// On whatever element came next (texts read, calls read).
    OnNext(usize, usize),
}

impl StateItems {
    /// One more text of the answer (a blank one is not an element).
    pub(crate) fn text(&mut self, text: &str) {
        if !text.trim().is_empty() {
            self.texts += 1;
        }
    }

    /// One more content block, whatever it holds (an imported message's blocks are all elements).
    pub(crate) fn content(&mut self) {
        self.texts += 1;
    }

    /// One more tool call of the answer.
    pub(crate) fn call(&mut self) {
        self.calls += 1;
    }

    /// Where the next text block, the next call or the next element of any kind goes.
    pub(crate) const fn next_text(&self) -> Place {
        Place::OnText(self.texts)
    }

    pub(crate) const fn next_call(&self) -> Place {
        Place::OnCall(self.calls)
    }

    /// On the text block read last.
    pub(crate) const fn last_text(&self) -> Place {
        Place::OnText(self.texts.saturating_sub(1))
    }

    pub(crate) const fn next(&self) -> Place {
        Place::OnNext(self.texts, self.calls)
    }

    /// Before the next element.
    pub(crate) const fn here(&self) -> Place {
        Place::Before(self.texts, self.calls)
    }

    /// A provider block (a thinking block, a reasoning item) written before the next element.
    pub(crate) fn block(&mut self, block: Value) {
        self.block_at(self.here(), block);
    }

    /// A provider block at a place taken earlier (a streamed block, complete only now).
    pub(crate) fn block_at(&mut self, place: Place, block: Value) {
        let mut item = serde_json::Map::new();
        item.insert("block".to_string(), block);
        self.items.push((place, Value::Object(item)));
    }

    /// Replaces the block whose `id` is `id` (a streamed item, as the finished answer gives it).
    pub(crate) fn replace_block(&mut self, id: &str, with: &Value) {
        for (_, item) in &mut self.items {
            if let Some(block) = item.get_mut("block").filter(|b| b.get("id").and_then(Value::as_str) == Some(id)) {
                block.clone_from(with);
            }
        }
    }

    /// `key: value` attached to the element at `place`.
    pub(crate) fn on(&mut self, place: Place, key: &str, value: &str) {
        let mut item = serde_json::Map::new();
        item.insert(key.to_string(), Value::from(value));
        self.items.push((place, Value::Object(item)));
    }

    /// The state of `provider`, each item's place an index into the message's content blocks
    /// followed by its tool calls; `None` when the provider gave none.
    pub(crate) fn into_state(self, provider: ProviderId) -> Option<ReasoningState> {
        let texts = self.texts;
        // An item read before text `t` goes before it; read after the last text, before a call.
        let next = |t: usize, c: usize| if t < texts { t } else { texts + c };
        let items: Vec<Value> = self
            .items
            .into_iter()
            .map(|(place, mut item)| {
                let (key, at) = match place {
                    Place::Before(t, c) => ("before", next(t, c)),
                    Place::OnText(t) => ("on", t),
                    Place::OnCall(c) => ("on", texts + c),
                    Place::OnNext(t, c) => ("on", next(t, c)),
                };
                if let Value::Object(map) = &mut item {
                    let mut placed = serde_json::Map::new();
                    placed.insert(key.to_string(), Value::from(at));
                    placed.append(map);
                    *map = placed;
                }
                item
            })
            .collect();
        (!items.is_empty()).then_some(ReasoningState { provider, items })
    }
}

/// A standard tool call.
pub(crate) fn tool_call(id: &str, name: &str, arguments: String) -> ToolCall<'static> {
    ToolCall {
        id: Cow::Owned(id.to_string()),
        kind: Cow::Borrowed("function"),
        name: Cow::Owned(name.to_string()),
        arguments: Cow::Owned(arguments),
    }
}

/// Parses a body into its root object.
pub(crate) fn root(body: &str) -> Result<Document<'_>, Report> {
    let document = Document::parse(body)
        .map_err(|e| Diagnostic::new(Code::InvalidJson, Path::root(), format!("the response is not JSON: {e}")))?;
    object(&document.root, &Path::root(), "the response")?;
    Ok(document)
}

/// The response parsers' wording of field problems.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InResponse;

impl Wording for InResponse {
    fn missing(&self, field: Path, key: &str) -> Diagnostic {
        Diagnostic::new(Code::MissingField, field, format!("the response has no '{key}'"))
    }

    fn wrong_type(&self, field: Path, key: &str, expected: &'static str, found: &'static str) -> Diagnostic {
        wrong_type(field, key, expected, found)
    }
}

/// The fields of `object`, at `at`, of a response: an optional field may be `null`.
pub(crate) fn fields<'v, 'a, 'p>(object: &'v Object<'a>, at: &'p Path) -> Fields<'v, Object<'a>, &'p Path, InResponse> {
    Fields::new(object, at, InResponse)
}

/// `what`, at `path`, is a `found` (a JSON type name) where an `expected` is needed.
fn wrong_type(path: Path, what: &str, expected: &str, found: &str) -> Diagnostic {
    Diagnostic::new(Code::InvalidFieldType, path, format!("{what} in the response must be {expected}, not {found}"))
        .expected([expected])
        .received(found)
}

/// `found`, at `path`, is not the `expected` JSON type.
pub(crate) fn wrong(path: &Path, what: &str, expected: &str, found: &Json<'_>) -> Report {
    wrong_type(path.clone(), what, expected, found.type_name()).into()
}

/// A value that must be an object.
pub(crate) fn object<'v, 'a>(value: &'v Json<'a>, path: &Path, what: &str) -> Result<&'v Object<'a>, Report> {
    value.as_object().ok_or_else(|| wrong(path, what, "object", value))
}

/// Where a provider reports token counts, by key in its usage object; the cache counts may sit
/// in a nested object (`prompt_tokens_details/cached_tokens`).
pub(crate) struct UsageKeys {
    pub(crate) input: &'static str,
    pub(crate) output: &'static str,
    /// The total's key; the total is summed when the provider gives none.
    pub(crate) total: Option<&'static str>,
    pub(crate) cache_read: &'static [&'static str],
    pub(crate) cache_write: &'static [&'static str],
}

/// Token counts from a usage object.
pub(crate) fn usage(object: Option<&Object<'_>>, keys: &UsageKeys) -> Option<Usage> {
    let object = object?;
    let at = |path: &[&str]| {
        let (last, parents) = path.split_last()?;
        let mut here = object;
        for key in parents {
            here = here.get(key)?.as_object()?;
        }
        match here.get(last) {
            Some(Json::Number(n)) => n.as_u64(),
            _ => None,
        }
    };
    let (input_tokens, output_tokens) = (at(&[keys.input]).unwrap_or(0), at(&[keys.output]).unwrap_or(0));
    let total_tokens = keys.total.map_or(input_tokens + output_tokens, |key| at(&[key]).unwrap_or(0));
    Some(Usage {
        cache_read_input_tokens: at(keys.cache_read),
        cache_write_input_tokens: at(keys.cache_write),
        ..Usage::new(input_tokens, output_tokens, total_tokens)
    })
}

/// Reasoning texts joined by blank lines; `None` when there are none.
pub(crate) fn reasoning(texts: Vec<String>) -> Option<String> {
    let texts: Vec<String> = texts.into_iter().filter(|t| !t.trim().is_empty()).collect();
    (!texts.is_empty()).then(|| texts.join("\n\n"))
}

/// `raw` in the standard words by a provider's `table`; an unknown reason is kept as given.
pub(crate) fn stop_reason(table: &[(&str, &str)], raw: &str) -> String {
    table.iter().find(|(word, _)| *word == raw).map_or(raw, |(_, standard)| standard).to_string()
}
