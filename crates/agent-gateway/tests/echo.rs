//! The gateway over real HTTP with the offline `echo` provider: register, execute, continue,
//! memory, errors, limits, auth, CORS and the static site.

mod common;

use common::{Gateway, PNG, Scratch, client, get, output, post};
use serde_json::{Value, json};

const REGISTER: &str = r#"{"name": "Echo test", "type": "conversational", "description": "offline",
    "model": {"model_id": "echo-1", "model_provider": "echo", "model_parameters": {"system_prompt": "Be brief."}},
    "parameters": {"x": "y"}}"#;

#[tokio::test]
async fn register_execute_and_continue_with_echo() {
    let scratch = Scratch::new("echo");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();

    let (status, body) = post(&http, &gateway.at("/_plugins/_ml/agents/_register"), REGISTER).await;
    assert_eq!(status, 200, "{body}");
    let agent_id = body["agent_id"].as_str().unwrap().to_string();
    let (status, agent) = get(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}"))).await;
    assert_eq!(status, 200);
    assert_eq!(agent["name"], "Echo test");
    assert_eq!(agent["model"]["model_provider"], "echo");
    assert_eq!(agent["parameters"], json!({"x": "y"}));

    // Turn 1: content blocks with an image.
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute"));
    let first = json!({"input": [{"type": "text", "text": "What is in this picture?"},
        {"type": "image", "source": {"type": "base64", "format": "PNG", "data": PNG}}]});
    let (status, answer) = post(&http, &execute, &first.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let memory_id = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    assert_eq!(output(&answer, "parent_message_id")["result"], "1");
    let response = output(&answer, "response");
    assert_eq!(
        response["result"],
        "echo: 1 message (user); system prompt (9 chars); last from user: text (24 chars), image png 70 B base64; \
         question: \"What is in this picture?\""
    );
    let data = &response["dataAsMap"];
    assert_eq!(data["stop_reason"], "end_turn");
    // The answer carries the turn: the new assistant message, not the conversation.
    assert!(data.get("conversation").is_none(), "{data}");
    assert_eq!(data["final_response"]["role"], "assistant");
    assert_eq!(data["final_response"]["content"][0]["text"], response["result"]);
    assert!(data["usage"]["total_tokens"].as_u64().unwrap() > 0);
    assert_eq!(data["warnings"][0]["code"], "format_normalized");

    // Turn 2: continue with the memory; the echo sees the whole conversation, and `verbose`
    // returns it.
    let second = json!({"input": "And its colour?", "parameters": {"memory_id": memory_id, "verbose": true}});
    let (status, answer) = post(&http, &execute, &second.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(output(&answer, "memory_id")["result"], memory_id.as_str());
    assert_eq!(output(&answer, "parent_message_id")["result"], "3");
    let text = output(&answer, "response")["result"].as_str().unwrap();
    assert!(text.starts_with("echo: 3 messages (user, assistant, user);"), "{text}");
    let conversation = &output(&answer, "response")["dataAsMap"]["conversation"];
    assert_eq!(conversation.as_array().unwrap().len(), 4);
    assert_eq!(conversation[0]["content"][1]["source"]["format"], "png");

    // The memory holds every message in the standard format, the image included.
    let (status, memory) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory_id}/messages"))).await;
    assert_eq!(status, 200);
    let messages = memory["messages"].as_array().unwrap();
    let roles: Vec<&str> = messages.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(roles, ["user", "assistant", "user", "assistant"]);
    assert_eq!(messages[0]["message"]["content"][1]["source"]["data"], PNG);
    assert_eq!(
        messages[2]["message"],
        json!({"role": "user", "content": [{"type": "text", "text": "And its colour?"}]})
    );
    assert_eq!(memory["agent_id"], agent_id.as_str());

    // The built-in `echo` agent works at once, and continues a memory started by another agent.
    let (status, answer) = post(
        &http,
        &gateway.at("/_plugins/_ml/agents/echo/_execute"),
        &json!({"parameters": {"question": "legacy?", "memory_id": memory_id}}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert!(output(&answer, "response")["result"].as_str().unwrap().starts_with("echo: 5 messages"));

    let (status, deleted) = reqwest_delete(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}"))).await;
    assert_eq!((status, deleted["result"].as_str()), (200, Some("deleted")));
    let (status, missing) = get(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}"))).await;
    assert_eq!(status, 404);
    assert_eq!(missing["error"]["type"], "resource_not_found_exception");
    assert_eq!(post(&http, &execute, r#"{"input": "hi"}"#).await.0, 404);
}

async fn reqwest_delete(http: &reqwest::Client, url: &str) -> (u16, Value) {
    let response = http.delete(url).send().await.unwrap();
    (response.status().as_u16(), response.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn bad_input_is_a_400_listing_every_error() {
    let scratch = Scratch::new("errors");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let execute = gateway.at("/_plugins/_ml/agents/echo/_execute");

    let bad = r#"{"input": [{"type": "image", "source": {"type": "base64", "format": "bmp", "data": "Qk0="}},
        {"type": "text", "text": "  "}, {"type": "audio"}]}"#;
    let (status, body) = post(&http, &execute, bad).await;
    assert_eq!(status, 400);
    let reason = "image format 'bmp' is not supported; use one of png, jpeg, gif, webp";
    assert_eq!(body["status"], 400);
    assert_eq!(body["error"]["type"], "illegal_argument_exception");
    assert_eq!(body["error"]["reason"], reason);
    assert_eq!(body["error"]["root_cause"], json!([{"type": "illegal_argument_exception", "reason": reason}]));
    let codes: Vec<(&str, &str)> = body["error"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap(), d["path"].as_str().unwrap()))
        .collect();
    assert_eq!(
        codes,
        [
            ("unsupported_format", "/input/0/source/format"),
            ("empty_text", "/input/1/text"),
            ("unsupported_content_type", "/input/2/type")
        ]
    );

    for (text, code) in [("{", "invalid_json"), ("{}", "missing_input"), (r#"{"input": 5}"#, "invalid_input_type")] {
        let (status, body) = post(&http, &execute, text).await;
        assert_eq!((status, body["error"]["details"][0]["code"].as_str()), (400, Some(code)), "{text}");
    }

    // Continuing a memory: errors in the new input keep the request's own paths.
    let (_, answer) = post(&http, &execute, r#"{"input": "Hello"}"#).await;
    let memory_id = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    let next = json!({"input": [{"role": "user", "content": [{"type": "text", "text": "ok"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "fine"}]}], "parameters": {"memory_id": memory_id}});
    let (status, body) = post(&http, &execute, &next.to_string()).await;
    assert_eq!(status, 400);
    assert_eq!(body["error"]["details"][0]["code"], "last_message_role");
    assert_eq!(body["error"]["details"][0]["path"], "/input/1/role");
    let (status, body) = post(&http, &execute, r#"{"input": "x", "parameters": {"memory_id": "nope"}}"#).await;
    assert_eq!((status, body["error"]["type"].as_str()), (404, Some("resource_not_found_exception")));
    let (status, body) = post(&http, &execute, r#"{"input": "x", "parameters": {"memory_id": 7}}"#).await;
    assert_eq!((status, body["error"]["details"][0]["path"].as_str()), (400, Some("/parameters/memory_id")));

    // Registration errors are listed the same way.
    let (status, body) = post(
        &http,
        &gateway.at("/_plugins/_ml/agents/_register"),
        r#"{"type": "conversational", "model": {"model_id": "m", "model_provider": "bedrock/converse",
            "model_parameters": {"temperature": "hot", "top_p": 5, "max_tokens": "0"}}}"#,
    )
    .await;
    assert_eq!(status, 400);
    let paths: Vec<&str> =
        body["error"]["details"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    // The unreadable temperature does not hide the provider's range checks of the others.
    assert_eq!(
        paths,
        [
            "/name",
            "/model/credential",
            "/model/model_parameters/temperature",
            "/model/model_parameters/max_tokens",
            "/model/model_parameters/top_p"
        ]
    );
    let (status, body) = get(&http, &gateway.at("/_plugins/_ml/nothing")).await;
    assert_eq!((status, body["status"].as_u64()), (404, Some(404)));
}

#[tokio::test]
async fn limits_auth_cors_and_the_site() {
    let scratch = Scratch::new("limits");
    let site = scratch.path("site");
    std::fs::create_dir_all(&site).unwrap();
    std::fs::write(site.join("index.html"), "<!doctype html><title>playground</title>").unwrap();
    let gateway = Gateway::start(
        &scratch.path("g.db"),
        &[
            "--bearer-token",
            "s3cret",
            "--max-body-bytes",
            "1000",
            "--cors-origin",
            "http://localhost:5173",
            "--site",
            site.to_str().unwrap(),
        ],
    );
    let http = client();
    let execute = gateway.at("/_plugins/_ml/agents/echo/_execute");

    let response =
        http.post(&execute).header("content-type", "application/json").body(r#"{"input": "hi"}"#).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 401);
    assert_eq!(response.headers()["www-authenticate"], "Bearer");
    let response = http
        .post(&execute)
        .header("content-type", "application/json")
        .bearer_auth("wrong")
        .body(r#"{"input": "hi"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 401);
    let response = http
        .post(&execute)
        .header("content-type", "application/json")
        .bearer_auth("s3cret")
        .body(r#"{"input": "hi"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);
    // RFC 7235: the scheme is case-insensitive.
    let response = http
        .post(&execute)
        .header("content-type", "application/json")
        .header("authorization", "bearer s3cret")
        .body(r#"{"input": "hi"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200);

    // A known path with another method: 405 in OpenSearch's error shape, not an empty body.
    let response = http.put(gateway.at("/_plugins/_ml/agents/echo")).bearer_auth("s3cret").send().await.unwrap();
    assert_eq!(response.status().as_u16(), 405);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["type"], "method_not_allowed_exception");
    assert_eq!(body["status"], 405);

    // An endpoint may not carry a credential: GET agent returns it.
    let register = json!({"name": "b", "type": "conversational", "model": {"model_id": "m", "model_provider": "bedrock/converse",
        "credential": {"api_key": "k"}, "model_parameters": {"endpoint": "http://user:pw@127.0.0.1:1"}}});
    let response = http
        .post(gateway.at("/_plugins/_ml/agents/_register"))
        .header("content-type", "application/json")
        .bearer_auth("s3cret")
        .body(register.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 400);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"]["reason"].as_str().unwrap().contains("user or password"), "{body}");

    let big = json!({"input": "x".repeat(2000)}).to_string();
    let response = http
        .post(&execute)
        .header("content-type", "application/json")
        .bearer_auth("s3cret")
        .body(big)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 413);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["details"][0]["code"], "too_large");

    // A browser's preflight needs no credentials; the allowed origin is echoed back.
    let response = http
        .request(reqwest::Method::OPTIONS, &execute)
        .header("origin", "http://localhost:5173")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type,authorization")
        .send()
        .await
        .unwrap();
    assert!(response.status().is_success());
    assert_eq!(response.headers()["access-control-allow-origin"], "http://localhost:5173");

    // The playground is served without credentials, index.html for unknown paths too.
    for path in ["/", "/index.html", "/some/route"] {
        let response = http.get(gateway.at(path)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 200, "{path}");
        assert!(response.text().await.unwrap().contains("playground"));
    }
}

#[tokio::test]
async fn the_database_is_private_and_help_explains_the_options() {
    let scratch = Scratch::new("private");
    let db = scratch.path("nested/g.db");
    let gateway = Gateway::start(&db, &[]);
    gateway.stop();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&db).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_agent-gateway")).arg("--help").output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for option in [
        "--listen",
        "--db",
        "--site",
        "--cors-origin",
        "--basic-auth",
        "--bearer-token",
        "--config",
        "AGENT_GATEWAY_LISTEN",
    ] {
        assert!(help.contains(option), "{option} missing from --help");
    }
}
