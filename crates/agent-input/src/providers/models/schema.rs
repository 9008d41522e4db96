//! Schema dialects: the keywords of a tool's input schema or a response schema each provider
//! takes. Gemini's `parameters` and `responseSchema` take an `OpenAPI` subset (its
//! `parametersJsonSchema` and `responseJsonSchema` take JSON Schema); `OpenAI`'s strict mode takes
//! a subset of JSON Schema where every object lists all its properties in `required` and has
//! `additionalProperties: false`. Each finding points at the offending keyword, from the schema's
//! root.

use serde_json::Value;

use super::finding::{Finding, Rule};

/// The keywords of Gemini's `Schema` object; any other is refused ("Unknown name … Cannot find
/// field").
const GEMINI_KEYWORDS: &[&str] = &[
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// Keywords `OpenAI`'s strict mode refuses.
const OPENAI_STRICT_REFUSED: &[&str] = &[
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "dependentRequired",
    "dependentSchemas",
    "patternProperties",
    "unevaluatedProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "contains",
    "minContains",
    "maxContains",
    "uniqueItems",
];

fn escape(key: &str) -> String {
    key.replace('~', "~0").replace('/', "~1")
}

/// Each subschema of `schema` with its pointer, the schema first.
fn walk<'a>(schema: &'a Value, pointer: &str, out: &mut Vec<(String, &'a Value)>) {
    let Some(object) = schema.as_object() else { return };
    out.push((pointer.to_string(), schema));
    for keyword in ["properties", "$defs", "definitions", "patternProperties"] {
        if let Some(map) = object.get(keyword).and_then(Value::as_object) {
            for (name, sub) in map {
                walk(sub, &format!("{pointer}/{keyword}/{}", escape(name)), out);
            }
        }
    }
    for keyword in ["items", "additionalProperties", "not", "if", "then", "else", "contains"] {
        if let Some(sub) = object.get(keyword) {
            walk(sub, &format!("{pointer}/{keyword}"), out);
        }
    }
    for keyword in ["anyOf", "oneOf", "allOf", "prefixItems"] {
        if let Some(items) = object.get(keyword).and_then(Value::as_array) {
            for (i, sub) in items.iter().enumerate() {
                walk(sub, &format!("{pointer}/{keyword}/{i}"), out);
            }
        }
    }
}

fn subschemas(schema: &Value) -> Vec<(String, &Value)> {
    let mut out = Vec::new();
    walk(schema, "", &mut out);
    out
}

/// The keywords Gemini's `parameters` / `responseSchema` refuse, each at its pointer.
pub fn gemini(schema: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    for (pointer, sub) in subschemas(schema) {
        for key in sub.as_object().into_iter().flat_map(|o| o.keys()) {
            if !GEMINI_KEYWORDS.contains(&key.as_str()) {
                let message = format!(
                    "Gemini's schema subset has no `{key}`; give the schema as `parametersJsonSchema` \
                     (or `responseJsonSchema`), or leave the keyword out"
                );
                out.push(Finding::new(Rule::SchemaKeyword, format!("{pointer}/{}", escape(key)), message));
            }
        }
    }
    out
}

/// What `OpenAI`'s strict mode (`strict: true`) refuses, each at its pointer: a root that is not
/// an object; an object without `additionalProperties: false`, or with a property missing from
/// `required`; a keyword strict mode does not take.
pub fn openai_strict(schema: &Value) -> Vec<Finding> {
    let mut out = Vec::new();
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        out.push(Finding::new(
            Rule::StrictSchema,
            "/type",
            "a strict schema's root is an object (`\"type\": \"object\"`)",
        ));
    }
    for (pointer, sub) in subschemas(schema) {
        let Some(object) = sub.as_object() else { continue };
        for key in object.keys().filter(|k| OPENAI_STRICT_REFUSED.contains(&k.as_str())) {
            let message = format!("OpenAI's strict mode takes no `{key}`");
            out.push(Finding::new(Rule::SchemaKeyword, format!("{pointer}/{}", escape(key)), message));
        }
        let is_object =
            object.get("type").and_then(Value::as_str) == Some("object") || object.contains_key("properties");
        if !is_object {
            continue;
        }
        if object.get("additionalProperties") != Some(&Value::Bool(false)) {
            let message = "in strict mode every object has `\"additionalProperties\": false`";
            out.push(Finding::new(Rule::StrictSchema, format!("{pointer}/additionalProperties"), message));
        }
        let required: Vec<&str> = object
            .get("required")
            .and_then(Value::as_array)
            .map_or_else(Vec::new, |r| r.iter().filter_map(Value::as_str).collect());
        let missing: Vec<&str> = object
            .get("properties")
            .and_then(Value::as_object)
            .map_or_else(Vec::new, |p| p.keys().map(String::as_str).filter(|k| !required.contains(k)).collect());
        if !missing.is_empty() {
            let list = missing.iter().map(|k| format!("`{k}`")).collect::<Vec<_>>().join(", ");
            let message = format!(
                "in strict mode `required` lists every property; missing {list} (an optional one is required with a null type)"
            );
            out.push(Finding::new(Rule::StrictSchema, format!("{pointer}/required"), message));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pointers(found: &[Finding]) -> Vec<&str> {
        found.iter().map(|f| f.pointer.as_str()).collect()
    }

    #[test]
    fn gemini_refuses_keywords_outside_its_subset() {
        let taken = json!({"type": "OBJECT", "properties": {"n": {"type": "NUMBER", "minimum": 1, "maximum": 9},
            "tags": {"type": "ARRAY", "items": {"type": "STRING", "enum": ["a"]}}}, "required": ["n"]});
        assert_eq!(pointers(&gemini(&taken)), Vec::<&str>::new());
        let refused = json!({"type": "object", "additionalProperties": false, "properties": {
            "max_tokens": {"type": "number", "exclusiveMinimum": 0},
            "a/b": {"anyOf": [{"type": "string", "const": "x"}]}}, "$defs": {"x": {"type": "string"}}});
        assert_eq!(
            pointers(&gemini(&refused)),
            [
                "/additionalProperties",
                "/$defs",
                "/properties/max_tokens/exclusiveMinimum",
                "/properties/a~1b/anyOf/0/const"
            ]
        );
    }

    #[test]
    fn openai_strict_mode() {
        let taken = json!({"type": "object", "properties": {"a": {"type": "string"},
            "b": {"type": "object", "properties": {"c": {"type": ["integer", "null"], "minimum": 0}},
                  "required": ["c"], "additionalProperties": false}},
            "required": ["a", "b"], "additionalProperties": false});
        assert_eq!(pointers(&openai_strict(&taken)), Vec::<&str>::new());
        let refused = json!({"type": "object", "properties": {"answer": {"type": "string"}, "reasoning": {"type": "string"},
            "nested": {"type": "object", "properties": {}, "allOf": []}}, "required": ["answer", "nested"]});
        let found = openai_strict(&refused);
        assert_eq!(
            pointers(&found),
            [
                "/additionalProperties",
                "/required",
                "/properties/nested/allOf",
                "/properties/nested/additionalProperties"
            ]
        );
        assert_eq!(
            found[1].message,
            "in strict mode `required` lists every property; missing `reasoning` (an optional one is required with a null type)"
        );
        assert_eq!(pointers(&openai_strict(&json!({"anyOf": []}))), ["/type"]);
    }
}
