//! Where a JSON Pointer's value is in JSON text, so that clicking an error in the JSON editor
//! selects the offending value. A small scanner over text that already parsed.

use agent_input::{Path, Segment};

/// The byte range of the value at `pointer` in `text`, or of its nearest existing ancestor.
pub(crate) fn locate(text: &str, pointer: &str) -> Option<(usize, usize)> {
    let target = Path::parse(pointer)?;
    let mut scanner = Scanner { bytes: text.as_bytes(), pos: 0 };
    let mut best = None;
    scanner.value(target.segments(), 0, &mut best)?;
    best
}

/// Whether an object member's name is the segment (a key that reads as a number parses as an
/// index).
fn names(segment: &Segment, key: &str) -> bool {
    match segment {
        Segment::Key(k) => **k == *key,
        Segment::Index(i) => key == i.to_string(),
    }
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn skip_ws(&mut self) {
        while self.bytes.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
            self.pos += 1;
        }
    }

    /// Scans one value; records its range in `best` when the path so far matches the target.
    fn value(&mut self, target: &[Segment], depth: usize, best: &mut Option<(usize, usize)>) -> Option<()> {
        self.skip_ws();
        let start = self.pos;
        let on_path = depth <= target.len();
        match *self.bytes.get(self.pos)? {
            b'{' => {
                self.pos += 1;
                loop {
                    self.skip_ws();
                    match *self.bytes.get(self.pos)? {
                        b'}' => {
                            self.pos += 1;
                            break;
                        }
                        b',' => self.pos += 1,
                        b'"' => {
                            let key = self.string()?;
                            self.skip_ws();
                            (*self.bytes.get(self.pos)? == b':').then_some(())?;
                            self.pos += 1;
                            let matches = on_path && target.get(depth).is_some_and(|t| names(t, &key));
                            if matches {
                                self.value(target, depth + 1, best)?;
                            } else {
                                self.value(&[], usize::MAX / 2, &mut None)?;
                            }
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                self.pos += 1;
                let mut index = 0usize;
                loop {
                    self.skip_ws();
                    match *self.bytes.get(self.pos)? {
                        b']' => {
                            self.pos += 1;
                            break;
                        }
                        b',' => {
                            self.pos += 1;
                            index += 1;
                        }
                        _ => {
                            let matches =
                                on_path && matches!(target.get(depth), Some(Segment::Index(i)) if *i == index);
                            if matches {
                                self.value(target, depth + 1, best)?;
                            } else {
                                self.value(&[], usize::MAX / 2, &mut None)?;
                            }
                        }
                    }
                }
            }
            b'"' => {
                self.string()?;
            }
            _ => {
                while self
                    .bytes
                    .get(self.pos)
                    .is_some_and(|b| !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace())
                {
                    self.pos += 1;
                }
            }
        }
        // Deeper matches are recorded after (and so replace) this one.
        if on_path && best.is_none_or(|(s, _)| s <= start) {
            *best = Some((start, self.pos));
        }
        Some(())
    }

    /// Scans a string, returning its unescaped content (escapes other than `\"`, `\\`, `\/`
    /// are kept as written: keys in pointers rarely hold them).
    fn string(&mut self) -> Option<String> {
        self.pos += 1;
        let start = self.pos;
        let mut out = String::new();
        let mut plain_from = start;
        loop {
            match *self.bytes.get(self.pos)? {
                b'"' => {
                    out.push_str(std::str::from_utf8(&self.bytes[plain_from..self.pos]).ok()?);
                    self.pos += 1;
                    return Some(out);
                }
                b'\\' => {
                    out.push_str(std::str::from_utf8(&self.bytes[plain_from..self.pos]).ok()?);
                    let escaped = *self.bytes.get(self.pos + 1)?;
                    match escaped {
                        b'"' | b'\\' | b'/' => out.push(char::from(escaped)),
                        _ => out.push_str(std::str::from_utf8(&self.bytes[self.pos..self.pos + 2]).ok()?),
                    }
                    self.pos += 2;
                    plain_from = self.pos;
                }
                _ => self.pos += 1,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::locate;

    #[test]
    fn finds_values_and_falls_back_to_ancestors() {
        let text = r#"{"input": [{"type": "text", "text": "a"}, {"type": "image", "source": {"format": "bmp"}}]}"#;
        let at = |p: &str| locate(text, p).map(|(s, e)| &text[s..e]);
        assert_eq!(at("/input/1/source/format"), Some("\"bmp\""));
        assert_eq!(at("/input/0/text"), Some("\"a\""));
        assert_eq!(at("/input/1/source/data"), Some(r#"{"format": "bmp"}"#));
        assert_eq!(at(""), Some(text));
        assert_eq!(at("/parameters"), Some(text));
        let keys = r#"{"parameters": {"7": 1, "a/b~": 2}}"#;
        let at = |p: &str| locate(keys, p).map(|(s, e)| &keys[s..e]);
        assert_eq!(at("/parameters/7"), Some("1"));
        assert_eq!(at("/parameters/a~1b~0"), Some("2"));
    }
}
