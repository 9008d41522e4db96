//! The JSON parser behind [`Document::parse`](super::Document::parse), for text `serde_json`
//! accepts and nests less than [`MAX_DEPTH`] deep. Through serde's visitor each array and object
//! grows its own vector and each token goes through generic calls; here children gather on two
//! shared stacks and each container is allocated once at its size, and one loop keeps the open
//! containers in an array rather than recursing.
//!
//! It gives up (`None`) on anything it does not take, and the caller parses with `serde_json`,
//! which is then the one that says what is wrong and where. So it never needs an error message,
//! and whatever it accepts must parse to the same tree with `serde_json` (tests below, and the
//! `parse_validate` fuzz target). Numbers other than plain integers are read by `serde_json`
//! too, token by token; escaped strings are decoded here, a run of plain text at a time.
//!
//! Built natively and, in WebAssembly, with feature `speed` (the npm package's Node module); the
//! browsers' module parses with `serde_json` alone, which costs it speed and saves it 3 KB gzip.

use std::borrow::Cow;

use super::literal::Literal;
use super::value::{Json, Object, escapes_in, plain_byte};

/// The nesting this parser takes; deeper text goes to `serde_json`, whose limit (128) then applies.
pub(super) const MAX_DEPTH: usize = 100;

/// The tree of `text` and how deep its arrays and objects nest (a top-level one is 1), or `None`
/// for `serde_json` to parse.
pub(super) fn parse(text: &str) -> Option<Parsed<'_>> {
    let mut parser =
        Parser { text, bytes: text.as_bytes(), at: 0, items: Vec::new(), entries: Vec::new(), literals: Vec::new() };
    let (root, deepest) = parser.tree()?;
    parser.skip_whitespace();
    (parser.at == parser.bytes.len()).then_some(Parsed { root, depth: deepest, literals: parser.literals })
}

/// What [`parse`] reads: the tree, how deep it nests, and the escaped strings a writer can take
/// from the text as they stand there.
pub(super) struct Parsed<'a> {
    pub(super) root: Json<'a>,
    pub(super) depth: usize,
    pub(super) literals: Vec<Literal<'a>>,
}

struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    /// The items of the arrays being read, innermost last.
    items: Vec<Json<'a>>,
    /// The members of the objects being read, innermost last; the last one's value is a
    /// placeholder while that value is read.
    entries: Vec<(Cow<'a, str>, Json<'a>)>,
    /// The escaped strings of at least [`Literal::FROM`] bytes whose escapes are all as
    /// `serde_json` writes them.
    literals: Vec<Literal<'a>>,
}

/// An array or object being read: where its children start on their stack, shifted left once,
/// and in the low bit whether it is an object. Four bytes: the array of them is set up for each
/// request, and 20,000 small requests felt its 1.6 KB at 16 bytes each.
#[derive(Clone, Copy)]
struct Open(u32);

impl Open {
    /// `None` past 2^31 children on a stack: 4 GiB of text, which `serde_json` may have.
    fn new(object: bool, start: usize) -> Option<Self> {
        let start = u32::try_from(start).ok().filter(|start| *start <= u32::MAX >> 1)?;
        Some(Self(start << 1 | u32::from(object)))
    }

    fn object(self) -> bool {
        self.0 & 1 == 1
    }

    fn start(self) -> usize {
        usize::try_from(self.0 >> 1).unwrap_or(usize::MAX)
    }
}

impl<'a> Parser<'a> {
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, consumed.
    fn next_token(&mut self) -> Option<u8> {
        self.skip_whitespace();
        let byte = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(byte)
    }

    /// The value at the cursor, and the depth of its deepest array or object. A loop over the
    /// arrays and objects open, not a recursion: each value read goes straight onto its parent's
    /// stack, where a recursive descent returned it through every level.
    fn tree(&mut self) -> Option<(Json<'a>, usize)> {
        let mut open = [Open(0); MAX_DEPTH];
        let mut depth = 0;
        let mut deepest = 0;
        'value: loop {
            let mut value = match self.next_token()? {
                b'"' => Json::String(self.string()?),
                byte @ (b'[' | b'{') => {
                    let object = byte == b'{';
                    deepest = deepest.max(depth + 1);
                    if depth + 1 >= MAX_DEPTH {
                        return None;
                    }
                    self.skip_whitespace();
                    let close = if object { b'}' } else { b']' };
                    if self.bytes.get(self.at) == Some(&close) {
                        self.at += 1;
                        if object { Json::Object(Object::default()) } else { Json::Array(Vec::new()) }
                    } else {
                        let start = if object { self.entries.len() } else { self.items.len() };
                        open[depth] = Open::new(object, start)?;
                        depth += 1;
                        if object {
                            self.key()?;
                        }
                        continue 'value;
                    }
                }
                b't' => self.literal(b"rue", Json::Bool(true))?,
                b'f' => self.literal(b"alse", Json::Bool(false))?,
                b'n' => self.literal(b"ull", Json::Null)?,
                b'-' | b'0'..=b'9' => self.number()?,
                _ => return None,
            };
            // Place the value in its parent; close each container that ends after it.
            loop {
                let Some(parent) = depth.checked_sub(1).map(|i| open[i]) else {
                    return Some((value, deepest));
                };
                if parent.object() {
                    // The placeholder is `Null`, which owns nothing: no drop to run for it.
                    std::mem::forget(std::mem::replace(&mut self.entries.last_mut()?.1, value));
                } else {
                    self.items.push(value);
                }
                match self.next_token()? {
                    b',' => {
                        if parent.object() {
                            self.key()?;
                        }
                        continue 'value;
                    }
                    b'}' if parent.object() => {
                        let members = children(&mut self.entries, parent.start(), depth == 1);
                        value = Json::Object(Object::from_entries(members));
                    }
                    b']' if !parent.object() => {
                        value = Json::Array(children(&mut self.items, parent.start(), depth == 1));
                    }
                    _ => return None,
                }
                depth -= 1;
            }
        }
    }

    /// An object member's key and colon, pushed with a placeholder for its value.
    fn key(&mut self) -> Option<()> {
        if self.next_token()? != b'"' {
            return None;
        }
        let key = self.string()?;
        if self.next_token()? != b':' {
            return None;
        }
        self.entries.push((key, Json::Null));
        Some(())
    }

    fn literal(&mut self, rest: &[u8], value: Json<'a>) -> Option<Json<'a>> {
        let end = self.at + rest.len();
        (self.bytes.get(self.at..end)? == rest).then(|| {
            self.at = end;
            value
        })
    }

    /// A number; its first byte is consumed.
    fn number(&mut self) -> Option<Json<'a>> {
        let start = self.at - 1;
        while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
        }
        let token = &self.text[start..self.at];
        // A plain integer that fits: no sign (`-0` is a float to serde_json), no leading zero.
        let plain = token.len() <= 19
            && token.bytes().all(|b| b.is_ascii_digit())
            && (token.len() == 1 || !token.starts_with('0'));
        if plain {
            let n = token.bytes().fold(0_u64, |n, b| n * 10 + u64::from(b - b'0'));
            return Some(Json::Number(n.into()));
        }
        read_number(token)
    }

    /// A string's content; the opening quote is consumed. Text between escapes is copied a run
    /// at a time, found as the borrowed case finds its end.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let start = self.at;
        let special = start + special_byte(&self.bytes[start..])?;
        match self.bytes[special] {
            b'"' => {
                self.at = special + 1;
                Some(Cow::Borrowed(&self.text[start..special]))
            }
            b'\\' => {
                let mut out = String::with_capacity(special - start + 16);
                out.push_str(self.text.get(start..special)?);
                // `at` is at a backslash; each pass decodes its escape and copies the run after it.
                let mut at = special;
                let mut as_written = true;
                loop {
                    as_written &= written_as_is(self.bytes, at + 1);
                    at = unescape(self.bytes, at + 1, &mut out)?;
                    let run = special_byte(self.bytes.get(at..)?)?;
                    out.push_str(self.text.get(at..at + run)?);
                    at += run;
                    match self.bytes[at] {
                        b'"' => {
                            self.at = at + 1;
                            if as_written && out.len() >= Literal::FROM {
                                self.literals.push(Literal::new(&out, self.text.get(start..at)?));
                            }
                            return Some(Cow::Owned(out));
                        }
                        b'\\' => {}
                        _ => return None, // a control character
                    }
                }
            }
            _ => None, // a control character
        }
    }
}

/// The escape whose letter is at `at` (after its backslash), appended to `out` as `serde_json`
/// decodes it; where it ends. `None` for what `serde_json` rejects: an unknown escape, bad hex,
/// a surrogate that is not half of a pair.
fn unescape(bytes: &[u8], at: usize, out: &mut String) -> Option<usize> {
    let decoded = match *bytes.get(at)? {
        b'"' => '"',
        b'\\' => '\\',
        b'/' => '/',
        b'b' => '\u{8}',
        b'f' => '\u{c}',
        b'n' => '\n',
        b'r' => '\r',
        b't' => '\t',
        b'u' => {
            let unit = hex4(bytes.get(at + 1..at + 5)?)?;
            if !(0xD800..0xDC00).contains(&unit) {
                // A trailing surrogate alone is no `char`.
                out.push(char::from_u32(unit)?);
                return Some(at + 5);
            }
            if bytes.get(at + 5..at + 7)? != b"\\u" {
                return None;
            }
            let low = hex4(bytes.get(at + 7..at + 11)?)?;
            if !(0xDC00..0xE000).contains(&low) {
                return None;
            }
            out.push(char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?);
            return Some(at + 11);
        }
        _ => return None,
    };
    out.push(decoded);
    Some(at + 1)
}

/// Whether the escape whose letter is at `at` is the one `serde_json` writes for the character it
/// stands for: `\"`, `\\`, `\b \f \n \r \t`, and `\u00xx` in lower case for the other control
/// characters; not `\/` nor any other `\u`.
fn written_as_is(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at) {
        Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => true,
        Some(b'u') => match bytes.get(at + 1..at + 5) {
            Some([b'0', b'0', high @ (b'0' | b'1'), low]) => {
                let lower_hex = matches!(low, b'0'..=b'9' | b'a'..=b'f');
                let short = *high == b'0' && matches!(low, b'8' | b'9' | b'a' | b'c' | b'd');
                lower_hex && !short
            }
            _ => false,
        },
        _ => false,
    }
}

/// Four hex digits, either case.
fn hex4(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0, |n, &digit| Some(n << 4 | char::from(digit).to_digit(16)?))
}

/// The top of `stack` from `start`: the children of the container just read, in a vector
/// allocated once at its size. The stack keeps its capacity for the next container: one at the
/// bottom of the stack (each message of a request) must not take the stack away, or the stack
/// grows again from nothing for every one. The root takes it: nothing comes after.
fn children<T>(stack: &mut Vec<T>, start: usize, root: bool) -> Vec<T> {
    if root {
        return std::mem::take(stack);
    }
    if start > 0 {
        return stack.split_off(start);
    }
    // `split_off(0)` would hand over the stack and leave a new one at its capacity.
    let mut all = Vec::with_capacity(stack.len());
    all.append(stack);
    all
}

// Rare, and kept out of line so the parser's hot loop stays small. It reads the token with the
// fallback's own instantiation of serde_json (`from_str::<Json>`), which the module has anyway:
// one of its own cost the npm `.wasm` 15 KB gzip.
#[cold]
#[inline(never)]
fn read_number(token: &str) -> Option<Json<'_>> {
    serde_json::from_str::<Json<'_>>(token).ok().filter(|value| matches!(value, Json::Number(_)))
}

/// Where the first quote, backslash or control character of `bytes` is, eight bytes at a time
/// (after [`plain_blocks`]).
pub(super) fn special_byte(bytes: &[u8]) -> Option<usize> {
    let skipped = plain_blocks(bytes);
    let mut words = bytes[skipped..].chunks_exact(8);
    for (i, word) in words.by_ref().enumerate() {
        let hits = escapes_in(word.try_into().ok()?);
        if hits != 0 {
            // The lowest hit is a true one; each byte's hit is its high bit.
            return Some(skipped + i * 8 + hits.trailing_zeros() as usize / 8);
        }
    }
    let rest = words.remainder();
    rest.iter().position(|&b| !plain_byte(b)).map(|i| bytes.len() - rest.len() + i)
}

/// How many bytes at the start of `bytes` are whole 16-byte blocks with nothing to escape, with
/// WebAssembly SIMD (`simd128`, which the npm build enables): a long string (a base64 payload)
/// is scanned twice as fast as eight bytes at a time.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn plain_blocks(bytes: &[u8]) -> usize {
    use core::arch::wasm32::{u8x16_eq, u8x16_lt, u8x16_splat, u64x2, v128_any_true, v128_or};
    let mut at = 0;
    for block in bytes.chunks_exact(16) {
        let (low, high) = block.split_at(8);
        let word = |half: &[u8]| u64::from_le_bytes(half.try_into().unwrap_or_default());
        let v = u64x2(word(low), word(high));
        let special = v128_or(
            u8x16_lt(v, u8x16_splat(0x20)),
            v128_or(u8x16_eq(v, u8x16_splat(b'"')), u8x16_eq(v, u8x16_splat(b'\\'))),
        );
        if v128_any_true(special) {
            break;
        }
        at += 16;
    }
    at
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
const fn plain_blocks(_: &[u8]) -> usize {
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(text: &str) -> Option<(Json<'_>, usize)> {
        parse(text).map(|parsed| (parsed.root, parsed.depth))
    }

    /// Below [`MAX_DEPTH`], `parse` takes exactly what `serde_json` takes, to the same tree.
    fn agrees(text: &str) -> bool {
        let ours = tree(text);
        let depth_right = ours.as_ref().is_none_or(|(root, depth)| {
            !crate::json::exceeds_depth(root, *depth) && (*depth == 0 || crate::json::exceeds_depth(root, depth - 1))
        });
        depth_right && ours.map(|(root, _)| root) == serde_json::from_str::<Json<'_>>(text).ok()
    }

    #[test]
    fn takes_what_serde_json_takes_and_gives_the_same_tree() {
        let texts = [
            "0",
            "7",
            "-0",
            "-7",
            "12345678901234567890",
            "1234567890123456789",
            "1.5",
            "-2.5e-3",
            "1e5",
            "1E-400",
            "true",
            "false",
            "null",
            r#""""#,
            r#""abc""#,
            r#""a\"b""#,
            r#""\u00e9\n\/""#,
            r#""\ud83d\ude00""#,
            r#""é ü 😀""#,
            r#""a\"b\\c\/d\b\f\n\r\t""#,
            r#""\u00E9\uD83D\uDE00 é 東京\n a run of plain text after the escape, longer than eight""#,
            r#""\u0000\u001f\u007F\uFFFF""#,
            r#"{"line\nbreak": "say \"hi\"", "k": ["\\", "x\ty"]}"#,
            "[]",
            "{}",
            " [ 1 , [ ] , { } ] ",
            r#"{"a":1,"b":[true,false,null],"a":"x"}"#,
            r#"{"k\u0041":"v"}"#,
            "\t\r\n[\"long string with no escapes at all, longer than eight\"]\n",
        ];
        for text in texts {
            assert!(tree(text).is_some(), "declined {text}");
            assert!(agrees(text), "{text}");
        }
    }

    #[test]
    fn declines_what_serde_json_rejects() {
        let texts = [
            "",
            " ",
            "[",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "[1 2]",
            "01",
            "-",
            "1.",
            ".5",
            "1e",
            "+1",
            "1-2",
            "tru",
            "nul",
            "truex",
            "[] x",
            "\"a",
            "\"a\\",
            "\"\\x\"",
            "\"\\ud800\"",
            "\"a\u{1}b\"",
            "\"\t\"",
            "[\"a\"",
            "{\"a\":}",
            "NaN",
            "Infinity",
            "[-]",
            "\"\\u12\"",
            "\"\\udc00\"",
            "\"\\ud83d\\u0041\"",
            "\"\\ud83dx\"",
            "\"\\ud83d\\n\"",
            "\"\\ud83d\\udbff\"",
            "\"\\u00g0\"",
            "\"a\\nb\u{1}\"",
            "\"a\\n",
            "\"a\\n b",
            "1E400",
        ];
        for text in texts {
            assert_eq!(tree(text), None, "accepted {text:?}");
            assert!(serde_json::from_str::<Json<'_>>(text).is_err(), "{text:?}");
        }
    }

    #[test]
    fn leaves_deep_nesting_to_serde_json() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(tree(&deep(MAX_DEPTH - 1)).map(|(_, depth)| depth), Some(MAX_DEPTH - 1));
        assert_eq!(tree(r#"[{"a":[1]},{"b":{"c":{}}}]"#).map(|(_, depth)| depth), Some(4));
        assert_eq!(tree(r#""x""#).map(|(_, depth)| depth), Some(0));
        assert!(tree(&deep(MAX_DEPTH)).is_none());
        assert!(serde_json::from_str::<Json<'_>>(&deep(MAX_DEPTH)).is_ok());
    }

    #[test]
    fn finds_special_bytes_at_every_offset() {
        for len in 0..40 {
            for (at, byte) in (0..len).flat_map(|at| [(at, b'"'), (at, b'\\'), (at, 0x1f), (at, 0)]) {
                let mut bytes = vec![b'a'; len];
                bytes[at] = byte;
                assert_eq!(special_byte(&bytes), Some(at), "{len} {at} {byte}");
            }
            assert_eq!(special_byte(&vec![0xc3; len]), None);
            assert_eq!(special_byte(&vec![b' '; len]), None);
        }
    }

    proptest::proptest! {
        /// The first special byte, also with several in a word and bytes around 0x20 whose
        /// borrows make false hits above it.
        #[test]
        fn finds_the_first_special_byte(bytes in proptest::collection::vec(proptest::sample::select(vec![
            0_u8, 0x1f, 0x20, 0x21, 0x01, b'"', b'\\', b'!', b'#', b'[', b']', 0x80, 0xff, b'a',
        ]), 0..40)) {
            let naive = bytes.iter().position(|&b| !super::super::plain_byte(b));
            proptest::prop_assert_eq!(special_byte(&bytes), naive);
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Text made of JSON's own pieces, well-formed or not.
        #[test]
        fn agrees_with_serde_json(pieces in proptest::collection::vec(proptest::sample::select(vec![
            "[", "]", "{", "}", ",", ":", " ", "\n", "\"", "\\", "\\\"", "\\u00e9", "\\ud83d", "a", "é", "\u{1}",
            "0", "1", "-", ".", "e", "+", "9007199254740993", "true", "null", "fals", "\"k\":", "\"s\"",
        ]), 0..24)) {
            let text = pieces.concat();
            proptest::prop_assert!(agrees(&text), "{text:?}");
        }
    }

    /// Any JSON value, written compact and pretty: valid text the parser must take.
    fn any_json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(serde_json::Value::Null),
            any::<bool>().prop_map(serde_json::Value::from),
            any::<i64>().prop_map(serde_json::Value::from),
            any::<u64>().prop_map(serde_json::Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(serde_json::Value::from),
            any::<String>().prop_map(serde_json::Value::from),
            "[a-z\\\"/ \u{e9}\u{1f600}\u{1}-\u{1f}]{0,20}".prop_map(serde_json::Value::from),
        ];
        leaf.prop_recursive(6, 64, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..8).prop_map(serde_json::Value::from),
                proptest::collection::vec(("[a-z\\\"]{0,4}", inner), 0..8)
                    .prop_map(|entries| serde_json::Value::Object(entries.into_iter().collect())),
            ]
        })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        #[test]
        fn takes_any_written_value(value in any_json()) {
            for text in [value.to_string(), serde_json::to_string_pretty(&value).unwrap_or_default()] {
                let ours = tree(&text);
                proptest::prop_assert!(ours.is_some(), "declined {text:?}");
                proptest::prop_assert!(agrees(&text), "{text:?}");
            }
        }
    }
}
