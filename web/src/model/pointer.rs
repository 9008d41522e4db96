//! JSON Pointer (RFC 6901) edits of the request body: every form field writes its value at the
//! pointer it carries in `data-path`, which is also the path the diagnostics report.

use serde_json::{Map, Value};

/// Escapes one JSON Pointer segment (RFC 6901).
pub(crate) fn escape(segment: &str) -> String {
    segment.replace('~', "~0").replace('/', "~1")
}

pub(crate) fn key(pointer: &str, key: &str) -> String {
    format!("{pointer}/{}", escape(key))
}

pub(crate) fn index(pointer: &str, index: usize) -> String {
    format!("{pointer}/{index}")
}

fn segments(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect()
}

/// Sets the value at `pointer`, creating objects on the way; an index one past an array's end
/// appends. Returns false when the pointer runs through a value that is not a container.
pub(crate) fn set(root: &mut Value, pointer: &str, new: Value) -> bool {
    let mut current = root;
    let segments = segments(pointer);
    let Some((last, parents)) = segments.split_last() else {
        *current = new;
        return true;
    };
    for segment in parents {
        if current.is_null() {
            *current = Value::Object(Map::new());
        }
        current = match current {
            Value::Object(map) => map.entry(segment.clone()).or_insert(Value::Null),
            Value::Array(items) => match segment.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(item) => item,
                None => return false,
            },
            _ => return false,
        };
    }
    if current.is_null() {
        *current = Value::Object(Map::new());
    }
    match current {
        Value::Object(map) => {
            map.insert(last.clone(), new);
            true
        }
        Value::Array(items) => match last.parse::<usize>() {
            Ok(i) if i < items.len() => {
                items[i] = new;
                true
            }
            Ok(i) if i == items.len() => {
                items.push(new);
                true
            }
            _ => false,
        },
        _ => false,
    }
}

/// Removes the value at `pointer` (an object key or an array item).
pub(crate) fn remove(root: &mut Value, pointer: &str) -> Option<Value> {
    let (parent, last) = pointer.rsplit_once('/')?;
    let last = last.replace("~1", "/").replace("~0", "~");
    match root.pointer_mut(parent)? {
        Value::Object(map) => map.shift_remove(&last),
        Value::Array(items) => {
            let i = last.parse::<usize>().ok().filter(|i| *i < items.len())?;
            Some(items.remove(i))
        }
        _ => None,
    }
}

/// Swaps items `i` and `j` of the array at `pointer`.
pub(crate) fn swap(root: &mut Value, pointer: &str, i: usize, j: usize) -> bool {
    match root.pointer_mut(pointer) {
        Some(Value::Array(items)) if i < items.len() && j < items.len() => {
            items.swap(i, j);
            true
        }
        _ => false,
    }
}

/// Appends to the array at `pointer`, creating it when missing.
pub(crate) fn push(root: &mut Value, pointer: &str, item: Value) -> bool {
    match root.pointer_mut(pointer) {
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
