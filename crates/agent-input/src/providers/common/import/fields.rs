//! The request's own fields that the standard form has no place for (`store`, `metadata`,
//! `generationConfig.topK`, Bedrock's `additionalModelRequestFields`, ...): carried in the
//! `provider_fields` option for the provider whose body it is, their nesting kept, so its writer
//! puts them back where they were (docs/provider-fields.md).

use serde_json::{Map, Value, json};

use super::builder::{Element, Import, carries_nothing};
use crate::path::{Path, Segment};

/// The option the fields are carried in.
const OPTION: &str = "provider_fields";

impl Import {
    /// Every key of `object` (the body, or a settings object in it at `at`) but `known` is
    /// carried, or is the model option (see [`Import::request_key`]).
    pub(crate) fn request_keys(&mut self, object: &Map<String, Value>, at: &Path, known: &[&str]) {
        for (key, value) in object {
            if !known.contains(&key.as_str()) {
                self.request_key(key, value, at);
            }
        }
    }

    /// Key `key` of the body (or of a settings object in it at `at`) that has no standard place:
    /// the model is the `model` option, anything else is carried.
    pub(crate) fn request_key(&mut self, key: &str, value: &Value, at: &Path) {
        match key {
            "model" | "modelId" if at.segments().is_empty() && value.is_string() => {
                self.option("model", value.clone(), &at.key(key));
            }
            _ => self.carry(value, &at.key(key)),
        }
    }

    /// `value`, read from `at` (a key of the body, or a key of settings objects in it:
    /// `/generationConfig/topK`), carried under the same keys in the `provider_fields` option.
    /// What is carried twice merges, objects key by key. `null`, `[]` and `{}` carry nothing.
    pub(crate) fn carry(&mut self, value: &Value, at: &Path) {
        if carries_nothing(value) {
            return;
        }
        let mut keys = Vec::with_capacity(at.segments().len());
        for segment in at.segments() {
            match segment {
                Segment::Key(key) => keys.push(&**key),
                // Inside a list: an element's own fields, not the request's.
                Segment::Index(_) => {
                    let what = format!("{} field", self.provider.display_name());
                    return self.dropped(at.clone(), &what);
                }
            }
        }
        let provider = self.provider.as_str();
        let option = self.options.entry(OPTION).or_insert_with(|| json!({"provider": provider, "fields": {}}));
        let carried = option.get_mut("fields").and_then(Value::as_object_mut).is_some_and(|f| insert(f, &keys, value));
        if carried {
            let standard = keys.iter().fold(Path::root().key("options").key(OPTION).key("fields"), |p, k| p.key(k));
            self.origins.push((standard, at.clone()));
        } else {
            let what = format!("{} field", self.provider.display_name());
            self.dropped(at.clone(), &what);
        }
    }
}

/// `value` put in `fields` under `keys`, the objects on the way made or merged into; `false`
/// when a value that is not an object is on the way.
fn insert(fields: &mut Map<String, Value>, keys: &[&str], value: &Value) -> bool {
    let Some((last, parents)) = keys.split_last() else { return false };
    let mut target = fields;
    for key in parents {
        let Value::Object(inner) = target.entry(*key).or_insert_with(|| Value::Object(Map::new())) else {
            return false;
        };
        target = inner;
    }
    match target.get_mut(*last) {
        Some(Value::Object(held)) if value.is_object() => merge(held, value),
        _ => {
            target.insert((*last).to_string(), value.clone());
        }
    }
    true
}

/// `more`'s keys added to `into`, objects merged key by key.
fn merge(into: &mut Map<String, Value>, more: &Value) {
    let Value::Object(more) = more else { return };
    for (key, value) in more {
        match (into.get_mut(key), value) {
            (Some(Value::Object(held)), Value::Object(_)) => merge(held, value),
            _ => {
                into.insert(key.clone(), value.clone());
            }
        }
    }
}

impl Import {
    /// `key: value` of the provider's message object, read from `at`: a provider field of the
    /// current standard message, written back to the same provider only.
    pub(crate) fn message_field(&mut self, key: &str, value: &Value, at: &Path) {
        self.fields.message.insert(key.to_owned(), value.clone());
        self.fields.message_from.push(at.key(key));
    }

    /// `key: value` of the provider's block, part or item read from `at` into the current
    /// message's last content block: a provider field of that block.
    pub(crate) fn block_field(&mut self, key: &str, value: &Value, at: &Path) {
        let j = self.last_len("content").saturating_sub(1);
        self.fields.elements.push((Element::Block(j), key.to_owned(), value.clone(), at.key(key)));
    }

    /// `key: value` read from `at` into the current message's last tool call: a provider field
    /// of that call.
    pub(crate) fn call_field(&mut self, key: &str, value: &Value, at: &Path) {
        let k = self.last_len("toolCalls").saturating_sub(1);
        self.fields.elements.push((Element::Call(k), key.to_owned(), value.clone(), at.key(key)));
    }

    /// How many items the current message's `key` array holds.
    fn last_len(&self, key: &str) -> usize {
        self.messages.last().and_then(|m| m.get(key)).and_then(Value::as_array).map_or(0, Vec::len)
    }

    /// The current message's provider fields, now that its elements are all known.
    pub(super) fn settle_fields(&mut self) {
        let pending = std::mem::take(&mut self.fields);
        if pending.message.is_empty() && pending.elements.is_empty() {
            return;
        }
        let here = self.current();
        let Some(message) = self.messages.last_mut().and_then(Value::as_object_mut) else { return };
        let blocks = message.get("content").and_then(Value::as_array).map_or(0, Vec::len);
        let mut fields = Map::new();
        fields.insert("provider".into(), Value::from(self.provider.as_str()));
        let at = here.key("providerFields");
        if !pending.message.is_empty() {
            fields.insert("fields".into(), Value::Object(pending.message));
        }
        for from in pending.message_from {
            self.origins.push((at.key("fields"), from));
        }
        let mut items: Vec<(usize, Map<String, Value>)> = Vec::new();
        let mut elements = pending.elements;
        elements.sort_by_key(|(element, ..)| *element);
        for (element, key, value, from) in elements {
            let on = match element {
                Element::Block(j) => j,
                Element::Call(k) => blocks + k,
            };
            if items.last().is_none_or(|(last, _)| *last != on) {
                items.push((on, Map::new()));
            }
            let n = items.len() - 1;
            items[n].1.insert(key, value);
            self.origins.push((at.key("items").index(n), from));
        }
        if !items.is_empty() {
            let items = items.into_iter().map(|(on, fields)| json!({"on": on, "fields": fields})).collect();
            fields.insert("items".into(), Value::Array(items));
        }
        message.insert("providerFields".into(), Value::Object(fields));
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::diagnostic::Code;
    use crate::providers::id::ProviderId;

    fn path(pointer: &str) -> Path {
        Path::parse(pointer).unwrap()
    }

    #[test]
    fn carried_fields_keep_their_nesting_and_merge() {
        let mut im = Import::new(ProviderId::Gemini);
        im.carry(&json!(40), &path("/generationConfig/topK"));
        im.carry(&json!({"includeThoughts": true}), &path("/generationConfig/thinkingConfig"));
        im.carry(&json!({"thinkingBudget": 0}), &path("/generationConfig/thinkingConfig"));
        im.carry(&json!([{"category": "HARM_CATEGORY_HARASSMENT"}]), &path("/safetySettings"));
        // Nothing to carry.
        im.carry(&json!({}), &path("/labels"));
        im.carry(&Value::Null, &path("/cachedContent"));
        assert!(im.report.is_ok() && im.report.warnings.is_empty(), "{:?}", im.report);
        assert_eq!(
            im.options["provider_fields"],
            json!({"provider": "gemini", "fields": {
                "generationConfig": {"topK": 40, "thinkingConfig": {"includeThoughts": true, "thinkingBudget": 0}},
                "safetySettings": [{"category": "HARM_CATEGORY_HARASSMENT"}]}})
        );
        let top_k = path("/options/provider_fields/fields/generationConfig/topK");
        assert_eq!(im.origin(&top_k), path("/generationConfig/topK"));
    }

    #[test]
    fn the_model_is_its_option_and_a_field_in_a_list_is_not_the_requests() {
        let mut im = Import::new(ProviderId::OpenAiChat);
        im.request_keys(json!({"model": "gpt-4o", "seed": 7}).as_object().unwrap(), &Path::root(), &[]);
        assert_eq!(im.options["model"], "gpt-4o");
        assert_eq!(im.options["provider_fields"]["fields"], json!({"seed": 7}));
        im.carry(&json!(true), &path("/messages/0/extra"));
        let warning = &im.report.warnings[0];
        assert_eq!((warning.code, warning.path.to_string()), (Code::ImportDropped, "/messages/0/extra".into()));
        assert_eq!(im.options["provider_fields"]["fields"], json!({"seed": 7}));
    }

    #[test]
    fn a_field_under_a_value_carried_whole_is_named_left_out() {
        let mut im = Import::new(ProviderId::AnthropicMessages);
        im.carry(&json!("disabled"), &path("/thinking"));
        im.carry(&json!(1), &path("/thinking/budget_tokens"));
        assert_eq!(im.options["provider_fields"]["fields"], json!({"thinking": "disabled"}));
        assert_eq!(im.report.warnings[0].path.to_string(), "/thinking/budget_tokens");
    }
}
