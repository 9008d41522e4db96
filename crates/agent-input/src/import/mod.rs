//! Import: a provider's request body (Chat Completions, Responses, Messages, `generateContent`,
//! Converse) read into the standard `_execute` request and the conversion options it implies, so
//! that any pair of providers translates: import from one, convert to another.
//!
//! Each provider's importer lives in its folder (`providers/<provider>/import.rs`); this module
//! dispatches on [`ProviderId`], then validates what was built as any standard input is
//! validated. Every problem is reported at a JSON Pointer into the provider's body: its own
//! shape's (`missing_field`, `invalid_field_type`, a result without its call), what the standard
//! input cannot carry (`import_dropped`, a warning; `import_unsupported`, an error when leaving it
//! out would change the conversation), and the standard checks of what was built. Reasoning in
//! an assistant turn is that message's `reasoningState`, as the provider's response reader gives
//! it, and the provider's reasoning setting is the `reasoning` option.
//!
//! ```
//! use agent_input::{ProviderId, import};
//!
//! let body = serde_json::json!({"model": "gpt-5", "temperature": 0.2,
//!     "messages": [{"role": "user", "content": "Hello"}]});
//! let imported = import::import(ProviderId::OpenAiChat, &body);
//! assert_eq!(imported.request, serde_json::json!({"input": "Hello"}));
//! assert_eq!(imported.options.temperature, Some(0.2));
//! assert_eq!(imported.options.model.as_deref(), Some("gpt-5")); // the model's rules are checked
//!
//! // GPT-5 reasons and takes `temperature` only at 1:
//! let same = import::translate(ProviderId::OpenAiChat, &body, Some(ProviderId::OpenAiChat));
//! assert_eq!(same.errors[0].path.to_string(), "/temperature");
//! // Anthropic serves no GPT model: the body's model is not the target's.
//! let translated = import::translate(ProviderId::OpenAiChat, &body, Some(ProviderId::AnthropicMessages));
//! assert!(translated.ok);
//! assert_eq!(translated.body.unwrap()["messages"][0]["content"][0]["text"], "Hello");
//! ```

use std::borrow::Cow;

use serde::Serialize;
use serde_json::Value;

use crate::convert;
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::ExecuteRequest;
use crate::options::{ConvertOptions, Limits};
use crate::path::{Path, Segment};
use crate::providers::adapter::Likeness;
use crate::providers::common::fields;
use crate::providers::common::import::{self as importing, Import};
use crate::providers::dispatch;
use crate::providers::id::ProviderId;
use crate::validate;

/// A provider's request read into the standard form.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The standard `_execute` request, `{"input": ...}`: text for a single user text, otherwise
    /// messages.
    pub request: Value,
    /// The conversion options the body implies (system prompt excluded: it is a system message).
    pub options: ConvertOptions,
    /// Every problem, at paths into the provider's body.
    pub report: Report,
    origins: Vec<(Path, Path)>,
}

impl Imported {
    /// Where a place of the standard request (`/input/2/content/0`) or of the options
    /// (`/options/tools/1`) came from in the provider's body.
    pub fn origin(&self, standard: &Path) -> Path {
        importing::origin(&self.origins, standard)
    }

    /// The options as JSON, only those set (`snake_case` keys, as the options readers take them).
    pub fn options_json(&self) -> Value {
        let mut value = serde_json::to_value(&self.options).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            map.retain(|_, v| !v.is_null() && v.as_array().is_none_or(|items| !items.is_empty()));
        }
        value
    }
}

/// The provider whose API an endpoint URL names, read from its path (the query, the fragment and
/// trailing `/` left out): `…/chat/completions`, `…/responses`, `…/messages`,
/// `…:generateContent`, `…/converse`, and their streaming forms.
pub fn provider_for_url(url: &str) -> Option<ProviderId> {
    let path = url.split(['?', '#']).next().unwrap_or_default().trim_end_matches('/');
    ProviderId::ALL.iter().copied().find(|&provider| dispatch::names_endpoint(provider, path))
}

/// The provider a request body's shape names, when one alone fits: the one provider with a field
/// or block only its requests have (`contents`, `input`, `inferenceConfig`, untyped blocks,
/// `system`, ...), else the one a bare `messages` list fits. `None` when the body is not an
/// object, fits none, or has the marks of more than one.
pub fn provider_for_body(body: &Value) -> Option<ProviderId> {
    let body = body.as_object()?;
    let likeness: Vec<(ProviderId, Likeness)> =
        ProviderId::ALL.iter().map(|&provider| (provider, dispatch::body_likeness(provider, body))).collect();
    [Likeness::Distinctive, Likeness::Plausible].into_iter().find_map(|level| {
        let mut fitting = likeness.iter().filter(|(_, l)| *l == level).map(|(p, _)| *p);
        match (fitting.next(), fitting.next()) {
            (Some(provider), None) => Some(Some(provider)),
            (Some(_), Some(_)) => Some(None),
            (None, _) => None,
        }
    })?
}

/// Reads `body`, a request of `provider`, into the standard request and options.
pub fn import(provider: ProviderId, body: &Value) -> Imported {
    import_then(provider, body, &mut |_, _| ())
}

/// [`import`], calling `then` with the validated standard request and the options when nothing
/// is wrong, while the request's document is still alive (the conversion borrows from it). Not
/// generic: one copy in the npm module for both of `importRequest`'s forms.
fn import_then(
    provider: ProviderId,
    body: &Value,
    then: &mut dyn FnMut(&ExecuteRequest<'_>, &ConvertOptions),
) -> Imported {
    let mut im: Import = dispatch::import(provider, body);
    im.pair();
    let request = im.request();
    let (options, option_report) = ConvertOptions::read_json(&Value::Object(std::mem::take(&mut im.options)));
    let mut report = std::mem::take(&mut im.report);
    for problem in option_report.errors.into_iter().chain(option_report.warnings) {
        report.push(moved(&im.origins, problem));
    }
    let document = validate::document(&request);
    let validation = validate::validate_request(&document, &standard_options());
    for problem in validation.report.errors.into_iter().chain(validation.report.warnings) {
        report.push(moved(&im.origins, problem));
    }
    if let Some(validated) = validation.request.filter(|_| report.is_ok()) {
        then(&validated, &options);
    }
    Imported { request, options, report, origins: im.origins }
}

/// Prefill allowed: a provider request may end with the assistant's turn for the model to go on.
fn standard_options() -> validate::Options {
    validate::Options { allow_prefill: true, ..validate::Options::default() }
}

/// `/options/provider_fields`.
fn request_fields() -> Path {
    Path::root().key("options").key("provider_fields")
}

/// The request's fields carried for `from` and left out for the provider named `target`, each
/// named at its place in the body (`generationConfig.topK` at `/generationConfig/topK`).
fn request_fields_dropped(origins: &[(Path, Path)], from: ProviderId, target: &str) -> Vec<Diagnostic> {
    let carried = request_fields().key("fields");
    let prefix = carried.segments();
    origins
        .iter()
        .filter(|(standard, _)| standard.segments().len() > prefix.len() && standard.segments().starts_with(prefix))
        .map(|(standard, at)| {
            let keys: Vec<&str> = standard.segments()[prefix.len()..]
                .iter()
                .filter_map(|segment| match segment {
                    Segment::Key(key) => Some(&**key),
                    Segment::Index(_) => None,
                })
                .collect();
            fields::dropped_names(std::iter::once(keys.join(".").as_str()), from, target, at.clone())
        })
        .collect()
}

fn moved(origins: &[(Path, Path)], mut problem: Diagnostic) -> Diagnostic {
    problem.path = importing::origin(origins, &problem.path);
    problem
}

/// An import, and with a target provider its body: what the CLI's `import` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Translation {
    /// No errors: the request imported (and converted, with a target).
    pub ok: bool,
    /// The standard request; `null` when the body is not JSON.
    pub request: Value,
    /// The options set, `snake_case`.
    pub options: Value,
    /// The target provider's body (`null` when it cannot be built); absent without a target.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<Value>,
    /// Every error, at paths into the provider's body.
    pub errors: Vec<Diagnostic>,
    /// Every warning, at paths into the provider's body.
    pub warnings: Vec<Diagnostic>,
}

/// Imports `body` from `from` and, with a target, converts it to `to`: every problem of both
/// steps at paths into `body`.
pub fn translate(from: ProviderId, body: &Value, to: Option<ProviderId>) -> Translation {
    translate_model(from, body, to, None)
}

/// [`translate`], the target's model rules checked for `model`, or without one for the body's
/// own model (`model`, Bedrock's `modelId`) where the target serves its family: a model of
/// another provider's family is not the target's, and is left out of the conversion.
pub fn translate_model(from: ProviderId, body: &Value, to: Option<ProviderId>, model: Option<&str>) -> Translation {
    // Converted inside the import, on the request its validation built: validated once.
    let mut converted = None;
    let imported = import_then(from, body, &mut |request, options| {
        if let Some(to) = to {
            converted = Some(convert::convert_to_value(to, request, &target_options(from, to, model, options)));
        }
    });
    let options = imported.options_json();
    let mut report = imported.report;
    let body = to.map(|to| {
        let (value, outcome) = match converted {
            Some(Ok(converted)) => (converted.body, Some(Ok(converted.warnings))),
            Some(Err(errors)) => (Value::Null, Some(Err(errors))),
            None => (Value::Null, None),
        };
        conversion_report(from, to, body, &imported.origins, &mut report, outcome);
        value
    });
    Translation {
        ok: report.is_ok(),
        request: imported.request,
        options,
        body,
        errors: report.errors,
        warnings: report.warnings,
    }
}

/// [`translate_str`] to `to` for the target body alone, written as JSON text into `body` (as
/// [`convert::convert_into_spliced`] writes it): the standard request and options are built and
/// validated, but not returned. With a `splice` over `text`, each large payload of the request is
/// a mark in `body` ([`Splice`](convert::Splice)), also where the standard request holds a copy of
/// it. Every problem, at paths into the request; `body` is empty unless the report is ok.
pub fn translate_str_into(
    from: ProviderId,
    text: &str,
    to: ProviderId,
    model: Option<&str>,
    limits: &Limits,
    body: &mut String,
    splice: Option<&convert::Splice<'_>>,
) -> Report {
    body.clear();
    let document = match validate::parse(text, limits) {
        Ok(document) => document,
        Err(report) => return report,
    };
    if let Some(splice) = splice {
        let mut strings = Vec::new();
        document.root.long_borrowed(crate::providers::common::convert::payload::RAW_FROM, &mut strings);
        splice.add_originals(&strings);
    }
    let value = document.root.to_value();
    let mut written = None;
    let imported = import_then(from, &value, &mut |request, options| {
        written = Some(write_body(to, request, &target_options(from, to, model, options), body, splice));
    });
    let mut report = imported.report;
    if !conversion_report(from, to, &value, &imported.origins, &mut report, written) || !report.is_ok() {
        body.clear();
    }
    report
}

/// The body converted to `to`, written as [`convert::convert_into_spliced`] writes it. The npm
/// package's browsers' module goes by the JSON value its report writer already has (the text
/// writer would cost it about 15 KB gzip), its marks written as the escape [`convert::MARK`].
fn write_body(
    to: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    body: &mut String,
    splice: Option<&convert::Splice<'_>>,
) -> Result<Vec<Diagnostic>, Report> {
    #[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
    {
        convert::convert_into_spliced(to, request, options, false, body, splice)
    }
    #[cfg(not(any(not(target_arch = "wasm32"), feature = "speed")))]
    {
        use crate::providers::common::convert::serialize_failure;
        let converted = convert::convert_to_value_spliced(to, request, options, splice)?;
        let text = serde_json::to_string(&converted.body).map_err(|e| serialize_failure(to, &e))?;
        // serde_json writes U+FFFF as it is; a mark is its escape. U+FFFF the request held
        // becomes a mark too, which the caller counts as it counts tool arguments holding one.
        *body = if splice.is_some() { text.replace('\u{FFFF}', convert::MARK) } else { text };
        Ok(converted.warnings)
    }
}

/// The options to convert to `to` with: the target's model rules checked for `model`, or without
/// one for the body's own model where `to` serves its family.
fn target_options<'o>(
    from: ProviderId,
    to: ProviderId,
    model: Option<&str>,
    options: &'o ConvertOptions,
) -> Cow<'o, ConvertOptions> {
    let model = match model {
        Some(model) => Some(model.to_string()),
        None if to == from => options.model.clone(),
        None => options.model.clone().filter(|id| {
            crate::providers::models::lookup(id).is_some_and(|f| dispatch::vendors(to).contains(&f.vendor))
        }),
    };
    if model == options.model {
        Cow::Borrowed(options)
    } else {
        Cow::Owned(ConvertOptions { model, ..options.clone() })
    }
}

/// The conversion's problems (`converted`: its warnings, or its errors) added to `report` at paths
/// into `body` (and, converting a provider's body to that provider, what it would not write
/// back); whether it converted.
fn conversion_report(
    from: ProviderId,
    to: ProviderId,
    body: &Value,
    origins: &[(Path, Path)],
    report: &mut Report,
    converted: Option<Result<Vec<Diagnostic>, Report>>,
) -> bool {
    match converted {
        Some(Ok(warnings)) => {
            for warning in warnings {
                if warning.code == Code::ProviderFieldsDropped && warning.path == request_fields() {
                    // The request's own fields, each named at its place in the body.
                    for warning in request_fields_dropped(origins, from, dispatch::profile(to).name) {
                        report.push(warning);
                    }
                } else {
                    report.push(moved(origins, warning));
                }
            }
            if to == from {
                for warning in dispatch::written_back(from, body) {
                    report.push(warning);
                }
            }
            true
        }
        Some(Err(errors)) => {
            for problem in errors.errors.into_iter().chain(errors.warnings) {
                report.push(moved(origins, problem));
            }
            false
        }
        None => false,
    }
}

/// [`translate`] from request text: too large, too deep or not JSON is reported as validation
/// reports it.
pub fn translate_str(from: ProviderId, text: &str, to: Option<ProviderId>, limits: &Limits) -> Translation {
    translate_str_model(from, text, to, None, limits)
}

/// [`translate_model`] from request text.
pub fn translate_str_model(
    from: ProviderId,
    text: &str,
    to: Option<ProviderId>,
    model: Option<&str>,
    limits: &Limits,
) -> Translation {
    match validate::parse(text, limits) {
        Ok(document) => translate_model(from, &document.root.to_value(), to, model),
        Err(report) => Translation {
            ok: false,
            request: Value::Null,
            options: Value::Object(serde_json::Map::new()),
            body: to.map(|_| Value::Null),
            errors: report.errors,
            warnings: report.warnings,
        },
    }
}
