//! HTTP to the backend, through gloo-net: the execute call, its body read chunk by chunk
//! through the response's body stream ([`Chunks`]), and the streaming call ([`execute_stream`]),
//! whose server-sent events are handed on as each chunk completes them.
//!
//! Errors as the execute pane tells them apart: no URL to call (`Backend::execute_url`), no
//! response at all (the network, CORS: the browser gives the page no detail, so the pane adds a
//! CORS hint for another origin), or a response with any HTTP status (its body read by
//! `model::backend::read`, 400's detail list included), or a body over
//! `model::backend::MAX_ANSWER_BYTES` (not read past the limit).

use agent_input::stream::sse::SseParser;
use gloo_net::http::{Request, Response};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use super::page;
use crate::model::backend::{Backend, MAX_ANSWER_BYTES, Reply};

/// POSTs `body` to the backend's execute URL with its auth header.
pub(crate) async fn execute(backend: &Backend, body: String) -> Reply {
    let start = page::now();
    let url = match backend.execute_url() {
        Ok(url) => url,
        Err(reason) => return Reply::Unreachable { millis: 0.0, reason, cross_origin: false },
    };
    let cross_origin = !url.starts_with(&format!("{}/", page::origin()));
    let result = post_json(&url, backend.authorization().as_deref(), body).await;
    let millis = page::now() - start;
    match result {
        Ok((status, Some(body))) => Reply::Answered { status, millis, body },
        Ok((status, None)) => Reply::TooLarge { status, millis },
        Err(reason) => Reply::Unreachable { millis, reason, cross_origin },
    }
}

/// A GET of `url` (the backend's memory): the status and the body as text (`None`: over
/// [`MAX_ANSWER_BYTES`]); `Err` is why no response came.
pub(crate) async fn get_json(url: &str, authorization: Option<&str>) -> Result<(u16, Option<String>), String> {
    let mut request = Request::get(url);
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    let response = request.send().await.map_err(reason)?;
    let status = response.status();
    Ok((status, read_text(&response).await?))
}

/// The status and the body as text (`None`: over [`MAX_ANSWER_BYTES`]); `Err` is why no
/// response (or no whole body) came.
async fn post_json(url: &str, authorization: Option<&str>, body: String) -> Result<(u16, Option<String>), String> {
    let response = send(url, authorization, body, None).await?;
    let status = response.status();
    Ok((status, read_text(&response).await?))
}

async fn send(
    url: &str,
    authorization: Option<&str>,
    body: String,
    signal: Option<&web_sys::AbortSignal>,
) -> Result<Response, String> {
    let mut request = Request::post(url).header("Content-Type", "application/json").abort_signal(signal);
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    request.body(body).map_err(reason)?.send().await.map_err(reason)
}

/// The body as text, `None` when over [`MAX_ANSWER_BYTES`].
async fn read_text(response: &Response) -> Result<Option<String>, String> {
    let mut chunks = Chunks::of(response);
    let Some(bytes) = chunks.read_to_end(MAX_ANSWER_BYTES).await? else { return Ok(None) };
    // As `Response.text()` decodes: UTF-8, a byte order mark dropped, bad bytes replaced.
    let text = String::from_utf8_lossy(&bytes);
    Ok(Some(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string()))
}

/// What the streaming call reports as it goes, each with the milliseconds since it was sent.
pub(crate) enum Step {
    /// A 2xx event stream began.
    Streaming,
    /// The data of the events the last chunk completed.
    Events(Vec<String>),
}

/// How the streaming call ended.
pub(crate) enum StreamEnd {
    /// The body ended (whether the events ended the run is the chat's to judge).
    Complete,
    /// An error status (or a 2xx that is not an event stream) with its body (`None`: over the
    /// limit): the backend refused before any stream.
    Answered { status: u16, body: Option<String>, content_type: String },
    /// No response: the network, CORS, a bad URL.
    Unreachable { reason: String, cross_origin: bool },
    /// The stream failed part way (the connection dropped, Stop aborted it) or went over
    /// [`MAX_ANSWER_BYTES`].
    Broken { reason: String },
}

/// POSTs `body` to the streaming URL and hands each chunk's complete events to `on` as they
/// arrive; `signal` aborts the fetch (Stop).
pub(crate) async fn execute_stream(
    backend: &Backend,
    body: String,
    signal: &web_sys::AbortSignal,
    mut on: impl FnMut(Step, f64),
) -> (StreamEnd, f64) {
    let start = page::now();
    let since = move || page::now() - start;
    let url = match backend.url() {
        Ok(url) => url,
        Err(reason) => return (StreamEnd::Unreachable { reason, cross_origin: false }, 0.0),
    };
    let cross_origin = !url.starts_with(&format!("{}/", page::origin()));
    let response = match send(&url, backend.authorization().as_deref(), body, Some(signal)).await {
        Ok(response) => response,
        Err(reason) => return (StreamEnd::Unreachable { reason, cross_origin }, since()),
    };
    let status = response.status();
    let content_type = response.headers().get("content-type").unwrap_or_default();
    if !(200..300).contains(&status) || !content_type.to_ascii_lowercase().starts_with("text/event-stream") {
        let end = match read_text(&response).await {
            Ok(body) => StreamEnd::Answered { status, body, content_type },
            Err(reason) => StreamEnd::Broken { reason },
        };
        return (end, since());
    }
    on(Step::Streaming, since());
    let mut chunks = Chunks::of(&response);
    // One event can be as large as the whole answer the playground reads.
    let mut parser = SseParser::new(MAX_ANSWER_BYTES);
    let mut read = 0usize;
    loop {
        match chunks.next().await {
            Ok(Some(chunk)) => {
                read += chunk.len();
                if read > MAX_ANSWER_BYTES {
                    chunks.cancel();
                    let reason = format!(
                        "the stream went over the {} the playground reads; it was not read further",
                        crate::model::display::human_bytes(MAX_ANSWER_BYTES)
                    );
                    return (StreamEnd::Broken { reason }, since());
                }
                match parser.feed(&chunk) {
                    Ok(events) if events.is_empty() => {}
                    Ok(events) => on(Step::Events(events.into_iter().map(|e| e.data).collect()), since()),
                    Err(e) => {
                        chunks.cancel();
                        let reason = format!("the event stream could not be read: {e}");
                        return (StreamEnd::Broken { reason }, since());
                    }
                }
            }
            Ok(None) => return (StreamEnd::Complete, since()),
            Err(reason) => return (StreamEnd::Broken { reason }, since()),
        }
    }
}

/// A response body read as it arrives: each [`Chunks::next`] is the next piece the network
/// delivered, `None` at the end. A response without a body (204) has no chunks.
pub(crate) struct Chunks {
    reader: Option<web_sys::ReadableStreamDefaultReader>,
}

impl Chunks {
    pub(crate) fn of(response: &Response) -> Self {
        Self { reader: response.body().map(|stream| stream.get_reader().unchecked_into()) }
    }

    /// The next chunk's bytes; `Err` when the stream fails (the connection dropped).
    pub(crate) async fn next(&mut self) -> Result<Option<Vec<u8>>, String> {
        let Some(reader) = &self.reader else { return Ok(None) };
        let result = JsFuture::from(reader.read()).await.map_err(|e| js_reason(&e))?;
        let field = |name: &str| js_sys::Reflect::get(&result, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED);
        if field("done").as_bool() != Some(false) {
            self.reader = None;
            return Ok(None);
        }
        Ok(Some(js_sys::Uint8Array::new(&field("value")).to_vec()))
    }

    /// The whole body, or `None` as soon as it is over `limit` bytes (the stream is then
    /// cancelled, not read on).
    pub(crate) async fn read_to_end(&mut self, limit: usize) -> Result<Option<Vec<u8>>, String> {
        let mut bytes = Vec::new();
        while let Some(chunk) = self.next().await? {
            if bytes.len() + chunk.len() > limit {
                self.cancel();
                return Ok(None);
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(Some(bytes))
    }

    /// Stops reading: the rest of the body is not downloaded.
    pub(crate) fn cancel(&mut self) {
        if let Some(reader) = self.reader.take() {
            let _ = reader.cancel();
        }
    }
}

fn reason(error: gloo_net::Error) -> String {
    match error {
        gloo_net::Error::JsError(e) if !e.message.is_empty() => e.message,
        gloo_net::Error::GlooError(message) if !message.is_empty() => message,
        _ => "the request failed".to_string(),
    }
}

fn js_reason(error: &JsValue) -> String {
    error.dyn_ref::<js_sys::Error>().map_or_else(|| "the request failed".to_string(), |e| String::from(e.message()))
}
