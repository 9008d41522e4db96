//! A `generateContent` request body read into the standard input
//! (<https://ai.google.dev/api/generate-content>): `systemInstruction` becomes a leading system
//! message, `user` contents text and media (`inlineData`, `fileData`), `model` contents text and
//! `functionCall` parts, each `functionResponse` a tool message answering the call of its name
//! (Gemini pairs them by name and order; a call without an `id` gets `call_<n>`); a model turn's
//! `thought` parts and `thoughtSignature`s are its reasoning state and `thinkingConfig` the
//! reasoning option. A part's other members are its element's provider fields.

use serde_json::{Map, Value, json};

use crate::diagnostic::{Code, Diagnostic};
use crate::path::Path;
use crate::providers::common::import::{
    CallFields, Import, Next, SpecFields, arguments_text, extra, from_extension, from_mime, own_fields,
};
use crate::providers::id::ProviderId;

const PARTS: &[&str] = &["text", "inlineData", "fileData", "functionCall", "functionResponse"];

/// Parts without a standard form, carried as provider items (contract §3.2): the code the model
/// ran with the code execution tool, and its result.
const ITEM_PARTS: &[&str] = &["executableCode", "codeExecutionResult"];

/// Reads a `generateContent` body.
pub(crate) fn read(body: &Value) -> Import {
    let mut im = Import::new(ProviderId::Gemini);
    let root = Path::root();
    let Some(object) = im.object(body, &root, "the request body") else { return im };
    if let Some(system) = object.get("systemInstruction").or_else(|| object.get("system_instruction")) {
        let key = if object.contains_key("systemInstruction") { "systemInstruction" } else { "system_instruction" };
        self::system(&mut im, system, &root.key(key));
    }
    for (key, value) in object {
        let at = root.key(key);
        match key.as_str() {
            "contents" | "systemInstruction" | "system_instruction" => {}
            "generationConfig" => generation(&mut im, value, &at),
            "tools" => tools(&mut im, value, &at),
            "toolConfig" => tool_config(&mut im, value, &at),
            _ => im.request_key(key, value, &root),
        }
    }
    let mut pending: Vec<(String, String)> = Vec::new();
    let mut calls = 0;
    im.each_turn(object, "contents", "a generateContent request", |im, content, at| {
        self::content(im, content, at, &mut pending, &mut calls);
    });
    im
}

fn system(im: &mut Import, system: &Value, at: &Path) {
    let Some(object) = im.object(system, at, "systemInstruction") else { return };
    let Some(parts) = im.field(object, at, "parts", "systemInstruction") else { return };
    let pat = at.key("parts");
    let Some(parts) = im.as_array(parts, &pat, "parts") else { return };
    im.open("system", at);
    // Its other fields (a `role`) are the system message's own.
    for (key, value) in extra(object, &["parts"]) {
        im.message_field(key, value, at);
    }
    for (j, value) in parts.iter().enumerate() {
        let at = pat.index(j);
        let Some(object) = im.object(value, &at, "a part") else { continue };
        let before = blocks(im);
        if let Some(text) = im.string(object, &at, "text", "a system part") {
            im.text(text, &at.key("text"));
        }
        block_fields(im, object, &at, &["text"], before);
    }
}

/// The fields of `inner`, an object of a part (its `functionCall`, its `inlineData`), but `read`:
/// carried as the part's field of that name, an object that joins the one the writer writes.
fn inner_extra(inner: &Map<String, Value>, read: &[&str]) -> Option<Value> {
    let fields: Map<String, Value> = extra(inner, read).into_iter().map(|(k, v)| (k.to_owned(), v.clone())).collect();
    (!fields.is_empty()).then_some(Value::Object(fields))
}

/// How many blocks and calls the standard messages hold so far (messages, and the last one's
/// blocks and calls): a part that changes it was read into an element of its own.
fn blocks(im: &Import) -> (usize, usize, usize) {
    let last = im.messages.last();
    let len = |key: &str| last.and_then(|m| m.get(key)).and_then(Value::as_array).map_or(0, Vec::len);
    (im.messages.len(), len("content"), len("toolCalls"))
}

/// The fields of part `object` (at `at`) but `read`, as the fields of the block it was read into
/// (when one was added since `before`); left out with a warning otherwise.
fn block_fields(im: &mut Import, object: &Map<String, Value>, at: &Path, read: &[&str], before: (usize, usize, usize)) {
    let now = blocks(im);
    if (now.0, now.1) == (before.0, before.1) {
        im.other_keys(object, at, read);
        return;
    }
    for (key, value) in extra(object, read) {
        im.block_field(key, value, at);
    }
}

fn content(im: &mut Import, content: &Value, at: &Path, pending: &mut Vec<(String, String)>, calls: &mut usize) {
    let Some(object) = im.object(content, at, "a content") else { return };
    let role = match object.get("role").and_then(Value::as_str) {
        None | Some("user") => "user",
        Some("model") => "assistant",
        Some(_) => {
            im.unsupported(at.key("role"), "this role", "use user or model");
            return;
        }
    };
    im.begin(at);
    // A model turn cut off before its first part (Gemini answered nothing) has no parts: it is
    // left out, said at the turn.
    if role == "assistant" && object.get("parts").is_none_or(Value::is_null) {
        im.end(role);
        return;
    }
    let Some(parts) = im.field(object, at, "parts", "a content") else { return };
    let pat = at.key("parts");
    let Some(parts) = im.as_array(parts, &pat, "parts") else { return };
    if role == "assistant" {
        pending.clear();
    }
    let first = im.messages.len();
    for (j, part) in parts.iter().enumerate() {
        self::part(im, role, part, &pat.index(j), pending, calls);
    }
    // The content's other fields are the message's own when it was read into one user or model
    // message; a content that also held function responses has no single message for them.
    let (now, held, called) = blocks(im);
    let one = now == first + 1 && im.messages.last().is_some_and(|m| m["role"] != "tool") && held + called > 0;
    for (key, value) in extra(object, &["role", "parts"]) {
        if one {
            im.message_field(key, value, at);
        } else {
            im.other_key(key, value, at);
        }
    }
    im.end(role);
}

fn part(im: &mut Import, role: &str, part: &Value, at: &Path, pending: &mut Vec<(String, String)>, calls: &mut usize) {
    let Some(object) = im.object(part, at, "a part") else { return };
    // A model turn's thought parts and signatures are its reasoning state, as Gemini gave them.
    if object.get("thought") == Some(&Value::Bool(true)) {
        if role == "assistant" {
            im.reasoning_block(Value::Object(object.clone()), at);
        } else {
            im.reasoning(at.clone());
        }
        return;
    }
    // Code execution goes back to Gemini as given, its signature with it.
    if ITEM_PARTS.iter().any(|key| object.contains_key(*key)) {
        im.provider_item(role, part, at);
        return;
    }
    let found = object.iter().find(|(k, _)| PARTS.contains(&k.as_str()));
    match object.get("thoughtSignature") {
        // Gemini's stand-in for a missing signature carries none: the writer puts it back.
        Some(Value::String(signature)) if signature == super::request::SKIP_SIGNATURE => {}
        Some(Value::String(signature)) if role == "assistant" => {
            // On the element the part gives (the next one when it gives none).
            let next = match found.map(|(k, v)| (k.as_str(), v)) {
                Some(("text", Value::String(text))) if !text.is_empty() => Next::Content,
                Some(("inlineData" | "fileData", _)) => Next::Content,
                Some(("functionCall", _)) => Next::Call,
                _ => Next::Any,
            };
            im.reasoning_on(next, "thoughtSignature", signature, &at.key("thoughtSignature"));
        }
        Some(Value::String(_)) => im.reasoning(at.key("thoughtSignature")),
        Some(signature) => im.wrong_type(at.key("thoughtSignature"), "thoughtSignature", "a string", signature),
        None => {}
    }
    let Some((kind, inner)) = found else {
        match object.keys().find(|k| *k != "thoughtSignature" && *k != "thought") {
            Some(found) => im.unknown_type(at.key(found), found, PARTS),
            None => im.missing(at.key("text"), "text", "a part"),
        }
        return;
    };
    let bat = at.key(kind);
    // The part's other fields are those of the element it was read into: a block's, a call's,
    // or (a function response) the tool message's.
    let read = [kind.as_str(), "thoughtSignature"];
    match kind.as_str() {
        "text" => {
            im.continue_as(role, at);
            let before = blocks(im);
            if let Some(text) = im.as_str(inner, &bat, "text") {
                im.text(text, &bat);
            }
            block_fields(im, object, at, &read, before);
        }
        "inlineData" | "fileData" => {
            im.continue_as(role, at);
            let before = blocks(im);
            media(im, kind, inner, at);
            block_fields(im, object, at, &read, before);
        }
        "functionCall" => {
            im.continue_as("assistant", at);
            let Some(call) = im.object(inner, &bat, "functionCall") else { return };
            let Some(name) = im.string(call, &bat, "name", "a functionCall") else {
                im.other_keys(call, &bat, &["name", "args", "id"]);
                im.other_keys(object, at, &read);
                return;
            };
            *calls += 1;
            let given = call.get("id").and_then(Value::as_str);
            let id = given.map_or_else(|| format!("call_{calls}"), str::to_string);
            // Gemini's own id goes back to Gemini as it was; a call without one gets none.
            if let Some(given) = given {
                im.reasoning_on(Next::Call, "id", given, &bat.key("id"));
            }
            let arguments = call.get("args").map_or_else(|| "{}".to_string(), arguments_text);
            let fields = CallFields { id: bat.clone(), name: bat.key("name"), arguments: bat.key("args") };
            im.call(&id, name, &arguments, &bat, &fields);
            pending.push((name.to_string(), id));
            for (key, value) in extra(object, &read) {
                im.call_field(key, value, at);
            }
            if let Some(fields) = inner_extra(call, &["name", "args", "id"]) {
                im.call_field(kind, &fields, at);
            }
        }
        _ => {
            if function_response(im, inner, &bat, pending) {
                for (key, value) in extra(object, &read) {
                    im.message_field(key, value, at);
                }
                if let Some(fields) = inner.as_object().and_then(|response| inner_extra(response, RESPONSE_KEYS)) {
                    im.message_field(kind, &fields, at);
                }
            } else {
                im.other_keys(object, at, &read);
            }
        }
    }
}

/// An `inlineData` or `fileData` part's medium, a block; its other fields (a `displayName`) are
/// the block's own.
fn media(im: &mut Import, kind: &str, inner: &Value, at: &Path) {
    let bat = at.key(kind);
    let Some(media) = im.object(inner, &bat, kind) else { return };
    let (data_key, base64) = if kind == "inlineData" { ("data", true) } else { ("fileUri", false) };
    let read = ["mimeType", data_key];
    let Some(data) = im.string(media, &bat, data_key, kind) else {
        im.other_keys(media, &bat, &read);
        return;
    };
    let mime = im.optional_string(media, &bat, "mimeType");
    let found = mime.and_then(from_mime).or_else(|| if base64 { None } else { from_extension(data) });
    match found {
        Some(found) => {
            im.media(&found, data, base64, None, at, &bat.key(data_key));
            if let Some(fields) = inner_extra(media, &read) {
                im.block_field(kind, &fields, at);
            }
        }
        None => im.unsupported(
            bat.key("mimeType"),
            &format!("media of type '{}'", mime.unwrap_or("unknown")),
            "send an image, video or document",
        ),
    }
}

/// What a `functionResponse` holds that the standard form reads.
const RESPONSE_KEYS: &[&str] = &["name", "response", "id", "parts"];

/// A `functionResponse` (at `at`), a tool message; whether one was opened for it.
fn function_response(im: &mut Import, inner: &Value, at: &Path, pending: &mut Vec<(String, String)>) -> bool {
    let Some(response) = im.object(inner, at, "functionResponse") else { return false };
    let Some(name) = im.string(response, at, "name", "a functionResponse") else {
        im.other_keys(response, at, RESPONSE_KEYS);
        return false;
    };
    im.continue_as("tool", at);
    let given = response.get("id").and_then(Value::as_str);
    let index = pending.iter().position(|(n, id)| n == name && given.is_none_or(|g| g == id));
    match index {
        Some(index) => {
            let (_, id) = pending.remove(index);
            im.answers(&id, &at.key("name"));
        }
        // No call of that name: the pairing check reports it at the name.
        None => im.answers(name, &at.key("name")),
    }
    match response.get("response") {
        Some(Value::Object(object)) if object.len() == 1 && object.contains_key("result") => match &object["result"] {
            Value::String(text) => im.text(text, &at.key("response").key("result")),
            Value::Array(items) if items.iter().all(Value::is_string) => {
                for (k, item) in items.iter().enumerate() {
                    im.text(item.as_str().unwrap_or_default(), &at.key("response").key("result").index(k));
                }
            }
            _ => im.json(&Value::Object(object.clone()), &at.key("response")),
        },
        Some(value) if !value.is_null() => im.json(value, &at.key("response")),
        _ => {}
    }
    if let Some(parts) = response.get("parts") {
        let pat = at.key("parts");
        let Some(parts) = im.as_array(parts, &pat, "parts") else { return true };
        for (k, part) in parts.iter().enumerate() {
            let at = pat.index(k);
            let Some(object) = im.object(part, &at, "a part") else { continue };
            let before = blocks(im);
            if let Some((kind, inner)) = object.iter().find(|(k, _)| matches!(k.as_str(), "inlineData" | "fileData")) {
                media(im, kind, inner, &at);
                block_fields(im, object, &at, &[kind.as_str()], before);
            } else {
                im.other_keys(object, &at, &["inlineData", "fileData"]);
                im.missing(at.key("inlineData"), "inlineData", "a functionResponse part");
            }
        }
    }
    true
}

fn generation(im: &mut Import, value: &Value, at: &Path) {
    let Some(config) = im.object(value, at, "generationConfig") else { return };
    let json_answer = config.get("responseMimeType").and_then(Value::as_str) == Some("application/json");
    for (key, value) in config {
        let option = match key.as_str() {
            "maxOutputTokens" => "max_tokens",
            "temperature" => "temperature",
            "topP" => "top_p",
            "stopSequences" => "stop_sequences",
            "responseJsonSchema" | "responseSchema" if json_answer => {
                let schema = if key == "responseSchema" {
                    rewritten(im, value, &at.key(key), "responseJsonSchema");
                    json_schema(value)
                } else {
                    value.clone()
                };
                im.option("response_format", json!({"schema": schema}), &at.key(key));
                continue;
            }
            // A JSON answer without a schema is Gemini's own.
            "responseMimeType"
                if json_answer
                    && (config.contains_key("responseJsonSchema") || config.contains_key("responseSchema")) =>
            {
                continue;
            }
            "thinkingConfig" => {
                thinking(im, value, &at.key(key));
                continue;
            }
            _ => {
                im.request_key(key, value, at);
                continue;
            }
        };
        im.option(option, value.clone(), &at.key(key));
    }
}

/// `tools`: each function declaration a tool spec, and each tool object of Gemini's own
/// (`googleSearch`, `urlContext`, `codeExecution`) a provider tool where it stands.
fn tools(im: &mut Import, value: &Value, at: &Path) {
    let Some(tools) = im.as_array(value, at, "tools") else { return };
    let mut specs = Vec::new();
    for (i, tool) in tools.iter().enumerate() {
        let at = at.index(i);
        let Some(object) = im.object(tool, &at, "a tool") else { continue };
        let own = own_fields(object, &["functionDeclarations", "function_declarations"]);
        if !own.is_empty() {
            im.option_item("tools", specs.len(), &at);
            specs.push(im.provider_tool(Value::Object(own)));
        }
        for (key, value) in object {
            if key != "functionDeclarations" && key != "function_declarations" {
                continue;
            }
            let dat = at.key(key);
            let Some(declarations) = im.as_array(value, &dat, key) else { continue };
            for (j, declaration) in declarations.iter().enumerate() {
                let at = dat.index(j);
                let Some(function) = im.object(declaration, &at, "a function declaration") else { continue };
                // The declaration's own fields (`behavior`, `response`, ...).
                let fields = own_fields(function, &["name", "description", "parameters", "parametersJsonSchema"]);
                let Some(name) = im.string(function, &at, "name", "a function declaration") else { continue };
                let schema = match function.get("parametersJsonSchema") {
                    Some(schema) => Some(schema.clone()),
                    None => function.get("parameters").map(|parameters| {
                        rewritten(im, parameters, &at.key("parameters"), "parametersJsonSchema");
                        json_schema(parameters)
                    }),
                };
                im.option_item("tools", specs.len(), &at);
                let description = function.get("description");
                specs.push(im.spec(SpecFields { name, description, schema: schema.as_ref(), at: at.clone(), fields }));
            }
        }
    }
    im.option("tools", Value::Array(specs), at);
}

fn tool_config(im: &mut Import, value: &Value, at: &Path) {
    let Some(config) = im.object(value, at, "toolConfig") else { return };
    im.request_keys(config, at, &["functionCallingConfig"]);
    let Some(calling) = config.get("functionCallingConfig") else { return };
    let cat = at.key("functionCallingConfig");
    let Some(calling) = im.object(calling, &cat, "functionCallingConfig") else { return };
    im.request_keys(calling, &cat, &["mode", "allowedFunctionNames"]);
    let names = calling.get("allowedFunctionNames").and_then(Value::as_array);
    let choice = match (calling.get("mode").and_then(Value::as_str), names.map(Vec::as_slice)) {
        (Some("ANY"), Some([name])) => json!({"name": name}),
        // A choice among several tools: any tool, the names carried.
        (Some("ANY"), Some(names)) if !names.is_empty() => {
            im.carry(&calling["allowedFunctionNames"], &cat.key("allowedFunctionNames"));
            json!("any")
        }
        (Some(mode @ ("AUTO" | "ANY" | "NONE")), _) => json!(mode.to_ascii_lowercase()),
        // Another mode (`VALIDATED`) is Gemini's own, with the names it allows.
        (Some(_), _) => {
            im.carry(&calling["mode"], &cat.key("mode"));
            if let Some(names) = calling.get("allowedFunctionNames") {
                im.carry(names, &cat.key("allowedFunctionNames"));
            }
            return;
        }
        (None, _) => return,
    };
    im.option("tool_choice", choice, &cat.key("mode"));
}

/// Each keyword of a schema in Gemini's `OpenAPI` subset (at `at`) that the subset does not take,
/// which Gemini refuses there: a warning that the schema is written as `field` (full JSON Schema,
/// the same meaning), as every converter writes it.
fn rewritten(im: &mut Import, schema: &Value, at: &Path, field: &str) {
    for finding in crate::providers::models::schema::gemini(schema) {
        let keyword = finding.pointer.rsplit('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
        let message = format!(
            "Gemini's OpenAPI schema subset has no `{keyword}` and refuses it; the schema is written as `{field}`, which takes full JSON Schema with the same meaning"
        );
        let path = finding.to_diagnostic(at).path;
        im.report.push(Diagnostic::new(Code::SchemaRewritten, path, message));
    }
}

/// A schema in Gemini's `OpenAPI` dialect (`parameters`, `responseSchema`: types in capitals,
/// `"OBJECT"`) as JSON Schema, which every converter sends: each `type` in lowercase.
fn json_schema(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, v)| match (key.as_str(), v) {
                    ("type", Value::String(t)) => (key.clone(), Value::String(t.to_ascii_lowercase())),
                    _ => (key.clone(), json_schema(v)),
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(json_schema).collect()),
        other => other.clone(),
    }
}

/// `thinkingConfig`: a `thinkingBudget` of tokens or a `thinkingLevel`, the reasoning option;
/// a budget of 0 (off) or -1 (dynamic), a level the option does not know and `includeThoughts`
/// are carried.
fn thinking(im: &mut Import, value: &Value, at: &Path) {
    let Some(config) = im.object(value, at, "thinkingConfig") else { return };
    for (key, value) in config {
        let kat = at.key(key);
        match (key.as_str(), value) {
            ("thinkingBudget", Value::Number(n)) if n.as_u64().is_some_and(|n| n > 0) => {
                im.option("reasoning", json!({"budget_tokens": value}), &kat);
            }
            ("thinkingLevel", Value::String(level))
                if matches!(level.to_ascii_lowercase().as_str(), "minimal" | "low" | "medium" | "high") =>
            {
                im.option("reasoning", json!({"effort": level.to_ascii_lowercase()}), &kat);
            }
            _ => im.request_key(key, value, at),
        }
    }
}

/// Gemini to Gemini: each model turn of `body` whose first `functionCall` part has no
/// `thoughtSignature` is written back with `skip_thought_signature_validator` (Gemini 3 refuses
/// the turn without a signature), a change named by a warning at the field it adds. Converted
/// from another provider the sentinel is no change of a Gemini body, and is not named.
pub(crate) fn signatures_added(body: &Value) -> Vec<Diagnostic> {
    let Some(contents) = body.get("contents").and_then(Value::as_array) else { return Vec::new() };
    let mut added = Vec::new();
    for (i, content) in contents.iter().enumerate() {
        if content.get("role").and_then(Value::as_str) != Some("model") {
            continue;
        }
        let Some(parts) = content.get("parts").and_then(Value::as_array) else { continue };
        let first = parts.iter().position(|part| part.get("functionCall").is_some());
        if let Some(j) = first.filter(|&j| parts[j].get("thoughtSignature").is_none()) {
            let at = Path::root().key("contents").index(i).key("parts").index(j).key("thoughtSignature");
            let message = format!(
                "the model turn's first functionCall has no thoughtSignature: it is written back with {}, \
                 the signature Gemini documents for a call its model did not sign (Gemini 3 refuses the \
                 turn without one)",
                crate::text::quote(super::request::SKIP_SIGNATURE),
            );
            added.push(Diagnostic::new(Code::ThoughtSignatureAdded, at, message));
        }
    }
    added
}
