//! A model id as users write it → its family.

use super::family::Family;
#[cfg(feature = "models")]
use super::table::FAMILIES;
/// The source of the table: `LiteLLM`'s model map, version and day read.
#[cfg(feature = "models")]
pub use super::table::SOURCE;
/// Without feature `models` (the npm base module, for its size) the table is empty: every id is
/// unknown and only the providers' own rules are checked.
#[cfg(not(feature = "models"))]
pub const SOURCE: &str = "none in this build";

/// No table in this build (feature `models` off).
#[cfg(not(feature = "models"))]
static FAMILIES: &[Family] = &[];

/// Bedrock's cross-region inference profile prefixes.
const REGIONS: &[&str] = &["us-gov.", "global.", "apac.", "us.", "eu.", "jp.", "au.", "ca."];
/// Bedrock's model vendor prefixes.
const VENDORS: &[&str] =
    &["anthropic.", "meta.", "amazon.", "mistral.", "cohere.", "ai21.", "deepseek.", "openai.", "qwen.", "writer."];

/// Every family of the table.
pub fn families() -> &'static [Family] {
    FAMILIES
}

/// The id reduced to what family patterns match: lower case; the part after the last `/`
/// (`models/gemini-2.5-flash`, an ARN, `openai/gpt-4o`); no Vertex `@version`; no Bedrock region
/// and vendor prefixes (`us.anthropic.`) or version suffix (`-v1:0`, `-v2:0:200k`).
pub fn normalize(id: &str) -> String {
    let lower = id.trim().to_ascii_lowercase();
    let mut s = lower.rsplit('/').next().unwrap_or_default();
    s = s.split('@').next().unwrap_or_default();
    if let Some(rest) = REGIONS.iter().find_map(|p| s.strip_prefix(p)) {
        s = rest;
    }
    if let Some(rest) = VENDORS.iter().find_map(|p| s.strip_prefix(p)) {
        s = rest;
    }
    strip_bedrock_version(s).to_string()
}

/// `x-v1:0` → `x`, `x-v2:0:200k` → `x`, `x:1` → `x` (as `-v\d+(:\d+)?` or `:\d+`, then `:\d+k`).
fn strip_bedrock_version(s: &str) -> &str {
    let digits_before = |s: &str| s.len() - s.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let mut end = s;
    if let Some(rest) = end.strip_suffix('k') {
        let n = digits_before(rest);
        if n > 0 && rest[..rest.len() - n].ends_with(':') {
            end = &rest[..rest.len() - n - 1];
        }
    }
    let n = digits_before(end);
    if n == 0 {
        return end;
    }
    let before = &end[..end.len() - n];
    if let Some(head) = before.strip_suffix(':') {
        let m = digits_before(head);
        if m > 0 && head[..head.len() - m].ends_with("-v") {
            return &head[..head.len() - m - 2];
        }
        return head;
    }
    before.strip_suffix("-v").unwrap_or(end)
}

/// The length of the pattern's literal part when it matches `id`: the pattern, then nothing or
/// `-` and more, except a one- or two-digit minor version (`claude-opus-4` does not take
/// `claude-opus-4-7`). `*` in a pattern stands for a number.
fn matches(pattern: &str, id: &str) -> Option<usize> {
    let (head, tail) = pattern.split_once('*').map_or((pattern, None), |(h, t)| (h, Some(t)));
    let mut rest = id.strip_prefix(head)?;
    if let Some(tail) = tail {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        rest = rest[digits..].strip_prefix(tail)?;
    }
    let length = head.len() + tail.map_or(0, str::len);
    if rest.is_empty() {
        return Some(length);
    }
    let segment = rest.strip_prefix('-')?.split('-').next().unwrap_or_default();
    let minor = !segment.is_empty() && segment.len() <= 2 && segment.bytes().all(|b| b.is_ascii_digit());
    (!minor).then_some(length)
}

/// The family of a model id as users write it (`gpt-4o-2024-08-06`, `claude-sonnet-4-5`,
/// `us.anthropic.claude-sonnet-4-5-20250929-v1:0`, `models/gemini-2.5-flash`); `None` when no
/// family matches, and the caller warns rather than guesses.
pub fn lookup(id: &str) -> Option<&'static Family> {
    let id = normalize(id);
    FAMILIES
        .iter()
        .filter_map(|family| family.patterns.iter().filter_map(|p| matches(p, &id)).max().map(|n| (n, family)))
        .max_by_key(|&(n, _)| n)
        .map(|(_, family)| family)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_as_users_write_them() {
        let cases: &[(&str, Option<&str>)] = &[
            ("gpt-4o", Some("gpt-4o")),
            ("gpt-4o-2024-08-06", Some("gpt-4o")),
            ("gpt-4o-mini", Some("gpt-4o-mini")),
            ("openai/gpt-4.1-nano", Some("gpt-4.1")),
            ("o3-mini", Some("o3-mini")),
            ("o3", Some("o3")),
            ("o3-2025-04-16", Some("o3")),
            ("gpt-5-nano", Some("gpt-5")),
            ("gpt-5.4-mini", Some("gpt-5.x")),
            ("gpt-5.4-mini-2026-03-17", Some("gpt-5.x")),
            ("gpt-5.1-chat-latest", Some("gpt-5-chat")),
            ("gpt-5-chat-latest", Some("gpt-5-chat")),
            ("claude-sonnet-4-5", Some("claude-4")),
            ("claude-sonnet-4-5-20250929", Some("claude-4")),
            ("claude-sonnet-4-20250514", Some("claude-4")),
            ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", Some("claude-4")),
            ("arn:aws:bedrock:us-east-1::foundation-model/anthropic.claude-3-haiku-20240307-v1:0", Some("claude-3")),
            ("anthropic.claude-3-haiku-20240307-v1:0", Some("claude-3")),
            ("anthropic.claude-3-5-sonnet-20241022-v2:0", Some("claude-3.5")),
            ("claude-3-7-sonnet@20250219", Some("claude-3.7")),
            ("claude-opus-4-8", Some("claude-4.7")),
            ("global.anthropic.claude-opus-4-7", Some("claude-4.7")),
            ("gemini-2.5-pro", Some("gemini-2.5-pro")),
            ("models/gemini-2.5-flash", Some("gemini-2.5-flash")),
            ("gemini-2.5-flash-lite", Some("gemini-2.5-flash-lite")),
            ("gemini-2.5-flash-preview-05-20", Some("gemini-2.5-flash")),
            ("gemini-3.1-pro-preview", Some("gemini-3")),
            ("meta.llama3-8b-instruct-v1:0", Some("llama3")),
            ("us.meta.llama3-3-70b-instruct-v1:0", Some("llama3.x")),
            ("amazon.nova-pro-v1:0", Some("nova")),
            ("amazon.titan-text-express-v1", Some("titan-text")),
            ("mistral.mistral-7b-instruct-v0:2", Some("mistral-instruct")),
            // A minor version the table does not know is not taken for its neighbour.
            ("claude-opus-4-9", None),
            ("claude-sonnet-4-7", None),
            ("gpt-4", None),
            ("my-fine-tune", None),
            ("", None),
        ];
        for &(id, family) in cases {
            assert_eq!(lookup(id).map(|f| f.id), family, "{id}");
        }
    }

    #[test]
    fn bedrock_versions_and_prefixes_are_removed() {
        for (id, normalized) in [
            ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5-20250929"),
            ("anthropic.claude-3-sonnet-20240229-v1:0:200k", "claude-3-sonnet-20240229"),
            ("amazon.titan-text-express-v1", "titan-text-express"),
            ("anthropic.claude-v2:1", "claude"), // as `-v2:1`, a version
            ("Models/Gemini-2.5-Pro", "gemini-2.5-pro"),
            ("gpt-4o", "gpt-4o"),
            ("llama3", "llama3"),
        ] {
            assert_eq!(normalize(id), normalized, "{id}");
        }
    }

    /// Every chat id of `LiteLLM`'s map for the providers this crate speaks, with the family the
    /// generator's own lookup (in Python, scripts/gen-models.py) gives it.
    #[test]
    fn agrees_with_the_generator_on_every_id_of_the_map() {
        let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/model_ids.json"))
            .expect("tests/data/model_ids.json");
        let ids: serde_json::Map<String, serde_json::Value> = serde_json::from_str(&text).expect("JSON");
        assert!(ids.len() > 700, "{}", ids.len());
        let disagreements: Vec<String> = ids
            .iter()
            .filter_map(|(id, family)| {
                let rust = lookup(id).map(|f| f.id);
                (rust != family.as_str()).then(|| format!("{id}: {rust:?} here, {family} in the generator"))
            })
            .collect();
        assert_eq!(disagreements, Vec::<String>::new());
    }

    #[test]
    fn every_pattern_finds_its_own_family() {
        for family in FAMILIES {
            for pattern in family.patterns {
                let id = pattern.replace('*', "7");
                assert_eq!(lookup(&id).map(|f| f.id), Some(family.id), "{pattern}");
            }
        }
    }
}
