//! The standard agent input as typed values.
//!
//! Values borrow from the parsed JSON where they can (`Cow<'a, str>`), so a multi-megabyte base64
//! payload is never copied on its way from the request to the provider body. Call
//! [`AgentInput::into_owned`] to keep one beyond the JSON it came from.

use std::borrow::Cow;

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use crate::format::{DocumentFormat, ImageFormat, VideoFormat};
use crate::path::Path;

/// One of the three forms of the standard input.
///
/// - `"text"` — [`AgentInput::Text`]
/// - `[{"type": ...}, ...]` — [`AgentInput::Blocks`], one user message
/// - `[{"role": ...}, ...]` — [`AgentInput::Messages`]
#[derive(Debug, Clone, PartialEq)]
pub enum AgentInput<'a> {
    /// Plain text, processed as one user message.
    Text(Cow<'a, str>),
    /// Content blocks, processed as one user message.
    Blocks(Vec<ContentBlock<'a>>),
    /// A conversation.
    Messages(Vec<Message<'a>>),
}

/// Which form an input has, named as ml-commons names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum InputType {
    /// A string.
    Text,
    /// An array of content blocks.
    ContentBlocks,
    /// An array of messages.
    Messages,
}

impl InputType {
    /// `TEXT`, `CONTENT_BLOCKS` or `MESSAGES`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Text => "TEXT",
            Self::ContentBlocks => "CONTENT_BLOCKS",
            Self::Messages => "MESSAGES",
        }
    }
}

/// A piece of content.
#[derive(Debug, Clone, PartialEq)]
pub enum ContentBlock<'a> {
    /// Non-blank text.
    Text(Cow<'a, str>),
    /// An image.
    Image(Media<'a, ImageFormat>),
    /// A video.
    Video(Media<'a, VideoFormat>),
    /// A document.
    Document(Document<'a>),
    /// A provider's own item with no standard form (a hosted tool's call or result), carried
    /// opaquely for that provider.
    ProviderItem(ProviderItem),
}

/// A provider's own item — a hosted or server tool's call or result, a code execution part, any
/// item the standard form has no place for — kept exactly as the provider wrote it:
/// `{"type": "provider_item", "provider", "item"}`. Written back where it stands for that
/// provider only; any other provider is sent the conversation without it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderItem {
    /// The provider whose request or answer it came from.
    pub provider: crate::ProviderId,
    /// The item as the provider wrote it: an Anthropic content block, a Gemini part, a Responses
    /// input item.
    pub item: serde_json::Value,
}

impl ProviderItem {
    /// The item's kind as its provider names it: its `type` (Anthropic, Responses), else its
    /// one key that is not a signature (Gemini's `executableCode`).
    pub fn kind(&self) -> &str {
        Self::kind_of(&self.item)
    }

    /// [`ProviderItem::kind`] of an item as JSON (`"item"` when it names none).
    pub fn kind_of(item: &serde_json::Value) -> &str {
        if let Some(kind) = item.get("type").and_then(serde_json::Value::as_str) {
            return kind;
        }
        // A whole message (Chat Completions has no items of another kind).
        if item.get("role").is_some() {
            return "message";
        }
        item.as_object()
            .and_then(|object| object.keys().find(|key| !matches!(key.as_str(), "thoughtSignature" | "thought")))
            .map_or("item", String::as_str)
    }
}

/// Fields of a provider's own that the standard form has no place for (`service_tier`, an
/// Anthropic block's `cache_control`, a Responses item's `status`), kept for that provider:
/// `{"provider", "fields"}`. The converter for that provider merges them into what it writes for
/// the element that carries them; any other provider is sent the element without them.
#[derive(Debug, Clone, PartialEq)]
pub struct ProviderFields {
    /// The provider whose request they came from.
    pub provider: crate::ProviderId,
    /// The fields as that provider writes them.
    pub fields: serde_json::Map<String, serde_json::Value>,
}

/// An image or a video.
#[derive(Debug, Clone, PartialEq)]
pub struct Media<'a, F> {
    /// The normalized format.
    pub format: F,
    /// Where the bytes are.
    pub source: Source<'a>,
}

/// A document. `name` is this project's extension; ml-commons ignores it.
#[derive(Debug, Clone, PartialEq)]
pub struct Document<'a> {
    /// The name given by the user, if any (providers may need to sanitize it).
    pub name: Option<Cow<'a, str>>,
    /// The normalized format.
    pub format: DocumentFormat,
    /// Where the bytes are.
    pub source: Source<'a>,
}

/// Where media bytes are.
#[derive(Debug, Clone, PartialEq)]
pub enum Source<'a> {
    /// Checked standard base64, without `data:` prefix or whitespace.
    Base64(Cow<'a, str>),
    /// A checked https, http or s3 URL.
    Url(Cow<'a, str>),
}

impl Source<'_> {
    /// `base64` or `url`.
    pub const fn kind(&self) -> &'static str {
        match self {
            Self::Base64(_) => "base64",
            Self::Url(_) => "url",
        }
    }

    /// The base64 text or the URL.
    pub fn data(&self) -> &str {
        match self {
            Self::Base64(data) | Self::Url(data) => data,
        }
    }

    /// The decoded size of base64 data; `None` for URLs.
    pub fn decoded_len(&self) -> Option<usize> {
        match self {
            Self::Base64(data) => Some(crate::base64::decoded_len(data)),
            Self::Url(_) => None,
        }
    }
}

/// A message of a conversation.
#[derive(Debug, Clone, PartialEq)]
pub struct Message<'a> {
    /// Who speaks.
    pub role: Role<'a>,
    /// What is said (may be empty for an assistant message with tool calls).
    pub content: Vec<ContentBlock<'a>>,
    /// Tools the assistant asks to call.
    pub tool_calls: Vec<ToolCall<'a>>,
    /// For a `tool` message: the call this answers.
    pub tool_call_id: Option<Cow<'a, str>>,
    /// For a `tool` message (`"resultFormat": "json"`): each text block holds a JSON value, which
    /// a provider that takes JSON results gets as that value and any other as its text.
    pub json_result: bool,
    /// For an `assistant` message: the provider's reasoning state (`reasoningState`), sent back
    /// to the same provider on the next turn.
    pub reasoning_state: Option<ReasoningState>,
    /// A provider's own fields of the message and of its elements (`providerFields`), written
    /// into that provider's body only.
    pub provider_fields: Option<MessageFields>,
}

/// A message's provider fields: `{"provider", "fields", "items": [{"on", "fields"}]}`, where `on`
/// counts the message's elements as [`ReasoningState`] does (its content blocks, then its tool
/// calls). Each part carries its provider, so a converter places each alike.
#[derive(Debug, Clone, PartialEq)]
pub struct MessageFields {
    /// Fields of the message object itself.
    pub message: Option<ProviderFields>,
    /// Fields of its elements: the element's index and its fields.
    pub items: Vec<(usize, ProviderFields)>,
}

impl MessageFields {
    /// Whose fields they are.
    pub fn provider(&self) -> Option<crate::ProviderId> {
        self.message.as_ref().or_else(|| self.items.first().map(|(_, f)| f)).map(|f| f.provider)
    }

    /// The fields of element `at`, with their index among the items.
    pub fn on(&self, at: usize) -> impl Iterator<Item = (usize, &ProviderFields)> {
        self.items.iter().enumerate().filter(move |(_, (on, _))| *on == at).map(|(n, (_, fields))| (n, fields))
    }
}

/// What a provider needs back from its own answer on the next turn — thought signatures,
/// thinking blocks, encrypted reasoning — kept opaque, as the provider wrote it: `{"provider",
/// "items"}` under an assistant message's `reasoningState`. Each item is an object placed by
/// `before` (an index into the message's content blocks followed by its tool calls: the item is
/// written before that one, or last) or attached by `on` (the same index).
#[derive(Debug, Clone, PartialEq)]
pub struct ReasoningState {
    /// The provider whose answer this came from; no other provider is sent it.
    pub provider: crate::ProviderId,
    /// The provider's items, in the order it gave them.
    pub items: Vec<serde_json::Value>,
}

impl ReasoningState {
    /// The items placed `before` element `at` (items past the last element go with the last
    /// one, `at == len`).
    pub fn before(&self, at: usize, len: usize) -> impl Iterator<Item = &serde_json::Value> {
        self.items.iter().filter(move |item| {
            item.get("before").and_then(serde_json::Value::as_u64).is_some_and(|b| {
                let b = usize::try_from(b).unwrap_or(usize::MAX).min(len);
                b == at
            })
        })
    }

    /// The items attached `on` element `at` (past the last element: on the last one).
    pub fn on(&self, at: usize, len: usize) -> impl Iterator<Item = &serde_json::Value> {
        self.items.iter().filter(move |item| {
            item.get("on").and_then(serde_json::Value::as_u64).is_some_and(|b| {
                let b = usize::try_from(b).unwrap_or(usize::MAX).min(len.saturating_sub(1));
                b == at
            })
        })
    }
}

/// A message role. Known roles are matched case-insensitively; any other non-empty role is valid
/// input and kept as given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Role<'a> {
    /// `user`
    User,
    /// `assistant`
    Assistant,
    /// `system`
    System,
    /// `tool`
    Tool,
    /// Any other role, as given.
    Other(Cow<'a, str>),
}

impl<'a> Role<'a> {
    /// Reads a role, matching the four known ones case-insensitively.
    pub fn parse(raw: impl Into<Cow<'a, str>>) -> Self {
        let raw = raw.into();
        for (name, role) in
            [("user", Role::User), ("assistant", Role::Assistant), ("system", Role::System), ("tool", Role::Tool)]
        {
            if raw.eq_ignore_ascii_case(name) {
                return role;
            }
        }
        Role::Other(raw)
    }

    /// The role's name (lowercase for known roles).
    pub fn as_str(&self) -> &str {
        match self {
            Self::User => "user",
            Self::Assistant => "assistant",
            Self::System => "system",
            Self::Tool => "tool",
            Self::Other(name) => name,
        }
    }

    fn into_owned(self) -> Role<'static> {
        match self {
            Self::User => Role::User,
            Self::Assistant => Role::Assistant,
            Self::System => Role::System,
            Self::Tool => Role::Tool,
            Self::Other(name) => Role::Other(Cow::Owned(name.into_owned())),
        }
    }
}

/// A tool call made by the assistant.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall<'a> {
    /// The call's id, answered by a tool message's `toolCallId`.
    pub id: Cow<'a, str>,
    /// The call's type (`function` unless given).
    pub kind: Cow<'a, str>,
    /// The function's name.
    pub name: Cow<'a, str>,
    /// The arguments: a string holding a JSON object.
    pub arguments: Cow<'a, str>,
}

/// A validated execute request: the input and the remaining parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct ExecuteRequest<'a> {
    /// The input, from `input` or from the legacy `parameters.question`.
    pub input: AgentInput<'a>,
    /// `parameters` as given (without `question` when it was used as the input).
    pub parameters: serde_json::Map<String, serde_json::Value>,
    /// Whether the input came from the legacy `parameters.question`.
    pub legacy_question: bool,
    /// Where the input is in the request (`/input`, `/parameters/question`, or `""` for a bare
    /// input), so conversion problems point at the right place.
    pub input_path: Path,
    /// The request text the input borrows from, when it was parsed from text: converters copy a
    /// large base64 payload's JSON literal from it verbatim instead of re-escaping it.
    pub source_text: Option<&'a str>,
}

impl<'a> AgentInput<'a> {
    /// Which form this is.
    pub fn input_type(&self) -> InputType {
        match self {
            Self::Text(_) => InputType::Text,
            Self::Blocks(_) => InputType::ContentBlocks,
            Self::Messages(_) => InputType::Messages,
        }
    }

    /// The `question` ml-commons' agent runners read, extracted exactly as ml-commons does:
    /// text unchanged; each non-blank text block trimmed and followed by `\n`; for messages,
    /// the text of those after the last assistant message, joined with `\n`, skipping messages
    /// without text (`AgentInputProcessor.extractTextFromMessages`).
    pub fn question(&self) -> String {
        fn blocks(content: &[ContentBlock<'_>], out: &mut String) {
            for block in content {
                if let ContentBlock::Text(text) = block {
                    let text = java_trim(text);
                    if !text.is_empty() {
                        out.push_str(text);
                        out.push('\n');
                    }
                }
            }
        }
        match self {
            Self::Text(text) => text.to_string(),
            Self::Blocks(content) => {
                let mut out = String::new();
                blocks(content, &mut out);
                out
            }
            Self::Messages(messages) => {
                let start = messages.iter().rposition(|m| m.role == Role::Assistant).map_or(0, |i| i + 1);
                let mut out = String::new();
                let mut text = String::new();
                for message in &messages[start..] {
                    text.clear();
                    blocks(&message.content, &mut text);
                    // A message without text adds nothing, not even the separator.
                    if !text.is_empty() {
                        if !out.is_empty() {
                            out.push('\n');
                        }
                        out.push_str(&text);
                    }
                }
                out
            }
        }
    }

    /// Total length of the text and media data, a cheap estimate of the converted body's size.
    pub fn payload_len(&self) -> usize {
        fn blocks(content: &[ContentBlock<'_>]) -> usize {
            content
                .iter()
                .map(|block| match block {
                    ContentBlock::Text(text) => text.len(),
                    other => other.source().map_or(0, |s| s.data().len()),
                })
                .sum()
        }
        match self {
            Self::Text(text) => text.len(),
            Self::Blocks(content) => blocks(content),
            Self::Messages(messages) => messages.iter().map(|m| blocks(&m.content) + 64).sum(),
        }
    }

    /// The input as a conversation: text and content blocks become one user message.
    pub fn into_messages(self) -> Vec<Message<'a>> {
        match self {
            Self::Text(text) => vec![Message::user(vec![ContentBlock::Text(text)])],
            Self::Blocks(content) => vec![Message::user(content)],
            Self::Messages(messages) => messages,
        }
    }

    /// Copies every borrowed string so the input outlives the JSON it was parsed from.
    pub fn into_owned(self) -> AgentInput<'static> {
        match self {
            Self::Text(text) => AgentInput::Text(owned(text)),
            Self::Blocks(content) => AgentInput::Blocks(content.into_iter().map(ContentBlock::into_owned).collect()),
            Self::Messages(messages) => AgentInput::Messages(messages.into_iter().map(Message::into_owned).collect()),
        }
    }
}

/// Trims as Java's `String.trim()` does — characters up to U+0020, nothing else — which is how
/// ml-commons decides that text is blank and how it trims text for the question.
pub(crate) fn java_trim(s: &str) -> &str {
    s.trim_matches(|c: char| c <= ' ')
}

fn owned(s: Cow<'_, str>) -> Cow<'static, str> {
    Cow::Owned(s.into_owned())
}

impl<'a> ContentBlock<'a> {
    /// A text block.
    pub fn text(text: impl Into<Cow<'a, str>>) -> Self {
        Self::Text(text.into())
    }

    /// `text`, `image`, `video`, `document` or `provider_item`.
    pub const fn type_name(&self) -> &'static str {
        match self {
            Self::Text(_) => "text",
            Self::Image(_) => "image",
            Self::Video(_) => "video",
            Self::Document(_) => "document",
            Self::ProviderItem(_) => "provider_item",
        }
    }

    /// The media source, if this is a media block.
    pub fn source(&self) -> Option<&Source<'a>> {
        match self {
            Self::Text(_) | Self::ProviderItem(_) => None,
            Self::Image(media) => Some(&media.source),
            Self::Video(media) => Some(&media.source),
            Self::Document(document) => Some(&document.source),
        }
    }

    /// Copies every borrowed string.
    pub fn into_owned(self) -> ContentBlock<'static> {
        match self {
            Self::Text(text) => ContentBlock::Text(owned(text)),
            Self::Image(media) => {
                ContentBlock::Image(Media { format: media.format, source: media.source.into_owned() })
            }
            Self::Video(media) => {
                ContentBlock::Video(Media { format: media.format, source: media.source.into_owned() })
            }
            Self::Document(document) => ContentBlock::Document(Document {
                name: document.name.map(owned),
                format: document.format,
                source: document.source.into_owned(),
            }),
            Self::ProviderItem(item) => ContentBlock::ProviderItem(item),
        }
    }
}

impl Source<'_> {
    /// Copies the borrowed data.
    pub fn into_owned(self) -> Source<'static> {
        match self {
            Self::Base64(data) => Source::Base64(owned(data)),
            Self::Url(url) => Source::Url(owned(url)),
        }
    }
}

impl<'a> Message<'a> {
    /// A message with a role and content and nothing else.
    pub fn new(role: Role<'a>, content: Vec<ContentBlock<'a>>) -> Self {
        Self {
            role,
            content,
            tool_calls: Vec::new(),
            tool_call_id: None,
            json_result: false,
            reasoning_state: None,
            provider_fields: None,
        }
    }

    /// A user message.
    pub fn user(content: Vec<ContentBlock<'a>>) -> Self {
        Self::new(Role::User, content)
    }

    /// An assistant message.
    pub fn assistant(content: Vec<ContentBlock<'a>>) -> Self {
        Self::new(Role::Assistant, content)
    }

    /// Copies every borrowed string.
    pub fn into_owned(self) -> Message<'static> {
        Message {
            role: self.role.into_owned(),
            content: self.content.into_iter().map(ContentBlock::into_owned).collect(),
            tool_calls: self.tool_calls.into_iter().map(ToolCall::into_owned).collect(),
            tool_call_id: self.tool_call_id.map(owned),
            json_result: self.json_result,
            reasoning_state: self.reasoning_state,
            provider_fields: self.provider_fields,
        }
    }
}

impl ToolCall<'_> {
    /// Copies every borrowed string.
    pub fn into_owned(self) -> ToolCall<'static> {
        ToolCall {
            id: owned(self.id),
            kind: owned(self.kind),
            name: owned(self.name),
            arguments: owned(self.arguments),
        }
    }
}

impl ExecuteRequest<'_> {
    /// Copies every borrowed string.
    pub fn into_owned(self) -> ExecuteRequest<'static> {
        ExecuteRequest {
            input: self.input.into_owned(),
            parameters: self.parameters,
            legacy_question: self.legacy_question,
            input_path: self.input_path,
            source_text: None,
        }
    }
}

// Serialization writes the canonical standard form: lowercase types and formats, `source` objects,
// camelCase message keys — the same JSON the validator accepts.

impl Serialize for AgentInput<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Text(text) => serializer.serialize_str(text),
            Self::Blocks(content) => content.serialize(serializer),
            Self::Messages(messages) => messages.serialize(serializer),
        }
    }
}

struct SourceJson<'s, 'a> {
    source: &'s Source<'a>,
    format: &'static str,
}

impl Serialize for SourceJson<'_, '_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("type", self.source.kind())?;
        map.serialize_entry("format", self.format)?;
        map.serialize_entry("data", self.source.data())?;
        map.end()
    }
}

impl Serialize for ContentBlock<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (source, format, name) = match self {
            Self::Text(text) => {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("type", "text")?;
                map.serialize_entry("text", text)?;
                return map.end();
            }
            Self::Image(media) => (&media.source, media.format.as_str(), None),
            Self::Video(media) => (&media.source, media.format.as_str(), None),
            Self::Document(document) => (&document.source, document.format.as_str(), document.name.as_deref()),
            Self::ProviderItem(item) => {
                let mut map = serializer.serialize_map(Some(3))?;
                map.serialize_entry("type", "provider_item")?;
                map.serialize_entry("provider", item.provider.as_str())?;
                map.serialize_entry("item", &item.item)?;
                return map.end();
            }
        };
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("type", self.type_name())?;
        if let Some(name) = name {
            map.serialize_entry("name", name)?;
        }
        map.serialize_entry("source", &SourceJson { source, format })?;
        map.end()
    }
}

impl Serialize for Role<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl Serialize for Message<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("role", &self.role)?;
        map.serialize_entry("content", &self.content)?;
        if !self.tool_calls.is_empty() {
            map.serialize_entry("toolCalls", &self.tool_calls)?;
        }
        if let Some(id) = &self.tool_call_id {
            map.serialize_entry("toolCallId", id)?;
        }
        if self.json_result {
            map.serialize_entry("resultFormat", "json")?;
        }
        if let Some(state) = &self.reasoning_state {
            map.serialize_entry("reasoningState", state)?;
        }
        if let Some(fields) = &self.provider_fields {
            map.serialize_entry("providerFields", fields)?;
        }
        map.end()
    }
}

impl Serialize for MessageFields {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Item<'f>(usize, &'f serde_json::Map<String, serde_json::Value>);
        impl Serialize for Item<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("on", &self.0)?;
                map.serialize_entry("fields", self.1)?;
                map.end()
            }
        }
        let mut map = serializer.serialize_map(None)?;
        if let Some(provider) = self.provider() {
            map.serialize_entry("provider", provider.as_str())?;
        }
        if let Some(message) = &self.message {
            map.serialize_entry("fields", &message.fields)?;
        }
        if !self.items.is_empty() {
            let items: Vec<Item<'_>> = self.items.iter().map(|(on, f)| Item(*on, &f.fields)).collect();
            map.serialize_entry("items", &items)?;
        }
        map.end()
    }
}

impl Serialize for ReasoningState {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("provider", self.provider.as_str())?;
        map.serialize_entry("items", &self.items)?;
        map.end()
    }
}

impl Serialize for ToolCall<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Function<'s>(&'s str, &'s str);
        impl Serialize for Function<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(2))?;
                map.serialize_entry("name", self.0)?;
                map.serialize_entry("arguments", self.1)?;
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(3))?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("type", &self.kind)?;
        map.serialize_entry("function", &Function(&self.name, &self.arguments))?;
        map.end()
    }
}
