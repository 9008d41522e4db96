//! The standard request being built from a provider's body ([`Import`]), and the steps every
//! importer shares.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::json::type_name;
use crate::path::Path;
use crate::providers::common::response::StateItems;
use crate::providers::id::ProviderId;

use super::media::Media;

/// A provider body being read into the standard form.
pub(crate) struct Import {
    /// Whose body it is.
    pub(crate) provider: ProviderId,
    /// Errors and warnings, at paths into the provider's body.
    pub(crate) report: Report,
    /// The standard messages built so far.
    pub(crate) messages: Vec<Value>,
    /// The conversion options, as the options reader takes them (`snake_case` keys).
    pub(crate) options: Map<String, Value>,
    /// Places in the standard request (or `/options/…`) and where in the body each came from.
    pub(crate) origins: Vec<(Path, Path)>,
    /// Whether the first message's content was a plain string: alone, it is text input.
    plain: bool,
    /// A provider message has begun (here) and no standard message has been opened for it yet.
    fresh: Option<Path>,
    /// The reasoning state of the current message, and where each of its items came from.
    state: StateItems,
    state_from: Vec<Path>,
    /// The provider fields of the current message and its elements, and where each came from.
    pub(super) fields: PendingFields,
}

/// Provider fields read for the current message, placed against its elements when it is done.
#[derive(Default)]
pub(crate) struct PendingFields {
    /// The message object's own.
    pub(super) message: Map<String, Value>,
    /// Each element's: whose (content block `j` or call `k`), the key and value, and where in the
    /// body it was.
    pub(super) elements: Vec<(Element, String, Value, Path)>,
    /// Where each message field was.
    pub(super) message_from: Vec<Path>,
}

/// An element of the standard message being built, before its calls' indexes are known.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Element {
    Block(usize),
    Call(usize),
}

/// What a reasoning item is attached to: the element the provider's part or item gives.
#[derive(Clone, Copy)]
pub(crate) enum Next {
    /// The next content block.
    Content,
    /// The next tool call.
    Call,
    /// Whatever element comes next (the last one when none does).
    Any,
}

impl Import {
    pub(crate) fn new(provider: ProviderId) -> Self {
        Self {
            provider,
            report: Report::default(),
            messages: Vec::new(),
            options: Map::new(),
            origins: Vec::new(),
            plain: false,
            fresh: None,
            state: StateItems::default(),
            state_from: Vec::new(),
            fields: PendingFields::default(),
        }
    }

    /// Left out with a warning: `what` has no place in the standard input or its options.
    pub(crate) fn dropped(&mut self, at: Path, what: &str) {
        self.report.push(Diagnostic::new(
            Code::ImportDropped,
            at,
            format!("{what} has no place in the standard input or its options; it is left out"),
        ));
    }

    /// Reasoning outside an assistant turn, left out with a warning: only an assistant message
    /// carries reasoning state.
    pub(crate) fn reasoning(&mut self, at: Path) {
        self.report.push(Diagnostic::new(
            Code::ImportDropped,
            at,
            "reasoning outside an assistant turn has no place in the standard input; it is left out",
        ));
    }

    /// A provider block of reasoning (a thinking block, a thought part, a reasoning item), read
    /// from `at`: reasoning state of the assistant message, written back before the element that
    /// follows it.
    pub(crate) fn reasoning_block(&mut self, block: Value, at: &Path) {
        self.continue_as("assistant", at);
        self.state.block(block);
        self.state_from.push(at.clone());
    }

    /// `key: value` (a signature, an item id) read from `at`: reasoning state attached to the
    /// element of the assistant message that comes `next`.
    pub(crate) fn reasoning_on(&mut self, next: Next, key: &str, value: &str, at: &Path) {
        self.continue_as("assistant", at);
        let place = match next {
            Next::Content => self.state.next_text(),
            Next::Call => self.state.next_call(),
            Next::Any => self.state.next(),
        };
        self.state.on(place, key, value);
        self.state_from.push(at.clone());
    }

    /// The current message's reasoning state, placed against its elements now that all are known.
    fn settle(&mut self) {
        self.settle_fields();
        let state = std::mem::take(&mut self.state);
        let from = std::mem::take(&mut self.state_from);
        let Some(state) = state.into_state(self.provider) else { return };
        let here = self.current();
        if self.empty_assistant() && state.items.iter().all(|item| item.get("block").is_some()) {
            // Reasoning blocks or items with nothing after them in their turn (a Responses turn
            // of reasoning items alone): the provider's own items, carried where they stood.
            let provider = self.provider.as_str();
            for (item, at) in state.items.into_iter().zip(from) {
                let block = item.get("block").cloned().unwrap_or_default();
                self.block(
                    json!({"type": "provider_item", "provider": provider, "item": block}),
                    &at,
                    &[("item", &at)],
                );
            }
            return;
        }
        if self.empty_assistant() {
            // Signatures or ids with no element to go on: no provider takes them back alone.
            self.messages.pop();
            self.origins.retain(|(place, _)| !place.segments().starts_with(here.segments()));
            // Each item left out is named where it was.
            for at in from {
                self.dropped(at, "an assistant turn with nothing but reasoning");
            }
            return;
        }
        let Some(message) = self.messages.last_mut().and_then(Value::as_object_mut) else { return };
        message.insert("reasoningState".into(), serde_json::to_value(&state).unwrap_or_default());
        let items = here.key("reasoningState").key("items");
        if let Some(first) = from.first() {
            self.origins.push((here.key("reasoningState"), first.clone()));
        }
        for (n, at) in from.into_iter().enumerate() {
            self.origins.push((items.index(n), at));
        }
    }

    /// An error: `what` cannot be carried, and leaving it out would change the conversation.
    pub(crate) fn unsupported(&mut self, at: Path, what: &str, instead: &str) {
        self.report.push(Diagnostic::new(
            Code::ImportUnsupported,
            at,
            format!("{what} cannot be carried by the standard input, and leaving it out would change the conversation; {instead}"),
        ));
    }

    /// A required field is absent.
    pub(crate) fn missing(&mut self, at: Path, key: &str, of: &str) {
        self.report.push(Diagnostic::new(Code::MissingField, at, format!("{of} needs '{key}'")));
    }

    /// A field of the wrong JSON type.
    pub(crate) fn wrong_type(&mut self, at: Path, key: &str, expected: &'static str, found: &Value) {
        self.report.push(
            Diagnostic::new(Code::InvalidFieldType, at, format!("'{key}' must be {expected}"))
                .expected([expected])
                .received(type_name(found)),
        );
    }

    /// A `type` this importer does not know.
    pub(crate) fn unknown_type(&mut self, at: Path, found: &str, known: &[&str]) {
        self.report.push(
            Diagnostic::new(
                Code::UnsupportedContentType,
                at,
                format!("part type '{found}' is not one of the {} part types", self.provider.display_name()),
            )
            .expected(known.iter().copied())
            .received(found),
        );
    }

    /// The body (or a part of it) as an object; anything else is reported.
    pub(crate) fn object<'v>(&mut self, value: &'v Value, at: &Path, what: &str) -> Option<&'v Map<String, Value>> {
        if let Value::Object(object) = value {
            Some(object)
        } else {
            self.report.push(
                Diagnostic::new(Code::InvalidFieldType, at.clone(), format!("{what} must be an object"))
                    .expected(["object"])
                    .received(type_name(value)),
            );
            None
        }
    }

    /// Field `key` of `object`, required.
    pub(crate) fn field<'v>(
        &mut self,
        object: &'v Map<String, Value>,
        at: &Path,
        key: &str,
        of: &str,
    ) -> Option<&'v Value> {
        match object.get(key) {
            None | Some(Value::Null) => {
                self.missing(at.key(key), key, of);
                None
            }
            Some(value) => Some(value),
        }
    }

    /// The request's required list of turns (`messages`, `contents`), each given to `read` with its
    /// path.
    pub(crate) fn each_turn(
        &mut self,
        object: &Map<String, Value>,
        key: &str,
        of: &str,
        mut read: impl FnMut(&mut Self, &Value, &Path),
    ) {
        let root = Path::root();
        let Some(turns) = self.field(object, &root, key, of) else { return };
        let at = root.key(key);
        let Some(turns) = self.as_array(turns, &at, key) else { return };
        for (i, turn) in turns.iter().enumerate() {
            read(self, turn, &at.index(i));
        }
    }

    /// Field `key` of `object`, a string, required.
    pub(crate) fn string<'v>(
        &mut self,
        object: &'v Map<String, Value>,
        at: &Path,
        key: &str,
        of: &str,
    ) -> Option<&'v str> {
        let value = self.field(object, at, key, of)?;
        self.as_str(value, &at.key(key), key)
    }

    /// Field `key` of `object`, a string, if present.
    pub(crate) fn optional_string<'v>(
        &mut self,
        object: &'v Map<String, Value>,
        at: &Path,
        key: &str,
    ) -> Option<&'v str> {
        match object.get(key) {
            None | Some(Value::Null) => None,
            Some(value) => self.as_str(value, &at.key(key), key),
        }
    }

    /// A string, or a report that it is not one.
    pub(crate) fn as_str<'v>(&mut self, value: &'v Value, at: &Path, key: &str) -> Option<&'v str> {
        if let Value::String(s) = value {
            Some(s)
        } else {
            self.wrong_type(at.clone(), key, "a string", value);
            None
        }
    }

    /// An array, or a report that it is not one.
    pub(crate) fn as_array<'v>(&mut self, value: &'v Value, at: &Path, key: &str) -> Option<&'v [Value]> {
        if let Value::Array(items) = value {
            Some(items)
        } else {
            self.wrong_type(at.clone(), key, "an array", value);
            None
        }
    }

    /// Every key of `object` but `known` is left out with a warning (`null`, `[]` and `{}` carry
    /// nothing and are passed over).
    pub(crate) fn other_keys(&mut self, object: &Map<String, Value>, at: &Path, known: &[&str]) {
        for (key, value) in object {
            if !known.contains(&key.as_str()) {
                self.other_key(key, value, at);
            }
        }
    }

    /// One key this importer has no place for, left out with a warning (reasoning and the model
    /// with their own words).
    pub(crate) fn other_key(&mut self, key: &str, value: &Value, at: &Path) {
        if carries_nothing(value) {
            return;
        }
        let at = at.key(key);
        match key {
            "model" | "modelId" if value.is_string() => self.option("model", value.clone(), &at),
            _ => self.dropped(at, &format!("{} field '{key}'", self.provider.display_name())),
        }
    }

    /// A provider message of blocks begins: its first block opens a standard message.
    pub(crate) fn begin(&mut self, at: &Path) {
        self.fresh = Some(at.clone());
    }

    /// A provider message of `role` that ended without a block still gets its (empty) standard
    /// message, which validation then reports.
    pub(crate) fn end(&mut self, role: &str) {
        if let Some(at) = self.fresh.take() {
            if role == "assistant" {
                self.dropped(at, "an assistant turn with nothing but what is reported left out");
            } else {
                self.open(role, &at);
            }
        }
    }

    /// Goes on in the current standard message if it has `role` and the provider message is the
    /// same; opens one otherwise (each tool result opens its own).
    pub(crate) fn continue_as(&mut self, role: &str, at: &Path) {
        if let Some(message) = self.fresh.take() {
            // A tool result is its own message; the provider message's place is the rest's.
            self.open(role, if role == "tool" { at } else { &message });
            return;
        }
        let current = self.messages.last().and_then(|m| m["role"].as_str()).unwrap_or_default();
        if current != role || role == "tool" {
            self.open(role, at);
        }
    }

    /// Whether the current message is an assistant message with no content and no calls yet.
    fn empty_assistant(&self) -> bool {
        self.messages.last().is_some_and(|m| {
            m["role"] == "assistant"
                && m["content"].as_array().is_some_and(Vec::is_empty)
                && m.get("toolCalls").is_none()
        })
    }

    /// Starts a standard message of `role`, read from `at`, unless it is an assistant message and
    /// the current one is an assistant message holding only reasoning so far, which it continues.
    pub(crate) fn open_after_reasoning(&mut self, role: &str, at: &Path) {
        let reasoning_only = self.empty_assistant() && !self.state_from.is_empty();
        if role != "assistant" || !reasoning_only {
            self.open(role, at);
        }
    }

    /// Starts a standard message of `role`, read from `at`.
    pub(crate) fn open(&mut self, role: &str, at: &Path) {
        self.settle();
        self.fresh = None;
        let index = self.messages.len();
        self.messages.push(json!({"role": role, "content": []}));
        self.origins.push((input().index(index), at.clone()));
    }

    /// The path of the current message in the standard request.
    pub(super) fn current(&self) -> Path {
        input().index(self.messages.len().saturating_sub(1))
    }

    fn last(&mut self) -> &mut Map<String, Value> {
        if self.messages.is_empty() {
            self.messages.push(json!({"role": "user", "content": []}));
        }
        self.messages.last_mut().and_then(Value::as_object_mut).expect("messages are objects")
    }

    /// Appends a text block read from `at` (an empty string carries nothing and is passed over).
    pub(crate) fn text(&mut self, text: &str, at: &Path) {
        if text.is_empty() {
            return;
        }
        self.block(json!({"type": "text", "text": text}), at, &[("text", at)]);
    }

    /// Appends a JSON result read from `at` to the current (tool) message: a text block holding
    /// the value's JSON text, the message marked `"resultFormat": "json"`.
    pub(crate) fn json(&mut self, value: &Value, at: &Path) {
        self.block(json!({"type": "text", "text": crate::json::compact(value)}), at, &[("text", at)]);
        self.last().insert("resultFormat".into(), Value::from("json"));
    }

    /// A message's content given as a plain string rather than blocks.
    pub(crate) fn plain_text(&mut self, text: &str, at: &Path) {
        self.plain = self.messages.len() == 1;
        self.text(text, at);
    }

    /// Appends a media block read from `at`; `data_at` is where its data or URL is.
    pub(crate) fn media(
        &mut self,
        media: &Media,
        data: &str,
        base64: bool,
        name: Option<&str>,
        at: &Path,
        data_at: &Path,
    ) {
        let source = json!({"type": if base64 { "base64" } else { "url" }, "format": media.format, "data": data});
        let mut block = json!({"type": media.kind, "source": source});
        if let Some(name) = name.filter(|_| media.kind == "document") {
            block["name"] = Value::String(name.to_string());
        }
        self.block(block, at, &[("source", data_at)]);
    }

    /// Appends a block read from `at`, with the places of its fields.
    pub(crate) fn block(&mut self, block: Value, at: &Path, fields: &[(&str, &Path)]) {
        let message = self.current();
        let content = self.last().get_mut("content").and_then(Value::as_array_mut).expect("content is an array");
        let index = content.len();
        content.push(block);
        self.state.content();
        let here = message.key("content").index(index);
        for (key, from) in fields {
            self.origins.push((here.key(key), (*from).clone()));
        }
        self.origins.push((here, at.clone()));
    }

    /// Appends a tool call read from `at` (`arguments`: the JSON object as text).
    pub(crate) fn call(&mut self, id: &str, name: &str, arguments: &str, at: &Path, fields: &CallFields) {
        let message = self.current();
        let calls = self.last().entry("toolCalls").or_insert_with(|| json!([]));
        let calls = calls.as_array_mut().expect("toolCalls is an array");
        let index = calls.len();
        calls.push(json!({"id": id, "type": "function", "function": {"name": name, "arguments": arguments}}));
        self.state.call();
        let here = message.key("toolCalls").index(index);
        self.origins.push((here.key("id"), fields.id.clone()));
        self.origins.push((here.key("function").key("name"), fields.name.clone()));
        self.origins.push((here.key("function").key("arguments"), fields.arguments.clone()));
        self.origins.push((here, at.clone()));
    }

    /// Marks the current (tool) message as answering call `id`, read from `at`.
    pub(crate) fn answers(&mut self, id: &str, at: &Path) {
        let message = self.current();
        self.last().insert("toolCallId".into(), Value::String(id.to_string()));
        self.origins.push((message.key("toolCallId"), at.clone()));
    }

    /// Sets conversion option `key` (its `snake_case` name), read from `at`.
    pub(crate) fn option(&mut self, key: &str, value: Value, at: &Path) {
        self.options.insert(key.to_string(), value);
        self.origins.push((Path::root().key("options").key(key), at.clone()));
    }

    /// Records that `standard`, a value copied as it is (a schema), came from `at`, and each place
    /// inside it from the same place under `at`: a problem found inside is shown where it is.
    pub(crate) fn origins_within(&mut self, standard: &Path, at: &Path, value: &Value) {
        match value {
            Value::Object(map) => {
                for (key, v) in map {
                    self.origins_within(&standard.key(key), &at.key(key), v);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    self.origins_within(&standard.index(i), &at.index(i), v);
                }
            }
            _ => {}
        }
        self.origins.push((standard.clone(), at.clone()));
    }

    /// Records that `/options/<key>/<index>` came from `at`.
    pub(crate) fn option_item(&mut self, key: &str, index: usize, at: &Path) {
        self.origins.push((Path::root().key("options").key(key).index(index), at.clone()));
    }

    /// Where a place of the standard request (or of the options) came from in the provider's
    /// body: the longest recorded prefix; the body itself when nothing was recorded.
    pub(crate) fn origin(&self, standard: &Path) -> Path {
        origin(&self.origins, standard)
    }
}

/// Where the calls' fields were read from.
pub(crate) struct CallFields {
    pub(crate) id: Path,
    pub(crate) name: Path,
    pub(crate) arguments: Path,
}

/// `/input`.
pub(crate) fn input() -> Path {
    Path::root().key("input")
}

/// Where `standard` came from, by the longest recorded prefix (see [`Import::origin`]).
pub(crate) fn origin(origins: &[(Path, Path)], standard: &Path) -> Path {
    let segments = standard.segments();
    origins
        .iter()
        .filter(|(place, _)| segments.starts_with(place.segments()))
        .max_by_key(|(place, _)| place.segments().len())
        .map_or_else(Path::root, |(_, from)| from.clone())
}

/// Whether a value carries nothing worth a warning when left out.
pub(crate) fn carries_nothing(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::Array(items) => items.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// Tool call arguments as the standard form holds them: the JSON object's text.
pub(crate) fn arguments_text(value: &Value) -> String {
    crate::json::compact(value)
}

impl Import {
    /// Checks that tool calls and results pair up as every provider requires: each result answers
    /// a call of the assistant message before it, once, and each call is answered before the next
    /// user or assistant message (the body's own problem, reported where it is).
    pub(crate) fn pair(&mut self) {
        self.settle();
        let mut open: Vec<(String, Path)> = Vec::new();
        let mut problems = Vec::new();
        for (i, message) in self.messages.iter().enumerate() {
            let here = input().index(i);
            match message["role"].as_str() {
                Some("tool") => {
                    let Some(id) = message["toolCallId"].as_str() else { continue };
                    match open.iter().position(|(open_id, _)| open_id == id) {
                        Some(k) => {
                            open.remove(k);
                        }
                        None => problems.push(Diagnostic::new(
                            Code::UnmatchedToolResult,
                            self.origin(&here.key("toolCallId")),
                            format!("this tool result answers no tool call '{id}' of the assistant turn before it"),
                        )),
                    }
                }
                Some("system") => {}
                role => {
                    problems.extend(open.drain(..).map(|(id, at)| unanswered(&id, at)));
                    if role == Some("assistant") {
                        let calls = message.get("toolCalls").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
                        for (k, call) in calls.iter().enumerate() {
                            let id = call["id"].as_str().unwrap_or_default().to_string();
                            open.push((id, self.origin(&here.key("toolCalls").index(k).key("id"))));
                        }
                    }
                }
            }
        }
        problems.extend(open.drain(..).map(|(id, at)| unanswered(&id, at)));
        for problem in problems {
            self.report.push(problem);
        }
    }

    /// The standard request: `{"input": ...}`, a lone user message written as a plain string as
    /// text input, any other conversation as messages, which it takes (`json!` would copy them).
    pub(crate) fn request(&mut self) -> Value {
        self.settle();
        let text = match self.messages.as_slice() {
            // A message with provider fields stays a message: text input has no place for them.
            [only] if self.plain && only["role"] == "user" && only.get("providerFields").is_none() => {
                match only["content"].as_array() {
                    Some(blocks) if blocks.len() == 1 && blocks[0]["type"] == "text" => blocks[0]["text"].as_str(),
                    _ => None,
                }
            }
            _ => None,
        };
        if let Some(text) = text {
            let text = text.to_string();
            let from = self.origin(&input().index(0).key("content").index(0).key("text"));
            self.origins.push((input(), from));
            return json!({"input": text});
        }
        let mut request = Map::new();
        if !self.messages.is_empty() {
            request.insert("input".into(), Value::Array(std::mem::take(&mut self.messages)));
        }
        Value::Object(request)
    }
}

fn unanswered(id: &str, at: Path) -> Diagnostic {
    Diagnostic::new(
        Code::UnansweredToolCall,
        at,
        format!(
            "tool call '{id}' is not answered by a tool result in the next turn; every provider refuses such a conversation"
        ),
    )
}
