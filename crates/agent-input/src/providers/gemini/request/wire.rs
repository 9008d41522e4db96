//! `generateContent` request shapes (REST, camelCase), limited to what the standard input can
//! produce.

use serde::Serialize;
use serde_json::Value;
use serde_json::value::RawValue;

use crate::providers::common::convert::payload::Payload;

/// The body of `POST /v1beta/models/{model}:generateContent` (the model is in the URL).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GenerateContentRequest<'a> {
    /// The conversation.
    pub contents: Vec<Content<'a>>,
    /// System text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub system_instruction: Option<SystemInstruction<'a>>,
    /// Sampling settings.
    pub generation_config: GenerationConfig<'a>,
    /// Function declarations.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<Tool<'a>>,
    /// Which functions the model may call.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_config: Option<ToolConfig<'a>>,
}

/// `toolConfig`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolConfig<'a> {
    /// The function calling mode.
    pub function_calling_config: FunctionCallingConfig<'a>,
}

/// `functionCallingConfig`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionCallingConfig<'a> {
    /// `AUTO`, `ANY` or `NONE`.
    pub mode: &'static str,
    /// With `ANY`: the only functions the model may call.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub allowed_function_names: Vec<&'a str>,
}

/// One turn.
#[derive(Debug, Clone, Serialize)]
pub struct Content<'a> {
    /// `user` or `model`.
    pub role: &'static str,
    /// Its parts.
    pub parts: Vec<Part<'a>>,
}

/// `systemInstruction`: text parts.
#[derive(Debug, Clone, Serialize)]
pub struct SystemInstruction<'a> {
    /// Text parts.
    pub parts: Vec<Part<'a>>,
}

/// A part: exactly one member is set (and a `thoughtSignature` beside it, when signed).
#[derive(Debug, Clone)]
pub enum Part<'a> {
    /// `{"text"}`
    Text(&'a str),
    /// `{"inlineData": {"mimeType", "data"}}`
    InlineData(InlineData<'a>),
    /// `{"fileData": {"mimeType", "fileUri"}}`
    FileData(FileData<'a>),
    /// `{"functionCall": {"name", "args"}}`
    FunctionCall(FunctionCall<'a>),
    /// `{"functionResponse": {"name", "response"}}`
    FunctionResponse(FunctionResponse<'a>),
    /// A part with its `thoughtSignature`.
    Signed(Box<Part<'a>>, &'a str),
    /// A part as the provider gave it (a `thought` part of a model turn).
    Raw(&'a serde_json::Map<String, Value>),
}

impl Part<'_> {
    fn entries<M: serde::ser::SerializeMap>(&self, map: &mut M) -> Result<(), M::Error> {
        match self {
            Self::Text(text) => map.serialize_entry("text", text),
            Self::InlineData(data) => map.serialize_entry("inlineData", data),
            Self::FileData(data) => map.serialize_entry("fileData", data),
            Self::FunctionCall(call) => map.serialize_entry("functionCall", call),
            Self::FunctionResponse(response) => map.serialize_entry("functionResponse", response),
            Self::Signed(part, signature) => {
                part.entries(map)?;
                map.serialize_entry("thoughtSignature", signature)
            }
            Self::Raw(part) => part.iter().try_for_each(|(key, value)| map.serialize_entry(key, value)),
        }
    }
}

impl Serialize for Part<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        self.entries(&mut map)?;
        map.end()
    }
}

/// Inline bytes.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InlineData<'a> {
    /// The MIME type.
    pub mime_type: &'static str,
    /// Base64.
    pub data: Payload<'a>,
}

/// A URL the provider fetches.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileData<'a> {
    /// The MIME type.
    pub mime_type: &'static str,
    /// The URL.
    pub file_uri: &'a str,
}

/// A call the model made.
#[derive(Debug, Clone, Serialize)]
pub struct FunctionCall<'a> {
    /// The id Gemini gave the call, when it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// The function.
    pub name: &'a str,
    /// The arguments object.
    pub args: Box<RawValue>,
}

/// A function's result.
#[derive(Debug, Clone, Serialize)]
pub struct FunctionResponse<'a> {
    /// The id of the call it answers, where parallel calls of one function need it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<&'a str>,
    /// The function that was called.
    pub name: &'a str,
    /// The result.
    pub response: Response<'a>,
    /// Images and documents the function returned, `{"inlineData"}` each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<ResponsePart<'a>>,
}

/// A function response part: `{"inlineData": {"mimeType", "data"}}`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ResponsePart<'a> {
    /// The bytes.
    pub inline_data: InlineData<'a>,
}

/// `response`, a JSON object.
#[derive(Debug, Clone)]
pub enum Response<'a> {
    /// A JSON result that is an object: that object.
    Object(Box<RawValue>),
    /// `{"result": ...}`.
    Result(ResultText<'a>),
    /// `{}`: a result with no text.
    Empty,
}

impl Serialize for Response<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            Self::Object(object) => object.serialize(serializer),
            Self::Result(result) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry("result", result)?;
                map.end()
            }
            Self::Empty => serializer.serialize_map(Some(0))?.end(),
        }
    }
}

/// What goes under `result`.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum ResultText<'a> {
    /// One text block.
    One(&'a str),
    /// Several text blocks.
    Many(Vec<&'a str>),
    /// A JSON value that is not an object (several: an array of them).
    Json(Box<RawValue>),
}

/// `generationConfig`.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GenerationConfig<'a> {
    /// Most tokens to generate.
    pub max_output_tokens: u64,
    /// Sampling temperature, 0 to 2.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Up to 5 stop sequences.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<&'a str>,
    /// `application/json` with a response schema.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_mime_type: Option<&'static str>,
    /// The JSON Schema the answer follows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response_json_schema: Option<&'a Value>,
    /// How much the model thinks.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_config: Option<ThinkingConfig>,
}

/// `thinkingConfig`: a `thinkingBudget` of tokens or a `thinkingLevel`.
#[derive(Debug, Clone, Copy, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ThinkingConfig {
    /// Most tokens to think with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_budget: Option<u64>,
    /// `LOW`, `MEDIUM` or `HIGH`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thinking_level: Option<&'static str>,
}

/// A tool: function declarations, or a tool object of Gemini's own as the caller's
/// `provider_tool` gave it (`googleSearch`, `urlContext`, `codeExecution`).
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum Tool<'a> {
    /// The functions.
    #[serde(rename_all = "camelCase")]
    Functions {
        /// The functions.
        function_declarations: Vec<FunctionDeclaration<'a>>,
    },
    /// A tool object of Gemini's own.
    Raw(&'a serde_json::Value),
}

/// A function's declaration.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FunctionDeclaration<'a> {
    /// Its name.
    pub name: &'a str,
    /// What it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<&'a str>,
    /// JSON Schema of its arguments.
    pub parameters_json_schema: &'a Value,
}
