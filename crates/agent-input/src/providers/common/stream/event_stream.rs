//! The AWS event-stream binary framing (`application/vnd.amazon.eventstream`), read
//! incrementally.
//!
//! A message is a 12-byte prelude (total length, headers length, both big-endian `u32`, and the
//! CRC32 of those 8 bytes), the headers, the payload, and the CRC32 of everything before it.
//! A header is a 1-byte name length, the name, a 1-byte value type and the value.

use super::StreamError;

const PRELUDE: usize = 12;
const MIN_MESSAGE: usize = PRELUDE + 4;

/// A header value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HeaderValue {
    /// Types 0 and 1.
    Bool(bool),
    /// Type 2.
    Byte(i8),
    /// Type 3.
    Short(i16),
    /// Type 4.
    Int(i32),
    /// Type 5.
    Long(i64),
    /// Type 6.
    Bytes(Vec<u8>),
    /// Type 7.
    String(String),
    /// Type 8: milliseconds since the epoch.
    Timestamp(i64),
    /// Type 9.
    Uuid([u8; 16]),
}

/// One event-stream message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// The headers, in order.
    pub headers: Vec<(String, HeaderValue)>,
    /// The payload.
    pub payload: Vec<u8>,
}

impl Message {
    /// A string header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find_map(|(key, value)| match value {
            HeaderValue::String(text) if key == name => Some(text.as_str()),
            _ => None,
        })
    }

    /// The message in its wire form.
    pub fn encode(&self) -> Vec<u8> {
        let mut headers = Vec::new();
        for (name, value) in &self.headers {
            headers.push(u8::try_from(name.len()).unwrap_or(u8::MAX));
            headers.extend_from_slice(&name.as_bytes()[..name.len().min(255)]);
            match value {
                HeaderValue::Bool(true) => headers.push(0),
                HeaderValue::Bool(false) => headers.push(1),
                HeaderValue::Byte(v) => {
                    headers.push(2);
                    headers.extend_from_slice(&v.to_be_bytes());
                }
                HeaderValue::Short(v) => {
                    headers.push(3);
                    headers.extend_from_slice(&v.to_be_bytes());
                }
                HeaderValue::Int(v) => {
                    headers.push(4);
                    headers.extend_from_slice(&v.to_be_bytes());
                }
                HeaderValue::Long(v) => {
                    headers.push(5);
                    headers.extend_from_slice(&v.to_be_bytes());
                }
                HeaderValue::Bytes(v) => {
                    headers.push(6);
                    headers.extend_from_slice(&u16::try_from(v.len()).unwrap_or(u16::MAX).to_be_bytes());
                    headers.extend_from_slice(&v[..v.len().min(usize::from(u16::MAX))]);
                }
                HeaderValue::String(v) => {
                    headers.push(7);
                    headers.extend_from_slice(&u16::try_from(v.len()).unwrap_or(u16::MAX).to_be_bytes());
                    headers.extend_from_slice(&v.as_bytes()[..v.len().min(usize::from(u16::MAX))]);
                }
                HeaderValue::Timestamp(v) => {
                    headers.push(8);
                    headers.extend_from_slice(&v.to_be_bytes());
                }
                HeaderValue::Uuid(v) => {
                    headers.push(9);
                    headers.extend_from_slice(v);
                }
            }
        }
        let total = PRELUDE + headers.len() + self.payload.len() + 4;
        let mut out = Vec::with_capacity(total);
        out.extend_from_slice(&u32::try_from(total).unwrap_or(u32::MAX).to_be_bytes());
        out.extend_from_slice(&u32::try_from(headers.len()).unwrap_or(u32::MAX).to_be_bytes());
        out.extend_from_slice(&crc32(&out).to_be_bytes());
        out.extend_from_slice(&headers);
        out.extend_from_slice(&self.payload);
        out.extend_from_slice(&crc32(&out).to_be_bytes());
        out
    }
}

/// An incremental event-stream reader.
#[derive(Debug, Clone)]
pub struct EventStreamParser {
    buffer: Vec<u8>,
    max_message_bytes: usize,
}

impl EventStreamParser {
    /// A reader refusing a message longer than `max_message_bytes`.
    pub fn new(max_message_bytes: usize) -> Self {
        Self { buffer: Vec::new(), max_message_bytes }
    }

    /// Bytes received but not yet a whole message.
    pub fn pending(&self) -> usize {
        self.buffer.len()
    }

    /// Reads a chunk, returning the messages it completes.
    ///
    /// # Errors
    /// `crc_mismatch` (prelude or message), `too_large` (checked from the prelude, before the
    /// message is buffered), `invalid_frame` for lengths or headers that do not add up.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<Vec<Message>, StreamError> {
        let mut messages = Vec::new();
        self.feed_each(chunk, |message| {
            messages.push(message);
            Ok(())
        })?;
        Ok(messages)
    }

    /// Reads a chunk, handing each message to `each` as soon as it is complete, so that the first
    /// problem in the stream is the one reported however the stream was cut (an error of `each`
    /// comes before any problem in a later frame).
    ///
    /// # Errors
    /// As [`EventStreamParser::feed`], and what `each` returns.
    pub fn feed_each(
        &mut self,
        chunk: &[u8],
        mut each: impl FnMut(Message) -> Result<(), StreamError>,
    ) -> Result<(), StreamError> {
        self.buffer.extend_from_slice(chunk);
        let mut start = 0;
        loop {
            let rest = &self.buffer[start..];
            if rest.len() < PRELUDE {
                break;
            }
            let total = be32(&rest[0..4]) as usize;
            let headers_len = be32(&rest[4..8]) as usize;
            if crc32(&rest[0..8]) != be32(&rest[8..12]) {
                return Err(StreamError::CrcMismatch { part: "prelude" });
            }
            if total > self.max_message_bytes {
                return Err(StreamError::TooLarge { limit: self.max_message_bytes, actual: total });
            }
            if total < MIN_MESSAGE || headers_len > total - MIN_MESSAGE {
                return Err(StreamError::InvalidFrame(format!(
                    "a message of {total} bytes cannot hold {headers_len} bytes of headers"
                )));
            }
            if rest.len() < total {
                break;
            }
            let frame = &rest[..total];
            if crc32(&frame[..total - 4]) != be32(&frame[total - 4..]) {
                return Err(StreamError::CrcMismatch { part: "message" });
            }
            let headers = headers(&frame[PRELUDE..PRELUDE + headers_len])?;
            let payload = frame[PRELUDE + headers_len..total - 4].to_vec();
            start += total;
            each(Message { headers, payload })?;
        }
        self.buffer.drain(..start);
        Ok(())
    }
}

fn be32(bytes: &[u8]) -> u32 {
    u32::from_be_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
}

fn headers(mut bytes: &[u8]) -> Result<Vec<(String, HeaderValue)>, StreamError> {
    fn take<'b>(bytes: &mut &'b [u8], n: usize) -> Result<&'b [u8], StreamError> {
        if bytes.len() < n {
            return Err(StreamError::InvalidFrame("a header runs past the headers".to_string()));
        }
        let (head, tail) = bytes.split_at(n);
        *bytes = tail;
        Ok(head)
    }
    fn array<const N: usize>(bytes: &mut &[u8]) -> Result<[u8; N], StreamError> {
        let mut out = [0; N];
        out.copy_from_slice(take(bytes, N)?);
        Ok(out)
    }
    let utf8 = |raw: &[u8]| {
        String::from_utf8(raw.to_vec()).map_err(|_| StreamError::InvalidFrame("a header is not UTF-8".to_string()))
    };
    let mut out = Vec::new();
    while !bytes.is_empty() {
        let name_len = usize::from(take(&mut bytes, 1)?[0]);
        let name = utf8(take(&mut bytes, name_len)?)?;
        let value = match take(&mut bytes, 1)?[0] {
            0 => HeaderValue::Bool(true),
            1 => HeaderValue::Bool(false),
            2 => HeaderValue::Byte(i8::from_be_bytes(array(&mut bytes)?)),
            3 => HeaderValue::Short(i16::from_be_bytes(array(&mut bytes)?)),
            4 => HeaderValue::Int(i32::from_be_bytes(array(&mut bytes)?)),
            5 => HeaderValue::Long(i64::from_be_bytes(array(&mut bytes)?)),
            kind @ (6 | 7) => {
                let len = usize::from(u16::from_be_bytes(array(&mut bytes)?));
                let raw = take(&mut bytes, len)?;
                if kind == 6 { HeaderValue::Bytes(raw.to_vec()) } else { HeaderValue::String(utf8(raw)?) }
            }
            8 => HeaderValue::Timestamp(i64::from_be_bytes(array(&mut bytes)?)),
            9 => HeaderValue::Uuid(array(&mut bytes)?),
            other => return Err(StreamError::InvalidFrame(format!("header {name} has unknown value type {other}"))),
        };
        out.push((name, value));
    }
    Ok(out)
}

/// CRC-32 (ISO-HDLC, the zlib one), as the framing uses.
pub fn crc32(bytes: &[u8]) -> u32 {
    const TABLE: [u32; 256] = {
        let mut table = [0u32; 256];
        let mut i = 0;
        while i < 256 {
            #[allow(clippy::cast_possible_truncation, reason = "i < 256")]
            let mut c = i as u32;
            let mut k = 0;
            while k < 8 {
                c = if c & 1 == 1 { 0xEDB8_8320 ^ (c >> 1) } else { c >> 1 };
                k += 1;
            }
            table[i] = c;
            i += 1;
        }
        table
    };
    let mut crc = !0u32;
    for &byte in bytes {
        crc = TABLE[((crc ^ u32::from(byte)) & 0xFF) as usize] ^ (crc >> 8);
    }
    !crc
}
