//! The Bedrock Converse request rules (botocore's `bedrock-runtime` 2023-09-30 service model plus
//! the service-side rules of the Amazon Bedrock API Reference, "Converse" and "`ContentBlock`") and
//! contract §6 (docs/decisions/providers.md), checked on a converted JSON body. Written
//! independently of the converter — it shares no code with it — so a converter bug cannot hide
//! behind its own helper.
//! Used by the fuzz targets, the conformance runner (`tests/conformance.rs`) and the property
//! tests (`crates/agent-input/tests/properties.rs`), the last two through `#[path]`.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

/// Image formats of `ImageFormat`.
pub const IMAGE_FORMATS: [&str; 4] = ["png", "jpeg", "gif", "webp"];
/// Document formats of `DocumentFormat`.
pub const DOCUMENT_FORMATS: [&str; 9] = ["pdf", "csv", "doc", "docx", "xls", "xlsx", "html", "txt", "md"];
/// Video formats of `VideoFormat`.
pub const VIDEO_FORMATS: [&str; 9] = ["mkv", "mov", "mp4", "webm", "flv", "mpeg", "mpg", "wmv", "three_gp"];

const MAX_IMAGES: usize = 20;
const MAX_IMAGE_BYTES: usize = 3_932_160; // 3.75 MiB
const MAX_DOCUMENTS: usize = 5;
const MAX_DOCUMENT_BYTES: usize = 4_718_592; // 4.5 MiB
const MAX_VIDEO_BASE64: usize = 25 * 1024 * 1024;

/// Every rule the body breaks, each as `<JSON pointer>: <rule>`; empty when it satisfies them all.
pub fn violations(body: &Value) -> Vec<String> {
    let mut checker = Checker::default();
    checker.body(body);
    checker.problems
}

#[derive(Default)]
struct Checker {
    problems: Vec<String>,
    images: usize,
    documents: usize,
    document_names: HashSet<String>,
    tool_blocks: usize,
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

impl Checker {
    fn fail(&mut self, path: &str, rule: impl Into<String>) {
        self.problems.push(format!("{path}: {}", rule.into()));
    }

    fn object<'v>(&mut self, value: &'v Value, path: &str) -> Option<&'v Map<String, Value>> {
        let object = value.as_object();
        if object.is_none() {
            self.fail(path, format!("must be an object, not {}", kind(value)));
        }
        object
    }

    fn only_keys(&mut self, object: &Map<String, Value>, allowed: &[&str], path: &str) {
        for key in object.keys() {
            if !allowed.contains(&key.as_str()) {
                self.fail(path, format!("unknown member {key:?}"));
            }
        }
    }

    /// A union: exactly one member, which must be one of `allowed`.
    fn union<'v>(&mut self, value: &'v Value, allowed: &[&str], path: &str) -> Option<(&'v str, &'v Value)> {
        let object = self.object(value, path)?;
        if object.len() != 1 {
            self.fail(path, format!("a union must set exactly one member, not {}", object.len()));
            return None;
        }
        let (key, inner) = object.iter().next()?;
        if !allowed.contains(&key.as_str()) {
            self.fail(path, format!("{key:?} is not one of {allowed:?}"));
            return None;
        }
        Some((key.as_str(), inner))
    }

    fn body(&mut self, body: &Value) {
        let Some(object) = self.object(body, "") else { return };
        self.only_keys(
            object,
            &[
                "messages",
                "system",
                "inferenceConfig",
                "toolConfig",
                "outputConfig",
                "additionalModelRequestFields",
                // The request's other members (`Converse` request syntax), which a body carries as
                // provider fields: allowed, their values the API's to check.
                "additionalModelResponseFieldPaths",
                "guardrailConfig",
                "performanceConfig",
                "promptVariables",
                "requestMetadata",
                "serviceTier",
            ],
            "",
        );
        // "additionalModelRequestFields": a JSON object the model's own API reads.
        if let Some(fields) = object.get("additionalModelRequestFields") {
            self.object(fields, "/additionalModelRequestFields");
        }
        if let Some(config) = object.get("outputConfig") {
            self.output_config(config);
        }
        match object.get("messages").and_then(Value::as_array) {
            Some(messages) if !messages.is_empty() => self.messages(messages),
            _ => self.fail("/messages", "must be a non-empty array"),
        }
        if let Some(system) = object.get("system") {
            self.system(system);
        }
        if let Some(config) = object.get("inferenceConfig") {
            self.inference(config);
        }
        match object.get("toolConfig") {
            Some(config) => self.tool_config(config),
            None if self.tool_blocks > 0 => {
                self.fail("/toolConfig", "tool blocks in the conversation need a toolConfig");
            }
            None => {}
        }
        if self.images > MAX_IMAGES {
            self.fail("/messages", format!("{} images, at most {MAX_IMAGES}", self.images));
        }
        if self.documents > MAX_DOCUMENTS {
            self.fail("/messages", format!("{} documents, at most {MAX_DOCUMENTS}", self.documents));
        }
    }

    fn messages(&mut self, messages: &[Value]) {
        let mut previous_role: Option<&str> = None;
        // Tool use ids of the assistant turn just before, answered by the next user turn.
        let mut open_calls: Vec<String> = Vec::new();
        for (i, message) in messages.iter().enumerate() {
            let path = format!("/messages/{i}");
            let Some(object) = self.object(message, &path) else { continue };
            self.only_keys(object, &["role", "content"], &path);
            let role = object.get("role").and_then(Value::as_str).unwrap_or("");
            if !matches!(role, "user" | "assistant") {
                self.fail(&format!("{path}/role"), format!("{role:?} is not user or assistant"));
            }
            if i == 0 && role != "user" {
                self.fail(&format!("{path}/role"), "the conversation must start with a user turn");
            }
            if previous_role == Some(role) {
                self.fail(&format!("{path}/role"), "roles must alternate");
            }
            previous_role = Some(role);
            let Some(content) = object.get("content").and_then(Value::as_array).filter(|c| !c.is_empty()) else {
                self.fail(&format!("{path}/content"), "must be a non-empty array");
                continue;
            };
            let mut has_text = false;
            let mut has_document = false;
            let mut calls = Vec::new();
            let mut answered = Vec::new();
            for (j, block) in content.iter().enumerate() {
                let block_path = format!("{path}/content/{j}");
                let Some((member, inner)) =
                    self.union(block, &["text", "image", "document", "video", "toolUse", "toolResult"], &block_path)
                else {
                    continue;
                };
                let inner_path = format!("{block_path}/{member}");
                match member {
                    "text" => {
                        has_text = true;
                        self.text(inner, &inner_path);
                    }
                    "image" | "document" | "video" => {
                        // "You can only include images and documents if the role is user."
                        if role != "user" && member != "video" {
                            self.fail(&inner_path, "images and documents only in user turns");
                        }
                        has_document |= member == "document";
                        self.media(member, inner, &inner_path);
                    }
                    "toolUse" => {
                        self.tool_blocks += 1;
                        if role != "assistant" {
                            self.fail(&inner_path, "toolUse only in assistant turns");
                        }
                        if let Some(id) = self.tool_use(inner, &inner_path) {
                            calls.push(id);
                        }
                    }
                    _ => {
                        self.tool_blocks += 1;
                        if role != "user" {
                            self.fail(&inner_path, "toolResult only in user turns");
                        }
                        if let Some(id) = self.tool_result(inner, &inner_path) {
                            answered.push((id, inner_path));
                        }
                    }
                }
            }
            if has_document && !has_text {
                self.fail(&path, "a turn with a document needs a text block");
            }
            for (id, at) in &answered {
                if !open_calls.contains(id) {
                    self.fail(at, format!("toolResult {id:?} answers no toolUse of the turn before"));
                }
            }
            if role == "user" {
                for id in &open_calls {
                    if !answered.iter().any(|(a, _)| a == id) {
                        self.fail(&path, format!("toolUse {id:?} of the turn before is not answered"));
                    }
                }
            }
            open_calls = calls;
        }
        // A final assistant turn with tool calls would be answered by the model: not allowed.
        if previous_role == Some("assistant") && !open_calls.is_empty() {
            self.fail("/messages", "the last turn has unanswered toolUse blocks");
        }
    }

    fn text(&mut self, value: &Value, path: &str) {
        match value.as_str() {
            Some(text) if !text.trim().is_empty() => {}
            _ => self.fail(path, "text must be a non-blank string"),
        }
    }

    fn media(&mut self, member: &str, value: &Value, path: &str) {
        let Some(object) = self.object(value, path) else { return };
        let (formats, sources, size_limit): (&[&str], &[&str], usize) = match member {
            "image" => {
                self.images += 1;
                self.only_keys(object, &["format", "source"], path);
                (&IMAGE_FORMATS, &["bytes", "s3Location"], MAX_IMAGE_BYTES)
            }
            "document" => {
                self.documents += 1;
                self.only_keys(object, &["format", "name", "source", "context", "citations"], path);
                self.document_name(object.get("name"), &format!("{path}/name"));
                (&DOCUMENT_FORMATS, &["bytes", "s3Location", "text", "content"], MAX_DOCUMENT_BYTES)
            }
            _ => {
                self.only_keys(object, &["format", "source"], path);
                (&VIDEO_FORMATS, &["bytes", "s3Location"], usize::MAX)
            }
        };
        match object.get("format").and_then(Value::as_str) {
            Some(format) if formats.contains(&format) => {}
            None if member == "document" && !object.contains_key("format") => {}
            _ => self.fail(&format!("{path}/format"), format!("must be one of {formats:?}")),
        }
        let source_path = format!("{path}/source");
        let Some(source) = object.get("source") else {
            self.fail(&source_path, "missing");
            return;
        };
        let Some((kind, inner)) = self.union(source, sources, &source_path) else { return };
        let inner_path = format!("{source_path}/{kind}");
        match kind {
            "bytes" => match inner.as_str() {
                Some(data) => match decoded_len(data) {
                    Some(0) | None => self.fail(&inner_path, "must be non-empty standard padded base64"),
                    Some(n) if n > size_limit => {
                        self.fail(&inner_path, format!("{n} bytes decoded, at most {size_limit}"));
                    }
                    Some(_) if member == "video" && data.len() >= MAX_VIDEO_BASE64 => {
                        self.fail(&inner_path, "base64 video must be under 25 MB");
                    }
                    Some(_) => {}
                },
                None => self.fail(&inner_path, "must be a base64 string"),
            },
            "s3Location" => self.s3_location(inner, &inner_path),
            _ => {} // document text/content: not produced from the standard input
        }
    }

    fn document_name(&mut self, name: Option<&Value>, path: &str) {
        let Some(name) = name.and_then(Value::as_str) else {
            self.fail(path, "a document needs a string name");
            return;
        };
        let chars = name.chars().count();
        if !(1..=200).contains(&chars) {
            self.fail(path, format!("name must have 1 to 200 characters, not {chars}"));
        }
        let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, ' ' | '-' | '(' | ')' | '[' | ']');
        if !name.chars().all(allowed) || name.contains("  ") || name.starts_with(' ') || name.ends_with(' ') {
            self.fail(path, format!("name {name:?} has characters Bedrock does not allow"));
        }
        if !self.document_names.insert(name.to_string()) {
            self.fail(path, format!("name {name:?} is not unique in the request"));
        }
    }

    fn s3_location(&mut self, value: &Value, path: &str) {
        let Some(object) = self.object(value, path) else { return };
        self.only_keys(object, &["uri", "bucketOwner"], path);
        let uri = object.get("uri").and_then(Value::as_str).unwrap_or("");
        if !valid_s3_uri(uri) {
            self.fail(
                &format!("{path}/uri"),
                format!("{uri:?} does not match s3://[a-z0-9][.-a-z0-9]{{1,61}}[a-z0-9](/.*)?"),
            );
        }
    }

    fn tool_use(&mut self, value: &Value, path: &str) -> Option<String> {
        let object = self.object(value, path)?;
        // `type` is the service model's optional `ToolUseType`; Bedrock also takes back the
        // `tool_use` its own answers carry.
        self.only_keys(object, &["toolUseId", "name", "input", "type"], path);
        let id = object.get("toolUseId").and_then(Value::as_str).unwrap_or("");
        if !valid_tool_use_id(id) {
            self.fail(&format!("{path}/toolUseId"), format!("{id:?} is not [a-zA-Z0-9_.:-]{{1,64}}"));
        }
        let name = object.get("name").and_then(Value::as_str).unwrap_or("");
        if !valid_tool_name(name) {
            self.fail(&format!("{path}/name"), format!("{name:?} is not [a-zA-Z0-9_-]{{1,64}}"));
        }
        if !object.contains_key("input") {
            self.fail(&format!("{path}/input"), "missing");
        }
        Some(id.to_string())
    }

    fn tool_result(&mut self, value: &Value, path: &str) -> Option<String> {
        let object = self.object(value, path)?;
        self.only_keys(object, &["toolUseId", "content", "status"], path);
        let id = object.get("toolUseId").and_then(Value::as_str).unwrap_or("");
        if !valid_tool_use_id(id) {
            self.fail(&format!("{path}/toolUseId"), format!("{id:?} is not [a-zA-Z0-9_.:-]{{1,64}}"));
        }
        if let Some(status) = object.get("status").and_then(Value::as_str)
            && !matches!(status, "success" | "error")
        {
            self.fail(&format!("{path}/status"), "must be success or error");
        }
        match object.get("content").and_then(Value::as_array) {
            Some(content) => {
                for (k, block) in content.iter().enumerate() {
                    let block_path = format!("{path}/content/{k}");
                    if let Some((member, inner)) =
                        self.union(block, &["json", "text", "image", "document", "video"], &block_path)
                    {
                        let inner_path = format!("{block_path}/{member}");
                        match member {
                            "text" => {
                                if !inner.is_string() {
                                    self.fail(&inner_path, "must be a string");
                                }
                            }
                            "json" => {}
                            _ => self.media(member, inner, &inner_path),
                        }
                    }
                }
            }
            None => self.fail(&format!("{path}/content"), "must be an array"),
        }
        Some(id.to_string())
    }

    fn system(&mut self, system: &Value) {
        let Some(blocks) = system.as_array() else {
            self.fail("/system", "must be an array");
            return;
        };
        for (i, block) in blocks.iter().enumerate() {
            let path = format!("/system/{i}");
            match self.union(block, &["text", "cachePoint"], &path) {
                Some(("text", text)) => match text.as_str() {
                    Some(text) if !text.is_empty() => {}
                    _ => self.fail(&format!("{path}/text"), "must be a non-empty string"),
                },
                Some((_, cache)) => {
                    if i == 0 {
                        self.fail(&path, "a cache point needs content before it");
                    }
                    self.cache_point(cache, &format!("{path}/cachePoint"));
                }
                None => {}
            }
        }
    }

    /// `CachePointBlock`: {"type": "default", "ttl"?: "5m" | "1h"}.
    fn cache_point(&mut self, value: &Value, path: &str) {
        let Some(object) = self.object(value, path) else { return };
        self.only_keys(object, &["type", "ttl"], path);
        if object.get("type").and_then(Value::as_str) != Some("default") {
            self.fail(&format!("{path}/type"), "must be \"default\"");
        }
        if let Some(ttl) = object.get("ttl")
            && !matches!(ttl.as_str(), Some("5m" | "1h"))
        {
            self.fail(&format!("{path}/ttl"), "must be \"5m\" or \"1h\"");
        }
    }

    /// `OutputConfig`: `{"textFormat": {"type": "json_schema", "structure": {"jsonSchema":
    /// {"schema": <JSON text>, "name"?, "description"?}}}}`.
    fn output_config(&mut self, config: &Value) {
        let Some(object) = self.object(config, "/outputConfig") else { return };
        self.only_keys(object, &["textFormat", "effort"], "/outputConfig");
        let Some(format) = object.get("textFormat") else { return };
        let path = "/outputConfig/textFormat";
        let Some(format) = self.object(format, path) else { return };
        self.only_keys(format, &["type", "structure"], path);
        if format.get("type").and_then(Value::as_str) != Some("json_schema") {
            self.fail(&format!("{path}/type"), "must be \"json_schema\"");
        }
        let Some(structure) = format.get("structure") else {
            self.fail(path, "missing required member \"structure\"");
            return;
        };
        let path = format!("{path}/structure");
        let Some((_, definition)) = self.union(structure, &["jsonSchema"], &path) else { return };
        let path = format!("{path}/jsonSchema");
        let Some(definition) = self.object(definition, &path) else { return };
        self.only_keys(definition, &["schema", "name", "description"], &path);
        // The schema is a string holding a JSON Schema object.
        match definition.get("schema").and_then(Value::as_str).map(serde_json::from_str::<Value>) {
            Some(Ok(Value::Object(_))) => {}
            _ => self.fail(&format!("{path}/schema"), "must be a string holding a JSON object"),
        }
        for key in ["name", "description"] {
            if definition.get(key).is_some_and(|v| !v.is_string()) {
                self.fail(&format!("{path}/{key}"), "must be a string");
            }
        }
    }

    fn inference(&mut self, config: &Value) {
        let Some(object) = self.object(config, "/inferenceConfig") else { return };
        self.only_keys(object, &["maxTokens", "temperature", "topP", "stopSequences"], "/inferenceConfig");
        if let Some(max) = object.get("maxTokens")
            && max.as_u64().is_none_or(|n| n < 1 || n > u64::from(i32::MAX.unsigned_abs()))
        {
            self.fail("/inferenceConfig/maxTokens", format!("{max} is not an integer from 1"));
        }
        for key in ["temperature", "topP"] {
            if let Some(value) = object.get(key)
                && value.as_f64().is_none_or(|x| !(0.0..=1.0).contains(&x))
            {
                self.fail(&format!("/inferenceConfig/{key}"), format!("{value} is not in 0..1"));
            }
        }
        if let Some(stops) = object.get("stopSequences") {
            match stops.as_array() {
                Some(stops)
                    if stops.len() <= 2500 && stops.iter().all(|s| s.as_str().is_some_and(|s| !s.is_empty())) => {}
                _ => self.fail("/inferenceConfig/stopSequences", "at most 2500 non-empty strings"),
            }
        }
    }

    fn tool_config(&mut self, config: &Value) {
        let Some(object) = self.object(config, "/toolConfig") else { return };
        self.only_keys(object, &["tools", "toolChoice"], "/toolConfig");
        let Some(tools) = object.get("tools").and_then(Value::as_array).filter(|t| !t.is_empty()) else {
            self.fail("/toolConfig/tools", "must be a non-empty array");
            return;
        };
        let mut names = HashMap::new();
        for (i, tool) in tools.iter().enumerate() {
            let path = format!("/toolConfig/tools/{i}");
            let Some((member, spec)) = self.union(tool, &["toolSpec", "cachePoint", "systemTool"], &path) else {
                continue;
            };
            // `SystemTool`: {"name"} of a tool the model's provider runs.
            if member == "systemTool" {
                if spec.get("name").and_then(Value::as_str).is_none_or(str::is_empty) {
                    self.fail(&format!("{path}/systemTool/name"), "must be a non-empty string");
                }
                continue;
            }
            if member == "cachePoint" {
                if i == 0 {
                    self.fail(&path, "a cache point needs a tool before it");
                }
                self.cache_point(spec, &format!("{path}/cachePoint"));
                continue;
            }
            let path = format!("{path}/toolSpec");
            let Some(spec) = self.object(spec, &path) else { continue };
            self.only_keys(spec, &["name", "description", "inputSchema", "strict"], &path);
            let name = spec.get("name").and_then(Value::as_str).unwrap_or("");
            if !valid_tool_name(name) {
                self.fail(&format!("{path}/name"), format!("{name:?} is not [a-zA-Z0-9_-]{{1,64}}"));
            }
            if names.insert(name.to_string(), i).is_some() {
                self.fail(&format!("{path}/name"), format!("tool name {name:?} is not unique"));
            }
            if let Some(description) = spec.get("description")
                && description.as_str().is_none_or(str::is_empty)
            {
                self.fail(&format!("{path}/description"), "must be a non-empty string");
            }
            let schema_path = format!("{path}/inputSchema");
            match spec.get("inputSchema") {
                Some(schema) => {
                    if let Some((_, json)) = self.union(schema, &["json"], &schema_path)
                        && json.get("type").and_then(Value::as_str) != Some("object")
                    {
                        self.fail(&format!("{schema_path}/json/type"), "the top-level schema type must be object");
                    }
                }
                None => self.fail(&schema_path, "missing"),
            }
        }
        // `ToolChoice` union: {"auto": {}} | {"any": {}} | {"tool": {"name"}}, a tool given.
        if let Some(choice) = object.get("toolChoice") {
            let path = "/toolConfig/toolChoice";
            match self.union(choice, &["auto", "any", "tool"], path) {
                Some(("tool", tool)) => {
                    let tool = tool.as_object();
                    let name = tool.and_then(|n| n.get("name")).and_then(Value::as_str).unwrap_or("");
                    if tool.is_none_or(|n| n.len() != 1) || !names.contains_key(name) {
                        self.fail(&format!("{path}/tool"), "must be {\"name\"} of one of the tools");
                    }
                }
                Some((member, empty)) if empty.as_object().is_none_or(|o| !o.is_empty()) => {
                    self.fail(&format!("{path}/{member}"), "must be an empty object");
                }
                Some(_) | None => {}
            }
        }
    }
}

/// The decoded length of standard padded base64, or `None` when it is not that.
pub fn decoded_len(data: &str) -> Option<usize> {
    let bytes = data.as_bytes();
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    let padding = bytes.iter().rev().take_while(|&&b| b == b'=').count();
    if padding > 2 {
        return None;
    }
    let body = &bytes[..bytes.len() - padding];
    if !body.iter().all(|b| b.is_ascii_alphanumeric() || *b == b'+' || *b == b'/') {
        return None;
    }
    Some(bytes.len() / 4 * 3 - padding)
}

fn valid_tool_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

fn valid_tool_use_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

/// `s3://[a-z0-9][\.\-a-z0-9]{1,61}[a-z0-9](/.*)?`, at most 1024 characters.
fn valid_s3_uri(uri: &str) -> bool {
    let Some(rest) = uri.strip_prefix("s3://") else { return false };
    let bucket = rest.split('/').next().unwrap_or("");
    let b = bucket.as_bytes();
    let edge = |c: u8| c.is_ascii_lowercase() || c.is_ascii_digit();
    uri.len() <= 1024
        && (3..=63).contains(&b.len())
        && edge(b[0])
        && edge(b[b.len() - 1])
        && b.iter().all(|&c| edge(c) || c == b'.' || c == b'-')
}
