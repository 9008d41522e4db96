//! AWS Bedrock Runtime `Converse`: `POST {endpoint}/model/{modelId}/converse`, and
//! `ConverseStream`: `POST {endpoint}/model/{modelId}/converse-stream` (same body and signing, an
//! answer in AWS event-stream frames).
//!
//! API: <https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html>.
//! The body comes from the core's converter. Authentication is `SigV4` for service `bedrock`
//! (`credential.access_key`, `secret_key`, optional `session_token`) or a Bedrock API key
//! (`credential.api_key`, sent as `Authorization: Bearer`). `model_parameters.region` defaults to
//! `us-east-1`; `model_parameters.endpoint` replaces `https://bedrock-runtime.{region}.amazonaws.com`.

use std::time::{Duration, SystemTime};

use agent_input::response::{ProviderResponse, parse_bedrock_converse};
use agent_input::{Code, ConvertOptions, Diagnostic, ExecuteRequest, Path, ProviderId, Report, convert};
use serde_json::Value;

use super::client::{
    BoxFuture, Clients, Outgoing, ProviderClient, ProviderError, Streaming, endpoint_trust, parse_endpoint,
    read_limited, transport_error, withheld,
};
use crate::error::{ApiError, ErrorKind};
use crate::sigv4::{self, Credentials};
use crate::store::ModelSpec;

/// How requests are authenticated. `Debug` hides the key.
#[derive(Clone)]
enum Auth {
    SigV4(Credentials),
    Bearer(String),
}

impl std::fmt::Debug for Auth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::SigV4(credentials) => f.debug_tuple("SigV4").field(credentials).finish(),
            Self::Bearer(_) => f.write_str("Bearer(***)"),
        }
    }
}

/// A Bedrock Converse client for one model.
#[derive(Debug, Clone)]
pub struct Bedrock {
    http: reqwest::Client,
    timeout: Duration,
    url: reqwest::Url,
    /// `…/converse-stream`.
    stream_url: reqwest::Url,
    /// Whether error bodies are passed on ([`endpoint_trust`]).
    trusted: bool,
    region: String,
    auth: Auth,
}

fn parameter<'a>(model: &'a ModelSpec, key: &str) -> Option<&'a str> {
    model.model_parameters.get(key).and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// Registration checks: a credential, a usable region and endpoint.
pub(super) fn check(model: &ModelSpec, endpoint_allow: &[String], report: &mut Report) {
    let credential = Path::root().key("model").key("credential");
    let has_keys = model.credential.get("access_key").is_some() && model.credential.get("secret_key").is_some();
    if !has_keys && model.credential.get("api_key").is_none() {
        report.push(Diagnostic::new(
            Code::MissingField,
            credential,
            "Missing credential: bedrock/converse needs credential.access_key and credential.secret_key \
             (optionally session_token), or credential.api_key (a Bedrock API key)",
        ));
    }
    let parameters = Path::root().key("model").key("model_parameters");
    for key in ["region", "endpoint"] {
        if let Some(value) = model.model_parameters.get(key).filter(|v| !v.is_string() && !v.is_null()) {
            report.push(
                Diagnostic::new(Code::InvalidFieldType, parameters.key(key), format!("{key} must be a string"))
                    .received(value.to_string()),
            );
        }
    }
    if let Some(region) = parameter(model, "region")
        && !region.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
    {
        report.push(
            Diagnostic::new(Code::InvalidParameter, parameters.key("region"), "region must look like us-east-1")
                .received(region),
        );
    }
    if let Some(endpoint) = parameter(model, "endpoint")
        && let Err(message) =
            parse_endpoint(endpoint).and_then(|url| endpoint_trust(&url, &official_host(model), endpoint_allow))
    {
        report.push(Diagnostic::new(Code::InvalidParameter, parameters.key("endpoint"), message).received(endpoint));
    }
}

fn official_host(model: &ModelSpec) -> String {
    format!("bedrock-runtime.{}.amazonaws.com", parameter(model, "region").unwrap_or("us-east-1"))
}

impl Bedrock {
    /// A client for `model`.
    ///
    /// # Errors
    /// A model block that [`check`] would reject (stored before a check existed, or edited).
    pub fn new(model: &ModelSpec, clients: &Clients) -> Result<Self, ApiError> {
        let mut report = Report::default();
        check(model, &clients.endpoint_allow, &mut report);
        if !report.is_ok() {
            return Err(ApiError::invalid(report));
        }
        let region = parameter(model, "region").unwrap_or("us-east-1").to_string();
        let base = match parameter(model, "endpoint") {
            Some(endpoint) => endpoint.trim_end_matches('/').to_string(),
            None => format!("https://bedrock-runtime.{region}.amazonaws.com"),
        };
        let url = format!("{base}/model/{}/converse", sigv4::uri_encode(&model.model_id));
        let url = parse_endpoint(&url).map_err(|e| ApiError::new(ErrorKind::IllegalArgument, e))?;
        let mut stream_url = url.clone();
        stream_url.set_path(&format!("{}-stream", url.path()));
        let trusted = endpoint_trust(&url, &official_host(model), &clients.endpoint_allow)
            .map_err(|e| ApiError::new(ErrorKind::IllegalArgument, e))?;
        let credential = &model.credential;
        let auth = match (credential.get("access_key"), credential.get("secret_key")) {
            (Some(access_key), Some(secret_key)) => Auth::SigV4(Credentials {
                access_key: access_key.to_string(),
                secret_key: secret_key.to_string(),
                session_token: credential.get("session_token").map(str::to_string),
            }),
            _ => Auth::Bearer(credential.get("api_key").unwrap_or_default().to_string()),
        };
        Ok(Self { http: clients.http.clone(), timeout: clients.timeout, url, stream_url, trusted, region, auth })
    }

    /// The `Host` header as the HTTP client sends it (the port only when not the default).
    fn host(&self) -> String {
        let host = self.url.host_str().unwrap_or_default();
        match self.url.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_string(),
        }
    }

    async fn call(&self, body: String) -> Result<ProviderResponse, ProviderError> {
        let response = self.request(&self.url, "application/json", body).await?;
        let text = read_limited(response).await.map_err(|e| self.transport_error(&e))?;
        parse_bedrock_converse(&text).map_err(|report| ProviderError::BadResponse(report.to_string()))
    }

    async fn call_stream(&self, body: String) -> Result<Streaming, ProviderError> {
        let response = self.request(&self.stream_url, "application/vnd.amazon.eventstream", body).await?;
        Ok(Streaming::Body { provider: ProviderId::BedrockConverse, response, timeout: self.timeout })
    }

    /// Signs and sends `body` to `url`; a success status gives the response unread, any other
    /// status the provider's error.
    async fn request(
        &self,
        url: &reqwest::Url,
        accept: &str,
        body: String,
    ) -> Result<reqwest::Response, ProviderError> {
        let mut request = self
            .http
            .post(url.clone())
            .timeout(self.timeout)
            .header("content-type", "application/json")
            .header("accept", accept);
        match &self.auth {
            Auth::SigV4(credentials) => {
                let host = self.host();
                let signature = sigv4::sign(
                    &sigv4::Request {
                        method: "POST",
                        path: url.path(),
                        query: "",
                        headers: &[("content-type", "application/json"), ("host", &host)],
                        payload: body.as_bytes(),
                    },
                    credentials,
                    &self.region,
                    "bedrock",
                    SystemTime::now(),
                );
                request =
                    request.header("x-amz-date", signature.amz_date).header("authorization", signature.authorization);
                if let Some(token) = &credentials.session_token {
                    request = request.header("x-amz-security-token", token);
                }
            }
            Auth::Bearer(key) => request = request.bearer_auth(key),
        }
        let response = request.body(body).send().await.map_err(|e| self.transport_error(&e))?;
        let status = response.status().as_u16();
        let header = |name: &str| response.headers().get(name).and_then(|v| v.to_str().ok()).map(str::to_string);
        let error_type = header("x-amzn-errortype").map(|t| t.split(':').next().unwrap_or_default().to_string());
        let retry_after = header("retry-after");
        if (200..300).contains(&status) {
            return Ok(response);
        }
        let text = read_limited(response).await.map_err(|e| self.transport_error(&e))?;
        if !self.trusted {
            let message = withheld(&self.url);
            return Err(ProviderError::Status { status, error_type: None, message, retry_after });
        }
        Err(ProviderError::Status { status, error_type, message: error_message(&text), retry_after })
    }

    fn transport_error(&self, error: &reqwest::Error) -> ProviderError {
        transport_error(error, self.timeout)
    }
}

/// Bedrock errors are `{"message": "..."}` (sometimes `Message`); anything else is quoted, cut short.
fn error_message(body: &str) -> String {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    if let Some(message) =
        parsed.as_ref().and_then(|v| v.get("message").or_else(|| v.get("Message"))).and_then(Value::as_str)
    {
        return message.to_string();
    }
    let short: String = body.chars().take(300).collect();
    if short.is_empty() { "(no message)".into() } else { short }
}

impl ProviderClient for Bedrock {
    fn prepare(&self, request: &ExecuteRequest<'_>, options: &ConvertOptions) -> Result<Outgoing, Report> {
        let mut body = String::new();
        let warnings = convert::convert_into(ProviderId::BedrockConverse, request, options, false, &mut body)?;
        Ok(Outgoing { body, warnings, input_tokens: 0 })
    }

    fn send(&self, outgoing: Outgoing) -> BoxFuture<'_, Result<ProviderResponse, ProviderError>> {
        Box::pin(self.call(outgoing.body))
    }

    fn stream(&self, outgoing: Outgoing) -> BoxFuture<'_, Result<Streaming, ProviderError>> {
        Box::pin(self.call_stream(outgoing.body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Credential;
    use serde_json::json;
    use std::sync::Arc;

    fn model(credential: &[(&str, &str)], parameters: &Value) -> ModelSpec {
        ModelSpec {
            model_id: "anthropic.claude-3-haiku-20240307-v1:0".into(),
            model_provider: "bedrock/converse".into(),
            credential: Credential(credential.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()),
            model_parameters: parameters.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn builds_the_url_from_region_or_endpoint() {
        let clients =
            Clients { http: reqwest::Client::new(), timeout: Duration::from_secs(1), endpoint_allow: Arc::from([]) };
        let client = Bedrock::new(&model(&[("api_key", "k")], &json!({"region": "eu-west-1"})), &clients).unwrap();
        assert_eq!(
            client.url.as_str(),
            "https://bedrock-runtime.eu-west-1.amazonaws.com/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse"
        );
        let client = Bedrock::new(
            &model(&[("access_key", "a"), ("secret_key", "s")], &json!({"endpoint": "http://127.0.0.1:9000/"})),
            &clients,
        )
        .unwrap();
        assert_eq!(
            client.url.as_str(),
            "http://127.0.0.1:9000/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse"
        );
        assert_eq!(
            client.stream_url.as_str(),
            "http://127.0.0.1:9000/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse-stream"
        );
        assert_eq!(client.host(), "127.0.0.1:9000");
        assert_eq!(client.region, "us-east-1");
    }

    #[test]
    fn reports_every_registration_problem() {
        let mut report = Report::default();
        check(&model(&[("access_key", "a")], &json!({"region": 5, "endpoint": "ftp://x"})), &[], &mut report);
        let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert_eq!(paths, ["/model/credential", "/model/model_parameters/region", "/model/model_parameters/endpoint"]);
    }

    #[test]
    fn debug_hides_every_secret() {
        let clients =
            Clients { http: reqwest::Client::new(), timeout: Duration::from_secs(1), endpoint_allow: Arc::from([]) };
        let keys = [("access_key", "AKIDX"), ("secret_key", "s3cr3t"), ("session_token", "t0k3n")];
        let shown = format!("{:?}", Bedrock::new(&model(&keys, &json!({})), &clients).unwrap());
        assert!(shown.contains("AKIDX") && !shown.contains("s3cr3t") && !shown.contains("t0k3n"), "{shown}");
        let shown = format!("{:?}", Bedrock::new(&model(&[("api_key", "b3ar3r")], &json!({})), &clients).unwrap());
        assert!(!shown.contains("b3ar3r"), "{shown}");
    }

    #[test]
    fn reads_error_messages() {
        assert_eq!(error_message(r#"{"message":"Malformed input"}"#), "Malformed input");
        assert_eq!(error_message("oops"), "oops");
    }
}
