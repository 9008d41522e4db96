//! Structured requests through the text path: every input the validator accepts converts or
//! fails only with the listed conversion codes, and every body satisfies its provider's rules
//! (`agent_input_fuzz::rules`).
#![no_main]

use agent_input::validate;
use agent_input_fuzz::Request;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|request: Request| {
    let text = request.body.to_string();
    let options = validate::Options { allow_prefill: request.allow_prefill, ..Default::default() };
    agent_input_fuzz::run(&text, &request.options, &options);
});
