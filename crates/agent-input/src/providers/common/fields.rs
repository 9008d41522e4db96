//! Provider fields (contract §3.5 and §7): a provider's own fields that the standard form has no
//! place for, carried beside the element they belong to — the request (option
//! `provider_fields`), a tool spec, a message, a block, a call — and merged into what the
//! converter writes for that element, for their provider only.
//!
//! A converter records where each element's fields go as a [`Placement`] (a JSON Pointer into
//! the body); once the body is built, [`apply`] merges them. The merge is deep: objects merge key
//! by key, so `{"generationConfig": {"topK": 40}}` joins the `generationConfig` the converter
//! wrote. A field the converter wrote itself is never overwritten: it is an error naming the
//! field, since the standard form (or an option) already says what it is.

use serde_json::{Map, Value};

use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{AgentInput, ExecuteRequest, MessageFields, ProviderFields};
use crate::options::ConvertOptions;
use crate::path::Path;
use crate::providers::common::convert::turns::Turn;
use crate::providers::common::convert::{Conversion, Placement};
use crate::providers::id::ProviderId;

impl<'p> Conversion<'p> {
    /// The fields of `turn`'s message object, for the object the body holds at `at`, when they
    /// are this provider's (another provider's are reported once, by [`unplaced`]).
    pub(crate) fn place_message(&mut self, turn: &Turn<'p, '_>, at: &str) {
        if let Some(fields) = turn.provider_fields.and_then(|f| f.message.as_ref()).filter(|f| self.owns(f)) {
            let origin = turn.origin.field_path(self.base, "providerFields");
            self.place(fields, at.to_owned(), origin);
        }
    }

    /// The fields of `turn`'s element `element` (its content blocks, then its tool calls), for
    /// the object the body holds at `at`, when they are this provider's.
    pub(crate) fn place_element(&mut self, turn: &Turn<'p, '_>, element: usize, at: &str) {
        let Some(fields) = turn.provider_fields else { return };
        for (n, part) in fields.on(element) {
            if self.owns(part) {
                let origin = turn.origin.field_path(self.base, "providerFields").key("items").index(n);
                self.place(part, at.to_owned(), origin);
            }
        }
    }

    /// The fields of `turn`'s element `element` where the body writes it as an object inside
    /// another (a Responses assistant text: the `output_text` part in its `message` item): those
    /// `outer` holds for go on the object at `outer_at`, the rest on the one at `inner_at`. With
    /// no inner object (`None`), fields that need one leave the element's fields unplaced, named
    /// by [`unplaced`].
    pub(crate) fn place_element_split(
        &mut self,
        turn: &Turn<'p, '_>,
        element: usize,
        outer: fn(&str) -> bool,
        outer_at: &str,
        inner_at: Option<&str>,
    ) {
        let Some(fields) = turn.provider_fields else { return };
        for (n, part) in fields.on(element) {
            if !self.owns(part) {
                continue;
            }
            let (out, inner): (Map<String, Value>, Map<String, Value>) =
                part.fields.iter().map(|(k, v)| (k.clone(), v.clone())).partition(|(k, _)| outer(k));
            if inner_at.is_none() && !inner.is_empty() {
                continue;
            }
            let origin = turn.origin.field_path(self.base, "providerFields").key("items").index(n).key("fields");
            if !out.is_empty() {
                self.placements.push(Placement { at: outer_at.to_owned(), fields: out, origin: origin.clone() });
            }
            if let Some(inner_at) = inner_at.filter(|_| !inner.is_empty()) {
                self.placements.push(Placement { at: inner_at.to_owned(), fields: inner, origin });
            }
        }
    }

    /// Whether `fields` are for the body being written.
    fn owns(&self, fields: &ProviderFields) -> bool {
        self.profile.provider == fields.provider
    }

    /// `fields`, kept at `origin`, for the element the body holds at `at` when they are this
    /// provider's; another provider's are left out with a `provider_fields_dropped` warning at
    /// `origin` naming them.
    pub(crate) fn place(&mut self, fields: &'p ProviderFields, at: String, origin: Path) {
        if self.owns(fields) {
            self.placements.push(Placement { at, fields: fields.fields.clone(), origin: origin.key("fields") });
        } else {
            self.error(dropped(&fields.fields, fields.provider, self.profile.name, origin));
        }
    }

    /// The `provider_fields` option, for the body itself.
    pub(crate) fn request_fields(&mut self, options: &'p ConvertOptions) {
        if let Some(fields) = &options.provider_fields {
            self.place(fields, String::new(), Path::root().key("options").key("provider_fields"));
        }
    }
}

/// Whether converting `request` with `options` for `provider` may place provider fields: the
/// body is then written whole, without splice marks, and merged as a JSON value.
pub(crate) fn any_for(provider: ProviderId, request: &ExecuteRequest<'_>, options: &ConvertOptions) -> bool {
    options.provider_fields.as_ref().is_some_and(|fields| fields.provider == provider)
        || messages_with(Some(provider), request).next().is_some()
        || tools_for(provider, options)
}

/// Whether a function tool spec carries fields of `provider`'s.
fn tools_for(provider: ProviderId, options: &ConvertOptions) -> bool {
    options.tools.iter().any(|entry| {
        entry.spec().and_then(|spec| spec.provider_fields.as_ref()).is_some_and(|fields| fields.provider == provider)
    })
}

/// The messages of `request` (index, fields) with provider fields, of `provider`'s or (`None`)
/// of any.
fn messages_with<'r>(
    provider: Option<ProviderId>,
    request: &'r ExecuteRequest<'_>,
) -> impl Iterator<Item = (usize, &'r MessageFields)> {
    let messages = match &request.input {
        AgentInput::Messages(messages) => messages.as_slice(),
        AgentInput::Text(_) | AgentInput::Blocks(_) => &[],
    };
    messages.iter().enumerate().filter_map(move |(i, m)| {
        m.provider_fields.as_ref().filter(|f| provider.is_none() || f.provider() == provider).map(|f| (i, f))
    })
}

/// Each part of the messages' provider fields that is not in the body: another provider's, left
/// out (`provider_fields_dropped`), and `P`'s own where its converter found no place for it (an
/// element it left out, or wrote without an object of its own). Reported here, once, so no
/// converter has to, and nothing is lost without a word.
pub(crate) fn unplaced(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    placements: &[Placement],
    warnings: &mut Vec<Diagnostic>,
) {
    for (at, part) in message_parts(request) {
        if part.provider != provider {
            warnings.push(dropped(&part.fields, part.provider, provider.display_name(), at));
        } else if !placements.iter().any(|p| p.origin == at) {
            let mut warning = dropped(&part.fields, provider, provider.display_name(), at);
            warning.message = format!("{}: its element is not in the body", warning.message);
            warnings.push(warning);
        }
    }
}

/// Every part of the messages' provider fields left out of a form that is no provider's (AG-UI's
/// messages, named `target`), each a `provider_fields_dropped` warning.
pub(crate) fn all_dropped(request: &ExecuteRequest<'_>, target: &str, warnings: &mut Vec<Diagnostic>) {
    warnings.extend(message_parts(request).map(|(at, part)| dropped(&part.fields, part.provider, target, at)));
}

/// Each part of the messages' provider fields (the message's own, then its elements'), with its
/// path in the request.
fn message_parts<'r>(request: &'r ExecuteRequest<'_>) -> impl Iterator<Item = (Path, &'r ProviderFields)> {
    messages_with(None, request).flat_map(|(i, fields)| {
        let origin = request.input_path.index(i).key("providerFields");
        let message = fields.message.iter().map({
            let origin = origin.clone();
            move |message| (origin.key("fields"), message)
        });
        let items = fields
            .items
            .iter()
            .enumerate()
            .map(move |(n, (_, part))| (origin.key("items").index(n).key("fields"), part));
        message.chain(items)
    })
}

/// Merges `placements` into `body`, the JSON value of `provider`'s body; a conflict refuses the
/// request, with the conversion's `warnings` beside the errors. Not generic: one copy for every
/// provider in the npm `.wasm`.
pub(crate) fn merge_into(
    body: &mut Value,
    placements: &[Placement],
    warnings: &[Diagnostic],
    provider: ProviderId,
) -> Result<(), Report> {
    if placements.is_empty() {
        return Ok(());
    }
    let mut report = apply(body, placements, provider.display_name());
    if report.is_ok() {
        return Ok(());
    }
    for warning in warnings {
        report.push(warning.clone());
    }
    Err(report)
}

/// The warning for `fields` of `provider`'s left out of a body for the provider named `target`.
pub(crate) fn dropped(fields: &Map<String, Value>, provider: ProviderId, target: &str, at: Path) -> Diagnostic {
    dropped_names(fields.keys().map(String::as_str), provider, target, at)
}

/// [`dropped`] for fields named as given (`generationConfig.topK`).
pub(crate) fn dropped_names<'n>(
    names: impl Iterator<Item = &'n str>,
    provider: ProviderId,
    target: &str,
    at: Path,
) -> Diagnostic {
    let names: Vec<String> = names.map(|name| format!("'{name}'")).collect();
    let message = format!(
        "{} has no place for {}'s own field{} {}: left out",
        target,
        provider.display_name(),
        if names.len() == 1 { "" } else { "s" },
        names.join(", ")
    );
    Diagnostic::new(Code::ProviderFieldsDropped, at, message).received(provider.as_str())
}

/// Merges every placement into `body`. Each field the body already holds (a leaf, or an object
/// against a non-object) is an error at the field's own path under its origin; nothing is
/// overwritten.
pub(crate) fn apply(body: &mut Value, placements: &[Placement], provider: &str) -> Report {
    let mut report = Report::default();
    for placement in placements {
        match pointer_mut(body, &placement.at) {
            Some(Value::Object(target)) => merge(target, &placement.fields, &placement.origin, provider, &mut report),
            _ => report.push(Diagnostic::new(
                Code::InvalidForProvider,
                placement.origin.clone(),
                format!("{provider} writes nothing at {} to put these fields in", placement.at),
            )),
        }
    }
    report
}

fn pointer_mut<'v>(body: &'v mut Value, at: &str) -> Option<&'v mut Value> {
    if at.is_empty() { Some(body) } else { body.pointer_mut(at) }
}

fn merge(
    target: &mut Map<String, Value>,
    fields: &Map<String, Value>,
    origin: &Path,
    provider: &str,
    report: &mut Report,
) {
    for (key, value) in fields {
        let at = origin.key(key);
        match (target.get_mut(key), value) {
            (None, _) => {
                target.insert(key.clone(), value.clone());
            }
            (Some(Value::Object(inner)), Value::Object(more)) => merge(inner, more, &at, provider, report),
            (Some(_), _) => report.push(Diagnostic::new(
                Code::InvalidForProvider,
                at,
                format!(
                    "{provider} is sent '{key}' from the request's own fields or options; set it there rather than as a provider field"
                ),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn placement(at: &str, fields: &Value) -> Placement {
        Placement { at: at.into(), fields: fields.as_object().unwrap().clone(), origin: Path::root().key("options") }
    }

    #[test]
    fn fields_join_objects_the_converter_wrote() {
        let mut body = json!({"generationConfig": {"maxOutputTokens": 4096}, "contents": [{"role": "user"}]});
        let top = json!({"generationConfig": {"topK": 40}, "safetySettings": []});
        let part = json!({"thoughtSignature": "abc"});
        let report = apply(&mut body, &[placement("", &top), placement("/contents/0", &part)], "Gemini");
        assert!(report.is_ok(), "{report:?}");
        assert_eq!(
            body,
            json!({"generationConfig": {"maxOutputTokens": 4096, "topK": 40}, "safetySettings": [],
                   "contents": [{"role": "user", "thoughtSignature": "abc"}]})
        );
    }

    #[test]
    fn a_field_the_converter_wrote_is_an_error_at_its_own_path() {
        let mut body = json!({"generationConfig": {"maxOutputTokens": 4096}});
        let top = json!({"generationConfig": {"maxOutputTokens": 10}});
        let report = apply(&mut body, &[placement("", &top)], "Gemini");
        let errors: Vec<_> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert_eq!(errors, ["/options/generationConfig/maxOutputTokens"]);
        assert_eq!(body["generationConfig"]["maxOutputTokens"], 4096, "nothing is overwritten");
    }

    #[test]
    fn a_place_the_body_lacks_is_an_error() {
        let mut body = json!({"contents": []});
        let fields = json!({"x": 1});
        let report = apply(&mut body, &[placement("/contents/3", &fields)], "Gemini");
        assert_eq!(report.errors.len(), 1);
    }
}
