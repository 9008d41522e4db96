//! Agent input schemas over real HTTP (contract §8): `parameters_schema` at registration,
//! every violation in a 400, and the `<inputs>` block in the conversation the model receives.

mod common;

use common::{Gateway, Scratch, client, get, output, post};
use serde_json::{Value, json};

fn seed_schema() -> Value {
    json!({
        "type": "object",
        "required": ["topic", "format"],
        "properties": {
            "topic": {"type": "string", "description": "The main topic to write about"},
            "format": {"type": "string", "enum": ["summary", "bullet_points", "essay"]},
            "max_words": {"type": "integer", "minimum": 50, "maximum": 2000}
        },
        "additionalProperties": false
    })
}

fn agent(schema: &Value) -> String {
    json!({"name": "parametric-agent", "type": "conversational", "parameters_schema": schema,
        "model": {"model_id": "echo-1", "model_provider": "echo"}})
    .to_string()
}

#[tokio::test]
async fn schemas_are_checked_stored_returned_and_applied() {
    let scratch = Scratch::new("schema");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let register = gateway.at("/_plugins/_ml/agents/_register");

    // A schema that is not a JSON Schema is refused at registration, every problem listed.
    let bad = json!({"required": "topic", "properties": {"max_words": {"type": "integr"}}});
    let (status, body) = post(&http, &register, &agent(&bad)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["type"], "illegal_argument_exception");
    let mut paths: Vec<&str> =
        body["error"]["details"].as_array().unwrap().iter().map(|d| d["path"].as_str().unwrap()).collect();
    paths.sort_unstable();
    assert_eq!(paths, ["/parameters_schema/properties/max_words/type", "/parameters_schema/required"]);
    assert!(body["error"]["details"].as_array().unwrap().iter().all(|d| d["code"] == "invalid_schema"));

    // The example schema: stored, and returned by GET as given (not merged with the prompt).
    let (status, body) = post(&http, &register, &agent(&seed_schema())).await;
    assert_eq!(status, 200, "{body}");
    let agent_id = body["agent_id"].as_str().unwrap().to_string();
    let (status, stored) = get(&http, &gateway.at(&format!("/_plugins/_ml/agents/{agent_id}"))).await;
    assert_eq!(status, 200);
    assert_eq!(stored["parameters_schema"], seed_schema());

    // Every violation at once, in the shape of other validation errors.
    let execute = gateway.at(&format!("/_plugins/_ml/agents/{agent_id}/_execute"));
    let wrong = json!({"input": "Write.", "parameters": {"format": "poem", "max_words": 10, "tone": "dry"}});
    let (status, body) = post(&http, &execute, &wrong.to_string()).await;
    assert_eq!(status, 400, "{body}");
    let mut found: Vec<(String, String)> = body["error"]["details"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["path"].as_str().unwrap().to_string(), d["schema_path"].as_str().unwrap().to_string()))
        .collect();
    found.sort();
    assert_eq!(
        found,
        [
            ("/parameters/format".into(), "/properties/format/enum".into()),
            ("/parameters/max_words".into(), "/properties/max_words/minimum".into()),
            ("/parameters/tone".into(), "/additionalProperties".into()),
            ("/parameters/topic".into(), "/required".into()),
        ]
    );
    assert!(body["error"]["details"].as_array().unwrap().iter().all(|d| d["code"] == "schema_violation"));
    assert_eq!(body["error"]["reason"], body["error"]["details"][0]["message"]);

    // Valid: the model receives the formatted prompt as the user's text.
    let good = json!({"input": "Create content about this topic.",
        "parameters": {"topic": "AI Safety", "format": "summary", "max_words": 200, "verbose": true}});
    let (status, answer) = post(&http, &execute, &good.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let formatted =
        "<inputs>\ntopic: AI Safety\nformat: summary\nmax_words: 200\n</inputs>\n\nCreate content about this topic.";
    let conversation = &output(&answer, "response")["dataAsMap"]["conversation"];
    assert_eq!(conversation[0], json!({"role": "user", "content": [{"type": "text", "text": formatted}]}));
    let memory_id = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();

    // A continued turn: memory_id is a control parameter, neither validated nor formatted.
    let next = json!({"input": "Shorter.", "parameters": {"memory_id": memory_id, "topic": "AI", "format": "essay"}});
    let (status, answer) = post(&http, &execute, &next.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    let (_, memory) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory_id}/messages"))).await;
    let messages = memory["messages"].as_array().unwrap();
    assert_eq!(messages[0]["message"]["content"][0]["text"], formatted);
    assert_eq!(
        messages[2]["message"]["content"][0]["text"],
        "<inputs>\ntopic: AI\nformat: essay\n</inputs>\n\nShorter."
    );

    // An agent without a schema leaves parameters alone, and GET says it has none.
    let (_, plain) = get(&http, &gateway.at("/_plugins/_ml/agents/echo")).await;
    assert_eq!(plain["parameters_schema"], Value::Null);
    let (status, answer) = post(
        &http,
        &gateway.at("/_plugins/_ml/agents/echo/_execute"),
        &json!({"input": "Hi", "parameters": {"topic": "AI", "verbose": "true"}}).to_string(),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(output(&answer, "response")["dataAsMap"]["conversation"][0]["content"][0]["text"], "Hi");
}
