//! `OpenAI` Chat Completions as ml-commons' `OpenaiV1ChatCompletionsModelProvider` writes it: the
//! connector, the templates and the `--ml-commons` parity body.

use crate::model::{ContentBlock, Message, Source};
use crate::path::Path;
use crate::providers::common::mlcommons::{Connector, MlCommons, Out, Parity, source_written};

/// `OpenaiV1ChatCompletionsModelProvider`.
pub(crate) const ML_COMMONS: MlCommons = MlCommons {
    name: "openai/v1/chat/completions",
    llm_interface: "openai/v1/chat/completions",
    tool_configs: r#", "tools": [${parameters._tools:-}], "parallel_tool_calls": false"#,
    credential_keys: &["openai_api_key"],
    credential_reader: "the connector's header reads it",
    connector: Connector {
        name: "Auto-generated OpenAI connector for Agent",
        description: "Auto-generated connector for OpenAI Chat Completions API",
        protocol: "http",
        url: "https://api.openai.com/v1/chat/completions",
        headers: &[("Content-Type", "application/json"), ("Authorization", "Bearer ${credential.openai_api_key}")],
    },
    request_body: REQUEST_BODY,
    reasoning_request_body: Some(REASONING_REQUEST_BODY),
    text_input: "{\"role\":\"user\",\"content\":\"${parameters.user_text}\"}",
    fixed_parameters: &[],
    top_p_key: "top_p",
    temperature_field: false,
    system_prompt: false,
    needs_unified_api: false,
    empty_tool_list: None,
    parity: Parity { text: (r#"{"role":"user","content":""#, r#""}"#), blocks_key: "content", message, block },
    defaults_from_3_7: r#"{"max_completion_tokens": 4096, "temperature": 1.0}"#,
    known_issues: &[],
};

/// `REQUEST_BODY_TEMPLATE`.
const REQUEST_BODY: &str = concat!(
    "{\"model\":\"${parameters.model}\",",
    "\"messages\":[${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-}",
    ",\"max_completion_tokens\":${parameters.max_tokens:-4096}",
    ",\"temperature\":${parameters.temperature:-1.0}",
    "${parameters.top_p_field:-}}"
);
/// `REQUEST_BODY_REASONING_TEMPLATE`.
const REASONING_REQUEST_BODY: &str = concat!(
    "{\"model\":\"${parameters.model}\",",
    "\"messages\":[${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-}",
    ",\"max_completion_tokens\":${parameters.max_tokens:-4096}",
    ",\"reasoning_effort\":\"${parameters.reasoning_effort}\"}"
);

/// A message with its role as written, its tool calls and the id of the call it answers.
fn message(out: &mut Out<'_, '_>, messages: &[Message<'_>], i: usize, role: &str) -> usize {
    let message = &messages[i];
    out.message_open(role);
    out.blocks(&message.content, &out.block_path(i));
    out.body.push(']');
    if !message.tool_calls.is_empty() {
        out.body.push_str(r#","tool_calls":["#);
        for (k, call) in message.tool_calls.iter().enumerate() {
            if k > 0 {
                out.body.push(',');
            }
            out.body.push_str(r#"{"id":""#);
            out.esc(&call.id);
            out.body.push_str(r#"","type":""#);
            out.esc(&call.kind);
            out.body.push_str(r#"","function":{"name":""#);
            out.esc(&call.name);
            out.body.push_str(r#"","arguments":""#);
            out.esc(&call.arguments);
            out.body.push_str(r#""}}"#);
        }
        out.body.push(']');
    }
    if let Some(id) = message.tool_call_id.as_deref() {
        out.body.push_str(r#","tool_call_id":""#);
        out.esc(id);
        out.body.push('"');
    }
    out.body.push('}');
    i + 1
}

fn block(out: &mut Out<'_, '_>, block: &ContentBlock<'_>, path: &dyn Fn() -> Path) {
    match block {
        // Refused before anything is written, as ml-commons refuses it.
        ContentBlock::ProviderItem(_) => {}
        ContentBlock::Text(text) => {
            out.body.push_str(r#"{"type":"text","text":""#);
            out.esc(text);
            out.body.push_str(r#""}"#);
        }
        ContentBlock::Image(image) => {
            let root = out.root;
            let (format, data) = source_written(root, &path(), image.format.as_str(), image.source.data());
            out.body.push_str(r#"{"type":"image_url","image_url":{"url":""#);
            if let Source::Base64(_) = &image.source {
                out.body.push_str("data:image/");
                out.body.push_str(format);
                out.body.push_str(";base64,");
            }
            out.esc(data);
            out.body.push_str(r#""}}"#);
        }
        ContentBlock::Video(_) => {
            out.fail(path(), "Video content is not supported in OpenAI Chat Completions API. ");
        }
        ContentBlock::Document(_) => {
            out.fail(path(), "Document content is not supported in OpenAI Chat Completions API. ");
        }
    }
}
