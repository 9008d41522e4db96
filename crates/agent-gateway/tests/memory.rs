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

fn image_turn(image: &str, text: &str, memory: Option<&str>, verbose: bool) -> String {
    let mut body = json!({"input": [{"type": "text", "text": text},
        {"type": "image", "source": {"type": "base64", "format": "png", "data": image}}]});
    if let Some(id) = memory {
        body["parameters"] = json!({"memory_id": id});
    }
    if verbose {
        body["parameters"]["verbose"] = json!(true);
    }
    body.to_string()
}

fn count(db: &std::path::Path, sql: &str) -> i64 {
    let connection = rusqlite::Connection::open(db).unwrap();
    connection.query_row(sql, [], |row| row.get(0)).unwrap()
}

#[tokio::test]
async fn answers_carry_the_turn_and_the_history_is_read_from_the_memory() {
    let scratch = Scratch::new("memory-answer");
    let gateway = Gateway::start(&scratch.path("g.db"), &[]);
    let http = client();
    let url = gateway.at("/_plugins/_ml/agents/echo/_execute");
    let image = common::image(1, 300_000);
    let response = http
        .post(&url)
        .header("content-type", "application/json")
        .body(image_turn(&image, "one", None, false))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let text = response.text().await.unwrap();
    assert!(text.len() < 2000, "the answer carries the turn, not the image: {} bytes", text.len());
    let answer: Value = serde_json::from_str(&text).unwrap();
    let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    assert_eq!(output(&answer, "parent_message_id")["result"], "1");
    let data = &output(&answer, "response")["dataAsMap"];
    assert!(data.get("conversation").is_none(), "{data}");
    assert_eq!(data["final_response"]["role"], "assistant");
    assert_eq!(data["final_response"]["content"][0]["text"], output(&answer, "response")["result"]);

    // parameters.verbose asks for the whole conversation, as before.
    let (status, answer) = post(&http, &url, &image_turn(&image, "two", Some(&memory), true)).await;
    assert_eq!(status, 200, "{answer}");
    let conversation = &output(&answer, "response")["dataAsMap"]["conversation"];
    assert_eq!(conversation.as_array().unwrap().len(), 4);
    assert_eq!(conversation[2]["content"][1]["source"]["data"], image.as_str());

    // The memory API gives the history back, media included.
    let (status, stored) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
    assert_eq!(status, 200);
    let messages = stored["messages"].as_array().unwrap();
    assert_eq!(messages.len(), 4);
    for (i, text) in [(0, "one"), (2, "two")] {
        assert_eq!(messages[i]["message"]["content"][0]["text"], text);
        assert_eq!(messages[i]["message"]["content"][1]["source"]["data"], image.as_str());
    }
    assert_eq!(messages[1]["message"], output(&answer, "response")["dataAsMap"]["conversation"][1]);
}

#[tokio::test]
async fn the_same_image_in_many_turns_and_memories_is_stored_once() {
    let scratch = Scratch::new("memory-dedup");
    let db = scratch.path("g.db");
    let gateway = Gateway::start(&db, &[]);
    let http = client();
    let url = gateway.at("/_plugins/_ml/agents/echo/_execute");
    let (shared, other) = (common::image(2, 200_000), common::image(3, 200_000));
    let mut memories = Vec::new();
    for m in 0..2 {
        let mut memory: Option<String> = None;
        for t in 0..10 {
            let image = if m == 1 && t == 9 { &other } else { &shared };
            let (status, answer) =
                post(&http, &url, &image_turn(image, &format!("{m}.{t}"), memory.as_deref(), false)).await;
            assert_eq!(status, 200, "{answer}");
            memory = Some(output(&answer, "memory_id")["result"].as_str().unwrap().to_string());
        }
        memories.push(memory.unwrap());
    }
    assert_eq!(count(&db, "SELECT COUNT(*) FROM payloads"), 2);
    assert_eq!(count(&db, "SELECT COUNT(*) FROM message_payloads"), 20);
    let (status, page) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{}/messages", memories[1]))).await;
    assert_eq!(status, 200);
    let messages = page["messages"].as_array().unwrap();
    assert_eq!(messages[0]["message"]["content"][1]["source"]["data"], shared.as_str());
    assert_eq!(messages[18]["message"]["content"][1]["source"]["data"], other.as_str());
    // A database of 40 messages carrying 20 images of 200 KB holds two of them.
    let size = std::fs::metadata(&db).unwrap().len();
    assert!(size < 2_000_000, "{size} bytes");
}

#[tokio::test]
async fn an_expired_memory_is_evicted_and_answers_404_saying_so() {
    let scratch = Scratch::new("memory-ttl");
    let db = scratch.path("g.db");
    let (gateway, log) = Gateway::start_logged(&db, &["--memory-ttl", "1"], &[]);
    let http = client();
    let (status, answer) = turn(&http, &gateway, "one", None).await;
    assert_eq!(status, 200);
    let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    let line = log.wait_for("evicted 1 memories (1 expired", Duration::from_secs(20));
    assert!(line.contains("0 over --max-db-bytes"), "{line}");
    let (status, body) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
    assert_eq!(status, 404, "{body}");
    let reason = body["error"]["reason"].as_str().unwrap();
    assert!(reason.contains("was evicted") && reason.contains("--memory-ttl"), "{reason}");
    let (status, body) = turn(&http, &gateway, "two", Some(&memory)).await;
    assert_eq!(status, 404, "{body}");
    assert!(body["error"]["reason"].as_str().unwrap().contains("without parameters.memory_id"), "{body}");
    assert_eq!(count(&db, "SELECT COUNT(*) FROM messages"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_the_size_cap_the_least_recently_used_go_but_not_one_a_turn_is_using() {
    let stub = Stub::start().await;
    let scratch = Scratch::new("memory-cap-db");
    let db = scratch.path("g.db");
    let (gateway, log) =
        Gateway::start_logged(&db, &["--max-db-bytes", "3000000", "--provider-timeout-secs", "20"], &[]);
    let http = client();
    let agent = json!({"name": "b", "type": "conversational", "model": {"model_id": "m", "model_provider": "bedrock/converse",
        "credential": {"api_key": stub::API_KEY}, "model_parameters": {"endpoint": stub.url}}});
    let (_, registered) = post(&http, &gateway.at("/_plugins/_ml/agents/_register"), &agent.to_string()).await;
    let slow = gateway.at(&format!("/_plugins/_ml/agents/{}/_execute", registered["agent_id"].as_str().unwrap()));
    let echo = gateway.at("/_plugins/_ml/agents/echo/_execute");

    // The oldest memory; then a turn on it that waits on the provider while others fill the file.
    let (status, answer) = post(&http, &slow, &image_turn(&common::image(10, 600_000), "held", None, false)).await;
    assert_eq!(status, 200, "{answer}");
    let held = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
    stub.set(Mode::Sleep(Duration::from_secs(4)));
    let running = {
        let (http, slow, body) =
            (http.clone(), slow.clone(), json!({"input": "again", "parameters": {"memory_id": held}}));
        tokio::spawn(async move { post(&http, &slow, &body.to_string()).await })
    };
    let mut others = Vec::new();
    for seed in 11..17 {
        let (status, answer) =
            post(&http, &echo, &image_turn(&common::image(seed, 600_000), "fill", None, false)).await;
        assert_eq!(status, 200, "{answer}");
        others.push(output(&answer, "memory_id")["result"].as_str().unwrap().to_string());
    }
    let line = log.wait_for("over --max-db-bytes), ", Duration::from_secs(20));
    assert!(line.contains("kept while a turn uses them"), "{line}");
    let (status, answer) = running.await.unwrap();
    assert_eq!(status, 200, "the held memory's turn was stored: {answer}");
    let (status, body) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{held}/messages"))).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{}/messages", others[0]))).await;
    assert_eq!(status, 404, "{body}");
    assert!(body["error"]["reason"].as_str().unwrap().contains("--max-db-bytes"), "{body}");
    let (status, _) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{}/messages", others[5]))).await;
    assert_eq!(status, 200, "the newest memory stays");
    // The file was given back: it holds about what the cap allows, not all seven images.
    let size = std::fs::metadata(&db).unwrap().len();
    assert!(size < 4_000_000, "{size} bytes");
    assert_eq!(count(&db, "SELECT COUNT(*) FROM pragma_foreign_key_check"), 0);
}
