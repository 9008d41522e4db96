//! OpenAI Chat Completions request rules, checked on a converted body. Written from OpenAI's API
//! reference ("Chat › Create chat completion", and its schemas in OpenAI's published OpenAPI
//! description: `CreateChatCompletionRequest`, `ChatCompletionRequest{System,Developer,User,
//! Assistant,Tool}Message`, `ChatCompletionRequestMessageContentPart{Text,Image,File}`,
//! `ChatCompletionMessageToolCall`, `FunctionObject`, `StopConfiguration`), the "Images and
//! vision" guide (limits) and the "File inputs" guide (PDFs). The model is added by the caller,
//! so it is not required here.

use std::collections::HashSet;

use serde_json::Value;

use super::{Check, NULL, data_url, decoded_len, is_base64, is_json_object_text, is_plain_name, is_web_url};

/// "Images and vision": up to 500 image inputs per request, 50 MB of image payload in total.
const MAX_IMAGES: usize = 500;
const MAX_IMAGE_BYTES: usize = 50 * 1024 * 1024;
/// "File inputs": 32 MB of file content per request.
const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;
/// `StopConfiguration`: up to 4 sequences.
const MAX_STOPS: usize = 4;

/// Every rule the body breaks, each as `<JSON pointer>: <rule>`; empty when it satisfies them all.
pub fn violations(body: &Value) -> Vec<String> {
    let mut c = Rules::default();
    c.body(body);
    c.check.problems
}

#[derive(Default)]
struct Rules {
    check: Check,
    images: usize,
    image_bytes: usize,
    file_bytes: usize,
}

impl Rules {
    fn body(&mut self, body: &Value) {
        let allowed = [
            "model",
            "max_completion_tokens",
            "temperature",
            "top_p",
            "stop",
            "tools",
            "tool_choice",
            "response_format",
            "reasoning_effort",
            // The request's other members (`CreateChatCompletionRequest`), which a body carries as
            // provider fields: allowed, their values the API's to check.
            "audio",
            "frequency_penalty",
            "logit_bias",
            "logprobs",
            "metadata",
            "modalities",
            "n",
            "parallel_tool_calls",
            "prediction",
            "presence_penalty",
            "prompt_cache_key",
            "prompt_cache_retention",
            "safety_identifier",
            "seed",
            "service_tier",
            "store",
            "stream",
            "stream_options",
            "top_logprobs",
            "user",
            "verbosity",
            "web_search_options",
        ];
        let Some(top) = self.check.shape(body, &["messages"], &allowed, "") else { return };
        // "Reasoning": reasoning_effort minimal | low | medium | high.
        if let Some(effort) = top.get("reasoning_effort") {
            let effort = effort.as_str().or(Some(""));
            self.check.one_of(effort, &["minimal", "low", "medium", "high"], "/reasoning_effort");
        }
        self.check.integer_at_least(top.get("max_completion_tokens"), 1, "/max_completion_tokens");
        self.check.number_in(top.get("temperature"), 0.0, 2.0, "/temperature");
        self.check.number_in(top.get("top_p"), 0.0, 1.0, "/top_p");
        if let Some(stop) = top.get("stop") {
            let stops = self.check.array(Some(stop), true, "/stop");
            if stops.len() > MAX_STOPS {
                self.check.fail("/stop", format!("at most {MAX_STOPS} stop sequences, not {}", stops.len()));
            }
            for (i, s) in stops.iter().enumerate() {
                self.check.string(Some(s), &format!("/stop/{i}"));
            }
        }
        let mut names = HashSet::new();
        for (i, tool) in self.check.array(top.get("tools"), false, "/tools").iter().enumerate() {
            let path = format!("/tools/{i}");
            // `ChatCompletionCustomTool`: {"type": "custom", "custom": {"name", ...}}.
            if tool.get("type").and_then(Value::as_str) == Some("custom") {
                self.check.shape(tool, &["type", "custom"], &[], &path);
                continue;
            }
            let Some(tool) = self.check.shape(tool, &["type", "function"], &[], &path) else { continue };
            self.check.one_of(tool.get("type").and_then(Value::as_str), &["function"], &format!("{path}/type"));
            let path = format!("{path}/function");
            let Some(function) =
                self.check.shape(&tool["function"], &["name"], &["description", "parameters", "strict"], &path)
            else {
                continue;
            };
            if let Some(name) = self.check.string(function.get("name"), &format!("{path}/name")) {
                // `FunctionObject.name`: a-z, A-Z, 0-9, underscores and dashes, at most 64.
                if !is_plain_name(name, 64) {
                    self.check.fail(&format!("{path}/name"), "must be 1-64 of a-z, A-Z, 0-9, _ and -");
                }
                if !names.insert(name.to_string()) {
                    self.check.fail(&format!("{path}/name"), "two tools share this name");
                }
            }
            self.check.string(function.get("description"), &format!("{path}/description"));
            self.check.object_schema(function.get("parameters"), &format!("{path}/parameters"));
        }
        let tools: Vec<&str> = names.iter().map(String::as_str).collect();
        self.check.openai_tool_choice(top.get("tool_choice"), &tools, true);
        // `response_format`: {"type": "json_schema", "json_schema": {"name", "schema"?, ...}}.
        if let Some(format) = top.get("response_format")
            && let Some(format) = self.check.shape(format, &["type", "json_schema"], &[], "/response_format")
        {
            let kind = format.get("type").and_then(Value::as_str).or(Some(""));
            self.check.one_of(kind, &["json_schema"], "/response_format/type");
            let allowed = ["description", "schema", "strict"];
            let path = "/response_format/json_schema";
            let schema = format.get("json_schema").unwrap_or(&NULL);
            if let Some(schema) = self.check.shape(schema, &["name"], &allowed, path) {
                self.check.openai_json_schema(schema, path);
            }
        }
        let messages = self.check.array(top.get("messages"), true, "/messages");
        self.messages(messages);
        if self.images > MAX_IMAGES {
            self.check.fail("/messages", format!("at most {MAX_IMAGES} images, not {}", self.images));
        }
        if self.image_bytes > MAX_IMAGE_BYTES {
            self.check.fail("/messages", format!("images total {} bytes, over 50 MB", self.image_bytes));
        }
        if self.file_bytes > MAX_FILE_BYTES {
            self.check.fail("/messages", format!("files total {} bytes, over 32 MB", self.file_bytes));
        }
    }

    fn messages(&mut self, messages: &[Value]) {
        // Tool calls waiting for their `tool` messages, which must follow the assistant message
        // directly ("messages with role 'tool' must be a response to a preceding message with
        // 'tool_calls'").
        let mut open: Vec<String> = Vec::new();
        for (i, message) in messages.iter().enumerate() {
            let path = format!("/messages/{i}");
            let role = message.get("role").and_then(Value::as_str).unwrap_or_default();
            if role != "tool" && !open.is_empty() {
                self.check.fail(&path, format!("tool calls {open:?} are not answered before this message"));
                open.clear();
            }
            match role {
                "system" | "developer" => {
                    if self.check.shape(message, &["role", "content"], &["name"], &path).is_some() {
                        self.text_content(&message["content"], &format!("{path}/content"));
                    }
                }
                "user" => {
                    if self.check.shape(message, &["role", "content"], &["name"], &path).is_some() {
                        self.user_content(&message["content"], &format!("{path}/content"));
                    }
                }
                "assistant" => {
                    let allowed = ["content", "tool_calls", "name", "refusal"];
                    let Some(object) = self.check.shape(message, &["role"], &allowed, &path) else { continue };
                    let calls = self.check.array(object.get("tool_calls"), true, &format!("{path}/tool_calls"));
                    match object.get("content") {
                        None | Some(Value::Null) if calls.is_empty() => {
                            self.check.fail(&path, "content is required unless tool_calls is given");
                        }
                        None | Some(Value::Null) => {}
                        Some(content) => self.text_content(content, &format!("{path}/content")),
                    }
                    for (j, call) in calls.iter().enumerate() {
                        if let Some(id) = self.tool_call(call, &format!("{path}/tool_calls/{j}")) {
                            open.push(id);
                        }
                    }
                }
                "tool" => {
                    let Some(object) = self.check.shape(message, &["role", "content", "tool_call_id"], &[], &path)
                    else {
                        continue;
                    };
                    self.text_content(&message["content"], &format!("{path}/content"));
                    if let Some(id) = self.check.string(object.get("tool_call_id"), &format!("{path}/tool_call_id")) {
                        match open.iter().position(|o| o == id) {
                            Some(k) => {
                                open.remove(k);
                            }
                            None => self.check.fail(
                                &format!("{path}/tool_call_id"),
                                "answers no tool call of the assistant message before it",
                            ),
                        }
                    }
                }
                other => self.check.fail(&format!("{path}/role"), format!("unknown role {other:?}")),
            }
        }
        if !open.is_empty() {
            self.check.fail("/messages", format!("tool calls {open:?} are never answered"));
        }
    }

    /// `ChatCompletionMessageToolCall`; returns its id.
    fn tool_call(&mut self, call: &Value, path: &str) -> Option<String> {
        let object = self.check.shape(call, &["id", "type", "function"], &[], path)?;
        self.check.one_of(object.get("type").and_then(Value::as_str), &["function"], &format!("{path}/type"));
        if let Some(function) =
            self.check.shape(&call["function"], &["name", "arguments"], &[], &format!("{path}/function"))
        {
            self.check.string(function.get("name"), &format!("{path}/function/name"));
            if let Some(arguments) = self.check.string(function.get("arguments"), &format!("{path}/function/arguments"))
                && !is_json_object_text(arguments)
            {
                self.check.fail(&format!("{path}/function/arguments"), "must be a JSON object as text");
            }
        }
        self.check.string(object.get("id"), &format!("{path}/id")).map(str::to_string)
    }

    /// System, developer, assistant and tool content: a string or a non-empty list of text parts.
    fn text_content(&mut self, content: &Value, path: &str) {
        if content.is_string() {
            return;
        }
        for (i, part) in self.check.array(Some(content), true, path).iter().enumerate() {
            let path = format!("{path}/{i}");
            if self.check.shape(part, &["type", "text"], &[], &path).is_some() {
                self.check.one_of(part["type"].as_str(), &["text"], &format!("{path}/type"));
                self.check.string(part.get("text"), &format!("{path}/text"));
            }
        }
    }

    /// User content: a string or a non-empty list of text, image_url and file parts.
    fn user_content(&mut self, content: &Value, path: &str) {
        if content.is_string() {
            return;
        }
        for (i, part) in self.check.array(Some(content), true, path).iter().enumerate() {
            let path = format!("{path}/{i}");
            match part.get("type").and_then(Value::as_str) {
                Some("text") => {
                    if self.check.shape(part, &["type", "text"], &[], &path).is_some() {
                        self.check.string(part.get("text"), &format!("{path}/text"));
                    }
                }
                Some("image_url") => self.image(part, &path),
                Some("file") => self.file(part, &path),
                other => self.check.fail(&format!("{path}/type"), format!("unknown content part type {other:?}")),
            }
        }
    }

    /// `image_url.url`: a web URL or a `data:image/...;base64,` URL ("Images and vision").
    fn image(&mut self, part: &Value, path: &str) {
        self.images += 1;
        if self.check.shape(part, &["type", "image_url"], &[], path).is_none() {
            return;
        }
        let path = format!("{path}/image_url");
        let Some(image) = self.check.shape(&part["image_url"], &["url"], &["detail"], &path) else { return };
        self.check.one_of(
            image.get("detail").and_then(Value::as_str),
            &["auto", "low", "high"],
            &format!("{path}/detail"),
        );
        let Some(url) = self.check.string(image.get("url"), &format!("{path}/url")) else { return };
        match data_url(url) {
            Some((mime, data)) => {
                self.check.one_of(
                    Some(mime),
                    &["image/png", "image/jpeg", "image/gif", "image/webp"],
                    &format!("{path}/url"),
                );
                if !is_base64(data) {
                    self.check.fail(&format!("{path}/url"), "the data URL must hold standard base64");
                }
                self.image_bytes += decoded_len(data);
            }
            None if is_web_url(url) => {}
            None => self.check.fail(&format!("{path}/url"), "must be an http(s) URL or a base64 data: URL"),
        }
    }

    /// `file`: a PDF as `file_data` (a base64 data: URL) with its `filename` ("File inputs").
    fn file(&mut self, part: &Value, path: &str) {
        if self.check.shape(part, &["type", "file"], &[], path).is_none() {
            return;
        }
        let path = format!("{path}/file");
        let Some(file) = self.check.shape(&part["file"], &[], &["filename", "file_data", "file_id"], &path) else {
            return;
        };
        if !file.contains_key("file_data") && !file.contains_key("file_id") {
            self.check.fail(&path, "needs file_data or file_id");
        }
        if let Some(data) = self.check.string(file.get("file_data"), &format!("{path}/file_data")) {
            if !file.contains_key("filename") {
                self.check.fail(&path, "file_data needs a filename");
            }
            match data_url(data) {
                Some(("application/pdf", data)) if is_base64(data) => self.file_bytes += decoded_len(data),
                _ => self.check.fail(&format!("{path}/file_data"), "must be a data:application/pdf;base64, URL"),
            }
        }
        if let Some(name) = self.check.string(file.get("filename"), &format!("{path}/filename"))
            && name.is_empty()
        {
            self.check.fail(&format!("{path}/filename"), "must not be empty");
        }
    }
}
