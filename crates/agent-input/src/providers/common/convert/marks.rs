//! Where each block of an alternating conversation came from, so the provider fields of a
//! message's elements are placed at the object written for each once same-role turns are merged
//! and tool results moved first ([`super::turns::Alternation`]). Kept only when a turn has fields
//! of the provider being written: a conversation without them costs nothing.

use super::context::Conversion;
use super::turns::Turn;
use crate::providers::id::ProviderId;

/// What one wire block holds of the standard input.
#[derive(Debug, Clone)]
pub(crate) struct Mark {
    /// The turn, by its index among the converter's turns.
    pub(crate) turn: usize,
    /// Its element (content blocks, then tool calls), or `None` for the message itself: the
    /// block a tool message becomes.
    pub(crate) element: Option<usize>,
    /// The pointer from the block to the object written for it: `""`, or `"/toolUse"` where the
    /// block wraps it.
    pub(crate) key: &'static str,
    /// For a tool result: each block written inside it (its index there), its element and key.
    pub(crate) inner: Vec<(usize, usize, &'static str)>,
}

impl Mark {
    /// The mark of element `element` of turn `turn`, its object at `key`.
    pub(crate) fn element(turn: usize, element: usize, key: &'static str) -> Self {
        Self { turn, element: Some(element), key, inner: Vec::new() }
    }
}

/// The marks of each wire message, in the order its blocks end up.
pub(crate) struct Marks {
    on: bool,
    /// Per wire message: each block's mark, and whether it is a tool result.
    messages: Vec<Vec<(Option<Mark>, bool)>>,
}

impl Marks {
    /// Marks for `turns`, kept when one has provider fields of `provider`.
    pub(crate) fn new(provider: ProviderId, turns: &[Turn<'_, '_>]) -> Self {
        let on = turns.iter().any(|t| t.provider_fields.is_some_and(|f| f.provider() == Some(provider)));
        Self { on, messages: Vec::new() }
    }

    /// Whether blocks are marked.
    pub(crate) fn on(&self) -> bool {
        self.on
    }

    /// The marks of `blocks`, one turn's, from the marks of some of them by index (`marked`);
    /// `is_result`: whether a block is a tool result. Empty when blocks are not marked.
    pub(crate) fn row<B>(
        &self,
        blocks: &[B],
        marked: Vec<(usize, Mark)>,
        is_result: fn(&B) -> bool,
    ) -> Vec<(Option<Mark>, bool)> {
        if !self.on {
            return Vec::new();
        }
        let mut row: Vec<(Option<Mark>, bool)> = blocks.iter().map(|b| (None, is_result(b))).collect();
        for (b, mark) in marked {
            row[b].0 = Some(mark);
        }
        row
    }

    /// The marks of one turn's blocks ([`Self::row`]), once the alternation took them (`merged`: into
    /// the last message). Tool results move first, as the alternation moves them.
    pub(crate) fn push(&mut self, merged: bool, blocks: Vec<(Option<Mark>, bool)>) {
        if !self.on {
            return;
        }
        match self.messages.last_mut().filter(|_| merged) {
            Some(last) => {
                last.extend(blocks);
                if last.iter().any(|(_, result)| *result) {
                    let (mut first, rest): (Vec<_>, Vec<_>) = std::mem::take(last).into_iter().partition(|b| b.1);
                    first.extend(rest);
                    *last = first;
                }
            }
            None => self.messages.push(blocks),
        }
    }

    /// Places the fields of every marked element (and of each tool message, at its block) at
    /// `/messages/<i>/content/<b>` and the mark's key, a tool result's inner blocks under that at
    /// `/content/<c>` and theirs.
    pub(crate) fn place<'p>(self, cx: &mut Conversion<'p>, turns: &[Turn<'p, '_>]) {
        for (i, blocks) in self.messages.into_iter().enumerate() {
            for (b, (mark, _)) in blocks.into_iter().enumerate() {
                let Some(mark) = mark else { continue };
                let turn = &turns[mark.turn];
                let at = format!("/messages/{i}/content/{b}{}", mark.key);
                match mark.element {
                    Some(element) => cx.place_element(turn, element, &at),
                    None => cx.place_message(turn, &at),
                }
                for (c, element, key) in mark.inner {
                    cx.place_element(turn, element, &format!("{at}/content/{c}{key}"));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Mark, Marks};

    fn marks() -> Marks {
        Marks { on: true, messages: Vec::new() }
    }

    /// Each block's (turn, element), per message.
    type Placed = Vec<Vec<Option<(usize, Option<usize>)>>>;

    fn turns(marks: &Marks) -> Placed {
        let each = |row: &Vec<(Option<Mark>, bool)>| {
            row.iter().map(|(m, _)| m.as_ref().map(|m| (m.turn, m.element))).collect()
        };
        marks.messages.iter().map(each).collect()
    }

    #[test]
    fn a_merged_turn_joins_the_last_message_its_tool_results_first() {
        let mut m = marks();
        // A user text, then a tool result merged after it: the result moves first, as the
        // alternation moves it; the unmarked reasoning block keeps its place among the rest.
        m.push(false, vec![(Some(Mark::element(0, 0, "")), false), (None, false)]);
        m.push(true, vec![(Some(Mark { turn: 1, element: None, key: "", inner: Vec::new() }), true)]);
        m.push(false, vec![(Some(Mark::element(2, 1, "")), false)]);
        assert_eq!(turns(&m), [vec![Some((1, None)), Some((0, Some(0))), None], vec![Some((2, Some(1)))]]);
    }

    #[test]
    fn nothing_is_kept_when_no_turn_has_fields() {
        let mut m = Marks { on: false, messages: Vec::new() };
        assert!(m.row(&[1, 2], vec![(0, Mark::element(0, 0, ""))], |_| false).is_empty());
        m.push(false, Vec::new());
        assert!(m.messages.is_empty());
    }
}
