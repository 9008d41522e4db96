//! Runs every conformance fixture through the real `agent-input` binary, plus the CLI's own
//! behaviour (exit codes, usage errors, stderr).

#![allow(clippy::format_push_string, clippy::missing_panics_doc)] // test code: panics are failures

use std::io::Write;
use std::process::{Command, Output, Stdio};

use conformance::{
    Case, ImportCase, ResponseCase, Subject, check_conversion, check_import, check_response, check_validation, expand,
    load_all, load_imports, load_responses,
};
use libtest_mimic::{Arguments, Failed, Trial};
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_agent-input");

fn run_cli(args: &[String], stdin: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.to_string();
    // Write from a thread so a large input cannot deadlock against a full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let output = child.wait_with_output().expect("the binary finishes");
    writer.join().expect("writer thread");
    output
}

fn limit_args(case: &Case) -> Vec<String> {
    let limits = case.limits();
    vec![
        format!("--max-body-bytes={}", limits.max_body_bytes),
        format!("--max-depth={}", limits.max_depth),
        format!("--max-messages={}", limits.max_messages),
        format!("--max-blocks={}", limits.max_blocks),
        "--compact".into(),
    ]
}

fn stdout_json(output: &Output) -> Result<Value, String> {
    serde_json::from_slice(&output.stdout).map_err(|e| {
        format!(
            "stdout is not JSON ({e}); status {:?}; stderr: {}",
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        )
    })
}

/// CLI flags for a fixture's conversion options: `Ok` when every option can be written as a
/// flag, `Err` with the flags written from the raw values when one cannot (a number given as an
/// arbitrary string, a negative `max_tokens`); the CLI must then refuse them as a usage error.
fn convert_args(entry: &Value, dir: &std::path::Path) -> Result<Vec<String>, Vec<String>> {
    // A flag's value as the flag reads it, or the raw JSON text when it has another type.
    fn flag(args: &mut Vec<String>, typed: &mut bool, name: &str, value: Option<String>, raw: &Value) {
        *typed &= value.is_some();
        let value = value.unwrap_or_else(|| raw.as_str().map_or_else(|| raw.to_string(), str::to_string));
        args.push(format!("--{name}={value}"));
    }
    let mut args = Vec::new();
    let mut typed = true;
    let empty = json!({});
    let options = entry.get("options").unwrap_or(&empty).as_object().ok_or_else(Vec::new)?;
    for (key, value) in options {
        let (args, typed) = (&mut args, &mut typed);
        match key.as_str() {
            "system" => flag(args, typed, "system", value.as_str().map(str::to_string), value),
            "model" => flag(args, typed, "model", value.as_str().map(str::to_string), value),
            "max_tokens" => flag(args, typed, "max-tokens", value.as_u64().map(|n| n.to_string()), value),
            "temperature" => flag(args, typed, "temperature", value.as_f64().map(|n| n.to_string()), value),
            "top_p" => flag(args, typed, "top-p", value.as_f64().map(|n| n.to_string()), value),
            "stop_sequences" => {
                for stop in value.as_array().into_iter().flatten() {
                    flag(args, typed, "stop-sequence", stop.as_str().map(str::to_string), stop);
                }
            }
            "allow_prefill" | "ml_commons" if value == &json!(false) => {}
            "allow_prefill" if value == &json!(true) => args.push("--allow-prefill".into()),
            // As the 3.6 node the parity entries were checked against runs them (`ml_commons`).
            "ml_commons" if value == &json!(true) => {
                let agent = conformance::ml_commons_agent(entry);
                args.extend([
                    "--ml-commons".into(),
                    format!("--agent-type={agent}"),
                    "--ml-commons-version=3.6".into(),
                ]);
            }
            "agent_type" => {}
            "tools" => {
                let path = dir.join("tools.json");
                *typed &= std::fs::write(&path, value.to_string()).is_ok();
                args.push(format!("--tools={}", path.display()));
            }
            // The request features: a named tool is `tool:NAME`, a ttl has its own flag, and a
            // response format is a schema file with a flag per part.
            "tool_choice" => {
                let named = value.get("name").and_then(Value::as_str).map(|name| format!("tool:{name}"));
                flag(args, typed, "tool-choice", named.or_else(|| value.as_str().map(str::to_string)), value);
            }
            "prompt_cache" => match value {
                Value::Bool(true) => args.push("--prompt-cache".into()),
                Value::Bool(false) => {}
                Value::String(on) if on == "true" => args.push("--prompt-cache".into()),
                Value::String(off) if off == "false" => {}
                _ => {
                    let ttl = value.get("ttl").unwrap_or(value);
                    flag(args, typed, "prompt-cache-ttl", ttl.as_str().map(str::to_string), ttl);
                }
            },
            "response_format" => {
                for (part, part_value) in value.as_object().into_iter().flatten() {
                    if part == "schema" {
                        let path = dir.join("response_schema.json");
                        *typed &= std::fs::write(&path, part_value.to_string()).is_ok();
                        args.push(format!("--response-schema={}", path.display()));
                    } else {
                        let text = part_value.as_str().map_or_else(|| part_value.to_string(), str::to_string);
                        args.push(format!("--response-{part}={text}"));
                    }
                }
            }
            "provider_fields" | "providerFields" => {
                let path = dir.join("provider_fields.json");
                *typed &= std::fs::write(&path, value.to_string()).is_ok();
                args.push(format!("--provider-fields={}", path.display()));
            }
            // An effort or a budget, in an object or alone: the flag takes the value itself.
            "reasoning" => {
                let inner = value.get("effort").or_else(|| value.get("budget_tokens")).unwrap_or(value);
                let text = inner.as_str().map(str::to_string).or_else(|| inner.as_u64().map(|n| n.to_string()));
                flag(args, typed, "reasoning", text, value);
            }
            other => flag(args, typed, other, None, value),
        }
    }
    if typed { Ok(args) } else { Err(args) }
}

/// How many fixture conversions carry options that cannot be written as flags (checked as usage
/// errors instead of conversions). A changed count fails `meta/...`: a new case of this kind is
/// a decision, not an accident.
const UNTYPED_OPTION_CASES: usize = 3;

fn run_case(case: &Case) -> Result<(), Failed> {
    let mut out = String::new();
    let bare = matches!(case.subject(), Subject::Bare(_));
    let text = case.subject_text();
    let dir =
        std::env::temp_dir().join(format!("agent-input-cli-{}-{}", std::process::id(), fastrand_name(&case.name)));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    // An agent's parameters_schema goes in a file, as `--schema FILE` reads it.
    let schema_arg = match &case.schema {
        Some(schema) => {
            let path = dir.join("schema.json");
            std::fs::write(&path, schema.to_string()).map_err(|e| e.to_string())?;
            Some(format!("--schema={}", path.display()))
        }
        None => None,
    };
    let mut args = vec!["validate".to_string()];
    if bare {
        args.push("--bare".into());
    }
    args.extend(schema_arg.clone());
    args.extend(limit_args(case));
    let output = run_cli(&args, &text);
    let report = stdout_json(&output)?;
    check_validation(case, &report, &mut out);
    let want_status = i32::from(!case.expect.valid);
    if output.status.code() != Some(want_status) {
        out.push_str(&format!("validate exited with {:?}, expected {want_status}\n", output.status.code()));
    }

    if let (Some(want), Some(schema_arg)) = (&case.expect.formatted_prompt, &schema_arg) {
        let mut args = vec!["format-inputs".to_string(), schema_arg.clone()];
        args.extend(limit_args(case));
        let output = run_cli(&args, &text);
        let got = stdout_json(&output)?;
        if got != json!(want) || output.status.code() != Some(0) {
            out.push_str(&format!(
                "format-inputs printed {got} (exit {:?}), expected {want:?}\n",
                output.status.code()
            ));
        }
    }

    if let Some(question) = &case.expect.question {
        let mut args = vec!["question".to_string()];
        if bare {
            args.push("--bare".into());
        }
        args.extend(schema_arg.clone());
        args.extend(limit_args(case));
        let output = run_cli(&args, &text);
        let got = stdout_json(&output)?;
        if got != json!(question) {
            out.push_str(&format!("question printed {got}, expected {question:?}\n"));
        }
    }

    for (provider, entry) in &case.expect.convert {
        let flags = match convert_args(entry, &dir) {
            Ok(flags) => flags,
            Err(flags) => {
                // The library reports these options as `invalid_parameter` (the core runner checks
                // that); the CLI's typed flags refuse them before conversion: a usage error.
                let mut args = vec!["convert".to_string(), format!("--to={provider}")];
                args.extend(flags);
                let output = run_cli(&args, &text);
                if output.status.code() != Some(2) || !output.stdout.is_empty() {
                    out.push_str(&format!(
                        "[{provider}] options that are not flags: exit {:?}, expected the usage error 2\n",
                        output.status.code()
                    ));
                }
                continue;
            }
        };
        let mut args = vec!["convert".to_string(), format!("--to={provider}"), "--report".into()];
        if bare {
            args.push("--bare".into());
        }
        args.extend(limit_args(case));
        args.extend(flags);
        let output = run_cli(&args, &text);
        let report = stdout_json(&output)?;
        let mut section = String::new();
        check_conversion(case, entry, &report, &mut section);
        let want_status = i32::from(!conformance::expects_success(entry));
        if output.status.code() != Some(want_status) {
            section.push_str(&format!("convert exited with {:?}, expected {want_status}\n", output.status.code()));
        }
        if !section.is_empty() {
            out.push_str(&format!("[{provider}]\n{section}"));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    if out.is_empty() { Ok(()) } else { Err(out.into()) }
}

/// A file-name-safe tag for a case.
fn fastrand_name(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).take(60).collect()
}

fn cli_behaviour() -> Vec<Trial> {
    vec![
        Trial::test("cli/usage error exits 2", || {
            let output = run_cli(&["convert".into(), "--to=nowhere".into()], "\"hi\"");
            if output.status.code() != Some(2) {
                return Err(format!("exit {:?}", output.status.code()).into());
            }
            let stderr = String::from_utf8_lossy(&output.stderr);
            if !stderr.contains("bedrock-converse") {
                return Err(format!("stderr does not list the providers: {stderr}").into());
            }
            Ok(())
        }),
        Trial::test("cli/missing file exits 2", || {
            let output = run_cli(&["validate".into(), "/nonexistent/request.json".into()], "");
            if output.status.code() == Some(2)
                && String::from_utf8_lossy(&output.stderr).contains("/nonexistent/request.json")
            {
                Ok(())
            } else {
                Err(format!("exit {:?}, stderr {}", output.status.code(), String::from_utf8_lossy(&output.stderr))
                    .into())
            }
        }),
        Trial::test("cli/convert prints the body and warnings on stderr", || {
            let request = r#"{"input":[{"type":"text","text":"Describe"},{"type":"image","source":{"type":"url","format":"JPG","data":"s3://bucket-a/cat.jpg"}}]}"#;
            let output =
                run_cli(&["convert".into(), "--to=bedrock/converse".into(), "--max-tokens=10".into()], request);
            let body = stdout_json(&output)?;
            let want = json!({"messages":[{"role":"user","content":[{"text":"Describe"},{"image":{"format":"jpeg","source":{"s3Location":{"uri":"s3://bucket-a/cat.jpg"}}}}]}],"inferenceConfig":{"maxTokens":10}});
            if body != want {
                return Err(format!("body {body}").into());
            }
            let stderr = String::from_utf8_lossy(&output.stderr);
            if !stderr.contains("warning: format_normalized at /input/1/source/format") {
                return Err(format!("stderr {stderr}").into());
            }
            Ok(())
        }),
        Trial::test("cli/convert failure lists errors on stderr and exits 1", || {
            let request = r#"{"input":[{"type":"image","source":{"type":"url","format":"png","data":"https://example.com/a.png"}}]}"#;
            let output = run_cli(&["convert".into(), "--to=bedrock-converse".into()], request);
            let stderr = String::from_utf8_lossy(&output.stderr);
            if output.status.code() == Some(1)
                && output.stdout.is_empty()
                && stderr.contains("error: url_not_supported_by_provider at /input/0/source/data")
            {
                Ok(())
            } else {
                Err(format!("exit {:?}, stderr {stderr}", output.status.code()).into())
            }
        }),
        Trial::test("cli/oversized input is reported without reading it whole", || {
            let big = format!("\"{}\"", "a".repeat(10_000));
            let output = run_cli(&["validate".into(), "--max-body-bytes=100".into()], &big);
            let report = stdout_json(&output)?;
            if output.status.code() == Some(1) && report["errors"][0]["code"] == "too_large" {
                Ok(())
            } else {
                Err(format!("exit {:?}, report {report}", output.status.code()).into())
            }
        }),
        Trial::test("cli/tool arguments pass through byte for byte", || {
            let request = r#"{"input":[{"role":"user","content":[{"type":"text","text":"Go"}]},{"role":"assistant","toolCalls":[{"id":"c1","function":{"name":"f","arguments":"{\"n\": 123456789012345678901234567890, \"s\": \"\\u00e9\"}"}}]},{"role":"tool","toolCallId":"c1","content":[{"type":"text","text":"ok"}]}]}"#;
            let tools = std::env::temp_dir().join(format!("agent-input-cli-tools-{}.json", std::process::id()));
            std::fs::write(&tools, r#"[{"name":"f"}]"#).map_err(|e| e.to_string())?;
            for extra in [None, Some("--report")] {
                let mut args = vec![
                    "convert".to_string(),
                    "--to=bedrock-converse".into(),
                    "--compact".into(),
                    format!("--tools={}", tools.display()),
                ];
                args.extend(extra.map(String::from));
                let output = run_cli(&args, request);
                let stdout = String::from_utf8_lossy(&output.stdout);
                if !stdout.contains(r#""input":{"n": 123456789012345678901234567890, "s": "\u00e9"}"#) {
                    return Err(format!("arguments changed: {stdout}").into());
                }
            }
            let _ = std::fs::remove_file(&tools);
            Ok(())
        }),
        Trial::test("cli/a tools file holds provider tools and tool fields", || {
            let tools =
                std::env::temp_dir().join(format!("agent-input-cli-provider-tools-{}.json", std::process::id()));
            let specs = r#"[{"type":"provider_tool","provider":"openai-responses","tool":{"type":"web_search"}},
                {"name":"f","provider_fields":{"provider":"openai-responses","fields":{"strict":true}}}]"#;
            std::fs::write(&tools, specs).map_err(|e| e.to_string())?;
            let convert = |to: &str| {
                let args = [
                    "convert".to_string(),
                    format!("--to={to}"),
                    "--report".into(),
                    format!("--tools={}", tools.display()),
                ];
                run_cli(&args, r#"{"input": "Search the web"}"#)
            };
            let same = stdout_json(&convert("openai-responses"))?;
            let want = json!([{"type": "web_search"},
                {"type": "function", "name": "f", "parameters": {"type": "object", "properties": {}}, "strict": true}]);
            let other = stdout_json(&convert("openai-chat"))?;
            let codes: Vec<&str> =
                other["warnings"].as_array().into_iter().flatten().filter_map(|w| w["code"].as_str()).collect();
            let _ = std::fs::remove_file(&tools);
            if same["body"]["tools"] != want {
                return Err(format!("openai-responses body: {same}").into());
            }
            if codes != ["provider_item_dropped", "provider_fields_dropped"]
                || other["body"]["tools"].as_array().map(Vec::len) != Some(1)
            {
                return Err(format!("openai-chat: {other}").into());
            }
            Ok(())
        }),
        Trial::test("cli/response reads a Converse answer", || {
            let body = r#"{"output":{"message":{"role":"assistant","content":[{"text":"72F"},{"toolUse":{"toolUseId":"t1","name":"f","input":{"a":1}}}]}},"stopReason":"tool_use","usage":{"inputTokens":3,"outputTokens":4,"totalTokens":7},"metrics":{"latencyMs":1}}"#;
            let output = run_cli(&["response".into(), "--from=bedrock/converse".into(), "--compact".into()], body);
            let got = stdout_json(&output)?;
            let want = json!({"message": {"role": "assistant", "content": [{"type": "text", "text": "72F"}],
                "toolCalls": [{"id": "t1", "type": "function", "function": {"name": "f", "arguments": "{\"a\":1}"}}]},
                "stop_reason": "tool_use", "usage": {"input_tokens": 3, "output_tokens": 4, "total_tokens": 7}});
            if got != want {
                return Err(format!("got {got}").into());
            }
            let bad = run_cli(&["response".into(), "--from=bedrock-converse".into()], r#"{"output":{}}"#);
            let stderr = String::from_utf8_lossy(&bad.stderr);
            if bad.status.code() != Some(1) || !stderr.contains("missing_field at /output/message") {
                return Err(format!("bad response: exit {:?}, {stderr}", bad.status.code()).into());
            }
            Ok(())
        }),
        Trial::test("cli/convert takes every provider id and alias", || {
            for name in [
                "openai-chat",
                "OpenAI/v1/chat/completions",
                "openai-responses",
                "anthropic-messages",
                "gemini",
                "gemini/v1beta/generatecontent",
            ] {
                let output =
                    run_cli(&["convert".into(), format!("--to={name}"), "--compact".into()], r#"{"input":"Hi"}"#);
                if output.status.code() != Some(0) {
                    return Err(format!("{name}: {}", String::from_utf8_lossy(&output.stderr)).into());
                }
            }
            let pretty = run_cli(&["convert".into(), "--to=gemini".into()], r#"{"input":"Hi"}"#);
            let want = "{\n  \"contents\": [\n    {\n      \"role\": \"user\",\n      \"parts\": [\n        {\n          \"text\": \"Hi\"\n        }\n      ]\n    }\n  ],\n  \"generationConfig\": {\n    \"maxOutputTokens\": 4096\n  }\n}\n";
            if String::from_utf8_lossy(&pretty.stdout) != want {
                return Err(format!("pretty output: {}", String::from_utf8_lossy(&pretty.stdout)).into());
            }
            Ok(())
        }),
        Trial::test("cli/--schema: unreadable or non-JSON schema files and --bare are usage errors", || {
            let bad = std::env::temp_dir().join(format!("agent-input-cli-bad-schema-{}.json", std::process::id()));
            std::fs::write(&bad, "{not json").map_err(|e| e.to_string())?;
            let bad_arg = format!("--schema={}", bad.display());
            let runs = [
                vec!["validate".to_string(), "--schema=/nonexistent/schema.json".into()],
                vec!["format-inputs".to_string(), bad_arg.clone()],
                vec!["validate".to_string(), "--bare".into(), bad_arg],
            ];
            for args in runs {
                let output = run_cli(&args, r#"{"input": "hi"}"#);
                if output.status.code() != Some(2) {
                    return Err(format!("{args:?}: exit {:?}", output.status.code()).into());
                }
            }
            let _ = std::fs::remove_file(&bad);
            Ok(())
        }),
        Trial::test("cli/format-inputs lists violations on stderr and exits 1", || {
            let schema = std::env::temp_dir().join(format!("agent-input-cli-schema-{}.json", std::process::id()));
            std::fs::write(&schema, r#"{"properties": {"n": {"type": "integer"}}, "required": ["n"]}"#)
                .map_err(|e| e.to_string())?;
            let arg = format!("--schema={}", schema.display());
            let output =
                run_cli(&["format-inputs".into(), arg.clone()], r#"{"input": "hi", "parameters": {"n": "x"}}"#);
            let stderr = String::from_utf8_lossy(&output.stderr);
            if output.status.code() != Some(1)
                || !output.stdout.is_empty()
                || !stderr.contains("error: schema_violation at /parameters/n")
            {
                return Err(format!("exit {:?}, stderr {stderr}", output.status.code()).into());
            }
            let output = run_cli(&["format-inputs".into(), arg], r#"{"input": "hi", "parameters": {"n": 2}}"#);
            if stdout_json(&output)? != json!("<inputs>\nn: 2\n</inputs>\n\nhi") {
                return Err(format!("stdout {}", String::from_utf8_lossy(&output.stdout)).into());
            }
            let _ = std::fs::remove_file(&schema);
            Ok(())
        }),
        Trial::test("cli/help documents every command", || {
            for command in ["validate", "convert", "question", "response", "format-inputs", "register-plan"] {
                let output = run_cli(&[command.into(), "--help".into()], "");
                if output.status.code() != Some(0) || output.stdout.is_empty() {
                    return Err(format!("{command} --help failed").into());
                }
            }
            Ok(())
        }),
    ]
}

/// A response fixture through `agent-input response --from`: stdout on success, the
/// `error: CODE at PATH: message` lines of stderr on failure.
fn run_response(case: &ResponseCase) -> Result<(), Failed> {
    let output = run_cli(&["response".into(), format!("--from={}", case.provider), "--compact".into()], &case.text());
    let result = if output.status.code() == Some(0) {
        Ok(stdout_json(&output)?)
    } else {
        let stderr = String::from_utf8_lossy(&output.stderr);
        Err(stderr
            .lines()
            .filter_map(|line| {
                let (code, rest) = line.strip_prefix("error: ")?.split_once(" at ")?;
                let (path, message) = rest.split_once(": ")?;
                Some(json!({"code": code, "path": if path == "/" { "" } else { path }, "message": message}))
            })
            .collect())
    };
    let mut out = String::new();
    check_response(case, result, &mut out);
    if out.is_empty() { Ok(()) } else { Err(out.into()) }
}

/// An import fixture through `agent-input import --from P [--to Q]`: the printed report, and exit
/// 0 exactly when it is `ok` (1 otherwise), as `convert`'s.
fn run_import(case: &ImportCase) -> Result<(), Failed> {
    let mut args = vec!["import".to_string(), format!("--from={}", case.from), "--compact".into()];
    if let Some(to) = &case.to {
        args.push(format!("--to={to}"));
    }
    let body = serde_json::to_string(&expand(&case.body)).expect("serializes");
    let output = run_cli(&args, &body);
    let report = stdout_json(&output)?;
    let mut out = String::new();
    let want = i32::from(!case.expect.ok);
    if output.status.code() != Some(want) {
        out.push_str(&format!("exit status {:?}, expected {want}\n", output.status.code()));
    }
    if case.to.is_some() != report.get("body").is_some() {
        out.push_str("the report has a body exactly when --to is given\n");
    }
    check_import(case, &report, &mut out);
    if out.is_empty() { Ok(()) } else { Err(out.into()) }
}

fn main() {
    let args = Arguments::from_args();
    let mut trials: Vec<Trial> = load_all()
        .into_iter()
        .map(|(name, case)| Trial::test(format!("fixture/{name}"), move || run_case(&case)))
        .collect();
    trials.extend(
        load_responses()
            .into_iter()
            .map(|(name, case)| Trial::test(format!("fixture/{name}"), move || run_response(&case))),
    );
    trials.extend(
        load_imports()
            .into_iter()
            .map(|(name, case)| Trial::test(format!("fixture/{name}"), move || run_import(&case))),
    );
    trials.push(Trial::test("import/usage and input errors", || {
        let unknown = run_cli(&["import".into(), "--from=openai-completions".into()], "{}");
        if unknown.status.code() != Some(2) {
            return Err(format!("an unknown provider exits {:?}, expected 2", unknown.status.code()).into());
        }
        let not_json = run_cli(&["import".into(), "--from=gemini".into(), "--to=openai-chat".into()], "{not json");
        let report = stdout_json(&not_json)?;
        if not_json.status.code() != Some(1)
            || report["errors"][0]["code"] != "invalid_json"
            || report["request"] != Value::Null
            || report["body"] != Value::Null
        {
            return Err(format!("text that is not JSON: {report}").into());
        }
        Ok(())
    }));
    trials.push(Trial::test("import/--model overrides the body's model", || {
        let body = r#"{"model": "gpt-4o", "top_p": 0.9, "messages": [{"role": "user", "content": "Hi"}]}"#;
        let args = |model: &str| -> Vec<String> {
            ["import", "--from=openai-chat", "--to=openai-chat", "--compact", model].map(String::from).to_vec()
        };
        let refused = run_cli(&args("--model=gpt-5-nano"), body);
        let report = stdout_json(&refused)?;
        if refused.status.code() != Some(1) || report["errors"][0]["path"] != "/top_p" {
            return Err(format!("gpt-5-nano with top_p: exit {:?}, {report}", refused.status.code()).into());
        }
        let taken = run_cli(&args("--model=gpt-4.1"), body);
        if taken.status.code() != Some(0) {
            return Err(format!("gpt-4.1 with top_p: exit {:?}", taken.status.code()).into());
        }
        let without_to = run_cli(&["import".into(), "--from=openai-chat".into(), "--model=gpt-4o".into()], body);
        if without_to.status.code() != Some(2) {
            return Err(format!("--model without --to: exit {:?}, expected 2", without_to.status.code()).into());
        }
        Ok(())
    }));
    trials.push(Trial::test("validate/--model checks what the model takes", || {
        // 9000 x 100 px, read from the PNG header.
        let image = "iVBORw0KGgoAAAANSUhEUgAAIygAAABkCAIAAABkeAz7";
        let request = format!(
            r#"{{"input": [{{"type": "text", "text": "What is it?"}}, {{"type": "image", "source": {{"type": "base64", "format": "png", "data": "{image}"}}}}]}}"#
        );
        let run = |model: &str| run_cli(&["validate".into(), "--compact".into(), format!("--model={model}")], &request);
        let claude = run("claude-sonnet-4-5");
        let report = stdout_json(&claude)?;
        let message = report["errors"][0]["message"].as_str().unwrap_or_default();
        if claude.status.code() != Some(1)
            || report["valid"] != false
            || report["errors"][0]["path"] != "/input/1/source/data"
            || !message.starts_with("9000 \u{d7} 100 px; Anthropic Messages takes at most 8000 px a side")
        {
            return Err(format!("claude-sonnet-4-5: exit {:?}, {report}", claude.status.code()).into());
        }
        let unknown = run("house-model-7");
        let report = stdout_json(&unknown)?;
        if unknown.status.code() != Some(0) || report["warnings"][0]["code"] != "unknown_model" {
            return Err(format!("an unknown model: exit {:?}, {report}", unknown.status.code()).into());
        }
        let o3_mini = run("o3-mini");
        let report = stdout_json(&o3_mini)?;
        if o3_mini.status.code() != Some(1) || report["errors"][0]["code"] != "unsupported_by_provider" {
            return Err(format!("o3-mini takes no images: exit {:?}, {report}", o3_mini.status.code()).into());
        }
        Ok(())
    }));
    trials.extend(cli_behaviour());
    trials.push(Trial::test("meta/conversions whose options are not flags", || {
        let dir = std::env::temp_dir().join(format!("agent-input-cli-{}-meta", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
        let untyped: Vec<String> = load_all()
            .into_iter()
            .flat_map(|(name, case)| {
                let entries: Vec<Value> = case.expect.convert.values().cloned().collect();
                entries.into_iter().filter(|entry| convert_args(entry, &dir).is_err()).map(move |_| name.clone())
            })
            .collect();
        let _ = std::fs::remove_dir_all(&dir);
        if untyped.len() == UNTYPED_OPTION_CASES {
            Ok(())
        } else {
            Err(format!(
                "{} conversions have options the flags cannot carry, expected {UNTYPED_OPTION_CASES}: {untyped:?}",
                untyped.len()
            )
            .into())
        }
    }));
    libtest_mimic::run(&args, trials).exit();
}
