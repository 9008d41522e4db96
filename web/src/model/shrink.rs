//! "Shrink to fit": which refused images the browser can scale down (PNG, JPEG and WebP, as
//! base64, refused for their bytes or pixels), and what they must fit in. The browser draws the
//! image smaller in its own format (src/shrink.js); the analysis then checks the result like any
//! other image.

use agent_input::models::pixels;
use agent_input::{Diagnostic, ProviderId};
use serde_json::Value;

/// An image the provider refuses for its size, and what it must fit in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Oversize {
    /// JSON Pointer to its base64 data in the body.
    pub(crate) data_at: String,
    /// Its MIME type: the format the smaller image is written in.
    pub(crate) mime: &'static str,
    /// The longest side the provider takes (for this model and number of images), if it has one.
    pub(crate) max_side: Option<u32>,
    /// The most bytes the provider takes of one image, when that is what it refused.
    pub(crate) max_bytes: Option<u64>,
}

/// The image a `provider_limit` diagnostic refuses, when it is one the browser can shrink: a
/// base64 PNG, JPEG or WebP (a canvas cannot write GIF's frames).
pub(crate) fn oversize(body: &Value, d: &Diagnostic, provider: ProviderId, model: &str) -> Option<Oversize> {
    if d.code != agent_input::Code::ProviderLimit {
        return None;
    }
    let data_at = d.path.to_string();
    let block = body.pointer(data_at.strip_suffix("/source/data")?)?;
    if block.get("type")?.as_str()? != "image" || block["source"]["type"] != "base64" {
        return None;
    }
    let mime = match block["source"]["format"].as_str()?.to_ascii_lowercase().as_str() {
        "png" => "image/png",
        "jpeg" | "jpg" => "image/jpeg",
        "webp" => "image/webp",
        _ => return None,
    };
    let family = agent_input::models::lookup(model);
    Some(Oversize { data_at, mime, max_side: pixels::max_side(provider, family, images(body)), max_bytes: d.limit })
}

/// How many images the body's input carries (the count some pixel limits depend on).
fn images(body: &Value) -> usize {
    fn count(value: &Value) -> usize {
        match value {
            Value::Object(map) if map.get("type").and_then(Value::as_str) == Some("image") => 1,
            Value::Object(map) => map.values().map(count).sum(),
            Value::Array(items) => items.iter().map(count).sum(),
            _ => 0,
        }
    }
    body.get("input").map_or(0, count)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn refused(path: &str) -> Diagnostic {
        Diagnostic::new(agent_input::Code::ProviderLimit, agent_input::Path::parse(path).unwrap(), "too large")
    }

    fn image(format: &str) -> Value {
        json!({"type": "image", "source": {"type": "base64", "format": format, "data": "AAAA"}})
    }

    #[test]
    fn the_limits_of_the_provider_and_model() {
        let body = json!({"input": [{"type": "text", "text": "What is it?"}, image("png")]});
        let found = oversize(&body, &refused("/input/1/source/data"), ProviderId::BedrockConverse, "").unwrap();
        assert_eq!(
            found,
            Oversize {
                data_at: "/input/1/source/data".into(),
                mime: "image/png",
                max_side: Some(8000),
                max_bytes: None
            }
        );
        // OpenAI documents no pixel limit (it scales): only the bytes it refused.
        let bytes = refused("/input/1/source/data").limit(3_932_160, 4_000_000);
        let openai = oversize(&body, &bytes, ProviderId::OpenAiChat, "gpt-4o").unwrap();
        assert_eq!((openai.max_side, openai.max_bytes), (None, Some(3_932_160)));
        // Claude past 20 images: 2000 px a side, on Bedrock for Claude only.
        let many = json!({"input": (0..21).map(|_| image("jpg")).collect::<Vec<_>>()});
        let claude = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
        let found = oversize(&many, &refused("/input/3/source/data"), ProviderId::BedrockConverse, claude).unwrap();
        assert_eq!((found.mime, found.max_side), ("image/jpeg", Some(2000)));
        let nova =
            oversize(&many, &refused("/input/3/source/data"), ProviderId::BedrockConverse, "amazon.nova-pro-v1:0");
        assert_eq!(nova.unwrap().max_side, Some(8000));
    }

    #[test]
    fn only_what_a_canvas_can_write_is_offered() {
        let gif = json!({"input": [image("gif")]});
        assert_eq!(oversize(&gif, &refused("/input/0/source/data"), ProviderId::BedrockConverse, ""), None);
        let png = json!({"input": [image("png")]});
        let other = Diagnostic::new(
            agent_input::Code::InvalidParameter,
            agent_input::Path::parse("/input/0/source/data").unwrap(),
            "x",
        );
        assert_eq!(oversize(&png, &other, ProviderId::BedrockConverse, ""), None);
        assert_eq!(oversize(&png, &refused("/input/0"), ProviderId::BedrockConverse, ""), None);
        let url = json!({"input": [{"type": "image", "source": {"type": "url", "format": "png", "data": "https://x/a.png"}}]});
        assert_eq!(oversize(&url, &refused("/input/0/source/data"), ProviderId::BedrockConverse, ""), None);
    }
}
