//! The model-aware step of a conversion: the `model` option looked up in the capability table
//! (`providers/models`), the request's images measured from their headers, and a [`ModelCheck`]
//! handed to the provider's adapter, which applies the rules it knows
//! ([`Adapter::check_model`](crate::providers::adapter::Adapter)). An id no family matches, or a
//! family the provider does not serve, is an `unknown_model` warning and the provider's rules
//! only: nothing is refused on a guess.

use super::context::option_path;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::image::{Dimensions, dimensions_base64};
use crate::model::{AgentInput, ContentBlock, ExecuteRequest, Source};
use crate::options::{ConvertOptions, Reasoning};
use crate::path::Path;
use crate::providers::id::ProviderId;
use crate::providers::models::inputs::Input;
use crate::providers::models::sampling::{self, Reasoning as Thinking, Sampling};
use crate::providers::models::{self, Family, Finding, Vendor, inputs, pixels, roles, schema, thinking};

/// What a provider's adapter checks a request's model against.
#[derive(Debug)]
pub(crate) struct ModelCheck<'a> {
    pub(crate) provider: ProviderId,
    /// The model id as given; empty without one.
    pub(crate) id: &'a str,
    /// Its family, when it is known and the provider serves it.
    pub(crate) family: Option<&'static Family>,
    pub(crate) options: &'a ConvertOptions,
    /// Each base64 image whose header gives its size, at its block's path.
    pub(crate) images: Vec<(Path, Dimensions)>,
    /// Every image block of the request, by URL or base64.
    pub(crate) image_count: usize,
    /// Each block of a kind the family may refuse, at its path.
    pub(crate) blocks: Vec<(Path, Input)>,
    /// Whether the input has a system message.
    pub(crate) system_message: Option<Path>,
    pub(crate) report: Report,
}

/// Whether the request's `model` belongs to a family `provider` serves (`vendors`).
fn served(family: &Family, vendors: &[Vendor]) -> bool {
    vendors.contains(&family.vendor)
}

/// The blocks of the input, each with its path.
fn blocks<'r>(request: &'r ExecuteRequest<'r>) -> Vec<(Path, &'r ContentBlock<'r>)> {
    let base = &request.input_path;
    match &request.input {
        AgentInput::Text(_) => Vec::new(),
        AgentInput::Blocks(content) => content.iter().enumerate().map(|(i, b)| (base.index(i), b)).collect(),
        AgentInput::Messages(messages) => messages
            .iter()
            .enumerate()
            .flat_map(|(m, message)| {
                message.content.iter().enumerate().map(move |(i, b)| (base.index(m).key("content").index(i), b))
            })
            .collect(),
    }
}

impl<'a> ModelCheck<'a> {
    /// The check of `request` and `options` for `provider`, whose models are of `vendors`.
    pub(crate) fn new(
        provider: ProviderId,
        vendors: &[Vendor],
        request: &'a ExecuteRequest<'a>,
        options: &'a ConvertOptions,
    ) -> Self {
        let mut report = Report::default();
        let id = options.model.as_deref().unwrap_or_default();
        let family = if id.is_empty() {
            None
        } else {
            match models::lookup(id) {
                Some(family) if served(family, vendors) => Some(family),
                Some(family) => {
                    let message = format!(
                        "the model \"{id}\" is {}, which {} does not serve; only {}'s own rules are checked",
                        family.name,
                        provider.display_name(),
                        provider.display_name()
                    );
                    report.push(Diagnostic::new(Code::UnknownModel, option_path("model"), message).received(id));
                    None
                }
                None => {
                    let message = models::unknown_model(id, provider);
                    report.push(Diagnostic::new(Code::UnknownModel, option_path("model"), message).received(id));
                    None
                }
            }
        };
        let mut check = Self {
            provider,
            id,
            family,
            options,
            images: Vec::new(),
            image_count: 0,
            blocks: Vec::new(),
            system_message: None,
            report,
        };
        for (path, block) in blocks(request) {
            match block {
                ContentBlock::Image(media) => {
                    check.image_count += 1;
                    if let Source::Base64(data) = &media.source
                        && let Ok(dimensions) = dimensions_base64(data)
                    {
                        check.images.push((path.clone(), dimensions));
                    }
                    check.blocks.push((path, Input::Image));
                }
                ContentBlock::Video(_) => check.blocks.push((path, Input::Video)),
                ContentBlock::Document(document) if document.format.as_str() == "pdf" => {
                    check.blocks.push((path, Input::Pdf));
                }
                ContentBlock::Text(_) | ContentBlock::Document(_) | ContentBlock::ProviderItem(_) => {}
            }
        }
        if let AgentInput::Messages(messages) = &request.input {
            check.system_message = messages
                .iter()
                .position(|m| m.role.as_str() == "system")
                .map(|i| request.input_path.index(i).key("role"));
        }
        check
    }

    /// The family, for the rules of the model; none without feature `models`, so that build
    /// carries none of them.
    fn family(&self) -> Option<&'static Family> {
        if cfg!(feature = "models") { self.family } else { None }
    }

    fn put(&mut self, at: Path, finding: Option<Finding>) {
        if let Some(finding) = finding {
            self.report.push(Diagnostic::new(finding.rule.code(), at, finding.message));
        }
    }

    /// The `reasoning` option in the rules' words.
    fn thinking(&self) -> Thinking<'static> {
        match self.options.reasoning {
            None => Thinking::Default,
            Some(Reasoning::Effort(effort)) => Thinking::Effort(effort.as_str()),
            Some(Reasoning::BudgetTokens(budget)) => Thinking::Budget(budget),
        }
    }

    /// Each base64 image against the provider's longest side, which may depend on how many images
    /// the request carries. Known from the provider alone: checked with or without a model.
    pub(crate) fn pixels(&mut self) {
        let images = std::mem::take(&mut self.images);
        for (path, dimensions) in &images {
            let found = pixels::check(self.provider, self.family, dimensions, self.image_count, "");
            self.put(path.key("source").key("data"), found);
        }
        self.images = images;
    }

    /// Images, PDFs, video and function tools the family takes none of.
    pub(crate) fn inputs(&mut self) {
        let Some(family) = self.family() else { return };
        for (path, input) in std::mem::take(&mut self.blocks) {
            self.put(path, inputs::check(family, input, ""));
        }
        if self.options.tools.iter().any(|entry| entry.spec().is_some()) {
            self.put(option_path("tools"), inputs::check(family, Input::FunctionTools, ""));
        }
    }

    /// `temperature`, `top_p` the family refuses with the reasoning asked (`OpenAI` reasoning
    /// models; Claude Opus 4.7 and later). Anthropic's extended-thinking ranges are the provider's
    /// own check (`Conversion::thinking`), so a budget is passed on as the model's default.
    pub(crate) fn sampling(&mut self) {
        let Some(family) = self.family() else { return };
        let reasoning = match self.thinking() {
            Thinking::Budget(_) => Thinking::Default,
            other => other,
        };
        let settings = Sampling { temperature: self.options.temperature, top_p: self.options.top_p, top_k: None };
        for finding in sampling::check(family, self.id, &settings, reasoning) {
            let key = finding.pointer.trim_start_matches('/').to_string();
            self.put(option_path(&key), Some(finding));
        }
    }

    /// Function tools with a reasoning effort, which some models refuse on Chat Completions.
    pub(crate) fn tools_with_effort(&mut self) {
        let Some(family) = self.family() else { return };
        let found = thinking::tools_with_effort(
            family,
            self.id,
            self.provider,
            self.options.tools.iter().any(|entry| entry.spec().is_some()),
            self.thinking(),
        );
        self.put(option_path("reasoning"), found);
    }

    /// Claude's thinking: budgeted thinking where the model takes adaptive only, or none at all.
    /// The budget's range is the provider's own check.
    pub(crate) fn claude_thinking(&mut self) {
        let Some(family) = self.family().filter(|f| f.vendor == Vendor::Anthropic) else { return };
        let found = thinking::anthropic_thinking(family, self.thinking(), None)
            .filter(|f| matches!(f.pointer.as_str(), "/thinking" | "/thinking/type"));
        self.put(option_path("reasoning"), found);
    }

    /// A Gemini 2.5 `thinkingBudget` out of the model's range.
    pub(crate) fn gemini_budget(&mut self) {
        let (Some(family), Thinking::Budget(budget)) = (self.family(), self.thinking()) else { return };
        let found = thinking::gemini_budget(family, i64::try_from(budget).unwrap_or(i64::MAX));
        self.put(option_path("reasoning"), found);
    }

    /// A system prompt (the option or a system message) for a family that takes none.
    pub(crate) fn system_prompt(&mut self) {
        let Some(family) = self.family() else { return };
        let at = if self.options.system.is_some() { Some(option_path("system")) } else { self.system_message.clone() };
        if let Some(at) = at {
            self.put(at, roles::system_prompt(family, ""));
        }
    }

    /// A strict response format (`response_format.strict: true`) against `OpenAI`'s strict-mode
    /// rules, each finding at its keyword. Known from the provider alone.
    pub(crate) fn strict_response_format(&mut self) {
        let Some(format) = self.options.response_format.as_ref().filter(|f| f.strict == Some(true)) else { return };
        let base = option_path("response_format").key("schema");
        for finding in schema::openai_strict(&format.schema) {
            let diagnostic = finding.to_diagnostic(&base);
            self.report.push(diagnostic);
        }
    }
}
