//! The page's one verdict on an input: the input's errors and the chosen provider's problems
//! together, errors held back where the user has not finished (a field just added by "+", the
//! blank next turn of a conversation), and whether Execute can send the input.

use agent_input::Diagnostic;

use super::analysis::{Analysis, Conversion};

/// Where diagnostics wait: the pointers of fields the user has not finished (each holds its
/// own diagnostics and those under it), and the conversation the blank next turn continues.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Holds {
    pub(crate) paths: Vec<String>,
    pub(crate) continuing: Option<String>,
}

/// Whether `path` is `at` or under it.
fn within(path: &str, at: &str) -> bool {
    path.strip_prefix(at).is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
}

impl Holds {
    /// Whether the diagnostic at `path` waits.
    pub(crate) fn holds(&self, path: &str) -> bool {
        self.paths.iter().any(|at| within(path, at))
    }

    /// The field at `path` was left: the holds it is in end, but for the blank next turn of a
    /// conversation, which waits for typing or a run. Whether any ended.
    pub(crate) fn release(&mut self, path: &str) -> bool {
        let before = self.paths.len();
        let next_turn = self.continuing.is_some();
        self.paths.retain(|at| next_turn || !within(path, at));
        before != self.paths.len()
    }

    /// The diagnostics of `list` that are shown.
    pub(crate) fn shown<'d>(&self, list: &'d [Diagnostic]) -> Vec<&'d Diagnostic> {
        list.iter().filter(|d| !self.holds(&d.path.to_string())).collect()
    }
}

/// How the summary reads: valid and taken by the chosen provider, valid but refused by it,
/// waiting for the user (nothing is wrong yet), or wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Valid,
    Refused,
    Waiting,
    Invalid,
}

impl Tone {
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Self::Valid => "valid",
            Self::Refused => "refused",
            Self::Waiting => "waiting",
            Self::Invalid => "invalid",
        }
    }
}

/// The verdict the validation pane's summary, the fields and Execute show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Verdict {
    pub(crate) text: String,
    pub(crate) tone: Tone,
    /// The chosen provider's problems with a valid input (its conversion's errors).
    pub(crate) provider_problems: usize,
    /// Why Execute cannot send the input, when it cannot.
    pub(crate) blocked: Option<String>,
}

fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

/// The verdict on `a` with `provider` (its display name) chosen; `pending` while the last edit
/// is not analysed yet.
pub(crate) fn verdict(a: &Analysis, provider: &str, holds: &Holds, pending: bool) -> Verdict {
    use std::fmt::Write as _;
    let held = a.errors.iter().filter(|d| holds.holds(&d.path.to_string())).count()
        + a.violations().iter().filter(|f| holds.holds(&f.path)).count();
    let errors = a.errors.len() + a.violations().len() - held;
    let warnings = holds.shown(&a.warnings).len();
    // The settings' own errors (under `/options`) are the user's to fix, not the provider's refusal.
    let (settings_errors, provider_problems) = match &a.conversion {
        Conversion::Failed(report) => {
            let settings = report.errors.iter().filter(|d| d.path.to_string().starts_with("/options")).count();
            (settings, report.errors.len() - settings)
        }
        Conversion::Invalid | Conversion::Converted { .. } => (0, 0),
    };
    let (mut text, tone, blocked) = if a.all_valid() {
        let mut text = "Valid input".to_string();
        if let Some(t) = a.input_type {
            let _ = write!(text, " · {t}");
        }
        let tone = if settings_errors > 0 {
            let _ = write!(text, " · {} to fix", count(settings_errors, "setting"));
            Tone::Invalid
        } else if provider_problems == 0 {
            let _ = write!(text, " · {provider} takes it");
            Tone::Valid
        } else {
            let _ = write!(text, " · {provider} refuses it: {}", count(provider_problems, "problem"));
            Tone::Refused
        };
        (text, tone, None)
    } else if errors == 0 && held > 0 && a.schema_problems() == 0 {
        if let Some(id) = &holds.continuing {
            (
                format!("Ready for the next turn (continuing conversation {id})"),
                Tone::Waiting,
                Some("Type the next turn to run it.".to_string()),
            )
        } else {
            let mut text = format!("{} to fill in", count(held, "field"));
            if let Some(t) = a.input_type {
                let _ = write!(text, " · {t}");
            }
            (text, Tone::Waiting, Some("Fill in the new fields to run.".to_string()))
        }
    } else {
        let mut text = if errors == 0 { "The schema has errors".to_string() } else { count(errors, "error") };
        if errors > 0 && a.schema_problems() > 0 {
            text.push_str(" · the schema has errors");
        }
        if let Some(t) = a.input_type {
            let _ = write!(text, " · {t}");
        }
        let blocked = if errors == 0 {
            "Fix the schema to run.".to_string()
        } else {
            format!("Fix {} to run.", count(errors + held, "error"))
        };
        (text, Tone::Invalid, Some(blocked))
    };
    if warnings > 0 && tone != Tone::Waiting {
        let _ = write!(text, " · {}", count(warnings, "warning"));
    }
    if pending {
        text.push_str(" · checking…");
    }
    Verdict { text, tone, provider_problems, blocked }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::analysis::analyze_text;
    use crate::model::settings::Settings;

    fn of(text: &str, holds: &Holds) -> Verdict {
        verdict(&analyze_text(text, &Settings::default(), false), "Bedrock Converse", holds, false)
    }

    #[test]
    fn one_verdict_names_the_provider() {
        let ok = of(r#"{"input": "Hi"}"#, &Holds::default());
        assert_eq!(ok.text, "Valid input · TEXT · Bedrock Converse takes it");
        assert_eq!((ok.tone, ok.blocked), (Tone::Valid, None));
        // A tool result answering no call: valid input, refused by the provider, one verdict.
        let unmatched = of(
            r#"{"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]},
                {"role": "assistant", "content": [], "toolCalls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
                {"role": "tool", "toolCallId": "call_2", "content": [{"type": "text", "text": "42"}]}]}"#,
            &Holds::default(),
        );
        assert!(
            unmatched.text.starts_with("Valid input · MESSAGES · Bedrock Converse refuses it: "),
            "{}",
            unmatched.text
        );
        assert!(unmatched.provider_problems >= 1, "{}", unmatched.text);
        assert_eq!(unmatched.tone, Tone::Refused);
        // A setting that is not a number is the user's to fix: red, and the input still runs.
        let settings = Settings { temperature: "abc".into(), ..Settings::default() };
        let bad = verdict(
            &analyze_text(r#"{"input": "Hi"}"#, &settings, false),
            "Bedrock Converse",
            &Holds::default(),
            false,
        );
        assert_eq!(bad.text, "Valid input · TEXT · 1 setting to fix");
        assert_eq!((bad.tone, bad.blocked), (Tone::Invalid, None));
        let wrong = of(r#"{"input": ""}"#, &Holds::default());
        assert_eq!(wrong.text, "1 error · TEXT");
        assert_eq!((wrong.tone, wrong.blocked.as_deref()), (Tone::Invalid, Some("Fix 1 error to run.")));
    }

    #[test]
    fn held_fields_and_the_next_turn_are_not_wrong() {
        let next = Holds { paths: vec!["/input".into()], continuing: Some("m1".into()) };
        let waiting = of(r#"{"input": "", "parameters": {"memory_id": "m1"}}"#, &next);
        assert_eq!(waiting.text, "Ready for the next turn (continuing conversation m1)");
        assert_eq!((waiting.tone, waiting.blocked.as_deref()), (Tone::Waiting, Some("Type the next turn to run it.")));
        // Leaving the blank composer (a click elsewhere) keeps it waiting.
        let mut left = next.clone();
        assert!(!left.release("/input"));
        assert_eq!(of(r#"{"input": "", "parameters": {"memory_id": "m1"}}"#, &left).tone, Tone::Waiting);
        let added = Holds { paths: vec!["/input/1".into()], continuing: None };
        let body = r#"{"input": [{"type": "text", "text": "Hi"}, {"type": "text", "text": ""}]}"#;
        assert_eq!(of(body, &added).text, "1 field to fill in · CONTENT_BLOCKS");
        // Left, the field's error shows.
        let mut left = added.clone();
        assert!(left.release("/input/1/text"));
        assert_eq!(of(body, &left).tone, Tone::Invalid);
        assert!(!left.release("/input/1/text"));
        // "/input/10" is not under "/input/1".
        assert!(!added.holds("/input/10/text") && added.holds("/input/1"));
    }
}
