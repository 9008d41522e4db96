//! Standard input → AWS Bedrock Runtime `Converse` request body.
//!
//! API reference: <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html>.
//! What Bedrock rejects is rejected here first, with a path: web URLs, media outside user turns,
//! a first turn that is not the user's, tool blocks without tool specs, invalid names and ids,
//! and the documented count and size limits (checked before any body is built).

pub mod names;
pub mod wire;

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{ContentBlock, ExecuteRequest, Role, Source};
use crate::options::{CacheTtl, Reasoning, ToolChoice as OptionChoice};
use crate::path::Path;
use crate::providers::common::convert::marks::{Mark, Marks};
use crate::providers::common::convert::turns::{AlternatingTurn, Alternation, ToolBlocks, Turn, state_blocks};
use crate::providers::common::convert::{Conversion, PLAIN_NAME, Profile, Rule, Splice, non_blank};
use crate::providers::common::convert::{ConvertOptions, Converted, Provider, ProviderId, option_path};
use crate::text::quote;
use crate::url::{self, Scheme};

use self::names::{NameChange, Names};
use self::wire::{
    CachePointBlock, ContentBlock as Block, ConversationRole, ConverseRequest, DocumentBlock, ImageBlock,
    InferenceConfiguration, JsonSchemaDefinition, MediaSource, Message, OutputConfig, OutputFormat,
    OutputFormatStructure, S3Location, SystemContentBlock, Tool, ToolChoice, ToolConfiguration, ToolInputSchema,
    ToolResultBlock, ToolResultContentBlock, ToolSpecification, ToolUseBlock, VideoBlock,
};

/// Most images in one request.
pub const MAX_IMAGES: u64 = 20;
/// Largest decoded image: 3.75 MiB (Bedrock counts 5 MiB of base64).
pub const MAX_IMAGE_BYTES: u64 = 3_932_160;
/// Most documents in one request.
pub const MAX_DOCUMENTS: u64 = 5;
/// Largest decoded document: 4.5 MiB.
pub const MAX_DOCUMENT_BYTES: u64 = 4_718_592;
/// Base64 video text must stay under this many characters (25 MiB); larger videos go through S3.
pub const MAX_VIDEO_BASE64_CHARS: u64 = 26_214_400;
/// Most stop sequences.
pub const MAX_STOP_SEQUENCES: usize = 2500;
/// Highest temperature.
pub const MAX_TEMPERATURE: f64 = 1.0;

/// What this converter can carry, for docs/providers.md.
pub const CAPABILITIES: crate::providers::common::convert::Capabilities =
    crate::providers::common::convert::Capabilities {
        provider: ProviderId::BedrockConverse,
        image_base64: "✓",
        image_url: "s3:// only",
        document_base64: "✓ all 9 formats",
        document_url: "s3:// only",
        video: "✓",
        s3_urls: "✓ `s3Location`",
        system: "top-level `system`",
        roles: "system, user, assistant, tool",
        media_outside_user: "tool results only",
        tool_results: "`toolResult` block, text and media",
        limits: "≤ 20 images of ≤ 3.75 MB; ≤ 5 documents of ≤ 4.5 MB; video < 25 MB base64; temperature ≤ 1",
    };

/// What the shared checks need to know about Bedrock Converse.
pub(crate) const PROFILE: Profile = Profile {
    provider: ProviderId::BedrockConverse,
    name: "Bedrock",
    max_temperature: MAX_TEMPERATURE,
    max_stop_sequences: Some(MAX_STOP_SEQUENCES),
    tool_name: PLAIN_NAME,
    tool_call_id: Some(Rule { holds: is_tool_use_id, says: "1-64 letters, digits, '_', '.', ':' or '-'" }),
    roles: &["user", "assistant", "system", "tool"],
    roles_text: "user, assistant, system or tool",
    too_large: "use an s3:// URL source",
    legacy_option_wording: true,
    min_max_tokens: 1,
    temperature_or_top_p: false,
};

/// The Bedrock Converse converter.
#[derive(Debug, Clone, Copy, Default)]
pub struct BedrockConverse;

impl Provider for BedrockConverse {
    const ID: ProviderId = ProviderId::BedrockConverse;
    type Request<'a> = ConverseRequest<'a>;

    fn convert_spliced<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
        splice: Option<&'a Splice<'a>>,
    ) -> Result<Converted<ConverseRequest<'a>>, Report> {
        let mut cx = Conversion::of(&PROFILE, request, splice);
        let turns = cx.carried(Turn::all(&request.input));
        let max_tokens = cx.sampling(options);
        let declared = cx.tools(options);
        let mut tools = cx.wire_tools(
            declared,
            "/toolConfig/tools",
            |_, spec, schema| {
                Tool::ToolSpec(ToolSpecification {
                    name: &spec.name,
                    description: non_blank(spec.description.as_deref()),
                    input_schema: ToolInputSchema::Json(schema),
                })
            },
            Tool::Raw,
        );
        limits(&mut cx, &turns);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let inference_config = InferenceConfiguration {
            max_tokens,
            temperature: options.temperature,
            top_p: options.top_p,
            stop_sequences: options.stop_sequences.clone(),
        };
        let tool_choice = match cx.tool_choice(options) {
            None => None,
            Some(OptionChoice::Auto) => Some(ToolChoice::Auto {}),
            Some(OptionChoice::Any) => Some(ToolChoice::Any {}),
            Some(OptionChoice::Tool { name }) => Some(ToolChoice::Tool { name }),
            Some(OptionChoice::None) => {
                cx.unsupported(
                    option_path("tool_choice"),
                    "tool_choice 'none' (its tool choices are auto, any and a named tool)",
                    "leave tools out when the history has no tool calls, or use auto",
                );
                None
            }
        };
        let cache_point =
            options.prompt_cache.map(|cache| CachePointBlock { kind: "default", ttl: cache.ttl.map(CacheTtl::as_str) });
        let tool_config = (!tools.is_empty()).then(|| {
            tools.extend(cache_point.map(Tool::CachePoint));
            ToolConfiguration { tools, tool_choice }
        });
        let output_config = options.response_format.as_ref().map(|format| {
            cx.response_format_unsent(format, &["strict"]);
            OutputConfig {
                text_format: OutputFormat {
                    kind: "json_schema",
                    structure: OutputFormatStructure::JsonSchema(JsonSchemaDefinition {
                        schema: crate::json::compact(&format.schema),
                        name: format.name(),
                        description: non_blank(format.description.as_deref()),
                    }),
                },
            }
        });
        match build(&mut cx, &turns, options, inference_config, tool_config) {
            Some(mut body) if cx.report.is_ok() => {
                if let Some(cache_point) = cache_point
                    && !body.system.is_empty()
                {
                    body.system.push(SystemContentBlock::CachePoint(cache_point));
                }
                body.output_config = output_config;
                Ok(Converted { body, warnings: cx.report.warnings, placements: cx.placements })
            }

            _ => Err(cx.report),
        }
    }
}

/// A converted content block, before it is placed in a message or in a tool result.
enum InnerBlock<'a> {
    Text(&'a str),
    Image(ImageBlock<'a>),
    Video(VideoBlock<'a>),
    Document(DocumentBlock<'a>),
}

impl InnerBlock<'_> {
    /// The pointer from the block to the object its provider fields join.
    fn key(&self) -> &'static str {
        match self {
            Self::Text(_) => "",
            Self::Image(_) => "/image",
            Self::Video(_) => "/video",
            Self::Document(_) => "/document",
        }
    }
}

impl<'a> From<InnerBlock<'a>> for Block<'a> {
    fn from(content: InnerBlock<'a>) -> Self {
        match content {
            InnerBlock::Text(text) => Block::Text(text),
            InnerBlock::Image(image) => Block::Image(image),
            InnerBlock::Video(video) => Block::Video(video),
            InnerBlock::Document(document) => Block::Document(document),
        }
    }
}

impl<'a> From<InnerBlock<'a>> for ToolResultContentBlock<'a> {
    fn from(content: InnerBlock<'a>) -> Self {
        match content {
            InnerBlock::Text(text) => ToolResultContentBlock::Text(text),
            InnerBlock::Image(image) => ToolResultContentBlock::Image(image),
            InnerBlock::Video(video) => ToolResultContentBlock::Video(video),
            InnerBlock::Document(document) => ToolResultContentBlock::Document(document),
        }
    }
}

impl<'a> AlternatingTurn for Message<'a> {
    type Role = ConversationRole;
    type Block = Block<'a>;
    const ROLES: &'static str = "user and assistant";

    fn new(role: ConversationRole, content: Vec<Block<'a>>) -> Self {
        Self { role, content }
    }

    fn role(&self) -> ConversationRole {
        self.role
    }

    fn blocks(&mut self) -> &mut Vec<Block<'a>> {
        &mut self.content
    }

    fn role_name(role: ConversationRole) -> &'static str {
        match role {
            ConversationRole::User => "user",
            ConversationRole::Assistant => "assistant",
        }
    }

    fn is_tool_result(block: &Block<'a>) -> bool {
        matches!(block, Block::ToolResult(_))
    }
}

fn is_tool_use_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

/// What a built message needs remembered for checks that look across messages.
#[derive(Debug, Default)]
struct TurnNotes<'a> {
    /// The first top-level document (a document needs a text block beside it).
    document_at: Option<Path>,
    /// Tool calls and results, for pairing.
    tools: ToolBlocks<'a>,
}

impl<'a> TurnNotes<'a> {
    /// Notes of a message merged into this one.
    fn absorb(&mut self, other: TurnNotes<'a>) {
        self.document_at = self.document_at.take().or(other.document_at);
        self.tools.extend(other.tools);
    }
}

impl<'a> AsRef<ToolBlocks<'a>> for TurnNotes<'a> {
    fn as_ref(&self) -> &ToolBlocks<'a> {
        &self.tools
    }
}

/// A provider role for a standard role, or `None` when Bedrock has no place for it.
fn provider_role(role: &Role<'_>) -> Option<ConversationRole> {
    match role {
        Role::User | Role::Tool => Some(ConversationRole::User),
        Role::Assistant => Some(ConversationRole::Assistant),
        Role::System | Role::Other(_) => None,
    }
}

/// Counts and sizes, before anything is built.
fn limits(cx: &mut Conversion<'_>, turns: &[Turn<'_, '_>]) {
    let mut images = 0u64;
    let mut documents = 0u64;
    for turn in turns {
        for (j, block) in turn.content.iter().enumerate() {
            let path = || turn.origin.block_path(cx.base, j);
            match block {
                ContentBlock::Text(_) | ContentBlock::ProviderItem(_) => {}
                ContentBlock::Image(image) => {
                    images += 1;
                    cx.count(images, MAX_IMAGES, "image", &path);
                    cx.size(&image.source, MAX_IMAGE_BYTES, "image", &path);
                }
                ContentBlock::Document(document) => {
                    documents += 1;
                    cx.count(documents, MAX_DOCUMENTS, "document", &path);
                    cx.size(&document.source, MAX_DOCUMENT_BYTES, "document", &path);
                }
                ContentBlock::Video(video) => {
                    if let Source::Base64(data) = &video.source {
                        let chars = data.len() as u64;
                        if chars >= MAX_VIDEO_BASE64_CHARS {
                            let message = format!(
                                "Bedrock takes base64 video under {MAX_VIDEO_BASE64_CHARS} characters (25 MiB); this one has {chars}. Upload it to S3 and use an s3:// URL source"
                            );
                            cx.error(
                                Diagnostic::new(Code::ProviderLimit, path().key("source").key("data"), message)
                                    .limit(MAX_VIDEO_BASE64_CHARS, chars),
                            );
                        }
                    }
                }
            }
        }
    }
}

fn build<'a>(
    cx: &mut Conversion<'a>,
    turns: &[Turn<'a, 'a>],
    options: &'a ConvertOptions,
    inference_config: InferenceConfiguration,
    tool_config: Option<ToolConfiguration<'a>>,
) -> Option<ConverseRequest<'a>> {
    let mut system = Vec::new();
    if let Some(prompt) = non_blank(options.system.as_deref()) {
        system.push(SystemContentBlock::Text(prompt));
    }
    let mut messages: Alternation<Message<'a>> = Alternation::with_capacity(turns.len());
    // Where each element's provider fields go, once turns are merged.
    let mut marks = Marks::new(ProviderId::BedrockConverse, turns);
    // Per message built: what later checks need to point back into the input.
    let mut notes: Vec<TurnNotes<'a>> = Vec::with_capacity(turns.len());
    let mut names = Names::default();
    let mut first_checked = false;

    for (t, turn) in turns.iter().enumerate() {
        let Some(role) = provider_role(turn.role) else {
            system_or_unsupported(cx, turn, &mut system);
            continue;
        };
        if !first_checked {
            first_checked = true;
            // Tool results travel in user turns, so a tool message may open.
            cx.opens(turn, true);
        }
        let (blocks, turn_notes, marked) = turn_blocks(cx, turn, role, &mut names, (t, marks.on()));
        let row = marks.row(&blocks, marked, Message::is_tool_result);
        let merged = messages.push(cx, turn, role, blocks);
        marks.push(merged, row);
        if !merged {
            notes.push(turn_notes);
        } else if let Some(last) = notes.last_mut() {
            last.absorb(turn_notes);
        }
        // A tool message's own fields are those of its `toolResult`.
        if marks.on() && *turn.role != Role::Tool {
            cx.place_message(turn, &format!("/messages/{}", messages.turns.len() - 1));
        }
    }
    marks.place(cx, turns);

    cx.tool_specs_required(turns, options);
    for (message, notes) in messages.turns.iter().zip(&notes) {
        if let Some(path) = &notes.document_at
            && !message.content.iter().any(|b| matches!(b, Block::Text(_)))
        {
            cx.error(Diagnostic::new(
                Code::DocumentRequiresText,
                path.clone(),
                "Bedrock needs a text block in the same message as a document; add a text block saying what to do with it",
            ));
        }
    }
    cx.pairs_by_sent_turn(&notes);
    cx.prefill_without_trailing_space(turns);
    // Claude's extended thinking, the one reasoning setting Converse passes on for any model.
    let max_tokens = inference_config.max_tokens;
    let additional_model_request_fields = match cx.thinking(options, max_tokens) {
        Some(Reasoning::BudgetTokens(budget)) => Some(thinking_fields(budget)),
        Some(Reasoning::Effort(_)) => {
            cx.unsupported(
                option_path("reasoning"),
                "a reasoning effort",
                "give reasoning a budget of thinking tokens (Claude's thinking, sent in additionalModelRequestFields)",
            );
            None
        }
        None => None,
    };
    cx.report.is_ok().then_some(ConverseRequest {
        messages: messages.turns,
        system,
        inference_config,
        tool_config,
        output_config: None,
        additional_model_request_fields,
    })
}

/// A system message's text joins the system prompt; any other role Bedrock lacks is an error.
fn system_or_unsupported<'a>(cx: &mut Conversion<'_>, turn: &Turn<'a, 'a>, system: &mut Vec<SystemContentBlock<'a>>) {
    if *turn.role != Role::System {
        cx.role_not_supported(turn);
        return;
    }
    for (j, block) in turn.content.iter().enumerate() {
        if let ContentBlock::Text(text) = block {
            system.push(SystemContentBlock::Text(text));
        } else if let ContentBlock::ProviderItem(item) = block {
            cx.provider_item_at(item, turn.origin.block_path(cx.base, j));
        } else {
            cx.error(Diagnostic::new(
                Code::MediaNotAllowedInRole,
                turn.origin.block_path(cx.base, j),
                format!(
                    "Bedrock system prompts hold only text; move this {} block into a user message",
                    block.type_name()
                ),
            ));
        }
    }
}

/// The blocks one standard message, the `t`-th, becomes: its content, then its tool calls; a
/// tool message becomes one `toolResult` block. When `mark`ed, each element's block by its index.
fn turn_blocks<'a>(
    cx: &mut Conversion<'a>,
    turn: &Turn<'a, 'a>,
    role: ConversationRole,
    names: &mut Names,
    (t, mark): (usize, bool),
) -> (Vec<Block<'a>>, TurnNotes<'a>, Vec<(usize, Mark)>) {
    let base = cx.base;
    let mut blocks: Vec<Block<'a>> = Vec::with_capacity(turn.content.len() + turn.tool_calls.len());
    let mut notes = TurnNotes::default();
    let mut marked = Vec::new();
    if let Some(text) = turn.text {
        if text.chars().all(char::is_whitespace) {
            // Only text input has turn text: the path is the input's.
            blank_text(cx, turn.origin.block_path(base, 0));
        } else {
            blocks.push(Block::Text(text));
        }
    }
    if *turn.role == Role::Tool {
        let id = turn.tool_call_id.unwrap_or_default();
        let id_path = turn.origin.field_path(base, "toolCallId");
        cx.call_id(id, &id_path);
        notes.tools.results.push((id, id_path));
        let mut content = Vec::with_capacity(turn.content.len());
        let mut inner = Vec::new();
        for (j, block) in turn.content.iter().enumerate() {
            let path = || turn.origin.block_path(base, j);
            // A JSON result's text goes as the JSON value it holds (validated as JSON).
            if let (true, ContentBlock::Text(text)) = (turn.json_result, block)
                && let Some(value) = crate::providers::common::convert::payload::raw_json(text)
            {
                if mark {
                    inner.push((content.len(), j, ""));
                }
                content.push(ToolResultContentBlock::Json(value));
                continue;
            }
            if let Some(written) = content_block(cx, block, names, &path) {
                if mark {
                    inner.push((content.len(), j, written.key()));
                }
                content.push(ToolResultContentBlock::from(written));
            }
        }
        if mark {
            marked.push((0, Mark { turn: t, element: None, key: "/toolResult", inner }));
        }
        blocks.push(Block::ToolResult(ToolResultBlock { tool_use_id: id, content }));
        return (blocks, notes, marked);
    }
    // The turn's own reasoningContent blocks go back unmodified, where they were.
    let state = cx.reasoning_state(turn, ProviderId::BedrockConverse);
    let len = turn.content.len() + turn.tool_calls.len();
    let reasoning = |at: usize, blocks: &mut Vec<Block<'a>>| {
        for block in state_blocks(state, at, len) {
            blocks.push(Block::Raw(block));
        }
    };
    for (j, block) in turn.content.iter().enumerate() {
        reasoning(j, &mut blocks);
        let path = || turn.origin.block_path(base, j);
        let media = matches!(block, ContentBlock::Image(_) | ContentBlock::Document(_));
        if role == ConversationRole::Assistant && media {
            cx.error(Diagnostic::new(
                Code::MediaNotAllowedInRole,
                path(),
                format!(
                    "Bedrock accepts {}s only in user messages, not from {}",
                    block.type_name(),
                    quote(turn.role.as_str())
                ),
            ));
            continue;
        }
        if matches!(block, ContentBlock::Document(_)) {
            notes.document_at.get_or_insert_with(path);
        }
        if let Some(written) = content_block(cx, block, names, &path) {
            if mark {
                marked.push((blocks.len(), Mark::element(t, j, written.key())));
            }
            blocks.push(Block::from(written));
        }
    }
    for (k, call) in turn.tool_calls.iter().enumerate() {
        reasoning(turn.content.len() + k, &mut blocks);
        let id_path = turn.origin.field_path(base, "toolCalls").index(k).key("id");
        cx.call_id(&call.id, &id_path);
        notes.tools.calls.push((&call.id, id_path));
        cx.call_name(&call.name, turn, k);
        // Validation checked the arguments hold a JSON object.
        if let Some(input) = crate::providers::common::convert::payload::raw_json(&call.arguments) {
            if mark {
                marked.push((blocks.len(), Mark::element(t, turn.content.len() + k, "/toolUse")));
            }
            blocks.push(Block::ToolUse(ToolUseBlock { tool_use_id: &call.id, name: &call.name, input }));
        }
    }
    reasoning(len, &mut blocks);
    (blocks, notes, marked)
}

/// One content block, the same in a message and in a tool result.
fn content_block<'a>(
    cx: &mut Conversion<'a>,
    block: &'a ContentBlock<'a>,
    names: &mut Names,
    path: &dyn Fn() -> Path,
) -> Option<InnerBlock<'a>> {
    match block {
        // The validator trims as Java's String.trim (ml-commons parity), which keeps text of
        // only Unicode spaces (U+3000, U+00A0, …); Bedrock rejects such text as blank.
        ContentBlock::Text(text) if text.chars().all(char::is_whitespace) => {
            blank_text(cx, path());
            None
        }
        ContentBlock::Text(text) => Some(InnerBlock::Text(text)),
        // Converse has no items of its own: another provider's is left out with a warning.
        ContentBlock::ProviderItem(item) => {
            cx.provider_item_at(item, path());
            None
        }
        ContentBlock::Image(image) => {
            source(cx, &image.source, path).map(|source| InnerBlock::Image(ImageBlock { format: image.format, source }))
        }
        ContentBlock::Video(video) => {
            source(cx, &video.source, path).map(|source| InnerBlock::Video(VideoBlock { format: video.format, source }))
        }
        ContentBlock::Document(document) => document_block(cx, document, names, path).map(InnerBlock::Document),
    }
}

fn blank_text(cx: &mut Conversion<'_>, path: Path) {
    cx.error(Diagnostic::new(
        Code::EmptyText,
        path,
        "the text is only whitespace (Unicode spaces count), which Bedrock rejects as blank; give the text to send",
    ));
}

/// A base64 source, or an `s3://` URL; Bedrock fetches no web URLs.
fn source<'a>(cx: &mut Conversion<'a>, source: &'a Source<'a>, path: &dyn Fn() -> Path) -> Option<MediaSource<'a>> {
    match source {
        Source::Base64(data) => {
            Some(MediaSource::Bytes(wire::Base64::within(data, cx.source_text).spliced_by(cx.splice)))
        }
        Source::Url(url) => match url::check(url) {
            Ok(Scheme::S3) => Some(MediaSource::S3Location(S3Location { uri: url })),
            Ok(scheme) => {
                cx.error(
                    Diagnostic::new(
                        Code::UrlNotSupportedByProvider,
                        path().key("source").key("data"),
                        format!(
                            "Bedrock cannot fetch {} URLs; download the file and send it as a base64 source, or put it in S3 and use an s3:// URL",
                            scheme.as_str()
                        ),
                    )
                    .expected(["base64", "s3://"])
                    .received(scheme.as_str()),
                );
                None
            }
            // Validated input holds only checked URLs.
            Err(_) => None,
        },
    }
}

/// A document under a name Bedrock accepts (see `names.rs`), with a warning when it changed.
fn document_block<'a>(
    cx: &mut Conversion<'a>,
    document: &'a crate::model::Document<'a>,
    names: &mut Names,
    path: &dyn Fn() -> Path,
) -> Option<DocumentBlock<'a>> {
    let given = document.name.as_deref();
    let (name, change) = names.next(given);
    match change {
        NameChange::Unchanged => {}
        NameChange::Sanitized | NameChange::MadeUnique => {
            let at = if given.is_some() { path().key("name") } else { path() };
            let message = match (given, &change) {
                (Some(given), NameChange::Sanitized) => format!(
                    "document name {} was changed to {}: Bedrock allows only letters, digits, single spaces, hyphens, parentheses and square brackets",
                    quote(given),
                    quote(&name)
                ),
                (Some(given), _) => {
                    format!(
                        "document name {} is already used in this request and was changed to {}",
                        quote(given),
                        quote(&name)
                    )
                }
                (None, _) => format!(
                    "the generated document name was already used in this request and was changed to {}",
                    quote(&name)
                ),
            };
            let mut warning = Diagnostic::new(Code::DocumentNameSanitized, at, message);
            if let Some(given) = given {
                warning = warning.received(given);
            }
            cx.report.push(warning.expected([name.clone()]));
        }
    }
    let source = source(cx, &document.source, path)?;
    Some(DocumentBlock { format: document.format, name, source })
}

/// `{"thinking": {"type": "enabled", "budget_tokens": budget}}`, built by hand: `json!` would
/// bring `serde_json::Error`'s `Debug` (its `unwrap` panic path) into the npm `.wasm`.
fn thinking_fields(budget: u64) -> serde_json::Value {
    use serde_json::{Map, Value};
    let mut thinking = Map::new();
    thinking.insert("type".to_owned(), Value::from("enabled"));
    thinking.insert("budget_tokens".to_owned(), Value::from(budget));
    let mut fields = Map::new();
    fields.insert("thinking".to_owned(), Value::Object(thinking));
    Value::Object(fields)
}
