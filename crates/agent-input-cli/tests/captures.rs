//! `agent-input response` on real provider answers (`tests/captures/`): the message it prints
//! says what an independent reading of the same body says — text, tool calls, and the
//! `reasoningState` the next turn sends back.

#[path = "../../agent-input/tests/support/captures.rs"]
mod captures;

use std::process::Command;

use captures::{Reading, read_response, state_of};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_agent-input");

/// The printed message, in the terms of the independent reading.
fn reading_of(message: &Value) -> Reading {
    let text = message["content"].as_array().unwrap().iter().filter_map(|b| b["text"].as_str()).collect::<String>();
    let calls = message["toolCalls"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|c| {
            let arguments = serde_json::from_str(c["function"]["arguments"].as_str().unwrap()).unwrap();
            (c["id"].as_str().unwrap().to_string(), c["function"]["name"].as_str().unwrap().to_string(), arguments)
        })
        .collect();
    let state = message["reasoningState"]["items"].as_array().into_iter().flatten().map(state_of).collect();
    let items = message["content"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|b| b["type"] == "provider_item")
        .map(|b| b["item"].clone())
        .collect();
    Reading { text, calls, state, items }
}

#[test]
fn response_prints_every_captured_answer_with_its_reasoning_state() {
    let mut read = 0;
    for capture in captures::all() {
        let file = capture.dir.join("response.json");
        if !file.exists() {
            continue;
        }
        let output =
            Command::new(BIN).args(["response", "--compact", "--from", capture.provider]).arg(&file).output().unwrap();
        assert!(output.status.success(), "{}: {}", capture.name, String::from_utf8_lossy(&output.stderr));
        let printed: Value = serde_json::from_slice(&output.stdout).unwrap();
        let message = &printed["message"];
        let ours = reading_of(message);
        let theirs = read_response(capture.provider, &capture.json("response.json").unwrap());
        assert_eq!(ours.text.trim(), theirs.text.trim(), "{}", capture.name);
        assert_eq!((ours.calls, ours.state), (theirs.calls, theirs.state.clone()), "{}", capture.name);
        assert_eq!(ours.items, theirs.items, "{}: the provider's own items", capture.name);
        if !theirs.state.is_empty() {
            assert_eq!(message["reasoningState"]["provider"], capture.provider, "{}", capture.name);
        }
        read += 1;
    }
    assert!(read >= 17, "only {read} answers were read");
}
