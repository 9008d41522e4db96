//! Bedrock Converse as ml-commons' `BedrockConverseModelProvider` writes it: the connector, the
//! templates and the `--ml-commons` parity body.

use crate::model::{ContentBlock, Message, Role, Source};
use crate::path::Path;
use crate::providers::common::mlcommons::{Connector, MlCommons, Out, Parity, source_written};

/// `BedrockConverseModelProvider`.
pub(crate) const ML_COMMONS: MlCommons = MlCommons {
    name: "bedrock/converse",
    llm_interface: "bedrock/converse/claude",
    tool_configs: r#", "toolConfig": {"tools": [${parameters._tools:-}]}"#,
    credential_keys: &["access_key", "secret_key"],
    credential_reader: "\"Missing credential\"",
    connector: Connector {
        name: "Auto-generated Bedrock Converse connector for Agent",
        description: "Auto-generated connector for Bedrock Converse API",
        protocol: "aws_sigv4",
        url: "https://bedrock-runtime.${parameters.region}.amazonaws.com/model/${parameters.model}/converse",
        headers: &[("content-type", "application/json")],
    },
    request_body: REQUEST_BODY,
    reasoning_request_body: None,
    text_input: "{\"role\":\"user\",\"content\":[{\"text\":\"${parameters.user_text}\"}]}",
    fixed_parameters: &[("region", "us-east-1"), ("service_name", "bedrock")],
    top_p_key: "topP",
    temperature_field: true,
    system_prompt: true,
    needs_unified_api: false,
    empty_tool_list: Some(
        "ml-commons sends a conversational agent without tools `\"toolConfig\": {\"tools\": []}`, which Bedrock refuses (ml-commons issue 5094): give the agent at least one tool",
    ),
    parity: Parity {
        text: (r#"{"role":"user","content":[{"text":""#, r#""}]}"#),
        blocks_key: "content",
        message,
        block,
    },
    defaults_from_3_7: r#"{"inferenceConfig": {"maxTokens": 4096, "temperature": 1.0}}"#,
    known_issues: &[(
        r#""s3Location":""#,
        "ml-commons 3.6–3.9 sends Bedrock an S3 source as a string (`\"s3Location\":\"s3://…\"`), which Bedrock refuses (\"Unexpected field type\"): it takes `{\"s3Location\":{\"uri\":…}}` (ml-commons issue 5036, open). Send the media as base64 until it is fixed",
    )],
};

/// `REQUEST_BODY_TEMPLATE`.
const REQUEST_BODY: &str = concat!(
    "{\"system\": [{\"text\": \"${parameters.system_prompt}\"}], ",
    "\"messages\": [${parameters._chat_history:-}${parameters.body}${parameters._interactions:-}]",
    "${parameters.tool_configs:-}, ",
    "\"inferenceConfig\": {\"maxTokens\": ${parameters.max_tokens:-4096}",
    "${parameters.temperature_field:-}${parameters.top_p_field:-}}",
    " }"
);

/// A message: consecutive tool messages become one user message of `toolResult` blocks, each
/// carrying only the first text block; any other message its blocks, then each tool call as a
/// `toolUse` block.
fn message(out: &mut Out<'_, '_>, messages: &[Message<'_>], i: usize, role: &str) -> usize {
    let message = &messages[i];
    if message.role == Role::Tool {
        out.message_open("user");
        let mut k = i;
        while k < messages.len() && messages[k].role == Role::Tool {
            if k > i {
                out.body.push(',');
            }
            out.body.push_str(r#"{"toolResult":{"toolUseId":""#);
            out.esc(messages[k].tool_call_id.as_deref().unwrap_or_default());
            out.body.push_str(r#"","content":[{"text":""#);
            let text = messages[k].content.iter().find_map(|b| match b {
                ContentBlock::Text(t) => Some(t.as_ref()),
                _ => None,
            });
            out.esc(text.unwrap_or_default());
            out.body.push_str(r#""}]}}"#);
            k += 1;
        }
        out.body.push_str("]}");
        return k;
    }
    out.message_open(role);
    out.blocks(&message.content, &out.block_path(i));
    for (k, call) in message.tool_calls.iter().enumerate() {
        if !message.content.is_empty() || k > 0 {
            out.body.push(',');
        }
        out.body.push_str(r#"{"toolUse":{"toolUseId":""#);
        out.esc(&call.id);
        out.body.push_str(r#"","name":""#);
        out.esc(&call.name);
        out.body.push_str(r#"","input":"#);
        let arguments = call.arguments.trim();
        out.body.push_str(if arguments.is_empty() { "{}" } else { arguments });
        out.body.push_str("}}");
    }
    out.body.push_str("]}");
    i + 1
}

fn block(out: &mut Out<'_, '_>, block: &ContentBlock<'_>, path: &dyn Fn() -> Path) {
    let (key, format, source) = match block {
        ContentBlock::Text(text) => {
            out.body.push_str(r#"{"text":""#);
            out.esc(text);
            out.body.push_str(r#""}"#);
            return;
        }
        ContentBlock::Image(media) => ("image", media.format.as_str(), &media.source),
        ContentBlock::Video(media) => ("video", media.format.as_str(), &media.source),
        ContentBlock::Document(document) => ("document", document.format.as_str(), &document.source),
        // Refused before anything is written, as ml-commons refuses it.
        ContentBlock::ProviderItem(_) => return,
    };
    let root = out.root;
    let (format, data) = source_written(root, &path(), format, source.data());
    out.body.push_str(r#"{""#);
    out.body.push_str(key);
    out.body.push_str(r#"":{"format":""#);
    out.body.push_str(format);
    if key == "document" {
        out.body.push_str(r#"","name":"document"#);
    }
    out.body.push_str(r#"","source":{"#);
    match source {
        Source::Base64(_) => {
            out.body.push_str(r#""bytes":""#);
            out.esc(data);
        }
        Source::Url(_) if data.starts_with("s3://") => {
            out.body.push_str(r#""s3Location":""#);
            out.esc(data);
        }
        Source::Url(_) => out.fail(
            path().key("source").key("data"),
            "URL-based content must use S3 URIs (s3://...). Other URL schemes are not supported by Bedrock Converse API",
        ),
    }
    out.body.push_str(r#""}}}"#);
}
