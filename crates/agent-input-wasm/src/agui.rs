//! AG-UI, built with the `agui` feature into the package's module `agent-input/agui`:
//! `RunAgentInput` ⇄ the standard request, and stream decoders that turn a provider's streaming
//! answer (bytes, split anywhere) into AG-UI events. The rules are the core's
//! ([`agent_input::agui`], [`agent_input::stream`]); this file reads arguments and writes reports.

use agent_input::agui::events::{Event, RunEvents};
use agent_input::options::ConvertOptions;
use agent_input::stream::{DEFAULT_MAX_FRAME_BYTES, Decoder, StreamError};
use agent_input::{Code, Diagnostic, Path, ProviderId, Report, ToolEntry, ToolSpec, agui, validate};
use js_sys::JSON;
use serde::Serialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use crate::api::Subject;
use crate::dto::{JsDiagnostic, JsResponseReport, list, to_json};

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT_SECTION: &str = TYPESCRIPT;

#[allow(dead_code)] // the section above uses it, which the dead-code lint does not see
const TYPESCRIPT: &str = r#"
/** An AG-UI 1.0 content part of a user or tool message. */
export type AgUiPart =
  | { type: "text"; text: string }
  | { type: "image" | "audio" | "video" | "document"; source: AgUiPartSource; metadata?: unknown }
  | { type: "binary"; mimeType: string; data?: string; url?: string; id?: string; filename?: string };

/** Where a media part's bytes are. */
export type AgUiPartSource =
  | { type: "data"; value: string; mimeType: string }
  | { type: "url"; value: string; mimeType?: string }
  | { type: "file"; [key: string]: unknown };

/** An AG-UI tool call of an assistant message. */
export interface AgUiToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
  /**
   * Reasoning state attached to this call (a Gemini thought signature), as
   * `REASONING_ENCRYPTED_VALUE` gave it: sent back unchanged, it is the message's `reasoningState`.
   */
  encryptedValue?: string;
}

/** An AG-UI message. */
export type AgUiMessage =
  | { id: string; role: "developer" | "system"; content: string; name?: string; encryptedValue?: string }
  | {
      id: string;
      role: "assistant";
      content?: string;
      toolCalls?: AgUiToolCall[];
      name?: string;
      /** The message's reasoning state, as `REASONING_ENCRYPTED_VALUE` gave it: send it back unchanged. */
      encryptedValue?: string;
    }
  | { id: string; role: "user"; content: string | AgUiPart[]; name?: string; encryptedValue?: string }
  | { id: string; role: "tool"; content: string | AgUiPart[]; toolCallId: string; error?: string; encryptedValue?: string }
  | { id: string; role: "reasoning"; content: string; encryptedValue?: string }
  | { id: string; role: "activity"; activityType: string; content: Record<string, unknown> };

/** An AG-UI tool the front-end offers. */
export interface AgUiTool {
  name: string;
  description: string;
  /** JSON Schema of its arguments. */
  parameters?: unknown;
}

/** An AG-UI `RunAgentInput`: the body a front-end sends to run an agent. */
export interface RunAgentInput {
  threadId: string;
  runId: string;
  parentRunId?: string;
  state: unknown;
  messages: AgUiMessage[];
  tools: AgUiTool[];
  context: { description: string; value: string }[];
  forwardedProps: unknown;
  [key: string]: unknown;
}

/** The outcome of `fromAgUi`. */
export type FromAgUiResult =
  | {
      ok: true;
      /**
       * The standard `_execute` request: the messages as `input` (absent when there are none: the
       * thread continues from its stored history) and the `threadId` as `parameters.memory_id`.
       */
      request: { input?: AgentInput; parameters: { memory_id: string } };
      threadId: string;
      runId: string;
      /** The AG-UI tools as tool specs, for `convert`'s `tools`. */
      tools: ToolSpec[];
      context: { description: string; value: string }[];
      state: unknown;
      forwardedProps: unknown;
      errors: [];
      warnings: ValidationWarning[];
    }
  | { ok: false; errors: ValidationError[]; warnings: ValidationWarning[] };

/** How `toAgUi` writes the run. */
export interface ToAgUiOptions extends ValidateOptions {
  /** The thread; by default the request's `parameters.memory_id`, else a random UUID. */
  threadId?: string;
  /** The run; by default a random UUID. Message ids are `<runId>-<index>`. */
  runId?: string;
  /**
   * Tools to offer, written as AG-UI tools (`inputSchema` becomes `parameters`). A provider's own
   * tool and a tool's `provider_fields` have no place in AG-UI: each is left out with a warning.
   */
  tools?: (ToolSpec | ProviderTool)[];
}

/** The outcome of `toAgUi`. */
export type ToAgUiResult =
  | { ok: true; body: RunAgentInput; errors: []; warnings: ValidationWarning[] }
  | { ok: false; body?: undefined; errors: ValidationError[]; warnings: ValidationWarning[] };

/** Token counts on `RUN_FINISHED`. */
export interface AgUiTokenUsage {
  inputTokens: number;
  outputTokens: number;
  totalTokens: number;
}

/** An AG-UI event as a stream decoder writes it; `timestamp` is milliseconds since the epoch. */
export type AgUiEvent = { timestamp: number } & (
  | { type: "RUN_STARTED"; threadId: string; runId: string }
  | { type: "RUN_FINISHED"; threadId: string; runId: string; usage?: AgUiTokenUsage[] }
  | { type: "RUN_ERROR"; message: string; code?: StreamErrorCode | string }
  | { type: "TEXT_MESSAGE_START"; messageId: string; role: "assistant" }
  | { type: "TEXT_MESSAGE_CONTENT"; messageId: string; delta: string }
  | { type: "TEXT_MESSAGE_END"; messageId: string }
  | { type: "TOOL_CALL_START"; toolCallId: string; toolCallName: string; parentMessageId?: string }
  | { type: "TOOL_CALL_ARGS"; toolCallId: string; delta: string }
  | { type: "TOOL_CALL_END"; toolCallId: string }
  | { type: "TOOL_CALL_RESULT"; messageId: string; toolCallId: string; content: string; role?: "tool" }
  | { type: "REASONING_START"; messageId: string }
  | { type: "REASONING_MESSAGE_START"; messageId: string; role: "reasoning" }
  | { type: "REASONING_MESSAGE_CONTENT"; messageId: string; delta: string }
  | { type: "REASONING_MESSAGE_END"; messageId: string }
  | { type: "REASONING_END"; messageId: string }
  | { type: "REASONING_ENCRYPTED_VALUE"; subtype: "message" | "tool-call"; entityId: string; encryptedValue: string }
  | { type: "MESSAGES_SNAPSHOT"; messages: AgUiMessage[] }
  | { type: "CUSTOM"; name: string; value: unknown }
);

/** Why a provider's stream could not be read (the `code` of `RUN_ERROR` and of a failed `finish`). */
export type StreamErrorCode =
  | "too_large"
  | "crc_mismatch"
  | "invalid_frame"
  | "invalid_utf8"
  | "invalid_json"
  | "provider_error"
  | "truncated";

/** How a stream decoder names its run. */
export interface StreamDecoderOptions {
  /** `RUN_STARTED`'s and `RUN_FINISHED`'s thread; by default a random UUID. */
  threadId?: string;
  /** The run; by default a random UUID. Message ids are `<runId>-<n>`. */
  runId?: string;
  /** The largest frame or event accepted, in bytes (default 64 MiB, the default body limit). */
  maxFrameBytes?: number;
}

/** What `finish` gives: the last events, and the whole answer as `parseResponse` reads it. */
export type StreamFinish =
  | { ok: true; events: AgUiEvent[]; message: Message; stopReason: string | null; usage: Usage | null }
  | { ok: false; events: AgUiEvent[]; error: { code: StreamErrorCode; message: string } };
"#;

/// A tool spec as JavaScript writes it (`inputSchema`).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsToolSpec<'a> {
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    description: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    input_schema: Option<&'a Value>,
}

impl<'a> From<&'a ToolSpec> for JsToolSpec<'a> {
    fn from(tool: &'a ToolSpec) -> Self {
        Self { name: &tool.name, description: tool.description.as_deref(), input_schema: tool.input_schema.as_ref() }
    }
}

/// `{ ok: true, request, threadId, ... }` or `{ ok: false, errors, warnings }`.
#[derive(Serialize)]
#[serde(untagged)]
enum FromReport<'a> {
    Read {
        ok: bool,
        request: Value,
        #[serde(rename = "threadId")]
        thread_id: &'a str,
        #[serde(rename = "runId")]
        run_id: &'a str,
        tools: Vec<JsToolSpec<'a>>,
        context: &'a [agui::model::Context],
        state: &'a Value,
        #[serde(rename = "forwardedProps")]
        forwarded_props: &'a Value,
        errors: [(); 0],
        warnings: Vec<JsDiagnostic<'a>>,
    },
    Failed {
        ok: bool,
        errors: Vec<JsDiagnostic<'a>>,
        warnings: Vec<JsDiagnostic<'a>>,
    },
}

/// Reads an AG-UI body (JSON text) into the standard request; the report as JSON.
pub(crate) fn from_agui(text: &str, options: &(validate::Options, Report)) -> String {
    let (options, mut report) = (options.0, options.1.clone());
    let failed = |report: &Report| {
        to_json(&FromReport::Failed { ok: false, errors: list(&report.errors), warnings: list(&report.warnings) })
    };
    match agui::from_agui_str(text, &options) {
        Ok(run) if report.is_ok() => to_json(&FromReport::Read {
            ok: true,
            request: run.request(),
            thread_id: &run.thread_id,
            run_id: &run.run_id,
            tools: run.tools.iter().map(JsToolSpec::from).collect(),
            context: &run.context,
            state: &run.state,
            forwarded_props: &run.forwarded_props,
            errors: [],
            warnings: list(&run.warnings),
        }),
        Ok(run) => {
            report.warnings.extend(run.warnings);
            failed(&report)
        }
        Err(errors) => {
            report.extend(errors);
            failed(&report)
        }
    }
}

/// `{ ok, body?, errors, warnings }`
#[derive(Serialize)]
struct ToReport<'a> {
    ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a agui::model::RunAgentInput>,
    errors: Vec<JsDiagnostic<'a>>,
    warnings: Vec<JsDiagnostic<'a>>,
}

/// `toAgUi`'s options beyond the validation options: the ids and the tools.
pub(crate) struct Ids {
    thread_id: Option<String>,
    run_id: Option<String>,
    tools: Vec<ToolEntry>,
}

/// Reads `{ threadId?, runId?, tools? }`, reporting problems at `/options/<key>`.
pub(crate) fn ids(options: &Value, report: &mut Report) -> Ids {
    let mut id = |key: &str| match options.get(key) {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(other) => {
            report.push(
                Diagnostic::new(
                    Code::InvalidParameter,
                    Path::root().key("options").key(key),
                    format!("{key} must be a string"),
                )
                .received(agent_input::json::type_name(other)),
            );
            None
        }
    };
    let (thread_id, run_id) = (id("threadId"), id("runId"));
    // Tools are read as `convert` reads them, with the same checks and paths.
    let mut only_tools = Map::new();
    if let Some(tools) = options.get("tools") {
        only_tools.insert("tools".into(), tools.clone());
    }
    let (convert, tools_report) = ConvertOptions::read_json(&Value::Object(only_tools));
    report.extend(tools_report);
    Ids { thread_id, run_id, tools: convert.tools }
}

/// The validation options (`allowPrefill`, `limits`) among `toAgUi`'s options.
pub(crate) fn validation_options(options: &Value) -> Value {
    match options {
        Value::Object(object) => Value::Object(
            object
                .iter()
                .filter(|(key, _)| !["threadId", "runId", "tools"].contains(&key.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Writes a standard request (JSON text) as a `RunAgentInput`; `fresh_id` names what the options
/// and the request leave unnamed.
pub(crate) fn to_agui(
    text: &str,
    options: &(validate::Options, Report),
    ids: &Ids,
    fresh_id: &mut dyn FnMut() -> String,
) -> String {
    let (options, mut report) = (options.0, options.1.clone());
    let failed = |report: &Report| {
        to_json(&ToReport { ok: false, body: None, errors: list(&report.errors), warnings: list(&report.warnings) })
    };
    let document = match validate::parse(text, &options.limits) {
        Ok(document) => document,
        Err(errors) => {
            report.extend(errors);
            return failed(&report);
        }
    };
    let (request, validated) = match crate::api::run(&document, Subject::Request, &options).into_result() {
        Ok(valid) => valid,
        Err(errors) => {
            report.extend(errors);
            return failed(&report);
        }
    };
    report.extend(validated);
    if !report.is_ok() {
        return failed(&report);
    }
    let thread_id =
        ids.thread_id.clone().or_else(|| agui::memory_id(&request).map(str::to_string)).unwrap_or_else(&mut *fresh_id);
    let run_id = ids.run_id.clone().unwrap_or_else(fresh_id);
    match agui::run_agent_input(&request, &thread_id, &run_id, &ids.tools) {
        Ok(run) => {
            report.warnings.extend(run.warnings);
            to_json(&ToReport { ok: true, body: Some(&run.body), errors: Vec::new(), warnings: list(&report.warnings) })
        }
        Err(errors) => {
            report.extend(errors);
            failed(&report)
        }
    }
}

/// An event as sent: the core's serialization with the sender's `timestamp`.
fn stamped(events: &[Event], timestamp: f64) -> Vec<Value> {
    events
        .iter()
        .map(|event| {
            let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
            if let Value::Object(object) = &mut value {
                object.insert(
                    "timestamp".into(),
                    serde_json::Number::from_f64(timestamp).map_or(Value::Null, Value::Number),
                );
            }
            value
        })
        .collect()
}

/// The decoder's state, plain Rust (tested natively); [`AgUiStreamDecoder`] wraps it.
#[derive(Debug)]
pub(crate) struct StreamState {
    decoder: Option<Decoder>,
    run: RunEvents,
}

impl StreamState {
    pub(crate) fn new(provider: ProviderId, thread_id: String, run_id: String, max_frame_bytes: usize) -> Self {
        Self {
            decoder: Some(Decoder::with_max_frame_bytes(provider, max_frame_bytes)),
            run: RunEvents::new(thread_id, run_id),
        }
    }

    /// The events a chunk completes; `None` once finished.
    pub(crate) fn push(&mut self, chunk: &[u8]) -> Option<Vec<Event>> {
        let decoder = self.decoder.as_mut()?;
        if self.run.ended() {
            return Some(Vec::new());
        }
        Some(match decoder.feed(chunk) {
            Ok(events) => {
                let mut out = self.run.start();
                for event in &events {
                    out.extend(self.run.on(event));
                }
                out
            }
            Err(error) => self.run.fail(error.to_string(), Some(error.code().to_string())),
        })
    }

    /// The last events and the whole answer; `None` once finished.
    pub(crate) fn finish(
        &mut self,
    ) -> Option<(Vec<Event>, Result<agent_input::response::ProviderResponse, StreamError>)> {
        let decoder = self.decoder.take()?;
        Some(match decoder.finish() {
            Ok(response) => (self.run.answered(&response.message), Ok(response)),
            Err(error) => (self.run.fail(error.to_string(), Some(error.code().to_string())), Err(error)),
        })
    }
}

/// `finish`'s report as JSON.
pub(crate) fn finish_json(
    events: &[Event],
    result: &Result<agent_input::response::ProviderResponse, StreamError>,
    timestamp: f64,
) -> String {
    let events = Value::Array(stamped(events, timestamp));
    let mut report = match result {
        Ok(response) => serde_json::to_value(JsResponseReport::read(response)).unwrap_or(Value::Null),
        Err(error) => serde_json::json!({
            "ok": false,
            "error": {"code": error.code(), "message": error.to_string()},
        }),
    };
    if let Value::Object(object) = &mut report {
        object.remove("errors");
        object.insert("events".into(), events);
    }
    report.to_string()
}

#[wasm_bindgen]
extern "C" {
    /// The platform's `crypto.randomUUID()` (Node 19+, browsers in secure contexts).
    #[wasm_bindgen(js_namespace = crypto, js_name = randomUUID)]
    fn random_uuid() -> String;
}

fn type_error(message: &str) -> JsValue {
    js_sys::TypeError::new(message).into()
}

/// The JSON text of an argument that is a value or already JSON text.
fn value_or_text(value: &JsValue, name: &str) -> Result<js_sys::JsString, JsValue> {
    match value.dyn_ref::<js_sys::JsString>() {
        Some(text) => Ok(text.clone()),
        None => crate::json_text(value, name),
    }
}

/// Reads an AG-UI `RunAgentInput` — a JavaScript value or its JSON text — into the standard
/// request. Every problem is an error with a JSON Pointer into the AG-UI body
/// (`/messages/2/content/1/source/value`), as `validate` reports the standard input.
#[wasm_bindgen(js_name = fromAgUi, unchecked_return_type = "FromAgUiResult")]
pub fn from_agui_js(
    #[wasm_bindgen(unchecked_param_type = "RunAgentInput | string")] body: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ValidateOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let options = crate::validate_options(options)?;
    let text = value_or_text(body, "body")?;
    JSON::parse(&crate::text::with_str(&text, |text| from_agui(text, &options)))
}

/// Writes a standard `_execute` request as an AG-UI `RunAgentInput`: the input as AG-UI
/// messages, the tools as AG-UI tools. Media in assistant or system messages, and custom roles,
/// cannot be written in AG-UI: they are errors with paths into the request.
#[wasm_bindgen(js_name = toAgUi, unchecked_return_type = "ToAgUiResult")]
pub fn to_agui_js(
    #[wasm_bindgen(unchecked_param_type = "ExecuteRequest")] request: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ToAgUiOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let value = crate::options_value(options)?;
    let mut validation = validate::Options::read_json(&validation_options(&value));
    let ids = ids(&value, &mut validation.1);
    let request = crate::json_text(request, "request")?;
    JSON::parse(&crate::text::with_str(&request, |text| to_agui(text, &validation, &ids, &mut random_uuid)))
}

/// An incremental decoder of one provider's streaming answer into AG-UI events.
#[wasm_bindgen(js_name = AgUiStreamDecoder)]
#[derive(Debug)]
pub struct AgUiStreamDecoder(StreamState);

#[wasm_bindgen(js_class = AgUiStreamDecoder)]
impl AgUiStreamDecoder {
    /// Reads the next bytes of the response body, split anywhere (inside a frame, a line or a
    /// UTF-8 character), and returns the AG-UI events they complete. The first call's events
    /// start with `RUN_STARTED`. Bytes that are not the provider's format end the run with one
    /// `RUN_ERROR`; later calls return nothing. Throws once `finish` has been called.
    #[wasm_bindgen(unchecked_return_type = "AgUiEvent[]")]
    pub fn push(&mut self, chunk: &[u8]) -> Result<JsValue, JsValue> {
        let events = self.0.push(chunk).ok_or_else(|| type_error("the stream decoder has finished"))?;
        JSON::parse(&Value::Array(stamped(&events, js_sys::Date::now())).to_string())
    }

    /// Ends the stream: the last events (whatever is open closed, then `RUN_FINISHED`, or one
    /// `RUN_ERROR` for a stream cut inside a frame) and the whole answer, as `parseResponse` reads
    /// the provider's non-streaming body. Throws when called twice.
    #[wasm_bindgen(unchecked_return_type = "StreamFinish")]
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let (events, result) = self.0.finish().ok_or_else(|| type_error("the stream decoder has finished"))?;
        JSON::parse(&finish_json(&events, &result, js_sys::Date::now()))
    }
}

/// A decoder of `provider`'s streaming answer (Bedrock `ConverseStream`'s AWS event-stream
/// frames, or the server-sent events of `OpenAI` Chat and Responses, Anthropic Messages and
/// Gemini `streamGenerateContent?alt=sse`) into AG-UI events. Throws a `TypeError` for an unknown
/// provider or bad options.
#[wasm_bindgen(js_name = createStreamDecoder)]
pub fn create_stream_decoder(
    #[wasm_bindgen(unchecked_param_type = "ProviderId | MlCommonsProviderName")] provider: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "StreamDecoderOptions")] options: &JsValue,
) -> Result<AgUiStreamDecoder, JsValue> {
    let name = provider.as_string().ok_or_else(|| type_error("provider must be a string"))?;
    let provider = ProviderId::parse(&name).ok_or_else(|| {
        let ids: Vec<&str> = ProviderId::ALL.iter().map(|p| p.as_str()).collect();
        type_error(&format!("unknown provider '{name}'; use one of {}", ids.join(", ")))
    })?;
    let options = crate::options_value(options)?;
    let id = |key: &str| match options.get(key) {
        None | Some(Value::Null) => Ok(random_uuid()),
        Some(Value::String(id)) => Ok(id.clone()),
        Some(_) => Err(type_error(&format!("options.{key} must be a string"))),
    };
    let (thread_id, run_id) = (id("threadId")?, id("runId")?);
    let max_frame_bytes = match options.get("maxFrameBytes") {
        None | Some(Value::Null) => DEFAULT_MAX_FRAME_BYTES,
        Some(value) => value
            .as_u64()
            .filter(|n| *n > 0)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| type_error("options.maxFrameBytes must be a positive whole number"))?,
    };
    Ok(AgUiStreamDecoder(StreamState::new(provider, thread_id, run_id, max_frame_bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(text: &str) -> Value {
        serde_json::from_str(text).expect("reports are JSON")
    }

    fn no_options() -> (validate::Options, Report) {
        validate::Options::read_json(&Value::Null)
    }

    const RUN: &str = r#"{"threadId": "t1", "runId": "r1", "state": {}, "tools": [{"name": "f", "description": "d",
        "parameters": {"type": "object"}}], "context": [], "forwardedProps": {},
        "messages": [{"id": "m1", "role": "user", "content": "Hi"}]}"#;

    #[test]
    fn an_agui_body_becomes_a_request_with_its_thread_as_memory() {
        let report = parse(&from_agui(RUN, &no_options()));
        assert_eq!(report["ok"], true, "{report}");
        assert_eq!(
            report["request"],
            json!({"input": [{"role": "user", "content": [{"type": "text", "text": "Hi"}]}],
            "parameters": {"memory_id": "t1"}})
        );
        assert_eq!(report["tools"], json!([{"name": "f", "description": "d", "inputSchema": {"type": "object"}}]));
        let bad = parse(&from_agui(r#"{"threadId": 1}"#, &no_options()));
        assert_eq!(bad["ok"], false);
        assert!(bad["errors"].as_array().unwrap().iter().any(|e| e["path"] == "/runId"));
        assert_eq!(parse(&from_agui("{", &no_options()))["errors"][0]["code"], "invalid_json");
    }

    #[test]
    fn a_request_becomes_an_agui_body() {
        let mut report = Report::default();
        let ids = ids(&json!({"runId": "r", "tools": [{"name": "f"}], "threadId": 3}), &mut report);
        assert_eq!(report.errors[0].path.to_string(), "/options/threadId");
        let options = (validate::Options::default(), Report::default());
        let mut fresh = || "fresh".to_string();
        let out = parse(&to_agui(r#"{"input": "Hi", "parameters": {"memory_id": "m"}}"#, &options, &ids, &mut fresh));
        assert_eq!(out["body"]["threadId"], "m");
        assert_eq!(out["body"]["runId"], "r");
        assert_eq!(out["body"]["tools"], json!([{"name": "f", "description": ""}]));
        let out = parse(&to_agui(r#"{"input": "Hi"}"#, &options, &ids, &mut fresh));
        assert_eq!(out["body"]["threadId"], "fresh");
        let bad = parse(&to_agui(r#"{"input": ""}"#, &options, &ids, &mut fresh));
        assert_eq!((bad["ok"].clone(), bad["errors"][0]["path"].clone()), (json!(false), json!("/input")));
    }

    #[test]
    fn a_stream_becomes_events_and_the_answer() {
        let body = "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n\
                    data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n";
        let mut state = StreamState::new(ProviderId::OpenAiChat, "t".into(), "r".into(), DEFAULT_MAX_FRAME_BYTES);
        let mut events = Vec::new();
        for chunk in body.as_bytes().chunks(5) {
            events.extend(state.push(chunk).expect("open"));
        }
        let (last, result) = state.finish().expect("open");
        events.extend(last);
        let types: Vec<Value> = stamped(&events, 1.0).into_iter().map(|e| e["type"].clone()).collect();
        assert_eq!(
            types,
            [
                "RUN_STARTED",
                "TEXT_MESSAGE_START",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_CONTENT",
                "TEXT_MESSAGE_END",
                "RUN_FINISHED"
            ]
        );
        let finish = parse(&finish_json(&[], &result, 2.0));
        assert_eq!(finish["stopReason"], "end_turn");
        assert!(finish.get("errors").is_none());
        assert!(state.push(b"x").is_none(), "finished");
    }

    #[test]
    fn a_broken_stream_ends_with_one_run_error() {
        let mut state = StreamState::new(ProviderId::BedrockConverse, "t".into(), "r".into(), DEFAULT_MAX_FRAME_BYTES);
        let events = state.push(&[0, 0, 0, 20, 0, 0, 0, 0, 1, 2, 3, 4]).expect("open");
        let types: Vec<Value> = stamped(&events, 1.0).into_iter().map(|e| e["type"].clone()).collect();
        assert_eq!(types, ["RUN_STARTED", "RUN_ERROR"]);
        assert!(state.push(b"more").expect("open").is_empty());
        let (last, result) = state.finish().expect("open");
        assert!(last.is_empty());
        let finish = parse(&finish_json(&last, &result, 1.0));
        assert_eq!(finish["ok"], false);
        assert_eq!(finish["error"]["code"], "crc_mismatch");
    }
}
