//! Conversation memory over HTTP: the per-memory caps (a 400 that says how to go on) and the
//! paginated `GET …/messages`.

mod common;

use std::time::{Duration, Instant};

use common::stub::{self, Mode, Stub};
use common::{Gateway, Scratch, client, get, output, post};
use serde_json::{Value, json};

async fn turn(http: &reqwest::Client, gateway: &Gateway, input: &str, memory: Option<&str>) -> (u16, Value) {
    let mut body = json!({"input": input});
    if let Some(id) = memory {
        body["parameters"] = json!({"memory_id": id});
    }
    post(http, &gateway.at("/_plugins/_ml/agents/echo/_execute"), &body.to_string()).await
}

#[tokio::test]
async fn a_full_memory_is_a_400_that_says_to_start_a_new_one() {
    let scratch = Scratch::new("memory-cap");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--max-memory-messages", "5", "--max-memory-bytes", "4000"]);
    let http = client();
    let (status, answer) = turn(&http, &gateway, "one", None).await;
    assert_eq!(status, 200, "{answer}");
    let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    let (status, _) = turn(&http, &gateway, "two", Some(&memory)).await;
    assert_eq!(status, 200);
    // Four messages stored; this turn's input and answer would make six.
    let (status, body) = turn(&http, &gateway, "three", Some(&memory)).await;
    assert_eq!(status, 400, "{body}");
    let detail = &body["error"]["details"][0];
    assert_eq!(detail["code"], "too_large");
    assert_eq!(detail["path"], "/parameters/memory_id");
    assert_eq!((detail["limit"].as_u64(), detail["actual"].as_u64()), (Some(5), Some(6)));
    assert!(body["error"]["reason"].as_str().unwrap().contains("without parameters.memory_id"), "{body}");
    // Nothing was stored by the refused turn; a new memory works.
    let (_, stored) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
    assert_eq!(stored["messages"].as_array().unwrap().len(), 4);
    let (status, _) = turn(&http, &gateway, "three", None).await;
    assert_eq!(status, 200);

    // The byte cap: a large first turn leaves no room for a second.
    let (status, answer) = turn(&http, &gateway, &"x".repeat(2500), None).await;
    assert_eq!(status, 200);
    let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    let (status, body) = turn(&http, &gateway, &"y".repeat(1500), Some(&memory)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["details"][0]["limit"], 4000, "{body}");
}

#[tokio::test]
async fn messages_come_a_page_at_a_time() {
    let scratch = Scratch::new("memory-pages");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let (_, answer) = turn(&http, &gateway, "one", None).await;
    let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    turn(&http, &gateway, "two", Some(&memory)).await;
    let url = gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"));
    let ids = |page: &Value| -> Vec<i64> {
        page["messages"].as_array().unwrap().iter().map(|m| m["message_id"].as_i64().unwrap()).collect()
    };

    let (status, all) = get(&http, &url).await;
    assert_eq!(status, 200);
    assert_eq!(ids(&all), [1, 2, 3, 4]);
    assert!(all.get("next_token").is_none(), "{all}");
    let (_, first) = get(&http, &format!("{url}?max_results=3")).await;
    assert_eq!(ids(&first), [1, 2, 3]);
    assert_eq!(first["next_token"], "3");
    let (_, rest) = get(&http, &format!("{url}?max_results=3&next_token=3")).await;
    assert_eq!(ids(&rest), [4]);
    assert!(rest.get("next_token").is_none(), "{rest}");
    let (_, exact) = get(&http, &format!("{url}?max_results=4")).await;
    assert!(exact.get("next_token").is_none(), "{exact}");
    for bad in ["max_results=0", "max_results=1001", "max_results=x", "next_token=-1"] {
        let (status, body) = get(&http, &format!("{url}?{bad}")).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_provider_call_holds_up_no_other_request() {
    let stub = Stub::start().await;
    let scratch = Scratch::new("memory-lock");
    let gateway = Gateway::start(&scratch.path("g.db"), &["--provider-timeout-secs", "10"]);
    let http = client();
    let agent = json!({"name": "b", "type": "conversational", "model": {"model_id": "m", "model_provider": "bedrock/converse",
        "credential": {"api_key": stub::API_KEY}, "model_parameters": {"endpoint": stub.url}}});
    let (_, registered) = post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &agent.to_string()).await;
    let slow = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", registered["agent_id"].as_str().unwrap()));
    let (status, answer) = post(&http, &slow, r#"{"input": "one"}"#).await;
    assert_eq!(status, 200, "{answer}");
    let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();

    // A turn of that memory waits 2 s on the provider; meanwhile the same memory is read and
    // other turns are stored.
    stub.set(Mode::Sleep(Duration::from_secs(2)));
    let second = json!({"input": "two", "parameters": {"memory_id": memory}}).to_string();
    let running = {
        let (http, slow) = (http.clone(), slow.clone());
        tokio::spawn(async move { post(&http, &slow, &second).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    let (status, _) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
    assert_eq!(status, 200);
    let (status, _) = turn(&http, &gateway, "elsewhere", None).await;
    assert_eq!(status, 200);
    let took = started.elapsed();
    assert!(took < Duration::from_secs(1), "other requests waited {took:?} on the provider call");
    assert!(!running.is_finished(), "the slow call ended early");
    let (status, answer) = running.await.unwrap();
    assert_eq!(status, 200, "{answer}");
}

#[tokio::test]
async fn a_stored_history_is_validated_once_not_on_every_turn() {
    let scratch = Scratch::new("memory-once");
    let db = scratch.path("g.db");
    let gateway = Gateway::start(&db, &[]);
    let http = client();
    let (_, answer) = turn(&http, &gateway, "one", None).await;
    let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    // Behind the gateway's back, the first stored message stops being valid input.
    let broken = r#"{"role":"user","content":[]}"#;
    let connection = rusqlite::Connection::open(&db).unwrap();
    let changed = connection
        .execute("UPDATE messages SET message = ?1 WHERE memory_id = ?2 AND message_id = 1", [broken, &memory])
        .unwrap();
    assert_eq!(changed, 1);
    // The running gateway validated that history when it was written and does not read it again.
    let (status, body) = turn(&http, &gateway, "two", Some(&memory)).await;
    assert_eq!(status, 200, "{body}");
    // A restarted one validates it once, and finds the change.
    gateway.stop();
    let gateway = Gateway::start(&db, &[]);
    let (status, body) = turn(&http, &gateway, "three", Some(&memory)).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"]["details"][0]["path"], "/memory/0/content", "{body}");
}
