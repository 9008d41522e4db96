//! Clients for the providers reached with an API key: `OpenAI` Chat Completions, `OpenAI` Responses,
//! Anthropic Messages and Gemini `generateContent`.
//!
//! The body comes from the core's converter (`OpenAI` and Anthropic get `"model"` added; Gemini
//! names the model in the URL). `credential.api_key` authenticates: `OpenAI` as
//! `Authorization: Bearer`, Anthropic as `x-api-key` with `anthropic-version: 2023-06-01`, Gemini
//! as `x-goog-api-key`. `model_parameters.endpoint` replaces the provider's base URL; the
//! provider's own path is appended.
//!
//! Streaming: `OpenAI` (both APIs) and Anthropic take `"stream": true` in the body (Chat also
//! `stream_options.include_usage`, or its stream carries no token counts); Gemini streams from
//! `:streamGenerateContent?alt=sse`. All four answer with server-sent events.

use std::time::Duration;

use agent_input::response::{self, ProviderResponse};
use agent_input::{Code, ConvertOptions, Diagnostic, ExecuteRequest, Path, ProviderId, Report, convert};
use serde_json::Value;

use super::client::{
    BoxFuture, Clients, Outgoing, ProviderClient, ProviderError, Streaming, endpoint_trust, parse_endpoint,
    read_limited, transport_error, withheld,
};
use crate::error::{ApiError, ErrorKind};
use crate::store::ModelSpec;

/// The `anthropic-version` header the Messages API requires.
pub const ANTHROPIC_VERSION: &str = "2023-06-01";

/// How this module reaches one API-key provider over HTTP.
#[derive(Debug)]
struct Api {
    /// The default base URL.
    base: &'static str,
    /// The provider's path under its base URL, for a model id.
    path: fn(&str) -> String,
    /// What the body gains to ask for a stream: written after `{"model": ...,`.
    stream_fields: &'static str,
    /// Whether the body names the model (`"model": ...`); otherwise the URL does.
    model_in_body: bool,
    /// Whether a stream is asked for at its own method (`:streamGenerateContent?alt=sse`).
    stream_method: bool,
    /// How the key is sent.
    auth: Auth,
}

/// How a provider takes its API key.
#[derive(Debug, Clone, Copy)]
enum Auth {
    /// `Authorization: Bearer`.
    Bearer,
    /// `x-api-key` with `anthropic-version`.
    ApiKeyVersioned,
    /// `x-goog-api-key`.
    GoogKey,
}

const OPENAI_CHAT: Api = Api {
    base: "https://api.openai.com",
    path: |_| "/v1/chat/completions".into(),
    stream_fields: r#""stream":true,"stream_options":{"include_usage":true},"#,
    model_in_body: true,
    stream_method: false,
    auth: Auth::Bearer,
};

const OPENAI_RESPONSES: Api = Api {
    base: "https://api.openai.com",
    path: |_| "/v1/responses".into(),
    stream_fields: r#""stream":true,"#,
    model_in_body: true,
    stream_method: false,
    auth: Auth::Bearer,
};

const ANTHROPIC_MESSAGES: Api = Api {
    base: "https://api.anthropic.com",
    path: |_| "/v1/messages".into(),
    stream_fields: r#""stream":true,"#,
    model_in_body: true,
    stream_method: false,
    auth: Auth::ApiKeyVersioned,
};

const GEMINI: Api = Api {
    base: "https://generativelanguage.googleapis.com",
    path: |model_id| {
        let model = model_id.strip_prefix("models/").unwrap_or(model_id);
        format!("/v1beta/models/{}:generateContent", crate::sigv4::uri_encode(model))
    },
    stream_fields: "",
    model_in_body: false,
    stream_method: true,
    auth: Auth::GoogKey,
};

/// The API of `provider`, if this module has a client for it.
const fn api(provider: ProviderId) -> Option<&'static Api> {
    match provider {
        ProviderId::OpenAiChat => Some(&OPENAI_CHAT),
        ProviderId::OpenAiResponses => Some(&OPENAI_RESPONSES),
        ProviderId::AnthropicMessages => Some(&ANTHROPIC_MESSAGES),
        ProviderId::Gemini => Some(&GEMINI),
        _ => None,
    }
}

/// Whether this module has a client for `provider`.
pub fn handles(provider: ProviderId) -> bool {
    api(provider).is_some()
}

fn endpoint(model: &ModelSpec) -> Option<&str> {
    model.model_parameters.get("endpoint").and_then(Value::as_str).map(str::trim).filter(|s| !s.is_empty())
}

/// The host of the provider's own base URL.
fn official_host(provider: ProviderId) -> &'static str {
    api(provider).map_or("", |api| api.base.trim_start_matches("https://"))
}

/// Registration checks: an API key and a usable endpoint.
pub(super) fn check(provider: ProviderId, model: &ModelSpec, endpoint_allow: &[String], report: &mut Report) {
    if model.credential.get("api_key").is_none_or(|key| key.trim().is_empty()) {
        report.push(Diagnostic::new(
            Code::MissingField,
            Path::root().key("model").key("credential").key("api_key"),
            format!("Missing credential: {} needs credential.api_key", provider.as_str()),
        ));
    }
    let at = Path::root().key("model").key("model_parameters").key("endpoint");
    match model.model_parameters.get("endpoint") {
        Some(value) if !value.is_string() && !value.is_null() => report
            .push(Diagnostic::new(Code::InvalidFieldType, at, "endpoint must be a string").received(value.to_string())),
        _ => {
            if let Some(endpoint) = endpoint(model)
                && let Err(message) = parse_endpoint(endpoint)
                    .and_then(|url| endpoint_trust(&url, official_host(provider), endpoint_allow))
            {
                report.push(Diagnostic::new(Code::InvalidParameter, at, message).received(endpoint));
            }
        }
    }
}

/// A client for one model of an API-key provider. `Debug` hides the key.
#[derive(Clone)]
pub struct Hosted {
    provider: ProviderId,
    api: &'static Api,
    http: reqwest::Client,
    timeout: Duration,
    url: reqwest::Url,
    /// Where the streaming request goes.
    stream_url: reqwest::Url,
    /// Whether error bodies are passed on ([`endpoint_trust`]).
    trusted: bool,
    model_id: String,
    api_key: String,
}

impl std::fmt::Debug for Hosted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Hosted")
            .field("provider", &self.provider)
            .field("url", &self.url.as_str())
            .field("trusted", &self.trusted)
            .field("model_id", &self.model_id)
            .finish_non_exhaustive()
    }
}

impl Hosted {
    /// A client for `model`.
    ///
    /// # Errors
    /// A provider this module has no client for (501), or a model block that [`check`] would
    /// reject.
    pub fn new(provider: ProviderId, model: &ModelSpec, clients: &Clients) -> Result<Self, ApiError> {
        let Some(api) = api(provider) else {
            return Err(ApiError::new(
                ErrorKind::ProviderNotSupported,
                format!("the gateway has no client for {} yet", provider.display_name()),
            ));
        };
        let mut report = Report::default();
        check(provider, model, &clients.endpoint_allow, &mut report);
        if !report.is_ok() {
            return Err(ApiError::invalid(report));
        }
        let base = endpoint(model).unwrap_or(api.base).trim_end_matches('/');
        let url = parse_endpoint(&format!("{base}{}", (api.path)(&model.model_id)))
            .map_err(|e| ApiError::new(ErrorKind::IllegalArgument, e))?;
        let trusted = endpoint_trust(&url, official_host(provider), &clients.endpoint_allow)
            .map_err(|e| ApiError::new(ErrorKind::IllegalArgument, e))?;
        let mut stream_url = url.clone();
        if api.stream_method {
            stream_url.set_path(&url.path().replace(":generateContent", ":streamGenerateContent"));
            stream_url.set_query(Some("alt=sse"));
        }
        Ok(Self {
            stream_url,
            provider,
            api,
            trusted,
            http: clients.http.clone(),
            timeout: clients.timeout,
            url,
            model_id: model.model_id.clone(),
            api_key: model.credential.get("api_key").unwrap_or_default().to_string(),
        })
    }

    async fn call(&self, body: String) -> Result<ProviderResponse, ProviderError> {
        let response = self.request(&self.url, "application/json", body).await?;
        let text = read_limited(response).await.map_err(|e| transport_error(&e, self.timeout))?;
        response::parse(self.provider, &text).map_err(|report| ProviderError::BadResponse(report.to_string()))
    }

    async fn call_stream(&self, body: String) -> Result<Streaming, ProviderError> {
        let body = match self.api.stream_fields {
            "" => body,
            fields => {
                let rest = body.strip_prefix('{').unwrap_or(&body);
                let mut out = String::with_capacity(body.len() + fields.len());
                out.push('{');
                out.push_str(fields);
                out.push_str(rest);
                if out.ends_with(",}") {
                    out.replace_range(out.len() - 2.., "}");
                }
                out
            }
        };
        let response = self.request(&self.stream_url, "text/event-stream", body).await?;
        Ok(Streaming::Body { provider: self.provider, response, timeout: self.timeout })
    }

    /// Sends `body` to `url`; a success status gives the response unread, any other status the
    /// provider's error.
    async fn request(
        &self,
        url: &reqwest::Url,
        accept: &str,
        body: String,
    ) -> Result<reqwest::Response, ProviderError> {
        let request = self
            .http
            .post(url.clone())
            .timeout(self.timeout)
            .header("content-type", "application/json")
            .header("accept", accept);
        let request = match self.api.auth {
            Auth::ApiKeyVersioned => {
                request.header("x-api-key", &self.api_key).header("anthropic-version", ANTHROPIC_VERSION)
            }
            Auth::GoogKey => request.header("x-goog-api-key", &self.api_key),
            Auth::Bearer => request.bearer_auth(&self.api_key),
        };
        let response = request.body(body).send().await.map_err(|e| transport_error(&e, self.timeout))?;
        let status = response.status().as_u16();
        let retry_after = response.headers().get("retry-after").and_then(|v| v.to_str().ok()).map(str::to_string);
        if (200..300).contains(&status) {
            return Ok(response);
        }
        let text = read_limited(response).await.map_err(|e| transport_error(&e, self.timeout))?;
        let (error_type, message) = if self.trusted { error_of(&text) } else { (None, withheld(&self.url)) };
        Err(ProviderError::Status { status, error_type, message, retry_after })
    }
}

/// `{"error": {"message", "type" | "status"}}` — the error shape of `OpenAI`, Anthropic (inside
/// `{"type": "error", ...}`) and Google; anything else is quoted, cut short.
fn error_of(body: &str) -> (Option<String>, String) {
    let parsed: Option<Value> = serde_json::from_str(body).ok();
    let error = parsed.as_ref().and_then(|v| v.get("error")).filter(|e| e.is_object());
    let text = |key: &str| error.and_then(|e| e.get(key)).and_then(Value::as_str).map(str::to_string);
    if let Some(message) = text("message") {
        return (text("type").or_else(|| text("status")), message);
    }
    let short: String = body.chars().take(300).collect();
    (None, if short.is_empty() { "(no message)".into() } else { short })
}

/// `{"model": "<id>", ...rest}`: the model name put in front of a converted body.
fn with_model(model_id: &str, body: &str) -> String {
    let name = serde_json::to_string(model_id).unwrap_or_else(|_| "\"\"".into());
    let rest = body.strip_prefix('{').unwrap_or(body);
    let mut out = String::with_capacity(body.len() + name.len() + 10);
    out.push_str("{\"model\":");
    out.push_str(&name);
    if rest.trim_start() != "}" {
        out.push(',');
    }
    out.push_str(rest);
    out
}

impl ProviderClient for Hosted {
    fn prepare(&self, request: &ExecuteRequest<'_>, options: &ConvertOptions) -> Result<Outgoing, Report> {
        let mut body = String::new();
        let warnings = convert::convert_into(self.provider, request, options, false, &mut body)?;
        if self.api.model_in_body {
            body = with_model(&self.model_id, &body);
        }
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

    fn model(provider: &str, id: &str, credential: &[(&str, &str)], parameters: &Value) -> ModelSpec {
        ModelSpec {
            model_id: id.into(),
            model_provider: provider.into(),
            credential: Credential(credential.iter().map(|(k, v)| ((*k).into(), (*v).into())).collect()),
            model_parameters: parameters.as_object().cloned().unwrap_or_default(),
        }
    }

    #[test]
    fn builds_each_providers_url() {
        let clients =
            Clients { http: reqwest::Client::new(), timeout: Duration::from_secs(1), endpoint_allow: Arc::from([]) };
        let key = [("api_key", "k")];
        let url = |provider, id, parameters: Value| {
            Hosted::new(provider, &model("x", id, &key, &parameters), &clients).unwrap().url.to_string()
        };
        assert_eq!(url(ProviderId::OpenAiChat, "gpt-4o", json!({})), "https://api.openai.com/v1/chat/completions");
        assert_eq!(url(ProviderId::OpenAiResponses, "gpt-4o", json!({})), "https://api.openai.com/v1/responses");
        assert_eq!(url(ProviderId::AnthropicMessages, "claude", json!({})), "https://api.anthropic.com/v1/messages");
        assert_eq!(
            url(ProviderId::Gemini, "models/gemini-2.5-flash", json!({})),
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent"
        );
        assert_eq!(
            url(ProviderId::Gemini, "gemini-2.5-flash", json!({"endpoint": "http://127.0.0.1:9000/"})),
            "http://127.0.0.1:9000/v1beta/models/gemini-2.5-flash:generateContent"
        );
        let gemini = Hosted::new(ProviderId::Gemini, &model("x", "gemini-2.5-flash", &key, &json!({})), &clients);
        assert_eq!(
            gemini.unwrap().stream_url.as_str(),
            "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse"
        );
    }

    #[test]
    fn debug_hides_the_key() {
        let clients =
            Clients { http: reqwest::Client::new(), timeout: Duration::from_secs(1), endpoint_allow: Arc::from([]) };
        let client = Hosted::new(
            ProviderId::AnthropicMessages,
            &model("x", "m", &[("api_key", "sk-s3cr3t")], &json!({})),
            &clients,
        );
        let shown = format!("{:?}", client.unwrap());
        assert!(shown.contains("api.anthropic.com") && !shown.contains("sk-s3cr3t"), "{shown}");
    }

    #[test]
    fn endpoints_go_only_to_loopback_the_provider_or_the_allowlist() {
        let mut report = Report::default();
        let key = [("api_key", "k")];
        let at = |endpoint: &str, allow: &[String], report: &mut Report| {
            check(ProviderId::OpenAiChat, &model("x", "m", &key, &json!({"endpoint": endpoint})), allow, report);
        };
        for ok in ["http://127.0.0.1:9000", "http://localhost:1", "http://[::1]:2", "https://api.openai.com"] {
            at(ok, &[], &mut report);
            assert!(report.is_ok(), "{ok}: {report:?}");
        }
        at("https://proxy.example.com", &["proxy.example.com".into()], &mut report);
        assert!(report.is_ok(), "{report:?}");
        for bad in
            ["https://169.254.169.254", "https://internal.example.com", "http://10.0.0.1:80", "http://api.openai.com"]
        {
            let mut report = Report::default();
            at(bad, &[], &mut report);
            assert_eq!(report.errors.len(), 1, "{bad}");
        }
        let mut report = Report::default();
        at("http://proxy.example.com", &["proxy.example.com".into()], &mut report);
        assert!(report.errors[0].message.contains("https"), "{report:?}");
    }

    #[test]
    fn reports_a_missing_key_and_a_bad_endpoint() {
        let mut report = Report::default();
        check(ProviderId::Gemini, &model("gemini", "g", &[], &json!({"endpoint": "ftp://x"})), &[], &mut report);
        let paths: Vec<String> = report.errors.iter().map(|d| d.path.to_string()).collect();
        assert_eq!(paths, ["/model/credential/api_key", "/model/model_parameters/endpoint"]);
    }

    #[test]
    fn puts_the_model_first_and_reads_errors() {
        assert_eq!(with_model("gpt\"4", r#"{"messages":[]}"#), r#"{"model":"gpt\"4","messages":[]}"#);
        assert_eq!(
            error_of(r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#),
            (Some("overloaded_error".into()), "Overloaded".into())
        );
        assert_eq!(
            error_of(r#"{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT"}}"#),
            (Some("INVALID_ARGUMENT".into()), "bad".into())
        );
        assert_eq!(error_of("<html>"), (None, "<html>".into()));
    }
}
