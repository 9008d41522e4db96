//! Server-sent events (the WHATWG `text/event-stream` format), parsed incrementally.
//!
//! Bytes arrive in chunks that split lines, UTF-8 sequences and CRLF pairs anywhere; only complete
//! lines are read. Lines end with CRLF, LF or CR; `:` starts a comment; `data` lines of one event
//! are joined with `\n`; an empty line ends the event.

use super::StreamError;

/// One server-sent event.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field; empty when absent (the `message` type).
    pub event: String,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
}

/// An incremental SSE parser.
#[derive(Debug, Clone)]
pub struct SseParser {
    buffer: Vec<u8>,
    event: String,
    data: String,
    has_data: bool,
    started: bool,
    after_cr: bool,
    max_event_bytes: usize,
}

impl SseParser {
    /// A parser refusing an event (or a line) longer than `max_event_bytes`.
    pub fn new(max_event_bytes: usize) -> Self {
        Self {
            buffer: Vec::new(),
            event: String::new(),
            data: String::new(),
            has_data: false,
            started: false,
            after_cr: false,
            max_event_bytes,
        }
    }

    /// Reads a chunk, returning the events it completes.
    ///
    /// # Errors
    /// `too_large` when a line or an event outgrows the limit; `invalid_utf8` for a line that is
    /// not UTF-8.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, StreamError> {
        let mut events = Vec::new();
        self.feed_each(chunk, |event| {
            events.push(event);
            Ok(())
        })?;
        Ok(events)
    }

    /// Reads a chunk, handing each event to `each` as soon as it is complete, so that the first
    /// problem in the stream is the one reported however the stream was cut (an error of `each`
    /// comes before any problem in a later line).
    ///
    /// # Errors
    /// As [`SseParser::feed`], and what `each` returns.
    pub fn feed_each(
        &mut self,
        chunk: &[u8],
        mut each: impl FnMut(SseEvent) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        let mut rest = chunk;
        while !rest.is_empty() {
            if std::mem::take(&mut self.after_cr) && rest[0] == b'\n' {
                // The LF of a CRLF whose CR ended the line already.
                rest = &rest[1..];
                continue;
            }
            let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') else {
                self.buffer.extend_from_slice(rest);
                break;
            };
            self.after_cr = rest[end] == b'\r';
            // A line is refused by its length alone, whether it came whole or in pieces.
            let line_len = self.buffer.len() + end;
            if line_len > self.max_event_bytes {
                return Err(StreamError::TooLarge { limit: self.max_event_bytes, actual: line_len });
            }
            let event = if self.buffer.is_empty() {
                // The whole line is in this chunk: read it in place.
                self.line(std::str::from_utf8(&rest[..end]).map_err(|_| StreamError::InvalidUtf8)?)?
            } else {
                self.buffer.extend_from_slice(&rest[..end]);
                let mut line = std::mem::take(&mut self.buffer);
                let event = self.line(std::str::from_utf8(&line).map_err(|_| StreamError::InvalidUtf8)?);
                line.clear();
                self.buffer = line;
                event?
            };
            rest = &rest[end + 1..];
            if let Some(event) = event {
                each(event)?;
            }
        }
        if self.buffer.len() > self.max_event_bytes {
            return Err(StreamError::TooLarge { limit: self.max_event_bytes, actual: self.buffer.len() });
        }
        Ok(())
    }

    /// Ends the stream. A last line without its line break, and an event not closed by an empty
    /// line, are dropped, as the SSE standard says; so the end never completes an event.
    pub fn finish(&mut self) {
        self.buffer.clear();
        self.event.clear();
        self.data.clear();
        self.has_data = false;
    }

    fn line(&mut self, line: &str) -> Result<Option<SseEvent>, StreamError> {
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix('\u{feff}').unwrap_or(line)
        };
        if line.is_empty() {
            let event = std::mem::take(&mut self.event);
            let data = std::mem::take(&mut self.data);
            let has_data = std::mem::replace(&mut self.has_data, false);
            return Ok(has_data.then_some(SseEvent { event, data }));
        }
        if line.starts_with(':') {
            return Ok(None);
        }
        let (field, value) = match line.split_once(':') {
            Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
            None => (line, ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
                if self.data.len() > self.max_event_bytes {
                    return Err(StreamError::TooLarge { limit: self.max_event_bytes, actual: self.data.len() });
                }
            }
            "event" => value.clone_into(&mut self.event),
            _ => {} // `id`, `retry` and unknown fields carry nothing a decoder needs.
        }
        Ok(None)
    }
}
