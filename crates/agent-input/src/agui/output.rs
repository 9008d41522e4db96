//! Standard messages → AG-UI messages (the body of a `MESSAGES_SNAPSHOT`).

use super::model::{Content, FunctionCall, Message as AgUiMessage, Part, PartSource, ToolCall};
use super::reasoning::{self, Values};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{ContentBlock, Message, Role, Source};
use crate::path::Path;

/// Writes standard messages as AG-UI messages, ids `<id_prefix><index>`.
///
/// A user or tool message whose content is one text block is written as a string, as AG-UI
/// front-ends write it; several blocks become parts (media as `data` or `url` sources). Assistant
/// and system content is a string in AG-UI: their text blocks are joined. An assistant message's
/// reasoning state is its `encryptedValue` and its tool calls' ([`super::reasoning`]).
///
/// # Errors
/// `media_not_allowed_in_role` for media in an assistant or system message (AG-UI has no place for
/// it); `role_not_supported` for a role AG-UI does not have. Paths are into the messages array.
pub fn to_agui(messages: &[Message<'_>], id_prefix: &str) -> Result<Vec<AgUiMessage>, Report> {
    let mut report = Report::default();
    let mut out = Vec::with_capacity(messages.len());
    for (i, message) in messages.iter().enumerate() {
        let at = Path::root().index(i);
        if provider_items(&message.content, &at, &mut report) {
            continue;
        }
        let id = format!("{id_prefix}{i}");
        let converted = match &message.role {
            Role::User => Some(AgUiMessage::User { id, content: content(&message.content), encrypted_value: None }),
            Role::Tool => Some(AgUiMessage::Tool {
                id,
                content: content(&message.content),
                tool_call_id: message.tool_call_id.as_deref().unwrap_or_default().to_string(),
                encrypted_value: None,
            }),
            Role::Assistant => text_only(&message.content, &at, "an assistant", &mut report).map(|text| {
                let values = message.reasoning_state.as_ref().map_or_else(Values::default, |state| {
                    reasoning::write(state, message.content.len(), !text.trim().is_empty(), message.tool_calls.len())
                });
                let mut call_values = values.calls.into_iter();
                AgUiMessage::Assistant {
                    id,
                    content: (!text.is_empty()).then_some(text),
                    tool_calls: message
                        .tool_calls
                        .iter()
                        .map(|call| ToolCall {
                            id: call.id.to_string(),
                            kind: call.kind.to_string(),
                            function: FunctionCall {
                                name: call.name.to_string(),
                                arguments: call.arguments.to_string(),
                            },
                            encrypted_value: call_values.next().flatten(),
                        })
                        .collect(),
                    encrypted_value: values.message,
                }
            }),
            Role::System => text_only(&message.content, &at, "a system", &mut report)
                .map(|content| AgUiMessage::System { id, content, encrypted_value: None }),
            Role::Other(role) => {
                report.push(
                    Diagnostic::new(Code::RoleNotSupported, at.key("role"), "AG-UI has no such role")
                        .expected(["user", "assistant", "system", "tool"])
                        .received(role.as_ref()),
                );
                None
            }
        };
        out.extend(converted);
    }
    if report.is_ok() { Ok(out) } else { Err(report) }
}

/// Whether `content` holds provider items, each reported: an AG-UI message has no place for
/// them, and leaving them out would change the conversation its provider reads back.
fn provider_items(content: &[ContentBlock<'_>], at: &Path, report: &mut Report) -> bool {
    let mut found = false;
    for (j, block) in content.iter().enumerate() {
        if let ContentBlock::ProviderItem(item) = block {
            found = true;
            report.push(
                Diagnostic::new(
                    Code::UnsupportedByProvider,
                    at.key("content").index(j),
                    format!(
                        "AG-UI messages have no place for {}'s {} item; send this conversation to its provider without AG-UI, or leave the item out",
                        item.provider.display_name(),
                        crate::text::quote(item.kind())
                    ),
                )
                .received(item.provider.as_str()),
            );
        }
    }
    found
}

fn text_only(content: &[ContentBlock<'_>], at: &Path, whose: &str, report: &mut Report) -> Option<String> {
    let mut text = String::new();
    for (j, block) in content.iter().enumerate() {
        match block {
            ContentBlock::Text(part) => text.push_str(part),
            other => {
                report.push(
                    Diagnostic::new(
                        Code::MediaNotAllowedInRole,
                        at.key("content").index(j),
                        format!("AG-UI's content of {whose} message is text only"),
                    )
                    .received(other.type_name()),
                );
                return None;
            }
        }
    }
    Some(text)
}

fn content(blocks: &[ContentBlock<'_>]) -> Content {
    if let [ContentBlock::Text(text)] = blocks {
        return Content::Text(text.to_string());
    }
    Content::Parts(
        blocks
            .iter()
            .map(|block| {
                let (source, mime) = match block {
                    ContentBlock::Text(text) => return Part::Text { text: text.to_string() },
                    ContentBlock::Image(media) => (&media.source, media.format.mime_type()),
                    ContentBlock::Video(media) => (&media.source, media.format.mime_type()),
                    ContentBlock::Document(document) => (&document.source, document.format.mime_type()),
                    // Reported by `provider_items` before any content is written.
                    ContentBlock::ProviderItem(_) => return Part::Text { text: String::new() },
                };
                let source = match source {
                    Source::Base64(data) => PartSource::Data { value: data.to_string(), mime_type: mime.to_string() },
                    Source::Url(url) => PartSource::Url { value: url.to_string(), mime_type: Some(mime.to_string()) },
                };
                match block {
                    ContentBlock::Video(_) => Part::Video { source },
                    ContentBlock::Document(_) => Part::Document { source },
                    _ => Part::Image { source },
                }
            })
            .collect(),
    )
}
