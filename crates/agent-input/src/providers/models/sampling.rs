//! Sampling settings a model refuses while it reasons.

use super::family::Family;
use super::finding::{Finding, Rule};

/// The sampling settings of a request, as numbers.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Sampling {
    /// `temperature`.
    pub temperature: Option<f64>,
    /// `top_p` (`topP`).
    pub top_p: Option<f64>,
    /// `top_k` (`topK`).
    pub top_k: Option<f64>,
}

/// How a request asks the model to reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reasoning<'a> {
    /// Nothing said: the model's default.
    Default,
    /// `OpenAI`'s `reasoning_effort` (Chat Completions) or `reasoning.effort` (Responses).
    Effort(&'a str),
    /// Anthropic's extended thinking, `thinking: {type: "enabled", budget_tokens}`.
    Budget(u64),
    /// Anthropic's adaptive thinking, `thinking: {type: "adaptive"}`.
    Adaptive,
    /// Thinking turned off (`thinking: {type: "disabled"}`).
    Off,
}

/// Whether a setting is exactly 1, the default the reasoning models take.
fn is_one(value: f64) -> bool {
    (value - 1.0).abs() < f64::EPSILON
}

/// The minor version of a GPT-5.x id (`gpt-5.4-mini` → 4), 0 for `gpt-5` itself.
pub(crate) fn gpt5_minor(model_id: &str) -> Option<u32> {
    let id = super::lookup::normalize(model_id);
    let rest = id.strip_prefix("gpt-5")?;
    let Some(rest) = rest.strip_prefix('.') else { return Some(0) };
    rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok()
}

/// Whether an `OpenAI` model reasons with these settings: the o-series and GPT-5 always; GPT-5.1
/// to 5.5 unless the effort is `none` (their default); GPT-5.6 and later unless it is `none`.
fn openai_reasons(family: &Family, model_id: &str, reasoning: Reasoning<'_>) -> bool {
    match family.id {
        "o1" | "o3" | "o3-mini" | "o4-mini" | "gpt-5" => true,
        "gpt-5.x" => match reasoning {
            Reasoning::Effort(effort) => effort != "none",
            _ => gpt5_minor(model_id).is_some_and(|minor| minor >= 6),
        },
        _ => false,
    }
}

/// The sampling settings the model refuses with this reasoning, each at `/temperature`,
/// `/top_p` or `/top_k`:
/// - `OpenAI` reasoning models take `temperature` and `top_p` only at their default, 1;
/// - Anthropic's extended thinking takes `temperature` 1 only, `top_p` from 0.95 to 1, no `top_k`;
/// - Claude Opus 4.7 and later take no sampling setting at all.
pub fn check(family: &Family, model_id: &str, sampling: &Sampling, reasoning: Reasoning<'_>) -> Vec<Finding> {
    let mut out = Vec::new();
    let mut refuse =
        |key: &str, why: String| out.push(Finding::new(Rule::SamplingWithReasoning, format!("/{key}"), why));
    let name = family.name;
    if openai_reasons(family, model_id, reasoning) {
        for (key, value) in [("temperature", sampling.temperature), ("top_p", sampling.top_p)] {
            if value.is_some_and(|v| !is_one(v)) {
                refuse(key, format!("{name} reasons and takes `{key}` only at its default, 1; leave it out"));
            }
        }
    } else if family.id == "claude-4.7" {
        for (key, value) in
            [("temperature", sampling.temperature), ("top_p", sampling.top_p), ("top_k", sampling.top_k)]
        {
            if value.is_some() {
                refuse(key, format!("{name} takes no `{key}`; leave it out"));
            }
        }
    } else if matches!(reasoning, Reasoning::Budget(_)) && matches!(family.id, "claude-3.7" | "claude-4") {
        if sampling.temperature.is_some_and(|t| !is_one(t)) {
            refuse("temperature", format!("with extended thinking, {name} takes `temperature` 1 only"));
        }
        if sampling.top_p.is_some_and(|p| p < 0.95) {
            refuse("top_p", format!("with extended thinking, {name} takes `top_p` from 0.95 to 1"));
        }
        if sampling.top_k.is_some() {
            refuse("top_k", format!("with extended thinking, {name} takes no `top_k`"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::models::lookup;

    fn keys(model: &str, sampling: Sampling, reasoning: Reasoning<'_>) -> Vec<String> {
        let family = lookup(model).expect("a known model");
        check(family, model, &sampling, reasoning).into_iter().map(|f| f.pointer).collect()
    }

    #[test]
    fn each_model_side_of_each_rule() {
        let top_p = |p| Sampling { top_p: Some(p), ..Sampling::default() };
        let temperature = |t| Sampling { temperature: Some(t), ..Sampling::default() };
        let all = Sampling { temperature: Some(0.5), top_p: Some(0.9), top_k: Some(40.0) };
        let cases: &[(&str, Sampling, Reasoning<'_>, &[&str])] = &[
            // OpenAI: reasoning models refuse; others take them.
            ("gpt-5-nano", top_p(0.9), Reasoning::Default, &["/top_p"]),
            ("o3-mini", temperature(0.2), Reasoning::Effort("low"), &["/temperature"]),
            ("o3-mini", temperature(1.0), Reasoning::Default, &[]),
            ("gpt-4o", all, Reasoning::Default, &[]),
            ("gpt-5.4-mini", top_p(0.9), Reasoning::Default, &[]), // default effort: none
            ("gpt-5.4-mini", top_p(0.9), Reasoning::Effort("none"), &[]),
            ("gpt-5.4-mini", top_p(0.9), Reasoning::Effort("medium"), &["/top_p"]),
            ("gpt-5.6-sol", top_p(0.9), Reasoning::Default, &["/top_p"]), // default effort: medium
            // Anthropic: extended thinking takes temperature 1 and top_p >= 0.95.
            ("claude-sonnet-4-5", temperature(1.0), Reasoning::Budget(2048), &[]),
            ("claude-sonnet-4-5", temperature(0.7), Reasoning::Budget(2048), &["/temperature"]),
            ("claude-sonnet-4-5", top_p(0.95), Reasoning::Budget(2048), &[]),
            ("claude-3-7-sonnet-20250219", all, Reasoning::Budget(2048), &["/temperature", "/top_p", "/top_k"]),
            ("claude-sonnet-4-5", all, Reasoning::Default, &[]),
            ("claude-3-5-sonnet-20241022", all, Reasoning::Budget(2048), &[]), // no thinking there to check
            ("claude-opus-4-8", temperature(1.0), Reasoning::Default, &["/temperature"]),
            ("gemini-2.5-pro", all, Reasoning::Default, &[]),
        ];
        for (model, sampling, reasoning, expected) in cases {
            assert_eq!(keys(model, *sampling, *reasoning), *expected, "{model} {sampling:?} {reasoning:?}");
        }
    }

    #[test]
    fn the_message_names_the_family() {
        let family = lookup("gpt-5-nano").unwrap();
        let found =
            check(family, "gpt-5-nano", &Sampling { top_p: Some(0.9), ..Sampling::default() }, Reasoning::Default);
        assert_eq!(
            found[0].message,
            "GPT-5 (mini, nano) reasons and takes `top_p` only at its default, 1; leave it out"
        );
        assert_eq!(found[0].rule.code(), crate::diagnostic::Code::InvalidParameter);
    }

    #[test]
    fn gpt5_minor_versions() {
        for (id, minor) in [
            ("gpt-5", Some(0)),
            ("gpt-5-nano", Some(0)),
            ("gpt-5.4-mini", Some(4)),
            ("gpt-5.10", Some(10)),
            ("gpt-4o", None),
        ] {
            assert_eq!(gpt5_minor(id), minor, "{id}");
        }
    }
}
