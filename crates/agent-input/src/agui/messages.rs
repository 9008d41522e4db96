//! AG-UI messages and their content and the run's tools, read into standard messages (as JSON,
//! for the standard validator) and tool specs.

use serde_json::{Map, Value, json};

use super::media::Kind;
use super::origin::{BlockOrigin, MessageOrigin};
use super::reader::{Reader, audio, wrong};
use super::reasoning;
use crate::convert::ToolSpec;
use crate::diagnostic::{Code, Diagnostic};
use crate::path::Path;

impl Reader {
    /// One AG-UI message as a standard message (JSON) and where its parts came from; `None` when
    /// it has a problem (reported) or carries nothing for a model (activity, reasoning).
    pub(super) fn message(&mut self, message: &Value, at: &Path) -> Option<(Value, MessageOrigin)> {
        let Some(object) = message.as_object() else {
            self.report.push(wrong(at, "a message", "object", message));
            return None;
        };
        let role = match object.get("role") {
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, at.key("role"), "a message needs a `role`"));
                return None;
            }
            Some(Value::String(role)) => role.as_str(),
            Some(other) => {
                self.report.push(wrong(&at.key("role"), "role", "string", other));
                return None;
            }
        };
        let mut origin = MessageOrigin { message: at.clone(), blocks: Vec::new(), reasoning: None };
        if role != "assistant" && object.get("encryptedValue").is_some_and(|value| !value.is_null()) {
            self.report.push(Diagnostic::new(
                Code::FieldIgnored,
                at.key("encryptedValue"),
                format!("an AG-UI `{role}` message's `encryptedValue` is not sent to the model: only an assistant message and its tool calls carry reasoning state back"),
            ));
        }
        let standard = match role {
            "user" => {
                let content = self.content(object, at, &mut origin)?;
                json!({"role": "user", "content": content})
            }
            "system" | "developer" => {
                let content = self.content(object, at, &mut origin)?;
                json!({"role": "system", "content": content})
            }
            "assistant" => {
                let content = match object.get("content") {
                    // A turn of tool calls only often carries `""`.
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::String(text)) if text.trim().is_empty() => Vec::new(),
                    Some(_) => self.content(object, at, &mut origin)?,
                };
                let blocks = content.len();
                let mut out = json!({"role": "assistant", "content": content});
                let mut call_values = Vec::new();
                match object.get("toolCalls") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(calls)) => {
                        let mut calls = calls.clone();
                        for (j, call) in calls.iter_mut().enumerate() {
                            if let Some(call) = call.as_object_mut()
                                && let Some(value) = call.remove("encryptedValue")
                            {
                                call_values.push((j, value));
                            }
                        }
                        out["toolCalls"] = Value::Array(calls);
                    }
                    Some(other) => {
                        self.report.push(wrong(&at.key("toolCalls"), "toolCalls", "array", other));
                        return None;
                    }
                }
                if let Some(state) =
                    self.reasoning_state(object.get("encryptedValue"), &call_values, blocks, at, &mut origin)
                {
                    out["reasoningState"] = state;
                }
                out
            }
            "tool" => {
                let content = self.content(object, at, &mut origin)?;
                let mut out = json!({"role": "tool", "content": content});
                match object.get("toolCallId") {
                    Some(id @ Value::String(_)) => out["toolCallId"] = id.clone(),
                    None => {
                        self.report.push(Diagnostic::new(
                            Code::MissingField,
                            at.key("toolCallId"),
                            "a tool message needs the `toolCallId` of the call it answers",
                        ));
                        return None;
                    }
                    Some(other) => {
                        self.report.push(wrong(&at.key("toolCallId"), "toolCallId", "string", other));
                        return None;
                    }
                }
                out
            }
            "activity" | "reasoning" => {
                self.report.push(Diagnostic::new(
                    Code::FieldIgnored,
                    at.clone(),
                    format!("an AG-UI `{role}` message is not sent to the model"),
                ));
                return None;
            }
            _ => {
                self.report.push(
                    Diagnostic::new(
                        Code::InvalidRole,
                        at.key("role"),
                        "an AG-UI message's role is user, assistant, system, developer or tool",
                    )
                    .expected(["user", "assistant", "system", "developer", "tool"])
                    .received(role),
                );
                return None;
            }
        };
        Some((standard, origin))
    }

    /// The `reasoningState` an assistant message's `encryptedValue` and its tool calls' carry back
    /// ([`super::reasoning`]); `None` when there is none. A value not of that form, or one of
    /// another provider than the first, is ignored with a warning.
    fn reasoning_state(
        &mut self,
        message: Option<&Value>,
        calls: &[(usize, Value)],
        blocks: usize,
        at: &Path,
        origin: &mut MessageOrigin,
    ) -> Option<Value> {
        let mut provider: Option<String> = None;
        let mut message_items = Vec::new();
        let mut call_items = Vec::new();
        let values = message.map(|value| (None, at.key("encryptedValue"), value)).into_iter().chain(
            calls.iter().map(|(j, value)| (Some(*j), at.key("toolCalls").index(*j).key("encryptedValue"), value)),
        );
        for (call, path, value) in values {
            let text = match value {
                Value::Null => continue,
                Value::String(text) => text,
                other => {
                    self.report.push(wrong(&path, "encryptedValue", "string", other));
                    continue;
                }
            };
            let Some(read) = reasoning::read(text) else {
                self.report.push(Diagnostic::new(
                    Code::FieldIgnored,
                    path,
                    "this encryptedValue is not reasoning state as agent-input writes it (the JSON text of `{\"provider\", \"items\"}`): it is not sent to the model",
                ));
                continue;
            };
            match &provider {
                Some(first) if *first != read.provider => {
                    self.report.push(
                        Diagnostic::new(
                            Code::FieldIgnored,
                            path,
                            format!(
                                "this encryptedValue is reasoning state of {}, while the message's is of {first}: one message holds one provider's state, so it is not sent",
                                read.provider
                            ),
                        )
                        .received(read.provider),
                    );
                    continue;
                }
                Some(_) => {}
                None => {
                    provider = Some(read.provider);
                    origin.reasoning = Some(path);
                }
            }
            match call {
                None => message_items = read.items,
                Some(j) => call_items.push((j, read.items)),
            }
        }
        Some(reasoning::join(&provider?, message_items, call_items, blocks))
    }

    /// `content`: a string becomes one text block, parts become blocks.
    fn content(&mut self, object: &Map<String, Value>, at: &Path, origin: &mut MessageOrigin) -> Option<Vec<Value>> {
        let path = at.key("content");
        match object.get("content") {
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, path, "a message needs `content`"));
                None
            }
            Some(Value::String(text)) => {
                origin.blocks.push(BlockOrigin { part: path.clone(), data: path.clone(), mime_type: path });
                Some(vec![json!({"type": "text", "text": text})])
            }
            Some(Value::Array(parts)) => {
                let mut blocks = Vec::new();
                let mut ok = true;
                for (j, part) in parts.iter().enumerate() {
                    let part_path = path.index(j);
                    match self.part(part, &part_path) {
                        Some((block, block_origin)) => {
                            blocks.push(block);
                            origin.blocks.push(block_origin);
                        }
                        None => ok = false,
                    }
                }
                ok.then_some(blocks)
            }
            Some(other) => {
                self.report.push(wrong(&path, "content", "string or array of parts", other));
                None
            }
        }
    }

    fn part(&mut self, part: &Value, at: &Path) -> Option<(Value, BlockOrigin)> {
        let Some(object) = part.as_object() else {
            self.report.push(wrong(at, "a content part", "object", part));
            return None;
        };
        let kind = match object.get("type") {
            Some(Value::String(kind)) => kind.as_str(),
            None => {
                self.report.push(Diagnostic::new(Code::MissingField, at.key("type"), "a content part needs a `type`"));
                return None;
            }
            Some(other) => {
                self.report.push(wrong(&at.key("type"), "type", "string", other));
                return None;
            }
        };
        match kind {
            "text" => {
                let text = self.string(object, at, "text");
                if text.is_none() && !object.contains_key("text") {
                    self.report.push(Diagnostic::new(Code::MissingField, at.key("text"), "a text part needs `text`"));
                }
                let origin = BlockOrigin { part: at.clone(), data: at.key("text"), mime_type: at.clone() };
                Some((json!({"type": "text", "text": text?}), origin))
            }
            "binary" => self.binary(object, at),
            "image" | "video" | "document" => self.media(object, at, Kind::parse(kind)),
            "audio" => {
                self.report.push(audio(at.key("type")));
                None
            }
            _ => {
                self.report.push(
                    Diagnostic::new(
                        Code::UnsupportedContentType,
                        at.key("type"),
                        "an AG-UI content part is text, image, video, document or binary",
                    )
                    .expected(["text", "image", "video", "document", "binary"])
                    .received(kind),
                );
                None
            }
        }
    }

    pub(super) fn tool(&mut self, tool: &Value, at: &Path) -> Option<ToolSpec> {
        let Some(object) = tool.as_object() else {
            self.report.push(wrong(at, "a tool", "object", tool));
            return None;
        };
        let name = self.string(object, at, "name");
        if name.is_none() && !object.contains_key("name") {
            self.report.push(Diagnostic::new(Code::MissingField, at.key("name"), "a tool needs a `name`"));
        }
        let description = self.string(object, at, "description");
        let input_schema = match object.get("parameters") {
            None | Some(Value::Null) => None,
            Some(schema @ Value::Object(_)) => Some(schema.clone()),
            Some(other) => {
                self.report.push(wrong(&at.key("parameters"), "parameters", "object (a JSON Schema)", other));
                return None;
            }
        };
        let name = name?;
        if name.trim().is_empty() {
            self.report.push(Diagnostic::new(Code::EmptyField, at.key("name"), "a tool's name must not be blank"));
            return None;
        }
        Some(ToolSpec::new(name, description.filter(|d| !d.is_empty()), input_schema))
    }
}
