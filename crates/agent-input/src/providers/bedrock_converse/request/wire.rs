//! Bedrock Runtime `Converse` request shapes (botocore `bedrock-runtime` 2023-09-30), limited to
//! what the standard input can produce. Blobs travel as base64 strings in the JSON body.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::format::{DocumentFormat, ImageFormat, VideoFormat};
use crate::providers::common::convert::Splice;
use crate::providers::common::convert::payload::RAW_FROM;

/// The body of `POST /model/{modelId}/converse` (the model id is in the URL, not here).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ConverseRequest<'a> {
    /// The conversation, starting with a user turn and alternating roles.
    pub messages: Vec<Message<'a>>,
    /// System prompts.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub system: Vec<SystemContentBlock<'a>>,
    /// Inference parameters.
    pub inference_config: InferenceConfiguration,
    /// Tool specs, required when the history holds tool blocks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_config: Option<ToolConfiguration<'a>>,
    /// Structured output.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_config: Option<OutputConfig<'a>>,
    /// Fields the model takes beyond Converse's own: Claude's `thinking`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub additional_model_request_fields: Option<serde_json::Value>,
}

/// `OutputConfig`: the answer's format.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OutputConfig<'a> {
    /// A JSON Schema for the text.
    pub text_format: OutputFormat<'a>,
}

/// `OutputFormat`.
#[derive(Debug, Clone, Serialize)]
pub struct OutputFormat<'a> {
    /// Always `json_schema`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The schema.
    pub structure: OutputFormatStructure<'a>,
}

/// `OutputFormatStructure` union.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum OutputFormatStructure<'a> {
    /// A JSON Schema.
    JsonSchema(JsonSchemaDefinition<'a>),
}

/// `JsonSchemaDefinition`: the schema travels as JSON text.
#[derive(Debug, Clone, Serialize)]
pub struct JsonSchemaDefinition<'a> {
    /// The schema, as JSON text.
    pub schema: String,
    /// Its name.
    pub name: &'a str,
    /// What the answer is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'a str>,
}

/// `CachePointBlock`: everything before it may be cached.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct CachePointBlock {
    /// Always `default`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// `5m` or `1h`; the model's default when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<&'static str>,
}

/// `ToolChoice` union.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ToolChoice<'a> {
    /// The model decides.
    Auto {},
    /// Some tool must be called.
    Any {},
    /// This tool must be called.
    Tool {
        /// The tool's name.
        name: &'a str,
    },
}

/// One turn.
#[derive(Debug, Clone, Serialize)]
pub struct Message<'a> {
    /// `user` or `assistant`.
    pub role: ConversationRole,
    /// The turn's blocks.
    pub content: Vec<ContentBlock<'a>>,
}

/// `ConversationRole`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ConversationRole {
    /// The person (and tool results).
    User,
    /// The model.
    Assistant,
}

/// `ContentBlock` union: exactly one member is set.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ContentBlock<'a> {
    /// `{"text": "..."}`
    Text(&'a str),
    /// `{"image": {...}}`
    Image(ImageBlock<'a>),
    /// `{"document": {...}}`
    Document(DocumentBlock<'a>),
    /// `{"video": {...}}`
    Video(VideoBlock<'a>),
    /// `{"toolUse": {...}}`
    ToolUse(ToolUseBlock<'a>),
    /// `{"toolResult": {...}}`
    ToolResult(ToolResultBlock<'a>),
    /// `{"reasoningContent": {...}}`, as the provider gave it.
    #[serde(untagged)]
    Raw(&'a serde_json::Value),
}

/// `ImageBlock`.
#[derive(Debug, Clone, Serialize)]
pub struct ImageBlock<'a> {
    /// `png | jpeg | gif | webp`
    pub format: ImageFormat,
    /// Bytes or S3 location.
    pub source: MediaSource<'a>,
}

/// `VideoBlock`.
#[derive(Debug, Clone, Serialize)]
pub struct VideoBlock<'a> {
    /// `mkv | mov | mp4 | webm | flv | mpeg | mpg | wmv | three_gp`
    pub format: VideoFormat,
    /// Bytes or S3 location.
    pub source: MediaSource<'a>,
}

/// `DocumentBlock`.
#[derive(Debug, Clone, Serialize)]
pub struct DocumentBlock<'a> {
    /// `pdf | csv | doc | docx | xls | xlsx | html | txt | md`
    pub format: DocumentFormat,
    /// 1–200 characters of letters, digits, single spaces, hyphens, parentheses and square
    /// brackets, unique in the request.
    pub name: String,
    /// Bytes or S3 location.
    pub source: MediaSource<'a>,
}

/// `ImageSource` / `VideoSource` / `DocumentSource` union.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum MediaSource<'a> {
    /// Base64 text.
    Bytes(Base64<'a>),
    /// An object in S3.
    S3Location(S3Location<'a>),
}

/// Checked base64 text, written as a JSON string.
///
/// Base64 never needs JSON escaping, so a large payload is copied into the body verbatim instead
/// of going through `serde_json`'s escaper byte by byte (about 3x faster): straight from the
/// request text when it is known to hold the payload's literal, else from a copy.
#[derive(Debug, Clone, Copy)]
pub struct Base64<'a> {
    text: &'a str,
    literal: Option<&'a str>,
    splice: Option<&'a Splice<'a>>,
}

impl<'a> Base64<'a> {
    /// Wraps base64 text.
    pub fn new(text: &'a str) -> Self {
        Self { text, literal: None, splice: None }
    }

    /// Wraps base64 text that appears as a JSON string literal in `source` (the request text).
    pub fn within(text: &'a str, source: Option<&'a str>) -> Self {
        Self { text, literal: source.and_then(|source| literal_in(source, text)), splice: None }
    }

    /// The same text, left out of the body as a mark where `splice` takes it.
    #[must_use]
    pub fn spliced_by(self, splice: Option<&'a Splice<'a>>) -> Self {
        Self { splice, ..self }
    }

    /// The base64 text.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The payload as a splice mark, when a large payload of the request (or a copy of one) is
    /// being spliced ([`Splice`]): what both writers of the body write in its place.
    pub(crate) fn spliced(&self) -> Option<Box<serde_json::value::RawValue>> {
        if self.text.len() < RAW_FROM {
            return None;
        }
        self.splice?.mark_base64(self.text)
    }
}

/// `"text"` as it stands in `source`, if `text` is a slice of `source` between two quotes.
fn literal_in<'a>(source: &'a str, text: &str) -> Option<&'a str> {
    let start = (text.as_ptr() as usize).checked_sub(source.as_ptr() as usize)?;
    let end = start.checked_add(text.len())?;
    let inner = source.get(start..end)?;
    // Same address and length: `text` is this very slice of `source`.
    if start == 0 || inner.as_ptr() != text.as_ptr() || source.as_bytes().get(end) != Some(&b'"') {
        return None;
    }
    (source.as_bytes()[start - 1] == b'"').then(|| &source[start - 1..=end])
}

impl Serialize for Base64<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let text = self.text;
        if text.len() < RAW_FROM {
            return serializer.serialize_str(text);
        }
        if let Some(mark) = self.spliced() {
            return mark.serialize(serializer);
        }
        if let Some(raw) = self.literal.and_then(crate::providers::common::convert::payload::raw_json) {
            return raw.serialize(serializer);
        }
        crate::providers::common::convert::payload::plain_string(serializer, &[text], None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_literal_only_for_a_slice_between_quotes() {
        let source = r#"{"data":"QUJD","other":"QUJD"}"#;
        let data = &source[9..13];
        assert_eq!(literal_in(source, data), Some("\"QUJD\""));
        let copy = String::from("QUJD");
        assert_eq!(literal_in(source, &copy), None);
        assert_eq!(literal_in(source, &source[10..13]), None);
    }

    #[test]
    fn large_payloads_are_written_verbatim_either_way() {
        let payload = "QUJD".repeat(10_000);
        let source = format!("{{\"data\":\"{payload}\"}}");
        let data = &source[9..9 + payload.len()];
        let expected = format!("\"{payload}\"");
        assert_eq!(serde_json::to_string(&Base64::within(data, Some(&source))).unwrap(), expected);
        assert_eq!(serde_json::to_string(&Base64::new(&payload)).unwrap(), expected);
        assert_eq!(serde_json::to_value(Base64::new(&payload)).unwrap(), serde_json::Value::String(payload.clone()));
    }
}

/// `S3Location`.
#[derive(Debug, Clone, Serialize)]
pub struct S3Location<'a> {
    /// `s3://bucket/key`
    pub uri: &'a str,
}

/// `ToolUseBlock`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolUseBlock<'a> {
    /// `[a-zA-Z0-9_.:-]{1,64}`
    pub tool_use_id: &'a str,
    /// `[a-zA-Z0-9_-]{1,64}`
    pub name: &'a str,
    /// The arguments object, passed through as written.
    pub input: Box<RawValue>,
}

/// `ToolResultBlock`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolResultBlock<'a> {
    /// The `toolUseId` this answers.
    pub tool_use_id: &'a str,
    /// The result.
    pub content: Vec<ToolResultContentBlock<'a>>,
}

/// `ToolResultContentBlock` union.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ToolResultContentBlock<'a> {
    /// Text.
    Text(&'a str),
    /// A JSON value (a tool message with `"resultFormat": "json"`).
    Json(Box<serde_json::value::RawValue>),
    /// An image.
    Image(ImageBlock<'a>),
    /// A document.
    Document(DocumentBlock<'a>),
    /// A video.
    Video(VideoBlock<'a>),
}

/// `SystemContentBlock` union (text only here).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum SystemContentBlock<'a> {
    /// Non-empty text.
    Text(&'a str),
    /// A cache point after the system prompt.
    CachePoint(CachePointBlock),
}

/// `InferenceConfiguration`.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InferenceConfiguration {
    /// At least 1.
    pub max_tokens: u64,
    /// 0 to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// 0 to 1.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Up to 2,500 non-empty strings.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<String>,
}

/// `ToolConfiguration`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolConfiguration<'a> {
    /// At least one tool.
    pub tools: Vec<Tool<'a>>,
    /// Which tools the model may call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_choice: Option<ToolChoice<'a>>,
}

/// `Tool` union.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Tool<'a> {
    /// A function the model may call.
    ToolSpec(ToolSpecification<'a>),
    /// A cache point after the tools.
    CachePoint(CachePointBlock),
    /// A member of the union as the caller's `provider_tool` gave it (`systemTool`).
    #[serde(untagged)]
    Raw(&'a serde_json::Value),
}

/// `ToolSpecification`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolSpecification<'a> {
    /// `[a-zA-Z0-9_-]{1,64}`
    pub name: &'a str,
    /// Non-empty when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'a str>,
    /// The arguments schema (top-level type object).
    pub input_schema: ToolInputSchema<'a>,
}

/// `ToolInputSchema` union.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum ToolInputSchema<'a> {
    /// A JSON Schema document.
    Json(&'a Value),
}
