//! Gemini `generateContent` request rules (REST, camelCase), checked on a converted body. Written
//! from Google's Gemini API reference ("Generating content": `contents`, `systemInstruction`,
//! `tools`, `generationConfig`; "Caching › Content" and "Part": exactly one data field per part;
//! "GenerationConfig": `stopSequences` at most 5, `temperature` 0.0–2.0; "Function calling ›
//! FunctionDeclaration": the name starts with a letter or an underscore, then letters, digits,
//! underscores, dots, colons or dashes, at most 64), the "Function calling" guide (a
//! `functionResponse` per `functionCall` of the model turn before, in the next user turn), the
//! "Multimodal function responses" section (`parts` of inline images and documents), the
//! "Image understanding", "Video understanding" and "Document understanding" guides (MIME types,
//! 3,600 images per request, PDFs up to 50 MB) and the "File input methods" guide (inline data up
//! to 100 MB per request).

use serde_json::Value;

use super::{Check, NULL, decoded_len, is_base64, is_web_url};

/// The members of "Tool" besides `functionDeclarations`: Gemini's own tools.
const GEMINI_TOOLS: &[&str] = &[
    "googleSearch",
    "googleSearchRetrieval",
    "codeExecution",
    "urlContext",
    "fileSearch",
    "googleMaps",
    "computerUse",
    "retrieval",
    "enterpriseWebSearch",
    "mcpServers",
];

const MAX_STOPS: usize = 5;
/// "Part": the members beside its one data field.
const PART_METADATA: [&str; 5] = ["thoughtSignature", "thought", "partMetadata", "mediaResolution", "videoMetadata"];
const MAX_IMAGES: usize = 3600;
const MAX_INLINE_BYTES: usize = 100 * 1024 * 1024;
const MAX_PDF_BYTES: usize = 50 * 1024 * 1024;

/// MIME types a function response's parts may carry ("Function calling › Multimodal function
/// responses").
const RESPONSE_MIME_TYPES: [&str; 5] = ["image/png", "image/jpeg", "image/webp", "application/pdf", "text/plain"];

/// MIME types the understanding guides list (the document guide spells Markdown `text/md`).
const MIME_TYPES: [&str; 20] = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "image/heic",
    "image/heif",
    "video/mp4",
    "video/mpeg",
    "video/mov",
    "video/avi",
    "video/x-flv",
    "video/mpg",
    "video/webm",
    "video/wmv",
    "video/3gpp",
    "application/pdf",
    "text/plain",
    "text/html",
    "text/csv",
    "text/md",
    "text/xml",
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
    inline_bytes: usize,
}

fn is_function_name(name: &str) -> bool {
    let mut bytes = name.bytes();
    name.len() <= 64
        && bytes.next().is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b':' | b'-'))
}

impl Rules {
    fn body(&mut self, body: &Value) {
        // `safetySettings` and `cachedContent` ("Generating content › Request body") a body carries
        // as provider fields: allowed, their values the API's to check.
        let allowed =
            ["systemInstruction", "generationConfig", "tools", "toolConfig", "safetySettings", "cachedContent"];
        let Some(top) = self.check.shape(body, &["contents"], &allowed, "") else { return };
        if let Some(system) = top.get("systemInstruction")
            && self.check.shape(system, &["parts"], &["role"], "/systemInstruction").is_some()
        {
            for (i, part) in self.check.array(system.get("parts"), true, "/systemInstruction/parts").iter().enumerate()
            {
                let path = format!("/systemInstruction/parts/{i}");
                if self.check.shape(part, &["text"], &[], &path).is_some() {
                    self.check.string(part.get("text"), &format!("{path}/text"));
                }
            }
        }
        if let Some(config) = top.get("generationConfig") {
            let allowed = [
                "maxOutputTokens",
                "temperature",
                "topP",
                "stopSequences",
                "responseMimeType",
                "responseJsonSchema",
                "thinkingConfig",
                // `GenerationConfig`'s other members, carried as provider fields.
                "candidateCount",
                "enableEnhancedCivicAnswers",
                "frequencyPenalty",
                "imageConfig",
                "logprobs",
                "mediaResolution",
                "presencePenalty",
                "responseLogprobs",
                "responseModalities",
                "seed",
                "speechConfig",
                "topK",
            ];
            if let Some(config) = self.check.shape(config, &[], &allowed, "/generationConfig") {
                // "Thinking": thinkingConfig {thinkingBudget (Gemini 2.5) or thinkingLevel (Gemini 3),
                // includeThoughts?}.
                if let Some(thinking) = config.get("thinkingConfig") {
                    let path = "/generationConfig/thinkingConfig";
                    let allowed = ["thinkingBudget", "thinkingLevel", "includeThoughts"];
                    if let Some(thinking) = self.check.shape(thinking, &[], &allowed, path) {
                        if thinking.contains_key("thinkingBudget") && thinking.contains_key("thinkingLevel") {
                            self.check.fail(path, "a thinking budget or a thinking level, not both");
                        }
                        if let Some(level) = thinking.get("thinkingLevel") {
                            let level = level.as_str().or(Some(""));
                            self.check.one_of(
                                level,
                                &["MINIMAL", "LOW", "MEDIUM", "HIGH"],
                                &format!("{path}/thinkingLevel"),
                            );
                        }
                    }
                }
                self.check.integer_at_least(config.get("maxOutputTokens"), 1, "/generationConfig/maxOutputTokens");
                self.check.number_in(config.get("temperature"), 0.0, 2.0, "/generationConfig/temperature");
                self.check.number_in(config.get("topP"), 0.0, 1.0, "/generationConfig/topP");
                let stops = self.check.array(config.get("stopSequences"), false, "/generationConfig/stopSequences");
                if stops.len() > MAX_STOPS {
                    self.check
                        .fail("/generationConfig/stopSequences", format!("at most {MAX_STOPS}, not {}", stops.len()));
                }
                // "Structured output": a JSON Schema needs responseMimeType application/json.
                if let Some(schema) = config.get("responseJsonSchema") {
                    self.check.object(schema, "/generationConfig/responseJsonSchema");
                    if config.get("responseMimeType").and_then(Value::as_str) != Some("application/json") {
                        self.check.fail("/generationConfig/responseMimeType", "must be application/json with a schema");
                    }
                }
            }
        }
        let mut declared = Vec::new();
        for (i, tool) in self.check.array(top.get("tools"), false, "/tools").iter().enumerate() {
            let path = format!("/tools/{i}");
            // "Tool": besides function declarations, one of Gemini's own tools per object.
            if tool.get("functionDeclarations").is_none() {
                self.check.shape(tool, &[], GEMINI_TOOLS, &path);
                if tool.as_object().is_some_and(serde_json::Map::is_empty) {
                    self.check.fail(&path, "names no tool");
                }
                continue;
            }
            if self.check.shape(tool, &["functionDeclarations"], &[], &path).is_none() {
                continue;
            }
            let path = format!("{path}/functionDeclarations");
            for (j, function) in self.check.array(tool.get("functionDeclarations"), true, &path).iter().enumerate() {
                let path = format!("{path}/{j}");
                let allowed =
                    ["description", "parameters", "parametersJsonSchema", "response", "responseJsonSchema", "behavior"];
                let Some(function) = self.check.shape(function, &["name"], &allowed, &path) else { continue };
                if let Some(name) = self.check.string(function.get("name"), &format!("{path}/name")) {
                    if !is_function_name(name) {
                        self.check.fail(&format!("{path}/name"), "not a valid function name");
                    }
                    if declared.contains(&name) {
                        self.check.fail(&format!("{path}/name"), "two functions share this name");
                    }
                    declared.push(name);
                }
                self.check.string(function.get("description"), &format!("{path}/description"));
                if function.contains_key("parameters") && function.contains_key("parametersJsonSchema") {
                    self.check.fail(&path, "parameters and parametersJsonSchema are exclusive");
                }
                self.check.object_schema(function.get("parametersJsonSchema"), &format!("{path}/parametersJsonSchema"));
            }
        }
        // "Function calling" modes: toolConfig.functionCallingConfig {mode: AUTO | ANY | NONE,
        // allowedFunctionNames? (with ANY, declared functions)}.
        if let Some(config) = top.get("toolConfig")
            && let Some(config) = self.check.shape(config, &["functionCallingConfig"], &[], "/toolConfig")
        {
            let path = "/toolConfig/functionCallingConfig";
            let allowed = ["allowedFunctionNames"];
            let calling = config.get("functionCallingConfig").unwrap_or(&NULL);
            if let Some(calling) = self.check.shape(calling, &["mode"], &allowed, path) {
                let mode = calling.get("mode").and_then(Value::as_str).or(Some(""));
                self.check.one_of(mode, &["AUTO", "ANY", "NONE"], &format!("{path}/mode"));
                let names = self.check.array(
                    calling.get("allowedFunctionNames"),
                    true,
                    &format!("{path}/allowedFunctionNames"),
                );
                if !names.is_empty() && mode != Some("ANY") {
                    self.check.fail(&format!("{path}/allowedFunctionNames"), "only with mode ANY");
                }
                for (i, name) in names.iter().enumerate() {
                    self.check.named_tool(Some(name), &declared, &format!("{path}/allowedFunctionNames/{i}"));
                }
            }
        }
        let contents = self.check.array(top.get("contents"), true, "/contents");
        self.contents(contents);
        if self.images > MAX_IMAGES {
            self.check.fail("/contents", format!("at most {MAX_IMAGES} images, not {}", self.images));
        }
        if self.inline_bytes > MAX_INLINE_BYTES {
            self.check.fail("/contents", format!("inline data totals {} bytes, over 100 MB", self.inline_bytes));
        }
    }

    fn contents(&mut self, contents: &[Value]) {
        let mut open: Vec<String> = Vec::new(); // names of the previous model turn's calls
        for (i, content) in contents.iter().enumerate() {
            let path = format!("/contents/{i}");
            let Some(object) = self.check.shape(content, &["role", "parts"], &[], &path) else { continue };
            let role = object.get("role").and_then(Value::as_str);
            self.check.one_of(role, &["user", "model"], &format!("{path}/role"));
            let mut calls = Vec::new();
            let mut responses = Vec::new();
            for (j, part) in self.check.array(object.get("parts"), true, &format!("{path}/parts")).iter().enumerate() {
                let path = format!("{path}/parts/{j}");
                let Some(part) = self.check.object(part, &path) else { continue };
                // "Thought signatures": a `thoughtSignature` string may sit beside the data field;
                // "Part": so may `thought` (a boolean) and `partMetadata`, `mediaResolution` and
                // `videoMetadata` (objects).
                if let Some(signature) = part.get("thoughtSignature") {
                    self.check.string(Some(signature), &format!("{path}/thoughtSignature"));
                }
                if part.get("thought").is_some_and(|thought| !thought.is_boolean()) {
                    self.check.fail(&format!("{path}/thought"), "must be a boolean");
                }
                for key in ["partMetadata", "mediaResolution", "videoMetadata"] {
                    if let Some(value) = part.get(key) {
                        self.check.object(value, &format!("{path}/{key}"));
                    }
                }
                let mut data = part.iter().filter(|(key, _)| !PART_METADATA.contains(&key.as_str()));
                let (Some((key, value)), None) = (data.next(), data.next()) else {
                    self.check.fail(&path, "a part sets exactly one data field");
                    continue;
                };
                let path = format!("{path}/{key}");
                match (key.as_str(), role) {
                    ("text", _) => {
                        self.check.string(Some(value), &path);
                    }
                    ("inlineData", _) => self.inline_data(value, &path),
                    ("fileData", _) => self.file_data(value, &path),
                    ("functionCall", Some("model")) => {
                        if let Some(call) = self.check.shape(value, &["name", "args"], &["id"], &path) {
                            if !call.get("args").is_some_and(Value::is_object) {
                                self.check.fail(&format!("{path}/args"), "must be an object");
                            }
                            calls.extend(
                                self.check.string(call.get("name"), &format!("{path}/name")).map(str::to_string),
                            );
                        }
                    }
                    ("functionResponse", Some("user")) => {
                        // "FunctionResponse": `willContinue` and `scheduling` beside the result.
                        let allowed = ["id", "parts", "willContinue", "scheduling"];
                        if let Some(response) = self.check.shape(value, &["name", "response"], &allowed, &path) {
                            if !response.get("response").is_some_and(Value::is_object) {
                                self.check.fail(&format!("{path}/response"), "must be an object");
                            }
                            if response.contains_key("parts") {
                                self.response_parts(response.get("parts"), &format!("{path}/parts"));
                            }
                            responses.extend(
                                self.check.string(response.get("name"), &format!("{path}/name")).map(str::to_string),
                            );
                        }
                    }
                    // "Code execution": the code the model ran and its result, in its own turn.
                    ("executableCode", Some("model")) => {
                        if let Some(code) = self.check.shape(value, &["language", "code"], &[], &path) {
                            self.check.one_of(
                                code.get("language").and_then(Value::as_str),
                                &["PYTHON"],
                                &format!("{path}/language"),
                            );
                            self.check.string(code.get("code"), &format!("{path}/code"));
                        }
                    }
                    ("codeExecutionResult", Some("model")) => {
                        if let Some(result) = self.check.shape(value, &["outcome"], &["output"], &path) {
                            self.check.one_of(
                                result.get("outcome").and_then(Value::as_str),
                                &["OUTCOME_OK", "OUTCOME_FAILED", "OUTCOME_DEADLINE_EXCEEDED"],
                                &format!("{path}/outcome"),
                            );
                        }
                    }
                    (other, _) => self.check.fail(&path, format!("part {other:?} is not allowed in a {role:?} turn")),
                }
            }
            // "Function calling": the user turn after a model turn with calls answers each call.
            let mut expected = std::mem::take(&mut open);
            if role == Some("user") {
                expected.sort();
                responses.sort();
                if expected != responses {
                    self.check.fail(
                        &path,
                        format!("functionResponse parts {responses:?} do not answer the calls {expected:?}"),
                    );
                }
            } else if !expected.is_empty() {
                self.check.fail(&path, format!("function calls {expected:?} are not answered"));
            }
            open = calls;
        }
        if !open.is_empty() {
            self.check.fail("/contents", format!("function calls {open:?} are never answered"));
        }
    }

    /// "Function calling › Multimodal function responses": `inlineData` parts of the listed
    /// image and document types; no file URIs.
    fn response_parts(&mut self, parts: Option<&Value>, path: &str) {
        for (k, part) in self.check.array(parts, true, path).iter().enumerate() {
            let path = format!("{path}/{k}");
            let Some(part) = self.check.shape(part, &["inlineData"], &[], &path) else { continue };
            let path = format!("{path}/inlineData");
            if let Some(blob) = part.get("inlineData") {
                self.inline_data(blob, &path);
                self.check.one_of(
                    blob.get("mimeType").and_then(Value::as_str),
                    &RESPONSE_MIME_TYPES,
                    &format!("{path}/mimeType"),
                );
            }
        }
    }

    fn mime_type(&mut self, value: Option<&Value>, path: &str) -> Option<String> {
        let mime = self.check.string(value, path)?;
        self.check.one_of(Some(mime), &MIME_TYPES, path);
        if mime.starts_with("image/") {
            self.images += 1;
        }
        Some(mime.to_string())
    }

    fn inline_data(&mut self, value: &Value, path: &str) {
        let Some(blob) = self.check.shape(value, &["mimeType", "data"], &[], path) else { return };
        let mime = self.mime_type(blob.get("mimeType"), &format!("{path}/mimeType"));
        if let Some(data) = self.check.string(blob.get("data"), &format!("{path}/data")) {
            if !is_base64(data) {
                self.check.fail(&format!("{path}/data"), "must be standard base64");
            }
            let bytes = decoded_len(data);
            self.inline_bytes += bytes;
            if mime.as_deref() == Some("application/pdf") && bytes > MAX_PDF_BYTES {
                self.check.fail(&format!("{path}/data"), "PDFs are at most 50 MB");
            }
        }
    }

    fn file_data(&mut self, value: &Value, path: &str) {
        let Some(file) = self.check.shape(value, &["fileUri"], &["mimeType"], path) else { return };
        self.mime_type(file.get("mimeType"), &format!("{path}/mimeType"));
        if let Some(uri) = self.check.string(file.get("fileUri"), &format!("{path}/fileUri"))
            && !is_web_url(uri)
        {
            self.check.fail(&format!("{path}/fileUri"), "must be an http(s) URL (or an uploaded file's URI)");
        }
    }
}
