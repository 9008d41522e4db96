//! What each exported function does once its arguments are JSON text: plain Rust, so it is tested
//! natively like the rest of the workspace. The wasm layer (`lib.rs`) only turns JavaScript
//! values into text and reports back into objects.

use std::cell::RefCell;
use std::rc::Rc;

use agent_input::convert::{MARK, Splice};
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
/// payloads are left out of `body`, each a [`MARK`] there, and [`take_splices`] gives where each
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
    if body.matches(MARK).count() != spans.len() {
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
/// `{ ok, body?, errors, warnings }`, without the standard request and options (neither written
/// nor parsed again). With `as_text`, the body is its JSON text, the second value; the report's
/// `body` is then a `null` for the caller to replace.
#[cfg(any(test, feature = "import"))]
pub(crate) fn import_body(provider: &str, text: &str, to: &str, as_text: bool) -> (String, Option<String>) {
    use crate::dto::JsImportedBody;
    let translation = translation(provider, text, Some(to));
    let body = translation.body.as_ref().filter(|_| translation.ok);
    if as_text {
        let report = JsImportedBody::new(&translation, body.map(|_| &Value::Null));
        (to_json(&report), body.map(to_json))
    } else {
        (to_json(&JsImportedBody::new(&translation, body)), None)
    }
}

#[cfg(any(test, feature = "import"))]
fn translation(provider: &str, text: &str, to: Option<&str>) -> agent_input::import::Translation {
    use agent_input::{Code, Diagnostic, Path, ProviderId};
    let ids: Vec<&str> = ProviderId::ALL.iter().map(|p| p.as_str()).collect();
    let unknown = |at: Path, raw: &str| {
        Diagnostic::new(Code::InvalidParameter, at, format!("unknown provider '{raw}'; use one of {}", ids.join(", ")))
            .expected(ids.iter().copied())
            .received(raw)
    };
    let from = ProviderId::parse(provider);
    let target = to.map(|to| ProviderId::parse(to).ok_or(to));
    let mut problems = Vec::new();
    if from.is_none() {
        problems.push(unknown(Path::root().key("provider"), provider));
    }
    if let Some(Err(raw)) = target {
        problems.push(unknown(Path::root().key("options").key("to"), raw));
    }
    match (from, target) {
        (Some(from), None | Some(Ok(_))) if problems.is_empty() => agent_input::import::translate_str(
            from,
            text,
            target.and_then(Result::ok),
            &validate::Options::default().limits,
        ),
        _ => agent_input::import::Translation {
            ok: false,
            request: Value::Null,
            options: Value::Object(serde_json::Map::new()),
            body: to.map(|_| Value::Null),
            errors: problems,
            warnings: Vec::new(),
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
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn import_request_reports_in_javascript_shape() {
        let body = r#"{"model": "gpt-5", "messages": [{"role": "user", "content": "Hi"}]}"#;
        let report: Value = serde_json::from_str(&import_request("openai-chat", body, Some("gemini"))).unwrap();
        assert_eq!(report["ok"], true);
        assert_eq!(report["request"], json!({"input": "Hi"}));
        assert_eq!(report["body"]["contents"][0]["parts"][0]["text"], "Hi");
        assert_eq!(report["options"], json!({"model": "gpt-5"}), "the model is carried as an option");
        assert_eq!(report["warnings"], json!([]));
        let report: Value = serde_json::from_str(&import_request("openai-chat", body, None)).unwrap();
        assert!(report.get("body").is_none(), "no body without a target: {report}");
        let report: Value = serde_json::from_str(&import_request("cohere", body, Some("nope"))).unwrap();
        assert_eq!(report["ok"], false);
        let paths: Vec<&str> =
            report["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
        assert_eq!(paths, ["/provider", "/options/to"]);
        assert_eq!(report["body"], Value::Null);
    }

    #[test]
    fn import_body_reports_the_body_alone() {
        let body = r#"{"model": "gpt-5", "messages": [{"role": "user", "content": "Hi \"there\"\n"}]}"#;
        let full: Value = serde_json::from_str(&import_request("openai-chat", body, Some("gemini"))).unwrap();
        let (report, text) = import_body("openai-chat", body, "gemini", false);
        let report: Value = serde_json::from_str(&report).unwrap();
        assert_eq!(text, None);
        assert_eq!(report, json!({"ok": true, "body": full["body"], "errors": [], "warnings": full["warnings"]}));
        assert_eq!(report["body"]["contents"][0]["parts"][0]["text"], "Hi \"there\"\n");

        let (report, text) = import_body("openai-chat", body, "gemini", true);
        let report: Value = serde_json::from_str(&report).unwrap();
        assert_eq!(report, json!({"ok": true, "body": null, "errors": [], "warnings": full["warnings"]}));
        assert_eq!(serde_json::from_str::<Value>(&text.unwrap()).unwrap(), full["body"]);

        // No body when there are errors, in either form: the report says why.
        for as_text in [false, true] {
            let (report, text) = import_body("openai-chat", r#"{"messages": []}"#, "gemini", as_text);
            let report: Value = serde_json::from_str(&report).unwrap();
            assert_eq!((report["ok"].clone(), report.get("body"), text), (json!(false), None, None));
            assert!(!report["errors"].as_array().unwrap().is_empty(), "{report}");
            let (report, _) = import_body("openai-chat", body, "nope", as_text);
            let report: Value = serde_json::from_str(&report).unwrap();
            assert_eq!(report["errors"][0]["path"], "/options/to");
            assert_eq!(report.get("body"), None);
        }
    }

    /// Validates with options given as JSON, as the base entry's binding reads them.
    fn validate(text: &str, subject: Subject, options: &Value) -> String {
        let (options, report, model) = validate_model_options(Some(&options.to_string()));
        super::validate(Ok(text), subject, &options, &report, model.as_deref())
    }

    /// Converts with settings given as JSON, as the binding reads them.
    fn convert(text: &str, subject: Subject, settings: &Value, body: &mut String) -> (bool, String) {
        let (settings, report) = ConvertSettings::read_json(settings);
        super::convert(Ok(text), subject, &settings, &report, body, None)
    }

    fn question(text: &str) -> Option<String> {
        super::question(Ok(text))
    }

    fn input_type(text: &str) -> Option<InputType> {
        super::input_type(Ok(text))
    }

    #[test]
    fn text_measured_over_the_limit_is_too_large_like_text_read() {
        // The binding passes only the length of text over the body limit.
        let (options, report) = validate::Options::read_json(&json!({"limits": {"maxBodyBytes": 5}}));
        let measured = parse(&super::validate(Err(18), Subject::Request, &options, &report, None));
        let read = parse(&validate(r#"{"input": "Hello"}"#, Subject::Request, &json!({"limits": {"maxBodyBytes": 5}})));
        assert_eq!(measured, read);
        assert_eq!(measured["errors"][0]["actual"], 18);

        let (settings, report) =
            ConvertSettings::read_json(&json!({"provider": "gemini", "limits": {"maxBodyBytes": 5}}));
        let mut body = String::new();
        let (ok, measured) = super::convert(Err(18), Subject::Request, &settings, &report, &mut body, None);
        let (_, read) = convert(
            r#"{"input": "Hello"}"#,
            Subject::Request,
            &json!({"provider": "gemini", "limits": {"maxBodyBytes": 5}}),
            &mut body,
        );
        assert!(!ok);
        assert_eq!(parse(&measured), parse(&read));
        assert_eq!(parse(&measured)["errors"][0]["code"], "too_large");
        assert_eq!(super::question(Err(1 << 30)), None);
        assert_eq!(super::input_type(Err(1 << 30)), None);
    }

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).expect("reports are JSON")
    }

    #[test]
    fn responses_are_read_for_every_provider() {
        let report = parse(&parse_response(
            "anthropic-messages",
            r#"{"content":[{"type":"text","text":"Hi"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":2}}"#,
        ));
        assert_eq!(
            report,
            json!({"ok": true, "message": {"role": "assistant", "content": [{"type": "text", "text": "Hi"}]},
                "stopReason": "end_turn", "usage": {"inputTokens": 1, "outputTokens": 2, "totalTokens": 3}, "errors": []})
        );
        let bad = parse(&parse_response("openai", "{}"));
        assert_eq!(bad["errors"][0]["path"], "/provider");
        let bad = parse(&parse_response("gemini", "{}"));
        assert_eq!(bad["ok"], false);
        assert_eq!(bad["errors"][0]["code"], "missing_field");
    }

    #[test]
    fn a_valid_request_reports_its_type_and_warnings() {
        let report = parse(&validate(
            r#"{"input": [{"type": "image", "source": {"type": "base64", "format": "jpg", "data": "/9j/4A=="}}]}"#,
            Subject::Request,
            &Value::Null,
        ));
        assert_eq!(report["valid"], true);
        assert_eq!(report["inputType"], "CONTENT_BLOCKS");
        assert_eq!(report["errors"], json!([]));
        assert_eq!(report["warnings"][0]["code"], "format_normalized");
        assert_eq!(report["warnings"][0]["path"], "/input/0/source/format");
    }

    #[test]
    fn diagnostics_have_the_javascript_shape() {
        let report = parse(&validate(
            r#"{"input": [{"type": "image", "source": {"type": "base64", "format": "bmp", "data": "Qk0="}}]}"#,
            Subject::Request,
            &Value::Null,
        ));
        assert_eq!(report["valid"], false);
        let error = &report["errors"][0];
        assert_eq!(
            error.as_object().unwrap().keys().collect::<Vec<_>>(),
            ["code", "path", "message", "expected", "received"]
        );
        assert_eq!(error["expected"], json!(["png", "jpeg", "gif", "webp"]));
        assert_eq!(error["received"], "bmp");

        let too_large =
            parse(&validate(r#"{"input": "Hello"}"#, Subject::Request, &json!({"limits": {"maxBodyBytes": 5}})));
        assert_eq!(too_large["errors"][0]["code"], "too_large");
        assert_eq!(too_large["errors"][0]["limit"], 5);
        assert_eq!(too_large["errors"][0]["actual"], 18);
        assert_eq!(too_large["inputType"], Value::Null);
    }

    #[test]
    fn bare_input_paths_start_at_the_input() {
        let report = parse(&validate(r#"[{"type": "text", "text": " "}]"#, Subject::Input, &Value::Null));
        assert_eq!(report["errors"][0]["path"], "/0/text");
        assert_eq!(report["inputType"], "CONTENT_BLOCKS");
    }

    #[test]
    fn option_errors_come_with_the_validation() {
        let report = parse(&validate(r#"{"input": ""}"#, Subject::Request, &json!({"allowPrefill": 1})));
        let codes: Vec<_> = report["errors"].as_array().unwrap().iter().map(|e| (&e["code"], &e["path"])).collect();
        assert_eq!(codes.len(), 2);
        assert_eq!(codes[0], (&json!("invalid_parameter"), &json!("/options/allowPrefill")));
        assert_eq!(codes[1], (&json!("empty_input"), &json!("/input")));
        assert_eq!(report["inputType"], "TEXT");
    }

    #[test]
    fn prefill_is_an_option() {
        let text = r#"{"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]},
                                 {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]}]}"#;
        assert_eq!(parse(&validate(text, Subject::Request, &Value::Null))["errors"][0]["code"], "last_message_role");
        assert_eq!(parse(&validate(text, Subject::Request, &json!({"allowPrefill": true})))["valid"], true);
    }

    #[test]
    fn converting_writes_the_body_and_the_warnings() {
        let mut body = String::from("stale");
        let (ok, report) = convert(
            r#"{"input": "Hi", "parameters": {"question": "ignored"}}"#,
            Subject::Request,
            &json!({"provider": "bedrock-converse", "maxTokens": 10}),
            &mut body,
        );
        assert!(ok);
        assert_eq!(
            parse(&body),
            json!({"messages": [{"role": "user", "content": [{"text": "Hi"}]}], "inferenceConfig": {"maxTokens": 10}})
        );
        let report = parse(&report);
        assert_eq!(report, json!({"ok": true, "body": null, "errors": [], "warnings": [report["warnings"][0]]}));
        assert_eq!(report["warnings"][0]["code"], "question_ignored");
    }

    #[test]
    fn a_failed_conversion_has_no_body_and_keeps_its_warnings() {
        let mut body = String::new();
        let (ok, report) = convert(
            r#"[{"type": "text", "text": "Look"},
                {"type": "image", "source": {"type": "url", "format": "JPG", "data": "https://example.com/a.jpg"}}]"#,
            Subject::Input,
            &json!({"provider": "bedrock-converse"}),
            &mut body,
        );
        assert!(!ok);
        assert!(body.is_empty());
        let report = parse(&report);
        assert_eq!(report.as_object().unwrap().keys().collect::<Vec<_>>(), ["ok", "errors", "warnings"]);
        assert_eq!(report["errors"][0]["code"], "url_not_supported_by_provider");
        assert_eq!(report["errors"][0]["path"], "/1/source/data");
        assert_eq!(report["warnings"][0]["code"], "format_normalized");
    }

    #[test]
    fn validation_takes_the_model_beside_its_options() {
        let request = r#"{"input": "Hello"}"#;
        let report = parse(&validate(request, Subject::Request, &json!({"model": " o3-mini ", "allowPrefill": true})));
        assert_eq!(report["valid"], true, "{report}");
        // Built without the model table (the base module): the warning says where the table is.
        assert_eq!(report["warnings"][0]["code"], "unknown_model");
        assert_eq!(report["warnings"][0]["path"], "/options/model");
        assert_eq!(report["warnings"][0]["received"], "o3-mini");
        assert!(report["warnings"][0]["message"].as_str().unwrap().contains("import agent-input/models"));
        // A model that is not an id is an option error, beside the other options' own.
        let report = parse(&validate(request, Subject::Request, &json!({"model": 5, "allowPrefill": 1})));
        let paths: Vec<_> = report["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
        assert_eq!(paths, ["/options/allowPrefill", "/options/model"]);
        assert_eq!(report["valid"], false);
        // Without a model, nothing about one.
        assert_eq!(parse(&validate(request, Subject::Request, &json!({})))["warnings"], json!([]));
    }

    #[test]
    fn conversion_reports_option_and_input_errors_together() {
        let mut body = String::new();
        let (ok, report) = convert(r#"{"input": 5}"#, Subject::Request, &json!({"temperature": 3}), &mut body);
        assert!(!ok);
        let report = parse(&report);
        let codes: Vec<_> = report["errors"].as_array().unwrap().iter().map(|e| e["path"].as_str().unwrap()).collect();
        assert_eq!(codes, ["/options/provider", "/input"]);

        let (ok, report) = convert("{", Subject::Request, &json!({"provider": "bedrock-converse"}), &mut body);
        assert!(!ok);
        assert_eq!(parse(&report)["errors"][0]["code"], "invalid_json");
    }

    #[test]
    fn settings_read_from_the_same_text_are_reused() {
        let text = r#"{"provider":"bedrock-converse","maxTokens":5}"#;
        let first = convert_settings(text);
        let again = convert_settings(text);
        assert!(Rc::ptr_eq(&first, &again));
        assert_eq!(first.0.convert.max_tokens, Some(5));
        let other = convert_settings(r#"{"provider":"bedrock-converse","maxTokens":6}"#);
        assert_eq!(other.0.convert.max_tokens, Some(6));
        assert!(!Rc::ptr_eq(&first, &other));
        // Options taking turns are each read once, up to KEPT_SETTINGS of them.
        let texts: Vec<String> =
            (0..KEPT_SETTINGS).map(|n| format!(r#"{{"provider":"gemini","maxTokens":{n}}}"#)).collect();
        let read: Vec<_> = texts.iter().map(|text| convert_settings(text)).collect();
        for _ in 0..3 {
            for (text, settings) in texts.iter().zip(&read) {
                assert!(Rc::ptr_eq(&convert_settings(text), settings));
            }
        }
        // One more set: the least recently used goes.
        convert_settings(r#"{"provider":"gemini"}"#);
        assert!(!Rc::ptr_eq(&convert_settings(&texts[0]), &read[0]));
        assert!(Rc::ptr_eq(&convert_settings(&texts[KEPT_SETTINGS - 1]), &read[KEPT_SETTINGS - 1]));
        assert_eq!(convert_settings("null").1.errors[0].path.to_string(), "/options/provider");
        assert_eq!(
            validate_options(Some(r#"{"allowPrefill":1}"#)).1.errors[0].path.to_string(),
            "/options/allowPrefill"
        );
        assert!(validate_options(None).1.is_ok());
    }

    #[test]
    fn question_and_input_type_of_bare_inputs() {
        assert_eq!(
            question(r#"[{"type": "text", "text": " a "}, {"type": "text", "text": "b"}]"#).as_deref(),
            Some("a\nb\n")
        );
        assert_eq!(question(r#"" plain ""#).as_deref(), Some(" plain "));
        assert_eq!(
            question(r#"[{"role": "user", "content": [{"type": "text", "text": "Hi"}]}]"#).as_deref(),
            Some("Hi\n")
        );
        assert_eq!(question("[]"), None);
        assert_eq!(question(r#"{"input": "a request is not an input"}"#), None);
        assert_eq!(question("{"), None);

        assert_eq!(input_type(r#"" ""#), Some(InputType::Text));
        assert_eq!(input_type(r#"[{"role": "user"}]"#), Some(InputType::Messages));
        assert_eq!(input_type(r#"[{"type": "text"}]"#), Some(InputType::ContentBlocks));
        assert_eq!(input_type(r#"[{"role": "user"}, {"type": "text"}]"#), None);
        assert_eq!(input_type(r#"{"input": "Hi"}"#), None);
        assert_eq!(input_type("5"), None);
        assert_eq!(input_type("not json"), None);
    }

    #[test]
    fn utf16_length_of_every_kind_of_character_at_every_offset() {
        for c in ['a', '\u{7f}', 'é', '\u{7ff}', '東', '\u{ffff}', '🙂', '\u{10ffff}'] {
            for before in 0..9 {
                for after in 0..9 {
                    let text = format!("{}{c}{}", "x".repeat(before), "y".repeat(after));
                    assert_eq!(super::utf16_len(text.as_bytes()), text.encode_utf16().count(), "{text:?}");
                }
            }
        }
    }

    /// Byte ranges become the UTF-16 ranges JavaScript slices: one unit a character, two for one
    /// of four bytes, whatever the order of the ranges.
    #[test]
    fn splice_ranges_in_utf16() {
        let text = "aé日🙂QUJD\u{fffd}QUJD";
        let units = text.encode_utf16().count();
        let at = |needle: &str, from: usize| text[from..].find(needle).unwrap() + from;
        let first = at("QUJD", 0);
        let second = at("QUJD", first + 1);
        let spans = utf16_spans(text, units, &[(second, 4), (first, 4), (second, 4)]);
        let utf16: Vec<u16> = text.encode_utf16().collect();
        for pair in spans.chunks(2) {
            let (start, len) = (pair[0] as usize, pair[1] as usize);
            assert_eq!(String::from_utf16(&utf16[start..start + len]).unwrap(), "QUJD");
        }
        assert_eq!(spans, [10, 4, 5, 4, 10, 4]);
        assert_eq!(utf16_spans("xxQUJD", 6, &[(2, 4)]), [2, 4]);
        // Texts, whose ranges hold other characters than base64's.
        let texts = [(1, "é日🙂QUJD".len()), (at("🙂", 0), 5), (0, text.len())];
        let spans = utf16_spans(text, units, &texts);
        for (pair, (start, len)) in spans.chunks(2).zip(texts) {
            let range = pair[0] as usize..(pair[0] + pair[1]) as usize;
            assert_eq!(String::from_utf16(&utf16[range]).unwrap(), text[start..start + len]);
        }
    }
}
