//! Structured requests through the text path: every input the validator accepts converts or
//! fails only with the listed conversion codes, and Bedrock bodies satisfy the Converse rules
//! (`agent_input_fuzz::converse_rules`).
#![no_main]

use agent_input::validate;
use agent_input_fuzz::Request;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|request: Request| {
    let text = request.body.to_string();
    let options = validate::Options { allow_prefill: request.allow_prefill, ..Default::default() };
    agent_input_fuzz::run(&text, &request.options, &options);
});
