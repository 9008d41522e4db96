//! Arbitrary JSON text through the AG-UI mapping: `from_agui` never panics, every problem's path
//! resolves in the AG-UI body, and `to_agui`'s output round-trips (see `agent_input_fuzz::agui`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(body) = serde_json::from_slice::<serde_json::Value>(data) {
        agent_input_fuzz::agui::check(&body);
    }
});
