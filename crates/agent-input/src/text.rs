//! Wording shared by the messages of every module: the validator, the converters and the schema
//! check write values and types into sentences the same way.

/// The indefinite article for `word`: "an object", "a string".
pub(crate) fn a_or_an(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) { "an" } else { "a" }
}

/// Short, safe rendering of a user value for messages: quoted, at most 40 characters.
pub(crate) fn quote(raw: &str) -> String {
    const MAX: usize = 40;
    let mut out: String = raw.chars().take(MAX).collect();
    if raw.chars().count() > MAX {
        out.push('…');
    }
    format!("'{out}'")
}

/// One character for messages: quoted when printable, its code point when not.
pub(crate) fn quote_char(ch: char) -> String {
    if ch.is_control() || ch.is_whitespace() { format!("character U+{:04X}", ch as u32) } else { format!("'{ch}'") }
}

/// Letters, digits, `_` and `-`, 1 to 64 of them: the tool name rule of Bedrock, `OpenAI` and
/// Anthropic, and the name rule of a structured-output schema.
pub(crate) fn is_plain_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn articles_and_quotes() {
        assert_eq!(a_or_an("object"), "an");
        assert_eq!(a_or_an("string"), "a");
        assert_eq!(quote("jpg"), "'jpg'");
        assert_eq!(quote(&"x".repeat(41)), format!("'{}…'", "x".repeat(40)));
        assert_eq!(quote_char('\n'), "character U+000A");
        assert_eq!(quote_char('!'), "'!'");
    }
}
