//! ml-commons parity mode: the `question` and `body` parameters exactly as ml-commons' three
//! model providers (`BedrockConverseModelProvider`, `OpenaiV1ChatCompletionsModelProvider`,
//! `GeminiV1BetaGenerateContentModelProvider`) build them — their bugs included — for users
//! comparing with what a real cluster sends. Never used by default; docs/providers.md lists the
//! differences from the normal converters.
//!
//! The agent's type decides the mapping. A `conversational` agent (and every other V1 type with a
//! `model`) maps the input by its form, as `ModelProvider.mapAgentInput` does, and extracts the
//! question. A `conversational_v2` agent turns a text or content blocks into one user message and
//! maps the messages (`mapMessages`), with no question: its executor returns before extracting
//! one. A real node's requests to its provider confirm both (tests/opensearch).
//!
//! ml-commons copies a media `format`, a source's `data` and a message's `role` as written; the
//! validated request holds them normalized (`jpg` → `jpeg`, base64 without whitespace or a data
//! URL prefix, `USER` → `user`), so they are read from the request document itself.

use serde::Serialize;

use super::ProviderId;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::json::Document;
use crate::model::{AgentInput, ContentBlock, ExecuteRequest};
use crate::path::Path;
use crate::providers::common::mlcommons::Out;
use crate::providers::dispatch;

pub use crate::providers::common::mlcommons::escape_json;

/// The type of the agent that runs the input, as far as it changes the mapping.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum AgentType {
    /// `conversational`, and the other V1 types with a `model` block (`plan_execute_and_reflect`,
    /// `ag_ui`): the input mapped by its form, the question extracted.
    #[default]
    Conversational,
    /// `conversational_v2`: every input mapped as messages, no question.
    ConversationalV2,
}

impl AgentType {
    /// ml-commons' name of the type.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Self::Conversational => "conversational",
            Self::ConversationalV2 => "conversational_v2",
        }
    }
}

/// What ml-commons' agent executor puts into the parameters map.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
}

/// Builds ml-commons' parameters for a provider it has, as a `conversational` agent does, from
/// `request` validated from `document`.
///
/// # Errors
/// As [`parameters_for`].
pub fn parameters(
    provider: ProviderId,
    document: &Document<'_>,
    request: &ExecuteRequest<'_>,
) -> Result<Parameters, Report> {
    parameters_for(provider, AgentType::Conversational, document, request)
}

/// Builds ml-commons' parameters for a provider it has, as an agent of type `agent` does, from
/// `request` validated from `document` (read for the values ml-commons copies as written).
///
/// # Errors
/// `unsupported_by_provider` for providers ml-commons does not have, and with ml-commons' own
/// message where its provider throws (video or documents for `OpenAI`, non-S3 URLs for Bedrock).
pub fn parameters_for(
    provider: ProviderId,
    agent: AgentType,
    document: &Document<'_>,
    request: &ExecuteRequest<'_>,
) -> Result<Parameters, Report> {
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
    let mut out = Out {
        provider,
        parity: &ml_commons.parity,
        base: &request.input_path,
        root: &document.root,
        body: String::new(),
        report: Report::default(),
    };
    match agent {
        AgentType::Conversational => out.input(&request.input),
        AgentType::ConversationalV2 => out.as_user_message(&request.input),
    }
    if !out.report.is_ok() {
        return Err(out.report);
    }
    Ok(Parameters {
        question: (agent == AgentType::Conversational).then(|| request.input.question()),
        body: out.body,
        no_escape_params: as_messages.then_some("_chat_history,_tools,_interactions,tool_configs,body"),
    })
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
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::validate;

    /// The body ml-commons 3.6.0 built for `request`, as a real node sent it to its provider.
    fn body(provider: ProviderId, agent: AgentType, request: &str) -> Parameters {
        let document = Document::parse(request).unwrap();
        let options = validate::Options { ml_commons: true, ..validate::Options::default() };
        let (validated, _) = validate::validate_request(&document, &options).into_result().unwrap();
        parameters_for(provider, agent, &document, &validated).unwrap()
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
        let got = body(ProviderId::BedrockConverse, AgentType::Conversational, request);
        assert_eq!(
            got.body,
            r#"{"role":"USER","content":[{"image":{"format":"JPG","source":{"bytes":"data:image\/jpeg;base64,\/9j\/\n4AAA"}}}]}"#
        );
        // Gemini keeps only the exact role "user" a user turn.
        let got = body(ProviderId::Gemini, AgentType::Conversational, request);
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
