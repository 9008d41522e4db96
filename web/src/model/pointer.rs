//! JSON Pointer (RFC 6901) edits of the request body: every form field writes its value at the
//! pointer it carries in `data-path`, which is also the path the diagnostics report.

use agent_input::{Path, Segment};
use serde_json::{Map, Value};

/// `pointer` extended by an object key, escaped as RFC 6901 says.
pub(crate) fn key(pointer: &str, key: &str) -> String {
    format!("{pointer}{}", Path::root().key(key))
}

pub(crate) fn index(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

/// An object member's name for a segment (a key that reads as a number parses as an index).
fn member(segment: &Segment) -> String {
    match segment {
        Segment::Key(key) => key.to_string(),
        Segment::Index(i) => i.to_string(),
    }
}

/// The value at `segments` under `root`.
fn at_mut<'v>(root: &'v mut Value, segments: &[Segment]) -> Option<&'v mut Value> {
    segments.iter().try_fold(root, |current, segment| match (current, segment) {
        (Value::Object(map), segment) => map.get_mut(&member(segment)),
        (Value::Array(items), Segment::Index(i)) => items.get_mut(*i),
        _ => None,
    })
}

/// Sets the value at `pointer`, creating objects on the way; an index one past an array's end
/// appends. Returns false when the pointer runs through a value that is not a container.
pub(crate) fn set(root: &mut Value, pointer: &str, new: Value) -> bool {
    let Some(path) = Path::parse(pointer) else { return false };
    let mut current = root;
    let Some((last, parents)) = path.segments().split_last() else {
        *current = new;
        return true;
    };
    for segment in parents {
        if current.is_null() {
            *current = Value::Object(Map::new());
        }
        current = match (current, segment) {
            (Value::Object(map), segment) => map.entry(member(segment)).or_insert(Value::Null),
            (Value::Array(items), Segment::Index(i)) => match items.get_mut(*i) {
                Some(item) => item,
                None => return false,
            },
            _ => return false,
        };
    }
    if current.is_null() {
        *current = Value::Object(Map::new());
    }
    match (current, last) {
        (Value::Object(map), last) => {
            map.insert(member(last), new);
            true
        }
        (Value::Array(items), Segment::Index(i)) if *i < items.len() => {
            items[*i] = new;
            true
        }
        (Value::Array(items), Segment::Index(i)) if *i == items.len() => {
            items.push(new);
            true
        }
        _ => false,
    }
}

/// Removes the value at `pointer` (an object key or an array item).
pub(crate) fn remove(root: &mut Value, pointer: &str) -> Option<Value> {
    let path = Path::parse(pointer)?;
    let (last, parent) = path.segments().split_last()?;
    match (at_mut(root, parent)?, last) {
        (Value::Object(map), last) => map.shift_remove(&member(last)),
        (Value::Array(items), Segment::Index(i)) if *i < items.len() => Some(items.remove(*i)),
        _ => None,
    }
}

/// Swaps items `i` and `j` of the array at `pointer`.
pub(crate) fn swap(root: &mut Value, pointer: &str, i: usize, j: usize) -> bool {
    match Path::parse(pointer).and_then(|path| at_mut(root, path.segments())) {
        Some(Value::Array(items)) if i < items.len() && j < items.len() => {
            items.swap(i, j);
            true
        }
        _ => false,
    }
}

/// Appends to the array at `pointer`, creating it when missing.
pub(crate) fn push(root: &mut Value, pointer: &str, item: Value) -> bool {
    match Path::parse(pointer).and_then(|path| at_mut(root, path.segments())) {
        Some(Value::Array(items)) => {
            items.push(item);
            true
        }
        Some(Value::Null) | None => set(root, pointer, Value::Array(vec![item])),
        Some(_) => false,
    }
}

/// Removes `/parameters` when nothing is left in it (the forms never leave an empty object).
pub(crate) fn drop_empty_parameters(root: &mut Value) {
    if root.get("parameters").and_then(Value::as_object).is_some_and(Map::is_empty) {
        remove(root, "/parameters");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn set_creates_objects_and_appends() {
        let mut v = json!({});
        assert!(set(&mut v, "/parameters/memory_id", json!("m1")));
        assert!(set(&mut v, "/input", json!([])));
        assert!(set(&mut v, "/input/0", json!({"type": "text"})));
        assert!(set(&mut v, "/input/0/text", json!("hi")));
        assert!(!set(&mut v, "/input/5", json!(1)));
        assert!(!set(&mut v, "/parameters/memory_id/x", json!(1)));
        assert_eq!(v, json!({"parameters": {"memory_id": "m1"}, "input": [{"type": "text", "text": "hi"}]}));
        // A key that reads as a number is still a key in an object; an index is never "01".
        assert!(set(&mut v, "/parameters/7", json!(true)));
        assert_eq!(v["parameters"]["7"], json!(true));
        assert!(!set(&mut v, "/input/00", json!(1)));
        assert!(!set(&mut v, "input", json!(1)), "not a pointer");
    }

    #[test]
    fn remove_and_swap() {
        let mut v = json!({"input": [1, 2, 3], "a/b": {"c": 1}});
        assert_eq!(remove(&mut v, "/input/1"), Some(json!(2)));
        assert!(swap(&mut v, "/input", 0, 1));
        assert!(!swap(&mut v, "/input", 0, 2));
        assert_eq!(remove(&mut v, &key("", "a/b")), Some(json!({"c": 1})));
        assert_eq!(v, json!({"input": [3, 1]}));
    }

    #[test]
    fn empty_parameters_are_dropped() {
        let mut v = json!({"input": "a", "parameters": {}});
        drop_empty_parameters(&mut v);
        assert_eq!(v, json!({"input": "a"}));
        let mut kept = json!({"parameters": {"k": 1}});
        drop_empty_parameters(&mut kept);
        assert_eq!(kept, json!({"parameters": {"k": 1}}));
    }
}
