//! `echo`: an offline, deterministic model that answers with a description of what it received —
//! roles, block types, formats, sizes — so the whole pipeline is visible without a model.
//!
//! Streamed, the same answer comes in pieces of [`CHUNK_CHARS`] characters (the last shorter),
//! then its stop reason and token counts — deterministic, so tests can count the deltas.

use std::fmt::Write as _;

use agent_input::response::{ProviderResponse, Usage};
use agent_input::{AgentInput, ContentBlock, ConvertOptions, ExecuteRequest, Message, Report, Source};

use agent_input::stream::StreamEvent;

use super::client::{BoxFuture, Outgoing, ProviderClient, ProviderError, Streaming};

/// The echo model.
#[derive(Debug, Clone, Copy, Default)]
pub struct Echo;

/// Tokens counted for one image, video or document (a fixed, documented estimate).
const MEDIA_TOKENS: u64 = 100;

/// Characters per streamed text delta.
pub const CHUNK_CHARS: usize = 16;

impl ProviderClient for Echo {
    fn prepare(&self, request: &ExecuteRequest<'_>, options: &ConvertOptions) -> Result<Outgoing, Report> {
        let (body, input_tokens) = describe(&request.input, options);
        Ok(Outgoing { body, warnings: Vec::new(), input_tokens })
    }

    fn send(&self, outgoing: Outgoing) -> BoxFuture<'_, Result<ProviderResponse, ProviderError>> {
        Box::pin(async move { Ok(answer(outgoing)) })
    }

    fn stream(&self, outgoing: Outgoing) -> BoxFuture<'_, Result<Streaming, ProviderError>> {
        Box::pin(async move {
            let answer = answer(outgoing);
            let text = agent_input::response::primary_text(&answer.message).unwrap_or_default();
            let mut events: Vec<StreamEvent> =
                chunks(&text).map(|piece| StreamEvent::TextDelta { text: piece.to_string() }).collect();
            events.push(StreamEvent::Stop { reason: "end_turn".into() });
            events.extend(answer.usage.map(StreamEvent::Usage));
            Ok(Streaming::Events { events, answer: Box::new(answer) })
        })
    }
}

fn answer(outgoing: Outgoing) -> ProviderResponse {
    let answer = outgoing.body;
    let input_tokens = outgoing.input_tokens;
    let output_tokens = tokens_of(&answer);
    ProviderResponse {
        message: Message::assistant(vec![ContentBlock::text(answer)]),
        stop_reason: Some("end_turn".into()),
        usage: Some(Usage::new(input_tokens, output_tokens, input_tokens + output_tokens)),
        reasoning: None,
    }
}

/// `text` in pieces of [`CHUNK_CHARS`] characters.
pub fn chunks(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest.char_indices().nth(CHUNK_CHARS).map_or(rest.len(), |(i, _)| i);
        let (piece, tail) = rest.split_at(end);
        rest = tail;
        Some(piece)
    })
}

/// The answer and the input token estimate.
fn describe(input: &AgentInput<'_>, options: &ConvertOptions) -> (String, u64) {
    let messages: Vec<&Message<'_>>;
    let owned;
    match input {
        AgentInput::Messages(list) => messages = list.iter().collect(),
        other => {
            owned = other.clone().into_messages();
            messages = owned.iter().collect();
        }
    }
    let mut out = String::from("echo: ");
    let roles: Vec<&str> = messages.iter().map(|m| m.role.as_str()).collect();
    let _ = write!(out, "{} message{} ({})", messages.len(), plural(messages.len()), summarize_roles(&roles));
    if let Some(system) = &options.system {
        let _ = write!(out, "; system prompt ({} chars)", system.chars().count());
    }
    if let Some(last) = messages.last() {
        let _ = write!(out, "; last from {}: ", last.role.as_str());
        describe_message(last, &mut out);
    }
    let question = input.question();
    let question = question.trim();
    if !question.is_empty() {
        let short: String = question.chars().take(80).collect();
        let more = if short.len() < question.len() { "…" } else { "" };
        let _ = write!(out, "; question: {short:?}{more}");
    }
    let input_tokens: u64 = messages
        .iter()
        .flat_map(|m| &m.content)
        .map(|block| match block {
            ContentBlock::Text(text) => tokens_of(text),
            _ => MEDIA_TOKENS,
        })
        .sum::<u64>()
        + options.system.as_deref().map_or(0, tokens_of);
    (out, input_tokens)
}

fn describe_message(message: &Message<'_>, out: &mut String) {
    let mut parts: Vec<String> = message.content.iter().map(describe_block).collect();
    if !message.tool_calls.is_empty() {
        let names: Vec<&str> = message.tool_calls.iter().map(|c| c.name.as_ref()).collect();
        parts.push(format!("{} tool call{} ({})", names.len(), plural(names.len()), names.join(", ")));
    }
    if let Some(id) = &message.tool_call_id {
        parts.insert(0, format!("result of tool call {id}"));
    }
    out.push_str(&if parts.is_empty() { "nothing".to_string() } else { parts.join(", ") });
}

fn describe_block(block: &ContentBlock<'_>) -> String {
    match block {
        ContentBlock::Text(text) => format!("text ({} chars)", text.chars().count()),
        ContentBlock::Image(media) => format!("image {} {}", media.format.as_str(), describe_source(&media.source)),
        ContentBlock::Video(media) => format!("video {} {}", media.format.as_str(), describe_source(&media.source)),
        ContentBlock::Document(document) => {
            let name = document.name.as_deref().map_or_else(String::new, |n| format!(" {n:?}"));
            format!("document {}{name} {}", document.format.as_str(), describe_source(&document.source))
        }
        ContentBlock::ProviderItem(item) => format!("{} item {}", item.provider.as_str(), item.kind()),
    }
}

fn describe_source(source: &Source<'_>) -> String {
    match source {
        Source::Base64(data) => format!("{} base64", size(agent_input::base64::decoded_len(data))),
        Source::Url(url) => {
            let short: String = url.chars().take(60).collect();
            if short.len() < url.len() { format!("{short}…") } else { short }
        }
    }
}

/// `512 B`, `3.4 KB`, `1.2 MB` (binary units).
fn size(bytes: usize) -> String {
    #[allow(clippy::cast_precision_loss)] // one decimal is all that is shown
    let value = bytes as f64;
    if bytes < 1024 {
        format!("{bytes} B")
    } else if bytes < 1024 * 1024 {
        format!("{:.1} KB", value / 1024.0)
    } else {
        format!("{:.1} MB", value / (1024.0 * 1024.0))
    }
}

/// `user, assistant, user` — or, for long conversations, counts per role.
fn summarize_roles(roles: &[&str]) -> String {
    if roles.len() <= 6 {
        return roles.join(", ");
    }
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for role in roles {
        match counts.iter_mut().find(|(r, _)| r == role) {
            Some((_, n)) => *n += 1,
            None => counts.push((role, 1)),
        }
    }
    counts.iter().map(|(role, n)| format!("{n} {role}")).collect::<Vec<_>>().join(", ")
}

const fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// About one token per four bytes of text.
fn tokens_of(text: &str) -> u64 {
    (text.len() as u64).div_ceil(4)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_input::validate;

    fn answer(request: &str) -> ProviderResponse {
        let document = validate::parse(request, &validate::Limits::default()).unwrap();
        let (request, _) = validate::validate_request(&document, &validate::Options::default()).into_result().unwrap();
        let outgoing = Echo.prepare(&request, &ConvertOptions::default()).unwrap();
        tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(Echo.send(outgoing)).unwrap()
    }

    #[test]
    fn describes_roles_blocks_formats_and_sizes() {
        let png = agent_input::base64::encode(&[0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n', 0, 0, 0, 0]);
        let request = format!(
            r#"{{"input": [{{"type": "text", "text": "What is in this picture?"}},
                {{"type": "image", "source": {{"type": "base64", "format": "png", "data": "{png}"}}}},
                {{"type": "document", "name": "Q3", "source": {{"type": "url", "format": "pdf", "data": "s3://bucket/q3.pdf"}}}}]}}"#
        );
        let response = answer(&request);
        let text = agent_input::response::primary_text(&response.message).unwrap();
        assert_eq!(
            text,
            "echo: 1 message (user); last from user: text (24 chars), image png 12 B base64, \
             document pdf \"Q3\" s3://bucket/q3.pdf; question: \"What is in this picture?\""
        );
        assert_eq!(response.stop_reason.as_deref(), Some("end_turn"));
        let usage = response.usage.unwrap();
        assert_eq!(usage.input_tokens, 6 + 2 * MEDIA_TOKENS);
        assert_eq!(usage.total_tokens, usage.input_tokens + usage.output_tokens);
    }

    #[test]
    fn describes_tool_calls_and_results() {
        let response = answer(
            r#"{"input": [{"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
            {"role": "assistant", "content": [], "toolCalls": [{"id": "c1", "type": "function",
              "function": {"name": "get_weather", "arguments": "{}"}}]},
            {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "72F"}]}]}"#,
        );
        let text = agent_input::response::primary_text(&response.message).unwrap();
        assert!(
            text.starts_with(
                "echo: 3 messages (user, assistant, tool); last from tool: result of tool call c1, text (3 chars)"
            ),
            "{text}"
        );
        assert_eq!(size(3482), "3.4 KB");
    }

    #[test]
    fn streams_the_same_answer_in_pieces() {
        let pieces: Vec<&str> = chunks("0123456789abcdef☀☀x").collect();
        assert_eq!(pieces, ["0123456789abcdef", "☀☀x"]);
        assert_eq!(chunks("").count(), 0);
        let document =
            validate::parse(r#"{"input": "Hello there, how are you today?"}"#, &validate::Limits::default()).unwrap();
        let (request, _) = validate::validate_request(&document, &validate::Options::default()).into_result().unwrap();
        let outgoing = Echo.prepare(&request, &ConvertOptions::default()).unwrap();
        let runtime = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let whole = runtime.block_on(Echo.send(outgoing.clone())).unwrap();
        let Streaming::Events { events, answer } = runtime.block_on(Echo.stream(outgoing)).unwrap() else {
            panic!("echo streams events")
        };
        assert_eq!(*answer, whole);
        let text: String = events
            .iter()
            .filter_map(|e| match e {
                StreamEvent::TextDelta { text } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(Some(text), agent_input::response::primary_text(&whole.message));
        assert!(events.len() > 3, "{events:?}");
    }
}
