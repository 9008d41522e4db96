//! Model clients, one module per provider, behind [`Provider`].
//!
//! A call has two steps: [`Provider::prepare`] builds what is sent from the whole conversation
//! (CPU work, run on a blocking thread; its errors are the caller's, a 400), and
//! [`Provider::send`] sends it and reads the answer (its errors are the provider's, mapped by
//! [`ProviderError::into_api_error`]).

pub mod bedrock;
pub mod echo;
pub mod hosted;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use agent_input::response::ProviderResponse;
use agent_input::stream::StreamEvent;
use agent_input::{Code, ConvertOptions, Diagnostic, ExecuteRequest, Path, ProviderId, Report};
use serde_json::{Map, Value, json};

use crate::error::{ApiError, ErrorKind, Upstream};
use crate::store::ModelSpec;

/// A boxed, sendable future.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What [`Provider::prepare`] built: the request body, and what changed to fit the provider.
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
pub trait Provider: Send + Sync {
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

/// A streaming answer as [`Provider::stream`] gives it.
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
        answer: ProviderResponse,
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
    response.chunk().await.map_err(|e| bedrock::transport_error(&e, timeout))
}

/// Largest streamed response body read from a provider (the non-streamed cap).
pub const MAX_STREAM_BYTES: usize = bedrock::MAX_RESPONSE_BYTES;

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

/// Which client a `model_provider` names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// The offline echo model.
    Echo,
    /// A provider the core converts for.
    Core(ProviderId),
}

impl Backend {
    /// Reads `echo` or a provider id / ml-commons alias, case-insensitively.
    pub fn parse(raw: &str) -> Option<Self> {
        if raw.trim().eq_ignore_ascii_case("echo") {
            Some(Self::Echo)
        } else {
            ProviderId::parse(raw.trim()).map(Self::Core)
        }
    }

    /// The names accepted, for messages: `echo`, and each provider's ml-commons name or, when it
    /// has none, its id.
    pub fn supported() -> Vec<String> {
        let mut names = vec!["echo".to_string()];
        names.extend(ProviderId::ALL.iter().map(|id| id.ml_commons_name().unwrap_or(id.as_str()).to_string()));
        names
    }
}

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

/// `model_parameters` keys that feed the conversion.
const CONVERSION_KEYS: &[&str] = &["system_prompt", "max_tokens", "temperature", "top_p", "stop_sequences", "tools"];

/// The conversion options of an agent: its `model_parameters` that feed the conversion (numbers
/// may be strings, as ml-commons stores them; `tools` may be JSON text).
///
/// # Errors
/// `invalid_parameter` at `/model/model_parameters/<key>`.
pub fn convert_options(model_parameters: &Map<String, Value>) -> Result<ConvertOptions, Report> {
    let (options, report) = read_options(model_parameters);
    if report.is_ok() { Ok(options) } else { Err(report) }
}

/// The readable conversion options and a report of the rest, at `/model/model_parameters/<key>`.
fn read_options(model_parameters: &Map<String, Value>) -> (ConvertOptions, Report) {
    let mut picked = Map::new();
    for key in CONVERSION_KEYS {
        if let Some(value) = model_parameters.get(*key) {
            let value = match (*key, value) {
                ("tools" | "stop_sequences", Value::String(text)) if text.trim_start().starts_with('[') => {
                    serde_json::from_str(text).unwrap_or_else(|_| value.clone())
                }
                _ => value.clone(),
            };
            picked.insert((*key).to_string(), value);
        }
    }
    let (options, report) = ConvertOptions::read_json(&Value::Object(picked));
    (options, rerooted(report))
}

fn rerooted(mut report: Report) -> Report {
    for diagnostic in report.errors.iter_mut().chain(report.warnings.iter_mut()) {
        diagnostic.path = reroot_option(&diagnostic.path);
    }
    report
}

/// `/options/<name>` → `/model/model_parameters/<name>`.
fn reroot_option(path: &Path) -> Path {
    let mut out = Path::root().key("model").key("model_parameters");
    for segment in path.segments().iter().skip(1) {
        out = match segment {
            agent_input::Segment::Key(key) => out.key(if &**key == "system" { "system_prompt" } else { key }),
            agent_input::Segment::Index(i) => out.index(*i),
        };
    }
    out
}

/// Checks a `model` block (provider, credential, parameters) at registration, reporting every
/// problem.
pub fn check_model(model: &ModelSpec, endpoint_allow: &[String]) -> Report {
    let mut report = Report::default();
    match Backend::parse(&model.model_provider) {
        None => report.push(
            Diagnostic::new(
                Code::InvalidParameter,
                Path::root().key("model").key("model_provider"),
                format!("Unknown model provider type. Supported types: {}", Backend::supported().join(", ")),
            )
            .expected(Backend::supported())
            .received(model.model_provider.clone()),
        ),
        Some(Backend::Core(ProviderId::BedrockConverse)) => bedrock::check(model, endpoint_allow, &mut report),
        Some(Backend::Core(provider)) if hosted::handles(provider) => {
            hosted::check(provider, model, endpoint_allow, &mut report);
        }
        Some(_) => {}
    }
    // Every problem of the options at once: those that cannot be read, and the provider's range
    // and tool checks of those that can.
    let (options, errors) = read_options(&model.model_parameters);
    report.extend(errors);
    if let Some(Backend::Core(provider)) = Backend::parse(&model.model_provider) {
        report.extend(rerooted(agent_input::convert::check_options(provider, &options)));
    }
    report
}

/// The client for an agent's model.
///
/// # Errors
/// A provider the gateway has no client for, or a model block that does not make a client.
pub fn for_model(model: &ModelSpec, clients: &Clients) -> Result<Box<dyn Provider>, ApiError> {
    match Backend::parse(&model.model_provider) {
        Some(Backend::Echo) => Ok(Box::new(echo::Echo)),
        Some(Backend::Core(ProviderId::BedrockConverse)) => Ok(Box::new(bedrock::Bedrock::new(model, clients)?)),
        // The API-key providers; one the gateway cannot call yet is a 501 from here.
        Some(Backend::Core(provider)) => Ok(Box::new(hosted::Hosted::new(provider, model, clients)?)),
        None => Err(ApiError::invalid_one(Diagnostic::new(
            Code::InvalidParameter,
            Path::root().key("model").key("model_provider"),
            format!("Unknown model provider type. Supported types: {}", Backend::supported().join(", ")),
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_come_from_model_parameters_with_numbers_as_strings() {
        let parameters = json!({"region": "us-west-2", "max_tokens": "512", "temperature": 0.5,
            "system_prompt": "Be brief.", "tools": "[{\"name\":\"get_weather\"}]"});
        let options = convert_options(parameters.as_object().unwrap()).unwrap();
        assert_eq!(options.max_tokens, Some(512));
        assert_eq!(options.system.as_deref(), Some("Be brief."));
        assert_eq!(options.tools[0].name, "get_weather");
        let bad = json!({"top_p": "abc", "system_prompt": 5});
        let report = convert_options(bad.as_object().unwrap()).unwrap_err();
        let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert!(paths.contains(&"/model/model_parameters/top_p".to_string()), "{paths:?}");
        assert!(paths.contains(&"/model/model_parameters/system_prompt".to_string()), "{paths:?}");
    }

    #[test]
    fn providers_parse_case_insensitively() {
        assert_eq!(Backend::parse("ECHO"), Some(Backend::Echo));
        assert_eq!(Backend::parse("Bedrock/Converse"), Some(Backend::Core(ProviderId::BedrockConverse)));
        assert_eq!(Backend::parse("nope"), None);
    }
}
