//! The prompt-only request over real HTTP: `{"parameters": {"prompt": ..., "topic": ...}}` with no
//! `input` runs on an agent that declares a `parameters_schema` (the prompt is the prompt, the
//! other parameters its `<inputs>` block), and is `missing_input` on one that does not.

mod common;

use common::{Gateway, Scratch, client, output, post};
use serde_json::{Value, json};

#[tokio::test]
async fn the_seeds_prompt_only_request_needs_a_schema() {
    let scratch = Scratch::new("prompt-only");
    let gateway = Gateway::start(&scratch.path("gateway.db"), &[]);
    let http = client();
    let register = gateway.at("/_plugins/_ml/agents/_register");
    let schema = json!({"type": "object", "required": ["topic", "format"], "properties": {
        "topic": {"type": "string"}, "format": {"type": "string", "enum": ["summary", "bullet_points", "essay"]},
        "max_words": {"type": "integer", "minimum": 50, "maximum": 2000}}, "additionalProperties": false});
    let agent = json!({"name": "parametric-agent", "type": "conversational", "parameters_schema": schema,
        "model": {"model_id": "echo-1", "model_provider": "echo"}});
    let (status, body) = post(&http, &register, &agent.to_string()).await;
    assert_eq!(status, 200, "{body}");
    let with_schema = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", body["agent_id"].as_str().unwrap()));

    let request = json!({"parameters": {"prompt": "Create content about this topic.",
        "topic": "Machine Learning in Healthcare", "format": "bullet_points", "max_words": 300, "verbose": true}});
    let (status, answer) = post(&http, &with_schema, &request.to_string()).await;
    assert_eq!(status, 200, "{answer}");
    // format_autonomous_inputs (scripts/gen-schema-fixtures.py) of these parameters, written out by hand.
    let formatted = "<inputs>\ntopic: Machine Learning in Healthcare\nformat: bullet_points\nmax_words: 300\n\
                     </inputs>\n\nCreate content about this topic.";
    let conversation = &output(&answer, "response")["dataAsMap"]["conversation"];
    assert_eq!(conversation[0], json!({"role": "user", "content": [{"type": "text", "text": formatted}]}));

    // A violation is reported at the parameter, as for any request.
    let bad = json!({"parameters": {"prompt": "Write.", "topic": "AI", "format": "poem"}});
    let (status, body) = post(&http, &with_schema, &bad.to_string()).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["details"][0]["path"], "/parameters/format");

    // Without a schema the same request has no input.
    let (status, body) = post(&http, &gateway.at("/_plugins/_ml/agents/echo/_execute"), &request.to_string()).await;
    assert_eq!(status, 400, "{body}");
    let details: &Value = &body["error"]["details"];
    assert_eq!(details[0]["code"], "missing_input");
    assert!(details[0]["message"].as_str().unwrap().contains("parameters_schema"), "{body}");
}
