//! Where each part of the standard input came from in the AG-UI body, so that a problem found in
//! the standard input is reported at its place in the AG-UI body.

use crate::path::{Path, Segment};

/// Where the parts of one standard message came from in the AG-UI body.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct MessageOrigin {
    /// The AG-UI message.
    pub(super) message: Path,
    /// Per standard content block, in order.
    pub(super) blocks: Vec<BlockOrigin>,
    /// The `encryptedValue` the message's `reasoningState` was first read from.
    pub(super) reasoning: Option<Path>,
}

/// Where one standard content block came from.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct BlockOrigin {
    /// The AG-UI part (or the message's string `content`).
    pub(super) part: Path,
    /// What the block's `source.data` (or `text`) is read from.
    pub(super) data: Path,
    /// What the block's `source.format` is read from: the MIME type.
    pub(super) mime_type: Path,
}

/// Maps a path of the standard input (`/input/<i>/...`, message `i` of `messages`) to the AG-UI
/// body; a path not into a message is `/messages`.
pub(super) fn to_agui_path(path: &Path, messages: &[MessageOrigin]) -> Path {
    let segments = path.segments();
    let (Some(Segment::Key(input)), Some(Segment::Index(i))) = (segments.first(), segments.get(1)) else {
        return Path::root().key("messages");
    };
    let Some(origin) = messages.get(*i).filter(|_| &**input == "input") else {
        return Path::root().key("messages");
    };
    let rest = &segments[2..];
    if let (Some(Segment::Key(key)), Some(reasoning)) = (rest.first(), &origin.reasoning)
        && &**key == "reasoningState"
    {
        return reasoning.clone();
    }
    if let [Segment::Key(content), Segment::Index(j), tail @ ..] = rest
        && &**content == "content"
        && let Some(block) = origin.blocks.get(*j)
    {
        return match tail {
            [Segment::Key(source), Segment::Key(key), ..] if &**source == "source" && &**key == "data" => {
                block.data.clone()
            }
            [Segment::Key(source), Segment::Key(key), ..] if &**source == "source" && &**key == "format" => {
                block.mime_type.clone()
            }
            _ => block.part.clone(),
        };
    }
    let mut out = origin.message.clone();
    for segment in rest {
        out = match segment {
            Segment::Key(key) => out.key(key),
            Segment::Index(index) => out.index(*index),
        };
    }
    out
}
