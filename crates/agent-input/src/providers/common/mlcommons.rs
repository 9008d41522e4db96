//! What ml-commons' model providers share: the facts each one declares ([`MlCommons`]: its name,
//! connector, templates and credential keys) and the writer of the `body` parameter its
//! `--ml-commons` parity mode builds ([`Out`]), to which each provider adds its own messages and
//! blocks ([`Parity`]).

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::json::Json;
use crate::model::{AgentInput, ContentBlock, Message};
use crate::path::{Path, Segment};
use crate::providers::id::ProviderId;

/// One ml-commons model provider (`ModelProviderType`), as its `*ModelProvider.java` writes the
/// connector, model and agent.
#[derive(Debug)]
pub(crate) struct MlCommons {
    /// The `model_provider` value.
    pub(crate) name: &'static str,
    /// `getLLMInterface()`: the `_llm_interface` the provider sets on the agent.
    pub(crate) llm_interface: &'static str,
    /// The `tool_configs` parameter its function calling sets (`FunctionCalling.configure`),
    /// which the template writes even when the agent has no tools: `_tools` is then empty.
    pub(crate) tool_configs: &'static str,
    /// The credential keys the connector reads.
    pub(crate) credential_keys: &'static [&'static str],
    /// What reads the credential, for the message of a missing key.
    pub(crate) credential_reader: &'static str,
    /// The connector `createConnector` writes.
    pub(crate) connector: Connector,
    /// `REQUEST_BODY_TEMPLATE`.
    pub(crate) request_body: &'static str,
    /// `REQUEST_BODY_REASONING_TEMPLATE`, used when `reasoning_effort` is set.
    pub(crate) reasoning_request_body: Option<&'static str>,
    /// `TEXT_INPUT_BODY_TEMPLATE`.
    pub(crate) text_input: &'static str,
    /// Connector parameters set before the model's own.
    pub(crate) fixed_parameters: &'static [(&'static str, &'static str)],
    /// How `top_p` is spelled in `top_p_field`.
    pub(crate) top_p_key: &'static str,
    /// Whether the connector writes `temperature` into JSON unquoted (`temperature_field`), so
    /// it is checked as a number.
    pub(crate) temperature_field: bool,
    /// Whether the model's system prompt is sent.
    pub(crate) system_prompt: bool,
    /// Whether its function calling arrived only with the unified agent API (3.5).
    pub(crate) needs_unified_api: bool,
    /// The message when a conversational agent without tools would be refused.
    pub(crate) empty_tool_list: Option<&'static str>,
    /// The `--ml-commons` parity writer's provider-specific steps.
    pub(crate) parity: Parity,
    /// The settings the request template adds from 3.7 (12def21d1), as JSON text.
    pub(crate) defaults_from_3_7: &'static str,
    /// Open ml-commons issues the provider refuses: what in the parity body shows one, and the
    /// warning (`ml_commons_known_issue`).
    pub(crate) known_issues: &'static [(&'static str, &'static str)],
}

/// A connector's fixed fields.
#[derive(Debug)]
pub(crate) struct Connector {
    /// `name`.
    pub(crate) name: &'static str,
    /// `description`.
    pub(crate) description: &'static str,
    /// `protocol`.
    pub(crate) protocol: &'static str,
    /// The predict action's `url`.
    pub(crate) url: &'static str,
    /// The predict action's `headers`.
    pub(crate) headers: &'static [(&'static str, &'static str)],
}

/// What one provider writes itself in the parity `body`.
#[derive(Debug)]
pub(crate) struct Parity {
    /// A text input as a user message: what goes before and after the escaped text.
    pub(crate) text: (&'static str, &'static str),
    /// The key of a message's blocks (`content`, `parts`).
    pub(crate) blocks_key: &'static str,
    /// Writes the message at `i` (with its role as written), returning the index after the last
    /// message written (a provider may merge a run of them).
    pub(crate) message: fn(&mut Out<'_, '_>, &[Message<'_>], usize, &str) -> usize,
    /// Writes one content block.
    pub(crate) block: fn(&mut Out<'_, '_>, &ContentBlock<'_>, &dyn Fn() -> Path),
}

/// Apache commons-text `StringEscapeUtils.escapeJson`: `"`, `\` and `/` backslash-escaped, the
/// five short control escapes, and every other character below U+0020 or above U+007E as
/// `\uXXXX` (uppercase hex, UTF-16 units).
pub fn escape_json(text: &str, out: &mut String) {
    use std::fmt::Write as _;
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '/' => out.push_str("\\/"),
            '\u{8}' => out.push_str("\\b"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04X}");
                }
            }
        }
    }
}

/// The parity `body` being written for one provider.
#[derive(Debug)]
pub(crate) struct Out<'p, 'd> {
    pub(crate) provider: ProviderId,
    pub(crate) parity: &'static Parity,
    pub(crate) base: &'p Path,
    pub(crate) root: &'p Json<'d>,
    pub(crate) body: String,
    pub(crate) report: Report,
}

/// The string at `path` of the request as written, or `normalized` where there is none.
pub(crate) fn written<'s>(root: &'s Json<'_>, path: &Path, normalized: &'s str) -> &'s str {
    let mut at = root;
    for segment in path.segments() {
        let next = match segment {
            Segment::Key(key) => at.get(key),
            Segment::Index(i) => at.as_array().and_then(|items| items.get(*i)),
        };
        match next {
            Some(value) => at = value,
            None => return normalized,
        }
    }
    at.as_str().unwrap_or(normalized)
}

/// A block's source `format` and `data` as written.
pub(crate) fn source_written<'s>(
    root: &'s Json<'_>,
    block: &Path,
    format: &'s str,
    data: &'s str,
) -> (&'s str, &'s str) {
    let source = block.key("source");
    (written(root, &source.key("format"), format), written(root, &source.key("data"), data))
}

impl Out<'_, '_> {
    pub(crate) fn esc(&mut self, text: &str) {
        escape_json(text, &mut self.body);
    }

    pub(crate) fn fail(&mut self, path: Path, message: &str) {
        self.report.push(Diagnostic::new(
            Code::UnsupportedByProvider,
            path,
            format!("ml-commons' {} provider fails here: {message}", self.provider.display_name()),
        ));
    }

    /// A `conversational` agent's mapping: the input by its form.
    pub(crate) fn input(&mut self, input: &AgentInput<'_>) {
        match input {
            AgentInput::Text(text) => {
                let (open, close) = self.parity.text;
                self.body.push_str(open);
                self.esc(text);
                self.body.push_str(close);
            }
            AgentInput::Blocks(blocks) => {
                let base = self.base.clone();
                self.message_open("user");
                self.blocks(blocks, &|j| base.index(j));
                self.body.push_str("]}");
            }
            AgentInput::Messages(messages) => self.messages(messages),
        }
    }

    /// A `conversational_v2` agent's mapping: a text becomes a user message of one text block,
    /// content blocks one user message, and messages stay as given (`MLAgentExecutor`).
    pub(crate) fn as_user_message(&mut self, input: &AgentInput<'_>) {
        let base = self.base.clone();
        match input {
            AgentInput::Text(text) => {
                self.message_open("user");
                self.blocks(&[ContentBlock::Text(text.clone())], &|j| base.index(j));
                self.body.push_str("]}");
            }
            AgentInput::Blocks(blocks) => {
                self.message_open("user");
                self.blocks(blocks, &|j| base.index(j));
                self.body.push_str("]}");
            }
            AgentInput::Messages(messages) => self.messages(messages),
        }
    }

    pub(crate) fn message_open(&mut self, role: &str) {
        self.body.push_str(r#"{"role":""#);
        self.body.push_str(role);
        self.body.push_str(r#"",""#);
        self.body.push_str(self.parity.blocks_key);
        self.body.push_str(r#"":["#);
    }

    /// The path of block `j` of message `i`.
    pub(crate) fn block_path(&self, i: usize) -> impl Fn(usize) -> Path + use<> {
        let base = self.base.clone();
        move |j| base.index(i).key("content").index(j)
    }

    fn messages(&mut self, messages: &[Message<'_>]) {
        let mut i = 0;
        while i < messages.len() {
            if i > 0 {
                self.body.push(',');
            }
            let role = written(self.root, &self.base.index(i).key("role"), messages[i].role.as_str());
            i = (self.parity.message)(self, messages, i, role);
        }
    }

    pub(crate) fn blocks(&mut self, blocks: &[ContentBlock<'_>], path: &dyn Fn(usize) -> Path) {
        for (j, block) in blocks.iter().enumerate() {
            if j > 0 {
                self.body.push(',');
            }
            (self.parity.block)(self, block, &|| path(j));
        }
    }
}
