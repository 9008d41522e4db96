//! Structured requests (the shapes of contract §3 with wrong types and odd values mixed in) and
//! conversion options: validate, then convert for every provider in `ProviderId::ALL`.
#![no_main]

use agent_input::{ConvertOptions, ProviderId, convert, validate};
use agent_input_fuzz::Request;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|request: Request| {
    let document = validate::document(&request.body);
    let options = validate::Options { allow_prefill: request.allow_prefill, ..Default::default() };
    let Ok((parsed, _)) = validate::validate_request(&document, &options).into_result() else { return };
    for &provider in ProviderId::ALL {
        let _ = convert::check_options(provider, &request.options);
        agent_input_fuzz::check_conversion(provider, &parsed, &request.options);
        agent_input_fuzz::check_conversion(provider, &parsed, &ConvertOptions::default());
    }
});
