//! `kill -9` during a burst of executes loses no acknowledged turn: every `_execute` answered
//! 200 before the gateway was killed is in its `SQLite` file when it starts again (WAL; each turn
//! is committed before the answer is sent).

mod common;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use common::{Gateway, Scratch, get, output};
use serde_json::{Value, json};

/// `(memory_id, parent_message_id)` of one acknowledged turn.
type Ack = (String, String);

async fn burst(url: String, acks: Arc<Mutex<Vec<Ack>>>, count: Arc<AtomicUsize>, n: usize, media: Arc<Vec<String>>) {
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let mut memory: Option<String> = None;
    for i in 0.. {
        // Alternate: a new conversation, then a turn continuing it (an append to a memory).
        let mut body = match &memory {
            Some(id) if i % 2 == 1 => json!({"input": format!("turn {i} of {n}"), "parameters": {"memory_id": id}}),
            _ => json!({"input": [{"type": "text", "text": format!("client {n} turn {i}")}]}),
        };
        if !media.is_empty() {
            // Every turn carries one of a few images, shared between turns and memories.
            let image = &media[(n + i) % media.len()];
            let text = format!("client {n} turn {i}");
            body["input"] = json!([{"type": "text", "text": text},
                {"type": "image", "source": {"type": "base64", "format": "png", "data": image}}]);
        }
        let Ok(response) =
            http.post(&url).header("content-type", "application/json").body(body.to_string()).send().await
        else {
            return; // the gateway is gone
        };
        if response.status() != 200 {
            return;
        }
        let Ok(answer) = response.json::<Value>().await else { return };
        let memory_id = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
        let parent = output(&answer, "parent_message_id")["result"].as_str().unwrap().to_string();
        acks.lock().unwrap().push((memory_id.clone(), parent));
        count.fetch_add(1, Ordering::SeqCst);
        memory = Some(memory_id);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigkill_mid_burst_loses_no_acknowledged_turn() {
    sigkill_mid_burst("sigkill", Vec::new(), 300).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigkill_mid_burst_with_shared_media_loses_no_turn_nor_payload() {
    let media = (0..3).map(|seed| common::image(seed, 60_000)).collect();
    sigkill_mid_burst("sigkill-media", media, 150).await;
}

async fn sigkill_mid_burst(name: &str, media: Vec<String>, turns: usize) {
    let scratch = Scratch::new(name);
    let db = scratch.path("g.db");
    let gateway = Gateway::start(&db, &[]);
    let url = gateway.at("/_plugins/_ml/agents/echo/_execute");
    let acks = Arc::new(Mutex::new(Vec::new()));
    let count = Arc::new(AtomicUsize::new(0));
    let media = Arc::new(media);
    let clients: Vec<_> = (0..16)
        .map(|n| tokio::spawn(burst(url.clone(), Arc::clone(&acks), Arc::clone(&count), n, Arc::clone(&media))))
        .collect();
    // Kill while the burst is in full flight: after that many acknowledged turns.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while count.load(Ordering::SeqCst) < turns {
        assert!(std::time::Instant::now() < deadline, "the burst did not get going");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    gateway.kill9();
    for client in clients {
        client.await.unwrap();
    }
    let acks = acks.lock().unwrap().clone();
    assert!(acks.len() >= turns);

    let gateway = Gateway::start(&db, &[]);
    let http = common::client();
    let mut memories = std::collections::BTreeMap::<String, Vec<String>>::new();
    for (memory, parent) in &acks {
        memories.entry(memory.clone()).or_default().push(parent.clone());
    }
    for (memory, parents) in &memories {
        let (status, stored) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
        assert_eq!(status, 200, "acknowledged memory {memory} is gone: {stored}");
        let messages = stored["messages"].as_array().unwrap();
        let ids: Vec<String> = messages.iter().map(|m| m["message_id"].to_string().replace('"', "")).collect();
        for message in messages.iter().filter(|m| m["role"] == "user" && !media.is_empty()) {
            let data = message["message"]["content"][1]["source"]["data"].as_str().unwrap_or_default();
            assert!(media.iter().any(|image| image == data), "a stored turn of {memory} lost its image");
        }
        for parent in parents {
            let at = ids.iter().position(|id| id == parent);
            let at = at.unwrap_or_else(|| panic!("acknowledged turn {parent} of {memory} is missing: {ids:?}"));
            // The turn's input and the model's answer, both.
            assert!(at + 1 < ids.len(), "the answer of turn {parent} of {memory} is missing");
        }
    }
    eprintln!("{} acknowledged turns in {} memories, all present after SIGKILL", acks.len(), memories.len());
    gateway.stop();
}

/// The gateway (a debug build) holds an eviction halfway — messages deleted, payloads not yet —
/// when `AGENT_GATEWAY_TEST_EVICTION_PAUSE_MS` is set; it is killed there. After a restart, every
/// message still has its payloads and the memory being evicted is whole: one transaction per
/// memory, and a foreign key that refuses a payload's deletion while a message refers to it.
#[cfg(debug_assertions)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_kill_in_the_middle_of_an_eviction_leaves_no_message_without_its_payload() {
    let scratch = Scratch::new("evict-kill");
    let db = scratch.path("g.db");
    let (gateway, log) = Gateway::start_logged(
        &db,
        &["--max-db-bytes", "1500000"],
        &[("AGENT_GATEWAY_TEST_EVICTION_PAUSE_MS", "60000")],
    );
    let url = gateway.at("/_plugins/_ml/agents/echo/_execute");
    let shared = common::image(30, 300_000);
    let acks: Arc<Mutex<Vec<(String, String)>>> = Arc::default();
    let writer = {
        let (acks, shared) = (Arc::clone(&acks), shared.clone());
        tokio::spawn(async move {
            let http = reqwest::Client::builder().timeout(Duration::from_secs(30)).build().unwrap();
            for seed in 0..20 {
                let own = common::image(seed, 200_000);
                let body = json!({"input": [{"type": "text", "text": format!("turn {seed}")},
                    {"type": "image", "source": {"type": "base64", "format": "png", "data": shared}},
                    {"type": "image", "source": {"type": "base64", "format": "png", "data": own}}]});
                let Ok(response) =
                    http.post(&url).header("content-type", "application/json").body(body.to_string()).send().await
                else {
                    return;
                };
                let Ok(answer) = response.json::<Value>().await else { return };
                let memory = output(&answer, "memory_id")["result"].as_str().unwrap().to_string();
                acks.lock().unwrap().push((memory, own));
            }
        })
    };
    let line = log.wait_for("evicting ", Duration::from_secs(60));
    let victim = line.split_whitespace().nth(1).unwrap().trim_end_matches(':').to_string();
    gateway.kill9();
    writer.abort();
    let acks = acks.lock().unwrap().clone();
    assert!(acks.iter().any(|(memory, _)| *memory == victim), "{victim} was acknowledged");

    let gateway = Gateway::start(&db, &["--max-db-bytes", "1000000000"]);
    let connection = rusqlite::Connection::open(&db).unwrap();
    let problems: i64 =
        connection.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |row| row.get(0)).unwrap();
    assert_eq!(problems, 0);
    let integrity: String = connection.query_row("PRAGMA integrity_check", [], |row| row.get(0)).unwrap();
    assert_eq!(integrity, "ok");
    let http = common::client();
    for (memory, own) in &acks {
        let (status, stored) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
        assert_eq!(status, 200, "{memory} (the eviction of {victim} never committed): {stored}");
        let content = &stored["messages"][0]["message"]["content"];
        assert_eq!(content[1]["source"]["data"], shared.as_str(), "{memory}");
        assert_eq!(content[2]["source"]["data"], own.as_str(), "{memory}");
    }
    gateway.stop();
}
