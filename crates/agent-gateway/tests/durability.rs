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

async fn burst(url: String, acks: Arc<Mutex<Vec<Ack>>>, count: Arc<AtomicUsize>, n: usize) {
    let http = reqwest::Client::builder().timeout(Duration::from_secs(10)).build().unwrap();
    let mut memory: Option<String> = None;
    for i in 0.. {
        // Alternate: a new conversation, then a turn continuing it (an append to a memory).
        let body = match &memory {
            Some(id) if i % 2 == 1 => json!({"input": format!("turn {i} of {n}"), "parameters": {"memory_id": id}}),
            _ => json!({"input": [{"type": "text", "text": format!("client {n} turn {i}")}]}),
        };
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
    let scratch = Scratch::new("sigkill");
    let db = scratch.path("g.db");
    let gateway = Gateway::start(&db, &[]);
    let url = gateway.at("/_plugins/_ml/agents/echo/_execute");
    let acks = Arc::new(Mutex::new(Vec::new()));
    let count = Arc::new(AtomicUsize::new(0));
    let clients: Vec<_> =
        (0..16).map(|n| tokio::spawn(burst(url.clone(), Arc::clone(&acks), Arc::clone(&count), n))).collect();
    // Kill while the burst is in full flight: after 300 acknowledged turns.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while count.load(Ordering::SeqCst) < 300 {
        assert!(std::time::Instant::now() < deadline, "the burst did not get going");
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    gateway.kill9();
    for client in clients {
        client.await.unwrap();
    }
    let acks = acks.lock().unwrap().clone();
    assert!(acks.len() >= 300);

    let gateway = Gateway::start(&db, &[]);
    let http = common::client();
    let mut memories = std::collections::BTreeMap::<String, Vec<String>>::new();
    for (memory, parent) in &acks {
        memories.entry(memory.clone()).or_default().push(parent.clone());
    }
    for (memory, parents) in &memories {
        let (status, stored) = get(&http, &gateway.at(&format!("/_plugins/_ml/memory/{memory}/messages"))).await;
        assert_eq!(status, 200, "acknowledged memory {memory} is gone: {stored}");
        let ids: Vec<String> = stored["messages"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["message_id"].to_string().replace('"', ""))
            .collect();
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
