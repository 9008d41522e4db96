//! Anthropic Messages request rules, checked on a converted body. Written from Anthropic's API
//! reference ("Messages › Create a Message": `max_tokens`, `messages`, `system`, `temperature`
//! 0–1, `top_p`, `stop_sequences`, `tools` with `name` and `input_schema`; the content block
//! params `text`, `image`, `document`, `tool_use`, `tool_result` and their sources), the "Vision"
//! guide (image media types, 100 images, 5 MB per image), the "PDF support" guide, the "Tool use"
//! guide (tool names `^[a-zA-Z0-9_-]{1,64}$`, `tool_use` ids `^[a-zA-Z0-9_-]+$`, results first
//! in the next user turn, every `tool_use` answered there) and the API's "Errors" page (32 MB
//! request size), and "Migrating to Claude 4.5" (`temperature` or `top_p`, not both). The model
//! is added by the caller, so it is not required here.

use std::collections::HashSet;

use serde_json::Value;

use super::{Check, NULL, decoded_len, is_base64, is_plain_name, is_web_url};

/// "Vision": up to 100 images per request, each at most 5 MB.
const MAX_IMAGES: usize = 100;
const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// "Errors" (request size limits): 32 MB for the Messages API.
const MAX_REQUEST_BYTES: usize = 32 * 1024 * 1024;

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
    tool_blocks: usize,
    cache_points: usize,
}

fn is_tool_use_id(id: &str) -> bool {
    !id.is_empty() && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

impl Rules {
    fn body(&mut self, body: &Value) {
        let allowed = [
            "model",
            "system",
            "temperature",
            "top_p",
            "stop_sequences",
            "tools",
            "tool_choice",
            "thinking",
            "output_config",
            // The request's other members ("Messages › Create a Message"), which a body carries as
            // provider fields: allowed, their values the API's to check.
            "container",
            "context_management",
            "mcp_servers",
            "metadata",
            "service_tier",
            "stream",
            "top_k",
        ];
        let Some(top) = self.check.shape(body, &["max_tokens", "messages"], &allowed, "") else { return };
        self.check.integer_at_least(top.get("max_tokens"), 1, "/max_tokens");
        self.check.number_in(top.get("temperature"), 0.0, 1.0, "/temperature");
        self.check.number_in(top.get("top_p"), 0.0, 1.0, "/top_p");
        // "Migrating to Claude 4.5": current models take temperature or top_p, not both.
        if top.contains_key("temperature") && top.contains_key("top_p") {
            self.check.fail("/top_p", "temperature and top_p are not both allowed");
        }
        for (i, stop) in self.check.array(top.get("stop_sequences"), false, "/stop_sequences").iter().enumerate() {
            self.check.string(Some(stop), &format!("/stop_sequences/{i}"));
        }
        match top.get("system") {
            None | Some(Value::String(_)) => {}
            Some(system) => {
                for (i, block) in self.check.array(Some(system), false, "/system").iter().enumerate() {
                    self.text_block(block, &format!("/system/{i}"));
                }
            }
        }
        let mut names = HashSet::new();
        let tools = self.check.array(top.get("tools"), false, "/tools");
        for (i, tool) in tools.iter().enumerate() {
            let path = format!("/tools/{i}");
            // "Tool use › Server tools" and Anthropic-defined client tools (`web_search_20250305`,
            // `bash_20250124`, `text_editor_*`): a `type` naming the tool and version, and a `name`;
            // their other members are the tool's own.
            if let Some(kind) = tool.get("type").and_then(Value::as_str).filter(|kind| *kind != "custom") {
                if kind.is_empty() {
                    self.check.fail(&format!("{path}/type"), "must name the tool and its version");
                }
                if let Some(name) = self.check.string(tool.get("name"), &format!("{path}/name"))
                    && !names.insert(name.to_string())
                {
                    self.check.fail(&format!("{path}/name"), "two tools share this name");
                }
                continue;
            }
            // "Tool use › Specifying client tools": a custom tool's optional members.
            let optional = [
                "description",
                "cache_control",
                "type",
                "defer_loading",
                "allowed_callers",
                "input_examples",
                "strict",
                "eager_input_streaming",
            ];
            let Some(tool) = self.check.shape(tool, &["name", "input_schema"], &optional, &path) else {
                continue;
            };
            self.cache_control(tool.get("cache_control"), &path);
            if let Some(name) = self.check.string(tool.get("name"), &format!("{path}/name")) {
                if !is_plain_name(name, 64) {
                    self.check.fail(&format!("{path}/name"), "must match ^[a-zA-Z0-9_-]{1,64}$");
                }
                if !names.insert(name.to_string()) {
                    self.check.fail(&format!("{path}/name"), "two tools share this name");
                }
            }
            self.check.string(tool.get("description"), &format!("{path}/description"));
            self.check.object_schema(tool.get("input_schema"), &format!("{path}/input_schema"));
        }
        // "Tool use": tool_choice {"type": "auto" | "any" | "none"} or {"type": "tool", "name"}.
        if let Some(choice) = top.get("tool_choice")
            && let Some(choice) =
                self.check.shape(choice, &["type"], &["name", "disable_parallel_tool_use"], "/tool_choice")
        {
            let kind = choice.get("type").and_then(Value::as_str);
            self.check.one_of(kind, &["auto", "any", "none", "tool"], "/tool_choice/type");
            let names: Vec<&str> = tools.iter().filter_map(|t| t.get("name").and_then(Value::as_str)).collect();
            if kind == Some("tool") {
                self.check.named_tool(choice.get("name"), &names, "/tool_choice/name");
            } else if choice.contains_key("name") {
                self.check.fail("/tool_choice/name", "only a tool choice of type tool names a tool");
            }
        }
        // "Extended thinking": thinking {"type": "enabled", "budget_tokens" ≥ 1024 and below
        // max_tokens} or {"type": "adaptive"}; output_config.effort low | medium | high | max.
        if let Some(thinking) = top.get("thinking")
            && let Some(thinking) = self.check.shape(thinking, &["type"], &["budget_tokens"], "/thinking")
        {
            let kind = thinking.get("type").and_then(Value::as_str);
            self.check.one_of(kind, &["enabled", "adaptive", "disabled"], "/thinking/type");
            if kind == Some("enabled") {
                self.check.integer_at_least(thinking.get("budget_tokens"), 1024, "/thinking/budget_tokens");
                let budget = thinking.get("budget_tokens").and_then(Value::as_u64).unwrap_or(0);
                if top.get("max_tokens").and_then(Value::as_u64).is_some_and(|max| budget >= max) {
                    self.check.fail("/thinking/budget_tokens", "must be below max_tokens");
                }
                if top.contains_key("temperature") {
                    self.check.fail("/temperature", "thinking is not compatible with temperature");
                }
            }
        }
        if let Some(effort) = top.get("output_config").and_then(|c| c.get("effort")) {
            let effort = effort.as_str().or(Some(""));
            self.check.one_of(effort, &["low", "medium", "high", "max"], "/output_config/effort");
        }
        // "Structured outputs": output_config.format {"type": "json_schema", "schema": {...}}.
        if let Some(config) = top.get("output_config")
            && let Some(config) = self.check.shape(config, &[], &["format", "effort"], "/output_config")
            && let Some(format) = config.get("format")
            && let Some(format) = self.check.shape(format, &["type", "schema"], &[], "/output_config/format")
        {
            self.check.one_of(
                format.get("type").and_then(Value::as_str),
                &["json_schema"],
                "/output_config/format/type",
            );
            self.check.object(format.get("schema").unwrap_or(&NULL), "/output_config/format/schema");
        }
        let messages = self.check.array(top.get("messages"), true, "/messages");
        self.messages(messages);
        // "Prompt caching": at most 4 cache breakpoints in one request.
        if self.cache_points > 4 {
            self.check.fail("", format!("{} cache_control breakpoints, at most 4", self.cache_points));
        }
        if self.tool_blocks > 0 && tools.is_empty() {
            self.check.fail("/tools", "tool_use and tool_result blocks need the tools they refer to");
        }
        if self.images > MAX_IMAGES {
            self.check.fail("/messages", format!("at most {MAX_IMAGES} images, not {}", self.images));
        }
        let size = body.to_string().len();
        if size > MAX_REQUEST_BYTES {
            self.check.fail("", format!("the request is {size} bytes, over 32 MB"));
        }
    }

    fn messages(&mut self, messages: &[Value]) {
        let mut open: Vec<String> = Vec::new(); // tool_use ids of the assistant turn before
        let mut previous = None;
        for (i, message) in messages.iter().enumerate() {
            let path = format!("/messages/{i}");
            let Some(object) = self.check.shape(message, &["role", "content"], &[], &path) else { continue };
            let role = object.get("role").and_then(Value::as_str);
            self.check.one_of(role, &["user", "assistant"], &format!("{path}/role"));
            if i == 0 && role != Some("user") {
                self.check.fail(&format!("{path}/role"), "the first message must be a user turn");
            }
            if role.is_some() && role == previous {
                self.check.fail(&format!("{path}/role"), "user and assistant turns must alternate");
            }
            previous = role;
            let blocks = match &message["content"] {
                Value::String(text) if text.is_empty() => {
                    self.check.fail(&format!("{path}/content"), "must not be empty");
                    &[][..]
                }
                Value::String(_) => &[][..],
                content => self.check.array(Some(content), true, &format!("{path}/content")),
            };
            let mut answered = Vec::new();
            let mut results_done = false;
            let mut calls = Vec::new();
            let mut server_calls: Vec<&str> = Vec::new();
            for (j, block) in blocks.iter().enumerate() {
                let path = format!("{path}/content/{j}");
                let kind = block.get("type").and_then(Value::as_str);
                if kind != Some("tool_result") {
                    results_done = true;
                }
                match (kind, role) {
                    (Some("text"), _) => self.text_block(block, &path),
                    (Some("image"), Some("user")) => self.image(block, &path),
                    (Some("document"), Some("user")) => self.document(block, &path),
                    (Some("tool_use"), Some("assistant")) => calls.extend(self.tool_use(block, &path)),
                    (Some("tool_result"), Some("user")) => {
                        if results_done {
                            self.check.fail(&path, "tool_result blocks must come first in their user turn");
                        }
                        answered.extend(self.tool_result(block, &path));
                    }
                    // Server tools ("Web search tool", "Code execution tool", "Tool search tool"): the
                    // call and its result, both in the assistant's turn, the result answering the call.
                    (Some("server_tool_use"), Some("assistant")) => {
                        if let Some(call) = self.check.shape(block, &["type", "id", "name", "input"], &[], &path) {
                            server_calls.extend(self.check.string(call.get("id"), &format!("{path}/id")));
                        }
                    }
                    (Some(kind), Some("assistant")) if kind.ends_with("_tool_result") => {
                        let Some(result) =
                            self.check.shape(block, &["type", "tool_use_id", "content"], &["cache_control"], &path)
                        else {
                            continue;
                        };
                        let id = self.check.string(result.get("tool_use_id"), &format!("{path}/tool_use_id"));
                        if id.is_some_and(|id| !server_calls.contains(&id)) {
                            self.check.fail(&format!("{path}/tool_use_id"), "answers no server_tool_use before it");
                        }
                    }
                    (other, _) => self
                        .check
                        .fail(&format!("{path}/type"), format!("block {other:?} not allowed in a {role:?} turn")),
                }
            }
            if role == Some("user") {
                for id in &answered {
                    if !open.contains(id) {
                        self.check.fail(&path, format!("tool_result {id:?} answers no tool_use of the turn before"));
                    }
                }
                for id in &open {
                    if !answered.contains(id) {
                        self.check.fail(&path, format!("tool_use {id:?} is not answered in this turn"));
                    }
                }
            }
            if role == Some("assistant") && !open.is_empty() {
                self.check.fail(&path, format!("tool_use {open:?} never answered"));
            }
            open = calls;
        }
        if !open.is_empty() {
            self.check.fail("/messages", format!("tool_use {open:?} never answered"));
        }
        // A final assistant turn (a prefill) cannot end in whitespace.
        if let Some(last) = messages.last()
            && last["role"] == "assistant"
            && let Some(text) = last["content"].as_array().and_then(|b| b.last()).and_then(|b| b["text"].as_str())
            && text.ends_with(char::is_whitespace)
        {
            self.check.fail("/messages", "the final assistant content cannot end with whitespace");
        }
    }

    /// `cache_control`: {"type": "ephemeral", "ttl"?: "5m" | "1h"} ("Prompt caching").
    fn cache_control(&mut self, value: Option<&Value>, path: &str) {
        let Some(value) = value else { return };
        self.cache_points += 1;
        let path = format!("{path}/cache_control");
        if let Some(cache) = self.check.shape(value, &["type"], &["ttl"], &path) {
            self.check.one_of(cache.get("type").and_then(Value::as_str), &["ephemeral"], &format!("{path}/type"));
            self.check.cache_ttl(cache.get("ttl"), &format!("{path}/ttl"));
        }
    }

    fn text_block(&mut self, block: &Value, path: &str) {
        // `TextBlockParam`: `citations` the model's own answer carried, taken back as given.
        if self.check.shape(block, &["type", "text"], &["cache_control", "citations"], path).is_some() {
            self.cache_control(block.get("cache_control"), path);
            self.check.one_of(block["type"].as_str(), &["text"], &format!("{path}/type"));
            if let Some(text) = self.check.string(block.get("text"), &format!("{path}/text"))
                && text.is_empty()
            {
                self.check.fail(&format!("{path}/text"), "text blocks must be non-empty");
            }
        }
    }

    fn image(&mut self, block: &Value, path: &str) {
        self.images += 1;
        if self.check.shape(block, &["type", "source"], &[], path).is_none() {
            return;
        }
        let path = format!("{path}/source");
        match block["source"].get("type").and_then(Value::as_str) {
            Some("base64") => {
                let Some(source) = self.check.shape(&block["source"], &["type", "media_type", "data"], &[], &path)
                else {
                    return;
                };
                let types = ["image/jpeg", "image/png", "image/gif", "image/webp"];
                self.check.one_of(
                    source.get("media_type").and_then(Value::as_str),
                    &types,
                    &format!("{path}/media_type"),
                );
                if let Some(data) = self.check.string(source.get("data"), &format!("{path}/data")) {
                    if !is_base64(data) {
                        self.check.fail(&format!("{path}/data"), "must be standard base64");
                    }
                    if decoded_len(data) > MAX_IMAGE_BYTES {
                        self.check.fail(&format!("{path}/data"), "images are at most 5 MB");
                    }
                }
            }
            Some("url") => self.url_source(&block["source"], &path),
            other => self.check.fail(&format!("{path}/type"), format!("image source type {other:?}")),
        }
    }

    fn url_source(&mut self, source: &Value, path: &str) {
        if let Some(source) = self.check.shape(source, &["type", "url"], &[], path)
            && let Some(url) = self.check.string(source.get("url"), &format!("{path}/url"))
            && !is_web_url(url)
        {
            self.check.fail(&format!("{path}/url"), "must be an http(s) URL");
        }
    }

    /// "PDF support": base64 or URL PDFs; plain-text documents as a `text` source.
    fn document(&mut self, block: &Value, path: &str) {
        let allowed = ["title", "context", "citations"];
        let Some(object) = self.check.shape(block, &["type", "source"], &allowed, path) else { return };
        self.check.string(object.get("title"), &format!("{path}/title"));
        let path = format!("{path}/source");
        match block["source"].get("type").and_then(Value::as_str) {
            Some("base64") => {
                let Some(source) = self.check.shape(&block["source"], &["type", "media_type", "data"], &[], &path)
                else {
                    return;
                };
                self.check.one_of(
                    source.get("media_type").and_then(Value::as_str),
                    &["application/pdf"],
                    &format!("{path}/media_type"),
                );
                if let Some(data) = self.check.string(source.get("data"), &format!("{path}/data"))
                    && !is_base64(data)
                {
                    self.check.fail(&format!("{path}/data"), "must be standard base64");
                }
            }
            Some("text") => {
                let Some(source) = self.check.shape(&block["source"], &["type", "media_type", "data"], &[], &path)
                else {
                    return;
                };
                self.check.one_of(
                    source.get("media_type").and_then(Value::as_str),
                    &["text/plain"],
                    &format!("{path}/media_type"),
                );
                self.check.string(source.get("data"), &format!("{path}/data"));
            }
            Some("url") => self.url_source(&block["source"], &path),
            other => self.check.fail(&format!("{path}/type"), format!("document source type {other:?}")),
        }
    }

    fn tool_use(&mut self, block: &Value, path: &str) -> Option<String> {
        self.tool_blocks += 1;
        // `ToolUseBlockParam`: `caller` says who made the call (programmatic tool calling).
        let object = self.check.shape(block, &["type", "id", "name", "input"], &["cache_control", "caller"], path)?;
        self.cache_control(object.get("cache_control"), path);
        self.check.string(object.get("name"), &format!("{path}/name"));
        if !object.get("input").is_some_and(Value::is_object) {
            self.check.fail(&format!("{path}/input"), "must be an object");
        }
        let id = self.check.string(object.get("id"), &format!("{path}/id"))?;
        if !is_tool_use_id(id) {
            self.check.fail(&format!("{path}/id"), "must match ^[a-zA-Z0-9_-]+$");
        }
        Some(id.to_string())
    }

    fn tool_result(&mut self, block: &Value, path: &str) -> Option<String> {
        self.tool_blocks += 1;
        let object =
            self.check.shape(block, &["type", "tool_use_id"], &["content", "is_error", "cache_control"], path)?;
        self.cache_control(object.get("cache_control"), path);
        match object.get("content") {
            None | Some(Value::String(_)) => {}
            Some(content) => {
                for (i, inner) in self.check.array(Some(content), false, &format!("{path}/content")).iter().enumerate()
                {
                    let path = format!("{path}/content/{i}");
                    match inner.get("type").and_then(Value::as_str) {
                        Some("text") => self.text_block(inner, &path),
                        Some("image") => self.image(inner, &path),
                        Some("document") => self.document(inner, &path),
                        other => self.check.fail(&format!("{path}/type"), format!("{other:?} in a tool_result")),
                    }
                }
            }
        }
        self.check.string(object.get("tool_use_id"), &format!("{path}/tool_use_id")).map(str::to_string)
    }
}
