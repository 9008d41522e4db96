//! Agent input schemas (contract §8): an agent's `parameters_schema`, checked at
//! registration, validates each `_execute`'s parameters; the `<inputs>` block of the parameters
//! enters the conversation as the user's text (docs/decisions/schemas.md, "At the gateway").

use std::borrow::Cow;

use agent_input::schema::Schema;
use agent_input::{AgentInput, ContentBlock, Diagnostic, ExecuteRequest, Message, Path, Report, Role};
use serde_json::Value;

/// A registration's `parameters_schema`: absent or `null` is none (`null` means not
/// configured); anything else must be a usable JSON Schema, its problems reported under
/// `/parameters_schema`.
///
/// # Errors
/// Every `invalid_schema` problem.
pub fn registered(value: Option<&Value>) -> Result<Option<Value>, Report> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(schema) => match Schema::new(schema) {
            Ok(_) => Ok(Some(schema.clone())),
            Err(report) => Err(under(&Path::root().key("parameters_schema"), report)),
        },
    }
}

/// Validates the request's parameters against the agent's schema and writes the `<inputs>` block
/// into the new user input (`input_type` stays what the request sent):
/// - a prompt taken from text input (or the legacy `parameters.question`) becomes the formatted
///   prompt, exactly as the autonomous-agent runner sends it;
/// - a prompt taken from content blocks or messages stays where it is, and the `<inputs>` block is
///   a text block put before the first block of the user turn (before the blocks; for messages,
///   at the start of the last message if it is the user's, else in a user message after it);
/// - a `parameters.prompt` is user text the input does not hold: the whole formatted prompt is put
///   in a text block the same way (for text input, before the text);
/// - the prompt-only request (`{"parameters": {"prompt": ...}}`, no `input`): the
///   formatted prompt is the text input.
///
/// # Errors
/// Every `schema_violation` (or, for a stored schema that no longer compiles, `invalid_schema`).
pub fn apply(request: &mut ExecuteRequest<'_>, schema: &Value) -> Result<(), Report> {
    let formatted = Schema::new(schema).and_then(|schema| schema.apply(request))?;
    if request.input_path == Path::root().key("parameters").key("prompt") {
        request.input = AgentInput::Text(Cow::Owned(formatted));
        return Ok(());
    }
    let prompt_given = request.parameters.contains_key("prompt");
    let text = if prompt_given {
        formatted
    } else {
        let prompt = request.input.question();
        // `<inputs>…</inputs>\n\n` + prompt, or the prompt alone when there is nothing else.
        match formatted.strip_suffix(prompt.as_str()) {
            Some(block) if !block.is_empty() => block.trim_end_matches('\n').to_string() + "\n",
            _ => return Ok(()),
        }
    };
    match &mut request.input {
        AgentInput::Text(input) if !prompt_given => {
            // The block, a blank line, the prompt: the formatted prompt itself.
            *input = Cow::Owned(format!("{text}\n{input}"));
        }
        AgentInput::Text(input) => {
            let input = std::mem::take(input);
            request.input = AgentInput::Blocks(vec![ContentBlock::Text(Cow::Owned(text)), ContentBlock::Text(input)]);
        }
        AgentInput::Blocks(blocks) => blocks.insert(0, ContentBlock::Text(Cow::Owned(text))),
        AgentInput::Messages(messages) => {
            let block = ContentBlock::Text(Cow::Owned(text));
            match messages.last_mut() {
                Some(message) if message.role == Role::User => message.content.insert(0, block),
                // After tool results (or another role): a user message of its own.
                _ => messages.push(Message::user(vec![block])),
            }
        }
    }
    Ok(())
}

fn under(prefix: &Path, report: Report) -> Report {
    let rebase = |mut d: Diagnostic| {
        let mut path = prefix.clone();
        for segment in d.path.segments() {
            path = match segment {
                agent_input::Segment::Key(key) => path.key(key),
                agent_input::Segment::Index(i) => path.index(*i),
            };
        }
        d.path = path;
        d
    };
    Report {
        errors: report.errors.into_iter().map(rebase).collect(),
        warnings: report.warnings.into_iter().map(rebase).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_input::validate;
    use serde_json::json;

    fn applied(request: &Value, schema: &Value) -> Result<Value, Report> {
        let document = validate::document(request);
        let (mut request, _) = validate::validate_request(&document, &validate::Options::default()).into_result()?;
        apply(&mut request, schema)?;
        Ok(serde_json::to_value(request.input.into_messages()).unwrap())
    }

    fn texts(messages: &Value) -> Vec<String> {
        let mut out = Vec::new();
        for message in messages.as_array().unwrap() {
            for block in message["content"].as_array().unwrap() {
                out.push(format!("{}:{}", message["role"].as_str().unwrap(), block["text"].as_str().unwrap_or("-")));
            }
        }
        out
    }

    const SCHEMA: &str = r#"{"properties": {"topic": {"type": "string"}}}"#;

    #[test]
    fn text_input_becomes_the_formatted_prompt() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        let got = applied(&json!({"input": "Write.", "parameters": {"topic": "AI"}}), &schema).unwrap();
        assert_eq!(texts(&got), ["user:<inputs>\ntopic: AI\n</inputs>\n\nWrite."]);
        let legacy = applied(&json!({"parameters": {"question": "Write.", "topic": "AI"}}), &schema).unwrap();
        assert_eq!(texts(&legacy), ["user:<inputs>\ntopic: AI\n</inputs>\n\nWrite."]);
        // Nothing to add: unchanged.
        let plain = applied(&json!({"input": "Write.", "parameters": {"memory_id": "m"}}), &schema).unwrap();
        assert_eq!(texts(&plain), ["user:Write."]);
    }

    #[test]
    fn blocks_and_messages_get_the_block_before_the_user_turn() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        let blocks = json!({"input": [{"type": "text", "text": "Look."}], "parameters": {"topic": "AI"}});
        assert_eq!(texts(&applied(&blocks, &schema).unwrap()), ["user:<inputs>\ntopic: AI\n</inputs>\n", "user:Look."]);
        let messages = json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "Hi"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Hello"}]},
            {"role": "user", "content": [{"type": "text", "text": "Go"}]}], "parameters": {"topic": "AI"}});
        assert_eq!(
            texts(&applied(&messages, &schema).unwrap()),
            ["user:Hi", "assistant:Hello", "user:<inputs>\ntopic: AI\n</inputs>\n", "user:Go"]
        );
        let tool_result = json!({"input": [
            {"role": "user", "content": [{"type": "text", "text": "Weather?"}]},
            {"role": "assistant", "toolCalls": [{"id": "c1", "function": {"name": "f", "arguments": "{}"}}]},
            {"role": "tool", "toolCallId": "c1", "content": [{"type": "text", "text": "72F"}]}],
            "parameters": {"topic": "AI"}});
        assert_eq!(
            texts(&applied(&tool_result, &schema).unwrap()),
            ["user:Weather?", "tool:72F", "user:<inputs>\ntopic: AI\n</inputs>\n"]
        );
    }

    #[test]
    fn a_prompt_parameter_is_sent_with_its_block() {
        let schema: Value = serde_json::from_str(SCHEMA).unwrap();
        let got =
            applied(&json!({"input": "Context.", "parameters": {"prompt": "Do it.", "topic": "AI"}}), &schema).unwrap();
        assert_eq!(texts(&got), ["user:<inputs>\ntopic: AI\n</inputs>\n\nDo it.", "user:Context."]);
    }

    #[test]
    fn violations_and_bad_schemas_are_reported() {
        let schema = json!({"required": ["topic"], "properties": {"topic": {"type": "string"}}});
        let report = applied(&json!({"input": "Write.", "parameters": {"other": 1}}), &schema).unwrap_err();
        assert_eq!(report.errors[0].path.to_string(), "/parameters/topic");
        let report = registered(Some(&json!({"properties": {"a": {"type": "integr"}}}))).unwrap_err();
        assert_eq!(report.errors[0].path.to_string(), "/parameters_schema/properties/a/type");
        assert_eq!(registered(Some(&Value::Null)).unwrap(), None);
    }
}
