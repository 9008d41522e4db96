//! A JSON tree that borrows its strings from the request text.
//!
//! `serde_json::Value` owns every string, so parsing a request copies each base64 payload — for
//! multi-megabyte media that copy, and the fresh memory it touches, cost more than all the
//! validation. [`Json`] keeps strings without escapes as slices of the text, and [`Document`]
//! remembers the text, so a converter can copy a payload's JSON literal straight into the body.

mod document;
mod literal;
#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
mod parse;
mod value;
#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
pub(crate) mod write;

pub use document::{Document, PARSER_MAX_DEPTH};
pub use literal::Literal;
#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
pub(crate) use value::plain;
pub use value::{Json, JsonObject, JsonType, JsonValue, Object, type_name};
pub(crate) use value::{KeySet, compact, exceeds_depth, occurrences, plain_byte, same_key};

#[cfg(test)]
mod tests {
    use std::borrow::Cow;

    use serde_json::Value;

    use super::*;

    #[test]
    fn compact_is_the_display_text() {
        let values = [
            serde_json::json!(null),
            serde_json::json!({"a": [1, 2.5, -3e300, "x\"\u{1}\u{2028}é"], "b": {"c": true}, "": {}}),
            serde_json::json!([]),
            serde_json::json!("text"),
        ];
        for value in values {
            assert_eq!(compact(&value), value.to_string());
        }
        assert_eq!(compact(&serde_json::json!({"k": [1, "v"]})), r#"{"k":[1,"v"]}"#);
    }

    #[test]
    fn borrows_unescaped_strings_and_owns_escaped_ones() {
        let text = r#"{"plain": "abc", "escaped": "a\nb", "n": [1, -2, 2.5, true, null]}"#;
        let doc = Document::parse(text).unwrap();
        assert!(matches!(doc.root.get("plain"), Some(Json::String(Cow::Borrowed("abc")))));
        assert!(matches!(doc.root.get("escaped"), Some(Json::String(Cow::Owned(s))) if s == "a\nb"));
        assert_eq!(doc.root.to_value(), serde_json::from_str::<Value>(text).unwrap());
    }

    #[test]
    fn duplicate_keys_keep_the_last_value() {
        let doc = Document::parse(r#"{"a": 1, "b": 2, "a": 3}"#).unwrap();
        let object = doc.root.as_object().unwrap();
        assert_eq!(object.len(), 2);
        assert_eq!(object.get("a"), Some(&Json::Number(3.into())));
        let many: Vec<String> = (0..40).map(|i| format!("\"k{}\": {i}", i % 20)).collect();
        let many = many.join(", ") + ",";
        let text = format!("{{{many} \"end\": 0}}");
        let doc = Document::parse(&text).unwrap();
        assert_eq!(doc.root.as_object().unwrap().len(), 21);
        assert_eq!(doc.root.get("k3"), Some(&Json::Number(23.into())));
    }

    #[test]
    fn value_round_trip() {
        let value = serde_json::json!({"x": ["a", {"y": null}], "z": 1.5});
        assert_eq!(Document::from_value(&value).root.to_value(), value);
    }
}
