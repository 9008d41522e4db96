//! What every model client shares: the [`ProviderClient`] interface, its errors, and the HTTP pieces
//! (endpoint checks, bounded reads, transport errors) that the network clients use alike.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use agent_input::response::ProviderResponse;
use agent_input::stream::StreamEvent;
use agent_input::{ConvertOptions, Diagnostic, ExecuteRequest, ProviderId, Report};
use serde_json::json;

use crate::error::{ApiError, ErrorKind, Upstream};

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What [`ProviderClient::prepare`] built: the request body, and what changed to fit the provider.
#[derive(Debug, Clone, Default)]
pub struct Outgoing {
    /// The body to send (for `echo`, the answer itself).
    pub body: String,
    /// Conversion warnings.
    pub warnings: Vec<Diagnostic>,
    /// The input token count, for a model that counts for itself (`echo`).
    pub input_tokens: u64,
}

/// A model client.
pub trait ProviderClient: Send + Sync {
    /// Builds the request for the whole conversation in `request`.
    ///
    /// # Errors
    /// Everything the provider would reject, with paths into `request`.
    fn prepare(&self, request: &ExecuteRequest<'_>, options: &ConvertOptions) -> Result<Outgoing, Report>;

    /// Sends it and reads the answer into the standard format.
    fn send(&self, outgoing: Outgoing) -> BoxFuture<'_, Result<ProviderResponse, ProviderError>>;

    /// Sends the streaming form of the request and returns once the provider has answered with a
    /// success status (an error status is read whole and is the error here).
    fn stream(&self, outgoing: Outgoing) -> BoxFuture<'_, Result<Streaming, ProviderError>>;
}

/// A streaming answer as [`ProviderClient::stream`] gives it.
#[derive(Debug)]
pub enum Streaming {
    /// The provider's body, still to be read, in its streaming wire format.
    Body {
        /// Whose format it is.
        provider: ProviderId,
        /// The response, its status checked.
        response: reqwest::Response,
        /// Time limit for reading the rest of it.
        timeout: Duration,
    },
    /// Events known without a network (`echo`), and the answer they add up to.
    Events {
        /// The events, in order.
        events: Vec<StreamEvent>,
        /// The answer.
        answer: Box<ProviderResponse>,
    },
}

/// The next piece of a streamed body; `None` at its end.
///
/// # Errors
/// The connection failed or the time limit passed.
pub async fn next_chunk(
    response: &mut reqwest::Response,
    timeout: Duration,
) -> Result<Option<axum::body::Bytes>, ProviderError> {
    response.chunk().await.map_err(|e| transport_error(&e, timeout))
}

/// Largest streamed response body read from a provider (the non-streamed cap).
pub const MAX_STREAM_BYTES: usize = MAX_RESPONSE_BYTES;

/// A failed provider call.
#[derive(Debug)]
pub enum ProviderError {
    /// The provider answered with an error status.
    Status {
        /// Its HTTP status.
        status: u16,
        /// Its error type (`ValidationException`, …), if it said.
        error_type: Option<String>,
        /// Its message.
        message: String,
        /// Its `Retry-After`, if any.
        retry_after: Option<String>,
    },
    /// No answer within the time limit.
    Timeout(Duration),
    /// The provider could not be reached.
    Unreachable(String),
    /// The answer was not a response of the expected shape.
    BadResponse(String),
}

impl ProviderError {
    /// The gateway's answer for this failure. Upstream 400s stay 400s (the request was not
    /// acceptable to the provider), throttling stays 429, a timeout is 504, and everything
    /// else — the provider's 5xx, a credential it refused, a broken answer — is 502, so a caller
    /// can tell the gateway's own failures (500) from the provider's.
    pub fn into_api_error(self, provider: &str) -> ApiError {
        match self {
            Self::Status { status, error_type, message, retry_after } => {
                let what = error_type.as_deref().map_or_else(String::new, |k| format!(" {k}"));
                let reason = format!("{provider} answered {status}{what}: {message}");
                let error_kind = match status {
                    400 | 413 | 422 => ErrorKind::ProviderRejectedRequest,
                    401 | 403 => ErrorKind::ProviderAuthenticationFailed,
                    404 => ErrorKind::ProviderModelNotFound,
                    408 => ErrorKind::ProviderTimeout,
                    429 => ErrorKind::ProviderThrottled,
                    _ => ErrorKind::ProviderError,
                };
                let mut error = ApiError::new(error_kind, reason);
                error.upstream = Some(Box::new(Upstream {
                    extra: json!({"provider_status": status, "provider_error_type": error_type}),
                    retry_after,
                }));
                error
            }
            Self::Timeout(limit) => ApiError::new(
                ErrorKind::ProviderTimeout,
                format!("{provider} did not answer within {} s", limit.as_secs()),
            ),
            Self::Unreachable(detail) => {
                ApiError::new(ErrorKind::ProviderUnreachable, format!("{provider} could not be reached: {detail}"))
            }
            Self::BadResponse(detail) => ApiError::new(
                ErrorKind::ProviderBadResponse,
                format!("{provider} answered with something that is not a response: {detail}"),
            ),
        }
    }
}

/// Largest response body read from the provider.
pub(crate) const MAX_RESPONSE_BYTES: usize = 32 * 1024 * 1024;

/// Client settings shared by every agent.
#[derive(Debug, Clone)]
pub struct Clients {
    /// The HTTP client (connection pool).
    pub http: reqwest::Client,
    /// Time limit for one provider call.
    pub timeout: Duration,
    /// Hosts an endpoint may name besides loopback (`--endpoint-allow`), lowercase.
    pub endpoint_allow: Arc<[String]>,
}

/// Whether a `model_parameters.endpoint` may be called, and whether its answers are trusted like
/// the provider's own: the provider's own host (https) and `--endpoint-allow` hosts (https, or
/// http on loopback) are trusted; other loopback addresses are allowed but their error bodies are
/// not passed on (an agent must not read local services through the gateway); any other host is
/// refused, and so is plain http off loopback (keys would travel in clear).
///
/// # Errors
/// Why the endpoint is refused, for a person.
pub fn endpoint_trust(url: &reqwest::Url, official_host: &str, allow: &[String]) -> Result<bool, String> {
    let (name, loopback) = match url.host() {
        Some(url::Host::Domain(domain)) => {
            let domain = domain.trim_end_matches('.').to_ascii_lowercase();
            let loopback = domain == "localhost";
            (domain, loopback)
        }
        Some(url::Host::Ipv4(ip)) => (ip.to_string(), ip.is_loopback()),
        Some(url::Host::Ipv6(ip)) => (ip.to_string(), ip.is_loopback()),
        None => return Err("endpoint must name a host".into()),
    };
    let https = url.scheme() == "https";
    if !https && !loopback {
        return Err(format!("endpoint {name} must use https: plain http is allowed only to loopback"));
    }
    if https && name == official_host {
        return Ok(true);
    }
    if allow.contains(&name) {
        return Ok(true);
    }
    if loopback {
        return Ok(false);
    }
    Err(format!(
        "endpoint host {name} is not allowed: the gateway's operator must list it with --endpoint-allow {name}"
    ))
}

/// The message of an error answered by an endpoint that is not trusted (see [`endpoint_trust`]).
pub(crate) fn withheld(url: &reqwest::Url) -> String {
    format!(
        "(its body is not passed on: {} is neither the provider's own host nor on --endpoint-allow)",
        url.host_str().unwrap_or_default()
    )
}

/// A provider endpoint from `model_parameters.endpoint` (or the official URL): http or https, a
/// host, no query, fragment or user.
///
/// # Errors
/// What is wrong with it, for a person.
pub(crate) fn parse_endpoint(endpoint: &str) -> Result<reqwest::Url, String> {
    let url = reqwest::Url::parse(endpoint).map_err(|e| format!("endpoint is not a URL: {e}"))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
        return Err("endpoint must be an http or https URL with a host, such as http://127.0.0.1:9000".into());
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("endpoint must not have a query or fragment".into());
    }
    // The endpoint is returned by GET agent: it must not carry a credential.
    if !url.username().is_empty() || url.password().is_some() {
        return Err("endpoint must not contain a user or password; put credentials in \"credential\"".into());
    }
    Ok(url)
}

/// A failed exchange with a provider, without the provider's URL in the message.
pub(crate) fn transport_error(error: &reqwest::Error, timeout: Duration) -> ProviderError {
    if error.is_timeout() {
        ProviderError::Timeout(timeout)
    } else if error.is_body() || error.is_decode() {
        ProviderError::BadResponse(error.to_string())
    } else {
        // Without the URL: it is ours and known; the error's source chain says what failed.
        let mut detail = error.to_string();
        if let Some(url) = error.url() {
            detail = detail.replace(url.as_str(), "the provider's endpoint");
        }
        let mut source = std::error::Error::source(error);
        while let Some(cause) = source {
            detail = format!("{detail}: {cause}");
            source = cause.source();
        }
        ProviderError::Unreachable(detail)
    }
}

/// The response body as text, cut at [`MAX_RESPONSE_BYTES`] (then ending in `...`).
pub(crate) async fn read_limited(mut response: reqwest::Response) -> Result<String, reqwest::Error> {
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await? {
        if bytes.len() + chunk.len() > MAX_RESPONSE_BYTES {
            bytes.extend_from_slice(b"...");
            break;
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
