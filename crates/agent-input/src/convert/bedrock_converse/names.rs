//! Bedrock document names: deterministic, valid, unique.
//!
//! Bedrock accepts 1–200 characters of letters, digits, single spaces, hyphens, parentheses and
//! square brackets, and rejects a request where two documents share a name — across the whole
//! history, which is resent every turn. Names must also be stable from turn to turn so prompt
//! caching keeps working, so nothing random or content-hashed is used.

use std::collections::HashSet;

use unicode_normalization::UnicodeNormalization;

/// Longest name Bedrock accepts.
pub(crate) const MAX_LEN: usize = 200;

/// What happened to a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Used as given, or generated with no clash.
    Unchanged,
    /// Changed to satisfy the character rules (and possibly made unique).
    Sanitized,
    /// Valid, but already taken: a number was added.
    MadeUnique,
}

/// Names handed out so far in one request.
#[derive(Debug, Default)]
pub(crate) struct Names {
    taken: HashSet<String>,
    count: usize,
}

impl Names {
    /// The name for the next document in order of appearance.
    pub(crate) fn next(&mut self, given: Option<&str>) -> (String, Outcome) {
        self.count += 1;
        let fallback = || format!("document-{}", self.count);
        let (base, mut outcome) = match given {
            Some(given) => match sanitize(given) {
                Some(name) if name == given => (name, Outcome::Unchanged),
                Some(name) => (name, Outcome::Sanitized),
                None => (fallback(), Outcome::Sanitized),
            },
            None => (fallback(), Outcome::Unchanged),
        };
        let mut name = base.clone();
        let mut n = 1;
        while self.taken.contains(&name.to_ascii_lowercase()) {
            n += 1;
            let suffix = format!(" ({n})");
            let keep = MAX_LEN - suffix.len();
            let stem = if base.len() > keep { base[..keep].trim_end() } else { base.as_str() };
            name = format!("{stem}{suffix}");
            if outcome == Outcome::Unchanged {
                outcome = Outcome::MadeUnique;
            }
        }
        self.taken.insert(name.to_ascii_lowercase());
        (name, outcome)
    }
}

/// Applies the character rules: Unicode NFKC, drop the final extension, map every disallowed
/// character to a space, collapse spaces, trim, cap. `None` when nothing usable is left.
pub(crate) fn sanitize(given: &str) -> Option<String> {
    let normalized: String = given.nfkc().collect();
    let stem = drop_extension(&normalized);
    let mut out = String::with_capacity(stem.len());
    let mut last_space = true; // drops leading spaces
    for c in stem.chars() {
        let c = if c.is_ascii_alphanumeric() || matches!(c, '-' | '(' | ')' | '[' | ']') { c } else { ' ' };
        if c == ' ' {
            if !last_space {
                out.push(' ');
            }
            last_space = true;
        } else {
            out.push(c);
            last_space = false;
        }
        if out.len() >= MAX_LEN {
            break;
        }
    }
    out.truncate(MAX_LEN);
    let trimmed = out.trim_end();
    (!trimmed.is_empty()).then(|| trimmed.to_string())
}

/// `report.final.pdf` → `report.final`; a leading dot, or an "extension" without a letter or
/// with other characters, is kept.
fn drop_extension(name: &str) -> &str {
    match name.rfind('.') {
        Some(dot) if dot > 0 => {
            let ext = &name[dot + 1..];
            // A letter is required so that "Version 2.0" keeps its number.
            if (1..=10).contains(&ext.len())
                && ext.bytes().all(|b| b.is_ascii_alphanumeric())
                && ext.bytes().any(|b| b.is_ascii_alphabetic())
            {
                &name[..dot]
            } else {
                name
            }
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sanitizes_deterministically() {
        let cases = [
            ("Q3 report", Some("Q3 report")),
            ("report.final.v2.pdf", Some("report final v2")),
            ("John & Jane.pdf", Some("John Jane")),
            ("a _ b", Some("a b")),
            ("John's report.pdf", Some("John s report")),
            ("tab\there", Some("tab here")),
            ("full\u{3000}width", Some("full width")),
            ("ＡＢＣ.pdf", Some("ABC")),
            ("résumé.pdf", Some("r sum")),
            ("  padded  ", Some("padded")),
            ("(draft) [v2] - notes", Some("(draft) [v2] - notes")),
            ("...", None),
            (".pdf", Some("pdf")),
            ("v1.5 notes", Some("v1 5 notes")),
            ("Version 2.0", Some("Version 2 0")),
            ("clip.mp4", Some("clip")),
            ("slack-file://F0XX", Some("slack-file F0XX")),
        ];
        for (given, want) in cases {
            assert_eq!(sanitize(given).as_deref(), want, "{given:?}");
        }
    }

    #[test]
    fn caps_at_200() {
        let long = "a".repeat(300);
        assert_eq!(sanitize(&long).unwrap().len(), MAX_LEN);
        let spaced = format!("{} b", "a".repeat(199));
        assert_eq!(sanitize(&spaced).unwrap(), "a".repeat(199));
    }

    #[test]
    fn makes_names_unique_in_order() {
        let mut names = Names::default();
        assert_eq!(names.next(Some("report.pdf")), ("report".into(), Outcome::Sanitized));
        assert_eq!(names.next(Some("report")), ("report (2)".into(), Outcome::MadeUnique));
        assert_eq!(names.next(Some("Report")), ("Report (3)".into(), Outcome::MadeUnique));
        assert_eq!(names.next(None), ("document-4".into(), Outcome::Unchanged));
        assert_eq!(names.next(Some("document-6")), ("document-6".into(), Outcome::Unchanged));
        assert_eq!(names.next(None), ("document-6 (2)".into(), Outcome::MadeUnique));
        assert_eq!(names.next(Some("???")), ("document-7".into(), Outcome::Sanitized));
        let long = "x".repeat(200);
        let mut names = Names::default();
        names.next(Some(&long));
        let (second, _) = names.next(Some(&long));
        assert_eq!(second.len(), MAX_LEN);
        assert!(second.ends_with(" (2)"));
    }
}
