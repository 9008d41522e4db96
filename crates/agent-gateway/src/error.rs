//! Error responses in `OpenSearch`'s shape (contract §4):
//! `{"error": {"root_cause": [{"type", "reason"}], "type", "reason", "details"?}, "status"}`.

use agent_input::{Diagnostic, Report};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// Every error `type` the gateway answers with, and the HTTP status that goes with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// 400: the request is invalid (`details` lists every problem).
    IllegalArgument,
    /// 400: an allowlisted URL source could not be fetched.
    UrlFetchFailed,
    /// 401: missing or wrong credentials for the gateway.
    Security,
    /// 403: a `Host` header that is not the gateway's (DNS rebinding).
    HostNotAllowed,
    /// 403: a browser request from an origin not on the CORS list.
    OriginNotAllowed,
    /// 415: a POST whose body is not declared `application/json`.
    UnsupportedMediaType,
    /// 404: no such agent, memory or route.
    ResourceNotFound,
    /// 405: a known path with a method it does not take.
    MethodNotAllowed,
    /// 409: the memory received another turn while this one ran.
    VersionConflict,
    /// 413: the body is over `--max-body-bytes`.
    RequestTooLarge,
    /// 500: the gateway's own fault.
    Internal,
    /// 501: a provider the gateway has no client for.
    ProviderNotSupported,
    /// 504: the request took longer than `--request-timeout-secs`.
    RequestTimeout,
    /// 400: the provider refused the request (its 400, 413 or 422).
    ProviderRejectedRequest,
    /// 502: the provider refused the credential (its 401 or 403).
    ProviderAuthenticationFailed,
    /// 502: the provider does not know the model (its 404).
    ProviderModelNotFound,
    /// 504: the provider did not answer in time (or answered 408).
    ProviderTimeout,
    /// 429: the provider throttled the call.
    ProviderThrottled,
    /// 502: any other provider failure status.
    ProviderError,
    /// 502: the provider could not be reached.
    ProviderUnreachable,
    /// 502: the provider's answer is not a response.
    ProviderBadResponse,
    /// The cluster's status: an `--upstream` cluster's error whose body is not `OpenSearch`'s
    /// error JSON (a load balancer's page), wrapped in that shape.
    UpstreamError,
    /// 502: the `--upstream` cluster could not be reached (connection, TLS, time).
    UpstreamUnreachable,
}

impl ErrorKind {
    /// The `type` written in the body.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::IllegalArgument => "illegal_argument_exception",
            Self::UrlFetchFailed => "url_fetch_failed",
            Self::Security => "security_exception",
            Self::HostNotAllowed => "host_not_allowed",
            Self::OriginNotAllowed => "origin_not_allowed",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::ResourceNotFound => "resource_not_found_exception",
            Self::MethodNotAllowed => "method_not_allowed_exception",
            Self::VersionConflict => "version_conflict_engine_exception",
            Self::RequestTooLarge => "request_too_large",
            Self::Internal => "internal_error",
            Self::ProviderNotSupported => "provider_not_supported",
            Self::RequestTimeout => "request_timeout",
            Self::ProviderRejectedRequest => "provider_rejected_request",
            Self::ProviderAuthenticationFailed => "provider_authentication_failed",
            Self::ProviderModelNotFound => "provider_model_not_found",
            Self::ProviderTimeout => "provider_timeout",
            Self::ProviderThrottled => "provider_throttled",
            Self::ProviderError => "provider_error",
            Self::ProviderUnreachable => "provider_unreachable",
            Self::ProviderBadResponse => "provider_bad_response",
            Self::UpstreamError => "upstream_error",
            Self::UpstreamUnreachable => "upstream_unreachable",
        }
    }

    /// The HTTP status of an error of this kind.
    pub const fn status(self) -> StatusCode {
        match self {
            Self::IllegalArgument | Self::UrlFetchFailed | Self::ProviderRejectedRequest => StatusCode::BAD_REQUEST,
            Self::Security => StatusCode::UNAUTHORIZED,
            Self::HostNotAllowed | Self::OriginNotAllowed => StatusCode::FORBIDDEN,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::ResourceNotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::VersionConflict => StatusCode::CONFLICT,
            Self::RequestTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::Internal => StatusCode::INTERNAL_SERVER_ERROR,
            Self::ProviderNotSupported => StatusCode::NOT_IMPLEMENTED,
            Self::RequestTimeout | Self::ProviderTimeout => StatusCode::GATEWAY_TIMEOUT,
            Self::ProviderThrottled => StatusCode::TOO_MANY_REQUESTS,
            Self::ProviderAuthenticationFailed
            | Self::ProviderModelNotFound
            | Self::ProviderError
            | Self::ProviderUnreachable
            | Self::ProviderBadResponse
            | Self::UpstreamError
            | Self::UpstreamUnreachable => StatusCode::BAD_GATEWAY,
        }
    }
}

/// An API failure: a status, an `OpenSearch`-style type and reason, and optional details.
#[derive(Debug)]
pub struct ApiError {
    /// HTTP status ([`ErrorKind::status`]).
    pub status: StatusCode,
    /// The error's `type`.
    pub kind: ErrorKind,
    /// One sentence for a person.
    pub reason: String,
    /// Every problem, for invalid input (none: no `details` member).
    pub details: Vec<Diagnostic>,
    /// Provider failures' extra members and `Retry-After` (boxed: errors travel by value).
    pub upstream: Option<Box<Upstream>>,
}

/// What a provider failure adds to an error.
#[derive(Debug, Default)]
pub struct Upstream {
    /// Extra members of `error` (`provider_status`, …).
    pub extra: Value,
    /// A `Retry-After` header to pass on.
    pub retry_after: Option<String>,
}

/// A request body as text: the 400 (`invalid_json` at the root, naming the byte) when it is not
/// UTF-8.
pub fn body_text(body: &[u8]) -> Result<&str, ApiError> {
    std::str::from_utf8(body).map_err(|e| {
        ApiError::invalid_one(Diagnostic::new(
            agent_input::Code::InvalidJson,
            agent_input::Path::root(),
            format!("the request is not valid UTF-8 (at byte {})", e.valid_up_to()),
        ))
    })
}

impl ApiError {
    /// An error with no details, with its kind's status.
    pub fn new(kind: ErrorKind, reason: impl Into<String>) -> Self {
        Self { status: kind.status(), kind, reason: reason.into(), details: Vec::new(), upstream: None }
    }

    /// A 400 listing every error of `report` (its warnings are not errors and are left out).
    pub fn invalid(report: Report) -> Self {
        let reason = report.errors.first().map_or_else(|| "invalid request".to_string(), |d| d.message.clone());
        Self { details: report.errors, ..Self::new(ErrorKind::IllegalArgument, reason) }
    }

    /// A 400 for one problem.
    pub fn invalid_one(diagnostic: Diagnostic) -> Self {
        Self::invalid(Report { errors: vec![diagnostic], warnings: Vec::new() })
    }

    /// A 404.
    pub fn not_found(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::ResourceNotFound, reason)
    }

    /// A 500 that is the gateway's own fault (storage, a task that died).
    pub fn internal(reason: impl Into<String>) -> Self {
        Self::new(ErrorKind::Internal, reason)
    }

    /// The body, as JSON.
    pub fn body(&self) -> Value {
        let kind = self.kind.as_str();
        let mut error = json!({
            "root_cause": [{"type": kind, "reason": self.reason}],
            "type": kind,
            "reason": self.reason,
        });
        if !self.details.is_empty() {
            error["details"] = serde_json::to_value(&self.details).unwrap_or(Value::Null);
        }
        if let Some(Value::Object(extra)) = self.upstream.as_ref().map(|u| &u.extra) {
            for (key, value) in extra {
                error[key] = value.clone();
            }
        }
        json!({"error": error, "status": self.status.as_u16()})
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = json_response(self.status, &self.body());
        let retry_after = self.upstream.as_ref().and_then(|u| u.retry_after.as_deref());
        if let Some(value) = retry_after.and_then(|v| HeaderValue::from_str(v).ok()) {
            response.headers_mut().insert(header::RETRY_AFTER, value);
        }
        response
    }
}

/// A JSON response with a status.
pub fn json_response(status: StatusCode, body: &Value) -> Response {
    let text = serde_json::to_vec(body).unwrap_or_else(|_| b"{}".to_vec());
    let mut response = (status, text).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_input::{Code, Path};

    #[test]
    fn invalid_input_has_the_opensearch_shape_and_every_error() {
        let report = Report {
            errors: vec![
                Diagnostic::new(Code::EmptyText, Path::root().key("input"), "first"),
                Diagnostic::new(Code::MissingField, Path::root().key("x"), "second"),
            ],
            warnings: Vec::new(),
        };
        let body = ApiError::invalid(report).body();
        assert_eq!(body["status"], 400);
        assert_eq!(body["error"]["root_cause"][0], json!({"type": "illegal_argument_exception", "reason": "first"}));
        assert_eq!(body["error"]["reason"], "first");
        assert_eq!(body["error"]["details"].as_array().unwrap().len(), 2);
        assert_eq!(body["error"]["details"][1]["code"], "missing_field");
    }
}
