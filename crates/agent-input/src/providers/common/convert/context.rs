//! The conversion of one request for one provider: the [`Conversion`] every converter reports
//! into, and the provider's [`Profile`], the data that makes the shared checks its own (name,
//! option ranges, naming rules, roles). Checks of options, tool specs, tool calls, URLs and
//! limits live here; checks of the conversation's shape are in `turns.rs`.

use serde_json::Value;

use super::payload::{DataUrl, Payload, Splice};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{ExecuteRequest, Source};
use crate::options::{ConvertOptions, Effort, Reasoning, ResponseFormat, ToolChoice, ToolEntry, ToolSpec};
use crate::path::Path;
use crate::text::quote;
use crate::url::{self, Scheme};

/// The schema of a tool that takes no arguments, used when a spec gives none:
/// `{"type": "object", "properties": {}}`. Built by hand: `json!` turns each string into
/// `to_value(..).unwrap()`, whose panic path formats `serde_json::Error` with `Debug` (several
/// KB of `core::fmt` in the npm `.wasm`).
static EMPTY_SCHEMA: std::sync::LazyLock<Value> = std::sync::LazyLock::new(|| {
    let mut schema = serde_json::Map::new();
    schema.insert("type".to_owned(), Value::String("object".to_owned()));
    schema.insert("properties".to_owned(), Value::Object(serde_json::Map::new()));
    Value::Object(schema)
});

/// What the shared checks need to know about one provider. Every difference between providers
/// that the shared checks make is a field here, so it can be read in one place per provider.
/// `roles_text` ("or" in Bedrock's list) and `legacy_option_wording` differ in wording only:
/// they keep Bedrock's older messages word for word.
#[derive(Debug)]
pub(crate) struct Profile {
    /// The provider, as provider items and provider fields name it.
    pub(crate) provider: crate::providers::id::ProviderId,
    /// How messages name the provider.
    pub(crate) name: &'static str,
    /// Highest temperature (`top_p` is 0 to 1 for every provider).
    pub(crate) max_temperature: f64,
    /// Most stop sequences; `None` when the provider takes none at all.
    pub(crate) max_stop_sequences: Option<usize>,
    /// What a tool's name must be, in specs and in calls.
    pub(crate) tool_name: Rule,
    /// What a tool call's id must be, where the provider restricts it.
    pub(crate) tool_call_id: Option<Rule>,
    /// The standard roles the provider takes, as `expected` lists them.
    pub(crate) roles: &'static [&'static str],
    /// The same roles as messages list them.
    pub(crate) roles_text: &'static str,
    /// What to do with a medium over a size limit, after "Shrink it or".
    pub(crate) too_large: &'static str,
    /// Bedrock's option messages, written before the shared ones and kept word for word: range
    /// bounds written whole (`0..1`, not `0..1.0`) and "at most N stop sequences are allowed".
    pub(crate) legacy_option_wording: bool,
    /// Fewest tokens `max_tokens` may ask for.
    pub(crate) min_max_tokens: u64,
    /// Whether `temperature` and `top_p` exclude each other.
    pub(crate) temperature_or_top_p: bool,
}

/// A naming rule: the check, and how messages state it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Rule {
    /// Whether a name keeps the rule.
    pub(crate) holds: fn(&str) -> bool,
    /// The rule in words, after "must be".
    pub(crate) says: &'static str,
}

/// Letters, digits, `_` and `-`, 1 to 64 of them: the tool name rule of Bedrock, `OpenAI` and
/// Anthropic.
pub(crate) const PLAIN_NAME: Rule =
    Rule { holds: crate::text::is_plain_name, says: "1-64 letters, digits, '_' or '-'" };

/// Text to send, or `None` when it is missing or blank: a blank system prompt or tool
/// description is left out of the body rather than sent empty.
pub(crate) fn non_blank(text: Option<&str>) -> Option<&str> {
    text.filter(|text| !text.trim().is_empty())
}

/// The provider's own checks of conversion options alone (see [`super::check_options`]).
pub(crate) fn check_options(profile: &'static Profile, options: &ConvertOptions) -> Report {
    let base = Path::root();
    let mut cx = Conversion::new(profile, &base);
    cx.sampling(options);
    cx.tools(options);
    cx.tool_choice(options);
    cx.report
}

/// The conversion of one request for one provider: where its input sits, and what was found.
pub(crate) struct Conversion<'p> {
    pub(crate) profile: &'static Profile,
    /// Path of the input in the request; every input path starts here.
    pub(crate) base: &'p Path,
    /// The request text, when the input borrows from it (Bedrock copies payloads from it as is).
    pub(crate) source_text: Option<&'p str>,
    /// Where large payloads are left out of the body as marks, if anywhere.
    pub(crate) splice: Option<&'p Splice<'p>>,
    pub(crate) report: Report,
    /// Where provider fields go in the body, merged once it is built
    /// (`providers/common/fields.rs`).
    pub(crate) placements: Vec<Placement>,
}

/// One element's provider fields and where they go in the body (merged by
/// `providers/common/fields.rs`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Placement {
    /// A JSON Pointer into the body to the object written for the element (`""` for the body).
    pub(crate) at: String,
    /// The fields to merge into it (a few small values: copied rather than borrowed, so a
    /// converted body keeps them without the request's lifetime).
    pub(crate) fields: serde_json::Map<String, Value>,
    /// Where the fields stand in the request, for the message of a conflict
    /// (`/options/provider_fields/fields`, `…/messages/2/providerFields/fields`).
    pub(crate) origin: Path,
}

impl<'p> Conversion<'p> {
    pub(crate) fn new(profile: &'static Profile, base: &'p Path) -> Self {
        Self { profile, base, source_text: None, splice: None, report: Report::default(), placements: Vec::new() }
    }

    /// The conversion of `request`'s input, its large payloads left out as marks where `splice`
    /// says.
    pub(crate) fn of(
        profile: &'static Profile,
        request: &'p ExecuteRequest<'p>,
        splice: Option<&'p Splice<'p>>,
    ) -> Self {
        Self { source_text: request.source_text, splice, ..Self::new(profile, &request.input_path) }
    }

    /// A base64 payload of the request, as the body writes it.
    pub(crate) fn payload(&self, data: &'p str) -> Payload<'p> {
        Payload(data, self.splice)
    }

    /// A base64 payload of the request as a `data:` URL.
    pub(crate) fn data_url(&self, mime: &'static str, data: &'p str) -> DataUrl<'p> {
        DataUrl { mime, data, splice: self.splice }
    }

    pub(crate) fn name(&self) -> &'static str {
        self.profile.name
    }

    pub(crate) fn error(&mut self, diagnostic: Diagnostic) {
        self.report.push(diagnostic);
    }

    /// Content the provider cannot carry at all.
    pub(crate) fn unsupported(&mut self, path: Path, what: &str, instead: &str) {
        let message = format!("{} cannot take {what}; {instead}", self.name());
        self.error(Diagnostic::new(Code::UnsupportedByProvider, path, message));
    }

    /// The `reasoning` option as Anthropic's extended thinking takes it (Anthropic, and Claude on
    /// Bedrock): a budget of at least 1024 tokens and below `max_tokens`, with no temperature but 1,
    /// a `top_p` under 0.95 or a forced tool choice beside it. The budget, or the effort (`None`
    /// when there is neither, or a problem was reported).
    pub(crate) fn thinking(&mut self, options: &ConvertOptions, max_tokens: u64) -> Option<Reasoning> {
        let reasoning = options.reasoning?;
        let name = self.name();
        let mut problems: Vec<(&str, String)> = Vec::new();
        if let Reasoning::BudgetTokens(budget) = reasoning {
            if budget < 1024 {
                problems.push(("reasoning", format!("a thinking budget must be at least 1024 tokens, not {budget}")));
            } else if budget >= max_tokens {
                problems.push((
                    "reasoning",
                    format!(
                        "a thinking budget must be below max_tokens ({max_tokens}), not {budget}; raise max_tokens"
                    ),
                ));
            }
        }
        let rules = [
            (
                options.temperature.is_some_and(|t| (t - 1.0).abs() > f64::EPSILON),
                "temperature",
                "takes temperature 1 only with thinking; set it to 1 or leave it out",
            ),
            (options.top_p.is_some_and(|p| p < 0.95), "top_p", "takes top_p from 0.95 to 1 with thinking"),
            (
                matches!(options.tool_choice, Some(ToolChoice::Any | ToolChoice::Tool { .. })),
                "tool_choice",
                "takes tool_choice auto or none with thinking, not a forced tool call",
            ),
        ];
        for (broken, key, rule) in rules {
            if broken {
                problems.push((key, format!("{name} {rule}")));
            }
        }
        let ok = problems.is_empty();
        for (key, message) in problems {
            self.error(Diagnostic::new(Code::InvalidParameter, option_path(key), message));
        }
        ok.then_some(reasoning)
    }

    /// A reasoning budget for a provider that takes an effort only (`what`: where it goes).
    pub(crate) fn effort_only(&mut self, options: &ConvertOptions) -> Option<Effort> {
        match options.reasoning? {
            Reasoning::Effort(effort) => Some(effort),
            Reasoning::BudgetTokens(_) => {
                let message = format!(
                    "{} takes a reasoning effort, not a budget of thinking tokens; give reasoning \"low\", \"medium\" or \"high\"",
                    self.name()
                );
                self.error(Diagnostic::new(Code::UnsupportedByProvider, option_path("reasoning"), message));
                None
            }
        }
    }

    /// `effort` when the provider takes it (one of `taken`), else an error naming those it takes.
    pub(crate) fn effort_in(&mut self, effort: Effort, taken: &[Effort]) -> Option<Effort> {
        if taken.contains(&effort) {
            return Some(effort);
        }
        let mut message = format!("{} takes a reasoning effort of ", self.name());
        for (i, taken) in taken.iter().enumerate() {
            message.push_str(if i == 0 { "" } else { ", " });
            message.push_str(taken.as_str());
        }
        message.push_str("; got \"");
        message.push_str(effort.as_str());
        message.push('"');
        self.error(Diagnostic::new(Code::UnsupportedByProvider, option_path("reasoning"), message));
        None
    }

    /// Video, for providers that take none.
    pub(crate) fn no_video(&mut self, path: Path) {
        self.unsupported(
            path,
            "video",
            "describe the video in text, send still frames as images, or use bedrock-converse or gemini",
        );
    }

    /// `max_tokens` (default 4096) from the provider's least, `temperature` up to the provider's
    /// highest, `top_p` in `0..=1` (and not with `temperature` where the provider takes one of
    /// them), and non-empty stop sequences, as many as the provider takes. Every converter
    /// starts here, so the `provider_fields` option is placed here too, at the body.
    pub(crate) fn sampling(&mut self, options: &'p ConvertOptions) -> u64 {
        let profile = self.profile;
        self.request_fields(options);
        #[cfg(not(feature = "models"))]
        if let Some(id) = options.model.as_deref() {
            let message = crate::providers::models::NO_TABLE;
            self.error(Diagnostic::new(Code::UnknownModel, option_path("model"), message).received(id));
        }
        let max_tokens = options.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS);
        let least = profile.min_max_tokens.max(1);
        if max_tokens < least || max_tokens > i32::MAX as u64 {
            let whose = if least > 1 { format!(" for {}", self.name()) } else { String::new() };
            self.error(
                Diagnostic::new(
                    Code::InvalidParameter,
                    option_path("max_tokens"),
                    format!("max_tokens must be at least {least}{whose} (and at most {}), not {max_tokens}", i32::MAX),
                )
                .received(max_tokens.to_string()),
            );
        }
        if profile.temperature_or_top_p && options.temperature.is_some() && options.top_p.is_some() {
            let message =
                format!("{} takes temperature or top_p, not both; keep one of them (usually temperature)", self.name());
            self.error(Diagnostic::new(Code::InvalidParameter, option_path("top_p"), message));
        }
        for (name, value, max) in
            [("temperature", options.temperature, profile.max_temperature), ("top_p", options.top_p, 1.0)]
        {
            if let Some(value) = value
                && !(0.0..=max).contains(&value)
            {
                let bound = number_text(max);
                let bound = if profile.legacy_option_wording { trim_point_zeros(&bound) } else { &bound };
                let value = number_text(value);
                let message = format!("{name} must be between 0 and {bound} for {}, not {value}", self.name());
                self.error(
                    Diagnostic::new(Code::InvalidParameter, option_path(name), message)
                        .expected([format!("0..{bound}")])
                        .received(value),
                );
            }
        }
        let stops = options.stop_sequences.len();
        match profile.max_stop_sequences {
            None if stops > 0 => {
                let message = format!(
                    "{} has no stop sequences; remove stop_sequences or use a provider that takes them",
                    self.name()
                );
                self.error(Diagnostic::new(Code::UnsupportedByProvider, option_path("stop_sequences"), message));
            }
            Some(max) if stops > max => {
                let message = if profile.legacy_option_wording {
                    format!("at most {max} stop sequences are allowed, not {stops}")
                } else {
                    format!("{} takes at most {max} stop sequences, not {stops}", self.name())
                };
                self.error(
                    Diagnostic::new(Code::InvalidParameter, option_path("stop_sequences"), message)
                        .limit(max as u64, stops as u64),
                );
            }
            _ => {}
        }
        for (i, stop) in options.stop_sequences.iter().enumerate() {
            if stop.is_empty() {
                self.error(Diagnostic::new(
                    Code::InvalidParameter,
                    option_path("stop_sequences").index(i),
                    "a stop sequence must not be empty",
                ));
            }
        }
        max_tokens
    }

    /// Checks the `tools` option: function tool names by the provider's rule, unique, object
    /// schemas. Returns each tool as the body writes it, in order: a function tool with its schema
    /// (an empty object schema when none is given), and this provider's own tools; another
    /// provider's tool is left out with `provider_item_dropped`.
    pub(crate) fn tools<'a>(&mut self, options: &'a ConvertOptions) -> Vec<Declared<'a>> {
        /// Up to this many tools, a repeated name is found by comparing with the earlier ones.
        const LINEAR: usize = 16;
        let rule = self.profile.tool_name;
        let mut seen = (options.tools.len() > LINEAR).then(|| crate::json::KeySet::with_capacity(options.tools.len()));
        let mut tools = Vec::with_capacity(options.tools.len());
        for (i, entry) in options.tools.iter().enumerate() {
            // Paths are built only for what is reported: per request, they were most of the
            // tools' cost.
            let path = || option_path("tools").index(i);
            let spec = match entry {
                ToolEntry::Function(spec) => spec,
                ToolEntry::Provider(tool) => {
                    if self.writes_for(tool.provider) {
                        tools.push(Declared::Provider(&tool.item));
                    } else {
                        self.drop_tool(path(), tool);
                    }
                    continue;
                }
            };
            let repeated = match &mut seen {
                Some(seen) => !seen.insert(&spec.name),
                None => options.tools[..i].iter().any(|earlier| earlier.spec().is_some_and(|e| e.name == spec.name)),
            };
            if !(rule.holds)(&spec.name) {
                self.bad_tool_name(&spec.name, path().key("name"));
            } else if repeated {
                self.error(
                    Diagnostic::new(
                        Code::InvalidForProvider,
                        path().key("name"),
                        format!("tool '{}' is given twice; tool names must be unique", spec.name),
                    )
                    .received(spec.name.clone()),
                );
            }
            let schema = match &spec.input_schema {
                None => &*EMPTY_SCHEMA,
                // A schema has a few keys: comparing them costs less than hashing one.
                Some(schema @ Value::Object(map))
                    if map.iter().find(|(key, _)| *key == "type").and_then(|(_, v)| v.as_str()) == Some("object") =>
                {
                    schema
                }
                Some(other) => {
                    let json = crate::json::Json::from_value(other);
                    let message = format!(
                        "{} needs a tool's input_schema to be a JSON Schema object with \"type\": \"object\"; got {} {}",
                        self.name(),
                        crate::text::a_or_an(json.type_name()),
                        json.type_name()
                    );
                    self.error(Diagnostic::new(Code::InvalidForProvider, path().key("input_schema"), message));
                    continue;
                }
            };
            tools.push(Declared::Function { spec, schema, index: i });
        }
        tools
    }

    /// A function tool's provider fields, for the object the body holds for it at `at`.
    pub(crate) fn tool_fields(&mut self, spec: &'p ToolSpec, index: usize, at: impl FnOnce() -> String) {
        if let Some(fields) = &spec.provider_fields {
            self.place(fields, at(), option_path("tools").index(index).key("provider_fields"));
        }
    }

    /// The body's tools in the order declared, under `at`: the `k`th a function tool written by
    /// `function(k, spec, schema)`, its provider fields placed at `{at}/{k}`, or this provider's
    /// own tool written by `raw` as given. (Gemini groups its functions: `gemini_tools`.)
    pub(crate) fn wire_tools<T>(
        &mut self,
        tools: Vec<Declared<'p>>,
        at: &str,
        mut function: impl FnMut(usize, &'p ToolSpec, &'p Value) -> T,
        raw: impl Fn(&'p Value) -> T,
    ) -> Vec<T> {
        let mut wire = Vec::with_capacity(tools.len());
        for (k, tool) in tools.into_iter().enumerate() {
            wire.push(match tool {
                Declared::Function { spec, schema, index } => {
                    self.tool_fields(spec, index, || format!("{at}/{k}"));
                    function(k, spec, schema)
                }
                Declared::Provider(tool) => raw(tool),
            });
        }
        wire
    }

    /// The tools the body declares, by the name tool calls and `tool_choice` give them: function
    /// tools, and this provider's own tools that have a name.
    fn declared<'o>(&'o self, options: &'o ConvertOptions) -> impl Iterator<Item = &'o str> {
        options.tools.iter().filter_map(|entry| match entry {
            ToolEntry::Function(spec) => Some(spec.name.as_str()),
            ToolEntry::Provider(tool) if self.writes_for(tool.provider) => {
                tool.item.get("name").and_then(Value::as_str)
            }
            ToolEntry::Provider(_) => None,
        })
    }

    /// Whether the body declares any tool: a function tool or one of this provider's own.
    pub(crate) fn declares_tools(&self, options: &ConvertOptions) -> bool {
        options.tools.iter().any(|entry| match entry {
            ToolEntry::Function(_) => true,
            ToolEntry::Provider(tool) => self.writes_for(tool.provider),
        })
    }

    /// The tool choice to send: `None` when none was asked, or when no tools are given and the
    /// choice is `auto` or `none` (what happens without tools anyway; providers refuse a tool
    /// choice without tools). `any` or a named tool without that tool is an error.
    pub(crate) fn tool_choice<'o>(&mut self, options: &'o ConvertOptions) -> Option<&'o ToolChoice> {
        let choice = options.tool_choice.as_ref()?;
        let any = self.declares_tools(options);
        let problem = match choice {
            ToolChoice::Auto | ToolChoice::None if !any => return None,
            ToolChoice::Any if !any => "tool_choice 'any' needs tools; give tools or leave tool_choice out".to_string(),
            ToolChoice::Tool { name } if !self.declared(options).any(|declared| declared == name) => {
                format!("tool_choice names {}, which is not one of tools", quote(name))
            }
            ToolChoice::Auto | ToolChoice::None | ToolChoice::Any | ToolChoice::Tool { .. } => return Some(choice),
        };
        let names: Vec<&str> = self.declared(options).collect();
        self.error(Diagnostic::new(Code::InvalidParameter, option_path("tool_choice"), problem).expected(names));
        None
    }

    /// A structured-output setting the provider has no place for (`name`, `description`,
    /// `strict`): the schema is still sent, and a `field_ignored` warning says what is not.
    pub(crate) fn response_format_unsent(&mut self, format: &ResponseFormat, unsent: &[&str]) {
        for &key in unsent {
            let given = match key {
                "name" => format.name.is_some(),
                "description" => format.description.is_some(),
                _ => format.strict.is_some(),
            };
            if given {
                let message = format!("{} has no place for response_format.{key}; it is not sent", self.name());
                self.error(Diagnostic::new(Code::FieldIgnored, option_path("response_format").key(key), message));
            }
        }
    }

    pub(super) fn bad_tool_name(&mut self, name: &str, path: Path) {
        let message =
            format!("{} tool names must be {}; {} is not", self.name(), self.profile.tool_name.says, quote(name));
        self.error(Diagnostic::new(Code::InvalidForProvider, path, message).received(name));
    }

    /// A tool call id (of a call or of a tool result), by the provider's rule if it has one.
    pub(crate) fn call_id(&mut self, id: &str, path: &Path) {
        let Some(rule) = self.profile.tool_call_id else { return };
        if !(rule.holds)(id) {
            let message = format!("{} tool call ids must be {}; {} is not", self.name(), rule.says, quote(id));
            self.error(Diagnostic::new(Code::InvalidForProvider, path.clone(), message).received(id));
        }
    }

    /// A web URL source the provider fetches itself: `https`/`http` pass; `s3://` is refused.
    pub(crate) fn web_url(&mut self, url: &str, path: Path, what: &str) -> bool {
        match url::check(url) {
            Ok(Scheme::S3) => {
                let message = format!(
                    "{} cannot read s3:// URLs for {what}s; use an https URL (a presigned S3 URL works) or base64 data",
                    self.name()
                );
                self.error(Diagnostic::new(Code::UrlNotSupportedByProvider, path, message).received(url));
                false
            }
            // Validation accepted only https, http and s3.
            Ok(_) | Err(_) => true,
        }
    }

    /// A URL where the provider takes none.
    pub(crate) fn no_url(&mut self, url: &str, path: Path, what: &str) {
        let message = format!("{} cannot take a URL for {what}s; send the bytes as base64 data", self.name());
        self.error(Diagnostic::new(Code::UrlNotSupportedByProvider, path, message).received(url));
    }

    /// A count limit, reported once at the first block over it.
    pub(crate) fn count(&mut self, n: u64, max: u64, what: &str, path: &dyn Fn() -> Path) {
        if n == max + 1 {
            let message = format!("{} accepts at most {max} {what}s in one request; this is {what} {n}", self.name());
            self.error(Diagnostic::new(Code::ProviderLimit, path(), message).limit(max, n));
        }
    }

    /// A decoded size limit of one base64 source.
    pub(crate) fn size(&mut self, source: &Source<'_>, max: u64, what: &str, path: &dyn Fn() -> Path) {
        if let Some(size) = source.decoded_len() {
            let size = size as u64;
            if size > max {
                let (size_text, max_text) = crate::units::bytes_against(size, max);
                let message = format!(
                    "this {what} is {size_text}; {} takes {what}s of at most {max_text}. Shrink it or {}",
                    self.name(),
                    self.profile.too_large
                );
                self.error(
                    Diagnostic::new(Code::ProviderLimit, path().key("source").key("data"), message).limit(max, size),
                );
            }
        }
    }

    /// A limit on the total of something over the request, reported at the input.
    pub(crate) fn total(&mut self, total: u64, max: u64, what: &str) {
        if total > max {
            let (total_text, max_text) = crate::units::bytes_against(total, max);
            let message = format!(
                "this request has {total_text} of {what}; {} takes at most {max_text} of {what} in one request. Send some of it by URL or in several requests",
                self.name()
            );
            self.error(Diagnostic::new(Code::ProviderLimit, self.base.clone(), message).limit(max, total));
        }
    }
}

/// A tool as the body writes it, for the provider being written.
pub(crate) enum Declared<'a> {
    /// A function tool: its spec, its schema (an empty object schema when none is given) and its
    /// index in the `tools` option.
    Function { spec: &'a ToolSpec, schema: &'a Value, index: usize },
    /// This provider's own tool, exactly as it writes it.
    Provider(&'a Value),
}

/// `text.trim_end_matches(".0")`, without the reverse substring searcher that call links into
/// the npm `.wasm` (1 KB raw).
fn trim_point_zeros(mut text: &str) -> &str {
    while let Some(rest) = text.strip_suffix(".0") {
        text = rest;
    }
    text
}

/// Default `max_tokens`, the value ml-commons' connectors use.
pub const DEFAULT_MAX_TOKENS: u64 = 4096;

/// Path of a conversion option, for option errors.
pub(crate) fn option_path(name: &str) -> Path {
    Path::root().key("options").key(name)
}

/// A float as JSON writes it, for messages (`serde_json`'s formatter instead of `core::fmt`'s,
/// which would add its float tables to the WebAssembly build).
pub(crate) fn number_text(value: f64) -> String {
    serde_json::Number::from_f64(value)
        .map_or_else(|| "a value that is not a finite number".to_string(), |n| n.to_string())
}

#[cfg(test)]
mod tests {
    #[test]
    fn trim_point_zeros_is_trim_end_matches() {
        for text in ["1.0", "1.0.0", "1.5", "10", ".0", "", "0.00", "2.0x", "1.0.0.0"] {
            assert_eq!(super::trim_point_zeros(text), text.trim_end_matches(".0"), "{text}");
        }
    }

    #[test]
    fn empty_schema_is_an_object_without_properties() {
        let text = serde_json::to_string(&*super::EMPTY_SCHEMA).unwrap();
        assert_eq!(text, r#"{"type":"object","properties":{}}"#);
    }
}
