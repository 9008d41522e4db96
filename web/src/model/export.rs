//! What "Copy as code" writes a request from (`code_view.js` writes it as curl, Python's requests
//! and JavaScript's fetch): the Execute call (to the backend) and the provider request (to the
//! provider's own API), each its URL, headers, body, and how it authenticates. Credentials are
//! never part of it: each is the name of an environment variable the code reads
//! (`OPENAI_API_KEY`, `AGENT_TOKEN`, …).

use agent_input::ProviderId;
use serde_json::{Value, json};

use super::backend::{Auth, Backend};

/// How a call authenticates: nothing, a header whose value is a prefix and a secret, or HTTP
/// Basic with a user name and a secret. Secrets are environment variables' names.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Credential {
    None,
    Header { name: &'static str, prefix: &'static str, env: &'static str },
    Basic { user: String, env: &'static str },
}

/// One HTTP POST with a JSON body.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Call {
    url: String,
    headers: Vec<(&'static str, &'static str)>,
    credential: Credential,
    /// The body as JSON text (pretty-printed when it parses).
    body: String,
    /// Whether the answer is an event stream, printed as it arrives.
    stream: bool,
}

/// The Execute call: the agent input to the backend's `_execute` (or `_execute/stream`).
pub(crate) fn execute_call(backend: &Backend, body: &str) -> Call {
    let url = backend.url().unwrap_or_else(|_| {
        let tail = if backend.stream { "/stream" } else { "" };
        format!("<endpoint>/_plugins/_ml/agents/<agent>/_execute{tail}")
    });
    let credential = match backend.auth {
        Auth::None => Credential::None,
        Auth::Basic => Credential::Basic { user: backend.username.clone(), env: "AGENT_PASSWORD" },
        Auth::Bearer => Credential::Header { name: "Authorization", prefix: "Bearer ", env: "AGENT_TOKEN" },
    };
    // As the user wrote it.
    Call { url, headers: Vec::new(), credential, body: body.to_string(), stream: backend.stream }
}

/// The provider request: `body` (the converted request) to the provider's API for `model`.
/// Bedrock is called with a Bedrock API key (`Authorization: Bearer`), which needs no signing.
/// `None` for a provider this code does not know.
pub(crate) fn provider_call(provider: ProviderId, model: &str, body: &str) -> Option<Call> {
    let (url, headers, credential) = match provider {
        ProviderId::BedrockConverse => (
            format!("https://bedrock-runtime.us-east-1.amazonaws.com/model/{model}/converse"),
            Vec::new(),
            Credential::Header { name: "Authorization", prefix: "Bearer ", env: "AWS_BEARER_TOKEN_BEDROCK" },
        ),
        ProviderId::OpenAiChat => (
            "https://api.openai.com/v1/chat/completions".to_string(),
            Vec::new(),
            Credential::Header { name: "Authorization", prefix: "Bearer ", env: "OPENAI_API_KEY" },
        ),
        ProviderId::OpenAiResponses => (
            "https://api.openai.com/v1/responses".to_string(),
            Vec::new(),
            Credential::Header { name: "Authorization", prefix: "Bearer ", env: "OPENAI_API_KEY" },
        ),
        ProviderId::AnthropicMessages => (
            "https://api.anthropic.com/v1/messages".to_string(),
            vec![("anthropic-version", "2023-06-01")],
            Credential::Header { name: "x-api-key", prefix: "", env: "ANTHROPIC_API_KEY" },
        ),
        ProviderId::Gemini => (
            format!("https://generativelanguage.googleapis.com/v1beta/models/{model}:generateContent"),
            Vec::new(),
            Credential::Header { name: "x-goog-api-key", prefix: "", env: "GEMINI_API_KEY" },
        ),
        _ => return None,
    };
    // The model goes in the body where the API reads it there.
    let body = match (provider, serde_json::from_str::<Value>(body)) {
        (
            ProviderId::OpenAiChat | ProviderId::OpenAiResponses | ProviderId::AnthropicMessages,
            Ok(Value::Object(o)),
        ) if !o.contains_key("model") => {
            let mut with = serde_json::Map::new();
            with.insert("model".into(), Value::String(model.to_string()));
            with.extend(o);
            serde_json::to_string_pretty(&Value::Object(with)).unwrap_or_default()
        }
        _ => pretty(body),
    };
    Some(Call { url, headers, credential, body, stream: false })
}

/// A model id to start from in the provider's code (the user writes their own).
pub(crate) const fn example_model(provider: ProviderId) -> &'static str {
    match provider {
        ProviderId::BedrockConverse => "us.anthropic.claude-3-7-sonnet-20250219-v1:0",
        ProviderId::OpenAiChat | ProviderId::OpenAiResponses => "gpt-4o",
        ProviderId::AnthropicMessages => "claude-sonnet-4-5",
        ProviderId::Gemini => "gemini-2.5-flash",
        _ => "<model id>",
    }
}

fn pretty(body: &str) -> String {
    serde_json::from_str::<Value>(body)
        .ok()
        .and_then(|v| serde_json::to_string_pretty(&v).ok())
        .unwrap_or_else(|| body.to_string())
}

impl Call {
    /// The facts `code_view.js` writes the code from.
    pub(crate) fn to_json(&self) -> Value {
        let credential = match &self.credential {
            Credential::None => json!({"kind": "none"}),
            Credential::Header { name, prefix, env } => {
                json!({"kind": "header", "name": name, "prefix": prefix, "env": env})
            }
            Credential::Basic { user, env } => json!({"kind": "basic", "user": user, "env": env}),
        };
        json!({"url": self.url, "headers": self.headers, "credential": credential, "body": self.body, "stream": self.stream})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn backend(auth: Auth, stream: bool) -> Backend {
        Backend {
            endpoint: "http://127.0.0.1:9200".into(),
            agent_id: "echo".into(),
            auth,
            username: "admin".into(),
            secret: "s3cr3t-never-shown".into(),
            stream,
            ..Backend::default()
        }
    }

    #[test]
    fn the_execute_call_names_its_credentials_never_holds_them() {
        let body = r#"{"input": "Hi"}"#;
        for (auth, credential) in [
            (
                Auth::Bearer,
                json!({"kind": "header", "name": "Authorization", "prefix": "Bearer ", "env": "AGENT_TOKEN"}),
            ),
            (Auth::Basic, json!({"kind": "basic", "user": "admin", "env": "AGENT_PASSWORD"})),
            (Auth::None, json!({"kind": "none"})),
        ] {
            let call = execute_call(&backend(auth, true), body).to_json();
            assert_eq!(call["credential"], credential);
            assert!(!call.to_string().contains("s3cr3t"), "{call}");
            assert_eq!(call["url"], "http://127.0.0.1:9200/_plugins/_ml/agents/echo/_execute/stream");
            assert_eq!((call["body"].as_str(), call["stream"].as_bool()), (Some(body), Some(true)));
        }
        assert_eq!(
            execute_call(&backend(Auth::None, false), "{}").to_json()["url"],
            "http://127.0.0.1:9200/_plugins/_ml/agents/echo/_execute"
        );
    }

    #[test]
    fn provider_calls_go_to_each_api_with_its_key_header() {
        let body = r#"{"messages": [{"role": "user", "content": "Hi"}]}"#;
        for (provider, url, name, env) in [
            (ProviderId::OpenAiChat, "https://api.openai.com/v1/chat/completions", "Authorization", "OPENAI_API_KEY"),
            (ProviderId::OpenAiResponses, "https://api.openai.com/v1/responses", "Authorization", "OPENAI_API_KEY"),
            (ProviderId::AnthropicMessages, "https://api.anthropic.com/v1/messages", "x-api-key", "ANTHROPIC_API_KEY"),
            (
                ProviderId::Gemini,
                "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:generateContent",
                "x-goog-api-key",
                "GEMINI_API_KEY",
            ),
            (
                ProviderId::BedrockConverse,
                "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-3-7-sonnet-20250219-v1:0/converse",
                "Authorization",
                "AWS_BEARER_TOKEN_BEDROCK",
            ),
        ] {
            let call = provider_call(provider, example_model(provider), body).unwrap().to_json();
            assert_eq!(
                (call["url"].as_str(), call["credential"]["name"].as_str(), call["credential"]["env"].as_str()),
                (Some(url), Some(name), Some(env))
            );
        }
        // The model in the body for OpenAI and Anthropic, first; not for Gemini (in the URL).
        let openai = provider_call(ProviderId::OpenAiChat, "gpt-4o", body).unwrap();
        assert!(
            openai.body.trim_start_matches(['{', '\n', ' ']).starts_with("\"model\": \"gpt-4o\""),
            "{}",
            openai.body
        );
        assert!(!provider_call(ProviderId::Gemini, "g", body).unwrap().body.contains("\"model\""));
        assert_eq!(
            provider_call(ProviderId::AnthropicMessages, "c", body).unwrap().to_json()["headers"],
            json!([["anthropic-version", "2023-06-01"]])
        );
    }
}
