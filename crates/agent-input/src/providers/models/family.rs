//! A model family's row of the capability table.

/// Whether a family takes a feature, as its sources say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Support {
    /// Every model of the family takes it.
    Yes,
    /// No model of the family takes it.
    No,
    /// Some models of the family take it, some do not.
    Varies,
    /// No source says.
    Unknown,
}

/// Who makes the models of a family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Vendor {
    /// `OpenAI`: GPT and o-series.
    OpenAi,
    /// Anthropic: Claude.
    Anthropic,
    /// Google: Gemini.
    Google,
    /// Meta: Llama (on Bedrock).
    Meta,
    /// Amazon: Nova, Titan (on Bedrock).
    Amazon,
    /// Mistral AI (on Bedrock).
    Mistral,
}

/// A family of models that take the same things.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Family {
    /// Stable id: `gpt-4o`, `claude-4`, `gemini-2.5-pro`.
    pub id: &'static str,
    /// For messages: "Claude 4 to 4.6 (extended thinking with a budget)".
    pub name: &'static str,
    /// Who makes it.
    pub vendor: Vendor,
    /// The normalized ids it matches ([`super::lookup`]).
    pub patterns: &'static [&'static str],
    /// Image input.
    pub image_input: Support,
    /// PDF input.
    pub pdf_input: Support,
    /// Video input.
    pub video_input: Support,
    /// Reasoning (thinking) output.
    pub reasoning: Support,
    /// Function (tool) calling.
    pub function_calling: Support,
    /// A system prompt.
    pub system_messages: Support,
    /// Several tool calls in one turn.
    pub parallel_tool_calls: Support,
    /// A `system` message among the messages, after the conversation started (Anthropic).
    pub mid_conversation_system: Support,
    /// The most output tokens any model of the family writes, for suggestions and messages: no
    /// rule refuses on it (the map gave Claude 3.7 8192 where Anthropic documents 64000, and
    /// 128000 with a beta header).
    pub max_output_tokens: Option<u32>,
    /// How many ids of the source the figures come from.
    pub ids_in_source: u16,
}
