//! What the validation and output panes show for one body: the core's validation and conversion
//! (long base64 shortened for display) and the schema's report when the schema editor is on
//! (`verdict` sums it up).

use agent_input::json::Document;
use agent_input::{
    AgentInput, ContentBlock, ConvertOptions, Diagnostic, ExecuteRequest, ProviderId, Report, Source, convert, validate,
};
use serde_json::Value;

use super::display::{SHORTEN_KEEP, SHORTEN_OVER, push_shortened, shorten_json_text};
use super::placeholders::{TOKEN_OVER, Token, expand_tokens};
use super::schema::{Finding, SchemaReport};
use super::settings::Settings;

/// The provider request the body converts to, as the output pane shows it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Conversion {
    /// The input has errors; nothing to convert.
    Invalid,
    /// The body, pretty-printed with long base64 shortened, and the conversion's warnings.
    Converted { view: String, warnings: Vec<Diagnostic> },
    /// The provider cannot take this input (or the options are wrong).
    Failed(Report),
}

/// Everything the validation and output panes show for one body.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Analysis {
    pub(crate) input_type: Option<&'static str>,
    pub(crate) valid: bool,
    pub(crate) errors: Vec<Diagnostic>,
    pub(crate) warnings: Vec<Diagnostic>,
    /// Where the text stops being JSON: (line, column), both from 1.
    pub(crate) json_error_at: Option<(usize, usize)>,
    pub(crate) question: Option<String>,
    pub(crate) conversion: Conversion,
    /// The schema's say, when the schema editor is on.
    pub(crate) schema: Option<SchemaReport>,
    /// Every provider's conversion side by side, when the compare view is open (and the input
    /// is valid).
    pub(crate) compare: Option<Vec<(ProviderId, Conversion)>>,
}

impl Analysis {
    pub(crate) fn empty() -> Self {
        Self {
            input_type: None,
            valid: false,
            errors: Vec::new(),
            warnings: Vec::new(),
            json_error_at: None,
            question: None,
            conversion: Conversion::Invalid,
            schema: None,
            compare: None,
        }
    }

    /// The schema's violations (none while the editor is off).
    pub(crate) fn violations(&self) -> &[Finding] {
        self.schema.as_ref().map_or(&[], |s| &s.violations)
    }

    /// The schema's own problems (shown at the schema editor): not JSON counts as one.
    pub(crate) fn schema_problems(&self) -> usize {
        self.schema.as_ref().map_or(0, |s| s.problems.len() + usize::from(s.json_error.is_some()))
    }

    /// Valid, and within a usable schema.
    pub(crate) fn all_valid(&self) -> bool {
        self.valid && self.violations().is_empty() && self.schema_problems() == 0
    }
}

/// Validates and converts request text (the JSON editor's); `compare`: for every provider too.
pub(crate) fn analyze_text(text: &str, settings: &Settings, compare: bool) -> Analysis {
    let options = settings.validation_options();
    match validate::parse(text, &options.limits) {
        Ok(document) => analyze_document(&document, settings, compare, &Known::default()),
        Err(report) => not_parsed(text, report),
    }
}

fn not_parsed(text: &str, report: Report) -> Analysis {
    let json_error_at = serde_json::from_str::<serde::de::IgnoredAny>(text.strip_prefix('\u{feff}').unwrap_or(text))
        .err()
        .map(|e| (e.line(), e.column()));
    Analysis { errors: report.errors, warnings: report.warnings, json_error_at, ..Analysis::empty() }
}

/// Validates and converts a body the forms hold; `compare`: for every provider too. `known`:
/// the body's payloads already checked (the forms' media between keystrokes).
pub(crate) fn analyze_value(value: &Value, settings: &Settings, compare: bool, known: &Known) -> Analysis {
    analyze_document(&validate::document(value), settings, compare, known)
}

/// Validates and converts the JSON editor's text, its placeholders standing for `tokens`' media.
/// The payloads are not put into the text (megabytes copied and parsed each keystroke): the
/// text is parsed as it is, then each placeholder's string is swapped for its payload in the
/// tree (moved, not copied, and moved back after), and payloads checked when the editor was
/// filled are not checked again. Text the tree cannot take exactly (over the body limit with
/// its payloads, or JSON `serde_json`'s tree refuses) goes the whole way, as written.
pub(crate) fn analyze_json(text: &str, tokens: &mut [Token], settings: &Settings, compare: bool) -> Analysis {
    let limits = settings.validation_options().limits;
    let with_payloads = tokens.iter().fold(text.len(), |n, t| n + t.extra_len(text));
    if with_payloads > limits.max_body_bytes {
        return analyze_text(&expand_tokens(text, tokens, false), settings, compare);
    }
    if let Err(report) = validate::parse(text, &limits) {
        return not_parsed(text, report);
    }
    let Ok(mut value) = serde_json::from_str::<Value>(text.strip_prefix('\u{feff}').unwrap_or(text)) else {
        return analyze_text(&expand_tokens(text, tokens, false), settings, compare);
    };
    let owned = swap_in(&mut value, tokens);
    let known = Known { entries: owned.iter().map(|&(_, ptr, len, valid)| (ptr, len, valid)).collect() };
    let analysis = analyze_value(&value, settings, compare, &known);
    swap_out(&mut value, tokens, &owned);
    analysis
}

/// Puts each token's payload in place of its placeholder's string (the first of them; a copy at
/// any other); returns (token, address, length, checked valid) of those moved.
fn swap_in(value: &mut Value, tokens: &mut [Token]) -> Vec<(usize, usize, usize, bool)> {
    let mut owned: Vec<(usize, usize, usize, bool)> = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                if let Some(i) = tokens.iter().position(|t| t.is_placeholder(s)) {
                    if owned.iter().any(|&(j, ..)| j == i) {
                        s.clone_from(&tokens[i].data);
                    } else {
                        *s = std::mem::take(&mut tokens[i].data);
                        owned.push((i, s.as_ptr() as usize, s.len(), tokens[i].valid));
                    }
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
    owned
}

/// Moves the payloads [`swap_in`] moved back into their tokens.
fn swap_out(value: &mut Value, tokens: &mut [Token], owned: &[(usize, usize, usize, bool)]) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => {
                if let Some(&(i, ..)) =
                    owned.iter().find(|&&(_, ptr, len, _)| ptr == s.as_ptr() as usize && len == s.len())
                {
                    tokens[i].data = std::mem::take(s);
                }
            }
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

/// Base64 payloads already checked, by identity (address and length) of strings their owner
/// keeps unchanged: the JSON editor's tokens, or the forms' payloads until the forms' structure
/// changes. The validator skips its alphabet scan for those found valid here.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Known {
    entries: Vec<(usize, usize, bool)>,
}

impl Known {
    /// Records every `data` string of `value` longer than the JSON editor's placeholder
    /// threshold (the forms show those as sizes, never as editable text), checked once.
    pub(crate) fn of_payloads(value: &Value) -> Self {
        let mut entries = Vec::new();
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::Object(map) => {
                    for (k, v) in map {
                        match v {
                            Value::String(s) if k == "data" && s.len() > TOKEN_OVER => {
                                entries.push((s.as_ptr() as usize, s.len(), agent_input::base64::check(s).is_ok()));
                            }
                            other => stack.push(other),
                        }
                    }
                }
                Value::Array(items) => stack.extend(items),
                _ => {}
            }
        }
        Self { entries }
    }

    fn is_known(&self, text: &str) -> bool {
        self.entries.iter().any(|&(ptr, len, valid)| valid && ptr == text.as_ptr() as usize && len == text.len())
    }
}

thread_local! {
    /// The converted body's text, reused: a fresh buffer the size of the body each time (first
    /// touched, grown by doubling) costs more than the copy itself for megabytes of media.
    static BODY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

fn analyze_document(document: &Document<'_>, settings: &Settings, compare: bool, known: &Known) -> Analysis {
    let is_known = |text: &str| known.is_known(text);
    let mut validation = validate::validate_request_known(
        document,
        &settings.validation_options(),
        (!known.entries.is_empty()).then_some(&is_known as &dyn Fn(&str) -> bool),
    );
    if settings.schema_on {
        // The prompt-only `{"parameters": {"prompt": ...}}` is valid under a schema (contract §8).
        validation = validation.with_prompt_as_input();
    }
    let input_type = validation.input_type.map(agent_input::InputType::as_str);
    let valid = validation.is_valid();
    let errors = validation.report.errors.clone();
    let warnings = validation.report.warnings.clone();
    let (question, conversion, compare) = match validation.into_result() {
        Err(_) => (None, Conversion::Invalid, None),
        Ok((request, _)) => {
            let question = Some(request.input.question());
            let (options, report) = settings.options();
            let payloads = payloads(&request);
            let conversion = convert_for(settings.provider, &request, &options, &report, &payloads);
            let compare = compare.then(|| {
                ProviderId::ALL
                    .iter()
                    .map(|&p| {
                        let c = if p == settings.provider {
                            conversion.clone()
                        } else {
                            convert_for(p, &request, &options, &report, &payloads)
                        };
                        (p, c)
                    })
                    .collect()
            });
            (question, conversion, compare)
        }
    };
    Analysis { input_type, valid, errors, warnings, json_error_at: None, question, conversion, schema: None, compare }
}

/// The request's base64 payloads long enough to be shortened (validated, so base64 throughout).
fn payloads<'r>(request: &'r ExecuteRequest<'_>) -> Vec<&'r str> {
    let blocks: Box<dyn Iterator<Item = &ContentBlock<'_>>> = match &request.input {
        AgentInput::Text(_) => Box::new(std::iter::empty()),
        AgentInput::Blocks(blocks) => Box::new(blocks.iter()),
        AgentInput::Messages(messages) => Box::new(messages.iter().flat_map(|m| m.content.iter())),
    };
    blocks
        .filter_map(|b| match b.source() {
            Some(Source::Base64(data)) if data.len() > SHORTEN_OVER => Some(&**data),
            _ => None,
        })
        .collect()
}

/// One provider's request as the panes show it; `options_report` holds the options' own
/// problems (a bad value fails every provider's conversion alike); `payloads` are shortened
/// without being scanned.
fn convert_for(
    provider: ProviderId,
    request: &ExecuteRequest<'_>,
    options: &ConvertOptions,
    options_report: &Report,
    payloads: &[&str],
) -> Conversion {
    let mut report = options_report.clone();
    // Compact text first, large payloads left out as marks (neither copied nor scanned: a
    // keystroke's conversion does not grow with the media), then shortened, and only then a tree
    // to pretty-print.
    BODY.with_borrow_mut(|body| {
        let mut marked = payloads;
        loop {
            let splice = convert::Splice::new(marked);
            let result = convert::convert_into_spliced(provider, request, options, false, body, Some(&splice));
            let spans = splice.into_spans();
            let short = match &result {
                Ok(_) if report.errors.is_empty() => match marks_shortened(body, &spans, payloads) {
                    Some(text) => Some(shorten_json_text(&text, payloads)),
                    // A mark also in text copied raw (tool arguments): the whole body then.
                    None if !marked.is_empty() => {
                        marked = &[];
                        continue;
                    }
                    None => Some(shorten_json_text(body, payloads)),
                },
                _ => None,
            };
            return match (result, short) {
                (Ok(converted), Some(short)) => {
                    let view = serde_json::from_str::<Value>(&short)
                        .and_then(|v| serde_json::to_string_pretty(&v))
                        .unwrap_or(short);
                    let mut warnings = report.warnings;
                    warnings.extend(converted);
                    Conversion::Converted { view, warnings }
                }
                (Ok(converted), None) => {
                    report.warnings.extend(converted);
                    Conversion::Failed(report)
                }
                (Err(errors), _) => {
                    report.extend(errors);
                    Conversion::Failed(report)
                }
            };
        }
    })
}

/// `body` with each [`convert::MARK`] replaced by its payload as views show it (its start and
/// its length); `None` when the marks and `spans` do not pair up.
fn marks_shortened(body: &str, spans: &[(usize, usize, usize)], payloads: &[&str]) -> Option<String> {
    if spans.is_empty() {
        return Some(body.to_owned());
    }
    let (bytes, mark) = (body.as_bytes(), convert::MARK.as_bytes());
    let mut out = String::with_capacity(body.len() + spans.len() * 96);
    let mut spans = spans.iter();
    let (mut copied, mut i) = (0, 0);
    // Escape by escape (a byte search; `str::split` would link a substring searcher), so `\\uFFFF`
    // written for a backslash and "uFFFF" is not taken for a mark.
    while let Some(at) = bytes.get(i..).and_then(|rest| rest.iter().position(|&b| b == b'\\')) {
        let at = i + at;
        i = at + 2;
        if !bytes[at..].starts_with(mark) {
            continue;
        }
        let &(source, start, len) = spans.next()?;
        let payload = payloads.get(source)?.get(start..start + len)?;
        // Checked base64, whose alphabet JSON does not escape; line breaks would be.
        let head = serde_json::to_string(payload.get(..SHORTEN_KEEP)?).ok()?;
        out.push_str(&body[copied..at]);
        push_shortened(&mut out, head.trim_matches('"'), len);
        copied = at + mark.len();
    }
    if spans.next().is_some() {
        return None;
    }
    out.push_str(&body[copied..]);
    Some(out)
}

/// The whole converted body, pretty-printed, for the Copy button.
pub(crate) fn full_body(value: &Value, settings: &Settings) -> Result<String, String> {
    let document = validate::document(value);
    let validation = validate::validate_request(&document, &settings.validation_options());
    let (request, _) = validation.into_result().map_err(|_| "the input has errors".to_string())?;
    let (options, report) = settings.options();
    if !report.errors.is_empty() {
        return Err("the conversion options have errors".into());
    }
    convert::convert_to_string(settings.provider, &request, &options, true)
        .map(|c| c.body)
        .map_err(|_| "the provider cannot take this input".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::display::{shorten, shorten_str};
    use serde_json::json;

    #[test]
    fn valid_text_converts() {
        let a = analyze_text(r#"{"input": "Hi"}"#, &Settings::default(), false);
        assert!(a.valid);
        assert_eq!(a.input_type, Some("TEXT"));
        assert_eq!(a.question.as_deref(), Some("Hi"));
        let Conversion::Converted { view, warnings } = a.conversion else { panic!("not converted") };
        assert!(warnings.is_empty());
        let body: Value = serde_json::from_str(&view).unwrap();
        assert_eq!(body["messages"][0], json!({"role": "user", "content": [{"text": "Hi"}]}));
    }

    #[test]
    fn invalid_json_says_where() {
        let a = analyze_text("{\n  \"input\": [1,\n}", &Settings::default(), false);
        assert_eq!(a.errors[0].code.as_str(), "invalid_json");
        assert_eq!(a.json_error_at.map(|(line, _)| line), Some(3));
    }

    #[test]
    fn bad_options_fail_the_conversion_not_the_validation() {
        let settings = Settings { temperature: "hot".into(), tools: "[".into(), ..Settings::default() };
        let a = analyze_value(&json!({"input": "Hi"}), &settings, false, &Known::default());
        assert!(a.valid);
        let Conversion::Failed(report) = a.conversion else { panic!("converted") };
        let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert!(paths.contains(&"/options/temperature".to_string()), "{paths:?}");
        assert!(paths.contains(&"/options/tools".to_string()), "{paths:?}");
    }

    #[test]
    fn long_base64_is_shortened_and_the_copy_is_whole() {
        let data = format!("iVBORw0KGgoA{}", "A".repeat(3988));
        let value = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": data}}]});
        let a = analyze_value(&value, &Settings::default(), false, &Known::default());
        let Conversion::Converted { view, .. } = a.conversion else { panic!("not converted") };
        assert!(view.contains("… [4000 base64 characters]"), "{view}");
        assert!(!view.contains(&data));
        let full = full_body(&value, &Settings::default()).unwrap();
        assert!(full.contains(&data));
        assert_eq!(shorten_str("short"), None);
        let text = format!(r#"{{"a":"{data}","b":["x\"{data}",1],"{data}":"é"}}"#);
        let mut tree: Value = serde_json::from_str(&text).unwrap();
        shorten(&mut tree);
        let by_text: Value = serde_json::from_str(&shorten_json_text(&text, &[])).unwrap();
        assert_eq!(by_text, tree);
        assert_eq!(shorten_str(&"é".repeat(300)), None);
    }

    /// The provider fixtures' cases without options, by request: what each provider must show.
    fn fixture_groups() -> Vec<(Value, Vec<(String, Value)>)> {
        let files = [
            include_str!("../../../tests/fixtures/providers-bedrock-converse-basic.json"),
            include_str!("../../../tests/fixtures/providers-bedrock-converse-documents.json"),
            include_str!("../../../tests/fixtures/providers-openai-chat.json"),
            include_str!("../../../tests/fixtures/providers-openai-responses.json"),
            include_str!("../../../tests/fixtures/providers-anthropic-messages.json"),
            include_str!("../../../tests/fixtures/providers-gemini.json"),
        ];
        let mut groups: Vec<(Value, Vec<(String, Value)>)> = Vec::new();
        for text in files {
            let parsed: Value = serde_json::from_str(text).unwrap();
            for case in parsed["cases"].as_array().unwrap() {
                let Some(request) = case.get("request") else { continue };
                if case["expect"]["valid"] != json!(true) || request.to_string().contains("{{base64") {
                    continue;
                }
                let Some(convert) = case["expect"]["convert"].as_object() else { continue };
                for (provider, entry) in convert {
                    if entry.get("options").is_some_and(|o| o.as_object().is_some_and(|o| !o.is_empty())) {
                        continue;
                    }
                    match groups.iter_mut().find(|(r, _)| r == request) {
                        Some((_, by)) => by.push((provider.clone(), entry.clone())),
                        None => groups.push((request.clone(), vec![(provider.clone(), entry.clone())])),
                    }
                }
            }
        }
        groups.retain(|(_, by)| by.len() >= 3);
        groups
    }

    #[test]
    fn compare_shows_every_provider_as_the_fixtures_say() {
        let groups = fixture_groups();
        assert!(groups.len() >= 10, "{}", groups.len());
        let (mut bodies, mut refusals) = (0, 0);
        for (request, by) in &groups {
            let a = analyze_text(&request.to_string(), &Settings::default(), true);
            let all = a.compare.as_ref().unwrap_or_else(|| panic!("no comparison for {request}"));
            assert_eq!(all.len(), ProviderId::ALL.len());
            for (provider, entry) in by {
                let (_, shown) = all.iter().find(|(p, _)| p.as_str() == provider).unwrap();
                match (entry.get("body"), shown) {
                    (Some(body), Conversion::Converted { view, .. }) => {
                        let mut want = body.clone();
                        shorten(&mut want);
                        assert_eq!(serde_json::from_str::<Value>(view).unwrap(), want, "{provider} {request}");
                        bodies += 1;
                    }
                    (None, Conversion::Failed(report)) => {
                        let mut got: Vec<(String, String)> =
                            report.errors.iter().map(|d| (d.code.as_str().to_string(), d.path.to_string())).collect();
                        let mut want: Vec<(String, String)> = entry["errors"]
                            .as_array()
                            .unwrap()
                            .iter()
                            .map(|e| (e["code"].as_str().unwrap().to_string(), e["path"].as_str().unwrap().to_string()))
                            .collect();
                        got.sort();
                        want.sort();
                        assert_eq!(got, want, "{provider} {request}");
                        refusals += 1;
                    }
                    (_, other) => panic!("{provider} {request}: {other:?}"),
                }
            }
        }
        assert!(bodies > 20 && refusals > 5, "{bodies} bodies, {refusals} refusals");
        // Closed, no comparison is computed.
        assert!(analyze_text(r#"{"input": "Hi"}"#, &Settings::default(), false).compare.is_none());
    }

    #[test]
    fn the_json_editor_path_matches_the_whole_text() {
        use crate::model::placeholders::with_tokens;
        let data = format!("iVBORw0KGgoA{}", "A".repeat(8000));
        let bad = format!("iVBORw0KGgoA{}!", "A".repeat(8000));
        for payload in [&data, &bad] {
            let body = json!({"input": [{"type": "text", "text": "Describe"},
                {"type": "image", "source": {"type": "base64", "format": "png", "data": payload}}]});
            let mut tokens = Vec::new();
            let text = serde_json::to_string_pretty(&with_tokens(&body, &mut tokens)).unwrap();
            assert_eq!(tokens.len(), 1);
            for provider in ProviderId::ALL {
                let settings = Settings { provider: *provider, ..Settings::default() };
                let whole = analyze_text(&expand_tokens(&text, &tokens, false), &settings, true);
                let swapped = analyze_json(&text, &mut tokens, &settings, true);
                assert_eq!(swapped, whole, "{provider:?}");
                // The payload is back in its token, unchanged.
                assert_eq!(&tokens[0].data, payload);
            }
        }
        // Not JSON: the error is where the editor shows it.
        let a = analyze_json("{\n  \"input\": [1,\n}", &mut [], &Settings::default(), false);
        assert_eq!(a.errors[0].code.as_str(), "invalid_json");
        assert_eq!(a.json_error_at.map(|(line, _)| line), Some(3));
    }

    #[test]
    fn checked_payloads_are_not_checked_again_but_keep_their_diagnostics() {
        let data = format!("iVBORw0KGgoA{}", "A".repeat(8000));
        let body = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "jpeg", "data": data}}]});
        let known = Known::of_payloads(&body);
        assert_eq!(known.entries.len(), 1);
        let with = analyze_value(&body, &Settings::default(), false, &known);
        let without = analyze_value(&body, &Settings::default(), false, &Known::default());
        // The signature is still sniffed: a PNG declared as JPEG is a mismatch either way.
        assert_eq!(with, without);
        assert_eq!(with.errors[0].code.as_str(), "format_mismatch");
        // A payload that failed the check is checked again, and reported.
        let broken = json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": format!("{data}!")}}]});
        let known = Known::of_payloads(&broken);
        let a = analyze_value(&broken, &Settings::default(), false, &known);
        assert_eq!(a.errors[0].code.as_str(), "invalid_base64");
    }

    /// Large payloads are left out of the conversion as marks; the view must be what converting
    /// them in full and shortening the text shows, for every provider, and when a tool's raw
    /// arguments hold the mark too.
    #[test]
    fn marked_payloads_show_as_the_whole_body_shortened() {
        let png = format!("iVBORw0KGgoA{}", "A".repeat(40_000));
        let pdf = format!("JVBERi0xLjQK{}", "B".repeat(20_000));
        let blocks = json!({"input": [{"type": "text", "text": "Describe"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": png}},
            {"type": "document", "source": {"type": "base64", "format": "pdf", "data": pdf}, "name": "report"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": png}}]});
        let with_tool = json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "Weather?"},
                {"type": "image", "source": {"type": "base64", "format": "png", "data": png}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Checking."}], "toolCalls": [{"id": "c1",
                "type": "function", "function": {"name": "get_weather", "arguments": "{\"note\":\"\\uFFFF\"}"}}]},
            {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "72F"}]}]});
        let (mut shown, mut collisions) = (0, 0);
        for body in [&blocks, &with_tool] {
            let document = validate::document(body);
            let validation = validate::validate_request(&document, &Settings::default().validation_options());
            let (request, _) = validation.into_result().unwrap_or_else(|r| panic!("{r:?}"));
            let payloads = payloads(&request);
            assert!(!payloads.is_empty());
            for &provider in ProviderId::ALL {
                let settings = Settings { provider, ..Settings::default() };
                let (options, report) = settings.options();
                let got = convert_for(provider, &request, &options, &report, &payloads);
                let mut marked = String::new();
                let splice = convert::Splice::new(&payloads);
                let _ = convert::convert_into_spliced(provider, &request, &options, false, &mut marked, Some(&splice));
                let spans = splice.into_spans();
                collisions += usize::from(marked.matches(convert::MARK).count() > spans.len());
                let mut whole = String::new();
                let want = match convert::convert_into(provider, &request, &options, false, &mut whole) {
                    Ok(_) => {
                        let short = shorten_json_text(&whole, &[]);
                        assert!(short.len() < 4000, "{provider:?}: not shortened");
                        Some(serde_json::to_string_pretty(&serde_json::from_str::<Value>(&short).unwrap()).unwrap())
                    }
                    Err(_) => None,
                };
                match (got, want) {
                    (Conversion::Converted { view, .. }, Some(want)) => {
                        assert_eq!(view, want, "{provider:?}");
                        shown += 1;
                    }
                    (Conversion::Failed(_), None) => {}
                    (got, want) => panic!("{provider:?}: {got:?} against {want:?}"),
                }
            }
        }
        assert!(shown >= 8, "{shown}");
        // The fallback was taken: some provider copies the arguments' escape as it is.
        assert!(collisions > 0);
    }
}
