//! ml-commons parity mode: the `question` and `body` parameters exactly as ml-commons' three
//! model providers (`BedrockConverseModelProvider`, `OpenaiV1ChatCompletionsModelProvider`,
//! `GeminiV1BetaGenerateContentModelProvider`) build them — their bugs included — for users
//! comparing with what a real cluster sends. Never used by default; docs/providers.md lists the
//! differences from the normal converters.

use serde::Serialize;

use super::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{AgentInput, ContentBlock, ExecuteRequest, Message, Role, Source};
use crate::path::Path;

/// What ml-commons' agent executor puts into the parameters map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Parameters {
    /// The question, extracted as ml-commons does.
    pub question: String,
    /// The provider's `body` template parameter (for messages: objects joined with `,`, not a
    /// JSON document).
    pub body: String,
    /// For messages input: the parameters ml-commons does not escape again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_escape_params: Option<&'static str>,
}

/// Builds ml-commons' parameters for a provider it has.
///
/// # Errors
/// `unsupported_by_provider` for providers ml-commons does not have, and with ml-commons' own
/// message where its provider throws (video or documents for `OpenAI`, non-S3 URLs for Bedrock).
pub fn parameters(provider: ProviderId, request: &ExecuteRequest<'_>) -> Result<Parameters, Report> {
    let mut out = Out { provider, base: &request.input_path, body: String::new(), report: Report::default() };
    match provider {
        ProviderId::BedrockConverse | ProviderId::OpenAiChat | ProviderId::Gemini => out.input(&request.input),
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
        question: request.input.question(),
        body: out.body,
        no_escape_params: matches!(request.input, AgentInput::Messages(_))
            .then_some("_chat_history,_tools,_interactions,tool_configs,body"),
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

struct Out<'p> {
    provider: ProviderId,
    base: &'p Path,
    body: String,
    report: Report,
}

impl Out<'_> {
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
                    self.message_open(if message.role == Role::User { "user" } else { "model" });
                    self.blocks(&message.content, &path);
                    self.body.push_str("]}");
                }
                ProviderId::OpenAiChat => {
                    self.message_open(message.role.as_str());
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
                    self.message_open(message.role.as_str());
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
                ProviderId::Gemini => self.gemini_block(block),
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
        self.body.push_str(r#"{""#);
        self.body.push_str(key);
        self.body.push_str(r#"":{"format":""#);
        self.body.push_str(format);
        if key == "document" {
            self.body.push_str(r#"","name":"document"#);
        }
        self.body.push_str(r#"","source":{"#);
        match source {
            Source::Base64(data) => {
                self.body.push_str(r#""bytes":""#);
                self.esc(data);
            }
            Source::Url(url) if url.starts_with("s3://") => {
                self.body.push_str(r#""s3Location":""#);
                self.esc(url);
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
                self.body.push_str(r#"{"type":"image_url","image_url":{"url":""#);
                if let Source::Base64(data) = &image.source {
                    self.body.push_str("data:image/");
                    self.body.push_str(image.format.as_str());
                    self.body.push_str(";base64,");
                    self.esc(data);
                } else {
                    self.esc(image.source.data());
                }
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

    fn gemini_block(&mut self, block: &ContentBlock<'_>) {
        match block {
            ContentBlock::Text(text) => {
                self.body.push_str(r#"{"text":""#);
                self.esc(text);
                self.body.push_str(r#""}"#);
            }
            ContentBlock::Image(image) => {
                let base64 = matches!(image.source, Source::Base64(_));
                self.body.push_str(if base64 {
                    r#"{"inlineData":{"mimeType":"image/"#
                } else {
                    r#"{"fileData":{"mimeType":"image/"#
                });
                self.body.push_str(image.format.as_str());
                self.body.push_str(if base64 { r#"","data":""# } else { r#"","fileUri":""# });
                self.esc(image.source.data());
                self.body.push_str(r#""}}"#);
            }
            ContentBlock::Video(video) => {
                self.body.push_str(r#"{"fileData":{"mimeType":"video/"#);
                self.body.push_str(video.format.as_str());
                self.body.push_str(r#"","fileUri":""#);
                self.esc(video.source.data());
                self.body.push_str(r#""}}"#);
            }
            ContentBlock::Document(document) => {
                self.body.push_str(r#"{"fileData":{"mimeType":""#);
                self.body.push_str(document.format.as_str());
                self.body.push_str(r#"","fileUri":""#);
                self.esc(document.source.data());
                self.body.push_str(r#""}}"#);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_commons_text() {
        let mut out = String::new();
        escape_json("a\"b\\c/d\n\u{1}é😀", &mut out);
        assert_eq!(out, "a\\\"b\\\\c\\/d\\n\\u0001\\u00E9\\uD83D\\uDE00");
    }
}
