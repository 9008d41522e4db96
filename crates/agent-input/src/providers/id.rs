//! Which provider a request, an answer or a stream is for.

use std::fmt;

/// A provider's request format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ProviderId {
    /// AWS Bedrock Runtime `Converse`.
    BedrockConverse,
    /// `OpenAI` Chat Completions.
    OpenAiChat,
    /// `OpenAI` Responses.
    OpenAiResponses,
    /// Anthropic Messages.
    AnthropicMessages,
    /// Google Gemini `generateContent`.
    Gemini,
}

impl ProviderId {
    /// Every provider.
    pub const ALL: &'static [ProviderId] = &[
        ProviderId::BedrockConverse,
        ProviderId::OpenAiChat,
        ProviderId::OpenAiResponses,
        ProviderId::AnthropicMessages,
        ProviderId::Gemini,
    ];

    /// The id used by the CLI (`--to`) and the npm package (`provider`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::BedrockConverse => "bedrock-converse",
            Self::OpenAiChat => "openai-chat",
            Self::OpenAiResponses => "openai-responses",
            Self::AnthropicMessages => "anthropic-messages",
            Self::Gemini => "gemini",
        }
    }

    /// The name ml-commons uses in `model_provider`, if it has one.
    pub const fn ml_commons_name(self) -> Option<&'static str> {
        match self {
            Self::BedrockConverse => Some("bedrock/converse"),
            Self::OpenAiChat => Some("openai/v1/chat/completions"),
            Self::Gemini => Some("gemini/v1beta/generatecontent"),
            Self::OpenAiResponses | Self::AnthropicMessages => None,
        }
    }

    /// A human-readable name for messages.
    pub const fn display_name(self) -> &'static str {
        match self {
            Self::BedrockConverse => "Bedrock Converse",
            Self::OpenAiChat => "OpenAI Chat Completions",
            Self::OpenAiResponses => "OpenAI Responses",
            Self::AnthropicMessages => "Anthropic Messages",
            Self::Gemini => "Gemini",
        }
    }

    /// Reads an id or an ml-commons `model_provider` name, case-insensitively.
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.iter().copied().find(|id| {
            raw.eq_ignore_ascii_case(id.as_str()) || id.ml_commons_name().is_some_and(|n| raw.eq_ignore_ascii_case(n))
        })
    }
}

impl fmt::Display for ProviderId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
