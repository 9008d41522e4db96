//! JSON Pointer paths (RFC 6901) into the request body.

use std::fmt;
use std::sync::Arc;

/// One step of a [`Path`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Segment {
    /// An object member. Shared: a path extended by another step copies its parent's keys, and
    /// a shared key is copied without an allocation.
    Key(Arc<str>),
    /// An array element.
    Index(usize),
}

/// A location in the request, rendered as an RFC 6901 JSON Pointer (`/input/0/source/format`).
///
/// The empty path is the whole document and renders as `""`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Path(Vec<Segment>);

impl Path {
    /// The whole document.
    pub const fn root() -> Self {
        Self(Vec::new())
    }

    /// This path extended by an object key.
    #[must_use]
    pub fn key(&self, key: &str) -> Self {
        self.with(Segment::Key(key.into()))
    }

    /// This path extended by an array index.
    #[must_use]
    pub fn index(&self, index: usize) -> Self {
        self.with(Segment::Index(index))
    }

    /// One allocation of the right size (a clone and a push would reallocate).
    fn with(&self, last: Segment) -> Self {
        let mut segments = Vec::with_capacity(self.0.len() + 1);
        segments.extend_from_slice(&self.0);
        segments.push(last);
        Self(segments)
    }

    /// The segments, outermost first.
    pub fn segments(&self) -> &[Segment] {
        &self.0
    }

    /// Parses an RFC 6901 pointer. Returns `None` if it does not start with `/` and is not empty.
    pub fn parse(pointer: &str) -> Option<Self> {
        if pointer.is_empty() {
            return Some(Self::root());
        }
        let rest = pointer.strip_prefix('/')?;
        let segments = rest
            .split('/')
            .map(|raw| {
                let key = raw.replace("~1", "/").replace("~0", "~");
                match key.parse::<usize>() {
                    Ok(i) if !key.starts_with('+') && (key == "0" || !key.starts_with('0')) => Segment::Index(i),
                    _ => Segment::Key(key.into()),
                }
            })
            .collect();
        Some(Self(segments))
    }
}

impl fmt::Display for Path {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for segment in &self.0 {
            f.write_str("/")?;
            match segment {
                Segment::Index(i) => write!(f, "{i}")?,
                Segment::Key(key) => {
                    for c in key.chars() {
                        match c {
                            '~' => f.write_str("~0")?,
                            '/' => f.write_str("~1")?,
                            c => write!(f, "{c}")?,
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

impl serde::Serialize for Path {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_rfc6901_with_escapes() {
        let path = Path::root().key("input").index(3).key("a/b~c");
        assert_eq!(path.to_string(), "/input/3/a~1b~0c");
        assert_eq!(Path::root().to_string(), "");
    }

    #[test]
    fn parse_round_trips() {
        for pointer in ["", "/input/0/source", "/a~1b~0c/12", "/parameters/question"] {
            assert_eq!(Path::parse(pointer).unwrap().to_string(), pointer);
        }
        assert_eq!(Path::parse("input"), None);
    }
}

/// A path under construction while walking the input: a chain of borrowed frames on the stack,
/// turned into an owned [`Path`] only when something is reported.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Loc<'p> {
    Root(&'p Path),
    Key(&'p Loc<'p>, &'p str),
    Index(&'p Loc<'p>, usize),
}

impl<'p> Loc<'p> {
    pub(crate) fn key(&'p self, key: &'p str) -> Self {
        Loc::Key(self, key)
    }

    pub(crate) fn index(&'p self, index: usize) -> Self {
        Loc::Index(self, index)
    }

    pub(crate) fn to_path(self) -> Path {
        fn push(loc: Loc<'_>, out: &mut Vec<Segment>) {
            match loc {
                Loc::Root(path) => out.extend_from_slice(path.segments()),
                Loc::Key(parent, key) => {
                    push(*parent, out);
                    out.push(Segment::Key(key.into()));
                }
                Loc::Index(parent, index) => {
                    push(*parent, out);
                    out.push(Segment::Index(index));
                }
            }
        }
        let mut depth = 0;
        let mut at = self;
        let root = loop {
            match at {
                Loc::Root(path) => break path.segments().len(),
                Loc::Key(parent, _) | Loc::Index(parent, _) => {
                    depth += 1;
                    at = *parent;
                }
            }
        };
        let mut segments = Vec::with_capacity(root + depth);
        push(self, &mut segments);
        Path(segments)
    }
}
