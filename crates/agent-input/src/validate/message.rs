//! contract §3 Messages: a message's `role`, its `content` as its role requires, an assistant's
//! `toolCalls` (each read in `tool_call`), a tool message's `toolCallId`, and the role of the
//! last message.

use std::borrow::Cow;

use crate::json::{Document, Json, type_name};
use crate::model::{ContentBlock, Message, MessageFields, ProviderFields, ReasoningState, Role, java_trim};
use crate::path::Loc;

use super::diagnostics::{self, Subject};
use super::validator::{Validator, fields};

impl Validator<'_> {
    /// The messages of a messages input, each checked, then the last one's role.
    pub(super) fn messages<'a>(&mut self, items: &'a [Json<'_>], loc: Loc<'_>) -> Option<Vec<Message<'a>>> {
        let mut messages = Vec::with_capacity(items.len());
        let mut all = true;
        for (i, item) in items.iter().enumerate() {
            match self.message(item, loc.index(i)) {
                Some(message) => messages.push(message),
                None => all = false,
            }
        }
        self.check_last_role(items, loc);
        all.then_some(messages)
    }

    fn check_last_role(&mut self, items: &[Json<'_>], loc: Loc<'_>) {
        let last = items.len() - 1;
        let Some(Json::String(role)) = items[last].get("role") else { return };
        if java_trim(role).is_empty() {
            return;
        }
        let role = Role::parse(role.as_ref());
        let allowed = match role {
            Role::User | Role::Tool => true,
            Role::Assistant => self.options.allow_prefill,
            Role::System | Role::Other(_) => false,
        };
        if !allowed {
            let at = loc.index(last).key("role").to_path();
            self.push(diagnostics::last_message_role(at, role.as_str(), self.options.allow_prefill));
        }
    }

    fn message<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<Message<'a>> {
        let object = value.as_object()?;
        let role_loc = loc.key("role");
        let role = match object.get("role") {
            Some(Json::String(role)) if !java_trim(role).is_empty() => Some(Role::parse(role.as_ref())),
            Some(Json::String(_)) => {
                self.push(diagnostics::empty_role(role_loc.to_path()));
                None
            }
            Some(other) => {
                self.push(diagnostics::role_not_a_string(role_loc.to_path(), type_name(other)));
                None
            }
            None => {
                self.push(diagnostics::missing_role(role_loc.to_path()));
                None
            }
        };

        if let Some(role) = &role {
            let known: &[&str] = match role {
                Role::Assistant => &["role", "content", "toolCalls", "reasoningState", "providerFields"],
                Role::Tool => &["role", "content", "toolCallId", "resultFormat", "providerFields"],
                _ => &["role", "content", "providerFields"],
            };
            self.ignore_unknown_keys(object, loc, known, Subject::Message(role));
        }

        // content
        let content_loc = loc.key("content");
        let mut content_ok = true;
        let content_value = object.get("content");
        let content = match content_value {
            None | Some(Json::Null) => None,
            Some(Json::Array(items)) => {
                if items.len() > self.options.limits.max_blocks {
                    self.too_many(content_loc, items.len(), self.options.limits.max_blocks, "content blocks");
                    content_ok = false;
                    None
                } else {
                    let mut blocks = Vec::with_capacity(items.len());
                    for (j, item) in items.iter().enumerate() {
                        let block_loc = content_loc.index(j);
                        match self.nested_block(item, block_loc) {
                            Some(block) => blocks.push(block),
                            None => content_ok = false,
                        }
                    }
                    Some(blocks)
                }
            }
            Some(other) => {
                self.wrong_type(content_loc, "'content'", "array", other);
                content_ok = false;
                None
            }
        };
        let content_present = content_value.is_some_and(|c| !c.is_null());

        // toolCalls (assistant only)
        let mut calls_ok = true;
        let calls_value = object.get("toolCalls");
        let tool_calls = if role == Some(Role::Assistant) {
            match calls_value {
                None | Some(Json::Null) => Vec::new(),
                Some(Json::Array(items)) => {
                    let calls_loc = loc.key("toolCalls");
                    let mut calls = Vec::with_capacity(items.len());
                    for (k, item) in items.iter().enumerate() {
                        match self.tool_call(item, calls_loc.index(k)) {
                            Some(call) => calls.push(call),
                            None => calls_ok = false,
                        }
                    }
                    calls
                }
                Some(other) => {
                    self.wrong_type(loc.key("toolCalls"), "'toolCalls'", "array", other);
                    calls_ok = false;
                    Vec::new()
                }
            }
        } else {
            Vec::new()
        };
        let has_calls = calls_value.and_then(Json::as_array).is_some_and(|a| !a.is_empty());

        // toolCallId (tool only)
        let mut tool_call_id = None;
        let mut id_ok = true;
        if role == Some(Role::Tool) {
            match self.required_nonblank(object, "toolCallId", loc, "a tool message") {
                Some(id) => tool_call_id = Some(Cow::Borrowed(id)),
                None => id_ok = false,
            }
        }

        // resultFormat (tool only): each text block holds a JSON value.
        let mut json_result = false;
        if role == Some(Role::Tool) {
            match object.get("resultFormat") {
                None | Some(Json::Null) => {}
                Some(Json::String(format)) if format.as_ref() == "json" => {
                    json_result = true;
                    for (j, block) in content.iter().flatten().enumerate() {
                        // Parsed for real, as tool call arguments are: providers decode it.
                        if let ContentBlock::Text(text) = block
                            && Document::parse(text).is_err()
                        {
                            let at = content_loc.index(j).key("text").to_path();
                            self.push(diagnostics::result_not_json(at, text));
                            id_ok = false;
                        }
                    }
                }
                Some(other) => {
                    // A string as itself, another value by its type.
                    let found = other.as_str().unwrap_or_else(|| type_name(other));
                    self.push(diagnostics::invalid_result_format(loc.key("resultFormat").to_path(), found));
                    id_ok = false;
                }
            }
        }

        // Required content by role.
        let content_empty = content.as_ref().is_some_and(Vec::is_empty)
            || content_value.and_then(Json::as_array).is_some_and(<[Json<'_>]>::is_empty);
        let needs_content = match role {
            Some(Role::Assistant) => !has_calls,
            Some(_) => true,
            None => false,
        };
        if let Some(role) = role.as_ref().filter(|_| needs_content && content_ok) {
            if !content_present {
                self.push(diagnostics::missing_content(content_loc.to_path(), role));
                content_ok = false;
            } else if content_empty {
                self.push(diagnostics::empty_content(content_loc.to_path(), role));
                content_ok = false;
            }
        }

        let (reasoning_state, state_ok) = match (&role, object.get("reasoningState")) {
            (Some(Role::Assistant), Some(value)) => self.reasoning_state(value, loc.key("reasoningState")),
            _ => (None, true),
        };

        let (provider_fields, fields_ok) = match object.get("providerFields") {
            Some(value) => self.provider_fields(value, loc.key("providerFields")),
            None => (None, true),
        };

        let role = role?;
        if !(content_ok && calls_ok && id_ok && state_ok && fields_ok) {
            return None;
        }
        Some(Message {
            role,
            content: content.unwrap_or_default(),
            tool_calls,
            tool_call_id,
            json_result,
            reasoning_state,
            provider_fields,
        })
    }

    /// A message's `providerFields`: `{"provider", "fields"?, "items"?: [{"on", "fields"}]}`, the
    /// fields kept as given; `null` counts as absent.
    fn provider_fields(&mut self, value: &Json<'_>, loc: Loc<'_>) -> (Option<MessageFields>, bool) {
        let object = match value {
            Json::Null => return (None, true),
            Json::Object(object) => object,
            other => {
                self.wrong_type(loc, "'providerFields'", "object", other);
                return (None, false);
            }
        };
        self.ignore_unknown_keys(object, loc, &["provider", "fields", "items"], Subject::ProviderFields);
        let provider = self.record(fields(object, loc, "the provider fields").str("provider"));
        let mut ok = provider.is_some();
        let message = match object.get("fields") {
            None | Some(Json::Null) => None,
            Some(value) => {
                let fields = self.fields_object(value, loc.key("fields"));
                ok &= fields.is_some();
                fields
            }
        };
        let mut items = Vec::new();
        match object.get("items") {
            None | Some(Json::Null) => {}
            Some(Json::Array(list)) => {
                let list_loc = loc.key("items");
                for (k, item) in list.iter().enumerate() {
                    let at = list_loc.index(k);
                    match self.fields_item(item, at) {
                        Some(item) => items.push(item),
                        None => ok = false,
                    }
                }
            }
            Some(other) => {
                self.wrong_type(loc.key("items"), "'items'", "array", other);
                ok = false;
            }
        }
        let Some(provider) = provider.filter(|_| ok) else { return (None, false) };
        let Some(provider) = crate::ProviderId::parse(provider) else {
            self.push(diagnostics::unknown_provider(loc.key("provider").to_path(), provider, "the fields came from"));
            return (None, false);
        };
        let fields = MessageFields {
            message: message.map(|fields| ProviderFields { provider, fields }),
            items: items.into_iter().map(|(on, fields)| (on, ProviderFields { provider, fields })).collect(),
        };
        (Some(fields), true)
    }

    /// One item of `providerFields.items`: `{"on": index, "fields": object}`.
    fn fields_item(
        &mut self,
        item: &Json<'_>,
        at: Loc<'_>,
    ) -> Option<(usize, serde_json::Map<String, serde_json::Value>)> {
        let Json::Object(entry) = item else {
            self.wrong_type(at, "a provider fields item", "object", item);
            return None;
        };
        self.ignore_unknown_keys(entry, at, &["on", "fields"], Subject::ProviderFields);
        let on = match entry.get("on") {
            Some(Json::Number(n)) => n.as_u64().and_then(|n| usize::try_from(n).ok()),
            _ => None,
        };
        if on.is_none() {
            self.push(diagnostics::provider_fields_item_on(at.key("on").to_path()));
        }
        let fields = if let Some(value) = entry.get("fields") {
            self.fields_object(value, at.key("fields"))
        } else {
            self.record(fields(entry, at, "a provider fields item").value("fields"));
            None
        };
        Some((on?, fields?))
    }

    /// `fields`, an object of a provider's own fields, copied as given.
    fn fields_object(&mut self, value: &Json<'_>, at: Loc<'_>) -> Option<serde_json::Map<String, serde_json::Value>> {
        if let serde_json::Value::Object(map) = value.to_value() {
            Some(map)
        } else {
            self.wrong_type(at, "'fields'", "object", value);
            None
        }
    }

    /// An assistant message's `reasoningState`: `{"provider", "items": [objects]}`, the items
    /// kept as given (contract §3.5); `null` counts as absent, an unknown provider is ignored.
    fn reasoning_state(&mut self, value: &Json<'_>, loc: Loc<'_>) -> (Option<ReasoningState>, bool) {
        let object = match value {
            Json::Null => return (None, true),
            Json::Object(object) => object,
            other => {
                self.wrong_type(loc, "'reasoningState'", "object", other);
                return (None, false);
            }
        };
        self.ignore_unknown_keys(object, loc, &["provider", "items"], Subject::ReasoningState);
        let provider = self.record(fields(object, loc, "the reasoning state").str("provider"));
        let items = match object.get("items") {
            Some(Json::Array(items)) => items,
            Some(other) => {
                self.wrong_type(loc.key("items"), "'items'", "array", other);
                return (None, false);
            }
            None => {
                self.record(fields(object, loc, "the reasoning state").value("items"));
                return (None, false);
            }
        };
        let mut ok = provider.is_some();
        for (k, item) in items.iter().enumerate() {
            if !matches!(item, Json::Object(_)) {
                self.wrong_type(loc.key("items").index(k), "a reasoning state item", "object", item);
                ok = false;
            }
        }
        let Some(provider) = provider.filter(|_| ok) else { return (None, false) };
        let Some(provider) = crate::ProviderId::parse(provider) else {
            self.push(diagnostics::reasoning_state_unknown_provider(loc.key("provider").to_path(), provider));
            return (None, true);
        };
        (Some(ReasoningState { provider, items: items.iter().map(Json::to_value).collect() }), true)
    }
}
