//! An image's width and height, read from its header without decoding a pixel: PNG (`IHDR`),
//! JPEG (the frame header, `SOF0`..`SOF15`), GIF (the logical screen) and WebP (`VP8 `, `VP8L`,
//! `VP8X`).
//!
//! Base64 data is read where the header is: three bytes come from four symbols at a fixed place,
//! so a JPEG's segments are stepped over by their lengths and only each marker's four bytes are
//! decoded, however large the EXIF or ICC segments before the frame header are.

use std::fmt;

use crate::format::ImageFormat;

/// A JPEG walk gives up ("unknown") after this many segments without a frame header; real files
/// have a few dozen at most (`APPn`, `DQT`, `DHT`, `COM`).
pub const MAX_JPEG_SEGMENTS: usize = 1024;

/// Longest run of `FF` fill bytes before a JPEG marker that is read.
const MAX_FILL_BYTES: u64 = 1024;

/// An image's size in pixels, and the format its header is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dimensions {
    /// The format the signature names.
    pub format: ImageFormat,
    /// Width in pixels, at least 1.
    pub width: u32,
    /// Height in pixels, at least 1.
    pub height: u32,
}

impl Dimensions {
    /// The longer side.
    pub fn longest_side(&self) -> u32 {
        self.width.max(self.height)
    }
}

/// Why an image's size could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HeaderError {
    /// Not the signature of a PNG, JPEG, GIF or WebP image.
    UnknownFormat,
    /// The data ends before the header that gives the size.
    Truncated,
    /// A header that breaks its format's rules (a zero size, a wrong chunk, a bad marker).
    Malformed,
    /// A JPEG whose size is not known from its header: no frame header within
    /// [`MAX_JPEG_SEGMENTS`] segments, or a height defined later in the scan (`DNL`).
    Unknown,
    /// Base64 text that is not standard base64 where the header is.
    InvalidBase64,
}

impl fmt::Display for HeaderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::UnknownFormat => "not a PNG, JPEG, GIF or WebP image",
            Self::Truncated => "the image ends before its header gives its size",
            Self::Malformed => "the image's header is malformed",
            Self::Unknown => "the JPEG's size is not in its first segments",
            Self::InvalidBase64 => "the image's base64 data is not standard base64",
        })
    }
}

/// The size of an image from its bytes.
///
/// # Errors
/// As [`HeaderError`] says.
pub fn dimensions(bytes: &[u8]) -> Result<Dimensions, HeaderError> {
    read(&mut Raw(bytes))
}

/// The size of an image from its standard base64 text (without `data:` prefix or whitespace, as a
/// validated `base64` source holds it), decoding only the bytes of its header.
///
/// # Errors
/// As [`HeaderError`] says.
pub fn dimensions_base64(text: &str) -> Result<Dimensions, HeaderError> {
    read(&mut Base64(text.as_bytes()))
}

/// Bytes read at an offset: the image as bytes or as base64 text.
trait Bytes {
    /// The `N` bytes at `offset`.
    fn at<const N: usize>(&mut self, offset: u64) -> Result<[u8; N], HeaderError>;
}

struct Raw<'a>(&'a [u8]);

impl Bytes for Raw<'_> {
    fn at<const N: usize>(&mut self, offset: u64) -> Result<[u8; N], HeaderError> {
        let start = usize::try_from(offset).map_err(|_| HeaderError::Truncated)?;
        let end = start.checked_add(N).ok_or(HeaderError::Truncated)?;
        let slice = self.0.get(start..end).ok_or(HeaderError::Truncated)?;
        Ok(slice.try_into().expect("the slice is N bytes long"))
    }
}

struct Base64<'a>(&'a [u8]);

impl Bytes for Base64<'_> {
    fn at<const N: usize>(&mut self, offset: u64) -> Result<[u8; N], HeaderError> {
        let mut out = [0u8; N];
        for (i, slot) in out.iter_mut().enumerate() {
            *slot = self.byte(offset + i as u64)?;
        }
        Ok(out)
    }
}

impl Base64<'_> {
    /// The byte at `offset`: from the two symbols of its quad that hold its bits.
    fn byte(&self, offset: u64) -> Result<u8, HeaderError> {
        let quad = usize::try_from(offset / 3).map_err(|_| HeaderError::Truncated)?;
        let within = (offset % 3) as usize;
        let at = quad.checked_mul(4).and_then(|q| q.checked_add(within)).ok_or(HeaderError::Truncated)?;
        let (Some(&a), Some(&b)) = (self.0.get(at), at.checked_add(1).and_then(|next| self.0.get(next))) else {
            return Err(HeaderError::Truncated);
        };
        if b == b'=' {
            return Err(HeaderError::Truncated);
        }
        let (a, b) = (sextet(a)?, sextet(b)?);
        Ok(match within {
            0 => a << 2 | b >> 4,
            1 => a << 4 | b >> 2,
            _ => a << 6 | b,
        })
    }
}

/// The six bits a symbol of the standard alphabet stands for.
fn sextet(symbol: u8) -> Result<u8, HeaderError> {
    match symbol {
        b'A'..=b'Z' => Ok(symbol - b'A'),
        b'a'..=b'z' => Ok(symbol - b'a' + 26),
        b'0'..=b'9' => Ok(symbol - b'0' + 52),
        b'+' => Ok(62),
        b'/' => Ok(63),
        _ => Err(HeaderError::InvalidBase64),
    }
}

fn read(data: &mut impl Bytes) -> Result<Dimensions, HeaderError> {
    // A JPEG's segments start at byte 2: the bytes after its signature are not read as a header.
    if data.at::<3>(0) == Ok([0xFF, 0xD8, 0xFF]) {
        return sized(ImageFormat::Jpeg, jpeg(data)?);
    }
    // Enough for every other signature; shorter data is tried byte by byte below.
    let head: [u8; 12] = match data.at(0) {
        Ok(head) => head,
        Err(HeaderError::Truncated) => return Err(short_signature(data)),
        Err(other) => return Err(other),
    };
    let size = if head.starts_with(b"\x89PNG\r\n\x1a\n") {
        (ImageFormat::Png, png(data)?)
    } else if head.starts_with(b"GIF87a") || head.starts_with(b"GIF89a") {
        let [w0, w1, h0, h1] = data.at(6)?;
        (ImageFormat::Gif, (u32::from(u16::from_le_bytes([w0, w1])), u32::from(u16::from_le_bytes([h0, h1]))))
    } else if head.starts_with(b"RIFF") && &head[8..12] == b"WEBP" {
        (ImageFormat::Webp, webp(data)?)
    } else {
        return Err(HeaderError::UnknownFormat);
    };
    sized(size.0, size.1)
}

/// A size read from a header: an image has at least one pixel.
fn sized(format: ImageFormat, (width, height): (u32, u32)) -> Result<Dimensions, HeaderError> {
    if width == 0 || height == 0 { Err(HeaderError::Malformed) } else { Ok(Dimensions { format, width, height }) }
}

/// For data shorter than 12 bytes: `Truncated` when it is the start of a known signature.
fn short_signature(data: &mut impl Bytes) -> HeaderError {
    const SIGNATURES: [&[u8]; 5] = [b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF87a", b"GIF89a", b"RIFF"];
    let mut head = Vec::new();
    while let Ok([byte]) = data.at::<1>(head.len() as u64) {
        head.push(byte);
    }
    if let Err(HeaderError::InvalidBase64) = data.at::<1>(head.len() as u64) {
        return HeaderError::InvalidBase64;
    }
    let starts_one = SIGNATURES.iter().any(|s| s.starts_with(&head) || head.starts_with(s));
    if starts_one && !head.is_empty() { HeaderError::Truncated } else { HeaderError::UnknownFormat }
}

fn png(data: &mut impl Bytes) -> Result<(u32, u32), HeaderError> {
    let chunk: [u8; 16] = data.at(8)?;
    if chunk[..8] != *b"\0\0\0\x0dIHDR" {
        return Err(HeaderError::Malformed);
    }
    let width = u32::from_be_bytes(chunk[8..12].try_into().expect("4 bytes"));
    let height = u32::from_be_bytes(chunk[12..16].try_into().expect("4 bytes"));
    // The PNG specification: each at most 2^31 - 1.
    if width > i32::MAX as u32 || height > i32::MAX as u32 {
        return Err(HeaderError::Malformed);
    }
    Ok((width, height))
}

fn jpeg(data: &mut impl Bytes) -> Result<(u32, u32), HeaderError> {
    let mut at = 2u64; // after SOI
    for _ in 0..MAX_JPEG_SEGMENTS {
        let [first] = data.at(at)?;
        if first != 0xFF {
            return Err(HeaderError::Malformed);
        }
        // Fill bytes: any number of FF before the marker.
        let mut fill = 0;
        let marker = loop {
            at += 1;
            let [byte] = data.at(at)?;
            if byte != 0xFF {
                break byte;
            }
            fill += 1;
            if fill > MAX_FILL_BYTES {
                return Err(HeaderError::Unknown);
            }
        };
        at += 1;
        match marker {
            // TEM, RST0..7: no length.
            0x01 | 0xD0..=0xD7 => continue,
            // A stuffed zero or a second SOI; EOI or a scan before any frame header.
            0x00 | 0xD8..=0xDA => return Err(HeaderError::Malformed),
            _ => {}
        }
        let [l0, l1] = data.at(at)?;
        let length = u16::from_be_bytes([l0, l1]);
        if length < 2 {
            return Err(HeaderError::Malformed);
        }
        // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
        if matches!(marker, 0xC0..=0xCF) && !matches!(marker, 0xC4 | 0xC8 | 0xCC) {
            if length < 8 {
                return Err(HeaderError::Malformed);
            }
            let [_precision, h0, h1, w0, w1] = data.at(at + 2)?;
            let (height, width) = (u16::from_be_bytes([h0, h1]), u16::from_be_bytes([w0, w1]));
            return match (width, height) {
                (0, _) => Err(HeaderError::Malformed),
                (_, 0) => Err(HeaderError::Unknown), // defined by a DNL segment after the scan
                _ => Ok((u32::from(width), u32::from(height))),
            };
        }
        at += u64::from(length);
    }
    Err(HeaderError::Unknown)
}

fn webp(data: &mut impl Bytes) -> Result<(u32, u32), HeaderError> {
    let chunk: [u8; 4] = data.at(12)?;
    match &chunk {
        b"VP8 " => {
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            let [s0, s1, s2, w0, w1, h0, h1] = data.at(23)?;
            if [s0, s1, s2] != [0x9D, 0x01, 0x2A] {
                return Err(HeaderError::Malformed);
            }
            let width = u16::from_le_bytes([w0, w1]) & 0x3FFF;
            let height = u16::from_le_bytes([h0, h1]) & 0x3FFF;
            Ok((u32::from(width), u32::from(height)))
        }
        b"VP8L" => {
            // Signature 2F, then width - 1 and height - 1 in 14 bits each, an alpha bit and a
            // 3-bit version that must be 0.
            let [signature, b0, b1, b2, b3] = data.at(20)?;
            let bits = u32::from_le_bytes([b0, b1, b2, b3]);
            if signature != 0x2F || bits >> 29 != 0 {
                return Err(HeaderError::Malformed);
            }
            Ok(((bits & 0x3FFF) + 1, (bits >> 14 & 0x3FFF) + 1))
        }
        b"VP8X" => {
            // Flags (1 byte), reserved (3), canvas width - 1 and height - 1 in 24 bits each.
            let [w0, w1, w2, h0, h1, h2] = data.at(24)?;
            let width = u32::from_le_bytes([w0, w1, w2, 0]) + 1;
            let height = u32::from_le_bytes([h0, h1, h2, 0]) + 1;
            Ok((width, height))
        }
        _ => Err(HeaderError::Malformed),
    }
}

#[cfg(test)]
mod tests;
