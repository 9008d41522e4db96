//! ml-commons' template filling: Apache commons-text `StringSubstitutor` with prefix
//! `${parameters.`, suffix `}`, default delimiter `:-` and escape `$`, as
//! `HttpConnector.createPayload` and the agent runners use it, and the escaping of
//! `ConnectorUtils.escapeRemoteInferenceInputData`.
//!
//! The substitutor is recursive: a substituted value is itself searched for `${parameters.…}`.
//! That is how text a user wrote inside the input reaches the connector's parameters (ml-commons
//! issue 5036).

use std::collections::HashMap;
use std::hash::BuildHasher;

use crate::convert::mlcommons::escape_json;

const PREFIX: &str = "${parameters.";
const SUFFIX: char = '}';
const DEFAULT: &str = ":-";
const ESCAPE: char = '$';
/// Deepest recursion followed, far beyond any template; deeper input is reported, not followed.
const MAX_DEPTH: usize = 64;

/// Why a template could not be filled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SubstitutionError {
    /// A value refers back to itself: `IllegalStateException: Infinite loop in property
    /// interpolation of …` in ml-commons.
    Cycle(String),
}

/// Fills `${parameters.name}` and `${parameters.name:-default}` from `parameters` as
/// `StringSubstitutor.replace` does: unknown names without a default stay as written,
/// `$${parameters.x}` is the literal `${parameters.x}`, and substituted values are filled again.
///
/// # Errors
/// A value that refers back to itself.
pub fn substitute<S: BuildHasher>(
    template: &str,
    parameters: &HashMap<String, String, S>,
) -> Result<String, SubstitutionError> {
    let mut priors = Vec::new();
    fill(template, parameters, &mut priors)
}

fn fill<S: BuildHasher>(
    text: &str,
    parameters: &HashMap<String, String, S>,
    priors: &mut Vec<String>,
) -> Result<String, SubstitutionError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(PREFIX) {
        let (before, from_prefix) = rest.split_at(start);
        if before.ends_with(ESCAPE) {
            // `$${parameters.x}`: the escape is dropped and the prefix kept as text.
            out.push_str(&before[..before.len() - ESCAPE.len_utf8()]);
            out.push_str(PREFIX);
            rest = &from_prefix[PREFIX.len()..];
            continue;
        }
        out.push_str(before);
        let after_prefix = &from_prefix[PREFIX.len()..];
        let Some(end) = variable_end(after_prefix) else {
            // No closing brace: the rest is text.
            out.push_str(from_prefix);
            return Ok(out);
        };
        let expression = &after_prefix[..end];
        let whole = &from_prefix[..PREFIX.len() + end + SUFFIX.len_utf8()];
        rest = &after_prefix[end + SUFFIX.len_utf8()..];
        let (name, default) = match expression.find(DEFAULT) {
            Some(at) => (&expression[..at], Some(&expression[at + DEFAULT.len()..])),
            None => (expression, None),
        };
        // `checkCyclicSubstitution` runs before the look-up.
        if priors.iter().any(|p| p == name) || priors.len() >= MAX_DEPTH {
            let mut chain = priors.clone();
            chain.push(name.to_owned());
            return Err(SubstitutionError::Cycle(chain.join("->")));
        }
        let Some(value) = parameters.get(name).map(String::as_str).or(default) else {
            out.push_str(whole);
            continue;
        };
        priors.push(name.to_owned());
        let filled = fill(value, parameters, priors);
        priors.pop();
        out.push_str(&filled?);
    }
    out.push_str(rest);
    Ok(out)
}

/// Where the variable's closing brace is: the first `}` (the substitutor counts nested
/// prefixes only with `enableSubstitutionInVariables`, off in ml-commons).
fn variable_end(text: &str) -> Option<usize> {
    text.find(SUFFIX)
}

/// A request parameter as `escapeRemoteInferenceInputData` passes it to the connector: JSON
/// escaped (`StringEscapeUtils.escapeJson`), unless it already is a JSON object or array — then
/// inserted as it is — or listed in `no_escape_params`.
pub fn escape_parameter(value: &str, no_escape: bool) -> String {
    if no_escape || is_json_container(value) {
        return value.to_owned();
    }
    let mut out = String::with_capacity(value.len());
    escape_json(value, &mut out);
    out
}

/// `StringUtils.isJson`: an object or an array. (ml-commons parses with org.json and Gson, both
/// more lenient than this; strict JSON is always among what they accept.)
fn is_json_container(value: &str) -> bool {
    let trimmed = value.trim_start();
    (trimmed.starts_with('{') || trimmed.starts_with('['))
        && serde_json::from_str::<serde_json::Value>(value).is_ok_and(|v| v.is_object() || v.is_array())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect()
    }

    #[test]
    fn fills_defaults_and_leaves_unknown_names() {
        let p = params(&[("a", "1")]);
        assert_eq!(
            substitute("${parameters.a} ${parameters.b:-2} ${parameters.c}", &p).unwrap(),
            "1 2 ${parameters.c}"
        );
        assert_eq!(substitute("${parameters.b:-}x", &p).unwrap(), "x");
    }

    #[test]
    fn values_are_filled_again_which_is_issue_5036() {
        let p = params(&[("prompt", "say ${parameters.region}"), ("region", "us-east-1")]);
        assert_eq!(substitute("[${parameters.prompt}]", &p).unwrap(), "[say us-east-1]");
    }

    #[test]
    fn a_dollar_escapes_the_prefix() {
        assert_eq!(substitute("$${parameters.a}", &params(&[("a", "1")])).unwrap(), "${parameters.a}");
    }

    #[test]
    fn cycles_are_errors() {
        let p = params(&[("a", "${parameters.b}"), ("b", "${parameters.a}")]);
        assert!(matches!(substitute("${parameters.a}", &p), Err(SubstitutionError::Cycle(_))));
    }

    #[test]
    fn json_containers_are_not_escaped() {
        assert_eq!(escape_parameter("a \"b\" /c", false), "a \\\"b\\\" \\/c");
        assert_eq!(escape_parameter("{\"x\": 1}", false), "{\"x\": 1}");
        assert_eq!(escape_parameter("[1,2]", false), "[1,2]");
        assert_eq!(escape_parameter("\"quoted\"", false), "\\\"quoted\\\"");
    }
}
