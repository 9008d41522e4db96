//! Bedrock document names: deterministic, valid, unique.
//!
//! Bedrock accepts 1–200 characters of letters, digits, single spaces, hyphens, parentheses and
//! square brackets, and rejects a request where two documents share a name — across the whole
//! history, which is resent every turn. Names must also be stable from turn to turn so prompt
//! caching keeps working, so nothing random or content-hashed is used.

// Generated transliteration tables (scripts/gen-nfkc-ascii.py).
#[allow(clippy::unreadable_literal)]
#[rustfmt::skip]
#[path = "nfkc_ascii.rs"]
mod nfkc_ascii;

/// Longest name Bedrock accepts.
pub(crate) const MAX_LEN: usize = 200;

/// What happened to a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum NameChange {
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
    taken: crate::json::KeySet,
    count: usize,
}

impl Names {
    /// The name for the next document in order of appearance.
    pub(crate) fn next(&mut self, given: Option<&str>) -> (String, NameChange) {
        self.count += 1;
        let fallback = || format!("document-{}", self.count);
        let (base, mut outcome) = match given {
            Some(given) => match sanitize(given) {
                Some(name) if name == given => (name, NameChange::Unchanged),
                Some(name) => (name, NameChange::Sanitized),
                None => (fallback(), NameChange::Sanitized),
            },
            None => (fallback(), NameChange::Unchanged),
        };
        let mut name = base.clone();
        let mut n = 1;
        while self.taken.contains(&name.to_ascii_lowercase()) {
            n += 1;
            let suffix = format!(" ({n})");
            let keep = MAX_LEN - suffix.len();
            let stem = if base.len() > keep { base[..keep].trim_end() } else { base.as_str() };
            name = format!("{stem}{suffix}");
            if outcome == NameChange::Unchanged {
                outcome = NameChange::MadeUnique;
            }
        }
        self.taken.insert(&name.to_ascii_lowercase());
        (name, outcome)
    }
}

/// Applies the character rules: transliterate (NFKD without combining marks), drop the final extension, map every disallowed
/// character to a space, collapse spaces, trim, cap. `None` when nothing usable is left.
pub fn sanitize(given: &str) -> Option<String> {
    let normalized = transliterate(given);
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

/// Transliteration as far as an ASCII-only name can tell: Unicode NFKD with the combining marks
/// removed. ASCII is kept, combining marks are dropped (`re\u{301}sume\u{301}` → `resume`), a
/// character whose decomposition holds ASCII is replaced by it (`é` → `e`, full-width `Ｑ３` →
/// `Q3`, `ﬁ` → `fi`, U+3000 → space), and every other character is a space — the rules map all of
/// those to spaces anyway.
fn transliterate(given: &str) -> String {
    let mut out = String::with_capacity(given.len());
    for c in given.chars() {
        let cp = u32::from(c);
        if c.is_ascii() {
            out.push(c);
        } else if is_mark(cp) {
            // Dropped, as NFKD's marks are.
        } else if let Some(ascii) = single(cp) {
            out.push(ascii);
        } else if let Ok(i) = nfkc_ascii::STRINGS.binary_search_by_key(&cp, |&(point, _)| point) {
            out.push_str(nfkc_ascii::STRINGS[i].1);
        } else {
            out.push(' ');
        }
    }
    out
}

/// Whether a code point is a combining mark (a non-zero canonical combining class).
fn is_mark(cp: u32) -> bool {
    nfkc_ascii::MARKS
        .partition_point(|&(first, _)| first <= cp)
        .checked_sub(1)
        .is_some_and(|i| cp <= nfkc_ascii::MARKS[i].1)
}

/// The one ASCII character a code point's decomposition without marks is, if it is one.
fn single(cp: u32) -> Option<char> {
    let i = nfkc_ascii::RUNS.partition_point(|&(start, _, _)| start <= cp).checked_sub(1)?;
    let (start, len, first) = nfkc_ascii::RUNS[i];
    let offset = u8::try_from(cp.checked_sub(start)?).ok()?;
    (cp < start + len).then(|| char::from(first + offset))
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
            ("résumé.pdf", Some("resume")),
            ("résumé (final) [v2]", Some("resume (final) [v2]")),
            ("Straße Ærø", Some("Stra e r")),
            ("  padded  ", Some("padded")),
            ("(draft) [v2] - notes", Some("(draft) [v2] - notes")),
            ("...", None),
            (".pdf", Some("pdf")),
            ("v1.5 notes", Some("v1 5 notes")),
            ("Version 2.0", Some("Version 2 0")),
            ("clip.mp4", Some("clip")),
            ("slack-file://F0XX", Some("slack-file F0XX")),
            ("re\u{301}sume\u{301}", Some("resume")),
            ("q\u{301}uiz", Some("quiz")),
            ("\u{fb01}nal \u{2460}\u{00b2}", Some("final 12")),
            ("\u{1d41a}\u{1d41b}", Some("ab")),
            ("\u{ff21}\u{301}B", Some("AB")),
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
        assert_eq!(names.next(Some("report.pdf")), ("report".into(), NameChange::Sanitized));
        assert_eq!(names.next(Some("report")), ("report (2)".into(), NameChange::MadeUnique));
        assert_eq!(names.next(Some("Report")), ("Report (3)".into(), NameChange::MadeUnique));
        assert_eq!(names.next(None), ("document-4".into(), NameChange::Unchanged));
        assert_eq!(names.next(Some("document-6")), ("document-6".into(), NameChange::Unchanged));
        assert_eq!(names.next(None), ("document-6 (2)".into(), NameChange::MadeUnique));
        assert_eq!(names.next(Some("???")), ("document-7".into(), NameChange::Sanitized));
        let long = "x".repeat(200);
        let mut names = Names::default();
        names.next(Some(&long));
        let (second, _) = names.next(Some(&long));
        assert_eq!(second.len(), MAX_LEN);
        assert!(second.ends_with(" (2)"));
    }
}
