//! The execute panel's backend as data: where and how to call it (kept in this browser, the
//! secret only when the user asks), its URL and auth header, what a call came back
//! with, and reading ml-commons' answer. (`browser::http` makes the call.)

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::display::shorten;

/// Where the settings are kept in localStorage.
pub(crate) const STORAGE_KEY: &str = "agent-input-playground/backend";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Auth {
    #[default]
    None,
    Basic,
    Bearer,
}

/// Where and how to execute.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Backend {
    pub(crate) endpoint: String,
    pub(crate) agent_id: String,
    pub(crate) auth: Auth,
    pub(crate) username: String,
    /// The password or token; stored only when `remember` is set.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(crate) secret: String,
    pub(crate) remember: bool,
    /// Execute through the streaming endpoint (AG-UI events), the default; off: `_execute`.
    pub(crate) stream: bool,
}

impl Default for Backend {
    fn default() -> Self {
        Self {
            endpoint: String::new(),
            agent_id: String::new(),
            auth: Auth::None,
            username: String::new(),
            secret: String::new(),
            remember: false,
            stream: true,
        }
    }
}

impl Backend {
    /// What goes into localStorage: everything but the secret, unless the user ticked "remember".
    pub(crate) fn stored(&self) -> Backend {
        let mut stored = self.clone();
        if !self.remember {
            stored.secret.clear();
        }
        stored
    }

    /// The execute URL, or why there is none. Only http and https endpoints are called.
    pub(crate) fn execute_url(&self) -> Result<String, String> {
        let endpoint = self.endpoint.trim().trim_end_matches('/');
        let lower = endpoint.to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err("the endpoint must be an http:// or https:// URL".into());
        }
        let agent = self.agent_id.trim();
        if agent.is_empty() {
            return Err("enter an agent id".into());
        }
        Ok(format!("{endpoint}/_plugins/_ml/agents/{}/_execute", escape(agent)))
    }

    /// The URL of one page of memory `memory_id`'s stored messages (`next_token`: the page after).
    pub(crate) fn memory_url(&self, memory_id: &str, next_token: Option<&str>) -> Result<String, String> {
        let execute = self.execute_url()?;
        let base = execute.split("/_plugins/").next().unwrap_or_default();
        let mut url = format!("{base}/_plugins/_ml/memory/{}/messages", escape(memory_id));
        if let Some(token) = next_token {
            url.push_str("?next_token=");
            url.push_str(&escape(token));
        }
        Ok(url)
    }

    /// The URL Execute calls: the streaming endpoint (`…/_execute/stream`) or `_execute`.
    pub(crate) fn url(&self) -> Result<String, String> {
        let url = self.execute_url()?;
        Ok(if self.stream { format!("{url}/stream") } else { url })
    }

    /// The Authorization header value, if any.
    pub(crate) fn authorization(&self) -> Option<String> {
        match self.auth {
            Auth::None => None,
            Auth::Basic => {
                let pair = format!("{}:{}", self.username, self.secret);
                Some(format!("Basic {}", agent_input::base64::encode(pair.as_bytes())))
            }
            Auth::Bearer => Some(format!("Bearer {}", self.secret.trim())),
        }
    }
}

/// Most bytes of an answer read: more than a conversation's memory holds at agent-gateway's
/// default (`--max-memory-bytes`, 16 MiB), so no answer the gateway gives is cut; past it
/// the body is not read on (a runaway or hostile backend cannot fill the page's memory).
pub(crate) const MAX_ANSWER_BYTES: usize = 16 * 1024 * 1024;

/// What one execute call came back with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Reply {
    /// The backend answered (any status).
    Answered { status: u16, millis: f64, body: String },
    /// The backend answered with a body over [`MAX_ANSWER_BYTES`], which was not read on.
    TooLarge { status: u16, millis: f64 },
    /// No answer: the network, CORS, or a bad URL.
    Unreachable { millis: f64, reason: String, cross_origin: bool },
}

/// What the response pane shows of an ml-commons answer.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Reading {
    pub(crate) answer: Option<String>,
    pub(crate) memory_id: Option<String>,
    /// For an error: the reason and each detail as (code, path, message).
    pub(crate) reason: Option<String>,
    pub(crate) details: Vec<(String, String, String)>,
    /// Tokens read and written, when the answer says (the gateway's `dataAsMap.usage`).
    pub(crate) usage: Option<(u64, u64)>,
}

pub(crate) fn read(body: &str) -> Reading {
    let Ok(value) = serde_json::from_str::<Value>(body) else { return Reading::default() };
    let output = |name: &str| {
        value
            .pointer("/inference_results/0/output")
            .and_then(Value::as_array)
            .and_then(|items| items.iter().find(|item| item["name"] == name))
    };
    // The gateway's `result`; ml-commons' conversational agents answer in `dataAsMap.response`.
    let text = |name: &str| {
        output(name)
            .and_then(|item| item.get("result").or_else(|| item.pointer("/dataAsMap/response")))
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    // ml-commons' `conversational_v2` agents answer `{"message": {"content": [{"text"}]}, "memory_id"}`.
    let v2_text = || {
        let blocks = value.pointer("/message/content")?.as_array()?;
        let texts: Vec<&str> = blocks.iter().filter_map(|b| b.get("text").and_then(Value::as_str)).collect();
        (!texts.is_empty()).then(|| texts.concat())
    };
    let details = value
        .pointer("/error/details")
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|d| {
                    let field = |k: &str| d.get(k).and_then(Value::as_str).unwrap_or_default().to_string();
                    (field("code"), field("path"), field("message"))
                })
                .collect()
        })
        .unwrap_or_default();
    // ml-commons puts its message in `details` as text, under a generic `reason`.
    let reason = value
        .pointer("/error/details")
        .and_then(Value::as_str)
        .or_else(|| value.pointer("/error/reason").and_then(Value::as_str));
    let usage = output("response").and_then(|item| item.pointer("/dataAsMap/usage")).and_then(|usage| {
        let count = |key: &str| usage.get(key).and_then(Value::as_u64);
        Some((count("input_tokens")?, count("output_tokens")?))
    });
    Reading {
        usage,
        answer: text("response").or_else(v2_text),
        memory_id: text("memory_id").or_else(|| value.get("memory_id").and_then(Value::as_str).map(str::to_string)),
        reason: reason.map(str::to_string),
        details,
    }
}

/// The raw response as the pane shows it: JSON pretty-printed with long base64 shortened,
/// anything else cut at 20,000 characters.
pub(crate) fn raw_view(body: &str) -> String {
    match serde_json::from_str::<Value>(body) {
        Ok(mut v) => {
            shorten(&mut v);
            serde_json::to_string_pretty(&v).unwrap_or_default()
        }
        Err(_) => body.chars().take(20_000).collect(),
    }
}

/// `text` as one URL path segment or query value (unreserved bytes kept, the rest percent-encoded).
fn escape(text: &str) -> String {
    text.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                char::from(b).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_stored_only_when_remembered() {
        let mut backend = Backend { secret: "s3cret".into(), auth: Auth::Bearer, ..Backend::default() };
        assert!(!serde_json::to_string(&backend.stored()).unwrap().contains("s3cret"));
        backend.remember = true;
        assert!(serde_json::to_string(&backend.stored()).unwrap().contains("s3cret"));
    }

    #[test]
    fn streaming_is_the_default_even_for_settings_stored_before_it() {
        assert!(Backend::default().stream);
        let stored: Backend = serde_json::from_str(r#"{"endpoint": "http://h", "agent_id": "echo"}"#).unwrap();
        assert!(stored.stream);
        assert_eq!(stored.url().unwrap(), "http://h/_plugins/_ml/agents/echo/_execute/stream");
        let off = Backend { stream: false, ..stored };
        assert_eq!(off.url().unwrap(), "http://h/_plugins/_ml/agents/echo/_execute");
    }

    #[test]
    fn reads_answers_and_errors() {
        let ok = r#"{"inference_results": [{"output": [{"name": "memory_id", "result": "m1"},
            {"name": "response", "result": "echo: hi", "dataAsMap": {}}]}]}"#;
        let reading = read(ok);
        assert_eq!(reading.answer.as_deref(), Some("echo: hi"));
        assert_eq!(reading.memory_id.as_deref(), Some("m1"));
        assert_eq!(reading.usage, None, "no usage in the answer");
        let counted = r#"{"inference_results": [{"output": [{"name": "response", "result": "echo: hi",
            "dataAsMap": {"usage": {"input_tokens": 6, "output_tokens": 23, "total_tokens": 29}}}]}]}"#;
        assert_eq!(read(counted).usage, Some((6, 23)));
        let bad = r#"{"error": {"reason": "invalid input", "details": [{"code": "empty_text", "path": "/input", "message": "m"}]}, "status": 400}"#;
        let reading = read(bad);
        assert_eq!(reading.reason.as_deref(), Some("invalid input"));
        assert_eq!(reading.details, [("empty_text".to_string(), "/input".to_string(), "m".to_string())]);
    }

    #[test]
    fn reads_ml_commons_own_answers() {
        // As a real 3.6.0 node answers: a conversational agent, a conversational_v2 agent, an error.
        let v1 = r#"{"inference_results":[{"output":[{"name":"memory_id","result":"m1"},{"name":"response","dataAsMap":{"response":"Paris.","additional_info":{}}}]}]}"#;
        let reading = read(v1);
        assert_eq!((reading.answer.as_deref(), reading.memory_id.as_deref()), (Some("Paris."), Some("m1")));
        let v2 = r#"{"stop_reason":"end_turn","message":{"content":[{"text":"Paris."}],"role":"assistant"},"memory_id":"m2","metrics":{}}"#;
        let reading = read(v2);
        assert_eq!((reading.answer.as_deref(), reading.memory_id.as_deref()), (Some("Paris."), Some("m2")));
        let error = r#"{"status":400,"error":{"type":"IllegalArgumentException","reason":"Invalid Request","details":"Text input cannot be null or empty"}}"#;
        assert_eq!(read(error).reason.as_deref(), Some("Text input cannot be null or empty"));
    }
}
