//! A restarted gateway (the real binary, same `SQLite` file) keeps its agents and credentials and
//! continues a conversation exactly: the stored history, image included, is sent again.

mod common;

use common::stub::{self, Stub};
use common::{Gateway, PNG, Scratch, client, get, output, post};
use serde_json::json;

#[tokio::test]
async fn a_restarted_gateway_continues_a_conversation_from_sqlite() {
    let stub = Stub::start().await;
    let scratch = Scratch::new("restart");
    let db = scratch.path("g.db");
    let http = client();

    let first_gateway = Gateway::start(&db, &[]);
    let agent = json!({"name": "Claude", "type": "conversational", "model": {
        "model_id": "anthropic.claude-3-haiku-20240307-v1:0", "model_provider": "bedrock/converse",
        "credential": {"access_key": stub::ACCESS_KEY, "secret_key": stub::SECRET_KEY},
        "model_parameters": {"region": stub::REGION, "endpoint": stub.url}}});
    let (status, registered) =
        post(&http, &first_gateway.at("/_plugins/_ml/agents/_register"), &agent.to_string()).await;
    assert_eq!(status, 200, "{registered}");
    let agent_id = registered["agent_id"].as_str().unwrap().to_string();
    let first = json!({"input": [{"type": "text", "text": "Describe"},
        {"type": "image", "source": {"type": "base64", "format": "png", "data": PNG}}]});
    let (status, answer) =
        post(&http, &first_gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute")), &first.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let memory_id = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    let (_, echo_answer) =
        post(&http, &first_gateway.at("/_plugins/_ml/agents/echo/_execute"), r#"{"input": "one"}"#).await;
    let echo_memory = output(&echo_answer, "memory_id")["result"].as_str().unwrap().to_string();
    first_gateway.stop();

    let gateway = Gateway::start(&db, &[]);
    let next = json!({"input": "And now?", "parameters": {"memory_id": memory_id}});
    let (status, answer) =
        post(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute")), &next.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(output(&answer, "parent_message_id")["result"], "3");
    let sent = &stub.seen()[1];
    assert_eq!(sent.signature, Some(Ok(())), "credentials survived the restart");
    let image = format!(r#"{{"image":{{"format":"png","source":{{"bytes":"{PNG}"}}}}}}"#);
    assert_eq!(
        sent.body,
        format!(
            r#"{{"messages":[{{"role":"user","content":[{{"text":"Describe"}},{image}]}},{{"role":"assistant","content":[{{"text":"Hello from the stub"}}]}},{{"role":"user","content":[{{"text":"And now?"}}]}}],"inferenceConfig":{{"maxTokens":4096}}}}"#
        )
    );

    let (_, memory) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory_id}/messages"))).await;
    assert_eq!(memory["messages"].as_array().unwrap().len(), 4);
    let (status, answer) = post(
        &http,
        &gateway.at("/_plugins/_ml/agents/echo/_execute"),
        &json!({"input": "two", "parameters": {"memory_id": echo_memory}}).to_string(),
    )
    .await;
    assert_eq!(status, 200);
    assert!(
        output(&answer, "response")["result"].as_str().unwrap().starts_with("echo: 3 messages (user, assistant, user)")
    );
    gateway.stop();
}
