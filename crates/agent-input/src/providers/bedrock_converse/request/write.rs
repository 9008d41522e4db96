//! The Converse body as compact JSON text, written directly: the same bytes `serde_json` writes
//! for the wire types (a test compares them), in about a third of the instructions on small
//! requests. `serde_json` scans every string byte by byte for escapes, key names included, and
//! its base64 path copies a large payload once more before writing it; here keys are literals
//! and a string needing no escape is one check and one copy. Numbers, escaped strings and the
//! format enums still go through `serde_json`, so their spelling cannot drift.
//!
//! Native builds only: in the npm `.wasm` the derived serializers stay the one path, which keeps
//! the module small (docs/decisions.md, "Native speed").

use serde::Serialize;
use serde_json::Value;

use crate::json::{escapes_in, plain_byte};

use super::wire::{
    ContentBlock, ConversationRole, ConverseRequest, DocumentBlock, ImageBlock, InferenceConfiguration, MediaSource,
    SystemContentBlock, Tool, ToolInputSchema, ToolResultContentBlock, ToolSpecification, VideoBlock,
};

/// Writes `body` as `serde_json::to_writer` would.
pub(crate) fn converse(body: &ConverseRequest<'_>, out: &mut String) -> serde_json::Result<()> {
    // Destructured whole, so a new wire field cannot be left out of this writer unnoticed.
    let ConverseRequest {
        messages,
        system,
        inference_config,
        tool_config,
        output_config,
        additional_model_request_fields,
    } = body;
    out.push_str("{\"messages\":[");
    for (i, message) in messages.iter().enumerate() {
        comma(out, i);
        out.push_str(match message.role {
            ConversationRole::User => "{\"role\":\"user\",\"content\":[",
            ConversationRole::Assistant => "{\"role\":\"assistant\",\"content\":[",
        });
        for (j, block) in message.content.iter().enumerate() {
            comma(out, j);
            content_block(block, out)?;
        }
        out.push_str("]}");
    }
    out.push(']');
    if !system.is_empty() {
        out.push_str(",\"system\":[");
        for (i, block) in system.iter().enumerate() {
            comma(out, i);
            match block {
                SystemContentBlock::Text(text) => {
                    out.push_str("{\"text\":");
                    string(out, text)?;
                    out.push('}');
                }
                SystemContentBlock::CachePoint(_) => serde(out, block)?,
            }
        }
        out.push(']');
    }
    inference(inference_config, out)?;
    if let Some(config) = tool_config {
        out.push_str(",\"toolConfig\":{\"tools\":[");
        for (i, tool) in config.tools.iter().enumerate() {
            comma(out, i);
            let spec = match tool {
                Tool::ToolSpec(spec) => spec,
                Tool::CachePoint(_) => {
                    serde(out, tool)?;
                    continue;
                }
            };
            let ToolSpecification { name, description, input_schema: ToolInputSchema::Json(schema) } = spec;
            out.push_str("{\"toolSpec\":{\"name\":");
            string(out, name)?;
            if let Some(description) = description {
                out.push_str(",\"description\":");
                string(out, description)?;
            }
            out.push_str(",\"inputSchema\":{\"json\":");
            value(schema, out)?;
            out.push_str("}}}");
        }
        out.push(']');
        if let Some(choice) = &config.tool_choice {
            out.push_str(",\"toolChoice\":");
            serde(out, choice)?;
        }
        out.push('}');
    }
    if let Some(config) = output_config {
        out.push_str(",\"outputConfig\":");
        serde(out, config)?;
    }
    if let Some(fields) = additional_model_request_fields {
        out.push_str(",\"additionalModelRequestFields\":");
        value(fields, out)?;
    }
    out.push('}');
    Ok(())
}

/// `,"inferenceConfig":{...}`, fields in the wire struct's order; numbers by `serde_json`.
fn inference(config: &InferenceConfiguration, out: &mut String) -> serde_json::Result<()> {
    let InferenceConfiguration { max_tokens, temperature, top_p, stop_sequences } = config;
    out.push_str(",\"inferenceConfig\":{\"maxTokens\":");
    integer(out, *max_tokens);
    if let Some(temperature) = temperature {
        out.push_str(",\"temperature\":");
        serde(out, temperature)?;
    }
    if let Some(top_p) = top_p {
        out.push_str(",\"topP\":");
        serde(out, top_p)?;
    }
    if !stop_sequences.is_empty() {
        out.push_str(",\"stopSequences\":[");
        for (i, stop) in stop_sequences.iter().enumerate() {
            comma(out, i);
            string(out, stop)?;
        }
        out.push(']');
    }
    out.push('}');
    Ok(())
}

/// An integer in decimal, as `serde_json` writes one.
fn integer(out: &mut String, mut n: u64) {
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

/// A JSON value (a tool's schema): strings and keys as [`string`] writes them, numbers by
/// `serde_json`. A parsed value is at most 128 deep, so the recursion is bounded.
fn value(value: &Value, out: &mut String) -> serde_json::Result<()> {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(number) => serde(out, number)?,
        Value::String(text) => string(out, text)?,
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                comma(out, i);
                self::value(item, out)?;
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                comma(out, i);
                string(out, key)?;
                out.push(':');
                self::value(item, out)?;
            }
            out.push('}');
        }
    }
    Ok(())
}

fn content_block(block: &ContentBlock<'_>, out: &mut String) -> serde_json::Result<()> {
    match block {
        ContentBlock::Text(text) => text_block(text, out),
        ContentBlock::Image(image) => image_block(image, out),
        ContentBlock::Document(document) => document_block(document, out),
        ContentBlock::Video(video) => video_block(video, out),
        ContentBlock::Raw(raw) => value(raw, out),
        ContentBlock::ToolUse(call) => {
            out.push_str("{\"toolUse\":{\"toolUseId\":");
            string(out, call.tool_use_id)?;
            out.push_str(",\"name\":");
            string(out, call.name)?;
            out.push_str(",\"input\":");
            out.push_str(call.input.get());
            out.push_str("}}");
            Ok(())
        }
        ContentBlock::ToolResult(result) => {
            out.push_str("{\"toolResult\":{\"toolUseId\":");
            string(out, result.tool_use_id)?;
            out.push_str(",\"content\":[");
            for (i, block) in result.content.iter().enumerate() {
                comma(out, i);
                match block {
                    ToolResultContentBlock::Text(text) => text_block(text, out)?,
                    ToolResultContentBlock::Json(value) => {
                        out.push_str("{\"json\":");
                        out.push_str(value.get());
                        out.push('}');
                    }
                    ToolResultContentBlock::Image(image) => image_block(image, out)?,
                    ToolResultContentBlock::Document(document) => document_block(document, out)?,
                    ToolResultContentBlock::Video(video) => video_block(video, out)?,
                }
            }
            out.push_str("]}}");
            Ok(())
        }
    }
}

fn text_block(text: &str, out: &mut String) -> serde_json::Result<()> {
    out.push_str("{\"text\":");
    string(out, text)?;
    out.push('}');
    Ok(())
}

fn image_block(image: &ImageBlock<'_>, out: &mut String) -> serde_json::Result<()> {
    out.push_str("{\"image\":{\"format\":");
    serde(out, &image.format)?;
    source(&image.source, out)?;
    out.push_str("}}");
    Ok(())
}

fn video_block(video: &VideoBlock<'_>, out: &mut String) -> serde_json::Result<()> {
    out.push_str("{\"video\":{\"format\":");
    serde(out, &video.format)?;
    source(&video.source, out)?;
    out.push_str("}}");
    Ok(())
}

fn document_block(document: &DocumentBlock<'_>, out: &mut String) -> serde_json::Result<()> {
    out.push_str("{\"document\":{\"format\":");
    serde(out, &document.format)?;
    out.push_str(",\"name\":");
    string(out, &document.name)?;
    source(&document.source, out)?;
    out.push_str("}}");
    Ok(())
}

/// `,"source":{...}`.
fn source(source: &MediaSource<'_>, out: &mut String) -> serde_json::Result<()> {
    match source {
        MediaSource::Bytes(data) => {
            out.push_str(",\"source\":{\"bytes\":");
            match data.spliced() {
                Some(mark) => out.push_str(mark.get()),
                None => string(out, data.as_str())?,
            }
        }
        MediaSource::S3Location(location) => {
            out.push_str(",\"source\":{\"s3Location\":{\"uri\":");
            string(out, location.uri)?;
            out.push('}');
        }
    }
    out.push('}');
    Ok(())
}

fn comma(out: &mut String, i: usize) {
    if i > 0 {
        out.push(',');
    }
}

/// A JSON string: copied between quotes when nothing in it is escaped (no control character,
/// quote or backslash), else written by `serde_json`.
fn string(out: &mut String, text: &str) -> serde_json::Result<()> {
    const LONG: usize = 4096;
    let plain = if text.len() >= LONG {
        crate::base64::is_json_safe_alphabet(text) || plain_text(text.as_bytes())
    } else {
        plain_text(text.as_bytes())
    };
    if !plain {
        return serde(out, text);
    }
    out.reserve(text.len() + 2);
    out.push('"');
    out.push_str(text);
    out.push('"');
    Ok(())
}

/// Whether no byte of `bytes` needs escaping, eight at a time: a byte below 0x20, a quote or a
/// backslash sets its high bit in `found` ([`escapes_in`]).
fn plain_text(bytes: &[u8]) -> bool {
    let needs_escape = |chunk: &[u8]| {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        escapes_in(word)
    };
    if bytes.len() < 8 {
        return bytes.iter().all(|&b| plain_byte(b));
    }
    let mut chunks = bytes.chunks_exact(8);
    let mut found = 0;
    for chunk in &mut chunks {
        found |= needs_escape(chunk);
    }
    // The last eight bytes, overlapping the last whole chunk, instead of a loop over the rest.
    if !chunks.remainder().is_empty() {
        found |= needs_escape(&bytes[bytes.len() - 8..]);
    }
    found == 0
}

/// A value as `serde_json` writes it. Only numbers, the format enums, cache points, structured
/// output and strings with escapes come here: a small allocation each, where writing into the
/// body's bytes would cost a UTF-8 check of the whole body.
fn serde(out: &mut String, value: &(impl Serialize + ?Sized)) -> serde_json::Result<()> {
    out.push_str(&serde_json::to_string(value)?);
    Ok(())
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use crate::options::{CacheTtl, PromptCache, ResponseFormat, ToolChoice};
    use crate::providers::common::convert::{ConvertOptions, ToolSpec};
    use crate::validate;

    /// The eight-at-a-time check agrees with the byte-at-a-time one for every byte value at every
    /// place in a word, among plain bytes and among bytes of multi-byte characters.
    #[test]
    fn plain_text_finds_every_byte_that_needs_escaping() {
        for fill in [b'a', 0xc3, 0x7f, 0x20, 0xff] {
            for len in [1, 7, 8, 9, 16, 23] {
                for at in 0..len {
                    for b in 0..=255u8 {
                        let mut bytes = vec![fill; len];
                        bytes[at] = b;
                        assert_eq!(
                            super::plain_text(&bytes),
                            bytes.iter().all(|&b| crate::json::plain_byte(b)),
                            "{bytes:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn integers_as_serde_json_writes_them() {
        for n in [0, 1, 9, 10, 77, 4096, 1_000_000, u64::from(u32::MAX), u64::MAX - 1, u64::MAX] {
            let mut text = String::new();
            super::integer(&mut text, n);
            assert_eq!(text, serde_json::to_string(&n).unwrap());
        }
    }

    /// Every kind of block, escapes, a large payload, system text, every inference field and
    /// tools: the same bytes as `serde_json`.
    #[test]
    fn writes_what_serde_json_writes() {
        let big = "QUJD".repeat(5_000);
        let request = json!({"input": [
            {"role": "system", "content": [{"type": "text", "text": "Be \"brief\"\n\u{1}é\u{2028}"}]},
            {"role": "user", "content": [
                {"type": "text", "text": "plain text ☀ and a \\ backslash"},
                {"type": "image", "source": {"type": "base64", "format": "png", "data": format!("iVBORw0KGgoA{big}")}},
                {"type": "image", "source": {"type": "url", "data": "s3://bucket/key.png", "format": "png"}},
                {"type": "document", "name": "résumé (1)", "source": {"type": "base64", "format": "pdf", "data": "JVBERi0xLjQK"}},
                {"type": "video", "source": {"type": "base64", "format": "mp4", "data": "AAAAGGZ0eXBpc29t"}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "calling"}],
             "toolCalls": [{"id": "c1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\": [1, 2.5, \"x\"]}"}}]},
            {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "found"},
                {"type": "image", "source": {"type": "base64", "format": "png", "data": "iVBORw0KGgo="}}]},
            {"role": "user", "content": [{"type": "text", "text": "and?"}]}
        ]});
        let text = request.to_string();
        let document = validate::parse(&text, &validate::Limits::default()).unwrap();
        let (request, _) = validate::validate_request(&document, &validate::Options::default()).into_result().unwrap();
        let tool = |name: &str, description: Option<&str>| ToolSpec {
            name: name.into(),
            description: description.map(Into::into),
            input_schema: Some(
                json!({"type": "object", "properties": {"q": {"type": "string", "description": "a \"q\"",
                    "enum": [1, -2.5, 1e300, null, true, false, "x\u{1}", [], {}], "pattern": "^\\d+$"}}}),
            ),
        };
        let options = [
            ConvertOptions { tools: vec![tool("lookup", None)], ..ConvertOptions::default() },
            ConvertOptions {
                system: Some("Answer in French.\t".into()),
                max_tokens: Some(77),
                temperature: Some(0.3),
                stop_sequences: vec!["\n\nHuman:".into(), "END".into()],
                tools: vec![tool("lookup", Some("Look it up \"now\"")), tool("other", None)],
                ..ConvertOptions::default()
            },
            ConvertOptions { top_p: Some(0.9), tools: vec![tool("lookup", Some(""))], ..ConvertOptions::default() },
            // The request features: a tool choice, cache points after the system prompt and the
            // tools, and structured output.
            ConvertOptions {
                system: Some("Be brief.".into()),
                tools: vec![tool("lookup", None)],
                tool_choice: Some(ToolChoice::Tool { name: "lookup".into() }),
                prompt_cache: Some(PromptCache { ttl: Some(CacheTtl::OneHour) }),
                response_format: Some(ResponseFormat {
                    schema: json!({"type": "object", "properties": {"answer": {"type": "string"}}}),
                    name: Some("answer".into()),
                    description: Some("The \"answer\"".into()),
                    strict: None,
                }),
                ..ConvertOptions::default()
            },
            ConvertOptions {
                tools: vec![tool("lookup", None)],
                tool_choice: Some(ToolChoice::Any),
                prompt_cache: Some(PromptCache { ttl: None }),
                ..ConvertOptions::default()
            },
        ];
        for options in &options {
            let converted = <super::super::BedrockConverse as crate::providers::common::convert::Provider>::convert(
                &request, options,
            )
            .unwrap_or_else(|report| panic!("{report}"));
            let mut fast = String::new();
            super::converse(&converted.body, &mut fast).unwrap();
            assert_eq!(fast, serde_json::to_string(&converted.body).unwrap());
        }
    }
}
