//! What a rule found: data a provider turns into a diagnostic.

use crate::diagnostic::Code;

/// Which rule refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// A sampling setting (`temperature`, `top_p`, `top_k`) the model refuses with reasoning.
    SamplingWithReasoning,
    /// Function tools together with a reasoning effort, on an API that refuses the pair.
    ToolsWithReasoningEffort,
    /// A thinking budget or mode out of the model's range.
    ThinkingBudget,
    /// A role the model has no place for.
    RoleNotSupported,
    /// An image larger in pixels than the provider takes.
    ImageTooLarge,
    /// A JSON Schema keyword the provider's schema dialect refuses.
    SchemaKeyword,
    /// A schema that breaks `OpenAI`'s strict-mode rules (`required`, `additionalProperties`).
    StrictSchema,
}

impl Rule {
    /// The stable code a diagnostic of this rule carries.
    pub const fn code(self) -> Code {
        match self {
            Self::SamplingWithReasoning | Self::ThinkingBudget => Code::InvalidParameter,
            Self::ToolsWithReasoningEffort => Code::InvalidForProvider,
            Self::RoleNotSupported => Code::RoleNotSupported,
            Self::ImageTooLarge => Code::ProviderLimit,
            Self::SchemaKeyword | Self::StrictSchema => Code::InvalidSchema,
        }
    }
}

/// One refusal known before sending.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// The rule.
    pub rule: Rule,
    /// JSON Pointer, relative to what the rule was given (a schema's root, a request's
    /// settings), to the offending value: `/top_p`, `/properties/max_tokens/exclusiveMinimum`.
    pub pointer: String,
    /// One sentence a person can act on, naming the model family.
    pub message: String,
}

impl Finding {
    pub(crate) fn new(rule: Rule, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Self { rule, pointer: pointer.into(), message: message.into() }
    }
}
