//! Standard input → AWS Bedrock Runtime `Converse` request body.
//!
//! API reference: <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html>.
//! What Bedrock rejects is rejected here first, with a path: web URLs, media outside user turns,
//! a first turn that is not the user's, tool blocks without tool specs, invalid names and ids,
//! and the documented count and size limits (checked before any body is built).

mod names;
pub mod wire;

use std::collections::HashSet;

use serde_json::Value;
use serde_json::value::RawValue;

use super::{ConvertOptions, Converted, DEFAULT_MAX_TOKENS, Provider, ProviderId, Turn, option_path};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{ContentBlock, ExecuteRequest, Role, Source};
use crate::path::Path;
use crate::url::{self, Scheme};
use crate::validate::quote;

use self::names::{Names, Outcome};
use self::wire::{
    ContentBlock as Block, ConversationRole, ConverseRequest, DocumentBlock, ImageBlock, InferenceConfiguration,
    MediaSource, Message, S3Location, SystemContentBlock, Tool, ToolConfiguration, ToolInputSchema, ToolResultBlock,
    ToolResultContentBlock, ToolSpecification, ToolUseBlock, VideoBlock,
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

/// What this converter can carry, for docs/providers.md.
pub const CAPABILITIES: super::Capabilities = super::Capabilities {
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

/// The schema of a tool that takes no arguments, used when a spec gives none.
static EMPTY_SCHEMA: std::sync::LazyLock<Value> =
    std::sync::LazyLock::new(|| serde_json::json!({"type": "object", "properties": {}}));

/// The Bedrock Converse converter.
#[derive(Debug, Clone, Copy, Default)]
pub struct BedrockConverse;

impl Provider for BedrockConverse {
    const ID: ProviderId = ProviderId::BedrockConverse;
    type Request<'a> = ConverseRequest<'a>;

    fn convert<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
    ) -> Result<Converted<ConverseRequest<'a>>, Report> {
        let turns = Turn::all(&request.input);
        let mut cx = Context { base: &request.input_path, text: request.source_text, report: Report::default() };
        let inference_config = cx.inference_config(options);
        let tool_config = cx.tool_config(options);
        cx.check_limits(&turns);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let body = cx.build(&turns, options, inference_config, tool_config);
        match body {
            Some(body) if cx.report.is_ok() => Ok(Converted { body, warnings: cx.report.warnings }),
            _ => Err(cx.report),
        }
    }
}

/// The option checks of [`BedrockConverse::convert`] alone.
pub(crate) fn check_options(options: &ConvertOptions) -> Report {
    let base = Path::root();
    let mut cx = Context { base: &base, text: None, report: Report::default() };
    cx.inference_config(options);
    cx.tool_config(options);
    cx.report
}

struct Context<'p> {
    base: &'p Path,
    /// The request text, when the input borrows from it (see [`wire::Base64`]).
    text: Option<&'p str>,
    report: Report,
}

/// A converted content block, before it is placed in a message or in a tool result.
enum Content<'a> {
    Text(&'a str),
    Image(ImageBlock<'a>),
    Video(VideoBlock<'a>),
    Document(DocumentBlock<'a>),
}

impl<'a> From<Content<'a>> for Block<'a> {
    fn from(content: Content<'a>) -> Self {
        match content {
            Content::Text(text) => Block::Text(text),
            Content::Image(image) => Block::Image(image),
            Content::Video(video) => Block::Video(video),
            Content::Document(document) => Block::Document(document),
        }
    }
}

impl<'a> From<Content<'a>> for ToolResultContentBlock<'a> {
    fn from(content: Content<'a>) -> Self {
        match content {
            Content::Text(text) => ToolResultContentBlock::Text(text),
            Content::Image(image) => ToolResultContentBlock::Image(image),
            Content::Video(video) => ToolResultContentBlock::Video(video),
            Content::Document(document) => ToolResultContentBlock::Document(document),
        }
    }
}

/// What a built message needs remembered for checks that look across messages.
#[derive(Debug, Default)]
struct TurnNotes<'a> {
    /// The first top-level document (a document needs a text block beside it).
    document_at: Option<Path>,
    /// Tool calls made in this message: id and path of the id.
    tool_uses: Vec<(&'a str, Path)>,
    /// Tool results given in this message: id and path of the `toolCallId`.
    tool_results: Vec<(&'a str, Path)>,
}

impl<'a> TurnNotes<'a> {
    fn absorb(&mut self, other: TurnNotes<'a>) {
        self.document_at = self.document_at.take().or(other.document_at);
        self.tool_uses.extend(other.tool_uses);
        self.tool_results.extend(other.tool_results);
    }
}

fn is_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn is_tool_use_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

/// A provider role for a standard role, or `None` when Bedrock has no place for it.
fn provider_role(role: &Role<'_>) -> Option<ConversationRole> {
    match role {
        Role::User | Role::Tool => Some(ConversationRole::User),
        Role::Assistant => Some(ConversationRole::Assistant),
        Role::System | Role::Other(_) => None,
    }
}

impl<'p> Context<'p> {
    fn error(&mut self, diagnostic: Diagnostic) {
        self.report.push(diagnostic);
    }

    fn inference_config(&mut self, options: &ConvertOptions) -> InferenceConfiguration {
        let max_tokens = options.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
        if max_tokens == 0 || max_tokens > i32::MAX as u64 {
            self.error(
                Diagnostic::new(
                    Code::InvalidParameter,
                    option_path("max_tokens"),
                    format!("max_tokens must be at least 1 (and at most {}), not {max_tokens}", i32::MAX),
                )
                .received(max_tokens.to_string()),
            );
        }
        for (name, value) in [("temperature", options.temperature), ("top_p", options.top_p)] {
            if let Some(value) = value
                && !(0.0..=1.0).contains(&value)
            {
                self.error(
                    Diagnostic::new(
                        Code::InvalidParameter,
                        option_path(name),
                        format!("{name} must be between 0 and 1 for Bedrock, not {}", super::number_text(value)),
                    )
                    .expected(["0..1"])
                    .received(super::number_text(value)),
                );
            }
        }
        if options.stop_sequences.len() > MAX_STOP_SEQUENCES {
            self.error(
                Diagnostic::new(
                    Code::InvalidParameter,
                    option_path("stop_sequences"),
                    format!(
                        "at most {MAX_STOP_SEQUENCES} stop sequences are allowed, not {}",
                        options.stop_sequences.len()
                    ),
                )
                .limit(MAX_STOP_SEQUENCES as u64, options.stop_sequences.len() as u64),
            );
        }
        for (i, stop) in options.stop_sequences.iter().enumerate() {
            if stop.is_empty() {
                self.error(Diagnostic::new(
                    Code::InvalidParameter,
                    option_path("stop_sequences").index(i),
                    "a stop sequence must not be empty",
                ));
            }
        }
        InferenceConfiguration {
            max_tokens,
            temperature: options.temperature,
            top_p: options.top_p,
            stop_sequences: options.stop_sequences.clone(),
        }
    }

    fn tool_config<'a>(&mut self, options: &'a ConvertOptions) -> Option<ToolConfiguration<'a>> {
        if options.tools.is_empty() {
            return None;
        }
        let mut seen = HashSet::new();
        let mut tools = Vec::with_capacity(options.tools.len());
        for (i, spec) in options.tools.iter().enumerate() {
            let path = option_path("tools").index(i);
            if !is_tool_name(&spec.name) {
                self.error(
                    Diagnostic::new(
                        Code::InvalidForProvider,
                        path.key("name"),
                        format!(
                            "Bedrock tool names must be 1-64 letters, digits, '_' or '-'; {} is not",
                            quote(&spec.name)
                        ),
                    )
                    .received(spec.name.clone()),
                );
            } else if !seen.insert(spec.name.as_str()) {
                self.error(
                    Diagnostic::new(
                        Code::InvalidForProvider,
                        path.key("name"),
                        format!("tool '{}' is given twice; tool names must be unique", spec.name),
                    )
                    .received(spec.name.clone()),
                );
            }
            let schema = match &spec.input_schema {
                None => &*EMPTY_SCHEMA,
                Some(schema @ Value::Object(map)) if map.get("type").and_then(Value::as_str) == Some("object") => {
                    schema
                }
                Some(other) => {
                    self.error(Diagnostic::new(
                        Code::InvalidForProvider,
                        path.key("input_schema"),
                        format!(
                            "Bedrock needs a tool's input_schema to be a JSON Schema object with \"type\": \"object\"; got {} {}",
                            crate::validate::a_or_an(crate::json::Json::from_value(other).type_name()),
                            crate::json::Json::from_value(other).type_name()
                        ),
                    ));
                    &Value::Null
                }
            };
            tools.push(Tool::ToolSpec(ToolSpecification {
                name: &spec.name,
                description: spec.description.as_deref().filter(|d| !d.trim().is_empty()),
                input_schema: ToolInputSchema::Json(schema),
            }));
        }
        Some(ToolConfiguration { tools })
    }

    /// Counts and sizes, before anything is built.
    fn check_limits(&mut self, turns: &[Turn<'_, '_>]) {
        let mut images = 0u64;
        let mut documents = 0u64;
        for turn in turns {
            for (j, block) in turn.content.iter().enumerate() {
                let path = || turn.origin.block_path(self.base, j);
                match block {
                    ContentBlock::Text(_) => {}
                    ContentBlock::Image(image) => {
                        images += 1;
                        if images == MAX_IMAGES + 1 {
                            self.error(
                                Diagnostic::new(
                                    Code::ProviderLimit,
                                    path(),
                                    format!("Bedrock accepts at most {MAX_IMAGES} images in one request; this is image {images}"),
                                )
                                .limit(MAX_IMAGES, images),
                            );
                        }
                        self.check_size(&image.source, MAX_IMAGE_BYTES, "image", &path());
                    }
                    ContentBlock::Document(document) => {
                        documents += 1;
                        if documents == MAX_DOCUMENTS + 1 {
                            self.error(
                                Diagnostic::new(
                                    Code::ProviderLimit,
                                    path(),
                                    format!("Bedrock accepts at most {MAX_DOCUMENTS} documents in one request; this is document {documents}"),
                                )
                                .limit(MAX_DOCUMENTS, documents),
                            );
                        }
                        self.check_size(&document.source, MAX_DOCUMENT_BYTES, "document", &path());
                    }
                    ContentBlock::Video(video) => {
                        if let Source::Base64(data) = &video.source {
                            let chars = data.len() as u64;
                            if chars >= MAX_VIDEO_BASE64_CHARS {
                                self.error(
                                    Diagnostic::new(
                                        Code::ProviderLimit,
                                        path().key("source").key("data"),
                                        format!(
                                            "Bedrock takes base64 video under {MAX_VIDEO_BASE64_CHARS} characters (25 MiB); this one has {chars}. Upload it to S3 and use an s3:// URL source"
                                        ),
                                    )
                                    .limit(MAX_VIDEO_BASE64_CHARS, chars),
                                );
                            }
                        }
                    }
                }
            }
        }
    }

    fn check_size(&mut self, source: &Source<'_>, limit: u64, what: &str, path: &Path) {
        if let Some(size) = source.decoded_len() {
            let size = size as u64;
            if size > limit {
                self.error(
                    Diagnostic::new(
                        Code::ProviderLimit,
                        path.key("source").key("data"),
                        format!("Bedrock accepts {what}s of at most {limit} bytes; this one is {size} bytes. Shrink it or use an s3:// URL source"),
                    )
                    .limit(limit, size),
                );
            }
        }
    }

    fn source<'a>(&mut self, source: &'a Source<'a>, path: &dyn Fn() -> Path) -> Option<MediaSource<'a>>
    where
        'p: 'a,
    {
        match source {
            Source::Base64(data) => Some(MediaSource::Bytes(wire::Base64::within(data, self.text))),
            Source::Url(url) => match url::check(url) {
                Ok(Scheme::S3) => Some(MediaSource::S3Location(S3Location { uri: url })),
                Ok(scheme) => {
                    self.error(
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

    fn document<'a>(
        &mut self,
        document: &'a crate::model::Document<'a>,
        names: &mut Names,
        path: &dyn Fn() -> Path,
    ) -> Option<DocumentBlock<'a>>
    where
        'p: 'a,
    {
        let given = document.name.as_deref();
        let (name, outcome) = names.next(given);
        match outcome {
            Outcome::Unchanged => {}
            Outcome::Sanitized | Outcome::MadeUnique => {
                let at = if given.is_some() { path().key("name") } else { path() };
                let message = match (given, &outcome) {
                    (Some(given), Outcome::Sanitized) => format!(
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
                self.report.push(warning.expected([name.clone()]));
            }
        }
        let source = self.source(&document.source, path)?;
        Some(DocumentBlock { format: document.format, name, source })
    }

    fn build<'a>(
        &mut self,
        turns: &[Turn<'a, 'a>],
        options: &'a ConvertOptions,
        inference_config: InferenceConfiguration,
        tool_config: Option<ToolConfiguration<'a>>,
    ) -> Option<ConverseRequest<'a>>
    where
        'p: 'a,
    {
        let mut system = Vec::new();
        if let Some(prompt) = options.system.as_deref().filter(|s| !s.trim().is_empty()) {
            system.push(SystemContentBlock::Text(prompt));
        }
        let mut messages: Vec<Message<'a>> = Vec::new();
        // Per message built: what later checks need to point back into the input.
        let mut notes: Vec<TurnNotes<'a>> = Vec::new();
        // Whether the last message is made only of tool results (consecutive tool messages join it silently).
        let mut last_is_tool_group = false;
        let mut names = Names::default();
        let mut first_checked = false;
        let mut tool_block_at: Option<Path> = None;

        for turn in turns {
            let Some(role) = provider_role(turn.role) else {
                self.system_or_unsupported(turn, &mut system);
                continue;
            };
            if !first_checked {
                first_checked = true;
                self.check_first(turn, role);
            }
            let (blocks, turn_notes) = self.turn_blocks(turn, role, &mut names);
            if tool_block_at.is_none() {
                tool_block_at = match (turn_notes.tool_uses.is_empty(), turn_notes.tool_results.first()) {
                    (false, _) => Some(turn.origin.field_path(self.base, "toolCalls")),
                    (true, Some((_, path))) => Some(path.clone()),
                    (true, None) => None,
                };
            }
            let is_tool = *turn.role == Role::Tool;
            match messages.last_mut() {
                Some(last) if last.role == role => {
                    if !(is_tool && last_is_tool_group) {
                        self.report.push(Diagnostic::new(
                            Code::MessagesMerged,
                            turn.origin.message_path(self.base),
                            format!(
                                "this message was merged into the previous {} turn: Bedrock needs user and assistant turns to alternate",
                                match role {
                                    ConversationRole::User => "user",
                                    ConversationRole::Assistant => "assistant",
                                }
                            ),
                        ));
                    }
                    last.content.extend(blocks);
                    if role == ConversationRole::User {
                        // Bedrock wants a turn's tool results before anything else in it.
                        let (mut content, rest): (Vec<_>, Vec<_>) =
                            last.content.drain(..).partition(|b| matches!(b, Block::ToolResult(_)));
                        content.extend(rest);
                        last.content = content;
                    }
                    last_is_tool_group = last_is_tool_group && is_tool;
                    if let Some(last_notes) = notes.last_mut() {
                        last_notes.absorb(turn_notes);
                    }
                }
                _ => {
                    messages.push(Message { role, content: blocks });
                    notes.push(turn_notes);
                    last_is_tool_group = is_tool;
                }
            }
        }

        if let Some(at) = tool_block_at
            && options.tools.is_empty()
        {
            self.error(Diagnostic::new(
                Code::ToolConfigRequired,
                at,
                "the conversation has tool calls or tool results, so Bedrock needs the tool specs: pass tools (name, description, input_schema)",
            ));
        }
        for (message, notes) in messages.iter().zip(&notes) {
            if let Some(path) = &notes.document_at
                && !message.content.iter().any(|b| matches!(b, Block::Text(_)))
            {
                self.error(Diagnostic::new(
                    Code::DocumentRequiresText,
                    path.clone(),
                    "Bedrock needs a text block in the same message as a document; add a text block saying what to do with it",
                ));
            }
        }
        self.check_tool_pairs(&notes);
        self.check_prefill(turns);
        self.report.is_ok().then_some(ConverseRequest { messages, system, inference_config, tool_config })
    }

    /// A system message's text joins the system prompt; any other role Bedrock lacks is an error.
    fn system_or_unsupported<'a>(&mut self, turn: &Turn<'a, 'a>, system: &mut Vec<SystemContentBlock<'a>>) {
        if *turn.role != Role::System {
            self.error(
                Diagnostic::new(
                    Code::RoleNotSupported,
                    turn.origin.field_path(self.base, "role"),
                    format!("Bedrock has no role {}; use user, assistant, system or tool", quote(turn.role.as_str())),
                )
                .expected(["user", "assistant", "system", "tool"])
                .received(turn.role.as_str()),
            );
            return;
        }
        for (j, block) in turn.content.iter().enumerate() {
            if let ContentBlock::Text(text) = block {
                system.push(SystemContentBlock::Text(text));
            } else {
                self.error(Diagnostic::new(
                    Code::MediaNotAllowedInRole,
                    turn.origin.block_path(self.base, j),
                    format!(
                        "Bedrock system prompts hold only text; move this {} block into a user message",
                        block.type_name()
                    ),
                ));
            }
        }
    }

    fn check_first(&mut self, turn: &Turn<'_, '_>, role: ConversationRole) {
        if role != ConversationRole::User {
            self.error(
                Diagnostic::new(
                    Code::FirstMessageNotUser,
                    turn.origin.field_path(self.base, "role"),
                    format!(
                        "Bedrock conversations must start with a user message, but the first non-system message is from {}",
                        quote(turn.role.as_str())
                    ),
                )
                .expected(["user"])
                .received(turn.role.as_str()),
            );
        }
    }

    /// The blocks one standard message becomes: its content, then its tool calls; a tool
    /// message becomes one `toolResult` block.
    fn turn_blocks<'a>(
        &mut self,
        turn: &Turn<'a, 'a>,
        role: ConversationRole,
        names: &mut Names,
    ) -> (Vec<Block<'a>>, TurnNotes<'a>)
    where
        'p: 'a,
    {
        let base = self.base;
        let mut blocks: Vec<Block<'a>> = Vec::with_capacity(turn.content.len() + turn.tool_calls.len());
        let mut notes = TurnNotes::default();
        if let Some(text) = turn.text {
            if text.chars().all(char::is_whitespace) {
                // Only text input has turn text: the path is the input's.
                self.blank_text(turn.origin.block_path(base, 0));
            } else {
                blocks.push(Block::Text(text));
            }
        }
        if *turn.role == Role::Tool {
            let id = turn.tool_call_id.unwrap_or_default();
            let id_path = turn.origin.field_path(base, "toolCallId");
            self.check_tool_use_id(id, &id_path);
            notes.tool_results.push((id, id_path));
            let mut content = Vec::with_capacity(turn.content.len());
            for (j, block) in turn.content.iter().enumerate() {
                let path = || turn.origin.block_path(base, j);
                content.extend(self.content_block(block, names, &path).map(ToolResultContentBlock::from));
            }
            blocks.push(Block::ToolResult(ToolResultBlock { tool_use_id: id, content }));
            return (blocks, notes);
        }
        for (j, block) in turn.content.iter().enumerate() {
            let path = || turn.origin.block_path(base, j);
            let media = matches!(block, ContentBlock::Image(_) | ContentBlock::Document(_));
            if role == ConversationRole::Assistant && media {
                self.error(Diagnostic::new(
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
            blocks.extend(self.content_block(block, names, &path).map(Block::from));
        }
        for (k, call) in turn.tool_calls.iter().enumerate() {
            let call_path = turn.origin.field_path(base, "toolCalls").index(k);
            self.check_tool_use_id(&call.id, &call_path.key("id"));
            notes.tool_uses.push((&call.id, call_path.key("id")));
            if !is_tool_name(&call.name) {
                self.error(
                    Diagnostic::new(
                        Code::InvalidForProvider,
                        call_path.key("function").key("name"),
                        format!(
                            "Bedrock tool names must be 1-64 letters, digits, '_' or '-'; {} is not",
                            quote(&call.name)
                        ),
                    )
                    .received(call.name.as_ref()),
                );
            }
            // Validation checked the arguments hold a JSON object.
            if let Ok(input) = serde_json::from_str::<&RawValue>(&call.arguments) {
                blocks.push(Block::ToolUse(ToolUseBlock { tool_use_id: &call.id, name: &call.name, input }));
            }
        }
        (blocks, notes)
    }

    /// One content block, the same in a message and in a tool result.
    fn content_block<'a>(
        &mut self,
        block: &'a ContentBlock<'a>,
        names: &mut Names,
        path: &dyn Fn() -> Path,
    ) -> Option<Content<'a>>
    where
        'p: 'a,
    {
        match block {
            // The validator trims as Java's String.trim (ml-commons parity), which keeps text of
            // only Unicode spaces (U+3000, U+00A0, …); Bedrock rejects such text as blank.
            ContentBlock::Text(text) if text.chars().all(char::is_whitespace) => {
                self.blank_text(path());
                None
            }
            ContentBlock::Text(text) => Some(Content::Text(text)),
            ContentBlock::Image(image) => self
                .source(&image.source, path)
                .map(|source| Content::Image(ImageBlock { format: image.format, source })),
            ContentBlock::Video(video) => self
                .source(&video.source, path)
                .map(|source| Content::Video(VideoBlock { format: video.format, source })),
            ContentBlock::Document(document) => self.document(document, names, path).map(Content::Document),
        }
    }

    /// Bedrock answers every tool use in the very next turn: that user turn holds exactly one
    /// result per call of the assistant turn before it, and no other results.
    fn check_tool_pairs(&mut self, notes: &[TurnNotes<'_>]) {
        for (i, turn) in notes.iter().enumerate() {
            let previous_uses = if i > 0 { notes[i - 1].tool_uses.as_slice() } else { &[] };
            let mut answered = HashSet::new();
            for (id, path) in &turn.tool_results {
                let matches_call = previous_uses.iter().any(|(use_id, _)| use_id == id);
                if !matches_call || !answered.insert(*id) {
                    let why = if matches_call {
                        "answers a tool call that was already answered"
                    } else {
                        "answers no tool call of the assistant message just before it"
                    };
                    self.error(
                        Diagnostic::new(
                            Code::UnmatchedToolResult,
                            path.clone(),
                            format!(
                                "this tool result ({}) {why}; Bedrock needs each tool result right after the assistant message that made the call",
                                quote(id)
                            ),
                        )
                        .received(*id),
                    );
                }
            }
            // A trailing assistant turn (a prefill) has no next turn to check.
            let Some(next) = notes.get(i + 1) else { continue };
            for (id, path) in &turn.tool_uses {
                if !next.tool_results.iter().any(|(result_id, _)| result_id == id) {
                    self.error(
                        Diagnostic::new(
                            Code::UnansweredToolCall,
                            path.clone(),
                            format!(
                                "tool call {} has no tool message answering it next; Bedrock needs a tool message with this toolCallId right after the assistant message",
                                quote(id)
                            ),
                        )
                        .received(*id),
                    );
                }
            }
        }
    }

    fn blank_text(&mut self, path: Path) {
        self.error(Diagnostic::new(
            Code::EmptyText,
            path,
            "the text is only whitespace (Unicode spaces count), which Bedrock rejects as blank; give the text to send",
        ));
    }

    /// A conversation that ends with assistant text (a prefill) must not end in whitespace:
    /// Bedrock rejects "final assistant content" with trailing whitespace.
    fn check_prefill(&mut self, turns: &[Turn<'_, '_>]) {
        let Some(last) = turns.iter().rev().find(|t| *t.role != Role::System) else { return };
        if *last.role != Role::Assistant || !last.tool_calls.is_empty() {
            return;
        }
        if let Some(ContentBlock::Text(text)) = last.content.last()
            && text.ends_with(char::is_whitespace)
        {
            self.error(Diagnostic::new(
                Code::InvalidForProvider,
                last.origin.block_path(self.base, last.content.len() - 1).key("text"),
                "Bedrock rejects a final assistant message (a prefill) that ends with whitespace; remove the trailing spaces or line breaks",
            ));
        }
    }

    fn check_tool_use_id(&mut self, id: &str, path: &Path) {
        if !is_tool_use_id(id) {
            self.error(
                Diagnostic::new(
                    Code::InvalidForProvider,
                    path.clone(),
                    format!(
                        "Bedrock tool call ids must be 1-64 letters, digits, '_', '.', ':' or '-'; {} is not",
                        quote(id)
                    ),
                )
                .received(id),
            );
        }
    }
}
