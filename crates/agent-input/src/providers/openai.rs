//! What both `OpenAI` APIs (Chat Completions and Responses) share: their media limits, their
//! roles, their highest temperature and how they write a tool choice.

use crate::model::ContentBlock;
use crate::options::ToolChoice as OptionChoice;
use crate::providers::common::convert::Conversion;
use crate::providers::common::convert::turns::Turn;

/// Most images in one request.
pub const MAX_IMAGES: u64 = 500;
/// Most decoded image bytes in one request (50 MB).
pub const MAX_IMAGE_BYTES_TOTAL: u64 = 50 * 1024 * 1024;
/// Most decoded PDF bytes in one request (32 MB).
pub const MAX_FILE_BYTES_TOTAL: u64 = 32 * 1024 * 1024;
/// Most stop sequences.
pub(crate) const MAX_STOP_SEQUENCES: usize = 4;
/// Highest temperature.
pub const MAX_TEMPERATURE: f64 = 2.0;

/// The standard roles both `OpenAI` APIs take (`developer` is theirs).
pub(crate) const OPENAI_ROLES: &[&str] = &["system", "developer", "user", "assistant", "tool"];

/// A tool choice as both `OpenAI` APIs write it: a mode (`auto`, `required`, `none`), or the
/// name of the one tool to call.
pub(crate) fn tool_choice_mode(choice: &OptionChoice) -> Result<&'static str, &str> {
    match choice {
        OptionChoice::Auto => Ok("auto"),
        OptionChoice::Any => Ok("required"),
        OptionChoice::None => Ok("none"),
        OptionChoice::Tool { name } => Err(name),
    }
}

/// The image and PDF limits `OpenAI`'s two APIs share.
pub(crate) fn openai_limits(cx: &mut Conversion<'_>, turns: &[Turn<'_, '_>]) {
    let (mut images, mut image_bytes, mut file_bytes) = (0u64, 0u64, 0u64);
    for turn in turns {
        for (j, block) in turn.content.iter().enumerate() {
            let path = || turn.origin.block_path(cx.base, j);
            match block {
                ContentBlock::Image(image) => {
                    images += 1;
                    cx.count(images, MAX_IMAGES, "image", &path);
                    image_bytes += image.source.decoded_len().unwrap_or(0) as u64;
                }
                ContentBlock::Document(document) => file_bytes += document.source.decoded_len().unwrap_or(0) as u64,
                ContentBlock::Text(_) | ContentBlock::Video(_) | ContentBlock::ProviderItem(_) => {}
            }
        }
    }
    cx.total(image_bytes, MAX_IMAGE_BYTES_TOTAL, "images");
    cx.total(file_bytes, MAX_FILE_BYTES_TOTAL, "PDF files");
}
