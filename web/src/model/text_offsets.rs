//! Offsets in the JSON editor's text: the browser's textarea counts UTF-16 code units, the
//! parser reports lines and columns, the scanner (`jsonpos`) byte offsets.

/// The byte offset of a parser position (line and column from 1), within the text.
pub(crate) fn line_column_to_byte(text: &str, line: usize, column: usize) -> usize {
    let start =
        text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum::<usize>() + column.saturating_sub(1);
    start.min(text.len())
}

/// A byte offset as a textarea's selection offset (UTF-16 code units), rounded down to a
/// character boundary.
pub(crate) fn byte_to_utf16(text: &str, byte: usize) -> u32 {
    let mut b = byte.min(text.len());
    while !text.is_char_boundary(b) {
        b -= 1;
    }
    u32::try_from(text[..b].encode_utf16().count()).unwrap_or(u32::MAX)
}

/// How far down the text a byte offset is, as a share of its lines (0 to 1): where to scroll
/// the textarea to show it.
#[allow(clippy::cast_precision_loss)]
pub(crate) fn line_share(text: &str, byte: usize) -> f64 {
    let line = text[..byte.min(text.len())].matches('\n').count();
    let lines = text.matches('\n').count().max(1);
    line as f64 / lines as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_agree_across_units() {
        let text = "{\n  \"é\": 1,\n}";
        let at = line_column_to_byte(text, 3, 1);
        assert_eq!(&text[at..], "}");
        assert_eq!(line_column_to_byte(text, 9, 9), text.len());
        // "é" is two bytes and one UTF-16 unit; inside it rounds down.
        assert_eq!(byte_to_utf16(text, 6), 5);
        assert_eq!(byte_to_utf16(text, 5), 5);
        assert_eq!(byte_to_utf16(text, 7), 6);
        assert!((line_share(text, at) - 1.0).abs() < f64::EPSILON);
        assert!(line_share(text, 0).abs() < f64::EPSILON);
    }
}
