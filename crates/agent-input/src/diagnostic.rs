//! Errors and warnings: a stable code, a path, a message, and data.

use std::fmt;

use serde::Serialize;

use crate::path::Path;

macro_rules! codes {
    ($($(#[$doc:meta])* $variant:ident = $code:literal, $severity:ident;)*) => {
        /// Every problem the library can report. The string form ([`Code::as_str`]) is stable and
        /// documented in `docs/errors.md`; variants are only ever added.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum Code {
            $($(#[$doc])* $variant,)*
        }

        impl Code {
            /// Every code, in documentation order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable `snake_case` identifier.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Code::$variant => $code,)*
                }
            }

            /// Whether this code is reported as an error or a warning.
            pub const fn severity(self) -> Severity {
                match self {
                    $(Code::$variant => Severity::$severity,)*
                }
            }

            /// Looks a code up by its identifier.
            pub fn parse(code: &str) -> Option<Code> {
                match code {
                    $($code => Some(Code::$variant),)*
                    _ => None,
                }
            }
        }
    };
}

codes! {
    /// The request text is not JSON.
    InvalidJson = "invalid_json", Error;
    /// The request body is larger than the limit.
    TooLarge = "too_large", Error;
    /// JSON nesting is deeper than the limit.
    TooDeep = "too_deep", Error;
    /// An array is longer than the limit.
    TooMany = "too_many", Error;
    /// A field has the wrong JSON type.
    InvalidFieldType = "invalid_field_type", Error;
    /// Neither `input` nor `parameters.question` was given.
    MissingInput = "missing_input", Error;
    /// `input` is neither a string nor an array.
    InvalidInputType = "invalid_input_type", Error;
    /// Blank text or an empty array.
    EmptyInput = "empty_input", Error;
    /// An array item that is neither a message nor a content block.
    InvalidItem = "invalid_item", Error;
    /// Messages and content blocks in one array.
    MixedArray = "mixed_array", Error;
    /// A media block written with an `image`/`video`/`document` key instead of `source`.
    UseSourceField = "use_source_field", Error;
    /// A content block type other than text, image, video, document.
    UnsupportedContentType = "unsupported_content_type", Error;
    /// A required key is absent.
    MissingField = "missing_field", Error;
    /// A required string is blank.
    EmptyField = "empty_field", Error;
    /// A text block with blank text.
    EmptyText = "empty_text", Error;
    /// A source type other than base64 and url.
    UnsupportedSourceType = "unsupported_source_type", Error;
    /// A format not allowed for the block type.
    UnsupportedFormat = "unsupported_format", Error;
    /// The data is of a different format than declared.
    FormatMismatch = "format_mismatch", Error;
    /// Not standard padded base64.
    InvalidBase64 = "invalid_base64", Error;
    /// A URL source that does not parse.
    InvalidUrl = "invalid_url", Error;
    /// A URL scheme other than https, http, s3.
    UnsupportedUrlScheme = "unsupported_url_scheme", Error;
    /// An empty or non-string role.
    InvalidRole = "invalid_role", Error;
    /// An empty `content` array where content is required.
    EmptyContent = "empty_content", Error;
    /// Tool call arguments that are not a JSON object in a string.
    InvalidToolArguments = "invalid_tool_arguments", Error;
    /// A tool message's `resultFormat` other than `json`, or a JSON result's text that is not JSON.
    InvalidToolResult = "invalid_tool_result", Error;
    /// The last message is not from `user` or `tool`.
    LastMessageRole = "last_message_role", Error;
    /// `input` won over `parameters.question`.
    QuestionIgnored = "question_ignored", Warning;
    /// A format alias or letter case was normalized.
    FormatNormalized = "format_normalized", Warning;
    /// A `data:` URL prefix was removed from base64 data.
    DataUrlPrefixStripped = "data_url_prefix_stripped", Warning;
    /// Whitespace inside base64 data was removed.
    Base64WhitespaceRemoved = "base64_whitespace_removed", Warning;
    /// A key the format does not define was ignored.
    FieldIgnored = "field_ignored", Warning;
    /// The provider cannot take a web URL here.
    UrlNotSupportedByProvider = "url_not_supported_by_provider", Error;
    /// The provider cannot carry this content at all.
    UnsupportedByProvider = "unsupported_by_provider", Error;
    /// Tool blocks in the history but no tool specs given.
    ToolConfigRequired = "tool_config_required", Error;
    /// The conversation does not start with a user turn.
    FirstMessageNotUser = "first_message_not_user", Error;
    /// A role the provider has no place for.
    RoleNotSupported = "role_not_supported", Error;
    /// Media in a turn whose role cannot carry it.
    MediaNotAllowedInRole = "media_not_allowed_in_role", Error;
    /// A turn with a document but no text block.
    DocumentRequiresText = "document_requires_text", Error;
    /// An assistant's tool call not answered by a tool message in the next turn.
    UnansweredToolCall = "unanswered_tool_call", Error;
    /// A tool result that answers no tool call of the turn before it.
    UnmatchedToolResult = "unmatched_tool_result", Error;
    /// A value the provider rejects.
    InvalidForProvider = "invalid_for_provider", Error;
    /// A provider count or size limit.
    ProviderLimit = "provider_limit", Error;
    /// An inference parameter out of range.
    InvalidParameter = "invalid_parameter", Error;
    /// Consecutive same-role turns were merged.
    MessagesMerged = "messages_merged", Warning;
    /// A document name was changed for the provider.
    DocumentNameSanitized = "document_name_sanitized", Warning;
    /// A tool call id was rewritten for the provider.
    ToolCallIdRewritten = "tool_call_id_rewritten", Warning;
    /// A parameter does not match the agent's `parameters_schema`.
    SchemaViolation = "schema_violation", Error;
    /// A `parameters_schema` that is not a usable JSON Schema.
    InvalidSchema = "invalid_schema", Error;
    /// A field of a provider's request that the standard input and its options have no place
    /// for, left out by import.
    ImportDropped = "import_dropped", Warning;
    /// Content of a provider's request that the standard input cannot carry and whose loss would
    /// change the conversation.
    ImportUnsupported = "import_unsupported", Error;
    /// `${` in the user's text, which an ml-commons cluster substitutes (validation option
    /// `ml_commons`).
    TemplatePlaceholder = "template_placeholder", Warning;
    /// An assistant message's reasoning state from another provider, left out of the body.
    ReasoningStateDropped = "reasoning_state_dropped", Warning;
    /// A registration whose agent, as ml-commons builds it, sends the provider an empty tool list
    /// the provider refuses.
    EmptyToolList = "empty_tool_list", Warning;
    /// A model id no family of the capability table matches: only the provider's own rules are
    /// checked, nothing is refused on a guess.
    UnknownModel = "unknown_model", Warning;
    /// A schema the provider takes in another of its fields, written there with the same meaning
    /// (Gemini: a full JSON Schema as `parametersJsonSchema` instead of `parameters`).
    SchemaRewritten = "schema_rewritten", Warning;
    /// A `provider_item` block naming no provider of the library.
    UnknownProvider = "unknown_provider", Error;
    /// Another provider's item (a hosted tool's call or result), left out of the body.
    ProviderItemDropped = "provider_item_dropped", Warning;
    /// Fields of another provider's (`provider_fields`), left out of the body.
    ProviderFieldsDropped = "provider_fields_dropped", Warning;
    /// A Gemini request's model turn whose first `functionCall` had no `thoughtSignature`,
    /// written back to Gemini with the sentinel Gemini documents for that case.
    ThoughtSignatureAdded = "thought_signature_added", Warning;
    /// An input form the ml-commons agent type refuses (a V1 agent with a `model` block takes
    /// only text).
    UnsupportedByAgentType = "unsupported_by_agent_type", Error;
    /// ml-commons sends this in a form the provider refuses: a known ml-commons bug, named in the
    /// message.
    MlCommonsKnownIssue = "ml_commons_known_issue", Warning;
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// Whether a [`Code`] makes the input invalid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// The input cannot be used.
    Error,
    /// Worth knowing; the input is still used.
    Warning,
}

/// Longest `received` value kept in a diagnostic, in characters.
pub const MAX_RECEIVED_CHARS: usize = 200;

/// One reported problem.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Diagnostic {
    /// Stable identifier.
    pub code: Code,
    /// Where in the request.
    pub path: Path,
    /// One sentence a person can act on.
    pub message: String,
    /// Allowed values, where a list helps.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub expected: Vec<String>,
    /// What was found, where it helps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub received: Option<String>,
    /// The limit that was exceeded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
    /// The value that exceeded it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actual: Option<u64>,
    /// For schema problems: a JSON Pointer into the schema, to the keyword that failed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schema_path: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with only a code, a path and a message.
    pub fn new(code: Code, path: Path, message: impl Into<String>) -> Self {
        Self {
            code,
            path,
            message: message.into(),
            expected: Vec::new(),
            received: None,
            limit: None,
            actual: None,
            schema_path: None,
        }
    }

    /// Adds the allowed values.
    #[must_use]
    pub fn expected<I, S>(mut self, values: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.expected = values.into_iter().map(Into::into).collect();
        self
    }

    /// Adds what was found, shortened to [`MAX_RECEIVED_CHARS`] characters: a report must stay
    /// readable even when the offending value is megabytes long.
    #[must_use]
    pub fn received(self, value: impl Into<String>) -> Self {
        self.received_text(value.into())
    }

    /// [`Diagnostic::received`], not generic: one copy for every kind of value.
    fn received_text(mut self, mut value: String) -> Self {
        if let Some((cut, _)) = value.char_indices().nth(MAX_RECEIVED_CHARS) {
            value.truncate(cut);
            value.push('…');
        }
        self.received = Some(value);
        self
    }

    /// Adds the limit and the value that exceeded it.
    #[must_use]
    pub fn limit(mut self, limit: u64, actual: u64) -> Self {
        self.limit = Some(limit);
        self.actual = Some(actual);
        self
    }

    /// Adds the schema keyword that failed (a JSON Pointer into the schema).
    #[must_use]
    pub fn schema_path(mut self, pointer: impl Into<String>) -> Self {
        self.schema_path = Some(pointer.into());
        self
    }

    /// Whether this is an error or a warning.
    pub fn severity(&self) -> Severity {
        self.code.severity()
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path.to_string();
        let path = if path.is_empty() { "/" } else { path.as_str() };
        write!(f, "{} at {path}: {}", self.code, self.message)
    }
}

/// Errors and warnings collected by one operation.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Report {
    /// Problems that make the input unusable.
    pub errors: Vec<Diagnostic>,
    /// Problems worth knowing that do not.
    pub warnings: Vec<Diagnostic>,
}

impl Report {
    /// Files a diagnostic under errors or warnings according to its code.
    pub fn push(&mut self, diagnostic: Diagnostic) {
        match diagnostic.severity() {
            Severity::Error => self.errors.push(diagnostic),
            Severity::Warning => self.warnings.push(diagnostic),
        }
    }

    /// Whether no error was reported.
    pub fn is_ok(&self) -> bool {
        self.errors.is_empty()
    }

    /// Appends another report.
    pub fn extend(&mut self, other: Report) {
        self.errors.extend(other.errors);
        self.warnings.extend(other.warnings);
    }

    /// The value read, or `None` with its problem filed here: how a reader that collects every
    /// problem consumes a [`crate::field::Fields`] result.
    pub fn record<T>(&mut self, read: Result<T, Diagnostic>) -> Option<T> {
        match read {
            Ok(value) => Some(value),
            Err(diagnostic) => {
                self.push(diagnostic);
                None
            }
        }
    }
}

impl From<Diagnostic> for Report {
    /// A report of one problem: how a reader that stops at the first problem returns it.
    fn from(diagnostic: Diagnostic) -> Self {
        let mut report = Report::default();
        report.push(diagnostic);
        report
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.errors.iter().chain(&self.warnings).enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Report {}
