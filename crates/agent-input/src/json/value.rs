//! The borrowing tree ([`Json`], [`Object`]), the traits the field reader reads any tree through,
//! and the byte tests the parser and the writers share.

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

/// A JSON value whose strings borrow from the parsed text where they can.
#[derive(Debug, Clone, PartialEq)]
pub enum Json<'a> {
    /// `null`
    Null,
    /// `true` / `false`
    Bool(bool),
    /// A number.
    Number(Number),
    /// A string: borrowed when it had no escapes.
    String(Cow<'a, str>),
    /// An array.
    Array(Vec<Json<'a>>),
    /// An object.
    Object(Object<'a>),
}

/// A JSON object. Duplicate keys keep the last value, as `serde_json::Value` does.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Object<'a> {
    entries: Vec<(Cow<'a, str>, Json<'a>)>,
}

impl<'a> Json<'a> {
    /// A tree over a `serde_json::Value`, borrowing its strings.
    pub fn from_value(value: &'a Value) -> Self {
        match value {
            Value::Null => Json::Null,
            Value::Bool(b) => Json::Bool(*b),
            Value::Number(n) => Json::Number(n.clone()),
            Value::String(s) => Json::String(Cow::Borrowed(s)),
            Value::Array(items) => Json::Array(items.iter().map(Json::from_value).collect()),
            Value::Object(map) => Json::Object(Object {
                entries: map.iter().map(|(k, v)| (Cow::Borrowed(k.as_str()), Json::from_value(v))).collect(),
            }),
        }
    }

    /// An owned `serde_json::Value` with the same content.
    pub fn to_value(&self) -> Value {
        match self {
            Json::Null => Value::Null,
            Json::Bool(b) => Value::Bool(*b),
            Json::Number(n) => Value::Number(n.clone()),
            Json::String(s) => Value::String(s.to_string()),
            Json::Array(items) => Value::Array(items.iter().map(Json::to_value).collect()),
            Json::Object(object) => Value::Object(object.to_map()),
        }
    }

    /// The object, if this is one.
    pub fn as_object(&self) -> Option<&Object<'a>> {
        match self {
            Json::Object(object) => Some(object),
            _ => None,
        }
    }

    /// The items, if this is an array.
    pub fn as_array(&self) -> Option<&[Json<'a>]> {
        match self {
            Json::Array(items) => Some(items),
            _ => None,
        }
    }

    /// The string, if this is one.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Json::String(s) => Some(s),
            _ => None,
        }
    }

    /// Whether this is `null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Json::Null)
    }

    /// Whether this is an object.
    pub fn is_object(&self) -> bool {
        matches!(self, Json::Object(_))
    }

    /// The JSON type's name: null, boolean, number, string, array or object ([`type_name`]).
    pub fn type_name(&self) -> &'static str {
        type_name(self)
    }

    /// A member of an object.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.as_object().and_then(|o| o.get(key))
    }

    /// Appends every string of at least `min` bytes that the tree borrows from its text (one
    /// without escapes), in document order.
    pub(crate) fn long_borrowed<'s>(&'s self, min: usize, out: &mut Vec<&'s str>) {
        match self {
            Json::String(Cow::Borrowed(s)) if s.len() >= min => out.push(s),
            Json::Array(items) => items.iter().for_each(|item| item.long_borrowed(min, out)),
            Json::Object(object) => object.values().for_each(|value| value.long_borrowed(min, out)),
            _ => {}
        }
    }
}

impl<'a> Object<'a> {
    /// The value of a key.
    pub fn get(&self, key: &str) -> Option<&Json<'a>> {
        self.entries.iter().find(|(k, _)| same_key(k, key)).map(|(_, v)| v)
    }

    /// Whether the key is present.
    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys, in document order.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(k, _)| k.as_ref())
    }

    /// The values, in document order.
    pub fn values(&self) -> impl Iterator<Item = &Json<'a>> {
        self.entries.iter().map(|(_, v)| v)
    }

    /// Key–value pairs, in document order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Json<'a>)> {
        self.entries.iter().map(|(k, v)| (k.as_ref(), v))
    }

    /// Number of members.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether there are no members.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// An owned `serde_json` map with the same content.
    pub fn to_map(&self) -> Map<String, Value> {
        self.entries.iter().map(|(k, v)| (k.to_string(), v.to_value())).collect()
    }

    /// Builds an object, keeping the last value of a repeated key at its last position.
    pub(super) fn from_entries(entries: Vec<(Cow<'a, str>, Json<'a>)>) -> Self {
        const LINEAR: usize = 16;
        let unique = if entries.len() <= LINEAR {
            entries.iter().enumerate().all(|(i, (k, _))| entries[..i].iter().all(|(other, _)| !same_key(other, k)))
        } else {
            let mut seen = KeySet::with_capacity(entries.len());
            entries.iter().all(|(k, _)| seen.insert(k))
        };
        if unique { Self { entries } } else { Self::deduplicated(entries) }
    }

    /// Out of line: rare, and the common case stays small where the parser inlines it.
    #[cold]
    #[inline(never)]
    fn deduplicated(mut entries: Vec<(Cow<'a, str>, Json<'a>)>) -> Self {
        let mut last = Map::with_capacity(entries.len());
        for (i, (k, _)) in entries.iter().enumerate() {
            last.insert(k.to_string(), Value::from(i));
        }
        let mut index = 0;
        entries.retain(|(k, _)| {
            let keep = last.get(k.as_ref()).and_then(Value::as_u64) == Some(index);
            index += 1;
            keep
        });
        Self { entries }
    }
}

/// A set of strings, kept in `serde_json`'s map: the module carries that map's code for JSON
/// objects already, where each hash set type of its own added another hash table (the browsers'
/// module: docs/decisions/npm.md, "The base module's size").
#[derive(Debug, Default)]
pub(crate) struct KeySet(Map<String, Value>);

impl KeySet {
    pub(crate) fn with_capacity(capacity: usize) -> Self {
        Self(Map::with_capacity(capacity))
    }

    /// Adds `key`; false when it was there already.
    pub(crate) fn insert(&mut self, key: &str) -> bool {
        if self.contains(key) {
            return false;
        }
        self.0.insert(key.to_owned(), Value::Null);
        true
    }

    pub(crate) fn contains(&self, key: &str) -> bool {
        self.0.contains_key(key)
    }
}

/// Whether two keys are equal. Keys are mostly a few bytes long, where a call to `memcmp` costs
/// more than the comparison; in WebAssembly, `memcmp` is a function of the module's own, and
/// validation makes a dozen such comparisons for each message.
pub(crate) fn same_key(a: &str, b: &str) -> bool {
    a.len() == b.len() && if a.len() <= 16 { a.bytes().zip(b.bytes()).all(|(x, y)| x == y) } else { a == b }
}

/// Where `needle` (a few bytes, not empty) starts in `text`, each time: its first byte found with
/// `memchr`, the rest compared. `str`'s own search runs a two-way substring searcher, which took
/// a twentieth of a long conversation's conversion in WebAssembly.
pub(crate) fn occurrences<'t>(text: &'t str, needle: &'static str) -> impl Iterator<Item = usize> + 't {
    let (bytes, needle) = (text.as_bytes(), needle.as_bytes());
    memchr::memchr_iter(needle[0], bytes).filter(move |&at| bytes[at..].starts_with(needle))
}

/// Whether `byte` stands for itself in a JSON string: not a quote, a backslash or a control
/// character, the bytes `serde_json` writes escaped and its parser finds special.
pub(crate) const fn plain_byte(byte: u8) -> bool {
    byte >= 0x20 && byte != b'"' && byte != b'\\'
}

/// The bytes of `word` that are not [`plain_byte`]s, each as its high bit: the "has less than" and
/// "has zero byte" tricks, exact as to whether there is one (a false hit only ever lies above a
/// true one). For the parser's and the body writer's string scans.
#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
pub(crate) fn escapes_in(word: [u8; 8]) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let x = u64::from_le_bytes(word);
    let control = x.wrapping_sub(ONES * 0x20) & !x;
    let quote = x ^ (ONES * u64::from(b'"'));
    let backslash = x ^ (ONES * u64::from(b'\\'));
    (control | (quote.wrapping_sub(ONES) & !quote) | (backslash.wrapping_sub(ONES) & !backslash)) & HIGHS
}

#[cfg(any(not(target_arch = "wasm32"), feature = "speed"))]
/// Whether no byte of `bytes` needs escaping in a JSON string (`None` when one does), and if so
/// whether any is not ASCII.
pub(crate) fn plain(bytes: &[u8]) -> Option<bool> {
    let mut words = bytes.chunks_exact(8);
    let mut high = 0;
    for word in words.by_ref() {
        let word: [u8; 8] = word.try_into().ok()?;
        if escapes_in(word) != 0 {
            return None;
        }
        high |= u64::from_le_bytes(word);
    }
    let rest = words.remainder();
    rest.iter().all(|&b| plain_byte(b)).then(|| high & 0x8080_8080_8080_8080 != 0 || !rest.is_ascii())
}

/// The six JSON types.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum JsonType {
    /// `null`
    Null,
    /// `true` / `false`
    Boolean,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl JsonType {
    /// The name messages use: null, boolean, number, string, array or object.
    pub const fn name(self) -> &'static str {
        match self {
            JsonType::Null => "null",
            JsonType::Boolean => "boolean",
            JsonType::Number => "number",
            JsonType::String => "string",
            JsonType::Array => "array",
            JsonType::Object => "object",
        }
    }
}

/// The name of a value's JSON type, as every message writes it: null, boolean, number, string,
/// array or object. For both trees, [`Json`] and `serde_json::Value`.
///
/// ```
/// use agent_input::json::{Document, type_name};
///
/// assert_eq!(type_name(&serde_json::json!([1])), "array");
/// assert_eq!(type_name(&Document::parse("5").unwrap().root), "number");
/// ```
pub fn type_name(value: &impl JsonValue) -> &'static str {
    value.json_type().name()
}

/// A value as compact JSON text, the same text as its `Display` (`value.to_string()`), which
/// writes through an `io::Write` adapter whose error type linked `core::fmt`'s string `Debug` and
/// its Unicode tables into the npm `.wasm` (docs/decisions/npm.md, "The base module's size").
pub(crate) fn compact(value: &Value) -> String {
    // Writing a `Value` into a `Vec` cannot fail: its keys are strings and the writer never errs.
    serde_json::to_string(value).unwrap_or_default()
}

/// A JSON value of either tree, [`Json`] or `serde_json::Value`, so one reader
/// ([`crate::field::Fields`]) serves the validator, which walks [`Json`], and callers holding
/// `serde_json` values.
pub trait JsonValue: Sized {
    /// The object type of this tree.
    type Object: JsonObject<Value = Self>;
    /// The value's JSON type.
    fn json_type(&self) -> JsonType;
    /// The string, if this is one.
    fn as_str(&self) -> Option<&str>;
    /// The items, if this is an array.
    fn as_array(&self) -> Option<&[Self]>;
    /// The object, if this is one.
    fn as_object(&self) -> Option<&Self::Object>;
}

/// A JSON object of either tree: [`Object`] or `serde_json::Map`.
pub trait JsonObject {
    /// The value type of this tree.
    type Value: JsonValue<Object = Self>;
    /// The value of a key.
    fn get(&self, key: &str) -> Option<&Self::Value>;
}

impl<'a> JsonValue for Json<'a> {
    type Object = Object<'a>;

    fn json_type(&self) -> JsonType {
        match self {
            Json::Null => JsonType::Null,
            Json::Bool(_) => JsonType::Boolean,
            Json::Number(_) => JsonType::Number,
            Json::String(_) => JsonType::String,
            Json::Array(_) => JsonType::Array,
            Json::Object(_) => JsonType::Object,
        }
    }

    fn as_str(&self) -> Option<&str> {
        Json::as_str(self)
    }

    fn as_array(&self) -> Option<&[Self]> {
        Json::as_array(self)
    }

    fn as_object(&self) -> Option<&Object<'a>> {
        Json::as_object(self)
    }
}

impl<'a> JsonObject for Object<'a> {
    type Value = Json<'a>;

    fn get(&self, key: &str) -> Option<&Json<'a>> {
        Object::get(self, key)
    }
}

impl JsonValue for Value {
    type Object = Map<String, Value>;

    fn json_type(&self) -> JsonType {
        match self {
            Value::Null => JsonType::Null,
            Value::Bool(_) => JsonType::Boolean,
            Value::Number(_) => JsonType::Number,
            Value::String(_) => JsonType::String,
            Value::Array(_) => JsonType::Array,
            Value::Object(_) => JsonType::Object,
        }
    }

    fn as_str(&self) -> Option<&str> {
        Value::as_str(self)
    }

    fn as_array(&self) -> Option<&[Self]> {
        Value::as_array(self).map(Vec::as_slice)
    }

    fn as_object(&self) -> Option<&Map<String, Value>> {
        Value::as_object(self)
    }
}

impl JsonObject for Map<String, Value> {
    type Value = Value;

    fn get(&self, key: &str) -> Option<&Value> {
        Map::get(self, key)
    }
}

/// A string that stays borrowed when the deserializer can lend it.
struct Str<'a>(Cow<'a, str>);

impl<'de> Deserialize<'de> for Str<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct StrVisitor;
        impl<'de> Visitor<'de> for StrVisitor {
            type Value = Str<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(Str(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(Str(Cow::Owned(v)))
            }
        }
        deserializer.deserialize_str(StrVisitor)
    }
}

impl<'de> Deserialize<'de> for Json<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(JsonVisitor)
    }
}

struct JsonVisitor;

impl<'de> Visitor<'de> for JsonVisitor {
    type Value = Json<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(Json::Bool(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Json::Number(v.into()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Self::Value, E> {
        Number::from_f64(v).map(Json::Number).ok_or_else(|| E::custom("a number that is not finite"))
    }

    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Borrowed(v)))
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Owned(v.to_string())))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        Ok(Json::String(Cow::Owned(v)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(Json::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        Json::deserialize(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        // The hint comes from the input; cap it so a lying hint cannot reserve much.
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(1024));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Json::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
        while let Some(Str(key)) = map.next_key()? {
            entries.push((key, map.next_value()?));
        }
        Ok(Json::Object(Object::from_entries(entries)))
    }
}

/// Whether a container in `value` sits below `levels` more levels. Only containers recurse: a
/// request is mostly leaves, and this runs on every request.
pub(crate) fn exceeds_depth(value: &Json<'_>, levels: usize) -> bool {
    let deeper =
        |child: &Json<'_>| matches!(child, Json::Array(_) | Json::Object(_)) && exceeds_depth(child, levels - 1);
    match value {
        Json::Array(_) | Json::Object(_) if levels == 0 => true,
        Json::Array(items) => items.iter().any(deeper),
        Json::Object(map) => map.values().any(deeper),
        _ => false,
    }
}
