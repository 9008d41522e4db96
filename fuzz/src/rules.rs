//! Independent rule checkers for every provider's request body: each one written from that
//! provider's own API documentation (cited by title and section in its file), sharing no code with
//! the converters, so a converter bug cannot hide behind its own helper. Used by the fuzz targets,
//! the conformance runner (`tests/conformance.rs`) and the property tests
//! (`crates/agent-input/tests/properties.rs`, `providers.rs`), the last three through `#[path]`.

use agent_input::ProviderId;
use serde_json::{Map, Value};

#[allow(clippy::doc_markdown)] // API titles and schema names, not code
#[path = "anthropic_rules.rs"]
pub mod anthropic;
#[allow(clippy::doc_markdown)] // API titles and schema names, not code
#[path = "converse_rules.rs"]
pub mod converse;
#[allow(clippy::doc_markdown)] // API titles and schema names, not code
#[path = "gemini_rules.rs"]
pub mod gemini;
#[allow(clippy::doc_markdown)] // API titles and schema names, not code
#[path = "openai_chat_rules.rs"]
pub mod openai_chat;
#[allow(clippy::doc_markdown)] // API titles and schema names, not code
#[path = "openai_responses_rules.rs"]
pub mod openai_responses;

/// Every rule `body` breaks for `provider`, each as `<JSON pointer>: <rule>`; empty when none.
pub fn violations(provider: ProviderId, body: &Value) -> Vec<String> {
    match provider {
        ProviderId::BedrockConverse => converse::violations(body),
        ProviderId::OpenAiChat => openai_chat::violations(body),
        ProviderId::OpenAiResponses => openai_responses::violations(body),
        ProviderId::AnthropicMessages => anthropic::violations(body),
        ProviderId::Gemini => gemini::violations(body),
        // A provider without a checker is a gap to close, not a body to wave through.
        _ => vec![format!("no rule checker for {provider}")],
    }
}

/// Collects broken rules; the small JSON-shape checks every provider checker needs.
#[derive(Default)]
pub(crate) struct Check {
    pub(crate) problems: Vec<String>,
}

pub(crate) fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// What a missing member reads as.
pub(crate) static NULL: Value = Value::Null;

impl Check {
    pub(crate) fn fail(&mut self, path: &str, rule: impl Into<String>) {
        self.problems.push(format!("{path}: {}", rule.into()));
    }

    pub(crate) fn object<'v>(&mut self, value: &'v Value, path: &str) -> Option<&'v Map<String, Value>> {
        let object = value.as_object();
        if object.is_none() {
            self.fail(path, format!("must be an object, not {}", kind(value)));
        }
        object
    }

    /// An object with only `allowed` members and every one of `required`.
    pub(crate) fn shape<'v>(
        &mut self,
        value: &'v Value,
        required: &[&str],
        allowed: &[&str],
        path: &str,
    ) -> Option<&'v Map<String, Value>> {
        let object = self.object(value, path)?;
        for key in object.keys() {
            if !required.contains(&key.as_str()) && !allowed.contains(&key.as_str()) {
                self.fail(path, format!("unknown member {key:?}"));
            }
        }
        for key in required {
            if !object.contains_key(*key) {
                self.fail(path, format!("missing required member {key:?}"));
            }
        }
        Some(object)
    }

    pub(crate) fn string<'v>(&mut self, value: Option<&'v Value>, path: &str) -> Option<&'v str> {
        let value = value?;
        let text = value.as_str();
        if text.is_none() {
            self.fail(path, format!("must be a string, not {}", kind(value)));
        }
        text
    }

    pub(crate) fn array<'v>(&mut self, value: Option<&'v Value>, non_empty: bool, path: &str) -> &'v [Value] {
        let Some(value) = value else { return &[] };
        match value.as_array() {
            Some(items) if non_empty && items.is_empty() => {
                self.fail(path, "must not be empty");
                items
            }
            Some(items) => items,
            None => {
                self.fail(path, format!("must be an array, not {}", kind(value)));
                &[]
            }
        }
    }

    pub(crate) fn number_in(&mut self, value: Option<&Value>, min: f64, max: f64, path: &str) {
        let Some(value) = value else { return };
        match value.as_f64() {
            Some(n) if (min..=max).contains(&n) => {}
            _ => self.fail(path, format!("must be a number from {min} to {max}, not {value}")),
        }
    }

    pub(crate) fn integer_at_least(&mut self, value: Option<&Value>, min: u64, path: &str) {
        let Some(value) = value else { return };
        if value.as_u64().is_none_or(|n| n < min) {
            self.fail(path, format!("must be an integer of at least {min}, not {value}"));
        }
    }

    pub(crate) fn one_of(&mut self, value: Option<&str>, allowed: &[&str], path: &str) {
        if let Some(value) = value
            && !allowed.contains(&value)
        {
            self.fail(path, format!("must be one of {allowed:?}, not {value:?}"));
        }
    }

    /// A tool choice naming a tool: the name must be one of the body's tools.
    pub(crate) fn named_tool(&mut self, name: Option<&Value>, tools: &[&str], path: &str) {
        match name.and_then(Value::as_str) {
            Some(name) if tools.contains(&name) => {}
            _ => self.fail(path, format!("must name one of the tools {tools:?}")),
        }
    }

    /// An `OpenAI` tool choice ("Function calling"): "none", "auto" or "required", or a named
    /// function, written `{"type": "function", "function": {"name"}}` by Chat Completions
    /// (`nested`) and `{"type": "function", "name"}` by Responses. Sent only with tools.
    pub(crate) fn openai_tool_choice(&mut self, choice: Option<&Value>, tools: &[&str], nested: bool) {
        let Some(choice) = choice else { return };
        let path = "/tool_choice";
        if tools.is_empty() {
            self.fail(path, "tool_choice is only allowed when tools are given");
        }
        if let Some(mode) = choice.as_str() {
            self.one_of(Some(mode), &["none", "auto", "required"], path);
            return;
        }
        let key = if nested { "function" } else { "name" };
        let Some(named) = self.shape(choice, &["type", key], &[], path) else { return };
        // Responses' `ToolChoiceCustom` names a custom tool as `ToolChoiceFunction` names a function.
        let kinds: &[&str] = if nested { &["function"] } else { &["function", "custom"] };
        self.one_of(named.get("type").and_then(Value::as_str).or(Some("")), kinds, "/tool_choice/type");
        if nested {
            if let Some(function) =
                self.shape(named.get("function").unwrap_or(&NULL), &["name"], &[], "/tool_choice/function")
            {
                self.named_tool(function.get("name"), tools, "/tool_choice/function/name");
            }
        } else {
            self.named_tool(named.get("name"), tools, "/tool_choice/name");
        }
    }

    /// An `OpenAI` JSON Schema response format ("Structured Outputs"): `name` 1-64 of a-z, A-Z,
    /// 0-9, `_` and `-`; `schema` an object; `description` a string; `strict` a boolean.
    pub(crate) fn openai_json_schema(&mut self, format: &Map<String, Value>, path: &str) {
        match format.get("name").and_then(Value::as_str) {
            Some(name) if is_plain_name(name, 64) => {}
            _ => self.fail(&format!("{path}/name"), "must be 1-64 of a-z, A-Z, 0-9, _ and -"),
        }
        self.object(format.get("schema").unwrap_or(&NULL), &format!("{path}/schema"));
        self.string(format.get("description"), &format!("{path}/description"));
        if format.get("strict").is_some_and(|s| !s.is_boolean()) {
            self.fail(&format!("{path}/strict"), "must be a boolean");
        }
    }

    /// A cache lifetime where one is taken ("5m" or "1h": Bedrock's `CacheTTL`, Anthropic's
    /// `cache_control.ttl`).
    pub(crate) fn cache_ttl(&mut self, ttl: Option<&Value>, path: &str) {
        if let Some(ttl) = ttl {
            self.one_of(ttl.as_str().or(Some("")), &["5m", "1h"], path);
        }
    }

    /// A JSON Schema object (a tool's parameters): an object whose `type`, when given, is "object".
    pub(crate) fn object_schema(&mut self, value: Option<&Value>, path: &str) {
        let Some(schema) = value.and_then(|v| self.object(v, path)) else { return };
        if let Some(kind) = schema.get("type")
            && kind != "object"
        {
            self.fail(path, format!("a tool's schema must have type \"object\", not {kind}"));
        }
    }
}

/// The bytes a standard base64 text decodes to (its length, padding aside).
pub(crate) fn decoded_len(base64: &str) -> usize {
    let padding = base64.bytes().rev().take_while(|&b| b == b'=').count();
    (base64.len() / 4 * 3).saturating_sub(padding)
}

/// Whether `text` is standard base64 with padding (RFC 4648 §4).
pub(crate) fn is_base64(text: &str) -> bool {
    let body = text.trim_end_matches('=');
    text.len().is_multiple_of(4)
        && text.len() - body.len() <= 2
        && body.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/')
}

/// `data:<mime>;base64,<data>`: the MIME type and the data, or `None` when `url` is not one.
pub(crate) fn data_url(url: &str) -> Option<(&str, &str)> {
    let (head, data) = url.strip_prefix("data:")?.split_once(',')?;
    Some((head.strip_suffix(";base64")?, data))
}

/// An `http://` or `https://` URL with a host.
pub(crate) fn is_web_url(url: &str) -> bool {
    ["https://", "http://"].iter().any(|scheme| url.strip_prefix(scheme).is_some_and(|rest| !rest.is_empty()))
}

/// A name of 1 to `max` characters from `[A-Za-z0-9_-]`.
pub(crate) fn is_plain_name(name: &str, max: usize) -> bool {
    (1..=max).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// Whether arguments text is a JSON object.
pub(crate) fn is_json_object_text(text: &str) -> bool {
    serde_json::from_str::<Value>(text).is_ok_and(|v| v.is_object())
}
