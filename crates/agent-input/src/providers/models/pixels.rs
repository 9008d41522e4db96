//! Pixel limits of images: the longest side a provider takes, which for Claude depends on how
//! many images the request carries.

use super::family::{Family, Vendor};
use super::finding::{Finding, Rule};
use crate::image::Dimensions;
use crate::providers::id::ProviderId;
use crate::units;

/// Above this many images in one request, Claude takes at most [`MANY_IMAGES_SIDE`] px a side.
pub const MANY_IMAGES: usize = 20;
/// The longest side Claude takes in a request of more than [`MANY_IMAGES`] images.
pub const MANY_IMAGES_SIDE: u32 = 2000;
/// The longest side Bedrock Converse and Anthropic Messages take.
pub const MAX_SIDE: u32 = 8000;

/// The longest side the provider takes for a request of `images` images, `None` where no limit
/// is documented (`OpenAI` and Gemini scale large images down). On Bedrock the many-image limit
/// is applied to Claude only (the only family it was seen for); an unknown family gets the 8000.
pub fn max_side(provider: ProviderId, family: Option<&Family>, images: usize) -> Option<u32> {
    let claude = match provider {
        ProviderId::AnthropicMessages => true,
        ProviderId::BedrockConverse => family.is_some_and(|f| f.vendor == Vendor::Anthropic),
        _ => return None,
    };
    Some(if claude && images > MANY_IMAGES { MANY_IMAGES_SIDE } else { MAX_SIDE })
}

/// An image over the provider's pixel limit, at the pointer the caller gives: "9000 × 100 px;
/// Bedrock takes at most 8000 px a side".
pub fn check(
    provider: ProviderId,
    family: Option<&Family>,
    image: &Dimensions,
    images: usize,
    pointer: &str,
) -> Option<Finding> {
    let most = max_side(provider, family, images)?;
    if image.longest_side() <= most {
        return None;
    }
    let size = units::pixels(image.width, image.height);
    let limit = units::pixel_length(most);
    let message = if most == MANY_IMAGES_SIDE {
        format!(
            "{size}; with more than {MANY_IMAGES} images ({images} here), {} takes at most {limit} a side",
            provider.display_name()
        )
    } else {
        format!("{size}; {} takes at most {limit} a side", provider.display_name())
    };
    Some(Finding::new(Rule::ImageTooLarge, pointer, message))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::ImageFormat;
    use crate::providers::models::lookup;

    /// Provider, family, image size, images in the request, whether it is taken.
    type Case<'a> = (ProviderId, Option<&'a Family>, (u32, u32), usize, bool);

    fn image(width: u32, height: u32) -> Dimensions {
        Dimensions { format: ImageFormat::Png, width, height }
    }

    #[test]
    fn limits_per_provider_and_image_count() {
        let claude = lookup("us.anthropic.claude-sonnet-4-5-20250929-v1:0");
        let nova = lookup("amazon.nova-pro-v1:0");
        let cases: &[Case<'_>] = &[
            (ProviderId::BedrockConverse, None, (9000, 100), 1, false),
            (ProviderId::BedrockConverse, None, (8000, 8000), 1, true),
            (ProviderId::BedrockConverse, nova, (2500, 100), 25, true),
            (ProviderId::BedrockConverse, claude, (2500, 100), 25, false),
            (ProviderId::BedrockConverse, claude, (2000, 100), 21, true),
            (ProviderId::AnthropicMessages, None, (100, 8001), 1, false),
            (ProviderId::AnthropicMessages, None, (2001, 10), 21, false),
            (ProviderId::AnthropicMessages, None, (2001, 10), 20, true),
            (ProviderId::OpenAiChat, None, (20_000, 10), 1, true),
            (ProviderId::Gemini, None, (20_000, 10), 1, true),
        ];
        for &(provider, family, (w, h), images, taken) in cases {
            let found = check(provider, family, &image(w, h), images, "/input/0/source");
            assert_eq!(found.is_none(), taken, "{provider:?} {w}x{h} of {images}: {found:?}");
        }
    }

    #[test]
    fn messages_speak_in_pixels() {
        let found = check(ProviderId::BedrockConverse, None, &image(9000, 100), 1, "/input/0/source").unwrap();
        assert_eq!(found.message, "9000 \u{d7} 100 px; Bedrock Converse takes at most 8000 px a side");
        assert_eq!(found.rule.code(), crate::diagnostic::Code::ProviderLimit);
        let many = check(ProviderId::AnthropicMessages, None, &image(2400, 1800), 21, "/input/3/source").unwrap();
        assert_eq!(
            many.message,
            "2400 \u{d7} 1800 px; with more than 20 images (21 here), Anthropic Messages takes at most 2000 px a side"
        );
    }
}
