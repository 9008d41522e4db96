//! OpenAI Responses request rules, checked on a converted body. Written from OpenAI's API
//! reference ("Responses › Create a model response", and its schemas in OpenAI's published
//! OpenAPI description: `CreateResponse`, `InputParam`, `EasyInputMessage`, `InputTextContent`,
//! `InputImageContent`, `InputFileContent`, `FunctionToolCall`, `FunctionCallOutputItemParam`,
//! `FunctionTool`), the "Conversation state" guide (earlier assistant text passed back in an
//! input message with string content: `output_text` parts belong to output messages, which need
//! their `id` and `status`), the "Images and vision" and "File inputs" guides (limits). The model is added
//! by the caller, so it is not required here.

use std::collections::HashSet;

use serde_json::Value;

use super::{Check, data_url, decoded_len, is_base64, is_json_object_text, is_plain_name, is_web_url};

/// The `type` of every tool besides `function` in "Create a model response › tools".
const HOSTED_TOOLS: &[&str] = &[
    "web_search",
    "web_search_preview",
    "web_search_2025_08_26",
    "web_search_preview_2025_03_11",
    "file_search",
    "code_interpreter",
    "computer_use_preview",
    "computer",
    "image_generation",
    "local_shell",
    "shell",
    "apply_patch",
    "mcp",
    "custom",
    "namespace",
    "tool_search",
    "programmatic_tool_calling",
];

/// "Images and vision": up to 500 image inputs per request, 50 MB of image payload in total.
const MAX_IMAGES: usize = 500;
const MAX_IMAGE_BYTES: usize = 50 * 1024 * 1024;
/// "File inputs": 32 MB of file content per request.
const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;
/// `CreateResponse.max_output_tokens`: minimum 16.
const MIN_OUTPUT_TOKENS: u64 = 16;
/// `FunctionCallOutputItemParam.call_id`: 1 to 64 characters.
const MAX_CALL_ID: usize = 64;
/// `FunctionCallOutputItemParam.output`: a string of at most 10,485,760 characters.
const MAX_OUTPUT_CHARS: usize = 10_485_760;

/// Input item types of the API reference ("Create a model response" › input › item) besides
/// messages and function calls and their outputs.
const OTHER_ITEMS: &[&str] = &[
    "web_search_call",
    "file_search_call",
    "code_interpreter_call",
    "computer_call",
    "computer_call_output",
    "image_generation_call",
    "local_shell_call",
    "local_shell_call_output",
    "shell_call",
    "shell_call_output",
    "apply_patch_call",
    "apply_patch_call_output",
    "mcp_list_tools",
    "mcp_approval_request",
    "mcp_approval_response",
    "mcp_call",
    "custom_tool_call",
    "custom_tool_call_output",
    "tool_search_call",
    "tool_search_output",
    "additional_tools",
    "program",
    "compaction",
];

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
        // No `stop`: the Responses API has no stop sequences.
        let allowed = [
            "model",
            "instructions",
            "max_output_tokens",
            "temperature",
            "top_p",
            "tools",
            "tool_choice",
            "text",
            "reasoning",
            // The request's other members ("Responses › Create a model response"), which a body
            // carries as provider fields: allowed, their values the API's to check.
            "background",
            "conversation",
            "include",
            "max_tool_calls",
            "metadata",
            "parallel_tool_calls",
            "previous_response_id",
            "prompt",
            "prompt_cache_key",
            "prompt_cache_retention",
            "safety_identifier",
            "service_tier",
            "store",
            "stream",
            "stream_options",
            "top_logprobs",
            "truncation",
            "user",
        ];
        let Some(top) = self.check.shape(body, &["input"], &allowed, "") else { return };
        // "Reasoning": reasoning {"effort": minimal | low | medium | high, "summary"?}.
        if let Some(reasoning) = top.get("reasoning")
            && let Some(reasoning) = self.check.shape(reasoning, &[], &["effort", "summary"], "/reasoning")
            && let Some(effort) = reasoning.get("effort")
        {
            let effort = effort.as_str().or(Some(""));
            self.check.one_of(effort, &["minimal", "low", "medium", "high"], "/reasoning/effort");
        }
        self.check.string(top.get("instructions"), "/instructions");
        self.check.integer_at_least(top.get("max_output_tokens"), MIN_OUTPUT_TOKENS, "/max_output_tokens");
        self.check.number_in(top.get("temperature"), 0.0, 2.0, "/temperature");
        self.check.number_in(top.get("top_p"), 0.0, 1.0, "/top_p");
        let mut names = HashSet::new();
        for (i, tool) in self.check.array(top.get("tools"), false, "/tools").iter().enumerate() {
            let path = format!("/tools/{i}");
            // "Create a model response › tools": the built-in, MCP and custom tools, each with its
            // own members; a custom tool has a name a tool choice may give.
            let kind = tool.get("type").and_then(Value::as_str);
            if kind != Some("function") {
                self.check.one_of(kind.or(Some("")), HOSTED_TOOLS, &format!("{path}/type"));
                if kind == Some("custom")
                    && let Some(name) = self.check.string(tool.get("name"), &format!("{path}/name"))
                {
                    names.insert(name.to_string());
                }
                continue;
            }
            let allowed = ["description", "parameters", "strict", "defer_loading", "output_schema", "allowed_callers"];
            let Some(tool) = self.check.shape(tool, &["type", "name"], &allowed, &path) else { continue };
            if let Some(name) = self.check.string(tool.get("name"), &format!("{path}/name")) {
                // As for Chat Completions' `FunctionObject.name`.
                if !is_plain_name(name, 64) {
                    self.check.fail(&format!("{path}/name"), "must be 1-64 of a-z, A-Z, 0-9, _ and -");
                }
                if !names.insert(name.to_string()) {
                    self.check.fail(&format!("{path}/name"), "two tools share this name");
                }
            }
            self.check.string(tool.get("description"), &format!("{path}/description"));
            self.check.object_schema(tool.get("parameters"), &format!("{path}/parameters"));
            if let Some(strict) = tool.get("strict")
                && !strict.is_boolean()
            {
                self.check.fail(&format!("{path}/strict"), "must be a boolean");
            }
        }
        let tools: Vec<&str> = names.iter().map(String::as_str).collect();
        self.check.openai_tool_choice(top.get("tool_choice"), &tools, false);
        // `text.format`: {"type": "json_schema", "name", "schema", "description"?, "strict"?}.
        if let Some(text) = top.get("text")
            && let Some(text) = self.check.shape(text, &[], &["format", "verbosity"], "/text")
            && let Some(format) = text.get("format")
        {
            let allowed = ["description", "strict"];
            if let Some(format) = self.check.shape(format, &["type", "name", "schema"], &allowed, "/text/format") {
                let kind = format.get("type").and_then(Value::as_str).or(Some(""));
                self.check.one_of(kind, &["json_schema"], "/text/format/type");
                self.check.openai_json_schema(format, "/text/format");
            }
        }
        let input = top.get("input");
        if !input.is_some_and(Value::is_string) {
            let items = self.check.array(input, true, "/input");
            self.items(items);
        }
        if self.images > MAX_IMAGES {
            self.check.fail("/input", format!("at most {MAX_IMAGES} images, not {}", self.images));
        }
        if self.image_bytes > MAX_IMAGE_BYTES {
            self.check.fail("/input", format!("images total {} bytes, over 50 MB", self.image_bytes));
        }
        if self.file_bytes > MAX_FILE_BYTES {
            self.check.fail("/input", format!("files total {} bytes, over 32 MB", self.file_bytes));
        }
    }

    fn items(&mut self, items: &[Value]) {
        // Function calls not yet answered by a function_call_output ("Function calling" guide:
        // each call's output is passed back with its call_id).
        let mut open: Vec<String> = Vec::new();
        for (i, item) in items.iter().enumerate() {
            let path = format!("/input/{i}");
            match item.get("type").and_then(Value::as_str) {
                Some("message") | None => self.message(item, &path),
                Some("function_call") => {
                    // `FunctionToolCall`: its item `id` and `status`, and the `namespace` of a
                    // function a tool search loaded, beside the call.
                    let allowed = ["id", "status", "namespace"];
                    let Some(call) = self.check.shape(item, &["type", "call_id", "name", "arguments"], &allowed, &path)
                    else {
                        continue;
                    };
                    self.check.string(call.get("name"), &format!("{path}/name"));
                    if let Some(arguments) = self.check.string(call.get("arguments"), &format!("{path}/arguments"))
                        && !is_json_object_text(arguments)
                    {
                        self.check.fail(&format!("{path}/arguments"), "must be a JSON object as text");
                    }
                    open.extend(self.call_id(call.get("call_id"), &path).map(str::to_string));
                }
                Some("function_call_output") => {
                    // `FunctionCallOutputItemParam`: its item `id` and `status` beside the output.
                    let allowed = ["id", "status"];
                    let Some(output) = self.check.shape(item, &["type", "call_id", "output"], &allowed, &path) else {
                        continue;
                    };
                    if let Some(id) = self.call_id(output.get("call_id"), &path) {
                        match open.iter().position(|o| o == id) {
                            Some(k) => {
                                open.remove(k);
                            }
                            None => self.check.fail(&format!("{path}/call_id"), "answers no earlier function_call"),
                        }
                    }
                    match &output["output"] {
                        Value::String(text) if text.chars().count() > MAX_OUTPUT_CHARS => {
                            self.check.fail(&format!("{path}/output"), "longer than 10,485,760 characters");
                        }
                        Value::String(_) => {}
                        parts => self.parts(parts, &format!("{path}/output"), false),
                    }
                }
                // The API reference's other input items: built-in tools' calls and their outputs,
                // custom tools, tool search, tools added mid-conversation, programs.
                Some(kind) if OTHER_ITEMS.contains(&kind) => {
                    self.check.object(item, &path);
                }
                Some(other) => self.check.fail(&format!("{path}/type"), format!("unknown input item type {other:?}")),
            }
        }
        if !open.is_empty() {
            self.check.fail("/input", format!("function calls {open:?} have no function_call_output"));
        }
    }

    fn call_id<'v>(&mut self, value: Option<&'v Value>, path: &str) -> Option<&'v str> {
        let id = self.check.string(value, &format!("{path}/call_id"))?;
        if id.is_empty() || id.chars().count() > MAX_CALL_ID {
            self.check.fail(&format!("{path}/call_id"), "must be 1 to 64 characters");
        }
        Some(id)
    }

    /// `EasyInputMessage`: role user, assistant, system or developer; or an output message of
    /// the assistant's (`ResponseOutputMessage`: its `id`, `status` and `phase`, `output_text`
    /// parts).
    fn message(&mut self, item: &Value, path: &str) {
        if item.get("id").is_some() {
            self.output_message(item, path);
            return;
        }
        let Some(message) = self.check.shape(item, &["role", "content"], &["type"], path) else { return };
        let role = message.get("role").and_then(Value::as_str);
        self.check.one_of(role, &["user", "assistant", "system", "developer"], &format!("{path}/role"));
        let content = &item["content"];
        if content.is_string() {
            return;
        }
        // Output messages (`output_text` parts) need the provider's own `id` and `status`; an
        // easy input message's list holds input parts only, and the API takes only text from
        // roles other than user.
        let text_only = role != Some("user");
        self.parts(content, &format!("{path}/content"), text_only);
    }

    /// `ResponseOutputMessage`: `id`, `status` (`in_progress`, `completed` or `incomplete`), role
    /// `assistant`, `output_text` parts (`annotations`, `logprobs`), a `phase` (`commentary` or
    /// `final_answer`).
    fn output_message(&mut self, item: &Value, path: &str) {
        let required = ["type", "id", "role", "status", "content"];
        let Some(message) = self.check.shape(item, &required, &["phase"], path) else { return };
        self.check.string(message.get("id"), &format!("{path}/id"));
        self.check.one_of(message.get("role").and_then(Value::as_str), &["assistant"], &format!("{path}/role"));
        let statuses = ["in_progress", "completed", "incomplete"];
        self.check.one_of(message.get("status").and_then(Value::as_str), &statuses, &format!("{path}/status"));
        if let Some(phase) = message.get("phase") {
            self.check.one_of(phase.as_str().or(Some("")), &["commentary", "final_answer"], &format!("{path}/phase"));
        }
        for (i, part) in self.check.array(message.get("content"), true, &format!("{path}/content")).iter().enumerate() {
            let path = format!("{path}/content/{i}");
            let allowed = ["annotations", "logprobs"];
            let Some(part) = self.check.shape(part, &["type", "text"], &allowed, &path) else { continue };
            self.check.one_of(part.get("type").and_then(Value::as_str), &["output_text"], &format!("{path}/type"));
            self.check.string(part.get("text"), &format!("{path}/text"));
            self.check.array(part.get("annotations"), false, &format!("{path}/annotations"));
        }
    }

    /// `InputMessageContentList` (or a function call's output list).
    fn parts(&mut self, parts: &Value, path: &str, text_only: bool) {
        for (i, part) in self.check.array(Some(parts), true, path).iter().enumerate() {
            let path = format!("{path}/{i}");
            match part.get("type").and_then(Value::as_str) {
                // `InputTextContent`, with a `prompt_cache_breakpoint` ("Prompt caching").
                Some("input_text") => {
                    if self.check.shape(part, &["type", "text"], &["prompt_cache_breakpoint"], &path).is_some() {
                        self.check.string(part.get("text"), &format!("{path}/text"));
                    }
                }
                Some("input_image") if !text_only => self.image(part, &path),
                Some("input_file") if !text_only => self.file(part, &path),
                other => {
                    self.check
                        .fail(&format!("{path}/type"), format!("content part type {other:?} is not allowed here"));
                }
            }
        }
    }

    /// `InputImageContent`: `image_url` a web URL or a base64 data: URL; `detail` low, high, auto
    /// or original.
    fn image(&mut self, part: &Value, path: &str) {
        self.images += 1;
        let Some(image) = self.check.shape(part, &["type"], &["image_url", "file_id", "detail"], path) else { return };
        self.check.one_of(
            image.get("detail").and_then(Value::as_str),
            &["low", "high", "auto", "original"],
            &format!("{path}/detail"),
        );
        let Some(url) = self.check.string(image.get("image_url"), &format!("{path}/image_url")) else {
            if !image.contains_key("file_id") {
                self.check.fail(path, "needs image_url or file_id");
            }
            return;
        };
        match data_url(url) {
            Some((mime, data)) => {
                let formats = ["image/png", "image/jpeg", "image/gif", "image/webp"];
                self.check.one_of(Some(mime), &formats, &format!("{path}/image_url"));
                if !is_base64(data) {
                    self.check.fail(&format!("{path}/image_url"), "the data URL must hold standard base64");
                }
                self.image_bytes += decoded_len(data);
            }
            None if is_web_url(url) => {}
            None => self.check.fail(&format!("{path}/image_url"), "must be an http(s) URL or a base64 data: URL"),
        }
    }

    /// `InputFileContent`: `file_data` (a base64 data: URL, with its `filename`), `file_url` or
    /// `file_id`.
    fn file(&mut self, part: &Value, path: &str) {
        let allowed = ["file_id", "filename", "file_data", "file_url"];
        let Some(file) = self.check.shape(part, &["type"], &allowed, path) else { return };
        let sources = ["file_id", "file_data", "file_url"].iter().filter(|k| file.contains_key(**k)).count();
        if sources != 1 {
            self.check.fail(path, "needs exactly one of file_data, file_url, file_id");
        }
        if let Some(data) = self.check.string(file.get("file_data"), &format!("{path}/file_data")) {
            if !file.contains_key("filename") {
                self.check.fail(path, "file_data needs a filename");
            }
            match data_url(data) {
                Some(("application/pdf", data)) if is_base64(data) => self.file_bytes += decoded_len(data),
                _ => self.check.fail(&format!("{path}/file_data"), "must be a data:application/pdf;base64, URL"),
            }
        }
        if let Some(url) = self.check.string(file.get("file_url"), &format!("{path}/file_url"))
            && !is_web_url(url)
        {
            self.check.fail(&format!("{path}/file_url"), "must be an http(s) URL");
        }
    }
}
