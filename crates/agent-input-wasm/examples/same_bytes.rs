//! The package's base operations run natively, many at once, for tests/node/same-bytes.test.mjs:
//! each line of standard input is either `["text", text]`, the text the calls after it take, or a
//! call, `["validate" | "validateInput" | "convert" | "convertInput", options]` (options as JSON
//! text, or null), and each call has a line of standard output, `[report]` for a validation,
//! `[ok, report, body]` for a conversion. A text is sent once for all its calls: some are
//! tens of megabytes.

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    use std::io::{BufRead, BufWriter, Write};

    use agent_input_wasm::native;
    use serde_json::json;

    let stdin = std::io::stdin().lock();
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut text = String::new();
    for line in stdin.lines() {
        let line = line.expect("standard input is UTF-8");
        let (op, options): (String, Option<String>) = serde_json::from_str(&line).expect("each line is [op, argument]");
        let answer = match op.as_str() {
            "text" => {
                text = options.expect("a text");
                continue;
            }
            "validate" | "validateInput" => json!([native::validate(&text, op == "validateInput", options.as_deref())]),
            "convert" | "convertInput" => {
                let (ok, report, body) =
                    native::convert(&text, op == "convertInput", options.as_deref().unwrap_or("null"));
                json!([ok, report, body])
            }
            _ => panic!("unknown operation {op}"),
        };
        serde_json::to_writer(&mut out, &answer).expect("standard output is writable");
        out.write_all(b"\n").expect("standard output is writable");
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}
