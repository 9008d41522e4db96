//! ml-commons parity mode: the `question` and `body` parameters exactly as ml-commons' three
//! model providers (`BedrockConverseModelProvider`, `OpenaiV1ChatCompletionsModelProvider`,
//! `GeminiV1BetaGenerateContentModelProvider`) build them — their bugs included — for users
//! comparing with what a real cluster sends. Never used by default; docs/providers.md lists the
//! differences from the normal converters.
//!
//! The agent's type decides what is taken and how it is mapped. A V1 type with a `model` block
//! other than `ag_ui` (`conversational`, `plan_execute_and_reflect`, `flow`,
//! `conversational_flow`) takes text only ([`AgentType::check_input`]); `ag_ui` maps the input by
//! its form, as `ModelProvider.mapAgentInput` does, and extracts the question. A
//! `conversational_v2` agent turns a text or content blocks into one user message and maps the
//! messages (`mapMessages`), with no question: its executor returns before extracting one. A real
//! 3.6 node's requests to its provider confirm each (tests/opensearch).
//!
//! The version ([`VERSIONS`], default [`LATEST`]) decides what the provider's request template
//! adds ([`Parameters::defaults`]); docs/ml-commons-node.md lists each difference with the
//! ml-commons commit it comes from.
//!
//! ml-commons copies a media `format`, a source's `data` and a message's `role` as written; the
//! validated request holds them normalized (`jpg` → `jpeg`, base64 without whitespace or a data
//! URL prefix, `USER` → `user`), so they are read from the request document itself.

use serde::Serialize;

use super::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::json::Document;
use crate::model::{AgentInput, ContentBlock, ExecuteRequest, InputType};
use crate::path::Path;
use crate::providers::common::mlcommons::{MlCommons, Out};
use crate::providers::dispatch;
use crate::version::Version;

pub use crate::providers::common::mlcommons::escape_json;

/// An ml-commons agent type (`MLAgentType`), as registered with a `model` block (the unified
/// agent interface). The type decides which input forms the agent takes and how it maps them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum AgentType {
    /// `flow`: runs its tools in order.
    Flow,
    /// `conversational`: the input mapped by its form, the question extracted.
    #[default]
    Conversational,
    /// `conversational_flow`.
    ConversationalFlow,
    /// `plan_execute_and_reflect`: as `conversational`, with a text replaced by the planner's
    /// `${parameters.prompt}`.
    PlanExecuteAndReflect,
    /// `ag_ui`: as `conversational`, and takes content blocks and messages.
    AgUi,
    /// `conversational_v2`: every input mapped as messages, no question.
    ConversationalV2,
}

impl AgentType {
    /// Every type `MLAgentType` has, in its order.
    pub const ALL: [AgentType; 6] = [
        Self::Flow,
        Self::Conversational,
        Self::ConversationalFlow,
        Self::PlanExecuteAndReflect,
        Self::AgUi,
        Self::ConversationalV2,
    ];

    /// ml-commons' name of the type, as written in a registration body.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Flow => "flow",
            Self::Conversational => "conversational",
            Self::ConversationalFlow => "conversational_flow",
            Self::PlanExecuteAndReflect => "plan_execute_and_reflect",
            Self::AgUi => "ag_ui",
            Self::ConversationalV2 => "conversational_v2",
        }
    }

    /// The type named `raw`, in any letter case (`MLAgentType.from`).
    #[must_use]
    pub fn parse(raw: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.name().eq_ignore_ascii_case(raw.trim()))
    }

    /// Whether an agent of this type registered with a `model` block takes content blocks and
    /// messages as well as text. ml-commons 3.6–3.9 (`MLAgentExecutor.validateV1MultiModalInput`)
    /// refuses anything but text for every V1 type except `ag_ui`.
    #[must_use]
    pub const fn takes_any_input(self) -> bool {
        matches!(self, Self::AgUi | Self::ConversationalV2)
    }

    /// The types that take content blocks and messages.
    pub fn multimodal() -> impl Iterator<Item = AgentType> {
        Self::ALL.into_iter().filter(|t| t.takes_any_input())
    }

    /// The first ml-commons version with the type: `ag_ui` arrived in 3.5 (#4549),
    /// `conversational_v2` in 3.6 (#4732); the others are older than any version with a `model`
    /// block.
    #[must_use]
    pub const fn since(self) -> Version {
        match self {
            Self::AgUi => Version::new(3, 5),
            Self::ConversationalV2 => Version::new(3, 6),
            _ => Version::new(2, 0),
        }
    }

    /// The type to offer first for an input of `form` among `offered`, and why: `conversational`
    /// for a text; for content blocks or messages the first offered type that takes them
    /// (`ag_ui`, which needs no memory container, before `conversational_v2`), or
    /// `conversational` with the reason none can when none is offered.
    #[must_use]
    pub fn default_for(form: InputType, offered: &[AgentType]) -> (AgentType, String) {
        let first = offered.first().copied().unwrap_or_default();
        if form == InputType::Text {
            let pick = if offered.contains(&Self::Conversational) { Self::Conversational } else { first };
            return (pick, format!("{}: every agent type takes a text", pick.name()));
        }
        let refuses = words(form);
        match offered.iter().copied().find(|t| t.takes_any_input()) {
            Some(pick) => (
                pick,
                format!(
                    "{}: the input has {refuses}, which a conversational agent with a `model` block refuses (it takes text only); {} take text, content blocks and messages",
                    pick.name(),
                    list(&offered.iter().copied().filter(|t| t.takes_any_input()).map(Self::name).collect::<Vec<_>>()),
                ),
            ),
            None => (
                first,
                format!(
                    "{}: no agent type offered here takes {refuses} (ag_ui arrived in 3.5 and conversational_v2 in 3.6, both through the unified API); this agent takes text only",
                    first.name()
                ),
            ),
        }
    }

    /// Whether the input of `request` is one this agent type takes: for a V1 type other than
    /// `ag_ui`, only a text. The error is at the input, names the form refused and the types that
    /// take it, and quotes ml-commons' own 400.
    ///
    /// The refusal is `unsupported_by_agent_type`; none when the agent takes the input.
    #[must_use]
    pub fn check_input(self, request: &ExecuteRequest<'_>) -> Option<Diagnostic> {
        self.check_form(request.input.input_type(), &request.input_path)
    }

    /// [`AgentType::check_input`] for an input of `form` at `path`.
    #[must_use]
    pub fn check_form(self, form: InputType, path: &Path) -> Option<Diagnostic> {
        if form == InputType::Text || self.takes_any_input() {
            return None;
        }
        let takers: Vec<&str> = Self::multimodal().map(Self::name).collect();
        Some(Diagnostic::new(
            Code::UnsupportedByAgentType,
            path.clone(),
            format!(
                "a {} agent registered with a `model` block takes text input only, not {}: ml-commons answers 400 \"V1 agents with unified agent interface only support TEXT input type. Found input type: {}\". Send a text, or use an agent of type {}, which take text, content blocks and messages",
                self.name(),
                words(form),
                form.as_str(),
                list_or(&takers),
            ),
        )
        .expected(takers.iter().copied())
        .received(self.name()))
    }
}

/// An input form in words.
const fn words(form: InputType) -> &'static str {
    match form {
        InputType::Text => "text",
        InputType::ContentBlocks => "content blocks",
        InputType::Messages => "messages",
    }
}

/// The ml-commons versions whose agent input handling is modelled, oldest first; the last is the
/// default. 3.6 is checked against a real node (tests/opensearch), the others read from their
/// source (docs/ml-commons-node.md, "Versions").
pub const VERSIONS: [Version; 4] = [Version::new(3, 6), Version::new(3, 7), Version::new(3, 8), Version::new(3, 9)];

/// The newest modelled version: the default.
pub const LATEST: Version = VERSIONS[VERSIONS.len() - 1];

/// The modelled version `raw` names (`3.7`, `3.7.0`, `3.7.0.0`).
///
/// # Errors
/// The message when `raw` is not a modelled version, naming those that are.
pub fn parse_version(raw: &str) -> Result<Version, String> {
    let names: Vec<String> = VERSIONS.iter().map(ToString::to_string).collect();
    let trimmed = raw.trim();
    // ml-commons' own tags have a fourth part (`3.7.0.0`).
    let three = trimmed.strip_suffix(".0").filter(|t| t.matches('.').count() == 2).unwrap_or(trimmed);
    Version::parse(three)
        .filter(|v| VERSIONS.contains(v))
        .ok_or_else(|| format!("ml-commons version '{raw}' is not modelled; use one of {}", names.join(", ")))
}

/// What ml-commons' agent executor puts into the parameters map, and what its provider's request
/// template adds to every call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Parameters {
    /// The question, extracted as ml-commons does; none for a `conversational_v2` agent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// The provider's `body` template parameter (for messages: objects joined with `,`, not a
    /// JSON document).
    pub body: String,
    /// For messages input: the parameters ml-commons does not escape again.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_escape_params: Option<&'static str>,
    /// The fields the provider's request template adds to every call when the agent's
    /// `model_parameters` set none (from 3.7, ml-commons 12def21d1); none before.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub defaults: Option<serde_json::Value>,
}

/// The settings the provider's request template adds from 3.7 (ml-commons #4833, commit
/// 12def21d1): 4096 tokens and temperature 1.0 when `model_parameters` set neither.
fn defaults(ml_commons: &MlCommons, version: Version) -> Option<serde_json::Value> {
    if version < Version::new(3, 7) {
        return None;
    }
    serde_json::from_str(ml_commons.defaults_from_3_7).ok()
}

/// Builds ml-commons' parameters for a provider it has, as a `conversational` agent of the newest
/// modelled version does, from `request` validated from `document`.
///
/// # Errors
/// As [`parameters_for`].
pub fn parameters(
    provider: ProviderId,
    document: &Document<'_>,
    request: &ExecuteRequest<'_>,
) -> Result<(Parameters, Vec<Diagnostic>), Report> {
    parameters_for(provider, AgentType::Conversational, LATEST, document, request)
}

/// Builds ml-commons' parameters for a provider it has, as an agent of type `agent` on ml-commons
/// `version` does, from `request` validated from `document` (read for the values ml-commons copies
/// as written). Warnings are ml-commons' known issues the body runs into.
///
/// # Errors
/// `unsupported_by_provider` for providers ml-commons does not have,
/// `unsupported_by_agent_type` for an input form the agent type refuses, and with ml-commons' own
/// message where its provider throws (video or documents for `OpenAI`, non-S3 URLs for Bedrock).
pub fn parameters_for(
    provider: ProviderId,
    agent: AgentType,
    version: Version,
    document: &Document<'_>,
    request: &ExecuteRequest<'_>,
) -> Result<(Parameters, Vec<Diagnostic>), Report> {
    let as_messages = agent == AgentType::ConversationalV2 || matches!(request.input, AgentInput::Messages(_));
    let Some(ml_commons) = dispatch::ml_commons(provider) else {
        let names: Vec<&str> =
            ProviderId::ALL.iter().filter_map(|&p| dispatch::ml_commons(p)).map(|m| m.name).collect();
        let mut report = Report::default();
        report.push(Diagnostic::new(
            Code::UnsupportedByProvider,
            Path::root(),
            format!(
                "ml-commons has no {} model provider (only {}); drop --ml-commons to convert normally",
                provider.display_name(),
                list(&names),
            ),
        ));
        return Err(report);
    };
    // ml-commons refuses a block type it does not know while parsing the input.
    let items = provider_items(request);
    if !items.is_ok() {
        return Err(items);
    }
    // The executor refuses the form before any provider maps it.
    if let Some(refused) = agent.check_input(request) {
        let mut report = Report::default();
        report.push(refused);
        return Err(report);
    }
    let mut out = Out {
        provider,
        parity: &ml_commons.parity,
        base: &request.input_path,
        root: &document.root,
        body: String::new(),
        report: Report::default(),
    };
    match (agent, &request.input) {
        (AgentType::ConversationalV2, input) => out.as_user_message(input),
        // `mapTextInput`: the planner's prompt stands in for the text.
        (AgentType::PlanExecuteAndReflect, AgentInput::Text(_)) => {
            let (open, close) = out.parity.text;
            out.body = format!("{open}${{parameters.prompt}}{close}");
        }
        (_, input) => out.input(input),
    }
    if !out.report.is_ok() {
        return Err(out.report);
    }
    let warnings = known_issues(ml_commons, request, &out.body);
    Ok((
        Parameters {
            question: (agent != AgentType::ConversationalV2).then(|| request.input.question()),
            body: out.body,
            no_escape_params: as_messages.then_some("_chat_history,_tools,_interactions,tool_configs,body"),
            defaults: defaults(ml_commons, version),
        },
        warnings,
    ))
}

/// ml-commons' open issues that make the provider refuse a body it sends (the provider's
/// `known_issues`: what in the body shows it, and the warning).
fn known_issues(ml_commons: &MlCommons, request: &ExecuteRequest<'_>, body: &str) -> Vec<Diagnostic> {
    ml_commons
        .known_issues
        .iter()
        .filter(|(shows, _)| body.contains(shows))
        .map(|(_, message)| Diagnostic::new(Code::MlCommonsKnownIssue, request.input_path.clone(), *message))
        .collect()
}

/// Each `provider_item` block of the input, refused as ml-commons refuses it.
fn provider_items(request: &ExecuteRequest<'_>) -> Report {
    let mut report = Report::default();
    let mut check = |blocks: &[ContentBlock<'_>], at: Path| {
        for (j, block) in blocks.iter().enumerate() {
            if let ContentBlock::ProviderItem(item) = block {
                report.push(crate::validate::provider_item_for_ml_commons(at.index(j).key("type"), item.kind()));
            }
        }
    };
    match &request.input {
        AgentInput::Text(_) => {}
        AgentInput::Blocks(blocks) => check(blocks, request.input_path.clone()),
        AgentInput::Messages(messages) => {
            for (i, message) in messages.iter().enumerate() {
                check(&message.content, request.input_path.index(i).key("content"));
            }
        }
    }
    report
}

/// `a, b and c`.
fn list(names: &[&str]) -> String {
    joined(names, "and")
}

/// `a, b or c`.
fn list_or(names: &[&str]) -> String {
    joined(names, "or")
}

fn joined(names: &[&str], word: &str) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} {word} {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate;

    fn predict(
        provider: ProviderId,
        agent: AgentType,
        version: Version,
        request: &str,
    ) -> Result<(Parameters, Vec<Diagnostic>), Report> {
        let document = Document::parse(request).unwrap();
        let options = validate::Options { ml_commons: true, ..validate::Options::default() };
        let (validated, _) = validate::validate_request(&document, &options).into_result().unwrap();
        parameters_for(provider, agent, version, &document, &validated)
    }

    /// The body ml-commons 3.6.0 built for `request`, as a real node sent it to its provider.
    fn body(provider: ProviderId, agent: AgentType, request: &str) -> Parameters {
        predict(provider, agent, VERSIONS[0], request).unwrap().0
    }

    const IMAGE: &str =
        r#"{"input":[{"type":"image","source":{"type":"base64","format":"png","data":"iVBORw0KGgo="}}]}"#;

    #[test]
    fn v1_agents_other_than_ag_ui_take_text_only() {
        let messages = r#"{"input":[{"role":"user","content":[{"type":"text","text":"hi"}]}]}"#;
        for agent in AgentType::ALL {
            for (request, form, found) in
                [(IMAGE, "content blocks", "CONTENT_BLOCKS"), (messages, "messages", "MESSAGES")]
            {
                let got = predict(ProviderId::BedrockConverse, agent, LATEST, request);
                if agent == AgentType::AgUi || agent == AgentType::ConversationalV2 {
                    assert!(got.is_ok(), "{agent:?} {form}");
                    continue;
                }
                let errors = got.unwrap_err().errors;
                assert_eq!(errors.len(), 1);
                assert_eq!(errors[0].code, Code::UnsupportedByAgentType);
                assert_eq!(errors[0].path.to_string(), "/input");
                let message = &errors[0].message;
                assert!(
                    message.starts_with(&format!(
                        "a {} agent registered with a `model` block takes text input only, not {form}",
                        agent.name()
                    )),
                    "{message}"
                );
                assert!(message.contains(&format!("Found input type: {found}")), "{message}");
                assert!(
                    message.ends_with(
                        "use an agent of type ag_ui or conversational_v2, which take text, content blocks and messages"
                    ),
                    "{message}"
                );
            }
            assert!(predict(ProviderId::OpenAiChat, agent, LATEST, r#"{"input":"hi"}"#).is_ok(), "{agent:?} text");
        }
    }

    #[test]
    fn a_planner_sends_its_prompt_for_a_text() {
        let got = body(ProviderId::Gemini, AgentType::PlanExecuteAndReflect, r#"{"input":"Plan a trip"}"#);
        assert_eq!(got.body, r#"{"role":"user","parts":[{"text":"${parameters.prompt}"}]}"#);
        assert_eq!(got.question.as_deref(), Some("Plan a trip"));
    }

    #[test]
    fn versions_from_3_7_add_default_settings() {
        let text = r#"{"input":"hi"}"#;
        for provider in [ProviderId::BedrockConverse, ProviderId::OpenAiChat, ProviderId::Gemini] {
            let (old, _) = predict(provider, AgentType::Conversational, VERSIONS[0], text).unwrap();
            assert_eq!(old.defaults, None);
            for version in &VERSIONS[1..] {
                let (new, _) = predict(provider, AgentType::Conversational, *version, text).unwrap();
                let text = new.defaults.unwrap().to_string();
                assert!(text.contains("4096") && text.contains("1.0"), "{provider:?} {version}: {text}");
                assert_eq!(new.body, old.body);
            }
        }
    }

    #[test]
    fn an_s3_source_on_bedrock_warns_of_the_string_form() {
        let request =
            r#"{"input":[{"type":"image","source":{"type":"url","format":"png","data":"s3://bucket/a.png"}}]}"#;
        for version in VERSIONS {
            let (got, warnings) = predict(ProviderId::BedrockConverse, AgentType::AgUi, version, request).unwrap();
            assert!(got.body.contains(r#""s3Location":"s3:\/\/bucket\/a.png""#), "{}", got.body);
            assert_eq!(warnings.len(), 1);
            assert_eq!(warnings[0].code, Code::MlCommonsKnownIssue);
            assert!(warnings[0].message.contains("ml-commons issue 5036"));
        }
        let (_, warnings) = predict(ProviderId::BedrockConverse, AgentType::AgUi, LATEST, IMAGE).unwrap();
        assert!(warnings.is_empty());
    }

    #[test]
    fn versions_parse_as_ml_commons_writes_them() {
        for (raw, want) in [
            ("3.6", Some((3, 6))),
            ("3.7.0", Some((3, 7))),
            ("3.8.0.0", Some((3, 8))),
            (" 3.9 ", Some((3, 9))),
            ("3.5", None),
            ("4.0", None),
            ("x", None),
        ] {
            assert_eq!(parse_version(raw).ok(), want.map(|(a, b)| Version::new(a, b)), "{raw}");
        }
        assert_eq!(
            parse_version("3.5").unwrap_err(),
            "ml-commons version '3.5' is not modelled; use one of 3.6, 3.7, 3.8, 3.9"
        );
        assert_eq!(LATEST, Version::new(3, 9));
    }

    #[test]
    fn agent_types_parse_in_any_case() {
        for agent in AgentType::ALL {
            assert_eq!(AgentType::parse(&agent.name().to_uppercase()), Some(agent));
        }
        assert_eq!(AgentType::parse("chat"), None);
        assert_eq!(AgentType::multimodal().collect::<Vec<_>>(), [AgentType::AgUi, AgentType::ConversationalV2]);
    }

    #[test]
    fn a_v2_agent_sends_a_text_as_a_user_message() {
        let got = body(ProviderId::OpenAiChat, AgentType::ConversationalV2, r#"{"input":"Hello / there \u00e9"}"#);
        assert_eq!(got.body, r#"{"role":"user","content":[{"type":"text","text":"Hello \/ there \u00E9"}]}"#);
        assert_eq!(got.question, None);
        let v1 = body(ProviderId::OpenAiChat, AgentType::Conversational, r#"{"input":"Hello / there \u00e9"}"#);
        assert_eq!(v1.body, r#"{"role":"user","content":"Hello \/ there \u00E9"}"#);
        assert_eq!(v1.question.as_deref(), Some("Hello / there \u{e9}"));
    }

    #[test]
    fn formats_data_and_roles_go_out_as_written() {
        let request = r#"{"input":[{"role":"USER","content":[{"type":"image","source":{"type":"base64","format":"JPG","data":"data:image/jpeg;base64,/9j/\n4AAA"}}]}]}"#;
        let got = body(ProviderId::BedrockConverse, AgentType::AgUi, request);
        assert_eq!(
            got.body,
            r#"{"role":"USER","content":[{"image":{"format":"JPG","source":{"bytes":"data:image\/jpeg;base64,\/9j\/\n4AAA"}}}]}"#
        );
        // Gemini keeps only the exact role "user" a user turn.
        let got = body(ProviderId::Gemini, AgentType::AgUi, request);
        assert!(
            got.body.starts_with(r#"{"role":"model","parts":[{"inlineData":{"mimeType":"image/JPG","#),
            "{}",
            got.body
        );
    }

    #[test]
    fn escapes_as_commons_text() {
        let mut out = String::new();
        escape_json("a\"b\\c/d\n\u{1}é😀", &mut out);
        assert_eq!(out, "a\\\"b\\\\c\\/d\\n\\u0001\\u00E9\\uD83D\\uDE00");
    }
}
