//! ml-commons parity mode: the `question` and `body` parameters exactly as ml-commons' three
//! model providers (`BedrockConverseModelProvider`, `OpenaiV1ChatCompletionsModelProvider`,
//! `GeminiV1BetaGenerateContentModelProvider`) build them — their bugs included — for users
//! comparing with what a real cluster sends. Never used by default; docs/providers.md lists the
//! differences from the normal converters.
//!
//! The agent's type decides the mapping. A `conversational` agent (and every other V1 type with a
//! `model`) maps the input by its form, as `ModelProvider.mapAgentInput` does, and extracts the
//! question. A `conversational_v2` agent turns a text or content blocks into one user message and
//! maps the messages (`mapMessages`), with no question: its executor returns before extracting
//! one. A real node's requests to its provider confirm both (tests/opensearch).
//!
//! ml-commons copies a media `format`, a source's `data` and a message's `role` as written; the
//! validated request holds them normalized (`jpg` → `jpeg`, base64 without whitespace or a data
//! URL prefix, `USER` → `user`), so they are read from the request document itself.

use serde::Serialize;

use super::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::json::{Document, Json};
use crate::model::{AgentInput, ContentBlock, ExecuteRequest, Message, Role, Source};
use crate::path::{Path, Segment};

/// The type of the agent that runs the input, as far as it changes the mapping.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AgentType {
    /// `conversational`, and the other V1 types with a `model` block (`plan_execute_and_reflect`,
    /// `ag_ui`): the input mapped by its form, the question extracted.
    #[default]
    Conversational,
    /// `conversational_v2`: every input mapped as messages, no question.
    ConversationalV2,
}

impl AgentType {
    /// ml-commons' name of the type.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Conversational => "conversational",
            Self::ConversationalV2 => "conversational_v2",
        }
    }
}

/// What ml-commons' agent executor puts into the parameters map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Parameters {
    /// The question, extracted as ml-commons does; none for a `conversational_v2` agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The provider's `body` template parameter (for messages: objects joined with `,`, not a
    /// JSON document).
    pub body: String,
    /// For messages input: the parameters ml-commons does not escape again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_escape_params: Option<&'static str>,
}

/// Builds ml-commons' parameters for a provider it has, as a `conversational` agent does, from
/// `request` validated from `document`.
///
/// # Errors
/// As [`parameters_for`].
pub fn parameters(
    provider: ProviderId,
    document: &Document<'_>,
    request: &ExecuteRequest<'_>,
) -> Result<Parameters, Report> {
    parameters_for(provider, AgentType::Conversational, document, request)
}

/// Builds ml-commons' parameters for a provider it has, as an agent of type `agent` does, from
/// `request` validated from `document` (read for the values ml-commons copies as written).
///
/// # Errors
/// `unsupported_by_provider` for providers ml-commons does not have, and with ml-commons' own
/// message where its provider throws (video or documents for `OpenAI`, non-S3 URLs for Bedrock).
pub fn parameters_for(
    provider: ProviderId,
    agent: AgentType,
    document: &Document<'_>,
    request: &ExecuteRequest<'_>,
) -> Result<Parameters, Report> {
    let mut out = Out {
        provider,
        base: &request.input_path,
        root: &document.root,
        body: String::new(),
        report: Report::default(),
    };
    let as_messages = agent == AgentType::ConversationalV2 || matches!(request.input, AgentInput::Messages(_));
    match provider {
        ProviderId::BedrockConverse | ProviderId::OpenAiChat | ProviderId::Gemini => match agent {
            AgentType::Conversational => out.input(&request.input),
            AgentType::ConversationalV2 => out.as_user_message(&request.input),
        },
        ProviderId::OpenAiResponses | ProviderId::AnthropicMessages => out.report.push(Diagnostic::new(
            Code::UnsupportedByProvider,
            Path::root(),
            format!(
                "ml-commons has no {} model provider (only bedrock/converse, openai/v1/chat/completions and gemini/v1beta/generatecontent); drop --ml-commons to convert normally",
                provider.display_name()
            ),
        )),
    }
    if !out.report.is_ok() {
        return Err(out.report);
    }
    Ok(Parameters {
        question: (agent == AgentType::Conversational).then(|| request.input.question()),
        body: out.body,
        no_escape_params: as_messages.then_some("_chat_history,_tools,_interactions,tool_configs,body"),
    })
}

/// Apache commons-text `StringEscapeUtils.escapeJson`: `"`, `\` and `/` backslash-escaped, the
/// five short control escapes, and every other character below U+0020 or above U+007E as
/// `\uXXXX` (uppercase hex, UTF-16 units).
pub fn escape_json(text: &str, out: &mut String) {
    use std::fmt::Write as _;
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            '\u{8}' => out.push_str("\\b"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04X}");
                }
            }
        }
    }
}

struct Out<'p, 'd> {
    provider: ProviderId,
    base: &'p Path,
    root: &'p Json<'d>,
    body: String,
    report: Report,
}

/// The string at `path` of the request as written, or `normalized` where there is none.
fn written<'s>(root: &'s Json<'_>, path: &Path, normalized: &'s str) -> &'s str {
    let mut at = root;
    for segment in path.segments() {
        let next = match segment {
            Segment::Key(key) => at.get(key),
            Segment::Index(i) => at.as_array().and_then(|items| items.get(*i)),
        };
        match next {
            Some(value) => at = value,
            None => return normalized,
        }
    }
    at.as_str().unwrap_or(normalized)
}

/// A block's source `format` and `data` as written.
fn source_written<'s>(root: &'s Json<'_>, block: &Path, format: &'s str, data: &'s str) -> (&'s str, &'s str) {
    let source = block.key("source");
    (written(root, &source.key("format"), format), written(root, &source.key("data"), data))
}

impl Out<'_, '_> {
    fn esc(&mut self, text: &str) {
        escape_json(text, &mut self.body);
    }

    fn fail(&mut self, path: Path, message: &str) {
        self.report.push(Diagnostic::new(
            Code::UnsupportedByProvider,
            path,
            format!("ml-commons' {} provider fails here: {message}", self.provider.display_name()),
        ));
    }

    fn input(&mut self, input: &AgentInput<'_>) {
        match input {
            AgentInput::Text(text) => {
                let (open, close) = match self.provider {
                    ProviderId::OpenAiChat => (r#"{"role":"user","content":""#, r#""}"#),
                    ProviderId::Gemini => (r#"{"role":"user","parts":[{"text":""#, r#""}]}"#),
                    _ => (r#"{"role":"user","content":[{"text":""#, r#""}]}"#),
                };
                self.body.push_str(open);
                self.esc(text);
                self.body.push_str(close);
            }
            AgentInput::Blocks(blocks) => {
                let base = self.base.clone();
                self.message_open("user");
                self.blocks(blocks, &|j| base.index(j));
                self.body.push_str("]}");
            }
            AgentInput::Messages(messages) => self.messages(messages),
        }
    }

    /// A `conversational_v2` agent's mapping: a text becomes a user message of one text block,
    /// content blocks one user message, and messages stay as given (`MLAgentExecutor`).
    fn as_user_message(&mut self, input: &AgentInput<'_>) {
        let base = self.base.clone();
        match input {
            AgentInput::Text(text) => {
                self.message_open("user");
                self.blocks(&[ContentBlock::Text(text.clone())], &|j| base.index(j));
                self.body.push_str("]}");
            }
            AgentInput::Blocks(blocks) => {
                self.message_open("user");
                self.blocks(blocks, &|j| base.index(j));
                self.body.push_str("]}");
            }
            AgentInput::Messages(messages) => self.messages(messages),
        }
    }

    fn message_open(&mut self, role: &str) {
        self.body.push_str(r#"{"role":""#);
        self.body.push_str(role);
        self.body.push_str(if self.provider == ProviderId::Gemini { r#"","parts":["# } else { r#"","content":["# });
    }

    fn messages(&mut self, messages: &[Message<'_>]) {
        let base = &self.base.clone();
        let mut i = 0;
        let mut first = true;
        while i < messages.len() {
            if !first {
                self.body.push(',');
            }
            first = false;
            let message = &messages[i];
            let path = move |j: usize| base.index(i).key("content").index(j);
            let root = self.root;
            let role = written(root, &base.index(i).key("role"), message.role.as_str());
            match self.provider {
                ProviderId::BedrockConverse if message.role == Role::Tool => {
                    // Consecutive tool messages become one user message of toolResult blocks,
                    // each carrying only the first text block.
                    self.message_open("user");
                    let mut k = i;
                    while k < messages.len() && messages[k].role == Role::Tool {
                        if k > i {
                            self.body.push(',');
                        }
                        self.body.push_str(r#"{"toolResult":{"toolUseId":""#);
                        self.esc(messages[k].tool_call_id.as_deref().unwrap_or_default());
                        self.body.push_str(r#"","content":[{"text":""#);
                        let text = messages[k].content.iter().find_map(|b| match b {
                            ContentBlock::Text(t) => Some(t.as_ref()),
                            _ => None,
                        });
                        self.esc(text.unwrap_or_default());
                        self.body.push_str(r#""}]}}"#);
                        k += 1;
                    }
                    self.body.push_str("]}");
                    i = k;
                    continue;
                }
                ProviderId::Gemini => {
                    // Only the exact role "user" stays a user turn.
                    self.message_open(if role == "user" { "user" } else { "model" });
                    self.blocks(&message.content, &path);
                    self.body.push_str("]}");
                }
                ProviderId::OpenAiChat => {
                    self.message_open(role);
                    self.blocks(&message.content, &path);
                    self.body.push(']');
                    if !message.tool_calls.is_empty() {
                        self.body.push_str(r#","tool_calls":["#);
                        for (k, call) in message.tool_calls.iter().enumerate() {
                            if k > 0 {
                                self.body.push(',');
                            }
                            self.body.push_str(r#"{"id":""#);
                            self.esc(&call.id);
                            self.body.push_str(r#"","type":""#);
                            self.esc(&call.kind);
                            self.body.push_str(r#"","function":{"name":""#);
                            self.esc(&call.name);
                            self.body.push_str(r#"","arguments":""#);
                            self.esc(&call.arguments);
                            self.body.push_str(r#""}}"#);
                        }
                        self.body.push(']');
                    }
                    if let Some(id) = message.tool_call_id.as_deref() {
                        self.body.push_str(r#","tool_call_id":""#);
                        self.esc(id);
                        self.body.push('"');
                    }
                    self.body.push('}');
                }
                _ => {
                    self.message_open(role);
                    self.blocks(&message.content, &path);
                    for (k, call) in message.tool_calls.iter().enumerate() {
                        if !message.content.is_empty() || k > 0 {
                            self.body.push(',');
                        }
                        self.body.push_str(r#"{"toolUse":{"toolUseId":""#);
                        self.esc(&call.id);
                        self.body.push_str(r#"","name":""#);
                        self.esc(&call.name);
                        self.body.push_str(r#"","input":"#);
                        let arguments = call.arguments.trim();
                        self.body.push_str(if arguments.is_empty() { "{}" } else { arguments });
                        self.body.push_str("}}");
                    }
                    self.body.push_str("]}");
                }
            }
            i += 1;
        }
    }

    fn blocks(&mut self, blocks: &[ContentBlock<'_>], path: &dyn Fn(usize) -> Path) {
        for (j, block) in blocks.iter().enumerate() {
            if j > 0 {
                self.body.push(',');
            }
            match self.provider {
                ProviderId::OpenAiChat => self.openai_block(block, &|| path(j)),
                ProviderId::Gemini => self.gemini_block(block, &|| path(j)),
                _ => self.bedrock_block(block, &|| path(j)),
            }
        }
    }

    fn bedrock_block(&mut self, block: &ContentBlock<'_>, path: &dyn Fn() -> Path) {
        let (key, format, source) = match block {
            ContentBlock::Text(text) => {
                self.body.push_str(r#"{"text":""#);
                self.esc(text);
                self.body.push_str(r#""}"#);
                return;
            }
            ContentBlock::Image(media) => ("image", media.format.as_str(), &media.source),
            ContentBlock::Video(media) => ("video", media.format.as_str(), &media.source),
            ContentBlock::Document(document) => ("document", document.format.as_str(), &document.source),
        };
        let root = self.root;
        let (format, data) = source_written(root, &path(), format, source.data());
        self.body.push_str(r#"{""#);
        self.body.push_str(key);
        self.body.push_str(r#"":{"format":""#);
        self.body.push_str(format);
        if key == "document" {
            self.body.push_str(r#"","name":"document"#);
        }
        self.body.push_str(r#"","source":{"#);
        match source {
            Source::Base64(_) => {
                self.body.push_str(r#""bytes":""#);
                self.esc(data);
            }
            Source::Url(_) if data.starts_with("s3://") => {
                self.body.push_str(r#""s3Location":""#);
                self.esc(data);
            }
            Source::Url(_) => self.fail(
                path().key("source").key("data"),
                "URL-based content must use S3 URIs (s3://...). Other URL schemes are not supported by Bedrock Converse API",
            ),
        }
        self.body.push_str(r#""}}}"#);
    }

    fn openai_block(&mut self, block: &ContentBlock<'_>, path: &dyn Fn() -> Path) {
        match block {
            ContentBlock::Text(text) => {
                self.body.push_str(r#"{"type":"text","text":""#);
                self.esc(text);
                self.body.push_str(r#""}"#);
            }
            ContentBlock::Image(image) => {
                let root = self.root;
                let (format, data) = source_written(root, &path(), image.format.as_str(), image.source.data());
                self.body.push_str(r#"{"type":"image_url","image_url":{"url":""#);
                if let Source::Base64(_) = &image.source {
                    self.body.push_str("data:image/");
                    self.body.push_str(format);
                    self.body.push_str(";base64,");
                }
                self.esc(data);
                self.body.push_str(r#""}}"#);
            }
            ContentBlock::Video(_) => {
                self.fail(path(), "Video content is not supported in OpenAI Chat Completions API. ");
            }
            ContentBlock::Document(_) => {
                self.fail(path(), "Document content is not supported in OpenAI Chat Completions API. ");
            }
        }
    }

    fn gemini_block(&mut self, block: &ContentBlock<'_>, path: &dyn Fn() -> Path) {
        let (open, format, source) = match block {
            ContentBlock::Text(text) => {
                self.body.push_str(r#"{"text":""#);
                self.esc(text);
                self.body.push_str(r#""}"#);
                return;
            }
            ContentBlock::Image(image) if matches!(image.source, Source::Base64(_)) => {
                (r#"{"inlineData":{"mimeType":"image/"#, image.format.as_str(), &image.source)
            }
            ContentBlock::Image(image) => (r#"{"fileData":{"mimeType":"image/"#, image.format.as_str(), &image.source),
            ContentBlock::Video(video) => (r#"{"fileData":{"mimeType":"video/"#, video.format.as_str(), &video.source),
            // The raw format as the MIME type, and always a file URI.
            ContentBlock::Document(document) => {
                (r#"{"fileData":{"mimeType":""#, document.format.as_str(), &document.source)
            }
        };
        let root = self.root;
        let (format, data) = source_written(root, &path(), format, source.data());
        let inline = open.starts_with(r#"{"inlineData""#);
        self.body.push_str(open);
        self.body.push_str(format);
        self.body.push_str(if inline { r#"","data":""# } else { r#"","fileUri":""# });
        self.esc(data);
        self.body.push_str(r#""}}"#);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate;

    /// The body ml-commons 3.6.0 built for `request`, as a real node sent it to its provider.
    fn body(provider: ProviderId, agent: AgentType, request: &str) -> Parameters {
        let document = Document::parse(request).unwrap();
        let options = validate::Options { ml_commons: true, ..validate::Options::default() };
        let (validated, _) = validate::validate_request(&document, &options).into_result().unwrap();
        parameters_for(provider, agent, &document, &validated).unwrap()
    }

    #[test]
    fn a_v2_agent_sends_a_text_as_a_user_message() {
        let got = body(ProviderId::OpenAiChat, AgentType::ConversationalV2, r#"{"input":"Hello / there \u00e9"}"#);
        assert_eq!(got.body, r#"{"role":"user","content":[{"type":"text","text":"Hello \/ there \u00E9"}]}"#);
        assert_eq!(got.question, None);
        let v1 = body(ProviderId::OpenAiChat, AgentType::Conversational, r#"{"input":"Hello / there \u00e9"}"#);
        assert_eq!(v1.body, r#"{"role":"user","content":"Hello \/ there \u00E9"}"#);
        assert_eq!(v1.question.as_deref(), Some("Hello / there \u{e9}"));
    }

    #[test]
    fn formats_data_and_roles_go_out_as_written() {
        let request = r#"{"input":[{"role":"USER","content":[{"type":"image","source":{"type":"base64","format":"JPG","data":"data:image/jpeg;base64,/9j/\n4AAA"}}]}]}"#;
        let got = body(ProviderId::BedrockConverse, AgentType::Conversational, request);
        assert_eq!(
            got.body,
            r#"{"role":"USER","content":[{"image":{"format":"JPG","source":{"bytes":"data:image\/jpeg;base64,\/9j\/\n4AAA"}}}]}"#
        );
        // Gemini keeps only the exact role "user" a user turn.
        let got = body(ProviderId::Gemini, AgentType::Conversational, request);
        assert!(
            got.body.starts_with(r#"{"role":"model","parts":[{"inlineData":{"mimeType":"image/JPG","#),
            "{}",
            got.body
        );
    }

    #[test]
    fn escapes_as_commons_text() {
        let mut out = String::new();
        escape_json("a\"b\\c/d\n\u{1}é😀", &mut out);
        assert_eq!(out, "a\\\"b\\\\c\\/d\\n\\u0001\\u00E9\\uD83D\\uDE00");
    }
}
