//! What each exported function does once its arguments are JSON text: plain Rust, so it is tested
//! natively like the rest of the workspace. The wasm layer (`lib.rs`) only turns JavaScript
//! values into text and reports back into objects.

use std::cell::RefCell;
use std::rc::Rc;

use agent_input::convert::{Splice, marks};
use agent_input::json::Document;
use agent_input::options::ConvertSettings;
use agent_input::{InputType, Report, validate};
use serde_json::Value;

#[cfg(any(test, feature = "response"))]
use crate::dto::JsResponseReport;
use crate::dto::{JsConversionReport, JsValidationReport, to_json};

/// Conversion settings and the problems found reading them.
pub(crate) type Settings = (ConvertSettings, Report);

/// How many settings [`convert_settings`] keeps.
const KEPT_SETTINGS: usize = 8;

thread_local! {
    /// The last conversion settings read, by their JSON text, the most recent first: callers
    /// convert request after request with the same options, or with a few sets of them (one a
    /// provider), and reading tool schemas each time would be most of a small request's cost
    /// (docs/decisions.md, "The WebAssembly boundary").
    static KEPT: RefCell<Vec<(String, Rc<Settings>)>> = const { RefCell::new(Vec::new()) };
}

/// The options of the `validate` family from their JSON text (`None`: no options).
#[cfg(any(test, feature = "agui", feature = "schema"))]
pub(crate) fn validate_options(text: Option<&str>) -> (validate::Options, Report) {
    validate::Options::read_json(&text.map_or(Value::Null, agent_input::options::parse))
}

/// The options of the base entry's `validate` family: [`validate_options`] and `model`, which is
/// not a validation option but the model check's ([`validate::Validation::check_model`]), read as
/// the conversion options read it.
pub(crate) fn validate_model_options(text: Option<&str>) -> ValidateSettings {
    let mut value = text.map_or(Value::Null, agent_input::options::parse);
    let mut model = None;
    if let Value::Object(options) = &value {
        let mut rest = serde_json::Map::new();
        for (key, option) in options {
            if key == "model" {
                model = Some(option.clone());
            } else {
                rest.insert(key.clone(), option.clone());
            }
        }
        value = Value::Object(rest);
    }
    let (options, mut report) = validate::Options::read_json(&value);
    let model = model.and_then(|model| {
        let mut only = serde_json::Map::new();
        only.insert("model".to_string(), model);
        let (read, problems) = agent_input::ConvertOptions::read_json(&Value::Object(only));
        report.extend(problems);
        read.model
    });
    (options, report, model)
}

/// The base entry's validation options, the problems found reading them, and the model.
pub(crate) type ValidateSettings = (validate::Options, Report, Option<String>);

/// The settings of the `convert` family from their JSON text, reused while the text is one of the
/// last [`KEPT_SETTINGS`] read.
pub(crate) fn convert_settings(text: &str) -> Rc<Settings> {
    KEPT.with_borrow_mut(|kept| {
        if let Some(at) = kept.iter().position(|(key, _)| key == text) {
            kept[..=at].rotate_right(1);
            return Rc::clone(&kept[0].1);
        }
        let settings = Rc::new(ConvertSettings::read_json(&agent_input::options::parse(text)));
        kept.truncate(KEPT_SETTINGS - 1);
        kept.insert(0, (text.to_string(), Rc::clone(&settings)));
        settings
    })
}

/// How to read the JSON: a request envelope or a bare input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Subject {
    /// `{"input": ..., "parameters": {...}}`; paths start at the envelope (`/input/0/...`).
    Request,
    /// A string or an array; paths start at the input (`/0/...`).
    Input,
}

pub(crate) fn run<'d>(
    document: &'d Document<'_>,
    subject: Subject,
    options: &validate::Options,
) -> validate::Validation<'d> {
    match subject {
        Subject::Request => validate::validate_request(document, options),
        Subject::Input => validate::validate_input(document, options),
    }
}

/// A request's text in wasm memory, or only its length in bytes when that is over the body limit
/// (`text::with_str_within` measured it and copied nothing).
pub(crate) type Text<'a> = Result<&'a str, usize>;

/// [`validate::parse`] of a [`Text`].
fn parse<'a>(text: Text<'a>, limits: &agent_input::options::Limits) -> Result<Document<'a>, Report> {
    match text {
        Ok(text) => validate::parse(text, limits),
        Err(len) => Err(validate::too_large(len, limits)),
    }
}

/// One report after another: option problems come first, then the operation's own.
fn merged(mut options_report: Report, report: Report) -> Report {
    options_report.extend(report);
    options_report
}

/// Validates JSON text; returns the report as JSON (`{valid, inputType, errors, warnings}`).
/// `report` holds the problems found reading the options.
/// With `model`, the model's rules are checked on a valid request.
pub(crate) fn validate(
    text: Text<'_>,
    subject: Subject,
    options: &validate::Options,
    report: &Report,
    model: Option<&str>,
) -> String {
    validate_into(text, subject, options, report, model, |report| to_json(report))
}

/// Like [`validate`], handing the report to `write`.
pub(crate) fn validate_into<R>(
    text: Text<'_>,
    subject: Subject,
    options: &validate::Options,
    report: &Report,
    model: Option<&str>,
    write: impl FnOnce(&JsValidationReport<'_>) -> R,
) -> R {
    let report = report.clone();
    let document = match parse(text, &options.limits) {
        Ok(document) => document,
        Err(errors) => return write(&JsValidationReport::failed(&merged(report, errors), None)),
    };
    let mut validation = run(&document, subject, options);
    if let Some(model) = model {
        validation.check_model(model);
    }
    if report.is_ok() {
        write(&JsValidationReport::of(&validation))
    } else {
        let input_type = validation.input_type;
        write(&JsValidationReport::failed(&merged(report, validation.report), input_type))
    }
}

/// Validates and converts JSON text, writing the body into `body` (whose buffer is reused).
/// Returns whether it converted and the report as JSON: `{ok, body: null, errors, warnings}`
/// with `body` a placeholder for the caller to fill, or `{ok, errors, warnings}`; or, converted
/// with nothing to report, an empty string (the report would be [`clean_report`]). `report` holds
/// the problems found reading the settings.
///
/// With `splice` (the request's length in UTF-16 code units, as JavaScript holds it), large
/// payloads are left out of `body`, each a [`MARK`](agent_input::convert::MARK) there, and [`take_splices`] gives where each
/// stands in the request's JavaScript string: the package's `convertJson` puts them back from that
/// string, so megabytes of base64 are not copied out of wasm memory and decoded again. The Node
/// module's writer leaves out longer texts the same way, where the request holds them as the
/// body would ([`Splice::with_texts`]): the body's text is then not decoded out of wasm memory,
/// and costs JavaScript a slice of a string it has.
pub(crate) fn convert(
    text: Text<'_>,
    subject: Subject,
    settings: &ConvertSettings,
    report: &Report,
    body: &mut String,
    splice: Option<usize>,
) -> (bool, String) {
    SPLICES.with_borrow_mut(Vec::clear);
    let (Ok(source), Some(units)) = (text, splice) else {
        return convert_whole(text, subject, settings, report, body, None);
    };
    let splice = Splice::with_texts(&[source]);
    let result = convert_whole(text, subject, settings, report, body, Some(&splice));
    let spans: Vec<(usize, usize)> = splice.into_spans().into_iter().map(|(_, start, len)| (start, len)).collect();
    if spans.is_empty() {
        return result;
    }
    // Counted as npm/splice.js splits the body: every `\uFFFF` in its text, escaped or not.
    if marks(body).count() != spans.len() {
        // The mark also in text copied raw from the request (tool arguments): the whole body then.
        return convert_whole(text, subject, settings, report, body, None);
    }
    SPLICES.with_borrow_mut(|splices| *splices = utf16_spans(source, units, &spans));
    result
}

/// The report of a conversion with nothing to report, which [`convert`] leaves out.
pub(crate) fn clean_report() -> String {
    to_json(&JsConversionReport::converted(&[]))
}

thread_local! {
    /// The last [`convert`]'s payloads left out of the body: UTF-16 start and length, in pairs.
    static SPLICES: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}

/// The payloads the last [`convert`] left out of its body (start and length in the request's
/// UTF-16 code units, a pair each, in the order of the marks), emptied.
pub(crate) fn take_splices() -> Vec<u32> {
    SPLICES.with_borrow_mut(std::mem::take)
}

/// Byte ranges of `source` as UTF-16 code-unit ranges. When every character is one byte (`units`
/// is the byte length) they are the same; else the code units before each range and in it are
/// counted (a 4-byte character is a surrogate pair, any other one unit), from the end of the
/// previous range on when the ranges come in order.
fn utf16_spans(source: &str, units: usize, spans: &[(usize, usize)]) -> Vec<u32> {
    let ascii = source.len() == units;
    let bytes = source.as_bytes();
    let (mut at, mut counted) = (0, 0);
    let mut out = Vec::with_capacity(spans.len() * 2);
    for &(start, len) in spans {
        let (start, len) = if ascii {
            (start, len)
        } else {
            if start < at {
                (at, counted) = (0, 0);
            }
            let before = counted + utf16_len(&bytes[at..start]);
            let within = utf16_len(&bytes[start..start + len]);
            (at, counted) = (start + len, before + within);
            (before, within)
        };
        #[allow(clippy::cast_possible_truncation)] // JavaScript strings are shorter than 2^32 units
        out.extend([start as u32, len as u32]);
    }
    out
}

/// How many UTF-16 code units the UTF-8 `bytes` are: one a character, two for a character of four
/// bytes; eight bytes at a time (a byte `10xxxxxx` continues a character, `11110xxx` starts one
/// of four bytes).
fn utf16_len(bytes: &[u8]) -> usize {
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut units = 0;
    for word in words.by_ref() {
        let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // Each byte's own bits, shifted up to its high bit: bit 6 for `x << 1`, and so on.
        let continuation = x & !(x << 1) & HIGHS;
        let four = x & (x << 1) & (x << 2) & (x << 3) & !(x << 4) & HIGHS;
        units += 8 - continuation.count_ones() as usize + four.count_ones() as usize;
    }
    units + words.remainder().iter().map(|&b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0)).sum::<usize>()
}

fn convert_whole(
    text: Text<'_>,
    subject: Subject,
    settings: &ConvertSettings,
    report: &Report,
    body: &mut String,
    splice: Option<&Splice<'_>>,
) -> (bool, String) {
    let failed = |report: Report| (false, to_json(&JsConversionReport::failed(&report)));
    let report = report.clone();
    let document = match parse(text, &settings.validation.limits) {
        Ok(document) => document,
        Err(errors) => return failed(merged(report, errors)),
    };
    if let Some(splice) = splice {
        splice.add_literals(document.literals());
    }
    let (request, mut validated) = match run(&document, subject, &settings.validation).into_result() {
        Ok(valid) => valid,
        Err(errors) => return failed(merged(report, errors)),
    };
    let Some(provider) = settings.provider else {
        return failed(merged(report, validated));
    };
    // Converted even when some options were unreadable, so every problem is reported at once.
    match agent_input::convert::convert_into_spliced(provider, &request, &settings.convert, false, body, splice) {
        Ok(warnings) if report.is_ok() => {
            validated.warnings.extend(warnings);
            if validated.warnings.is_empty() {
                // Nothing to report: the caller builds the result itself (see `convert`).
                return (true, String::new());
            }
            (true, to_json(&JsConversionReport::converted(&validated.warnings)))
        }
        Ok(warnings) => {
            body.clear();
            validated.warnings.extend(warnings);
            failed(merged(report, validated))
        }
        Err(errors) => {
            body.clear();
            failed(merged(merged(report, validated), errors))
        }
    }
}

/// Reads a provider response body (JSON text) into the standard message, stop reason and usage.
#[cfg(any(test, feature = "response"))]
pub(crate) fn parse_response(provider: &str, text: &str) -> String {
    let Some(provider) = agent_input::ProviderId::parse(provider) else {
        let ids: Vec<&str> = agent_input::ProviderId::ALL.iter().map(|p| p.as_str()).collect();
        let mut report = Report::default();
        report.push(
            agent_input::Diagnostic::new(
                agent_input::Code::InvalidParameter,
                agent_input::Path::root().key("provider"),
                format!("unknown provider '{provider}'; use one of {}", ids.join(", ")),
            )
            .expected(ids)
            .received(provider),
        );
        return to_json(&JsResponseReport::failed(&report));
    };
    match agent_input::response::parse(provider, text) {
        Ok(response) => to_json(&JsResponseReport::read(&response)),
        Err(report) => to_json(&JsResponseReport::failed(&report)),
    }
}

/// A provider's request body imported into the standard request (`to`: also converted), as
/// `importRequest` returns it. An unknown provider is an `invalid_parameter` at `/provider` (or
/// `/options/to`).
#[cfg(any(test, feature = "import"))]
pub(crate) fn import_request(provider: &str, text: &str, to: Option<&str>) -> String {
    to_json(&crate::dto::JsImportReport::from(&translation(provider, text, to)))
}

/// `importRequest` with `{ to, only }`: the target body alone, reported as `convert` reports one,
/// `{ ok, body: null, errors, warnings }` with the body's JSON text the second value, for the
/// caller to put in place of the `null`, or `{ ok, errors, warnings }` without a body. The
/// standard request and options are neither written nor parsed again.
///
/// With `units` (the request's length in UTF-16 code units, as JavaScript holds it), each large
/// payload of the request is a [`MARK`](agent_input::convert::MARK) in the body text, and the third value says where it
/// stands in the request's JavaScript string (start and length, a pair each, in the order of the
/// marks): the caller joins the body from the text between the marks and slices of the request,
/// so the megabytes are neither written nor decoded out of wasm memory.
///
/// The browsers' module (without feature `speed`) converts to a JSON value, as the full import
/// does, and leaves nothing out: the body's text writer and the splice would take it over its
/// size budget (docs/decisions/npm.md, "The browsers' import module"). Unless `as_text`, its
/// report then holds the body itself, and there is no second value.
#[cfg(any(test, feature = "import"))]
pub(crate) fn import_body(
    provider: &str,
    text: &str,
    to: &str,
    as_text: bool,
    units: Option<usize>,
) -> (String, Option<String>, Vec<u32>) {
    #[cfg(not(any(test, all(feature = "import", feature = "speed"))))]
    {
        use crate::dto::JsImportedBody;
        let _ = units;
        let t = translation(provider, text, Some(to));
        let body = t.body.as_ref().filter(|_| t.ok);
        if as_text {
            let report = JsImportedBody::new(t.ok, &t.errors, &t.warnings, body.map(|_| &Value::Null));
            (to_json(&report), body.map(to_json), Vec::new())
        } else {
            (to_json(&JsImportedBody::new(t.ok, &t.errors, &t.warnings, body)), None, Vec::new())
        }
    }
    #[cfg(any(test, all(feature = "import", feature = "speed")))]
    {
        let _ = as_text;
        import_body_spliced(provider, text, to, units)
    }
}

/// [`import_body`] by the body's text writer, with the splice.
#[cfg(any(test, all(feature = "import", feature = "speed")))]
fn import_body_spliced(
    provider: &str,
    text: &str,
    to: &str,
    units: Option<usize>,
) -> (String, Option<String>, Vec<u32>) {
    use crate::dto::JsImportedBody;
    let (from, to) = match providers(provider, Some(to)) {
        Ok((from, Some(to))) => (from, to),
        other => {
            let report = other.err().unwrap_or_default();
            return (to_json(&JsImportedBody::new(false, &report.errors, &report.warnings, None)), None, Vec::new());
        }
    };
    let limits = validate::Options::default().limits;
    let mut body = String::new();
    let translate = |body: &mut String, splice: Option<&Splice<'_>>| {
        agent_input::import::translate_str_into(from, text, to, None, &limits, body, splice)
    };
    let mut spans = Vec::new();
    let report = match units {
        Some(units) => {
            let splice = Splice::new(&[text]);
            let report = translate(&mut body, Some(&splice));
            let marked: Vec<(usize, usize)> =
                splice.into_spans().into_iter().map(|(_, start, len)| (start, len)).collect();
            // Counted as the caller splits the body: every `\uFFFF` in its text, escaped or not.
            if marks(&body).count() == marked.len() {
                spans = utf16_spans(text, units, &marked);
                report
            } else {
                // The mark also in text copied raw from the request (tool arguments): the whole body.
                translate(&mut body, None)
            }
        }
        None => translate(&mut body, None),
    };
    let ok = report.is_ok();
    let placeholder = ok.then_some(&Value::Null);
    (to_json(&JsImportedBody::new(ok, &report.errors, &report.warnings, placeholder)), ok.then_some(body), spans)
}

/// The provider ids `importRequest` is given, or the problems with them: each unknown one at
/// `/provider` or `/options/to`.
#[cfg(any(test, feature = "import"))]
fn providers(
    provider: &str,
    to: Option<&str>,
) -> Result<(agent_input::ProviderId, Option<agent_input::ProviderId>), Report> {
    use agent_input::{Code, Diagnostic, Path, ProviderId};
    let ids: Vec<&str> = ProviderId::ALL.iter().map(|p| p.as_str()).collect();
    let unknown = |at: Path, raw: &str| {
        Diagnostic::new(Code::InvalidParameter, at, format!("unknown provider '{raw}'; use one of {}", ids.join(", ")))
            .expected(ids.iter().copied())
            .received(raw)
    };
    let from = ProviderId::parse(provider);
    let target = to.map(|to| ProviderId::parse(to).ok_or(to));
    let mut problems = Report::default();
    if from.is_none() {
        problems.push(unknown(Path::root().key("provider"), provider));
    }
    if let Some(Err(raw)) = target {
        problems.push(unknown(Path::root().key("options").key("to"), raw));
    }
    match (from, target) {
        (Some(from), None | Some(Ok(_))) if problems.is_ok() => Ok((from, target.and_then(Result::ok))),
        _ => Err(problems),
    }
}

#[cfg(any(test, feature = "import"))]
fn translation(provider: &str, text: &str, to: Option<&str>) -> agent_input::import::Translation {
    match providers(provider, to) {
        Ok((from, target)) => {
            agent_input::import::translate_str(from, text, target, &validate::Options::default().limits)
        }
        Err(problems) => agent_input::import::Translation {
            ok: false,
            request: Value::Null,
            options: Value::Object(serde_json::Map::new()),
            body: to.map(|_| Value::Null),
            errors: problems.errors,
            warnings: problems.warnings,
        },
    }
}

/// The `question` ml-commons would read from a bare input, or `None` when the input is not valid.
pub(crate) fn question(text: Text<'_>) -> Option<String> {
    let options = validate::Options::default();
    let document = parse(text, &options.limits).ok()?;
    let validation = run(&document, Subject::Input, &options);
    validation.request.map(|request| request.input.question())
}

/// A bare input's form, when it can be told (also for input with errors).
pub(crate) fn input_type(text: Text<'_>) -> Option<InputType> {
    let options = validate::Options::default();
    let document = parse(text, &options.limits).ok()?;
    run(&document, Subject::Input, &options).input_type
}

#[cfg(test)]
mod tests;
