//! The validating proxy (`--upstream URL`): the agent API forwarded to an `OpenSearch` cluster.
//!
//! Every body is checked here first, with the core and for an ml-commons target
//! (`validate::Options::ml_commons`): bad input is answered with the gateway's usual 400 and never
//! reaches the cluster; warnings travel as `Warning` headers (the header `OpenSearch` uses for its
//! own deprecation warnings), and the body is forwarded byte for byte. The cluster's answers come
//! back with their status; a success body (an `_execute/stream` event stream included) is
//! streamed through as it arrives, an error body is passed on when it is `OpenSearch`'s error
//! JSON and wrapped in that shape when it is not (a load balancer's HTML page).
//!
//! Only the agent API is forwarded: register, get and delete an agent, `_execute` and
//! `_execute/stream`, and memory reads. The cluster's credentials are added here; nothing the
//! browser sends but the body (and the query) is passed on, so its `Authorization` for the
//! gateway never reaches the cluster and the cluster's credentials never reach the browser.
//!
//! With several nodes (`--upstream` once per node, [`nodes`]) requests go round-robin over the
//! nodes in service. A request is sent to another node only when it certainly did not reach the
//! node's handler (no connection: refused, timed out, TLS handshake failed), or when it is a read
//! (`GET`), which the cluster can answer twice without harm. A register, `_execute` or delete that
//! failed once it may have been sent is answered with a 502 (504 when the node stopped answering
//! in time) and never sent again: the cluster may have run it, and a second run would register a
//! second agent or add a second turn to the memory. The gateway acknowledges only what the cluster
//! answered, so nothing it acknowledged lives anywhere but in the cluster.
//!
//! Each agent's type is known here ([`agents`]: from the registration forwarded, or by reading
//! the agent once): input the type refuses (content blocks or messages for a V1 agent with a
//! `model` block other than `ag_ui`) is answered with the gateway's 400 before the cluster is
//! called, saying which agent types take it.
//!
//! Below the handlers: it imports the configuration and the error type only.

mod agents;
mod nodes;

use std::sync::Arc;
use std::time::Duration;

use agent_input::json::Json;
use agent_input::{Code, Diagnostic, InputType, Path, validate};
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::response::Response;
use axum::routing::{get, post};
use serde_json::Value;

use crate::config::{Config, UpstreamAuth};
use crate::error::{ApiError, ErrorKind};
use agents::{Agents, Known};
use nodes::Nodes;

/// Longest cluster error body read (to check its shape); a longer one is cut.
const MAX_ERROR_BODY: usize = 1 << 20;

/// The cluster's nodes and the clients that reach them.
#[derive(Debug)]
pub struct Proxy {
    nodes: Arc<Nodes>,
    authorization: Option<HeaderValue>,
    /// For reads: connections are kept and reused.
    client: reqwest::Client,
    /// For writes (register, `_execute`, delete): a new connection each, so that a node that went
    /// away is a refused connection, which certainly did not reach it, and never a kept
    /// connection that breaks once the request is written, which may have.
    fresh: reqwest::Client,
    max_body_bytes: usize,
    timeout: Duration,
    /// The agents' types, as far as known.
    agents: Agents,
}

impl Proxy {
    /// The proxy of `config.upstream`, if one is configured.
    ///
    /// # Errors
    /// The CA file cannot be read or holds no certificate; the client cannot be built.
    pub fn new(config: &Config) -> Result<Option<Self>, String> {
        let Some(upstream) = &config.upstream else { return Ok(None) };
        let client = build_client(config, upstream.ca.as_deref(), true)?;
        let fresh = build_client(config, upstream.ca.as_deref(), false)?;
        let authorization = match &upstream.auth {
            UpstreamAuth::None => None,
            UpstreamAuth::Basic { user, password } => {
                Some(format!("Basic {}", agent_input::base64::encode(format!("{user}:{password}").as_bytes())))
            }
            UpstreamAuth::Bearer(token) => Some(format!("Bearer {token}")),
        }
        .map(|value| {
            HeaderValue::from_str(&value)
                .map(|mut value| {
                    value.set_sensitive(true);
                    value
                })
                .map_err(|_| "the cluster's credentials hold characters a header cannot carry".to_string())
        })
        .transpose()?;
        Ok(Some(Self {
            nodes: Arc::new(Nodes::new(&upstream.urls, config.log_requests)),
            authorization,
            client,
            fresh,
            max_body_bytes: config.max_body_bytes,
            timeout: config.provider_timeout,
            agents: Agents::default(),
        }))
    }
}

/// A client for the cluster: connections kept for reuse when `pooled`, never otherwise.
fn build_client(config: &Config, ca: Option<&std::path::Path>, pooled: bool) -> Result<reqwest::Client, String> {
    let mut builder = reqwest::Client::builder()
        .connect_timeout(config.provider_timeout.min(Duration::from_secs(10)))
        // Between two reads: a stream may run long, but not stall.
        .read_timeout(config.provider_timeout)
        .pool_idle_timeout(Duration::from_secs(60))
        // A redirect would carry the cluster's credentials wherever it points.
        .redirect(reqwest::redirect::Policy::none());
    if !pooled {
        builder = builder.pool_max_idle_per_host(0);
    }
    if let Some(path) = ca {
        let pem = std::fs::read(path).map_err(|e| format!("--upstream-ca {}: {e}", path.display()))?;
        let certificates = reqwest::Certificate::from_pem_bundle(&pem)
            .map_err(|e| format!("--upstream-ca {}: not PEM certificates ({e})", path.display()))?;
        if certificates.is_empty() {
            return Err(format!("--upstream-ca {}: no certificate in the file", path.display()));
        }
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder.build().map_err(|e| format!("cannot build the cluster's HTTP client: {e}"))
}

/// The agent API's routes, forwarded to the cluster.
pub fn routes(proxy: Arc<Proxy>) -> Router {
    Router::new()
        .route("/_plugins/_ml/agents/_register", post(register))
        .route("/_plugins/_ml/agents/{agent_id}", get(pass).delete(pass))
        .route("/_plugins/_ml/agents/{agent_id}/_execute", post(execute))
        .route("/_plugins/_ml/agents/{agent_id}/_execute/stream", post(execute_stream))
        .route("/_plugins/_ml/memory/{memory_id}", get(pass))
        .route("/_plugins/_ml/memory/{memory_id}/messages", get(pass))
        .with_state(proxy)
}

/// `POST _register`: a body with the unified `model` block is checked as ml-commons reads it
/// (`agent_input::register::Registration`); others (`llm`, flow agents) are the cluster's to judge.
async fn register(State(proxy): State<Arc<Proxy>>, request: Request) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let body = read_body(body, proxy.max_body_bytes).await?;
    let value: Value = serde_json::from_slice(&body).map_err(|e| {
        ApiError::invalid_one(Diagnostic::new(
            Code::InvalidJson,
            Path::root(),
            format!("the request is not valid JSON: {e}"),
        ))
    })?;
    let mut warnings = Vec::new();
    if value.get("model").is_some() || !value.is_object() {
        let (_, report) = agent_input::register::Registration::read(&value);
        if !report.is_ok() {
            return Err(ApiError::invalid(report));
        }
        warnings = report.warnings;
    }
    let target = Target::of(parts.uri.path(), parts.uri.query())?;
    let answer = proxy.send(Method::POST, &target, Some(body.into()), &warnings).await?;
    if !answer.status().is_success() {
        return Ok(answer);
    }
    // The new agent's id, to keep the type it was registered with.
    let (parts, body) = answer.into_parts();
    let bytes = axum::body::to_bytes(body, MAX_ERROR_BODY).await.map_err(|e| {
        ApiError::new(ErrorKind::UpstreamError, format!("the cluster's answer to the registration broke off: {e}"))
    })?;
    if let Some(agent_id) =
        serde_json::from_slice::<Value>(&bytes).ok().as_ref().and_then(|v| v.get("agent_id")).and_then(Value::as_str)
    {
        proxy.agents.insert(agent_id, Known::of(&value));
    }
    Ok(Response::from_parts(parts, Body::from(bytes)))
}

/// `POST …/_execute`: the standard request, validated for an ml-commons target.
async fn execute(State(proxy): State<Arc<Proxy>>, request: Request) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let body = read_body(body, proxy.max_body_bytes).await?;
    let (warnings, input) = check_request(&body, proxy.max_body_bytes, false)?;
    let target = Target::of(parts.uri.path(), parts.uri.query())?;
    proxy.check_agent_type(&target, input).await?;
    proxy.send(Method::POST, &target, Some(body.into()), &warnings).await
}

/// `POST …/_execute/stream`: the standard request or an AG-UI `RunAgentInput`; the cluster's
/// event stream is passed on chunk by chunk.
async fn execute_stream(State(proxy): State<Arc<Proxy>>, request: Request) -> Result<Response, ApiError> {
    let (parts, body) = request.into_parts();
    let body = read_body(body, proxy.max_body_bytes).await?;
    let (warnings, input) = check_request(&body, proxy.max_body_bytes, true)?;
    let target = Target::of(parts.uri.path(), parts.uri.query())?;
    proxy.check_agent_type(&target, input).await?;
    proxy.send(Method::POST, &target, Some(body.into()), &warnings).await
}

/// Reads without a body (`GET` an agent or a memory, `DELETE` an agent): forwarded as they are.
async fn pass(State(proxy): State<Arc<Proxy>>, request: Request) -> Result<Response, ApiError> {
    let target = Target::of(request.uri().path(), request.uri().query())?;
    if request.method() == Method::DELETE
        && let Some(agent_id) = target.agent_id()
    {
        proxy.agents.forget(agent_id);
    }
    proxy.send(request.method().clone(), &target, None, &[]).await
}

/// The form and place of a standard input, for the agent type's rules; none for an AG-UI body.
type Input = Option<(InputType, Path)>;

/// Validates an execute body as the cluster will receive it; its warnings and input, or the 400.
fn check_request(body: &[u8], max_body_bytes: usize, stream: bool) -> Result<(Vec<Diagnostic>, Input), ApiError> {
    let text = crate::error::body_text(body)?;
    let limits = validate::Limits { max_body_bytes, ..validate::Limits::default() };
    let options = validate::Options { limits, allow_prefill: false, ml_commons: true };
    let document = validate::parse(text, &limits).map_err(ApiError::invalid)?;
    let agui = match &document.root {
        Json::Object(body) => agent_input::agui::REQUIRED_KEYS.iter().all(|key| body.get(key).is_some()),
        _ => false,
    };
    if stream && agui {
        // The tree the AG-UI reader takes, from the document already parsed: only for AG-UI bodies.
        let value = document.root.to_value();
        if agent_input::agui::is_run_agent_input(&value) {
            let run = agent_input::agui::from_agui(&value, &options).map_err(ApiError::invalid)?;
            return Ok((run.warnings, None));
        }
    }
    let (request, report) = validate::validate_request(&document, &options).into_result().map_err(ApiError::invalid)?;
    Ok((report.warnings, Some((request.input.input_type(), request.input_path))))
}

/// A gateway path as it is sent to any node: its decoded segments and its query.
struct Target {
    segments: Vec<String>,
    query: Option<String>,
}

impl Target {
    /// The path rebuilt segment by segment (a `..` cannot climb out of the agent API).
    fn of(path: &str, query: Option<&str>) -> Result<Self, ApiError> {
        let segments: Vec<String> =
            path.split('/').skip(1).map(|segment| percent_decode(segment).unwrap_or_default()).collect();
        if segments.iter().any(|s| s.is_empty() || s == "." || s == ".." || s.contains('/')) {
            return Err(ApiError::not_found(format!("no route for {path}")));
        }
        Ok(Self { segments, query: query.map(str::to_string) })
    }

    /// The agent id of an agent path (`/_plugins/_ml/agents/<id>/…`).
    fn agent_id(&self) -> Option<&str> {
        match self.segments.as_slice() {
            [plugins, ml, agents, id, ..] if plugins == "_plugins" && ml == "_ml" && agents == "agents" => Some(id),
            _ => None,
        }
    }

    /// The same path under a node's base URL.
    fn on(&self, base: &reqwest::Url) -> Result<reqwest::Url, ApiError> {
        let mut url = base.clone();
        url.path_segments_mut()
            .map_err(|()| ApiError::internal("the cluster URL cannot take a path"))?
            .pop_if_empty()
            .extend(&self.segments);
        url.set_query(self.query.as_deref());
        Ok(url)
    }
}

/// What a failed attempt on one node means for the request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Failure {
    /// No connection was made (refused, timed out, TLS handshake failed): the request never
    /// reached the node, and may go to another.
    NotSent,
    /// The connection broke or went silent after the request may have been sent.
    MaybeSent,
    /// As `MaybeSent`, by the read timeout: the node did not answer in time.
    NoAnswerInTime,
}

impl Failure {
    fn of(error: &reqwest::Error) -> Self {
        if error.is_connect() {
            Self::NotSent
        } else if error.is_timeout() {
            Self::NoAnswerInTime
        } else {
            Self::MaybeSent
        }
    }
}

impl Proxy {
    /// Refuses `input` when the agent of `target` is of a type that does not take its form.
    async fn check_agent_type(&self, target: &Target, input: Input) -> Result<(), ApiError> {
        let (Some((form, path)), Some(agent_id)) = (input, target.agent_id()) else { return Ok(()) };
        if form == InputType::Text {
            return Ok(());
        }
        match self.agent_type(agent_id).await {
            Some(Known::Unified(agent_type)) => {
                agent_type.check_form(form, &path).map_or(Ok(()), |d| Err(ApiError::invalid_one(d)))
            }
            Some(Known::Other) | None => Ok(()),
        }
    }

    /// The agent's type: kept, or read from the cluster once. None when the cluster cannot say
    /// (no such agent, no node answered): the cluster then answers the request itself.
    async fn agent_type(&self, agent_id: &str) -> Option<Known> {
        if let Some(known) = self.agents.get(agent_id) {
            return Some(known);
        }
        let target =
            Target { segments: ["_plugins", "_ml", "agents", agent_id].map(str::to_string).to_vec(), query: None };
        let answer = self.send(Method::GET, &target, None, &[]).await.ok()?;
        if answer.status() != StatusCode::OK {
            return None;
        }
        let bytes = axum::body::to_bytes(answer.into_body(), MAX_ERROR_BODY).await.ok()?;
        let known = Known::of(&serde_json::from_slice::<Value>(&bytes).ok()?);
        self.agents.insert(agent_id, known);
        Some(known)
    }

    /// Sends one request to the cluster, to the next node in service (and on to the others when
    /// that is safe), and answers with the cluster's answer.
    async fn send(
        &self,
        method: Method,
        target: &Target,
        body: Option<Bytes>,
        warnings: &[Diagnostic],
    ) -> Result<Response, ApiError> {
        // A read may be sent again; a write only when it never left the gateway.
        let repeatable = method == Method::GET;
        let mut failures = Vec::new();
        for i in self.nodes.order() {
            let client = if repeatable { &self.client } else { &self.fresh };
            let mut outgoing = client.request(method.clone(), target.on(self.nodes.url(i))?);
            if let Some(authorization) = &self.authorization {
                outgoing = outgoing.header(header::AUTHORIZATION, authorization.clone());
            }
            if let Some(body) = &body {
                outgoing = outgoing.header(header::CONTENT_TYPE, "application/json").body(body.clone());
            }
            match outgoing.send().await {
                Ok(answer) => {
                    self.nodes.answered(i);
                    return self.answer(answer, warnings).await;
                }
                Err(error) => {
                    let failure = Failure::of(&error);
                    let detail = self.describe(&error);
                    // A slow `_execute` may be the provider's slowness, not the node's.
                    if failure != Failure::NoAnswerInTime || repeatable {
                        self.nodes.failed(i, &detail, &self.client);
                    }
                    failures.push((failure, format!("{}: {detail}", self.nodes.url(i))));
                    if failure != Failure::NotSent && !repeatable {
                        break;
                    }
                }
            }
        }
        Err(Self::unreachable(&failures, repeatable))
    }

    /// The answer of the node: a success streamed through, an error checked for its shape.
    async fn answer(&self, answer: reqwest::Response, warnings: &[Diagnostic]) -> Result<Response, ApiError> {
        let status = answer.status();
        let mut response = if status.is_success() {
            let mut headers = HeaderMap::new();
            copy_headers(answer.headers(), &mut headers);
            let mut response = Response::new(Body::from_stream(answer.bytes_stream()));
            *response.status_mut() = status;
            *response.headers_mut() = headers;
            response
        } else {
            self.error(answer).await?
        };
        for warning in warnings {
            if let Some(value) = warning_header(warning) {
                response.headers_mut().append(header::WARNING, value);
            }
        }
        Ok(response)
    }

    /// A cluster error: passed on when it is `OpenSearch`'s error JSON, wrapped when not.
    async fn error(&self, mut answer: reqwest::Response) -> Result<Response, ApiError> {
        let status = answer.status();
        let headers = answer.headers().clone();
        let mut bytes = Vec::new();
        while let Some(chunk) = answer.chunk().await.map_err(|e| {
            let failure = (Failure::MaybeSent, format!("{}: {}", answer_url(&e), self.describe(&e)));
            Self::unreachable(&[failure], false)
        })? {
            if bytes.len() + chunk.len() > MAX_ERROR_BODY {
                break;
            }
            bytes.extend_from_slice(&chunk);
        }
        let shaped = serde_json::from_slice::<Value>(&bytes).is_ok_and(|v| v.get("error").is_some());
        if shaped {
            let mut response = Response::new(Body::from(bytes));
            *response.status_mut() = status;
            copy_headers(&headers, response.headers_mut());
            return Ok(response);
        }
        let text = String::from_utf8_lossy(&bytes);
        let excerpt: String = text.chars().take(300).collect();
        Err(ApiError {
            status,
            ..ApiError::new(
                ErrorKind::UpstreamError,
                format!("the cluster answered {status} with a body that is not OpenSearch's error JSON: {excerpt}"),
            )
        })
    }

    /// The error when no node answered: 502, or 504 when the last node tried was reached but did
    /// not answer in time; the reason names each node tried and what happened.
    fn unreachable(failures: &[(Failure, String)], repeatable: bool) -> ApiError {
        let last = failures.last().map_or(Failure::NotSent, |(failure, _)| *failure);
        let tried: Vec<&str> = failures.iter().map(|(_, detail)| detail.as_str()).collect();
        let mut reason = match tried.len() {
            1 => format!("the cluster could not be reached: {}", tried[0]),
            n => format!("no node of the cluster could be reached ({n} tried): {}", tried.join("; ")),
        };
        if last != Failure::NotSent && !repeatable {
            reason.push_str(
                "; the request may have reached the cluster, so it was not sent to another node: \
                 read the agent or the memory before sending it again",
            );
        }
        let status =
            if last == Failure::NoAnswerInTime { StatusCode::GATEWAY_TIMEOUT } else { StatusCode::BAD_GATEWAY };
        ApiError { status, ..ApiError::new(ErrorKind::UpstreamUnreachable, reason) }
    }

    /// One failed attempt in words, with its causes, and a hint for an unknown certificate.
    fn describe(&self, error: &reqwest::Error) -> String {
        if error.is_timeout() && !error.is_connect() {
            return format!("no answer within {} s", self.timeout.as_secs());
        }
        let mut detail = error.to_string();
        let mut source = std::error::Error::source(error);
        while let Some(cause) = source {
            detail = format!("{detail}: {cause}");
            source = cause.source();
        }
        if detail.contains("certificate") || detail.contains("UnknownIssuer") {
            detail.push_str("; if the cluster's certificate is self-signed, give its CA with --upstream-ca FILE");
        }
        detail
    }
}

/// The URL a failed read was for (for the error's reason).
fn answer_url(error: &reqwest::Error) -> String {
    error.url().map_or_else(|| "the cluster".to_string(), ToString::to_string)
}

/// The headers of the cluster's answer that describe its body; nothing else (no cookies).
fn copy_headers(from: &reqwest::header::HeaderMap, to: &mut HeaderMap) {
    for name in [header::CONTENT_TYPE, header::CACHE_CONTROL, header::WARNING, header::RETRY_AFTER] {
        for value in from.get_all(&name) {
            to.append(name.clone(), value.clone());
        }
    }
}

/// `299 agent-gateway "<code> at <path>: <message>"`, as `OpenSearch` writes its own warnings:
/// ASCII, with `"` and `\\` escaped, other characters as `\\uXXXX` (a header is read as Latin-1).
fn warning_header(warning: &Diagnostic) -> Option<HeaderValue> {
    use std::fmt::Write as _;
    let path = warning.path.to_string();
    let text = format!("{} at {}: {}", warning.code, if path.is_empty() { "/" } else { &path }, warning.message);
    let mut out = String::from("299 agent-gateway \"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            ' '..='~' => out.push(c),
            _ => {
                let mut units = [0_u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    let _ = write!(out, "\\u{unit:04X}");
                }
            }
        }
    }
    out.push('"');
    HeaderValue::from_str(&out).ok()
}

fn percent_decode(segment: &str) -> Option<String> {
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = segment.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

async fn read_body(body: Body, limit: usize) -> Result<Vec<u8>, ApiError> {
    axum::body::to_bytes(body, limit).await.map(Vec::from).map_err(|_| {
        let diagnostic = Diagnostic::new(
            Code::TooLarge,
            Path::root(),
            format!("the request body is over the limit of {limit} bytes"),
        )
        .limit(limit as u64, limit as u64 + 1);
        let reason = diagnostic.message.clone();
        ApiError { details: vec![diagnostic], ..ApiError::new(ErrorKind::RequestTooLarge, reason) }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_input::Report;

    fn warnings_of(body: &str) -> Result<Vec<Diagnostic>, Report> {
        check_request(body.as_bytes(), 1 << 20, false)
            .map(|(warnings, _)| warnings)
            .map_err(|e| Report { errors: e.details, warnings: Vec::new() })
    }

    #[test]
    fn placeholders_warn_and_bad_input_is_refused() {
        let warnings = warnings_of(r#"{"input": "my ${parameters.region}"}"#).unwrap();
        assert_eq!(warnings[0].code, Code::TemplatePlaceholder);
        let header = warning_header(&warnings[0]).unwrap();
        assert!(header.to_str().unwrap().starts_with("299 agent-gateway \"template_placeholder at /input: "));
        let errors = warnings_of(r#"{"input": []}"#).unwrap_err();
        assert_eq!(errors.errors[0].code, Code::EmptyInput);
    }

    #[test]
    fn agent_paths_name_their_agent_and_inputs_their_form() {
        let id = |path: &str| Target::of(path, None).unwrap().agent_id().map(str::to_string);
        assert_eq!(id("/_plugins/_ml/agents/a%20b/_execute").as_deref(), Some("a b"));
        assert_eq!(id("/_plugins/_ml/agents/x/_execute/stream").as_deref(), Some("x"));
        assert_eq!(id("/_plugins/_ml/memory/m"), None);
        let form = |body: &str| check_request(body.as_bytes(), 1 << 20, false).unwrap().1.unwrap().0;
        assert_eq!(form(r#"{"input": "hi"}"#), InputType::Text);
        assert_eq!(form(r#"{"parameters": {"question": "hi"}}"#), InputType::Text);
        assert_eq!(form(r#"{"input": [{"type": "text", "text": "hi"}]}"#), InputType::ContentBlocks);
        assert_eq!(
            form(r#"{"input": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]}"#),
            InputType::Messages
        );
    }

    #[test]
    fn paths_cannot_climb_out() {
        let base: reqwest::Url = "https://c.example:9200/prefix/".parse().unwrap();
        let target = Target::of("/_plugins/_ml/agents/a%20b/_execute", Some("x=1")).unwrap();
        assert_eq!(
            target.on(&base).unwrap().as_str(),
            "https://c.example:9200/prefix/_plugins/_ml/agents/a%20b/_execute?x=1"
        );
        for bad in ["/_plugins/_ml/memory/..", "/_plugins/_ml/memory/%2e%2e", "/_plugins/_ml/memory/a%2Fb", "/a//b"] {
            assert!(Target::of(bad, None).is_err(), "{bad}");
        }
    }
}
