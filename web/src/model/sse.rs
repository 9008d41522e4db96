//! Server-sent events, read incrementally: bytes in whatever chunks the network delivers (a line,
//! a UTF-8 character or a CRLF split anywhere), the `data` of each complete event out.
//!
//! Follows the HTML standard's event-stream interpretation: lines end with CRLF, LF or CR; a
//! leading byte order mark is dropped; `:` lines are comments; `data` lines are joined with
//! `\n`; an empty line dispatches the event (none when it has no data); `event`, `id` and
//! `retry` are read past (AG-UI puts the event's type inside its JSON). An event cut off by the
//! end of the stream is not dispatched, as the standard says.

/// The parser's state between chunks.
#[derive(Debug, Default)]
pub(crate) struct SseParser {
    /// The current line's bytes so far (decoded once whole, so a split character is kept whole).
    line: Vec<u8>,
    /// The current event's data lines, joined.
    data: Option<String>,
    /// The last chunk ended with CR: an LF opening the next one belongs to that line end.
    after_cr: bool,
    /// Bytes seen, to drop the byte order mark only at the very start.
    seen: usize,
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

impl SseParser {
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Feeds the next chunk; returns the data of every event it completes, in order.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Vec<String> {
        let mut events = Vec::new();
        let mut bytes = chunk;
        // The byte order mark may itself arrive split: held in `line` until three bytes are seen.
        while self.seen < BOM.len() {
            let Some((&b, rest)) = bytes.split_first() else { return events };
            self.line.push(b);
            self.seen += 1;
            bytes = rest;
            if !BOM.starts_with(&self.line) {
                // Not a BOM: the bytes held are ordinary ones; replay them.
                self.seen = BOM.len();
                let held = std::mem::take(&mut self.line);
                self.scan(&held, &mut events);
                break;
            }
            if self.line.len() == BOM.len() {
                self.line.clear();
            }
        }
        self.scan(bytes, &mut events);
        events
    }

    fn scan(&mut self, bytes: &[u8], events: &mut Vec<String>) {
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'\n' if self.after_cr && i == start && self.line.is_empty() => {
                    // The LF of a CRLF split across chunks (or right after a CR in this one).
                    self.after_cr = false;
                    start = i + 1;
                }
                b'\n' | b'\r' => {
                    self.line.extend_from_slice(&bytes[start..i]);
                    self.end_line(events);
                    self.after_cr = b == b'\r';
                    start = i + 1;
                }
                _ => self.after_cr = false,
            }
        }
        self.line.extend_from_slice(&bytes[start..]);
    }

    fn end_line(&mut self, events: &mut Vec<String>) {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            if let Some(data) = self.data.take() {
                events.push(data);
            }
            return;
        }
        let text = String::from_utf8_lossy(&line);
        if text.starts_with(':') {
            return;
        }
        let (field, value) = match text.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (&*text, ""),
        };
        if field == "data" {
            match &mut self.data {
                Some(data) => {
                    data.push('\n');
                    data.push_str(value);
                }
                None => self.data = Some(value.to_string()),
            }
        }
    }

    /// Bytes held for an unfinished line or event.
    #[cfg(test)]
    fn pending_bytes(&self) -> usize {
        self.line.len() + self.data.as_ref().map_or(0, String::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all_at_once(input: &[u8]) -> Vec<String> {
        SseParser::new().push(input)
    }

    /// Every way of cutting `input` in two, and byte by byte, gives the same events.
    fn check_splits(input: &[u8], expected: &[&str]) {
        assert_eq!(all_at_once(input), expected, "whole");
        for cut in 0..=input.len() {
            let mut parser = SseParser::new();
            let mut events = parser.push(&input[..cut]);
            events.extend(parser.push(&input[cut..]));
            assert_eq!(events, expected, "cut at {cut}");
        }
        let mut parser = SseParser::new();
        let events: Vec<String> = input.iter().flat_map(|b| parser.push(std::slice::from_ref(b))).collect();
        assert_eq!(events, expected, "byte by byte");
    }

    #[test]
    fn events_are_the_same_however_the_stream_is_cut() {
        let stream = "data: {\"type\":\"RUN_STARTED\"}\n\ndata: {\"delta\":\"héllo 👋\"}\n\n";
        check_splits(stream.as_bytes(), &[r#"{"type":"RUN_STARTED"}"#, r#"{"delta":"héllo 👋"}"#]);
    }

    #[test]
    fn every_line_ending_counts_and_a_split_crlf_is_one() {
        check_splits(b"data: a\r\n\r\ndata: b\r\rdata: c\n\n", &["a", "b", "c"]);
    }

    #[test]
    fn data_lines_join_comments_and_other_fields_are_skipped() {
        let stream = b": keep-alive\nevent: message\nid: 7\nretry: 10\ndata: one\ndata:two\ndata\n\n";
        check_splits(stream, &["one\ntwo\n"]);
        // A field without a colon is the whole line; an event without data is not dispatched.
        check_splits(b"event: x\n\n\n\ndata: y\n\n", &["y"]);
        // Only one space after the colon is dropped.
        check_splits(b"data:  two spaces\n\n", &[" two spaces"]);
    }

    #[test]
    fn a_byte_order_mark_is_dropped_only_at_the_start() {
        check_splits(b"\xEF\xBB\xBFdata: a\n\n", &["a"]);
        // Two bytes of one are not one: the line's field is then not `data`.
        check_splits(b"\xEF\xBBdata: a\n\n", &[]);
        check_splits(b"data: \xEF\xBB\xBFa\n\n", &["\u{feff}a"]);
    }

    #[test]
    fn an_event_cut_off_by_the_end_is_not_dispatched() {
        let mut parser = SseParser::new();
        assert_eq!(parser.push(b"data: whole\n\ndata: half"), ["whole"]);
        assert_eq!(parser.pending_bytes(), "data: half".len());
        assert_eq!(parser.push(b"\n"), Vec::<String>::new());
        assert_eq!(parser.pending_bytes(), "half".len());
    }

    #[test]
    fn bad_utf8_is_replaced_not_dropped() {
        check_splits(b"data: a\xFFb\n\n", &["a\u{FFFD}b"]);
    }
}
