//! Arbitrary bytes: parse, validate and (when valid) convert for every provider, with default
//! and small limits. Nothing may panic; see `agent_input_fuzz::run` for the invariants.
#![no_main]

use agent_input::{ConvertOptions, validate};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    agent_input_fuzz::run(text, &ConvertOptions::default(), &validate::Options::default());
    let small = validate::Limits { max_depth: 6, max_messages: 3, max_blocks: 3, max_body_bytes: 4096 };
    agent_input_fuzz::run(text, &ConvertOptions::default(), &validate::Options { limits: small, allow_prefill: true, ml_commons: false });
});
