//! Error responses in `OpenSearch`'s shape (SPEC §4):
//! `{"error": {"root_cause": [{"type", "reason"}], "type", "reason", "details"?}, "status"}`.

use agent_input::{Diagnostic, Report};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// An API failure: a status, an `OpenSearch`-style type and reason, and optional details.
#[derive(Debug)]
pub struct ApiError {
    /// HTTP status.
    pub status: StatusCode,
    /// `illegal_argument_exception`, `resource_not_found_exception`, `provider_error`, …
    pub kind: &'static str,
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

impl ApiError {
    /// An error with no details.
    pub fn new(status: StatusCode, kind: &'static str, reason: impl Into<String>) -> Self {
        Self { status, kind, reason: reason.into(), details: Vec::new(), upstream: None }
    }

    /// A 400 listing every error of `report` (its warnings are not errors and are left out).
    pub fn invalid(report: Report) -> Self {
        let reason = report.errors.first().map_or_else(|| "invalid request".to_string(), |d| d.message.clone());
        Self { details: report.errors, ..Self::new(StatusCode::BAD_REQUEST, "illegal_argument_exception", reason) }
    }

    /// A 400 for one problem.
    pub fn invalid_one(diagnostic: Diagnostic) -> Self {
        Self::invalid(Report { errors: vec![diagnostic], warnings: Vec::new() })
    }

    /// A 404.
    pub fn not_found(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::NOT_FOUND, "resource_not_found_exception", reason)
    }

    /// A 500 that is the gateway's own fault (storage, a task that died).
    pub fn internal(reason: impl Into<String>) -> Self {
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, "internal_error", reason)
    }

    /// The body, as JSON.
    pub fn body(&self) -> Value {
        let mut error = json!({
            "root_cause": [{"type": self.kind, "reason": self.reason}],
            "type": self.kind,
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
