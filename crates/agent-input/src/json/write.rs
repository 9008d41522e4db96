//! Compact JSON text of any `Serialize` value, the bytes `serde_json::to_writer` writes (tests
//! compare them), straight into a `String`: the wire types stay the one definition of each body.
//! `serde_json` looks up every byte of every string in its escape table and writes into bytes,
//! which the caller then checks as UTF-8 again; here strings are scanned eight bytes at a time
//! and copied a run at a time, and what is written is text from the start.
//!
//! With a [`Splice`], a string that can be taken from the request text as it stands there is
//! left out as a [`MARK`] for the caller to put back (see [`Splice::mark_text`]).
//!
//! Whatever this writer does not take (a map key `serde_json` would write otherwise, say) is an
//! error, and the caller writes with `serde_json` instead. Floating-point numbers are written by
//! `serde_json`, so their spelling cannot drift.

use std::fmt;

use serde::ser::{self, Serialize};

use super::parse::special_byte;
use crate::providers::common::convert::payload::{MARK, Marked, Splice};

/// The name `serde_json`'s `RawValue` serializes under, as a struct with one field of that name
/// holding its JSON text.
const RAW_VALUE: &str = "$serde_json::private::RawValue";

/// Something this writer leaves to `serde_json`.
#[derive(Debug)]
pub(crate) struct Unsupported(String);

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Unsupported {}

impl ser::Error for Unsupported {
    fn custom<T: fmt::Display>(message: T) -> Self {
        Self(message.to_string())
    }
}

/// Appends `value` to `out` as compact JSON text. On an error `out` holds part of it, and `splice`
/// may have recorded marks written into that part.
pub(crate) fn write<T: Serialize + ?Sized>(
    value: &T,
    out: &mut String,
    splice: Option<&Splice<'_>>,
) -> Result<(), Unsupported> {
    value.serialize(&mut Writer { out, splice, raw: false })
}

struct Writer<'w, 's> {
    out: &'w mut String,
    splice: Option<&'w Splice<'s>>,
    /// The next string is a `RawValue`'s JSON text, written as it is.
    raw: bool,
}

/// A JSON string of `text`, escaped as `serde_json` escapes it (quotes, backslashes and control
/// characters; `\b \t \n \f \r` short, the others `\u00xx`).
pub(crate) fn string(out: &mut String, text: &str) {
    out.reserve(text.len() + 2);
    out.push('"');
    let bytes = text.as_bytes();
    let mut at = 0;
    while let Some(run) = special_byte(&bytes[at..]) {
        // An escaped byte is ASCII, so `at` and `at + run` are character boundaries.
        out.push_str(&text[at..at + run]);
        escape(out, bytes[at + run]);
        at += run + 1;
    }
    out.push_str(&text[at..]);
    out.push('"');
}

fn escape(out: &mut String, byte: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    match byte {
        b'"' => out.push_str("\\\""),
        b'\\' => out.push_str("\\\\"),
        b'\n' => out.push_str("\\n"),
        b'\r' => out.push_str("\\r"),
        b'\t' => out.push_str("\\t"),
        0x08 => out.push_str("\\b"),
        0x0c => out.push_str("\\f"),
        _ => {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        }
    }
}

/// An unsigned integer in decimal.
fn unsigned(out: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

fn signed(out: &mut String, n: i64) {
    if n < 0 {
        out.push('-');
    }
    unsigned(out, n.unsigned_abs());
}

impl Writer<'_, '_> {
    fn text(&mut self, text: &str) {
        match self.splice.map_or(Marked::No, |splice| splice.mark_text(text)) {
            Marked::Yes => {
                self.out.push('"');
                self.out.push_str(MARK);
                self.out.push('"');
            }
            Marked::Plain => {
                self.out.reserve(text.len() + 2);
                self.out.push('"');
                self.out.push_str(text);
                self.out.push('"');
            }
            Marked::No => string(self.out, text),
        }
    }

    /// `{"variant":` — what an enum variant with content opens with.
    fn open_variant(&mut self, variant: &str) {
        self.out.push('{');
        string(self.out, variant);
        self.out.push(':');
    }
}

/// An array, object or raw value being written; `first` until its first element is.
struct Compound<'a, 'w, 's> {
    writer: &'a mut Writer<'w, 's>,
    first: bool,
    /// What closes it: `]`, `}`, `]}` or `}}` (a variant's content in its object).
    close: &'static str,
}

impl Compound<'_, '_, '_> {
    fn comma(&mut self) {
        if self.first {
            self.first = false;
        } else {
            self.writer.out.push(',');
        }
    }

    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.comma();
        value.serialize(&mut *self.writer)
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
        self.comma();
        string(self.writer.out, key);
        self.writer.out.push(':');
        value.serialize(&mut *self.writer)
    }

    fn end(self) {
        self.writer.out.push_str(self.close);
    }
}

impl<'a, 'w, 's> ser::Serializer for &'a mut Writer<'w, 's> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = Compound<'a, 'w, 's>;
    type SerializeTuple = Compound<'a, 'w, 's>;
    type SerializeTupleStruct = Compound<'a, 'w, 's>;
    type SerializeTupleVariant = Compound<'a, 'w, 's>;
    type SerializeMap = Compound<'a, 'w, 's>;
    type SerializeStruct = Compound<'a, 'w, 's>;
    type SerializeStructVariant = Compound<'a, 'w, 's>;

    fn serialize_bool(self, v: bool) -> Result<(), Unsupported> {
        self.out.push_str(if v { "true" } else { "false" });
        Ok(())
    }

    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        self.serialize_i64(i64::from(v))
    }

    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        signed(self.out, v);
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        self.serialize_u64(u64::from(v))
    }

    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        unsigned(self.out, v);
        Ok(())
    }

    fn serialize_f32(self, v: f32) -> Result<(), Unsupported> {
        self.out.push_str(&serde_json::to_string(&v).map_err(ser::Error::custom)?);
        Ok(())
    }

    fn serialize_f64(self, v: f64) -> Result<(), Unsupported> {
        self.out.push_str(&serde_json::to_string(&v).map_err(ser::Error::custom)?);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        string(self.out, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        if self.raw {
            self.raw = false;
            self.out.push_str(v);
        } else {
            self.text(v);
        }
        Ok(())
    }

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Unsupported> {
        use ser::SerializeSeq;
        let mut seq = self.serialize_seq(Some(v.len()))?;
        for byte in v {
            seq.serialize_element(byte)?;
        }
        SerializeSeq::end(seq)
    }

    fn serialize_none(self) -> Result<(), Unsupported> {
        self.serialize_unit()
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Unsupported> {
        value.serialize(self)
    }

    fn serialize_unit(self) -> Result<(), Unsupported> {
        self.out.push_str("null");
        Ok(())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Unsupported> {
        self.serialize_unit()
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        string(self.out, variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        self.open_variant(variant);
        value.serialize(&mut *self)?;
        self.out.push('}');
        Ok(())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Compound<'a, 'w, 's>, Unsupported> {
        self.out.push('[');
        Ok(Compound { writer: self, first: true, close: "]" })
    }

    fn serialize_tuple(self, len: usize) -> Result<Compound<'a, 'w, 's>, Unsupported> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<Compound<'a, 'w, 's>, Unsupported> {
        self.serialize_seq(Some(len))
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'w, 's>, Unsupported> {
        self.open_variant(variant);
        self.out.push('[');
        Ok(Compound { writer: self, first: true, close: "]}" })
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a, 'w, 's>, Unsupported> {
        self.out.push('{');
        Ok(Compound { writer: self, first: true, close: "}" })
    }

    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a, 'w, 's>, Unsupported> {
        if name == RAW_VALUE {
            return Ok(Compound { writer: self, first: true, close: "" });
        }
        self.out.push('{');
        Ok(Compound { writer: self, first: true, close: "}" })
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<Compound<'a, 'w, 's>, Unsupported> {
        self.open_variant(variant);
        self.out.push('{');
        Ok(Compound { writer: self, first: true, close: "}}" })
    }
}

impl ser::SerializeSeq for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }

    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeTuple for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }

    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleStruct for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }

    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeTupleVariant for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.element(value)
    }

    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Unsupported> {
        self.comma();
        key.serialize(Key(self.writer.out))
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Unsupported> {
        self.writer.out.push(':');
        value.serialize(&mut *self.writer)
    }

    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeStruct for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
        if self.close.is_empty() {
            // A `RawValue`: its one field is its JSON text.
            self.writer.raw = true;
            let written = value.serialize(&mut *self.writer);
            let raw = std::mem::replace(&mut self.writer.raw, false);
            return if raw { Err(ser::Error::custom("a raw value that is not text")) } else { written };
        }
        self.field(key, value)
    }

    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self);
        Ok(())
    }
}

impl ser::SerializeStructVariant for Compound<'_, '_, '_> {
    type Ok = ();
    type Error = Unsupported;

    fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Unsupported> {
        self.field(key, value)
    }

    fn end(self) -> Result<(), Unsupported> {
        Compound::end(self);
        Ok(())
    }
}

/// A map key: strings, and integers in quotes, as `serde_json` writes them; any other key is left
/// to `serde_json`.
struct Key<'w>(&'w mut String);

impl Key<'_> {
    fn quoted(self, write: impl FnOnce(&mut String)) {
        self.0.push('"');
        write(self.0);
        self.0.push('"');
    }
}

fn other_key() -> Unsupported {
    Unsupported("a map key other than a string or an integer".into())
}

impl ser::Serializer for Key<'_> {
    type Ok = ();
    type Error = Unsupported;
    type SerializeSeq = ser::Impossible<(), Unsupported>;
    type SerializeTuple = ser::Impossible<(), Unsupported>;
    type SerializeTupleStruct = ser::Impossible<(), Unsupported>;
    type SerializeTupleVariant = ser::Impossible<(), Unsupported>;
    type SerializeMap = ser::Impossible<(), Unsupported>;
    type SerializeStruct = ser::Impossible<(), Unsupported>;
    type SerializeStructVariant = ser::Impossible<(), Unsupported>;

    fn serialize_str(self, v: &str) -> Result<(), Unsupported> {
        string(self.0, v);
        Ok(())
    }

    fn serialize_char(self, v: char) -> Result<(), Unsupported> {
        string(self.0, v.encode_utf8(&mut [0; 4]));
        Ok(())
    }

    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Unsupported> {
        string(self.0, variant);
        Ok(())
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Unsupported> {
        value.serialize(self)
    }

    fn serialize_i8(self, v: i8) -> Result<(), Unsupported> {
        self.quoted(|out| signed(out, i64::from(v)));
        Ok(())
    }

    fn serialize_i16(self, v: i16) -> Result<(), Unsupported> {
        self.quoted(|out| signed(out, i64::from(v)));
        Ok(())
    }

    fn serialize_i32(self, v: i32) -> Result<(), Unsupported> {
        self.quoted(|out| signed(out, i64::from(v)));
        Ok(())
    }

    fn serialize_i64(self, v: i64) -> Result<(), Unsupported> {
        self.quoted(|out| signed(out, v));
        Ok(())
    }

    fn serialize_u8(self, v: u8) -> Result<(), Unsupported> {
        self.quoted(|out| unsigned(out, u64::from(v)));
        Ok(())
    }

    fn serialize_u16(self, v: u16) -> Result<(), Unsupported> {
        self.quoted(|out| unsigned(out, u64::from(v)));
        Ok(())
    }

    fn serialize_u32(self, v: u32) -> Result<(), Unsupported> {
        self.quoted(|out| unsigned(out, u64::from(v)));
        Ok(())
    }

    fn serialize_u64(self, v: u64) -> Result<(), Unsupported> {
        self.quoted(|out| unsigned(out, v));
        Ok(())
    }

    fn serialize_bool(self, _v: bool) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_f32(self, _v: f32) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_f64(self, _v: f64) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_bytes(self, _v: &[u8]) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_none(self) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_some<T: Serialize + ?Sized>(self, _value: &T) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_unit(self) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _value: &T,
    ) -> Result<(), Unsupported> {
        Err(other_key())
    }

    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq, Unsupported> {
        Err(other_key())
    }

    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple, Unsupported> {
        Err(other_key())
    }

    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleStruct, Unsupported> {
        Err(other_key())
    }

    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeTupleVariant, Unsupported> {
        Err(other_key())
    }

    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap, Unsupported> {
        Err(other_key())
    }

    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<Self::SerializeStruct, Unsupported> {
        Err(other_key())
    }

    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        _variant: &'static str,
        _len: usize,
    ) -> Result<Self::SerializeStructVariant, Unsupported> {
        Err(other_key())
    }
}

#[cfg(test)]
mod tests;
