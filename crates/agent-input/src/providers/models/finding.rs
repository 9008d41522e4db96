//! What a rule found: data a provider turns into a diagnostic.

use crate::diagnostic::{Code, Diagnostic};
use crate::path::{Path, Segment};
use crate::providers::id::ProviderId;

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
    /// An input the model takes none of (images, PDFs, video, function tools).
    InputNotSupported,
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
            Self::InputNotSupported => Code::UnsupportedByProvider,
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

    /// The diagnostic: the rule's code, at `base` (where the value the rule was given is in the
    /// request) followed by the finding's pointer.
    pub fn to_diagnostic(&self, base: &Path) -> Diagnostic {
        let mut path = base.clone();
        for segment in Path::parse(&self.pointer).unwrap_or_default().segments() {
            path = match segment {
                Segment::Key(key) => path.key(key),
                Segment::Index(i) => path.index(*i),
            };
        }
        Diagnostic::new(self.rule.code(), path, self.message.clone())
    }
}

/// The message of the warning for a model id no family matches ([`super::lookup`] is `None`):
/// only the provider's own rules are checked, nothing is refused on a guess.
pub fn unknown_model(model_id: &str, provider: ProviderId) -> String {
    format!(
        "the model \"{model_id}\" is not in the capability table ({}); only {}'s own rules are checked",
        super::lookup::SOURCE,
        provider.display_name()
    )
}

/// The warning's message for a model given to a build without the capability table (the npm
/// package's modules but `agent-input/models`, for their size): where the model's rules are.
#[cfg(not(feature = "models"))]
pub const NO_TABLE: &str =
    "the model is not checked: this module has no table of models; import agent-input/models to check it";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn findings_become_diagnostics_at_their_place() {
        let finding = Finding::new(Rule::SchemaKeyword, "/properties/a~1b/exclusiveMinimum", "no `exclusiveMinimum`");
        let base = Path::root().key("tools").index(0).key("functionDeclarations").index(0).key("parameters");
        let diagnostic = finding.to_diagnostic(&base);
        assert_eq!(diagnostic.code, Code::InvalidSchema);
        assert_eq!(
            diagnostic.path.to_string(),
            "/tools/0/functionDeclarations/0/parameters/properties/a~1b/exclusiveMinimum"
        );
        let top = Finding::new(Rule::SamplingWithReasoning, "/top_p", "no `top_p`").to_diagnostic(&Path::root());
        assert_eq!((top.code, top.path.to_string()), (Code::InvalidParameter, "/top_p".to_string()));
    }

    #[test]
    fn an_unknown_model_is_named() {
        let message = unknown_model("my-fine-tune", ProviderId::OpenAiChat);
        assert!(message.starts_with("the model \"my-fine-tune\" is not in the capability table (litellm 1.110.2 "));
        assert!(message.ends_with("; only OpenAI Chat Completions's own rules are checked"));
    }
}
