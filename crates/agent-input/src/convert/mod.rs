//! Conversion of a validated request into a provider's request body.
//!
//! Each provider's request writer lives in its folder under `providers/` (its wire structs, its
//! `PROFILE`: what the shared checks need to know about it, and its own rules), each behind
//! [`Provider`]; the checks providers share are written once in `providers/common/convert` (the
//! conversion context, options, tool specs, URLs, limits, turns, media in bodies). This module
//! asks `providers/dispatch.rs` for the provider chosen by [`ProviderId`]. A converter never drops content silently: what the provider cannot carry is
//! an error naming the provider and saying what to do instead.

pub mod mlcommons;

use serde_json::Value;

use crate::diagnostic::{Diagnostic, Report};
use crate::model::ExecuteRequest;
use crate::providers::common::convert::{self as conversion, ModelCheck, serialize_failure};
use crate::providers::common::fields;
use crate::providers::dispatch::{self, dispatch};

pub use crate::providers::common::convert::payload::{DataUrl, MARK, Splice, marks};
pub use crate::providers::common::convert::{
    Capabilities, ConvertOptions, Converted, DEFAULT_MAX_TOKENS, Provider, ToolEntry, ToolSpec,
};
pub use crate::providers::id::ProviderId;
pub use crate::providers::public::convert::*;

/// What a provider's converter can carry.
pub const fn capabilities(provider: ProviderId) -> &'static Capabilities {
    dispatch::capabilities(provider)
}

/// Whether the provider fetches media at web (`https://`) URLs itself; for one that does not, a
/// caller that can fetch them sends the media inline instead.
pub const fn takes_web_urls(provider: ProviderId) -> bool {
    dispatch::web_urls(provider)
}

/// The highest `temperature` the provider takes (the lowest is 0; `top_p` is 0 to 1 for every
/// provider).
pub const fn max_temperature(provider: ProviderId) -> f64 {
    dispatch::profile(provider).max_temperature
}

/// The fewest tokens the provider's `max_tokens` may ask for.
pub const fn min_max_tokens(provider: ProviderId) -> u64 {
    dispatch::profile(provider).min_max_tokens
}

/// The provider's own checks of conversion options (ranges, tool names and schemas), without
/// converting anything: for checking options where they are configured (an agent's registration).
pub fn check_options(provider: ProviderId, options: &ConvertOptions) -> Report {
    conversion::check_options(dispatch::profile(provider), options)
}

/// The rules of `options.model` for `provider` (the capability table's family and the provider's
/// own rules of it), with the provider's limits on image pixels and schemas: what the provider's
/// adapter checks beyond the conversion itself. An unknown model is a warning.
pub fn check_model(provider: ProviderId, request: &ExecuteRequest<'_>, options: &ConvertOptions) -> Report {
    let mut check = ModelCheck::new(provider, dispatch::vendors(provider), request, options);
    dispatch::check_model(provider, &mut check);
    check.report
}

/// The rules of `model` for `request` where no provider is chosen (`validate --model`): those of
/// the provider that serves the model's family (the vendor's own API first), without
/// converting. An id no family matches is an `unknown_model` warning and nothing else.
#[cfg(feature = "models")]
pub fn check_model_alone(model: &str, request: &ExecuteRequest<'_>) -> Report {
    let family = crate::providers::models::lookup(model);
    // The vendor's own API first (Anthropic Messages for Claude, not Bedrock).
    let provider = family.and_then(|f| {
        ProviderId::ALL
            .iter()
            .copied()
            .filter(|&p| dispatch::vendors(p).contains(&f.vendor))
            .min_by_key(|&p| dispatch::vendors(p).len())
    });
    let Some(provider) = provider else {
        let message = format!(
            "the model \"{model}\" is not in the capability table ({}); only the request's own rules are checked",
            crate::providers::models::SOURCE
        );
        return Report::from(unchecked_model(model, message));
    };
    let options = ConvertOptions { model: Some(model.to_string()), ..ConvertOptions::default() };
    check_model(provider, request, &options)
}

/// Without feature `models` (the npm package's base module) no model is checked: the warning
/// says where the model's rules are.
#[cfg(not(feature = "models"))]
pub fn check_model_alone(model: &str, _request: &ExecuteRequest<'_>) -> Report {
    Report::from(unchecked_model(model, crate::providers::models::NO_TABLE))
}

/// `unknown_model` at `/options/model`.
fn unchecked_model(model: &str, message: impl Into<String>) -> Diagnostic {
    let at = crate::path::Path::root().key("options").key("model");
    Diagnostic::new(crate::diagnostic::Code::UnknownModel, at, message).received(model)
}

/// The conversion's result with the model check's problems: its errors refuse the request.
/// Without feature `models` (the npm base module) there is no model check: the conversion
/// reports a given model unchecked (`Conversion::sampling`).
#[cfg(feature = "models")]
fn with_model<T>(
    checked: Report,
    result: Result<T, Report>,
    warnings: impl FnOnce(&mut T) -> &mut Vec<Diagnostic>,
) -> Result<T, Report> {
    match result {
        Ok(mut converted) if checked.is_ok() => {
            warnings(&mut converted).extend(checked.warnings);
            Ok(converted)
        }
        Ok(mut converted) => {
            let mut report = Report::default();
            for warning in std::mem::take(warnings(&mut converted)) {
                report.push(warning);
            }
            report.extend(checked);
            Err(report)
        }
        Err(mut errors) => {
            errors.extend(checked);
            Err(errors)
        }
    }
}

/// Converts with the provider chosen at run time and returns the body as JSON.
pub fn convert_to_value(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
) -> Result<Converted<Value>, Report> {
    fn to_value<P: Provider>(
        request: &ExecuteRequest<'_>,
        options: &ConvertOptions,
    ) -> Result<Converted<Value>, Report> {
        let mut converted = P::convert(request, options)?;
        fields::unplaced(P::ID, request, &converted.placements, &mut converted.warnings);
        let mut body = serde_json::to_value(&converted.body).map_err(|e| serialize_failure(P::ID, &e))?;
        fields::merge_into(&mut body, &converted.placements, &converted.warnings, P::ID)?;
        Ok(Converted::new(body, converted.warnings))
    }
    let result = dispatch!(provider, P => to_value::<P>(request, options));
    #[cfg(feature = "models")]
    let result = with_model(check_model(provider, request, options), result, |c| &mut c.warnings);
    result
}

/// [`convert_to_value`], each large payload that `splice` takes a string U+FFFF (what [`MARK`]
/// stands for) or holding one in place of the payload (a data URL's data). Apart from
/// [`convert_to_value`], which the npm browsers' modules carry without it: one more generic copy
/// per provider would not fit their budgets.
pub fn convert_to_value_spliced(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    splice: Option<&Splice<'_>>,
) -> Result<Converted<Value>, Report> {
    fn to_value<P: Provider>(
        request: &ExecuteRequest<'_>,
        options: &ConvertOptions,
        splice: Option<&Splice<'_>>,
    ) -> Result<Converted<Value>, Report> {
        // A body with provider fields is merged as a JSON value, so it is written whole.
        let splice = splice.filter(|_| !fields::any_for(P::ID, request, options));
        let mut converted = P::convert_spliced(request, options, splice)?;
        fields::unplaced(P::ID, request, &converted.placements, &mut converted.warnings);
        let mut body = serde_json::to_value(&converted.body).map_err(|e| serialize_failure(P::ID, &e))?;
        fields::merge_into(&mut body, &converted.placements, &converted.warnings, P::ID)?;
        Ok(Converted::new(body, converted.warnings))
    }
    let result = dispatch!(provider, P => to_value::<P>(request, options, splice));
    #[cfg(feature = "models")]
    let result = with_model(check_model(provider, request, options), result, |c| &mut c.warnings);
    result
}

/// Converts with the provider chosen at run time and returns the body as JSON text.
pub fn convert_to_string(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    pretty: bool,
) -> Result<Converted<String>, Report> {
    let mut body = String::new();
    let warnings = convert_into(provider, request, options, pretty, &mut body)?;
    Ok(Converted::new(body, warnings))
}

/// Converts and writes the body as JSON text into `out` (cleared first), returning the warnings.
/// Reusing `out` across calls saves allocating, and first touching, a fresh buffer the size of
/// the body each time — for multi-megabyte media that is most of the cost.
pub fn convert_into(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    pretty: bool,
    out: &mut String,
) -> Result<Vec<Diagnostic>, Report> {
    convert_into_spliced(provider, request, options, pretty, out, None)
}

/// [`convert_into`], each large payload that lies in `splice`'s sources left out of the body as a
/// [`MARK`] (see [`Splice`]; its spans say where each came from, in the order of the marks).
pub fn convert_into_spliced(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    pretty: bool,
    out: &mut String,
    splice: Option<&Splice<'_>>,
) -> Result<Vec<Diagnostic>, Report> {
    fn write<P: Provider>(
        request: &ExecuteRequest<'_>,
        options: &ConvertOptions,
        pretty: bool,
        out: &mut String,
        splice: Option<&Splice<'_>>,
    ) -> Result<Vec<Diagnostic>, Report> {
        // A body with provider fields is merged as a JSON value, so it is written whole.
        let splice = splice.filter(|_| !fields::any_for(P::ID, request, options));
        let mut converted = P::convert_spliced(request, options, splice)?;
        fields::unplaced(P::ID, request, &converted.placements, &mut converted.warnings);
        if !converted.placements.is_empty() {
            // Written as text and read back, with the writer and reader every body already has.
            let mut text = String::new();
            P::write_text(&converted.body, &mut text, None)?;
            let mut body = crate::json::Document::parse(&text)
                .map(|document| document.root.to_value())
                .map_err(|e| serialize_failure(P::ID, &e))?;
            fields::merge_into(&mut body, &converted.placements, &converted.warnings, P::ID)?;
            let text = serde_json::to_string(&body).map_err(|e| serialize_failure(P::ID, &e))?;
            *out = if pretty { conversion::indent(&text) } else { text };
            return Ok(converted.warnings);
        }
        let mut text = std::mem::take(out);
        text.clear();
        // The body is about as large as the media it carries; size the buffer once.
        text.reserve(request.input.payload_len() + 4096);
        // Always written compact, then indented as text: one serializer per wire type instead of
        // two keeps the WebAssembly build small.
        P::write_text(&converted.body, &mut text, splice)?;
        *out = if pretty { conversion::indent(&text) } else { text };
        Ok(converted.warnings)
    }
    let result = dispatch!(provider, P => write::<P>(request, options, pretty, out, splice));
    #[cfg(feature = "models")]
    let result = with_model(check_model(provider, request, options), result, |w| w);
    result
}
