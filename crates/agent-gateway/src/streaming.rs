//! `_execute/stream`: one turn answered as AG-UI events over server-sent events.
//!
//! The body is the standard envelope or an AG-UI `RunAgentInput` (told apart as ml-commons does,
//! [`agent_input::agui::is_run_agent_input`]). Everything that can be wrong with the input is
//! found by [`crate::execute::begin`] before the response starts, and answered as the usual JSON
//! error. Then the answer is `200 text/event-stream`, one `data: <event>` per AG-UI event, written
//! by the core's [`RunEvents`]: exactly one `RUN_STARTED` (its `threadId` is the memory id) first
//! and exactly one `RUN_FINISHED` or `RUN_ERROR` last. The answer's reasoning state (a Gemini
//! thought signature, an Anthropic thinking block) is written just before `RUN_FINISHED` as
//! `REASONING_ENCRYPTED_VALUE` events, which an AG-UI client keeps on the message and its tool
//! calls and sends back as `encryptedValue` on the next run.
//!
//! The provider's body goes chunk by chunk through the core's [`Decoder`]. The turn is stored
//! only when the provider's stream ended with a whole answer, and before `RUN_FINISHED` is
//! written, so a client that has read `RUN_FINISHED` can continue the memory. A client that
//! leaves drops the stream: the provider call is dropped with it and nothing is stored.

use std::collections::BTreeMap;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use agent_input::agui::events::{Event, RunEvents};
use agent_input::agui::{self, AgUiRun};
use agent_input::response::ProviderResponse;
use agent_input::stream::{Decoder, StreamEvent};
use agent_input::{Code, Diagnostic, Path, validate};
use axum::body::{Body, Bytes};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use tokio::sync::mpsc;

use crate::error::ApiError;
use crate::execute::{self, Turn, TurnInput};
use crate::provider::{self, ProviderError, Streaming};
use crate::state::{AppState, new_id};

/// Events buffered between the run and a slow client before the run waits for it.
const BUFFERED: usize = 64;

/// A comment line is written after this long without an event, so proxies and the client see a
/// live connection while a model thinks.
const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// Validates and prepares the turn, then answers with its event stream.
///
/// # Errors
/// Everything [`execute::begin`] refuses, and AG-UI input problems with paths into the AG-UI body.
pub async fn respond(state: &AppState, agent_id: String, body: Vec<u8>) -> Result<Response, ApiError> {
    let (input, run_id, thread_turn) = match read_agui(&body, state.config.max_body_bytes)? {
        Some(run) => agui_turn(state, run).await?,
        None => (TurnInput::standard(body), new_id(), None),
    };
    let turn = execute::begin(state, agent_id, input).await.map_err(|mut error| {
        if let Some(thread_turn) = &thread_turn {
            error.details =
                error.details.into_iter().map(|d| Diagnostic { path: thread_turn.agui_path(&d.path), ..d }).collect();
        }
        error
    })?;
    let (sender, receiver) = mpsc::channel(BUFFERED);
    tokio::spawn(drive(state.clone(), turn, run_id, sender));
    let mut response = Response::new(Body::new(EventBody(receiver)));
    *response.status_mut() = StatusCode::OK;
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    // Tells a buffering reverse proxy (nginx) to pass each event on as it comes.
    headers.insert("x-accel-buffering", HeaderValue::from_static("no"));
    Ok(response)
}

/// The body, read as AG-UI input when it is one; `None` for anything else (the standard path
/// reports its problems, invalid JSON included).
fn read_agui(body: &[u8], max_body_bytes: usize) -> Result<Option<AgUiRun>, ApiError> {
    // Only the top-level keys are read to decide: a large standard body is not parsed twice.
    let Ok(keys) = serde_json::from_slice::<BTreeMap<String, &RawValue>>(body) else {
        return Ok(None);
    };
    let top: serde_json::Map<String, Value> = keys.into_iter().map(|(k, v)| (k, array_marker(v))).collect();
    if !agui::is_run_agent_input(&Value::Object(top)) {
        return Ok(None);
    }
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        ApiError::invalid_one(Diagnostic::new(
            Code::InvalidJson,
            Path::root(),
            format!("the request is not valid JSON: {e}"),
        ))
    })?;
    let limits = validate::Limits { max_body_bytes, ..validate::Limits::default() };
    let mut run = agui::from_agui(&value, &validate::Options { limits, ..validate::Options::default() })
        .map_err(ApiError::invalid)?;
    if run.thread_id.trim().is_empty() {
        return Err(ApiError::invalid_one(Diagnostic::new(
            Code::EmptyField,
            Path::root().key("threadId"),
            "threadId must name the conversation: the id of a memory to continue, or a new id to start one under",
        )));
    }
    run.thread_id = run.thread_id.trim().to_string();
    if run.run_id.trim().is_empty() {
        run.run_id = new_id();
    }
    Ok(Some(run))
}

/// A stand-in value that keeps what [`agui::is_run_agent_input`] looks at: whether it is an array.
fn array_marker(raw: &RawValue) -> Value {
    if raw.get().trim_start().starts_with('[') { Value::Array(Vec::new()) } else { Value::Null }
}

/// The turn an AG-UI run asks for: its `threadId` is the memory, which an unknown thread starts
/// under its id; [`AgUiRun::turn`] tells which of its messages are new to the thread.
async fn agui_turn(state: &AppState, run: AgUiRun) -> Result<(TurnInput, String, Option<agui::Turn>), ApiError> {
    let thread = run.thread_id.clone();
    let known = state
        .store
        .call(move |store| store.memory(&thread))
        .await
        .map_err(|e| ApiError::internal(e.to_string()))?
        .is_some();
    let mut turn = run.turn(known).map_err(ApiError::invalid)?;
    // Only the bytes are sent on; the turn is kept to map error paths into the AG-UI body.
    let body = serde_json::to_vec(&std::mem::take(&mut turn.request))
        .map_err(|e| ApiError::internal(format!("the input could not be written: {e}")))?;
    Ok((TurnInput { body, create_memory: true, tools: run.tools }, run.run_id, Some(turn)))
}

/// Why a run stopped early.
enum Stop {
    /// The client left: nothing more is written or stored.
    Gone,
    /// `RUN_ERROR` with this message and code.
    Failed(String, String),
}

impl Stop {
    fn provider(error: ProviderError, provider: &str) -> Self {
        let error = error.into_api_error(provider);
        Self::Failed(error.reason, error.kind.as_str().to_string())
    }
}

/// Runs the turn, writing its events to `sender`, and stores it when the answer is whole.
async fn drive(state: AppState, mut turn: Turn, run_id: String, sender: mpsc::Sender<Bytes>) {
    let mut run = RunEvents::new(turn.memory_id.clone(), run_id);
    let limit = state.config.request_timeout;
    let outcome = {
        let relay = relay(&mut turn, &mut run, &sender);
        let mut relay = std::pin::pin!(tokio::time::timeout(limit, relay));
        loop {
            tokio::select! {
                biased;
                () = sender.closed() => break Err(Stop::Gone),
                outcome = &mut relay => break match outcome {
                    Ok(outcome) => outcome,
                    Err(_) => Err(Stop::Failed(
                        format!("the run did not finish within the gateway's limit of {} s (--request-timeout-secs)", limit.as_secs()),
                        "request_timeout".into(),
                    )),
                },
                () = tokio::time::sleep(KEEP_ALIVE) => {
                    if sender.send(Bytes::from_static(b": keep-alive\n\n")).await.is_err() {
                        break Err(Stop::Gone);
                    }
                }
            }
        }
    };
    let mut result = None;
    let events = match outcome {
        Err(Stop::Gone) => return,
        Err(Stop::Failed(message, code)) => run.fail(message, Some(code)),
        Ok(answer) => match turn.store(&state, answer).await {
            Ok(stored) => {
                result = Some(finished(&stored));
                // The answer's reasoning state goes to the client, which sends it back.
                match &stored.result.final_response {
                    Some(message) => run.answered(message),
                    None => run.finish(),
                }
            }
            Err(error) => run.fail(error.reason, Some(error.kind.as_str().to_string())),
        },
    };
    let _ = sender.send(sse_finished(&events, result)).await;
}

/// `RUN_FINISHED`'s `result`: what `_execute` answers, without the history — the memory, the
/// turn's first message id, the answer's text and the new assistant message.
fn finished(stored: &execute::Stored) -> Value {
    json!({
        "memory_id": stored.memory_id,
        "parent_message_id": stored.parent.to_string(),
        "response": stored.text(),
        "message": stored.result.final_response,
    })
}

/// Sends the provider request and passes its events on; the whole answer at the end.
async fn relay(turn: &mut Turn, run: &mut RunEvents, sender: &mpsc::Sender<Bytes>) -> Result<ProviderResponse, Stop> {
    let send = |events: Vec<Event>| async move {
        if events.is_empty() { Ok(()) } else { sender.send(sse(&events)).await.map_err(|_| Stop::Gone) }
    };
    send(run.start()).await?;
    let outgoing = std::mem::take(&mut turn.outgoing);
    let streaming = turn.client.stream(outgoing).await.map_err(|e| Stop::provider(e, &turn.provider_name))?;
    match streaming {
        Streaming::Events { events, answer } => {
            for event in &events {
                send(run.on(event)).await?;
            }
            Ok(*answer)
        }
        Streaming::Body { provider: id, mut response, timeout } => {
            let mut decoder = Decoder::new(id);
            let mut read = 0_usize;
            while let Some(chunk) = provider::next_chunk(&mut response, timeout)
                .await
                .map_err(|e| Stop::provider(e, &turn.provider_name))?
            {
                read += chunk.len();
                if read > provider::MAX_STREAM_BYTES {
                    return Err(Stop::Failed(
                        format!("{} streamed more than {} bytes", turn.provider_name, provider::MAX_STREAM_BYTES),
                        "provider_bad_response".into(),
                    ));
                }
                let events = decoder
                    .feed(&chunk)
                    .map_err(|e| Stop::Failed(format!("{}: {e}", turn.provider_name), e.code().into()))?;
                let mut out = Vec::new();
                for event in &events {
                    if let StreamEvent::Error { code, message } = event {
                        // The provider's own failure in the stream: what came before it, then
                        // RUN_ERROR with its words.
                        send(out).await?;
                        return Err(Stop::Failed(
                            format!("{} failed mid-stream: {message}", turn.provider_name),
                            code.clone().unwrap_or_else(|| "provider_error".into()),
                        ));
                    }
                    out.extend(run.on(event));
                }
                send(out).await?;
            }
            decoder.finish().map_err(|e| Stop::Failed(format!("{}: {e}", turn.provider_name), e.code().into()))
        }
    }
}

/// `data: <event>\n\n` for each event, with its `timestamp` (ms since the epoch).
fn sse(events: &[Event]) -> Bytes {
    sse_finished(events, None)
}

/// As [`sse`], with `result` in `RUN_FINISHED`.
fn sse_finished(events: &[Event], mut result: Option<Value>) -> Bytes {
    let now = crate::store::now_ms();
    let mut out = Vec::new();
    for event in events {
        let mut value = serde_json::to_value(event).unwrap_or(Value::Null);
        if let Value::Object(object) = &mut value {
            object.insert("timestamp".into(), json!(now));
            if matches!(event, Event::RunFinished { .. })
                && let Some(result) = result.take()
            {
                object.insert("result".into(), result);
            }
        }
        out.extend_from_slice(b"data: ");
        // A `Value` always serializes.
        let _ = serde_json::to_writer(&mut out, &value);
        out.extend_from_slice(b"\n\n");
    }
    Bytes::from(out)
}

/// The response body: what the run sends, until it ends or the client leaves (then the receiver
/// is dropped, which the run sees as [`Stop::Gone`]).
struct EventBody(mpsc::Receiver<Bytes>);

impl axum::body::HttpBody for EventBody {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        self.0.poll_recv(cx).map(|next| next.map(|bytes| Ok(http_body::Frame::data(bytes))))
    }
}
