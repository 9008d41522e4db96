//! Standard input → Anthropic Messages request body (`POST /v1/messages`).
//!
//! API reference: <https://docs.claude.com/en/api/messages>. System text is the top-level
//! `system`; turns alternate `user`/`assistant` (same-role runs are merged, as the API itself
//! would); tool calls become `tool_use` blocks and tool results `tool_result` blocks at the start
//! of the next user turn. Images and PDFs go as base64 or URL sources, plain text documents as a
//! text source (txt, csv, md, html); video, other document formats and `s3://` URLs are errors.

use std::borrow::Cow;

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::format::DocumentFormat;
use crate::model::{ContentBlock, ExecuteRequest, Role, Source};
use crate::options::{CacheTtl, Effort, Reasoning, ToolChoice as OptionChoice, ToolSpec};
use crate::path::Path;
use crate::providers::common::convert::marks::{Mark, Marks};
use crate::providers::common::convert::payload::Payload;
use crate::providers::common::convert::turns::{AlternatingTurn, Alternation, Turn, state_blocks};
use crate::providers::common::convert::{Conversion, Declared, PLAIN_NAME, Profile, Splice, non_blank};
use crate::providers::common::convert::{ConvertOptions, Converted, Provider, ProviderId};
use crate::text::quote;

use self::wire::{
    Block, CacheControl, DocumentSource, FunctionTool, ImageSource, JsonOutputFormat, Message, MessagesRequest,
    OutputConfig, SystemBlock, Thinking, Tool, ToolChoice,
};

/// Most images in one request.
pub const MAX_IMAGES: u64 = 100;
/// Largest decoded image (5 MB).
pub const MAX_IMAGE_BYTES: u64 = 5 * 1024 * 1024;
/// Largest request (32 MB), checked against the media it carries.
pub const MAX_REQUEST_BYTES: u64 = 32 * 1024 * 1024;
/// Highest temperature.
pub const MAX_TEMPERATURE: f64 = 1.0;

/// What this converter can carry, for docs/providers.md.
pub const CAPABILITIES: crate::providers::common::convert::Capabilities =
    crate::providers::common::convert::Capabilities {
        provider: ProviderId::AnthropicMessages,
        image_base64: "✓",
        image_url: "✓ https",
        document_base64: "PDF; txt, csv, md, html as text",
        document_url: "PDF only",
        video: "✗",
        s3_urls: "✗",
        system: "top-level `system`",
        roles: "system, user, assistant, tool",
        media_outside_user: "tool results only",
        tool_results: "`tool_result` block, text, images, documents",
        limits: "≤ 100 images of ≤ 5 MB; request ≤ 32 MB; temperature ≤ 1; temperature or top_p, not both",
    };

/// What the shared checks need to know about Anthropic Messages.
pub(crate) const PROFILE: Profile = Profile {
    provider: ProviderId::AnthropicMessages,
    name: ProviderId::AnthropicMessages.display_name(),
    max_temperature: MAX_TEMPERATURE,
    max_stop_sequences: Some(usize::MAX),
    tool_name: PLAIN_NAME,
    // Ids Anthropic refuses are rewritten (`ToolUseIds`), not refused.
    tool_call_id: None,
    roles: &["user", "assistant", "system", "tool"],
    roles_text: "user, assistant, system, tool",
    too_large: "send it by URL",
    legacy_option_wording: false,
    min_max_tokens: 1,
    temperature_or_top_p: true,
};

/// The Anthropic Messages converter.
#[derive(Debug, Clone, Copy, Default)]
pub struct AnthropicMessages;

impl Provider for AnthropicMessages {
    const ID: ProviderId = ProviderId::AnthropicMessages;
    type Request<'a> = MessagesRequest<'a>;

    fn convert_spliced<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
        splice: Option<&'a Splice<'a>>,
    ) -> Result<Converted<MessagesRequest<'a>>, Report> {
        let mut cx = Conversion::of(&PROFILE, request, splice);
        let turns = cx.carried(Turn::all(&request.input));
        let max_tokens = cx.sampling(options);
        let tools = cx.tools(options);
        limits(&mut cx, &turns);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let mut system: Vec<SystemBlock<'a>> = Vec::new();
        if let Some(prompt) = non_blank(options.system.as_deref()) {
            system.push(SystemBlock { kind: "text", text: prompt, cache_control: None });
        }
        let mut messages = Alternation::new();
        // Where each element's provider fields go, once turns are merged.
        let mut marks = Marks::new(ProviderId::AnthropicMessages, &turns);
        let mut documents = 0;
        let ids = ToolUseIds::new(&mut cx, &turns);
        cx.first_is_user(&turns);
        for (t, turn) in turns.iter().enumerate() {
            let role = match turn.role {
                Role::User | Role::Tool => "user",
                Role::Assistant => "assistant",
                Role::System => {
                    let first = system.len();
                    let texts = cx.text_only(turn, "system prompts");
                    system.extend(texts.into_iter().map(|text| SystemBlock {
                        kind: "text",
                        text,
                        cache_control: None,
                    }));
                    if marks.on() {
                        system_fields(&mut cx, turn, first);
                    }
                    continue;
                }
                Role::Other(_) => {
                    cx.role_not_supported(turn);
                    continue;
                }
            };
            let (blocks, marked) = blocks(&mut cx, turn, (t, marks.on()), &mut documents, &ids);
            let row = marks.row(&blocks, marked, Message::is_tool_result);
            let merged = messages.push(&mut cx, turn, role, blocks);
            marks.push(merged, row);
            // A tool message's own fields are those of its `tool_result` block.
            if marks.on() && *turn.role != Role::Tool {
                cx.place_message(turn, &format!("/messages/{}", messages.turns.len() - 1));
            }
        }
        marks.place(&mut cx, &turns);
        cx.tool_specs_required(&turns, options);
        cx.pairs_by_message(&turns, false);
        cx.prefill_without_trailing_space(&turns);
        let tool_choice = cx.tool_choice(options).map(|choice| match choice {
            OptionChoice::Auto => ToolChoice { kind: "auto", name: None },
            OptionChoice::Any => ToolChoice { kind: "any", name: None },
            OptionChoice::None => ToolChoice { kind: "none", name: None },
            OptionChoice::Tool { name } => ToolChoice { kind: "tool", name: Some(name) },
        });
        let format = options.response_format.as_ref().map(|format| {
            cx.response_format_unsent(format, &["name", "description", "strict"]);
            JsonOutputFormat { kind: "json_schema", schema: &format.schema }
        });
        // Extended thinking: a budget, or adaptive thinking at an effort.
        let (thinking, effort) = match cx.thinking(options, max_tokens) {
            Some(Reasoning::BudgetTokens(budget)) => {
                (Some(Thinking { kind: "enabled", budget_tokens: Some(budget) }), None)
            }
            // Adaptive thinking's efforts (`output_config.effort`).
            Some(Reasoning::Effort(effort)) => {
                match cx.effort_in(effort, &[Effort::Low, Effort::Medium, Effort::High, Effort::Max]) {
                    Some(effort) => (Some(Thinking { kind: "adaptive", budget_tokens: None }), Some(effort.as_str())),
                    None => (None, None),
                }
            }
            None => (None, None),
        };
        let output_config = (format.is_some() || effort.is_some()).then_some(OutputConfig { format, effort });
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let cache_control =
            options.prompt_cache.map(|cache| CacheControl { kind: "ephemeral", ttl: cache.ttl.map(CacheTtl::as_str) });
        if let Some(last) = system.last_mut() {
            last.cache_control = cache_control;
        }
        let body = MessagesRequest {
            max_tokens,
            system,
            messages: messages.turns,
            temperature: options.temperature,
            top_p: options.top_p,
            stop_sequences: options.stop_sequences.iter().map(String::as_str).collect(),
            // The cache point goes on the last function tool (a server tool is written as given).
            tools: {
                let last = tools.iter().rposition(|tool| matches!(tool, Declared::Function { .. }));
                let function = |k, spec: &'a ToolSpec, schema| {
                    let (name, description) = (&spec.name, non_blank(spec.description.as_deref()));
                    let cache_control = if Some(k) == last { cache_control } else { None };
                    Tool::Function(FunctionTool { name, description, input_schema: schema, cache_control })
                };
                cx.wire_tools(tools, "/tools", function, Tool::Raw)
            },
            tool_choice,
            thinking,
            output_config,
        };
        Ok(Converted { body, warnings: cx.report.warnings, placements: cx.placements })
    }
}

impl<'a> AlternatingTurn for Message<'a> {
    type Role = &'static str;
    type Block = Block<'a>;
    const ROLES: &'static str = "user and assistant";

    fn new(role: &'static str, content: Vec<Block<'a>>) -> Self {
        Self { role, content }
    }

    fn role(&self) -> &'static str {
        self.role
    }

    fn blocks(&mut self) -> &mut Vec<Block<'a>> {
        &mut self.content
    }

    fn role_name(role: &'static str) -> &'static str {
        role
    }

    fn is_tool_result(block: &Block<'a>) -> bool {
        matches!(block, Block::ToolResult { .. })
    }
}

fn limits(cx: &mut Conversion<'_>, turns: &[Turn<'_, '_>]) {
    let mut images = 0u64;
    let mut media = 0u64;
    for turn in turns {
        for (j, block) in turn.content.iter().enumerate() {
            let path = || turn.origin.block_path(cx.base, j);
            if let ContentBlock::Image(image) = block {
                images += 1;
                cx.count(images, MAX_IMAGES, "image", &path);
                cx.size(&image.source, MAX_IMAGE_BYTES, "image", &path);
            }
            media += block.source().map_or(0, |s| s.decoded_len().unwrap_or(0) as u64);
        }
    }
    cx.total(media, MAX_REQUEST_BYTES, "media");
}

fn is_tool_use_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Tool call ids as sent. Anthropic takes only letters, digits, `_` and `-` in `tool_use` ids;
/// other ids (`call.1`, `fc:2`) are rewritten, each character it refuses becoming `_`, with
/// `_2`, `_3`, ... added when that names an id already in the request. The same id is rewritten
/// the same way in its call and its result, with one `tool_call_id_rewritten` warning at its
/// first place.
struct ToolUseIds<'r> {
    /// Each rewritten id and what it is sent as; a list, since ids are few (and a hash table
    /// would add its own code to the npm `.wasm`).
    rewritten: Vec<(&'r str, String)>,
}

impl<'r> ToolUseIds<'r> {
    fn new(cx: &mut Conversion<'_>, turns: &[Turn<'r, '_>]) -> Self {
        let mut places: Vec<(&'r str, Path)> = Vec::new();
        for turn in turns {
            for (k, call) in turn.tool_calls.iter().enumerate() {
                places.push((call.id.as_ref(), turn.origin.field_path(cx.base, "toolCalls").index(k).key("id")));
            }
            if *turn.role == Role::Tool
                && let Some(id) = turn.tool_call_id
            {
                places.push((id, turn.origin.field_path(cx.base, "toolCallId")));
            }
        }
        let mut rewritten: Vec<(&'r str, String)> = Vec::new();
        for (id, path) in &places {
            if is_tool_use_id(id) || rewritten.iter().any(|(old, _)| old == id) {
                continue;
            }
            let base: String =
                id.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
            let taken = |name: &str| {
                places.iter().any(|(other, _)| *other == name) || rewritten.iter().any(|(_, new)| new == name)
            };
            let mut new = base.clone();
            let mut n = 2u32;
            while taken(&new) {
                new = format!("{base}_{n}");
                n += 1;
            }
            let message = format!(
                "Anthropic Messages tool call ids take only letters, digits, '_' and '-'; {} is sent as {} (in its call and its result)",
                quote(id),
                quote(&new)
            );
            cx.error(
                Diagnostic::new(Code::ToolCallIdRewritten, path.clone(), message)
                    .received(*id)
                    .expected([new.as_str()]),
            );
            rewritten.push((id, new));
        }
        Self { rewritten }
    }

    /// The id to send for `id`.
    fn sent(&self, id: &'r str) -> Cow<'r, str> {
        self.rewritten.iter().find(|(old, _)| *old == id).map_or(Cow::Borrowed(id), |(_, new)| Cow::Owned(new.clone()))
    }
}

/// The fields of a system message's text blocks, at the `system` blocks they became from `first`.
fn system_fields<'a>(cx: &mut Conversion<'a>, turn: &Turn<'a, 'a>, first: usize) {
    let texts = turn.content.iter().enumerate().filter(|(_, b)| matches!(b, ContentBlock::Text(_)));
    for (k, (j, _)) in texts.enumerate() {
        cx.place_element(turn, j, &format!("/system/{}", first + k));
    }
}

/// The blocks of `turn`, the `t`-th, and (when `mark`ed) each element's block by its index.
fn blocks<'a>(
    cx: &mut Conversion<'a>,
    turn: &Turn<'a, 'a>,
    (t, mark): (usize, bool),
    documents: &mut usize,
    ids: &ToolUseIds<'a>,
) -> (Vec<Block<'a>>, Vec<(usize, Mark)>) {
    let mut blocks = Vec::with_capacity(turn.content.len() + turn.tool_calls.len() + 1);
    let mut marked = Vec::new();
    if let Some(text) = turn.text {
        blocks.push(Block::Text { text });
        return (blocks, marked);
    }
    if *turn.role == Role::Tool {
        let id = ids.sent(turn.tool_call_id.unwrap_or_default());
        let mut content = Vec::with_capacity(turn.content.len());
        let mut inner = Vec::new();
        for (j, b) in turn.content.iter().enumerate() {
            let written = match b {
                ContentBlock::ProviderItem(item) => {
                    cx.item_in_tool_result(turn, j, item);
                    None
                }
                _ => block(cx, turn, j, b, documents),
            };
            if let Some(written) = written {
                if mark {
                    inner.push((content.len(), j, ""));
                }
                content.push(written);
            }
        }
        if mark {
            marked.push((0, Mark { turn: t, element: None, key: "", inner }));
        }
        blocks.push(Block::ToolResult { tool_use_id: id, content });
        return (blocks, marked);
    }
    let assistant = *turn.role == Role::Assistant;
    // The turn's own thinking and redacted_thinking blocks go back unmodified, where they were.
    let state = cx.reasoning_state(turn, ProviderId::AnthropicMessages);
    let len = turn.content.len() + turn.tool_calls.len();
    let thinking = |at: usize, blocks: &mut Vec<Block<'a>>| {
        for block in state_blocks(state, at, len) {
            blocks.push(Block::Raw(block));
        }
    };
    for (j, content) in turn.content.iter().enumerate() {
        thinking(j, &mut blocks);
        if assistant && !matches!(content, ContentBlock::Text(_) | ContentBlock::ProviderItem(_)) {
            cx.media_in_role(turn, j, content, "assistant messages");
            continue;
        }
        if let Some(written) = block(cx, turn, j, content, documents) {
            if mark {
                marked.push((blocks.len(), Mark::element(t, j, "")));
            }
            blocks.push(written);
        }
    }
    for (k, call) in turn.tool_calls.iter().enumerate() {
        thinking(turn.content.len() + k, &mut blocks);
        cx.call_name(&call.name, turn, k);
        // Validation checked the arguments hold a JSON object.
        if let Some(input) = crate::providers::common::convert::payload::raw_json(&call.arguments) {
            if mark {
                marked.push((blocks.len(), Mark::element(t, turn.content.len() + k, "")));
            }
            blocks.push(Block::ToolUse { id: ids.sent(&call.id), name: &call.name, input });
        }
    }
    thinking(len, &mut blocks);
    (blocks, marked)
}

fn block<'a>(
    cx: &mut Conversion<'a>,
    turn: &Turn<'a, 'a>,
    j: usize,
    content: &'a ContentBlock<'a>,
    documents: &mut usize,
) -> Option<Block<'a>> {
    let path = || turn.origin.block_path(cx.base, j);
    match content {
        ContentBlock::Text(text) => Some(Block::Text { text }),
        // A server tool's call or result (any block without a standard form), as given.
        ContentBlock::ProviderItem(item) => cx.provider_item(turn, j, item).map(Block::Raw),
        ContentBlock::Image(image) => match &image.source {
            Source::Base64(data) => Some(Block::Image {
                source: ImageSource::Base64 { media_type: image.format.mime_type(), data: cx.payload(data) },
            }),
            Source::Url(url) => cx
                .web_url(url, path().key("source").key("data"), "image")
                .then_some(Block::Image { source: ImageSource::Url { url } }),
        },
        ContentBlock::Document(document) => {
            *documents += 1;
            let title = document.name.as_deref().map(str::trim).filter(|n| !n.is_empty());
            let source = match (document.format, &document.source) {
                (DocumentFormat::Pdf, Source::Base64(data)) => {
                    DocumentSource::Base64 { media_type: document.format.mime_type(), data: cx.payload(data) }
                }
                (DocumentFormat::Pdf, Source::Url(url)) => {
                    if !cx.web_url(url, path().key("source").key("data"), "document") {
                        return None;
                    }
                    DocumentSource::Url { url }
                }
                // Plain text sources carry any text format; the API reads them as text/plain.
                (
                    DocumentFormat::Txt | DocumentFormat::Csv | DocumentFormat::Md | DocumentFormat::Html,
                    Source::Base64(data),
                ) => {
                    let Ok(text) =
                        String::from_utf8(crate::base64::decode_head(data, crate::base64::decoded_len(data)))
                    else {
                        cx.error(Diagnostic::new(
                            Code::InvalidForProvider,
                            path().key("source").key("data"),
                            format!(
                                "Anthropic Messages reads {} documents as UTF-8 text, and this one is not UTF-8; convert it to UTF-8 or send it as PDF",
                                document.format
                            ),
                        ));
                        return None;
                    };
                    DocumentSource::Text { media_type: "text/plain", data: text }
                }
                (
                    DocumentFormat::Txt | DocumentFormat::Csv | DocumentFormat::Md | DocumentFormat::Html,
                    Source::Url(_),
                ) => {
                    cx.unsupported(
                        path().key("source").key("data"),
                        &format!("{} documents by URL (only PDF URLs)", document.format),
                        "send the text as base64 data or put it in a text block",
                    );
                    return None;
                }
                (format, _) => {
                    cx.unsupported(
                        path().key("source").key("format"),
                        &format!("{format} documents (only PDF and text: txt, csv, md, html)"),
                        "convert the document to PDF, or put its text in a text block",
                    );
                    return None;
                }
            };
            Some(Block::Document { source, title })
        }
        ContentBlock::Video(_) => {
            cx.no_video(path());
            None
        }
    }
}

/// Messages request shapes, limited to what the standard input can produce.
pub mod wire {
    use std::borrow::Cow;

    use serde::Serialize;
    use serde_json::Value;
    use serde_json::value::RawValue;

    /// The body of `POST /v1/messages` (without `model`, which the caller adds).
    #[derive(Debug, Clone, Serialize)]
    pub struct MessagesRequest<'a> {
        /// Most tokens to generate (always set: the API requires it).
        pub max_tokens: u64,
        /// System text blocks.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub system: Vec<SystemBlock<'a>>,
        /// Alternating user and assistant turns.
        pub messages: Vec<Message<'a>>,
        /// Sampling temperature, 0 to 1.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub temperature: Option<f64>,
        /// Nucleus sampling.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub top_p: Option<f64>,
        /// Stop sequences.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub stop_sequences: Vec<&'a str>,
        /// Tools.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub tools: Vec<Tool<'a>>,
        /// Which tools the model may call.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub tool_choice: Option<ToolChoice<'a>>,
        /// Extended thinking.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub thinking: Option<Thinking>,
        /// Structured output, and the effort of adaptive thinking.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub output_config: Option<OutputConfig<'a>>,
    }

    /// `thinking`: `{"type": "enabled", "budget_tokens"}` or `{"type": "adaptive"}`.
    #[derive(Debug, Clone, Copy, Serialize)]
    pub struct Thinking {
        /// `enabled` or `adaptive`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// With `enabled`: most tokens to think with.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub budget_tokens: Option<u64>,
    }

    /// `tool_choice`: `{"type": "auto" | "any" | "none"}` or `{"type": "tool", "name"}`.
    #[derive(Debug, Clone, Serialize)]
    pub struct ToolChoice<'a> {
        /// `auto`, `any`, `none` or `tool`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// With `tool`: the tool to call.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub name: Option<&'a str>,
    }

    /// `cache_control`: a cache breakpoint after the block it is on.
    #[derive(Debug, Clone, Copy, Serialize)]
    pub struct CacheControl {
        /// Always `ephemeral`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// `5m` or `1h`; five minutes when absent.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub ttl: Option<&'static str>,
    }

    /// `output_config`.
    #[derive(Debug, Clone, Serialize)]
    pub struct OutputConfig<'a> {
        /// The answer's JSON Schema.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub format: Option<JsonOutputFormat<'a>>,
        /// `low`, `medium` or `high`.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub effort: Option<&'static str>,
    }

    /// `output_config.format` of type `json_schema`.
    #[derive(Debug, Clone, Serialize)]
    pub struct JsonOutputFormat<'a> {
        /// Always `json_schema`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// The JSON Schema.
        pub schema: &'a Value,
    }

    /// `{"type": "text", "text"}` in `system`.
    #[derive(Debug, Clone, Serialize)]
    pub struct SystemBlock<'a> {
        /// Always `text`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// The text.
        pub text: &'a str,
        /// A cache point, on the last system block.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cache_control: Option<CacheControl>,
    }

    /// One turn.
    #[derive(Debug, Clone, Serialize)]
    pub struct Message<'a> {
        /// `user` or `assistant`.
        pub role: &'static str,
        /// Its blocks.
        pub content: Vec<Block<'a>>,
    }

    /// A content block, tagged by `type`.
    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Block<'a> {
        /// Text.
        Text {
            /// The text.
            text: &'a str,
        },
        /// An image.
        Image {
            /// Where it is.
            source: ImageSource<'a>,
        },
        /// A document.
        Document {
            /// Where it is.
            source: DocumentSource<'a>,
            /// Its name, when given.
            #[serde(skip_serializing_if = "Option::is_none")]
            title: Option<&'a str>,
        },
        /// A tool call of the assistant.
        ToolUse {
            /// The call's id.
            id: Cow<'a, str>,
            /// The tool.
            name: &'a str,
            /// The arguments object.
            input: Box<RawValue>,
        },
        /// A tool's result.
        ToolResult {
            /// The call answered.
            tool_use_id: Cow<'a, str>,
            /// Text, image and document blocks.
            content: Vec<Block<'a>>,
        },
        /// A `thinking` or `redacted_thinking` block, or a provider item (a server tool's call or
        /// result), as the provider gave it.
        #[serde(untagged)]
        Raw(&'a serde_json::Value),
    }

    /// An image source.
    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum ImageSource<'a> {
        /// Inline bytes.
        Base64 {
            /// `image/png`, `image/jpeg`, `image/gif` or `image/webp`.
            media_type: &'static str,
            /// Base64.
            data: super::Payload<'a>,
        },
        /// A URL the provider fetches.
        Url {
            /// The URL.
            url: &'a str,
        },
    }

    /// A document source.
    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum DocumentSource<'a> {
        /// Inline PDF bytes.
        Base64 {
            /// `application/pdf`.
            media_type: &'static str,
            /// Base64.
            data: super::Payload<'a>,
        },
        /// A PDF URL.
        Url {
            /// The URL.
            url: &'a str,
        },
        /// Plain text.
        Text {
            /// `text/plain`.
            media_type: &'static str,
            /// The decoded text.
            data: String,
        },
    }

    /// A function tool, or a tool of Anthropic's own (`web_search_20250305`) as given.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum Tool<'a> {
        Function(FunctionTool<'a>),
        Raw(&'a serde_json::Value),
    }

    /// A function tool.
    #[derive(Debug, Clone, Serialize)]
    pub struct FunctionTool<'a> {
        /// Its name.
        pub name: &'a str,
        /// What it does.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub description: Option<&'a str>,
        /// JSON Schema of its arguments.
        pub input_schema: &'a Value,
        /// A cache point, on the last tool.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub cache_control: Option<CacheControl>,
    }
}
