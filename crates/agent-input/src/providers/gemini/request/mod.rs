//! Standard input → Gemini `generateContent` request body (REST, camelCase).
//!
//! API reference: <https://ai.google.dev/api/generate-content>. Roles are `user` and `model`
//! (same-role runs are merged); system text is `systemInstruction`; base64 media is `inlineData`
//! and URLs `fileData`, both with real MIME types; tool calls are `functionCall` parts and tool
//! results `functionResponse` parts named after the call they answer. Word and Excel documents,
//! Matroska video and `s3://` URLs are errors. A message's Gemini provider fields go on the
//! content it went into (a tool message's on its `functionResponse` part), an element's on its part
//! (docs/provider-fields.md).

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::format::{DocumentFormat, ImageFormat, VideoFormat};
use crate::model::{ContentBlock, ExecuteRequest, Role, Source};
use crate::options::{Effort, Reasoning, ToolChoice as OptionChoice};
use crate::providers::common::convert::turns::{AlternatingTurn, Alternation, CallSite, Turn, state_blocks, state_on};
use crate::providers::common::convert::{Conversion, Declared, Profile, Rule, Splice, non_blank};
use crate::providers::common::convert::{ConvertOptions, Converted, Provider, ProviderId};

use self::wire::{
    Content, FileData, FunctionCall, FunctionCallingConfig, FunctionDeclaration, FunctionResponse,
    GenerateContentRequest, GenerationConfig, InlineData, Part, Response, ResponsePart, ResultText, SystemInstruction,
    ThinkingConfig, Tool, ToolConfig,
};

/// Most base64 characters of inline data in one request (100 MB).
pub const MAX_INLINE_CHARS: u64 = 100 * 1024 * 1024;
/// Largest decoded inline PDF (50 MB).
pub const MAX_PDF_BYTES: u64 = 50 * 1024 * 1024;
/// Most images in one request.
pub const MAX_IMAGES: u64 = 3600;
/// Most stop sequences.
pub const MAX_STOP_SEQUENCES: usize = 5;
/// Highest temperature.
pub const MAX_TEMPERATURE: f64 = 2.0;

/// What this converter can carry, for docs/providers.md.
pub const CAPABILITIES: crate::providers::common::convert::Capabilities =
    crate::providers::common::convert::Capabilities {
        provider: ProviderId::Gemini,
        image_base64: "✓ `inlineData` (not gif)",
        image_url: "✓ `fileData` (not gif)",
        document_base64: "PDF, txt, md, csv, html",
        document_url: "PDF, txt, md, csv, html",
        video: "✓ (not mkv)",
        s3_urls: "✗",
        system: "`systemInstruction`",
        roles: "system, user, assistant (`model`), tool",
        media_outside_user: "assistant messages, tool results",
        tool_results: "`functionResponse` part, text, base64 images (not gif), PDFs and txt",
        limits: "≤ 3600 images; 100 MB inline; PDF ≤ 50 MB; ≤ 5 stop sequences; temperature ≤ 2",
    };

/// What the shared checks need to know about Gemini.
pub(crate) const PROFILE: Profile = Profile {
    provider: ProviderId::Gemini,
    name: ProviderId::Gemini.display_name(),
    max_temperature: MAX_TEMPERATURE,
    max_stop_sequences: Some(MAX_STOP_SEQUENCES),
    tool_name: Rule {
        holds: is_function_name,
        says: "1-64 letters, digits, '_', '.', ':' or '-', starting with a letter or '_'",
    },
    tool_call_id: None,
    roles: &["user", "assistant", "system", "tool"],
    roles_text: "user, assistant, system, tool",
    too_large: "send it by URL",
    legacy_option_wording: false,
    min_max_tokens: 1,
    temperature_or_top_p: false,
};

/// Gemini function names: start with a letter or `_`; letters, digits, `_ . : -`; at most 64.
fn is_function_name(name: &str) -> bool {
    (1..=64).contains(&name.len())
        && name.bytes().next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

/// The MIME type Gemini documents for an image format (PNG, JPEG, WEBP, HEIC, HEIF), or `None`.
const fn image_mime(format: ImageFormat) -> Option<&'static str> {
    match format {
        ImageFormat::Png | ImageFormat::Jpeg | ImageFormat::Webp => Some(format.mime_type()),
        ImageFormat::Gif => None,
    }
}

/// The MIME type Gemini documents for a video format, or `None` when it takes none.
const fn video_mime(format: VideoFormat) -> Option<&'static str> {
    match format {
        VideoFormat::Mp4 => Some("video/mp4"),
        VideoFormat::Mpeg => Some("video/mpeg"),
        VideoFormat::Mov => Some("video/mov"),
        VideoFormat::Flv => Some("video/x-flv"),
        VideoFormat::Mpg => Some("video/mpg"),
        VideoFormat::Webm => Some("video/webm"),
        VideoFormat::Wmv => Some("video/wmv"),
        VideoFormat::ThreeGp => Some("video/3gpp"),
        VideoFormat::Mkv => None,
    }
}

/// The MIME type Gemini reads a document format as, or `None` when it reads none.
const fn document_mime(format: DocumentFormat) -> Option<&'static str> {
    match format {
        DocumentFormat::Pdf | DocumentFormat::Csv | DocumentFormat::Html | DocumentFormat::Txt => {
            Some(format.mime_type())
        }
        // The document understanding guide spells Markdown `text/md`, not `text/markdown`.
        DocumentFormat::Md => Some("text/md"),
        DocumentFormat::Doc | DocumentFormat::Docx | DocumentFormat::Xls | DocumentFormat::Xlsx => None,
    }
}

/// A tool result's text, and its media as function response parts with the block each came
/// from: the function calling guide's "multimodal function responses" take inline PNG, JPEG and
/// WebP images and PDF and plain text documents, and no URLs.
fn response_parts<'a>(cx: &mut Conversion<'a>, turn: &Turn<'a, 'a>) -> (Vec<&'a str>, Vec<InlineData<'a>>, Vec<usize>) {
    let mut texts = Vec::new();
    let mut media = Vec::new();
    let mut blocks = Vec::new();
    for (j, block) in turn.content.iter().enumerate() {
        let mime = match block {
            ContentBlock::Text(text) => {
                texts.push(text.as_ref());
                continue;
            }
            ContentBlock::Image(image) => image_mime(image.format),
            ContentBlock::Document(document) => match document.format {
                DocumentFormat::Pdf | DocumentFormat::Txt => Some(document.format.mime_type()),
                DocumentFormat::Csv
                | DocumentFormat::Doc
                | DocumentFormat::Docx
                | DocumentFormat::Xls
                | DocumentFormat::Xlsx
                | DocumentFormat::Html
                | DocumentFormat::Md => None,
            },
            ContentBlock::Video(_) => None,
            ContentBlock::ProviderItem(item) => {
                cx.item_in_tool_result(turn, j, item);
                continue;
            }
        };
        if let (Some(mime), Some(Source::Base64(data))) = (mime, block.source()) {
            media.push(InlineData { mime_type: mime, data: cx.payload(data) });
            blocks.push(j);
        } else {
            let message = format!(
                "{} function responses take only text, base64 PNG, JPEG or WebP images and base64 PDF or txt documents, so this {} block from 'tool' cannot be sent; move it into a user message",
                cx.name(),
                block.type_name(),
            );
            cx.error(Diagnostic::new(Code::MediaNotAllowedInRole, turn.origin.block_path(cx.base, j), message));
        }
    }
    (texts, media, blocks)
}

/// The Gemini converter.
#[derive(Debug, Clone, Copy, Default)]
pub struct Gemini;

/// The body's `tools`: one tool object of every function declaration, where the first function
/// tool stands, and each of Gemini's own tool objects (`googleSearch`, `codeExecution`) where it
/// stands.
fn gemini_tools<'a>(cx: &mut Conversion<'a>, tools: Vec<Declared<'a>>) -> Vec<Tool<'a>> {
    let mut wire = Vec::new();
    let mut functions: Option<usize> = None;
    for tool in tools {
        match tool {
            Declared::Function { spec, schema, index } => {
                let k = *functions.get_or_insert_with(|| {
                    wire.push(Tool::Functions { function_declarations: Vec::new() });
                    wire.len() - 1
                });
                let Tool::Functions { function_declarations } = &mut wire[k] else { continue };
                let j = function_declarations.len();
                cx.tool_fields(spec, index, || format!("/tools/{k}/functionDeclarations/{j}"));
                function_declarations.push(FunctionDeclaration {
                    name: &spec.name,
                    description: non_blank(spec.description.as_deref()),
                    parameters_json_schema: schema,
                });
            }
            Declared::Provider(tool) => wire.push(Tool::Raw(tool)),
        }
    }
    wire
}

impl Provider for Gemini {
    const ID: ProviderId = ProviderId::Gemini;
    type Request<'a> = GenerateContentRequest<'a>;

    fn convert_spliced<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
        splice: Option<&'a Splice<'a>>,
    ) -> Result<Converted<GenerateContentRequest<'a>>, Report> {
        let mut cx = Conversion::of(&PROFILE, request, splice);
        let turns = cx.carried(Turn::all(&request.input));
        let max_output_tokens = cx.sampling(options);
        let tools = cx.tools(options);
        limits(&mut cx, &turns);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        // No first-message rule: the API reference's `contents` is the history and the latest
        // request, with no role required first.
        let calls = cx.pairs_by_message(&turns, false);
        let mut system: Vec<Part<'a>> = Vec::new();
        if let Some(prompt) = non_blank(options.system.as_deref()) {
            system.push(Part::Text(prompt));
        }
        let mut contents = Alternation::new();
        // The content each user or model turn went into, for its provider fields.
        let mut homes = Vec::new();
        for (t, turn) in turns.iter().enumerate() {
            let role = match turn.role {
                Role::User | Role::Tool => "user",
                Role::Assistant => "model",
                Role::System => {
                    let texts = cx.text_only(turn, "system instructions");
                    // A system message's fields go on `systemInstruction`, its texts' on their parts.
                    if turn.provider_fields.is_some() {
                        cx.place_message(turn, "/systemInstruction");
                        let blocks =
                            turn.content.iter().enumerate().filter(|(_, b)| matches!(b, ContentBlock::Text(_)));
                        for (k, (j, _)) in blocks.enumerate() {
                            cx.place_element(turn, j, &format!("/systemInstruction/parts/{}", system.len() + k));
                        }
                    }
                    system.extend(texts.into_iter().map(Part::Text));
                    continue;
                }
                Role::Other(_) => {
                    cx.role_not_supported(turn);
                    continue;
                }
            };
            let parts = parts(&mut cx, turn, t, &calls, &turns);
            contents.push(&mut cx, turn, role, parts);
            if *turn.role != Role::Tool {
                homes.push((t, contents.turns.len() - 1));
            }
        }
        let contents = placed(&mut cx, contents.turns, &turns, &homes);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let body = GenerateContentRequest {
            contents,
            system_instruction: (!system.is_empty()).then_some(SystemInstruction { parts: system }),
            generation_config: GenerationConfig {
                max_output_tokens,
                temperature: options.temperature,
                top_p: options.top_p,
                stop_sequences: options.stop_sequences.iter().map(String::as_str).collect(),
                response_mime_type: options.response_format.as_ref().map(|_| "application/json"),
                response_json_schema: options.response_format.as_ref().map(|format| {
                    cx.response_format_unsent(format, &["name", "description", "strict"]);
                    &format.schema
                }),
                // Gemini 2.5 takes a budget, Gemini 3 a level.
                thinking_config: options.reasoning.and_then(|reasoning| match reasoning {
                    Reasoning::BudgetTokens(budget) => {
                        Some(ThinkingConfig { thinking_budget: Some(budget), thinking_level: None })
                    }
                    Reasoning::Effort(effort) => {
                        let levels = [Effort::Minimal, Effort::Low, Effort::Medium, Effort::High];
                        cx.effort_in(effort, &levels).map(|effort| ThinkingConfig {
                            thinking_budget: None,
                            thinking_level: Some(match effort {
                                Effort::Minimal => "MINIMAL",
                                Effort::Low => "LOW",
                                Effort::Medium => "MEDIUM",
                                _ => "HIGH",
                            }),
                        })
                    }
                }),
            },
            tool_config: cx.tool_choice(options).map(|choice| ToolConfig {
                function_calling_config: match choice {
                    OptionChoice::Auto => FunctionCallingConfig { mode: "AUTO", allowed_function_names: Vec::new() },
                    OptionChoice::Any => FunctionCallingConfig { mode: "ANY", allowed_function_names: Vec::new() },
                    OptionChoice::None => FunctionCallingConfig { mode: "NONE", allowed_function_names: Vec::new() },
                    OptionChoice::Tool { name } => {
                        FunctionCallingConfig { mode: "ANY", allowed_function_names: vec![name.as_str()] }
                    }
                },
            }),
            tools: gemini_tools(&mut cx, tools),
        };
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        Ok(Converted { body, warnings: cx.report.warnings, placements: cx.placements })
    }
}

/// What a part was written for: where its element's provider fields go once the contents are
/// final (same-role turns merged, function responses moved first).
enum Owner {
    /// Nothing with fields of its own (a thought part, a provider item, text input).
    None,
    /// Element `element` (its blocks, then its calls) of turn `turn`.
    Element { turn: usize, element: usize },
    /// Turn `turn`'s function response, the tool message's object; its media parts came from
    /// these blocks.
    Result { turn: usize, media: Vec<usize> },
}

/// A content being built: its parts, each with what it was written for.
struct Built<'a> {
    role: &'static str,
    parts: Vec<(Part<'a>, Owner)>,
}

impl<'a> AlternatingTurn for Built<'a> {
    type Role = &'static str;
    type Block = (Part<'a>, Owner);
    const ROLES: &'static str = "user and model";

    fn new(role: &'static str, parts: Vec<(Part<'a>, Owner)>) -> Self {
        Self { role, parts }
    }

    fn role(&self) -> &'static str {
        self.role
    }

    fn blocks(&mut self) -> &mut Vec<(Part<'a>, Owner)> {
        &mut self.parts
    }

    fn role_name(role: &'static str) -> &'static str {
        role
    }

    fn is_tool_result(part: &(Part<'a>, Owner)) -> bool {
        matches!(part.0, Part::FunctionResponse(_))
    }
}

/// The final contents, each turn's provider fields placed where its parts ended up: an element's
/// on its part, a tool message's on its `functionResponse` part (its media blocks' on the
/// response's own parts), a user or model message's on the content it went into (`homes`).
fn placed<'a>(
    cx: &mut Conversion<'a>,
    built: Vec<Built<'a>>,
    turns: &[Turn<'a, 'a>],
    homes: &[(usize, usize)],
) -> Vec<Content<'a>> {
    let fielded = |t: usize| turns[t].provider_fields.is_some();
    let mut contents = Vec::with_capacity(built.len());
    for (i, content) in built.into_iter().enumerate() {
        let mut parts = Vec::with_capacity(content.parts.len());
        for (p, (part, owner)) in content.parts.into_iter().enumerate() {
            match owner {
                Owner::Element { turn, element } if fielded(turn) => {
                    cx.place_element(&turns[turn], element, &format!("/contents/{i}/parts/{p}"));
                }
                Owner::Result { turn, media } if fielded(turn) => {
                    let at = format!("/contents/{i}/parts/{p}");
                    cx.place_message(&turns[turn], &at);
                    for (k, j) in media.into_iter().enumerate() {
                        cx.place_element(&turns[turn], j, &format!("{at}/functionResponse/parts/{k}"));
                    }
                }
                _ => {}
            }
            parts.push(part);
        }
        contents.push(Content { role: content.role, parts });
    }
    for &(turn, i) in homes.iter().filter(|(turn, _)| fielded(*turn)) {
        cx.place_message(&turns[turn], &format!("/contents/{i}"));
    }
    contents
}

fn limits(cx: &mut Conversion<'_>, turns: &[Turn<'_, '_>]) {
    let mut images = 0u64;
    let mut inline = 0u64;
    for turn in turns {
        for (j, block) in turn.content.iter().enumerate() {
            let path = || turn.origin.block_path(cx.base, j);
            match block {
                ContentBlock::Image(_) => {
                    images += 1;
                    cx.count(images, MAX_IMAGES, "image", &path);
                }
                ContentBlock::Document(document) if document.format == DocumentFormat::Pdf => {
                    cx.size(&document.source, MAX_PDF_BYTES, "PDF", &path);
                }
                _ => {}
            }
            if let Some(Source::Base64(data)) = block.source() {
                inline += data.len() as u64;
            }
        }
    }
    cx.total(inline, MAX_INLINE_CHARS, "base64 inline data");
}

/// The id Gemini gave call `k` of an assistant turn (kept in its reasoning state), if any.
fn gemini_call_id<'r>(turn: &Turn<'r, '_>, k: usize) -> Option<&'r str> {
    let state = turn.reasoning_state.filter(|state| state.provider == ProviderId::Gemini);
    state_on(state, turn.content.len() + k, turn.content.len() + turn.tool_calls.len(), "id")
}

/// A tool result's `response`: a JSON object result as that object; other JSON values, and
/// text, under `result` (one, or a list of several).
fn response<'a>(json: bool, texts: &[&'a str]) -> Response<'a> {
    // Read as the call arguments are (`raw_json`: a borrowed `RawValue` reader would cost the npm
    // module kilobytes).
    let raw = crate::providers::common::convert::payload::raw_json;
    if json {
        // Several values are one JSON array of them.
        let value = match texts {
            [one] => raw(one),
            _ => raw(&format!("[{}]", texts.join(","))),
        };
        if let Some(value) = value {
            return if value.get().starts_with('{') {
                Response::Object(value)
            } else {
                Response::Result(ResultText::Json(value))
            };
        }
    }
    match texts {
        [] => Response::Empty,
        [text] => Response::Result(ResultText::One(text)),
        _ => Response::Result(ResultText::Many(texts.to_vec())),
    }
}

/// The parts of turn `t`, each with what it was written for.
fn parts<'a>(
    cx: &mut Conversion<'a>,
    turn: &Turn<'a, 'a>,
    t: usize,
    calls: &[CallSite<'a>],
    turns: &[Turn<'a, 'a>],
) -> Vec<(Part<'a>, Owner)> {
    let mut parts = Vec::with_capacity(turn.content.len() + turn.tool_calls.len() + 1);
    if let Some(text) = turn.text {
        parts.push((Part::Text(text), Owner::None));
        return parts;
    }
    let of = |element: usize| Owner::Element { turn: t, element };
    if *turn.role == Role::Tool {
        let id = turn.tool_call_id.unwrap_or_default();
        let (texts, media, blocks) = response_parts(cx, turn);
        // The latest call with this id before the result (ids may repeat across turns); an
        // unmatched id is reported by the pairing check.
        let Some(call) = calls.iter().rev().find(|c| c.id == id && c.origin < turn.origin) else { return parts };
        // Gemini's id goes back on the response where the name alone does not say which call
        // it answers: parallel calls of one function.
        let id = turns.iter().find(|t| t.origin == call.origin).and_then(|owner| {
            let k = owner.tool_calls.iter().position(|c| c.id == id)?;
            let twins = owner.tool_calls.iter().filter(|c| c.name == call.name).count() > 1;
            gemini_call_id(owner, k).filter(|_| twins)
        });
        let part = Part::FunctionResponse(FunctionResponse {
            id,
            name: call.name,
            response: response(turn.json_result, &texts),
            parts: media.into_iter().map(|inline_data| ResponsePart { inline_data }).collect(),
        });
        parts.push((part, Owner::Result { turn: t, media: blocks }));
        return parts;
    }
    // The turn's own thought signatures go back on the parts they came with.
    let state = cx.reasoning_state(turn, ProviderId::Gemini);
    let len = turn.content.len() + turn.tool_calls.len();
    let signature = |at: usize| state_on(state, at, len, "thoughtSignature");
    let signed = |part: Part<'a>, at: usize| match signature(at) {
        Some(signature) => Part::Signed(Box::new(part), signature),
        None => part,
    };
    // Its thought parts go back as given, before what followed them.
    let thoughts = |at: usize, parts: &mut Vec<(Part<'a>, Owner)>| {
        for block in state_blocks(state, at, len) {
            if let Some(part) = block.as_object() {
                parts.push((Part::Raw(part), Owner::None));
            }
        }
    };
    for (j, block) in turn.content.iter().enumerate() {
        thoughts(j, &mut parts);
        let path = || turn.origin.block_path(cx.base, j);
        let mime = match block {
            ContentBlock::Text(text) => {
                parts.push((signed(Part::Text(text), j), of(j)));
                continue;
            }
            // Code execution (any part without a standard form), as given.
            ContentBlock::ProviderItem(item) => {
                if let Some(part) = cx.provider_item(turn, j, item).and_then(serde_json::Value::as_object) {
                    parts.push((Part::Raw(part), Owner::None));
                }
                continue;
            }
            ContentBlock::Image(image) => {
                let Some(mime) = image_mime(image.format) else {
                    cx.unsupported(
                        path().key("source").key("format"),
                        "gif images",
                        "convert the image to PNG or WebP",
                    );
                    continue;
                };
                mime
            }
            ContentBlock::Video(video) => {
                let Some(mime) = video_mime(video.format) else {
                    cx.unsupported(
                        path().key("source").key("format"),
                        "mkv video",
                        "convert it to mp4 or webm, or use bedrock-converse",
                    );
                    continue;
                };
                mime
            }
            ContentBlock::Document(document) => {
                let Some(mime) = document_mime(document.format) else {
                    cx.unsupported(
                        path().key("source").key("format"),
                        &format!("{} documents (PDF and text formats only)", document.format),
                        "convert the document to PDF, or put its text in a text block",
                    );
                    continue;
                };
                mime
            }
        };
        match block.source() {
            Some(Source::Base64(data)) => {
                parts.push((Part::InlineData(InlineData { mime_type: mime, data: cx.payload(data) }), of(j)));
            }
            Some(Source::Url(url)) if cx.web_url(url, path().key("source").key("data"), block.type_name()) => {
                parts.push((Part::FileData(FileData { mime_type: mime, file_uri: url }), of(j)));
            }
            Some(Source::Url(_)) | None => {}
        }
    }
    let mut first_call = true;
    for (k, call) in turn.tool_calls.iter().enumerate() {
        thoughts(turn.content.len() + k, &mut parts);
        cx.call_name(&call.name, turn, k);
        if let Some(args) = crate::providers::common::convert::payload::raw_json(&call.arguments) {
            let id = gemini_call_id(turn, k);
            let part = Part::FunctionCall(FunctionCall { id, name: &call.name, args });
            // A turn's first call must carry a signature for Gemini 3; one that has none (history
            // written by hand, or from another provider) carries the sentinel Gemini documents
            // for that case.
            let part = match signature(turn.content.len() + k) {
                Some(signature) => Part::Signed(Box::new(part), signature),
                None if first_call => Part::Signed(Box::new(part), SKIP_SIGNATURE),
                None => part,
            };
            first_call = false;
            parts.push((part, of(turn.content.len() + k)));
        }
    }
    thoughts(len, &mut parts);
    parts
}

/// The `thoughtSignature` Gemini takes for a call its own model did not make ("Thought
/// signatures", Gemini API docs): validation of that part is skipped.
pub const SKIP_SIGNATURE: &str = "skip_thought_signature_validator";

pub mod wire;
