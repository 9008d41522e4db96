//! A JSON Pointer into the body (or the settings) in words, as a person names the place:
//! `/input/1/toolCalls/0/id` is "Message 2 › Tool call 1 › id".

/// `pointer` in words; `input_type` (`MESSAGES`, `CONTENT_BLOCKS`, …) tells what `/input/<n>` is.
/// Empty for the root.
pub(crate) fn in_words(pointer: &str, input_type: Option<&str>) -> String {
    let segments: Vec<String> = pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
    let mut words: Vec<String> = Vec::new();
    let mut i = 0;
    while i < segments.len() {
        let segment = segments[i].as_str();
        let index = segments.get(i + 1).and_then(|n| n.parse::<usize>().ok()).map(|n| n + 1);
        let (word, step) = match (segment, index, i) {
            ("input", Some(n), 0) if input_type == Some("MESSAGES") => (format!("Message {n}"), 2),
            ("input", Some(n), 0) | ("content", Some(n), _) => (format!("Block {n}"), 2),
            ("input", None, 0) => ("Input".to_string(), 1),
            ("parameters", _, 0) => ("Parameters".to_string(), 1),
            ("options", _, 0) => ("Settings".to_string(), 1),
            ("toolCalls", Some(n), _) => (format!("Tool call {n}"), 2),
            ("tools", Some(n), _) => (format!("Tool {n}"), 2),
            ("function", _, _) if segments.len() > i + 1 => {
                // "function › name" reads as the function's name.
                (format!("function {}", spaced(&segments[i + 1])), 2)
            }
            (_, Some(n), _) => (format!("{} {n}", spaced(segment)), 2),
            _ => (spaced(segment), 1),
        };
        words.push(word);
        i += step;
    }
    words.join(" › ")
}

/// `toolCallId` as "tool call id", `max_tokens` as "max tokens".
fn spaced(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for (i, c) in key.chars().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            out.push(' ');
            out.push(c.to_ascii_lowercase());
        } else if c == '_' {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::in_words;

    #[test]
    fn pointers_read_as_places() {
        for (pointer, input_type, words) in [
            ("/input/1/toolCalls/0/id", Some("MESSAGES"), "Message 2 › Tool call 1 › id"),
            ("/input/1/toolCalls/0/function/name", Some("MESSAGES"), "Message 2 › Tool call 1 › function name"),
            ("/input/2/toolCallId", Some("MESSAGES"), "Message 3 › tool call id"),
            ("/input/0/content/1/source/data", Some("MESSAGES"), "Message 1 › Block 2 › source › data"),
            ("/input/3/source/format", Some("CONTENT_BLOCKS"), "Block 4 › source › format"),
            ("/input", Some("TEXT"), "Input"),
            ("/parameters/memory_id", None, "Parameters › memory id"),
            ("/options/temperature", None, "Settings › temperature"),
            ("/options/tools/0/input_schema", None, "Settings › Tool 1 › input schema"),
            ("/a~1b", None, "a/b"),
            ("", None, ""),
        ] {
            assert_eq!(in_words(pointer, input_type), words, "{pointer}");
        }
    }
}
