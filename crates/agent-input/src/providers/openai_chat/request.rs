//! Standard input → `OpenAI` Chat Completions request body (`POST /v1/chat/completions`).
//!
//! API reference: <https://platform.openai.com/docs/api-reference/chat/create>. Images go as
//! `image_url` parts (a `data:` URL for base64), PDFs as `file` parts with a `data:` URL; video,
//! other document formats, PDF URLs and `s3://` URLs are errors. The model name travels with the
//! endpoint, not in the converted body (see docs/providers.md).

use crate::diagnostic::Report;
use crate::format::DocumentFormat;
use crate::model::{ContentBlock, ExecuteRequest, Role, Source};
use crate::options::Effort;
use crate::providers::common::convert::payload::{self, DataUrl};
use crate::providers::common::convert::turns::Turn;
use crate::providers::common::convert::{Conversion, PLAIN_NAME, Profile, Splice, non_blank};
use crate::providers::common::convert::{ConvertOptions, Converted, Provider, ProviderId, ToolSpec};

use crate::providers::openai::{MAX_STOP_SEQUENCES, OPENAI_ROLES, openai_limits, tool_choice_mode};

pub use crate::providers::openai::{MAX_FILE_BYTES_TOTAL, MAX_IMAGE_BYTES_TOTAL, MAX_IMAGES, MAX_TEMPERATURE};

use self::wire::{
    ChatMessage, ChatRequest, Content, File, Function, FunctionCall, FunctionTool, ImageUrl, JsonSchema, NamedFunction,
    Part, ResponseFormat, Tool, ToolCall, ToolChoice, Url,
};

/// What this converter can carry, for docs/providers.md.
pub const CAPABILITIES: crate::providers::common::convert::Capabilities =
    crate::providers::common::convert::Capabilities {
        provider: ProviderId::OpenAiChat,
        image_base64: "✓ `data:` URL",
        image_url: "✓ https",
        document_base64: "PDF only (`file`)",
        document_url: "✗",
        video: "✗",
        s3_urls: "✗",
        system: "`system` message",
        roles: "system, developer, user, assistant, tool",
        media_outside_user: "✗",
        tool_results: "`tool` message, text",
        limits: "≤ 500 images, 50 MB images, 32 MB PDFs; ≤ 4 stop sequences; temperature ≤ 2",
    };

/// What the shared checks need to know about Chat Completions.
pub(crate) const PROFILE: Profile = Profile {
    provider: ProviderId::OpenAiChat,
    name: ProviderId::OpenAiChat.display_name(),
    max_temperature: MAX_TEMPERATURE,
    max_stop_sequences: Some(MAX_STOP_SEQUENCES),
    tool_name: PLAIN_NAME,
    tool_call_id: None,
    roles: OPENAI_ROLES,
    roles_text: "system, developer, user, assistant, tool",
    too_large: "send it by URL",
    legacy_option_wording: false,
    min_max_tokens: 1,
    temperature_or_top_p: false,
};

/// The `OpenAI` Chat Completions converter.
#[derive(Debug, Clone, Copy, Default)]
pub struct OpenAiChat;

impl Provider for OpenAiChat {
    const ID: ProviderId = ProviderId::OpenAiChat;
    type Request<'a> = ChatRequest<'a>;

    fn convert_spliced<'a>(
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
        splice: Option<&'a Splice<'a>>,
    ) -> Result<Converted<ChatRequest<'a>>, Report> {
        let mut cx = Conversion::of(&PROFILE, request, splice);
        let turns = cx.carried(Turn::all(&request.input));
        let max_completion_tokens = cx.sampling(options);
        let tools = cx.tools(options);
        openai_limits(&mut cx, &turns);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let mut messages = Vec::with_capacity(turns.len() + 1);
        if let Some(system) = non_blank(options.system.as_deref()) {
            messages.push(ChatMessage::System { content: Content::Text(system) });
        }
        let mut documents = 0;
        for turn in &turns {
            // A turn of nothing but Chat Completions' own messages is those messages; any other
            // turn is its message, then its own messages after it.
            let own = own_items(turn);
            let alone = own.len() == turn.content.len() && turn.tool_calls.is_empty() && turn.text.is_none();
            if (!alone || own.is_empty())
                && let Some(message) = message(&mut cx, turn, &mut documents, messages.len())
            {
                messages.push(message);
            }
            messages.extend(own.into_iter().map(ChatMessage::Item));
        }
        cx.pairs_by_message(&turns, true);
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        let body = ChatRequest {
            messages,
            max_completion_tokens,
            temperature: options.temperature,
            top_p: options.top_p,
            stop: options.stop_sequences.iter().map(String::as_str).collect(),
            tools: cx.wire_tools(tools, "/tools", function_tool, Tool::Raw),
            tool_choice: cx.tool_choice(options).map(|choice| match tool_choice_mode(choice) {
                Ok(mode) => ToolChoice::Mode(mode),
                Err(name) => ToolChoice::Named { kind: "function", function: NamedFunction { name } },
            }),
            response_format: options.response_format.as_ref().map(|format| ResponseFormat {
                kind: "json_schema",
                json_schema: JsonSchema {
                    name: format.name(),
                    description: format.description.as_deref(),
                    schema: &format.schema,
                    strict: format.strict,
                },
            }),
            reasoning_effort: cx.effort_only(options).map(Effort::as_str),
        };
        if !cx.report.is_ok() {
            return Err(cx.report);
        }
        Ok(Converted { body, warnings: cx.report.warnings, placements: cx.placements })
    }
}

/// The message `turn` becomes, the `index`-th of the body, its provider fields placed: the
/// message's at the message, a part's at the part, a call's at the call.
/// The turn's provider items of Chat Completions' own: whole messages.
fn own_items<'a>(turn: &Turn<'a, 'a>) -> Vec<&'a serde_json::Value> {
    turn.content
        .iter()
        .filter_map(|block| match block {
            ContentBlock::ProviderItem(item) if item.provider == ProviderId::OpenAiChat => Some(&item.item),
            _ => None,
        })
        .collect()
}

fn message<'a>(
    cx: &mut Conversion<'a>,
    turn: &Turn<'a, 'a>,
    documents: &mut usize,
    index: usize,
) -> Option<ChatMessage<'a>> {
    let role = match turn.role {
        Role::Other(name) if name.eq_ignore_ascii_case("developer") => "developer",
        Role::Other(_) => {
            cx.role_not_supported(turn);
            return None;
        }
        Role::User => "user",
        Role::Assistant => "assistant",
        Role::System => "system",
        Role::Tool => "tool",
    };
    if let Some(text) = turn.text {
        return Some(ChatMessage::User { content: Content::Text(text) });
    }
    // Chat Completions takes no reasoning state back: any is left out, with a warning.
    cx.reasoning_state(turn, ProviderId::OpenAiChat);
    let at = turn.provider_fields.map(|_| format!("/messages/{index}"));
    if let Some(at) = &at {
        cx.place_message(turn, at);
    }
    if role != "user" {
        let place = match role {
            "assistant" => "assistant messages",
            "tool" => "tool messages",
            _ => "system and developer messages",
        };
        let texts = cx.text_only(turn, place);
        // A text with fields of its own is a part: a string has no place for them.
        let own = turn.provider_fields.filter(|f| f.provider() == Some(ProviderId::OpenAiChat));
        let part_fields = own.is_some_and(|f| f.items.iter().any(|(on, _)| *on < turn.content.len()));
        let content = match texts.as_slice() {
            [] => None,
            [text] if !part_fields => Some(Content::Text(text)),
            _ => Some(Content::Parts(texts.iter().map(|text| Part::Text { text }).collect())),
        };
        if let (Some(at), true) = (&at, part_fields) {
            let texts = turn.content.iter().enumerate().filter(|(_, b)| matches!(b, ContentBlock::Text(_)));
            for (k, (j, _)) in texts.enumerate() {
                cx.place_element(turn, j, &format!("{at}/content/{k}"));
            }
        }
        if let Some(at) = &at {
            for k in 0..turn.tool_calls.len() {
                cx.place_element(turn, turn.content.len() + k, &format!("{at}/tool_calls/{k}"));
            }
        }
        return Some(match role {
            "assistant" => ChatMessage::Assistant {
                content,
                tool_calls: turn
                    .tool_calls
                    .iter()
                    .enumerate()
                    .map(|(k, call)| {
                        cx.call_name(&call.name, turn, k);
                        ToolCall {
                            id: &call.id,
                            kind: "function",
                            function: FunctionCall { name: &call.name, arguments: &call.arguments },
                        }
                    })
                    .collect(),
            },
            "tool" => ChatMessage::Tool {
                content: content.unwrap_or(Content::Text("")),
                tool_call_id: turn.tool_call_id.unwrap_or_default(),
            },
            "developer" => ChatMessage::Developer { content: content.unwrap_or(Content::Text("")) },
            _ => ChatMessage::System { content: content.unwrap_or(Content::Text("")) },
        });
    }
    let mut parts = Vec::with_capacity(turn.content.len());
    for (j, block) in turn.content.iter().enumerate() {
        let before = parts.len();
        let path = || turn.origin.block_path(cx.base, j);
        match block {
            ContentBlock::Text(text) => parts.push(Part::Text { text }),
            // Chat Completions' own items are messages of their own (written beside this one);
            // another provider's is left out.
            ContentBlock::ProviderItem(item) => {
                if item.provider != ProviderId::OpenAiChat {
                    cx.provider_item(turn, j, item);
                }
            }
            ContentBlock::Image(image) => match &image.source {
                Source::Base64(data) => parts.push(Part::ImageUrl {
                    image_url: ImageUrl { url: Url::Data(cx.data_url(image.format.mime_type(), data)) },
                }),
                Source::Url(url) => {
                    if cx.web_url(url, path().key("source").key("data"), "image") {
                        parts.push(Part::ImageUrl { image_url: ImageUrl { url: Url::Web(url) } });
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
                    Source::Base64(data) => parts.push(Part::File {
                        file: File {
                            filename: payload::file_name(document.name.as_deref(), "pdf", *documents),
                            file_data: cx.data_url(document.format.mime_type(), data),
                        },
                    }),
                    Source::Url(url) => cx.no_url(url, path().key("source").key("data"), "document"),
                }
            }
            ContentBlock::Video(_) => cx.no_video(path()),
        }
        if let Some(at) = at.as_deref().filter(|_| parts.len() > before) {
            cx.place_element(turn, j, &format!("{at}/content/{before}"));
        }
    }
    Some(ChatMessage::User { content: Content::Parts(parts) })
}

/// A function tool as Chat Completions declares it.
fn function_tool<'a>(_: usize, spec: &'a ToolSpec, schema: &'a serde_json::Value) -> Tool<'a> {
    let description = non_blank(spec.description.as_deref());
    Tool::Function(FunctionTool {
        kind: "function",
        function: Function { name: &spec.name, description, parameters: schema },
    })
}

/// Chat Completions request shapes, limited to what the standard input can produce.
pub mod wire {
    use serde::Serialize;
    use serde_json::Value;

    use super::DataUrl;

    /// The body of `POST /v1/chat/completions` (without `model`, which the caller adds).
    #[derive(Debug, Clone, Serialize)]
    pub struct ChatRequest<'a> {
        /// The conversation.
        pub messages: Vec<ChatMessage<'a>>,
        /// Most tokens to generate.
        pub max_completion_tokens: u64,
        /// Sampling temperature, 0 to 2.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub temperature: Option<f64>,
        /// Nucleus sampling.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub top_p: Option<f64>,
        /// Up to 4 stop sequences.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub stop: Vec<&'a str>,
        /// Function tools.
        #[serde(skip_serializing_if = "Vec::is_empty")]
        pub tools: Vec<Tool<'a>>,
        /// Which tools the model may call.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub tool_choice: Option<ToolChoice<'a>>,
        /// Structured output.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub response_format: Option<ResponseFormat<'a>>,
        /// `low`, `medium` or `high`, for reasoning models.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub reasoning_effort: Option<&'static str>,
    }

    /// `tool_choice`: a mode, or a named function.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum ToolChoice<'a> {
        /// `auto`, `required` or `none`.
        Mode(&'static str),
        /// This function must be called.
        Named {
            /// Always `function`.
            #[serde(rename = "type")]
            kind: &'static str,
            /// The function.
            function: NamedFunction<'a>,
        },
    }

    /// `{"name"}` of a named tool choice.
    #[derive(Debug, Clone, Serialize)]
    pub struct NamedFunction<'a> {
        /// The tool's name.
        pub name: &'a str,
    }

    /// `response_format` of type `json_schema`.
    #[derive(Debug, Clone, Serialize)]
    pub struct ResponseFormat<'a> {
        /// Always `json_schema`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// The schema and its name.
        pub json_schema: JsonSchema<'a>,
    }

    /// The schema of a `json_schema` response format.
    #[derive(Debug, Clone, Serialize)]
    pub struct JsonSchema<'a> {
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

    /// A message, tagged by `role`.
    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "role", rename_all = "lowercase")]
    pub enum ChatMessage<'a> {
        /// Instructions.
        System {
            /// Text.
            content: Content<'a>,
        },
        /// Instructions for newer models.
        Developer {
            /// Text.
            content: Content<'a>,
        },
        /// The person.
        User {
            /// Text and media.
            content: Content<'a>,
        },
        /// The model.
        Assistant {
            /// Text; absent when the message only calls tools.
            #[serde(skip_serializing_if = "Option::is_none")]
            content: Option<Content<'a>>,
            /// Calls the model made.
            #[serde(skip_serializing_if = "Vec::is_empty")]
            tool_calls: Vec<ToolCall<'a>>,
        },
        /// A tool's result.
        Tool {
            /// Text.
            content: Content<'a>,
            /// The call answered.
            tool_call_id: &'a str,
        },
        /// A message of Chat Completions' own with no standard form (an assistant message with
        /// nothing in it), carried as a provider item and written as given.
        #[serde(untagged)]
        Item(&'a serde_json::Value),
    }

    /// A string, or content parts.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum Content<'a> {
        /// Plain text.
        Text(&'a str),
        /// Parts.
        Parts(Vec<Part<'a>>),
    }

    /// A content part.
    #[derive(Debug, Clone, Serialize)]
    #[serde(tag = "type", rename_all = "snake_case")]
    pub enum Part<'a> {
        /// `{"type": "text", "text"}`
        Text {
            /// The text.
            text: &'a str,
        },
        /// `{"type": "image_url", "image_url": {"url"}}`
        ImageUrl {
            /// Where the image is.
            image_url: ImageUrl<'a>,
        },
        /// `{"type": "file", "file": {"filename", "file_data"}}`
        File {
            /// The file.
            file: File<'a>,
        },
    }

    /// `image_url`.
    #[derive(Debug, Clone, Serialize)]
    pub struct ImageUrl<'a> {
        /// A `data:` URL or a web URL.
        pub url: Url<'a>,
    }

    /// A `data:` URL or a web URL.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum Url<'a> {
        /// Inline bytes.
        Data(DataUrl<'a>),
        /// A URL the provider fetches.
        Web(&'a str),
    }

    /// `file`.
    #[derive(Debug, Clone, Serialize)]
    pub struct File<'a> {
        /// The file's name.
        pub filename: String,
        /// The bytes as a `data:` URL.
        pub file_data: DataUrl<'a>,
    }

    /// A tool call of an assistant message.
    #[derive(Debug, Clone, Serialize)]
    pub struct ToolCall<'a> {
        /// The call's id.
        pub id: &'a str,
        /// Always `function`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// What is called.
        pub function: FunctionCall<'a>,
    }

    /// `function` of a tool call.
    #[derive(Debug, Clone, Serialize)]
    pub struct FunctionCall<'a> {
        /// The function's name.
        pub name: &'a str,
        /// The arguments, a JSON object as text.
        pub arguments: &'a str,
    }

    /// A tool: a function tool, or a tool of Chat Completions' own as the caller's
    /// `provider_tool` gave it.
    #[derive(Debug, Clone, Serialize)]
    #[serde(untagged)]
    pub enum Tool<'a> {
        /// A function tool.
        Function(FunctionTool<'a>),
        /// A tool of the API's own (`custom`).
        Raw(&'a serde_json::Value),
    }

    /// A function tool.
    #[derive(Debug, Clone, Serialize)]
    pub struct FunctionTool<'a> {
        /// Always `function`.
        #[serde(rename = "type")]
        pub kind: &'static str,
        /// The function.
        pub function: Function<'a>,
    }

    /// A function's declaration.
    #[derive(Debug, Clone, Serialize)]
    pub struct Function<'a> {
        /// Its name.
        pub name: &'a str,
        /// What it does.
        #[serde(skip_serializing_if = "Option::is_none")]
        pub description: Option<&'a str>,
        /// JSON Schema of its arguments.
        pub parameters: &'a Value,
    }
}
