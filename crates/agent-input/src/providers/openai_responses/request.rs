//! Standard input → `OpenAI` Responses request body (`POST /v1/responses`).
//!
//! API reference: <https://platform.openai.com/docs/api-reference/responses/create>. Messages
//! become `input` items; tool calls `function_call` items and tool results
//! `function_call_output` items; system text joins `instructions`; assistant text goes as input
//! messages with string content. Images go as `input_image`,
//! PDFs as `input_file` (`file_data` or `file_url`); video, other document formats, `s3://` URLs
//! and stop sequences are errors. Provider fields go on the item or part written for their
//! element (docs/provider-fields.md).

use crate::diagnostic::Report;
use crate::format::DocumentFormat;
use crate::model::{ContentBlock, ExecuteRequest, Role, Source};
use crate::providers::common::convert::payload::{self, DataUrl};
use crate::providers::common::convert::turns::{Turn, state_blocks, state_on};
use crate::providers::common::convert::{Conversion, PLAIN_NAME, Profile, Rule, Splice, non_blank};
use crate::providers::common::convert::{ConvertOptions, Converted, Provider, ProviderId, ToolEntry, ToolSpec};
use crate::providers::openai::{MAX_TEMPERATURE, OPENAI_ROLES, openai_limits, tool_choice_mode};

use serde_json::Value;

use self::wire::{
    Content, FunctionTool, Item, Output, OutputText, Part, ReasoningConfig, ResponsesRequest, TextConfig, TextFormat,
    Tool, ToolChoice, Url,
};

/// What this converter can carry, for docs/providers.md.
pub const CAPABILITIES: crate::providers::common::convert::Capabilities =
    crate::providers::common::convert::Capabilities {
        provider: ProviderId::OpenAiResponses,
        image_base64: "✓ `data:` URL",
        image_url: "✓ https",
        document_base64: "PDF only (`input_file`)",
        document_url: "PDF only (`file_url`)",
        video: "✗",
        s3_urls: "✗",
        system: "`instructions`",
        roles: "system, developer, user, assistant, tool",
        media_outside_user: "tool results only",
        tool_results: "`function_call_output`, text, images, PDFs",
        limits: "≤ 500 images, 50 MB images, 32 MB PDFs; no stop sequences; temperature ≤ 2; max_tokens ≥ 16; call ids ≤ 64 characters",
    };

/// What the shared checks need to know about Responses.
pub(crate) const PROFILE: Profile = Profile {
    provider: ProviderId::OpenAiResponses,
    name: ProviderId::OpenAiResponses.display_name(),
    max_temperature: MAX_TEMPERATURE,
    max_stop_sequences: None,
    tool_name: PLAIN_NAME,
    tool_call_id: Some(Rule { holds: is_call_id, says: "1-64 characters" }),
    roles: OPENAI_ROLES,
    roles_text: "system, developer, user, assistant, tool",
    too_large: "send it by URL",
    legacy_option_wording: false,
    min_max_tokens: 16,
    temperature_or_top_p: false,
};

/// `call_id` is 1 to 64 characters (API reference, "Function tool call").
fn is_call_id(id: &str) -> bool {
    (1..=64).contains(&id.chars().count())
}

/// The `OpenAI` Responses converter.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenAiResponses;

impl Provider for OpenAiResponses {
    const ID: ProviderId = ProviderId::OpenAiResponses;
    type Request<'a> = ResponsesRequest<'a>;

    fn convert_spliced<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
        splice: Option<&'a Splice<'a>>,
    ) -> Result<Converted<ResponsesRequest<'a>>, Report> {
        let mut cx = Conversion::of(&PROFILE, request, splice);
        let turns = cx.carried(Turn::all(&request.input));
        let max_output_tokens = cx.sampling(options);
        let tools = cx.tools(options);
        openai_limits(&mut cx, &turns);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let mut instructions: Vec<&str> = non_blank(options.system.as_deref()).into_iter().collect();
        let mut input = Vec::with_capacity(turns.len());
        let mut documents = 0;
        for turn in &turns {
            items(&mut cx, turn, &mut documents, &mut instructions, &mut input);
        }
        cx.pairs_by_message(&turns, false);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let body = ResponsesRequest {
            instructions: (!instructions.is_empty()).then(|| instructions.join("\n\n")),
            input,
            max_output_tokens,
            temperature: options.temperature,
            top_p: options.top_p,
            tools: cx.wire_tools(tools, "/tools", function_tool, Tool::Raw),
            tool_choice: cx.tool_choice(options).map(|choice| match tool_choice_mode(choice) {
                Ok(mode) => ToolChoice::Mode(mode),
                Err(name) => ToolChoice::Named { kind: named_kind(options, name), name },
            }),
            text: options.response_format.as_ref().map(|format| TextConfig {
                format: TextFormat {
                    kind: "json_schema",
                    name: format.name(),
                    description: format.description.as_deref(),
                    schema: &format.schema,
                    strict: format.strict,
                },
            }),
            reasoning: cx.effort_only(options).map(|effort| ReasoningConfig { effort: effort.as_str() }),
        };
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        Ok(Converted { body, warnings: cx.report.warnings, placements: cx.placements })
    }
}

/// Whether `spec`'s own Responses fields hold `key`: the converter leaves its own value out.
fn own_field(spec: &ToolSpec, key: &str) -> bool {
    spec.provider_fields
        .as_ref()
        .is_some_and(|fields| fields.provider == ProviderId::OpenAiResponses && fields.fields.contains_key(key))
}

/// The `type` of the tool a named tool choice forces: `function`, or the type of a Responses tool
/// of that name (`custom`).
fn named_kind<'a>(options: &'a ConvertOptions, name: &str) -> &'a str {
    options
        .tools
        .iter()
        .find_map(|entry| match entry {
            ToolEntry::Provider(tool)
                if tool.provider == ProviderId::OpenAiResponses
                    && tool.item.get("name").and_then(Value::as_str) == Some(name) =>
            {
                tool.item.get("type").and_then(Value::as_str)
            }
            _ => None,
        })
        .unwrap_or("function")
}

fn items<'a>(
    cx: &mut Conversion<'a>,
    turn: &Turn<'a, 'a>,
    documents: &mut usize,
    instructions: &mut Vec<&'a str>,
    input: &mut Vec<Item<'a>>,
) {
    if let Some(text) = turn.text {
        input.push(Item::Message { role: "user", content: Content::Parts(vec![Part::InputText { text }]) });
        return;
    }
    // Provider fields go on the object written for their element: a message's on its (first)
    // message item, or a tool message's on its function_call_output item; a block's on its part,
    // or an assistant text's on its message item and output_text part (see `item_field`); a
    // call's on its function_call item. A system message's and an assistant message's own have
    // no object and are named as left out.
    let i = input.len();
    // Placements are worked out only for a turn with fields, so a conversation without any
    // builds no pointers.
    let fielded = turn.provider_fields.is_some();
    match turn.role {
        Role::System => instructions.extend(cx.text_only(turn, "instructions")),
        Role::Other(name) if name.eq_ignore_ascii_case("developer") => {
            let content = cx.text_only(turn, "developer messages").into_iter().map(|text| Part::InputText { text });
            input.push(Item::Message { role: "developer", content: Content::Parts(content.collect()) });
            if fielded {
                cx.place_message(turn, &format!("/input/{i}"));
                let texts = turn.content.iter().enumerate().filter(|(_, b)| matches!(b, ContentBlock::Text(_)));
                for (k, (j, _)) in texts.enumerate() {
                    cx.place_element(turn, j, &format!("/input/{i}/content/{k}"));
                }
            }
        }
        Role::Other(_) => cx.role_not_supported(turn),
        Role::Assistant => {
            // String content: the only assistant history every input type takes (output_text
            // parts belong to output messages, which need the provider's own ids). One message
            // per text block keeps the blocks apart without inventing a separator. The turn's own
            // reasoning state puts its reasoning items back before what followed them, and the
            // ids that pair those items with their messages and calls.
            let state = cx.reasoning_state(turn, ProviderId::OpenAiResponses);
            let len = turn.content.len() + turn.tool_calls.len();
            let before = |at: usize, input: &mut Vec<Item<'a>>| {
                for block in state_blocks(state, at, len) {
                    if let Some(item) = reasoning_item(block) {
                        input.push(item);
                    }
                }
            };
            let id_on = |at: usize| state_on(state, at, len, "id");
            for (j, block) in turn.content.iter().enumerate() {
                before(j, input);
                if let ContentBlock::ProviderItem(item) = block {
                    if let Some(item) = cx.provider_item(turn, j, item) {
                        input.push(Item::Raw(item));
                    }
                    continue;
                }
                let ContentBlock::Text(text) = block else {
                    cx.media_in_role(turn, j, block, "assistant messages");
                    continue;
                };
                let i = input.len();
                let text = OutputText {
                    annotations: (!carries(turn, j, "annotations")).then_some([]),
                    ..OutputText::new(text)
                };
                let Some(id) = id_on(j) else {
                    input.push(Item::Message { role: "assistant", content: Content::Text(text.text) });
                    if fielded {
                        cx.place_element_split(turn, j, item_field, &format!("/input/{i}"), None);
                    }
                    continue;
                };
                if let Some(Item::OutputMessage { id: last, content, .. }) = input.last_mut()
                    && *last == id
                {
                    let k = content.len();
                    content.push(text);
                    if fielded {
                        let at = format!("/input/{}/content/{k}", i - 1);
                        cx.place_element_split(turn, j, item_field, &format!("/input/{}", i - 1), Some(&at));
                    }
                } else {
                    input.push(Item::OutputMessage {
                        id,
                        role: "assistant",
                        status: (!carries(turn, j, "status")).then_some("completed"),
                        content: vec![text],
                    });
                    if fielded {
                        let at = format!("/input/{i}/content/0");
                        cx.place_element_split(turn, j, item_field, &format!("/input/{i}"), Some(&at));
                    }
                }
            }
            for (k, call) in turn.tool_calls.iter().enumerate() {
                let at = turn.content.len() + k;
                before(at, input);
                cx.call_name(&call.name, turn, k);
                cx.call_id(&call.id, &turn.origin.field_path(cx.base, "toolCalls").index(k).key("id"));
                if fielded {
                    cx.place_element(turn, at, &format!("/input/{}", input.len()));
                }
                input.push(Item::FunctionCall {
                    id: id_on(at),
                    call_id: &call.id,
                    name: &call.name,
                    arguments: &call.arguments,
                });
            }
            before(len, input);
        }
        Role::Tool => {
            let (parts, blocks) = parts(cx, turn, 0..turn.content.len(), documents);
            // A lone text goes as a string, unless its part has fields of its own.
            let output = match parts.as_slice() {
                [Part::InputText { text }] if !blocks.iter().any(|&j| has_fields(turn, j)) => Output::Text(text),
                _ => Output::Parts(parts),
            };
            if fielded && matches!(output, Output::Parts(_)) {
                for (k, &j) in blocks.iter().enumerate() {
                    cx.place_element(turn, j, &format!("/input/{i}/output/{k}"));
                }
            }
            let call_id = turn.tool_call_id.unwrap_or_default();
            cx.call_id(call_id, &turn.origin.field_path(cx.base, "toolCallId"));
            input.push(Item::FunctionCallOutput { call_id, output });
            if fielded {
                cx.place_message(turn, &format!("/input/{i}"));
            }
        }
        Role::User => {
            // A provider item is an input item of its own, between the messages of the blocks
            // around it.
            let mut start = 0;
            let mut first = true;
            let mut message = |cx: &mut Conversion<'a>, range: std::ops::Range<usize>, input: &mut Vec<Item<'a>>| {
                let i = input.len();
                let (parts, blocks) = parts(cx, turn, range, documents);
                input.push(Item::Message { role: "user", content: Content::Parts(parts) });
                if std::mem::take(&mut first) && fielded {
                    cx.place_message(turn, &format!("/input/{i}"));
                }
                for (k, j) in blocks.into_iter().enumerate().filter(|_| fielded) {
                    cx.place_element(turn, j, &format!("/input/{i}/content/{k}"));
                }
            };
            for (j, block) in turn.content.iter().enumerate() {
                let ContentBlock::ProviderItem(item) = block else { continue };
                if start < j {
                    message(cx, start..j, input);
                }
                if let Some(item) = cx.provider_item(turn, j, item) {
                    input.push(Item::Raw(item));
                }
                start = j + 1;
            }
            if start < turn.content.len() {
                message(cx, start..turn.content.len(), input);
            }
        }
    }
}

/// A `reasoning` item of a reasoning state (or a message without text that followed one), as the
/// provider gave it.
fn reasoning_item(block: &serde_json::Value) -> Option<Item<'_>> {
    matches!(block.get("type").and_then(Value::as_str), Some("reasoning" | "message")).then_some(Item::Reasoning(block))
}

/// A field of a Responses `message` item itself (beside `type`, `role` and `content`), not of the
/// `output_text` part in it: where an assistant text's provider fields go.
fn item_field(key: &str) -> bool {
    matches!(key, "id" | "status" | "phase")
}

/// Whether element `j` of `turn` has Responses fields.
fn has_fields(turn: &Turn<'_, '_>, j: usize) -> bool {
    turn.provider_fields.is_some_and(|f| f.on(j).any(|(_, part)| part.provider == ProviderId::OpenAiResponses))
}

/// Whether element `j` of `turn` carries its own Responses field `key`: the writer then leaves
/// out the value it would write there (`detail: auto`, `annotations: []`, `status: completed`).
fn carries(turn: &Turn<'_, '_>, j: usize, key: &str) -> bool {
    turn.provider_fields.is_some_and(|f| {
        f.on(j).any(|(_, part)| part.provider == ProviderId::OpenAiResponses && part.fields.contains_key(key))
    })
}

/// The parts of blocks `range` of `turn`, and (for a turn with provider fields) the block each
/// came from.
fn parts<'a>(
    cx: &mut Conversion<'a>,
    turn: &Turn<'a, 'a>,
    range: std::ops::Range<usize>,
    documents: &mut usize,
) -> (Vec<Part<'a>>, Vec<usize>) {
    let mut parts = Vec::with_capacity(range.len());
    // Kept for a turn with provider fields only (an empty `Vec` allocates nothing).
    let mut blocks = Vec::new();
    for (j, block) in turn.content.iter().enumerate().take(range.end).skip(range.start) {
        let path = || turn.origin.block_path(cx.base, j);
        let before = parts.len();
        let detail = (!carries(turn, j, "detail")).then_some("auto");
        match block {
            ContentBlock::Text(text) => parts.push(Part::InputText { text }),
            // In a tool result: another provider's item is left out; its own has no place there.
            ContentBlock::ProviderItem(item) => cx.item_in_tool_result(turn, j, item),
            ContentBlock::Image(image) => match &image.source {
                Source::Base64(data) => parts.push(Part::InputImage {
                    image_url: Url::Data(cx.data_url(image.format.mime_type(), data)),
                    detail,
                }),
                Source::Url(url) => {
                    if cx.web_url(url, path().key("source").key("data"), "image") {
                        parts.push(Part::InputImage { image_url: Url::Web(url), detail });
                    }
                }
            },
            ContentBlock::Document(document) => {
                *documents += 1;
                if document.format != DocumentFormat::Pdf {
                    cx.unsupported(
                        path().key("source").key("format"),
                        &format!("{} documents (only PDF files)", document.format),
                        "convert the document to PDF, or put its text in a text block",
                    );
                    continue;
                }
                match &document.source {
                    Source::Base64(data) => parts.push(Part::InputFile {
                        filename: Some(payload::file_name(document.name.as_deref(), "pdf", *documents)),
                        file_data: Some(cx.data_url(document.format.mime_type(), data)),
                        file_url: None,
                    }),
                    Source::Url(url) => {
                        if cx.web_url(url, path().key("source").key("data"), "document") {
                            parts.push(Part::InputFile { filename: None, file_data: None, file_url: Some(url) });
                        }
                    }
                }
            }
            ContentBlock::Video(_) => cx.no_video(path()),
        }
        if parts.len() > before && turn.provider_fields.is_some() {
            blocks.push(j);
        }
    }
    (parts, blocks)
}

/// A function tool as the Responses API declares it: `strict` is `false` unless the tool's own
/// fields say.
fn function_tool<'a>(_: usize, spec: &'a ToolSpec, schema: &'a Value) -> Tool<'a> {
    Tool::Function(FunctionTool {
        kind: "function",
        name: &spec.name,
        description: non_blank(spec.description.as_deref()),
        parameters: schema,
        strict: (!own_field(spec, "strict")).then_some(false),
    })
}

/// Responses request shapes, limited to what the standard input can produce.
pub mod wire {
    use serde::Serialize;
    use serde_json::Value;

    use super::DataUrl;
    /// A `data:` URL or a web URL, as Chat Completions takes it.
    pub use crate::providers::openai_chat::request::wire::Url;

    /// The body of `POST /v1/responses` (without `model`, which the caller adds).
    #[derive(Debug, Clone, Serialize)]
    pub struct ResponsesRequest<'a> {
        /// System text.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub instructions: Option<String>,
        /// The conversation as input items.
        pub input: Vec<Item<'a>>,
        /// Most tokens to generate.
        pub max_output_tokens: u64,
        /// Sampling temperature, 0 to 2.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub temperature: Option<f64>,
        /// Nucleus sampling.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub top_p: Option<f64>,
        /// Function tools.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub tools: Vec<Tool<'a>>,
        /// Which tools the model may call.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub tool_choice: Option<ToolChoice<'a>>,
        /// Structured output.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub text: Option<TextConfig<'a>>,
        /// The reasoning effort.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub reasoning: Option<ReasoningConfig>,
    }

    /// `tool_choice`: a mode, or a named function.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum ToolChoice<'a> {
        /// `auto`, `required` or `none`.
        Mode(&'static str),
        /// This function (or custom tool) must be called.
        Named {
            /// `function`, or the type of a Responses tool of that name (`custom`).
            #[serde(rename = "type")]
            kind: &'a str,
            /// The tool's name.
            name: &'a str,
        },
    }

    /// `reasoning`: the effort of a reasoning model.
    #[derive(Debug, Clone, Copy, Serialize)]
    pub struct ReasoningConfig {
        /// `low`, `medium` or `high`.
        pub effort: &'static str,
    }

    /// `text`: the answer's format.
    #[derive(Debug, Clone, Serialize)]
    pub struct TextConfig<'a> {
        /// A JSON Schema.
        pub format: TextFormat<'a>,
    }

    /// `text.format` of type `json_schema`.
    #[derive(Debug, Clone, Serialize)]
    pub struct TextFormat<'a> {
        /// Always `json_schema`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// `[a-zA-Z0-9_-]{1,64}`.
        pub name: &'a str,
        /// What the answer is for.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub description: Option<&'a str>,
        /// The JSON Schema.
        pub schema: &'a Value,
        /// Whether the schema is followed exactly.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub strict: Option<bool>,
    }

    /// An input item, tagged by `type`.
    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Item<'a> {
        /// A message.
        Message {
            /// `user`, `assistant` or `developer`.
            role: &'static str,
            /// Its content.
            content: Content<'a>,
        },
        /// An assistant message as the provider wrote it, with its item id.
        #[serde(rename = "message")]
        OutputMessage {
            /// The provider's id of the item.
            id: &'a str,
            /// `assistant`.
            role: &'static str,
            /// `completed`, unless the text's provider fields give the status.
            #[serde(skip_serializing_if = "Option::is_none")]
            status: Option<&'static str>,
            /// Its text.
            content: Vec<OutputText<'a>>,
        },
        /// A tool call the model made.
        FunctionCall {
            /// The provider's id of the item, when the turn's reasoning state has it.
            #[serde(skip_serializing_if = "Option::is_none")]
            id: Option<&'a str>,
            /// The call's id.
            call_id: &'a str,
            /// The function.
            name: &'a str,
            /// The arguments, a JSON object as text.
            arguments: &'a str,
        },
        /// A tool's result.
        FunctionCallOutput {
            /// The call answered.
            call_id: &'a str,
            /// Text, or parts.
            output: Output<'a>,
        },
        /// A reasoning item, as the provider gave it.
        #[serde(untagged)]
        Reasoning(&'a Value),
        /// A provider item (a built-in tool's call or result, any item without a standard
        /// form), as the provider gave it.
        #[serde(untagged)]
        Raw(&'a Value),
    }

    /// An `output_text` part of an assistant message.
    #[derive(Debug, Clone, Serialize)]
    pub struct OutputText<'a> {
        /// `output_text`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// The text.
        pub text: &'a str,
        /// None: the history carries no citations (unless the text's provider fields give them).
        #[serde(skip_serializing_if = "Option::is_none")]
        pub annotations: Option<[(); 0]>,
    }

    impl<'a> OutputText<'a> {
        /// An `output_text` part.
        pub const fn new(text: &'a str) -> Self {
            Self { kind: "output_text", text, annotations: Some([]) }
        }
    }

    /// A message's content.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum Content<'a> {
        /// Plain text: how assistant history goes.
        Text(&'a str),
        /// Input parts: text, images and files.
        Parts(Vec<Part<'a>>),
    }

    /// A function call's output.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum Output<'a> {
        /// Plain text.
        Text(&'a str),
        /// Text, image and file parts.
        Parts(Vec<Part<'a>>),
    }

    /// A content part.
    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Part<'a> {
        /// User text.
        InputText {
            /// The text.
            text: &'a str,
        },
        /// An image.
        InputImage {
            /// A `data:` URL or a web URL.
            image_url: Url<'a>,
            /// `auto`, unless the image's provider fields give the detail level.
            #[serde(skip_serializing_if = "Option::is_none")]
            detail: Option<&'static str>,
        },
        /// A file.
        InputFile {
            /// The file's name, with `file_data`.
            #[serde(skip_serializing_if = "Option::is_none")]
            filename: Option<String>,
            /// The bytes as a `data:` URL.
            #[serde(skip_serializing_if = "Option::is_none")]
            file_data: Option<DataUrl<'a>>,
            /// A URL the provider fetches.
            #[serde(skip_serializing_if = "Option::is_none")]
            file_url: Option<&'a str>,
        },
    }

    /// A tool: a function tool, or a tool of the Responses API's own as the caller's
    /// `provider_tool` gave it.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum Tool<'a> {
        /// A function tool.
        Function(FunctionTool<'a>),
        /// A hosted or custom tool (`web_search`, `file_search`, `custom`, `mcp`).
        Raw(&'a serde_json::Value),
    }

    /// A function tool.
    #[derive(Debug, Clone, Serialize)]
    pub struct FunctionTool<'a> {
        /// Always `function`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// Its name.
        pub name: &'a str,
        /// What it does.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub description: Option<&'a str>,
        /// JSON Schema of its arguments.
        pub parameters: &'a Value,
        /// `false` (strict mode needs schemas written for it), or left to the tool's own fields.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub strict: Option<bool>,
    }
}
