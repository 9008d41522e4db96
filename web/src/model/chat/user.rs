//! The user's side of a turn as the chat shows it: the texts sent and the media as chips, read
//! from the request body in any of the four input forms.

use serde_json::Value;

use crate::model::display::human_bytes;
use crate::model::media::{is_image_bytes, preview_key};

/// The user's side of a turn, as shown: texts and media chips.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct UserTurn {
    /// `user`, or the role of the input's last message.
    pub(crate) role: String,
    /// Messages sent before the last one (an input of several messages shows its last).
    pub(crate) earlier: usize,
    pub(crate) texts: Vec<String>,
    pub(crate) media: Vec<Media>,
    /// The assistant messages sent that hold reasoning state: (message number from 1, the
    /// provider that wrote it).
    pub(crate) reasoning: Vec<(usize, String)>,
}

/// A media block of the user's turn.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Media {
    /// `image`, `video`, `document`, or another block type.
    pub(crate) kind: String,
    /// The format and size, or the URL: what the chip says.
    pub(crate) label: String,
    /// The key of the editor's preview of these bytes (`media::preview_key`).
    pub(crate) preview_key: Option<String>,
    /// A small image's `data:` URL, when the editor has no preview.
    pub(crate) inline: Option<String>,
}

/// Images up to this much base64 are shown from a `data:` URL when the editor has no preview.
const INLINE_IMAGE_BASE64: usize = 96 * 1024;

impl UserTurn {
    /// The user's turn in a request body (any of the four input forms).
    pub(crate) fn of(body: &Value) -> Self {
        let mut turn = Self { role: "user".into(), ..Self::default() };
        match body.get("input") {
            Some(Value::String(text)) => turn.texts.push(text.clone()),
            Some(Value::Array(items)) if items.iter().any(|i| i.get("role").is_some()) => {
                turn.earlier = items.len().saturating_sub(1);
                turn.reasoning = items
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| m["role"].as_str().is_some_and(|r| r.eq_ignore_ascii_case("assistant")))
                    .filter_map(|(i, m)| crate::model::reasoning::provider_of(m).map(|p| (i + 1, p)))
                    .collect();
                if let Some(last) = items.last() {
                    last["role"].as_str().unwrap_or("?").clone_into(&mut turn.role);
                    match &last["content"] {
                        Value::String(text) => turn.texts.push(text.clone()),
                        Value::Array(blocks) => turn.add_blocks(blocks),
                        _ => {}
                    }
                }
            }
            Some(Value::Array(blocks)) => turn.add_blocks(blocks),
            _ => {
                if let Some(question) = body.pointer("/parameters/question").and_then(Value::as_str) {
                    turn.texts.push(question.to_string());
                }
            }
        }
        turn
    }

    fn add_blocks(&mut self, blocks: &[Value]) {
        for block in blocks {
            let kind = block["type"].as_str().unwrap_or("?");
            if kind == "text" {
                self.texts.push(block["text"].as_str().unwrap_or_default().to_string());
                continue;
            }
            let format = block.pointer("/source/format").and_then(Value::as_str).unwrap_or_default();
            let data = block.pointer("/source/data").and_then(Value::as_str);
            let mut media = Media { kind: kind.to_string(), label: String::new(), preview_key: None, inline: None };
            match (block.pointer("/source/type").and_then(Value::as_str), data) {
                (Some("base64"), Some(data)) => {
                    let padding = data.bytes().rev().take_while(|&b| b == b'=').count();
                    let bytes = (data.len() / 4 * 3).saturating_sub(padding);
                    media.label = format!("{format} {}", human_bytes(bytes));
                    if kind == "image" {
                        media.preview_key = Some(preview_key(data));
                        if data.len() <= INLINE_IMAGE_BASE64 && is_image_bytes(data) {
                            let mime = agent_input::format::ImageFormat::ALL
                                .iter()
                                .find(|f| f.as_str() == format.to_ascii_lowercase())
                                .map_or("image/png", |f| f.mime_type());
                            media.inline = Some(format!("data:{mime};base64,{data}"));
                        }
                    }
                }
                (Some("url"), Some(url)) => media.label = format!("{format} {url}"),
                _ => media.label = format.to_string(),
            }
            self.media.push(media);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn the_user_turn_of_each_input_form() {
        let text = UserTurn::of(&json!({"input": "hi", "parameters": {"memory_id": "m"}}));
        assert_eq!((text.role.as_str(), text.texts.as_slice()), ("user", ["hi".to_string()].as_slice()));
        let legacy = UserTurn::of(&json!({"parameters": {"question": "q"}}));
        assert_eq!(legacy.texts, ["q"]);
        // A 1×1 PNG: small, so shown inline; the chip says its format and size.
        let png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
        let blocks = UserTurn::of(&json!({"input": [
            {"type": "text", "text": "what is this?"},
            {"type": "image", "source": {"type": "base64", "format": "png", "data": png}},
            {"type": "document", "source": {"type": "url", "format": "pdf", "data": "s3://b/k.pdf"}},
        ]}));
        assert_eq!(blocks.texts, ["what is this?"]);
        assert_eq!(blocks.media.len(), 2);
        assert_eq!(blocks.media[0].label, "png 70 B");
        assert_eq!(blocks.media[0].preview_key.as_deref(), Some(preview_key(png).as_str()));
        assert_eq!(blocks.media[0].inline, Some(format!("data:image/png;base64,{png}")));
        assert_eq!(
            blocks.media[1],
            Media { kind: "document".into(), label: "pdf s3://b/k.pdf".into(), preview_key: None, inline: None }
        );
        let messages = UserTurn::of(&json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "a"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "b"}],
                "reasoningState": {"provider": "gemini", "items": [{"on": 0, "thoughtSignature": "EvE"}]}},
            {"role": "user", "content": [{"type": "text", "text": "c"}]},
        ]}));
        assert_eq!(messages.reasoning, [(2, "gemini".to_string())]);
        assert_eq!(
            (messages.role.as_str(), messages.earlier, messages.texts.as_slice()),
            ("user", 2, ["c".to_string()].as_slice())
        );
    }

    #[test]
    fn bytes_that_are_not_an_image_get_no_inline_preview() {
        let turn = UserTurn::of(
            &json!({"input": [{"type": "image", "source": {"type": "base64", "format": "png", "data": "AAAA"}}]}),
        );
        assert_eq!(turn.media[0].inline, None);
        assert!(turn.media[0].preview_key.is_some());
    }
}
