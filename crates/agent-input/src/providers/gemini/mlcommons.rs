//! Gemini as ml-commons' `GeminiV1BetaGenerateContentModelProvider` writes it: the connector, the
//! templates and the `--ml-commons` parity body.

use crate::model::{ContentBlock, Message, Source};
use crate::path::Path;
use crate::providers::common::mlcommons::{Connector, MlCommons, Out, Parity, source_written};

/// `GeminiV1BetaGenerateContentModelProvider`.
pub(crate) const ML_COMMONS: MlCommons = MlCommons {
    name: "gemini/v1beta/generatecontent",
    llm_interface: "gemini/v1beta/generatecontent",
    tool_configs: r#", "tools": [{"functionDeclarations": [${parameters._tools:-}]}], "toolConfig": {"functionCallingConfig": {"mode": "AUTO"}}"#,
    credential_keys: &["gemini_api_key"],
    credential_reader: "the connector's header reads it",
    connector: Connector {
        name: "Auto-generated Gemini connector for Agent",
        description: "Auto-generated connector for Gemini generateContent API",
        protocol: "http",
        url: "https://generativelanguage.googleapis.com/v1beta/models/${parameters.model}:generateContent",
        headers: &[("Content-Type", "application/json"), ("x-goog-api-key", "${credential.gemini_api_key}")],
    },
    request_body: REQUEST_BODY,
    reasoning_request_body: None,
    text_input: "{\"role\":\"user\",\"parts\":[{\"text\":\"${parameters.user_text}\"}]}",
    fixed_parameters: &[],
    top_p_key: "topP",
    temperature_field: false,
    system_prompt: true,
    needs_unified_api: true,
    empty_tool_list: None,
    parity: Parity { text: (r#"{"role":"user","parts":[{"text":""#, r#""}]}"#), blocks_key: "parts", message, block },
    defaults_from_3_7: r#"{"generationConfig": {"maxOutputTokens": 4096, "temperature": 1.0}}"#,
    known_issues: &[],
};

/// `REQUEST_BODY_TEMPLATE`.
const REQUEST_BODY: &str = concat!(
    "{\"systemInstruction\":{\"parts\":[{\"text\":\"${parameters.system_prompt:-You are a helpful assistant.}\"}]},",
    "\"contents\":[${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-},",
    "\"generationConfig\":{\"maxOutputTokens\":${parameters.max_tokens:-4096},",
    "\"temperature\":${parameters.temperature:-1.0}${parameters.top_p_field:-}}",
    "}"
);

/// A message: only the exact role "user" stays a user turn, every other is the model's.
fn message(out: &mut Out<'_, '_>, messages: &[Message<'_>], i: usize, role: &str) -> usize {
    out.message_open(if role == "user" { "user" } else { "model" });
    out.blocks(&messages[i].content, &out.block_path(i));
    out.body.push_str("]}");
    i + 1
}

fn block(out: &mut Out<'_, '_>, block: &ContentBlock<'_>, path: &dyn Fn() -> Path) {
    let (open, format, source) = match block {
        ContentBlock::Text(text) => {
            out.body.push_str(r#"{"text":""#);
            out.esc(text);
            out.body.push_str(r#""}"#);
            return;
        }
        ContentBlock::Image(image) if matches!(image.source, Source::Base64(_)) => {
            (r#"{"inlineData":{"mimeType":"image/"#, image.format.as_str(), &image.source)
        }
        ContentBlock::Image(image) => (r#"{"fileData":{"mimeType":"image/"#, image.format.as_str(), &image.source),
        ContentBlock::Video(video) => (r#"{"fileData":{"mimeType":"video/"#, video.format.as_str(), &video.source),
        // The raw format as the MIME type, and always a file URI.
        ContentBlock::Document(document) => {
            (r#"{"fileData":{"mimeType":""#, document.format.as_str(), &document.source)
        }
        // Refused before anything is written, as ml-commons refuses it.
        ContentBlock::ProviderItem(_) => return,
    };
    let root = out.root;
    let (format, data) = source_written(root, &path(), format, source.data());
    let inline = open.starts_with(r#"{"inlineData""#);
    out.body.push_str(open);
    out.body.push_str(format);
    out.body.push_str(if inline { r#"","data":""# } else { r#"","fileUri":""# });
    out.esc(data);
    out.body.push_str(r#""}}"#);
}
