//! Arbitrary bytes (or, for Bedrock, arbitrary events in valid frames) through every provider's
//! stream decoder in arbitrary chunks: nothing panics, and the events and the final answer or
//! error are the same whatever the chunking (see `agent_input_fuzz::streams`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Some(case) = agent_input_fuzz::streams::case(data) {
        agent_input_fuzz::streams::check(&case);
    }
});
