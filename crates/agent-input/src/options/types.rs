//! The options types, as data: what each surface passes to validate and to convert.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::model::{ProviderFields, ProviderItem};
use crate::providers::id::ProviderId;

/// Size limits, checked before the work they protect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest request body in bytes (default 64 MiB), checked before parsing.
    pub max_body_bytes: usize,
    /// Deepest JSON nesting (default 64), checked before validation.
    pub max_depth: usize,
    /// Most messages in one input (default 10,000).
    pub max_messages: usize,
    /// Most content blocks in one message or content-block input (default 1,000).
    pub max_blocks: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self { max_body_bytes: 64 * 1024 * 1024, max_depth: 64, max_messages: 10_000, max_blocks: 1_000 }
    }
}

/// How to validate: what `validate` takes, `{ allowPrefill?, limits? }`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// Size limits.
    pub limits: Limits,
    /// Accept a conversation that ends with an assistant message (a prefill for the model to
    /// continue). ml-commons requires the last message to be `user` or `tool`.
    pub allow_prefill: bool,
    /// The input goes to an ml-commons cluster (the CLI's `--ml-commons`, the gateway's
    /// `--upstream` proxy, the registration preview): text it would fill as a template
    /// placeholder (`${parameters.…}`) is reported (`template_placeholder`).
    pub ml_commons: bool,
}

/// A tool the model may call, as callers describe it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolSpec {
    /// The tool's name, as tool calls name it.
    pub name: String,
    /// What the tool does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments; an empty object schema when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_schema: Option<Value>,
    /// The tool's own fields of one provider that the standard spec has no place for
    /// (`{"provider": "openai-responses", "fields": {"strict": true}}`): merged into the object
    /// written for the tool for that provider, left out with `provider_fields_dropped` for any
    /// other.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "fields_json")]
    pub provider_fields: Option<ProviderFields>,
}

impl ToolSpec {
    /// A spec of `name` with an optional description and schema, and no provider fields.
    pub fn new(name: impl Into<String>, description: Option<String>, input_schema: Option<Value>) -> Self {
        Self { name: name.into(), description, input_schema, provider_fields: None }
    }
}

/// An entry of the `tools` option: a function tool's spec, or a provider's hosted or server tool
/// (`{"type": "provider_tool", "provider", "tool"}`), written back where it stands for that
/// provider only.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolEntry {
    /// A function tool the caller runs.
    Function(ToolSpec),
    /// A provider's own tool spec (Anthropic `web_search_20250305`, Responses `file_search`,
    /// Gemini `googleSearch`), kept exactly as the provider wrote it.
    Provider(ProviderItem),
}

impl ToolEntry {
    /// The function tool's spec; `None` for a provider tool.
    pub const fn spec(&self) -> Option<&ToolSpec> {
        match self {
            Self::Function(spec) => Some(spec),
            Self::Provider(_) => None,
        }
    }
}

impl From<ToolSpec> for ToolEntry {
    fn from(spec: ToolSpec) -> Self {
        Self::Function(spec)
    }
}

impl Serialize for ToolEntry {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::Function(spec) => spec.serialize(s),
            Self::Provider(tool) => {
                let mut map = s.serialize_map(Some(3))?;
                map.serialize_entry("type", "provider_tool")?;
                map.serialize_entry("provider", tool.provider.as_str())?;
                map.serialize_entry("tool", &tool.item)?;
                map.end()
            }
        }
    }
}

/// Provider fields as options write them: `{"provider": <id>, "fields": {...}}`.
#[allow(clippy::ref_option)] // serde's `serialize_with` passes the field by reference
fn fields_json<S: Serializer>(value: &Option<ProviderFields>, s: S) -> Result<S::Ok, S::Error> {
    let Some(fields) = value else { return s.serialize_none() };
    let mut map = s.serialize_map(Some(2))?;
    map.serialize_entry("provider", fields.provider.as_str())?;
    map.serialize_entry("fields", &fields.fields)?;
    map.end()
}

/// Provider-independent conversion settings. Written (`Serialize`) with `snake_case` keys.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ConvertOptions {
    /// A system prompt, placed before any system messages.
    pub system: Option<String>,
    /// Most tokens to generate (default 4096, as ml-commons).
    pub max_tokens: Option<u64>,
    /// Sampling temperature, 0 to 1.
    pub temperature: Option<f64>,
    /// Nucleus sampling, 0 to 1.
    pub top_p: Option<f64>,
    /// Strings that stop generation.
    pub stop_sequences: Vec<String>,
    /// Tool specs and provider tools, in order; required when the history holds tool calls or
    /// results.
    pub tools: Vec<ToolEntry>,
    /// Which tools the model may call.
    pub tool_choice: Option<ToolChoice>,
    /// Cache points after the system prompt and after the tools; `None` is no caching asked.
    pub prompt_cache: Option<PromptCache>,
    /// A JSON Schema the answer must follow (structured output).
    pub response_format: Option<ResponseFormat>,
    /// How much the model may think before it answers.
    pub reasoning: Option<Reasoning>,
    /// The model id as the provider's API or ml-commons writes it (`gpt-4o`, `claude-sonnet-4-5`,
    /// `us.anthropic.claude-sonnet-4-5-20250929-v1:0`): the model's own rules are checked too. An
    /// id the capability table does not know gets `unknown_model` and the provider's rules only.
    pub model: Option<String>,
    /// The request's own fields of one provider that the standard form has no place for
    /// (`{"provider": "openai-responses", "fields": {"store": false}}`): merged into the body for
    /// that provider, left out with `provider_fields_dropped` for any other (docs/provider-fields.md).
    #[serde(serialize_with = "provider_fields_json")]
    pub provider_fields: Option<ProviderFields>,
}

/// `provider_fields` as the option takes it: `{"provider": <id>, "fields": {...}}` (serde's
/// `serialize_with` passes `&Option`).
#[allow(clippy::ref_option)]
fn provider_fields_json<S: Serializer>(value: &Option<ProviderFields>, s: S) -> Result<S::Ok, S::Error> {
    let Some(fields) = value else { return s.serialize_none() };
    let mut map = s.serialize_map(Some(2))?;
    map.serialize_entry("provider", fields.provider.as_str())?;
    map.serialize_entry("fields", &fields.fields)?;
    map.end()
}

/// How much the model may think before it answers: an effort, or a budget of thinking tokens.
/// Written `"low"`, `"medium"` or `"high"`, a whole number of tokens, `{"effort": "..."}` or
/// `{"budget_tokens": N}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reasoning {
    /// An effort, mapped to each provider's own words.
    Effort(Effort),
    /// Most tokens to think with.
    BudgetTokens(u64),
}

/// A reasoning effort, in the providers' own words; each provider takes some of them (`OpenAI` all,
/// Anthropic low to max, Gemini minimal to high).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Effort {
    /// `none`: no reasoning (`OpenAI`).
    None,
    /// `minimal`
    Minimal,
    /// `low`
    Low,
    /// `medium`
    Medium,
    /// `high`
    High,
    /// `xhigh` (`OpenAI`).
    XHigh,
    /// `max`
    Max,
}

impl Effort {
    /// Every effort, least first.
    pub const ALL: [Self; 7] = [Self::None, Self::Minimal, Self::Low, Self::Medium, Self::High, Self::XHigh, Self::Max];

    /// `none`, `minimal`, `low`, `medium`, `high`, `xhigh` or `max`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::None => "none",
            Self::Minimal => "minimal",
            Self::Low => "low",
            Self::Medium => "medium",
            Self::High => "high",
            Self::XHigh => "xhigh",
            Self::Max => "max",
        }
    }

    /// The effort a word names, in any letter case.
    pub fn parse(word: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| word.trim().eq_ignore_ascii_case(e.as_str()))
    }
}

/// Which tools the model may call: written `"auto"`, `"any"` (or `"required"`), `"none"`, or
/// `{"name": "<tool>"}` (or `"tool:<name>"`, as the CLI writes it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ToolChoice {
    /// The model decides.
    Auto,
    /// The model must call some tool.
    Any,
    /// The model must not call tools.
    None,
    /// The model must call this tool, one of `tools`.
    #[serde(untagged)]
    Tool {
        /// The tool's name.
        name: String,
    },
}

/// How long a cache entry lives, where the provider lets callers choose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum CacheTtl {
    /// Five minutes, every provider's default.
    #[serde(rename = "5m")]
    FiveMinutes,
    /// One hour.
    #[serde(rename = "1h")]
    OneHour,
}

impl CacheTtl {
    /// `5m` or `1h`, as Bedrock and Anthropic write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::FiveMinutes => "5m",
            Self::OneHour => "1h",
        }
    }
}

/// Prompt caching: written `true`, or `{"ttl": "5m" | "1h"}` (`false` is no caching).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct PromptCache {
    /// The entries' lifetime; `None` is the provider's default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ttl: Option<CacheTtl>,
}

/// Structured output: `{"schema", "name"?, "description"?, "strict"?}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ResponseFormat {
    /// The JSON Schema (an object) the answer must follow.
    pub schema: Value,
    /// The schema's name, 1-64 letters, digits, `_` or `-` (`OpenAI` requires one; default
    /// `response`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// What the answer is for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Whether the provider must follow the schema exactly (`OpenAI`'s `strict`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<bool>,
}

impl ResponseFormat {
    /// The name sent where one is required.
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("response")
    }
}

/// What the npm package's `convert` takes: the target provider, how to validate and how to
/// convert, in one object: `{ provider, allowPrefill?, limits?, system?, maxTokens?, ... }`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConvertSettings {
    /// The target provider; `None` when missing or unknown (an error was reported).
    pub provider: Option<ProviderId>,
    /// Limits and prefill.
    pub validation: Options,
    /// Provider-independent conversion settings.
    pub convert: ConvertOptions,
}
