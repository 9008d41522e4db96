//! HTTP to the backend, through gloo-net: the execute call, its body read chunk by chunk
//! through the response's body stream ([`Chunks`]), the way a streamed answer is read.
//!
//! Errors as the execute pane tells them apart: no URL to call (`Backend::execute_url`), no
//! response at all (the network, CORS: the browser gives the page no detail, so the pane adds a
//! CORS hint for another origin), or a response with any HTTP status (its body read by
//! `model::backend::read`, 400's detail list included), or a body over
//! `model::backend::MAX_ANSWER_BYTES` (not read past the limit).

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

/// The status and the body as text (`None`: over [`MAX_ANSWER_BYTES`]); `Err` is why no
/// response (or no whole body) came.
async fn post_json(url: &str, authorization: Option<&str>, body: String) -> Result<(u16, Option<String>), String> {
    let mut request = Request::post(url).header("Content-Type", "application/json");
    if let Some(value) = authorization {
        request = request.header("Authorization", value);
    }
    let response = request.body(body).map_err(reason)?.send().await.map_err(reason)?;
    let status = response.status();
    let mut chunks = Chunks::of(&response);
    let Some(bytes) = chunks.read_to_end(MAX_ANSWER_BYTES).await? else { return Ok((status, None)) };
    // As `Response.text()` decodes: UTF-8, a byte order mark dropped, bad bytes replaced.
    let text = String::from_utf8_lossy(&bytes);
    Ok((status, Some(text.strip_prefix('\u{feff}').unwrap_or(&text).to_string())))
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
                if let Some(reader) = self.reader.take() {
                    let _ = reader.cancel();
                }
                return Ok(None);
            }
            bytes.extend_from_slice(&chunk);
        }
        Ok(Some(bytes))
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
