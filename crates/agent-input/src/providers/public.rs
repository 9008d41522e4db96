//! What the public faces re-export of each provider, at the paths they have always had:
//! `convert::<provider>` (each request writer and its type) and `response::parse_<provider>`.

/// Each provider's request writer, re-exported by `convert`.
pub mod convert {
    pub use crate::providers::anthropic_messages::request as anthropic_messages;
    pub use crate::providers::bedrock_converse::request as bedrock_converse;
    pub use crate::providers::gemini::request as gemini;
    pub use crate::providers::openai_chat::request as openai_chat;
    pub use crate::providers::openai_responses::request as openai_responses;
    pub use crate::providers::{
        anthropic_messages::request::AnthropicMessages, bedrock_converse::request::BedrockConverse,
        gemini::request::Gemini, openai_chat::request::OpenAiChat, openai_responses::request::OpenAiResponses,
    };
}

/// Each provider's response reader, re-exported by `response`.
pub mod response {
    pub use crate::providers::anthropic_messages::response::parse_anthropic_messages;
    pub use crate::providers::bedrock_converse::response::parse_bedrock_converse;
    pub use crate::providers::gemini::response::parse_gemini;
    pub use crate::providers::openai_chat::response::parse_openai_chat;
    pub use crate::providers::openai_responses::response::parse_openai_responses;
}
