//! `agent-input`: validate and convert the ml-commons standard agent input from the command line.
//!
//! Exit status: 0 when the input is valid (or converted), 1 when it is not, 2 for usage and I/O
//! errors. Results go to standard output as JSON; human-readable problems go to standard error.

use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use agent_input::convert::mlcommons::AgentType;
use agent_input::json::Document;
use agent_input::{ConvertOptions, Diagnostic, Limits, ProviderId, Report, ToolSpec, register, validate};
use clap::{Args, Parser, Subcommand};
use serde_json::value::RawValue;
use serde_json::{Value, json};

#[derive(Debug, Parser)]
#[command(name = "agent-input", version, about = "Validate and convert the OpenSearch ml-commons standard agent input.", long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per run: the size of the largest variant costs nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Subcommand)]
enum Command {
    /// Validate an execute request (or, with --bare, an input) and print the report
    /// {"valid", "`input_type`", "errors", "warnings"}. Exit 0 when valid, 1 when not.
    Validate {
        #[command(flatten)]
        common: Common,
        /// Read a bare input (a string or an array) instead of a request body.
        #[arg(long, conflicts_with = "schema")]
        bare: bool,
        /// Also validate the request's parameters against an agent's `parameters_schema` (a JSON
        /// file), merged with the required prompt (`schema_violation`, `invalid_schema`).
        #[arg(long, value_name = "FILE")]
        schema: Option<PathBuf>,
        /// The input goes to an ml-commons cluster: also warn about `${` in its text, which the
        /// cluster fills from the agent's and connector's parameters (`template_placeholder`).
        #[arg(long)]
        ml_commons: bool,
    },
    /// Validate the request's parameters against an agent's `parameters_schema` and print the
    /// prompt with its `<inputs>` block, as a JSON string. Exit 1 when they do not match.
    FormatInputs {
        #[command(flatten)]
        common: Common,
        /// The agent's `parameters_schema` (a JSON file).
        #[arg(long, value_name = "FILE")]
        schema: PathBuf,
    },
    /// Convert an execute request to a provider request body and print it; warnings go to
    /// standard error. Exit 1 when the input cannot be converted.
    Convert {
        #[command(flatten)]
        common: Common,
        /// Provider id (bedrock-converse, openai-chat, openai-responses, anthropic-messages, gemini)
        /// or ml-commons name (bedrock/converse, openai/v1/chat/completions,
        /// gemini/v1beta/generatecontent).
        #[arg(long = "to", value_name = "PROVIDER", value_parser = parse_provider)]
        to: ProviderId,
        /// Read a bare input instead of a request body.
        #[arg(long)]
        bare: bool,
        /// System prompt, placed before any system messages.
        #[arg(long, value_name = "TEXT")]
        system: Option<String>,
        /// Most tokens to generate (default 4096).
        #[arg(long, value_name = "N")]
        max_tokens: Option<u64>,
        /// Sampling temperature, 0 to 1.
        #[arg(long, value_name = "T", allow_negative_numbers = true)]
        temperature: Option<f64>,
        /// Nucleus sampling, 0 to 1.
        #[arg(long, value_name = "P", allow_negative_numbers = true)]
        top_p: Option<f64>,
        /// A stop sequence; repeat for several.
        #[arg(long = "stop-sequence", value_name = "TEXT")]
        stop_sequences: Vec<String>,
        /// JSON file with an array of tool specs: [{"name", "description", "`input_schema`"}].
        #[arg(long, value_name = "FILE")]
        tools: Option<PathBuf>,
        /// Which tools the model may call: auto, any (or required), none, or tool:NAME for one
        /// of --tools.
        #[arg(long, value_name = "CHOICE")]
        tool_choice: Option<String>,
        /// Cache the system prompt and the tools: a cache point after each (Bedrock, Anthropic;
        /// automatic on the other providers).
        #[arg(long)]
        prompt_cache: bool,
        /// How long cache entries live: 5m or 1h (implies --prompt-cache).
        #[arg(long, value_name = "TTL")]
        prompt_cache_ttl: Option<String>,
        /// JSON file with a JSON Schema the answer must follow (structured output).
        #[arg(long, value_name = "FILE")]
        response_schema: Option<PathBuf>,
        /// The response schema's name (default "response"; 1-64 letters, digits, '_' or '-').
        #[arg(long, value_name = "NAME")]
        response_name: Option<String>,
        /// What the structured answer is for.
        #[arg(long, value_name = "TEXT")]
        response_description: Option<String>,
        /// Whether the provider must follow the schema exactly (`OpenAI`'s strict).
        #[arg(long, value_name = "BOOL")]
        response_strict: Option<bool>,
        /// How much the model may think: low, medium or high, or a budget of thinking tokens
        /// (Anthropic and Bedrock: at least 1024 and below --max-tokens).
        #[arg(long, value_name = "EFFORT|TOKENS")]
        reasoning: Option<String>,
        /// Print {"ok", "body", "errors", "warnings"} instead of the bare body.
        #[arg(long)]
        report: bool,
        /// Print the `question` and `body` parameters exactly as ml-commons' provider builds
        /// them, bugs included (bedrock-converse, openai-chat, gemini only).
        #[arg(long)]
        ml_commons: bool,
        /// With --ml-commons: the agent's type. `conversational` (and every other type with a
        /// `model` block) maps the input by its form and extracts the question;
        /// `conversational_v2` maps every input as messages and extracts none.
        #[arg(long, value_name = "TYPE", requires = "ml_commons", value_parser = parse_agent_type)]
        agent_type: Option<AgentType>,
    },
    /// Read one provider response body and print it in the standard format:
    /// `{"message", "stop_reason", "usage"}`. Exit 1 when the body has the wrong shape.
    Response {
        /// The provider whose response this is (any id or ml-commons name, as for convert --to).
        #[arg(long = "from", value_name = "PROVIDER", value_parser = parse_provider)]
        from: ProviderId,
        /// The response file; standard input when absent or `-`.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
        /// Print compact JSON instead of indented JSON.
        #[arg(long)]
        compact: bool,
    },
    /// Read a provider's request body into the standard request and the conversion options it
    /// implies, and with --to convert it to another provider: print {"ok", "request", "options",
    /// "body" (with --to), "errors", "warnings"}, every path into the provider's body. Exit 0 when
    /// it imports (and converts), 1 when not.
    Import {
        /// The request file; standard input when absent or `-`.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
        /// The provider whose request this is (any id or ml-commons name, as for convert --to).
        #[arg(long = "from", value_name = "PROVIDER", value_parser = parse_provider)]
        from: ProviderId,
        /// Also convert the imported request to this provider's body.
        #[arg(long = "to", value_name = "PROVIDER", value_parser = parse_provider)]
        to: Option<ProviderId>,
        /// Largest request body in bytes.
        #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_body_bytes)]
        max_body_bytes: usize,
        /// Print compact JSON instead of indented JSON.
        #[arg(long)]
        compact: bool,
    },
    /// Print the `question` ml-commons' agent runners would read, as a JSON string.
    Question {
        #[command(flatten)]
        common: Common,
        /// Read a bare input instead of a request body.
        #[arg(long, conflicts_with = "schema")]
        bare: bool,
        /// The agent's `parameters_schema` (a JSON file): the request is read as that agent reads
        /// it, so the prompt-only `{"parameters": {"prompt": ...}}` has its prompt as the question.
        #[arg(long, value_name = "FILE")]
        schema: Option<PathBuf>,
    },
    /// Print the calls that register an agent described by a unified registration body (`name`,
    /// `type`, `model{model_id, model_provider, credential, model_parameters}`, ...) on a cluster
    /// of an ml-commons version: the unified `_register` call, or before 3.9 the connector, model
    /// and agent as ml-commons' model providers write them (docs/registration.md). Exit 1 when
    /// the body has problems.
    RegisterPlan {
        /// The registration body; standard input when absent or `-`.
        #[arg(value_name = "FILE|-")]
        file: Option<PathBuf>,
        /// The cluster's ml-commons version, X.Y.
        #[arg(long, value_name = "X.Y", default_value_t = register::Version::LATEST, value_parser = parse_version)]
        version: register::Version,
        /// `json`: {"api", "steps": [{"method", "path", "body", "returns"}], "warnings"}; `curl`: a
        /// bash script of curl calls that threads the returned ids (needs bash, curl, grep, sed;
        /// reads `$OPENSEARCH_URL` and an optional `$OPENSEARCH_AUTH`, user:password).
        #[arg(long, value_name = "FORMAT", default_value = "json", value_parser = ["json", "curl"])]
        format: String,
        /// Force an API: `unified` (3.5 or later; before 3.9 the plan enables the setting first)
        /// or `legacy`.
        #[arg(long, value_name = "API", value_parser = ["unified", "legacy"])]
        api: Option<String>,
        /// Instead of the plan, print the legacy connector's `request_body` filled for this
        /// execute request as ml-commons fills it: {"question", "payload", "body", "errors",
        /// "warnings"}.
        #[arg(long, value_name = "REQUEST")]
        preview: Option<PathBuf>,
    },
}

#[derive(Debug, Args)]
struct Common {
    /// The request file; standard input when absent or `-`.
    #[arg(value_name = "FILE|-")]
    file: Option<PathBuf>,
    /// Print compact JSON instead of indented JSON.
    #[arg(long)]
    compact: bool,
    /// Accept a conversation ending with an assistant message (a prefill).
    #[arg(long)]
    allow_prefill: bool,
    /// Largest request body in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().max_body_bytes)]
    max_body_bytes: usize,
    /// Deepest JSON nesting.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_depth)]
    max_depth: usize,
    /// Most messages in one input.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_messages)]
    max_messages: usize,
    /// Most content blocks in one message or content-block input.
    #[arg(long, value_name = "N", default_value_t = Limits::default().max_blocks)]
    max_blocks: usize,
}

impl Common {
    fn options(&self) -> validate::Options {
        validate::Options {
            limits: Limits {
                max_body_bytes: self.max_body_bytes,
                max_depth: self.max_depth,
                max_messages: self.max_messages,
                max_blocks: self.max_blocks,
            },
            allow_prefill: self.allow_prefill,
            ml_commons: false,
        }
    }
}

fn parse_provider(raw: &str) -> Result<ProviderId, String> {
    ProviderId::parse(raw).ok_or_else(|| {
        let ids: Vec<&str> = ProviderId::ALL.iter().map(|p| p.as_str()).collect();
        format!("unknown provider '{raw}'; use one of {}", ids.join(", "))
    })
}

fn parse_agent_type(raw: &str) -> Result<AgentType, String> {
    [AgentType::Conversational, AgentType::ConversationalV2]
        .into_iter()
        .find(|t| t.name() == raw.to_ascii_lowercase())
        .ok_or_else(|| format!("unknown agent type '{raw}'; use conversational or conversational_v2"))
}

/// `convert --report` output. The body stays raw JSON text so nothing in it is re-parsed
/// (large numbers in tool arguments, say).
#[derive(serde::Serialize)]
struct ConversionReport<'a> {
    ok: bool,
    body: Option<&'a RawValue>,
    errors: &'a [Diagnostic],
    warnings: &'a [Diagnostic],
}

/// A failure that is not about the input: exit 2.
struct UsageError(String);

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(UsageError(message)) => {
            eprintln!("agent-input: {message}");
            ExitCode::from(2)
        }
    }
}

/// The request bytes, or only the total size when it is over the limit: an oversized body is
/// counted (so the report gives its real size) but never held in memory.
enum Input {
    Bytes(Vec<u8>),
    TooLarge(u64),
}

fn read_input(file: Option<&PathBuf>, limit: usize) -> Result<Input, UsageError> {
    fn read_from(mut reader: impl Read, limit: usize) -> io::Result<Input> {
        let cap = u64::try_from(limit).unwrap_or(u64::MAX).saturating_add(1);
        let mut bytes = Vec::new();
        (&mut reader).take(cap).read_to_end(&mut bytes)?;
        if bytes.len() <= limit {
            return Ok(Input::Bytes(bytes));
        }
        let rest = io::copy(&mut reader, &mut io::sink())?;
        Ok(Input::TooLarge(bytes.len() as u64 + rest))
    }
    let result = match file {
        Some(path) if path.as_os_str() != "-" => std::fs::File::open(path)
            .and_then(|file| match file.metadata() {
                Ok(meta) if meta.is_file() && meta.len() > limit as u64 => Ok(Input::TooLarge(meta.len())),
                _ => read_from(file, limit),
            })
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display()))),
        _ => read_from(io::stdin().lock(), limit),
    };
    result.map_err(|e| UsageError(format!("cannot read the input: {e}")))
}

/// An agent's `parameters_schema` from a JSON file. A file that cannot be read or is not JSON is a
/// usage error; a schema that is JSON but not a usable JSON Schema is reported as `invalid_schema`.
fn read_schema(path: &std::path::Path) -> Result<serde_json::Value, UsageError> {
    let text = std::fs::read_to_string(path).map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| UsageError(format!("{} is not JSON: {e}", path.display())))
}

/// Parses the input text; problems (not JSON, too large, too deep) come back as a report.
fn parse<'a>(input: &'a Input, options: &validate::Options) -> Result<Document<'a>, Report> {
    let bytes = match input {
        Input::Bytes(bytes) => bytes,
        Input::TooLarge(size) => {
            let limit = options.limits.max_body_bytes;
            let mut report = Report::default();
            report.push(
                Diagnostic::new(
                    agent_input::Code::TooLarge,
                    agent_input::Path::root(),
                    format!("the request is {size} bytes, over the limit of {limit} bytes"),
                )
                .limit(limit as u64, *size),
            );
            return Err(report);
        }
    };
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(error) => {
            let mut report = Report::default();
            report.push(Diagnostic::new(
                agent_input::Code::InvalidJson,
                agent_input::Path::root(),
                format!("the request is not UTF-8 text (invalid byte at offset {})", error.valid_up_to()),
            ));
            return Err(report);
        }
    };
    validate::parse(text, &options.limits)
}

fn print_json(value: &impl serde::Serialize, compact: bool) -> Result<(), UsageError> {
    let text = if compact { serde_json::to_string(value) } else { serde_json::to_string_pretty(value) }
        .map_err(|e| UsageError(format!("cannot write JSON: {e}")))?;
    write_line(&text)
}

fn write_line(text: &str) -> Result<(), UsageError> {
    let mut stdout = io::stdout().lock();
    writeln!(stdout, "{text}").map_err(|e| UsageError(format!("cannot write the output: {e}")))
}

fn print_diagnostics(diagnostics: &[Diagnostic], label: &str) {
    for d in diagnostics {
        let path = d.path.to_string();
        eprintln!("{label}: {} at {}: {}", d.code, if path.is_empty() { "/" } else { &path }, d.message);
    }
}

/// Prints a pretty JSON value with its warnings (exit 0), or the errors and warnings (exit 1).
fn print_outcome(result: Result<(impl serde::Serialize, Report), Report>) -> Result<bool, UsageError> {
    match result {
        Ok((value, report)) => {
            print_diagnostics(&report.warnings, "warning");
            print_json(&value, true)?;
            Ok(true)
        }
        Err(report) => {
            print_diagnostics(&report.errors, "error");
            print_diagnostics(&report.warnings, "warning");
            Ok(false)
        }
    }
}

fn run(cli: Cli) -> Result<bool, UsageError> {
    match cli.command {
        Command::Validate { common, bare, schema, ml_commons } => {
            let options = validate::Options { ml_commons, ..common.options() };
            let schema = schema.map(|path| read_schema(&path)).transpose()?;
            let input = read_input(common.file.as_ref(), options.limits.max_body_bytes)?;
            let summary = match parse(&input, &options) {
                Err(report) => {
                    json!({"valid": false, "input_type": null, "errors": report.errors, "warnings": report.warnings})
                }
                Ok(value) => {
                    let mut validation = if bare {
                        validate::validate_input(&value, &options)
                    } else {
                        validate::validate_request(&value, &options)
                    };
                    if let Some(schema) = &schema {
                        validation = agent_input::schema::extend_validation(validation, schema);
                    }
                    serde_json::to_value(validation.summary()).map_err(|e| UsageError(e.to_string()))?
                }
            };
            print_json(&summary, common.compact)?;
            Ok(summary["valid"] == json!(true))
        }
        Command::FormatInputs { common, schema } => {
            let options = common.options();
            let schema = read_schema(&schema)?;
            let input = read_input(common.file.as_ref(), options.limits.max_body_bytes)?;
            let result = parse(&input, &options).and_then(|value| {
                let validation =
                    agent_input::schema::extend_validation(validate::validate_request(&value, &options), &schema);
                let (request, report) = validation.into_result()?;
                Ok((agent_input::schema::format_request(&request), report))
            });
            print_outcome(result)
        }
        Command::Response { from, file, compact } => {
            let input = read_input(file.as_ref(), Limits::default().max_body_bytes)?;
            let Input::Bytes(bytes) = input else {
                return Err(UsageError("the response is larger than 64 MiB".into()));
            };
            let text = String::from_utf8_lossy(&bytes);
            match agent_input::response::parse(from, &text) {
                Ok(response) => {
                    print_json(&response, compact)?;
                    Ok(true)
                }
                Err(report) => {
                    print_diagnostics(&report.errors, "error");
                    Ok(false)
                }
            }
        }
        Command::Import { file, from, to, max_body_bytes, compact } => {
            let options = validate::Options {
                limits: Limits { max_body_bytes, ..Limits::default() },
                ..validate::Options::default()
            };
            let input = read_input(file.as_ref(), max_body_bytes)?;
            let translation = match parse(&input, &options) {
                Ok(document) => agent_input::import::translate(from, &document.root.to_value(), to),
                Err(report) => agent_input::import::Translation {
                    ok: false,
                    request: Value::Null,
                    options: json!({}),
                    body: to.map(|_| Value::Null),
                    errors: report.errors,
                    warnings: report.warnings,
                },
            };
            print_json(&translation, compact)?;
            Ok(translation.ok)
        }
        Command::Question { common, bare, schema } => {
            let options = common.options();
            let schema = schema.map(|path| read_schema(&path)).transpose()?;
            let input = read_input(common.file.as_ref(), options.limits.max_body_bytes)?;
            let result = parse(&input, &options).and_then(|value| {
                let validation = if bare {
                    validate::validate_input(&value, &options)
                } else {
                    validate::validate_request(&value, &options)
                };
                let validation = match &schema {
                    Some(schema) => agent_input::schema::extend_validation(validation, schema),
                    None => validation,
                };
                validation.into_result().map(|(request, report)| (request.input.question(), report))
            });
            print_outcome(result)
        }
        Command::Convert {
            common,
            to,
            bare,
            system,
            max_tokens,
            temperature,
            top_p,
            stop_sequences,
            tools,
            tool_choice,
            prompt_cache,
            prompt_cache_ttl,
            response_schema,
            response_name,
            response_description,
            response_strict,
            reasoning,
            report: as_report,
            ml_commons,
            agent_type,
        } => {
            let tools = match tools {
                None => Vec::new(),
                Some(path) => {
                    let text = std::fs::read_to_string(&path)
                        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
                    serde_json::from_str::<Vec<ToolSpec>>(&text).map_err(|e| {
                        UsageError(format!(
                            "{} is not a JSON array of tool specs ({{\"name\", \"description\", \"input_schema\"}}): {e}",
                            path.display()
                        ))
                    })?
                }
            };
            // The request features are read by the core's option reader, so they take the values
            // and give the messages the npm package and the gateway do.
            let mut features = serde_json::Map::new();
            if let Some(choice) = tool_choice {
                features.insert("tool_choice".into(), Value::String(choice));
            }
            if let Some(reasoning) = reasoning {
                features.insert("reasoning".into(), Value::String(reasoning));
            }
            if prompt_cache || prompt_cache_ttl.is_some() {
                let cache = match prompt_cache_ttl {
                    Some(ttl) => json!({ "ttl": ttl }),
                    None => Value::Bool(true),
                };
                features.insert("prompt_cache".into(), cache);
            }
            if response_schema.is_some()
                || response_name.is_some()
                || response_description.is_some()
                || response_strict.is_some()
            {
                let schema = match response_schema {
                    None => Value::Null,
                    Some(path) => {
                        let text = std::fs::read_to_string(&path)
                            .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
                        serde_json::from_str(&text)
                            .map_err(|e| UsageError(format!("{} is not a JSON Schema (JSON): {e}", path.display())))?
                    }
                };
                let mut format = json!({ "schema": schema, "name": response_name,
                    "description": response_description, "strict": response_strict });
                if let Value::Object(map) = &mut format {
                    map.retain(|_, v| !v.is_null());
                }
                features.insert("response_format".into(), format);
            }
            // Reported with the conversion's own problems, as the other option problems are.
            let (features, feature_problems) = ConvertOptions::read_json(&Value::Object(features));
            let convert_options = ConvertOptions {
                system,
                max_tokens,
                temperature,
                top_p,
                stop_sequences,
                tools,
                tool_choice: features.tool_choice,
                prompt_cache: features.prompt_cache,
                response_format: features.response_format,
                reasoning: features.reasoning,
            };
            let options = validate::Options { ml_commons, ..common.options() };
            let input = read_input(common.file.as_ref(), options.limits.max_body_bytes)?;
            let result = parse(&input, &options).and_then(|document| {
                let pretty = !common.compact && !as_report;
                if ml_commons {
                    let agent = agent_type.unwrap_or_default();
                    return ml_commons_parameters(&document, bare, to, agent, &options, pretty);
                }
                convert(&document, bare, to, &convert_options, &options, pretty)
            });
            let result = match result {
                Ok(converted) if feature_problems.is_ok() => Ok(converted),
                Ok(_) => Err(feature_problems),
                Err(mut report) => {
                    report.errors.splice(0..0, feature_problems.errors);
                    Err(report)
                }
            };
            match (result, as_report) {
                (Ok((body, warnings)), false) => {
                    print_diagnostics(&warnings, "warning");
                    write_line(&body)?;
                    Ok(true)
                }
                (Err(report), false) => {
                    print_diagnostics(&report.errors, "error");
                    print_diagnostics(&report.warnings, "warning");
                    Ok(false)
                }
                (Ok((body, warnings)), true) => {
                    let body = RawValue::from_string(body)
                        .map_err(|e| UsageError(format!("the converted body is not JSON: {e}")))?;
                    let report = ConversionReport { ok: true, body: Some(&body), errors: &[], warnings: &warnings };
                    print_json(&report, common.compact)?;
                    Ok(true)
                }
                (Err(report), true) => {
                    let report =
                        ConversionReport { ok: false, body: None, errors: &report.errors, warnings: &report.warnings };
                    print_json(&report, common.compact)?;
                    Ok(false)
                }
            }
        }
        Command::RegisterPlan { file, version, format, api, preview } => {
            register_plan(file.as_ref(), version, &format, api.as_deref(), preview.as_ref())
        }
    }
}

/// Validates and builds ml-commons' parameters, returned as JSON text like a converted body.
fn ml_commons_parameters(
    document: &Document<'_>,
    bare: bool,
    provider: ProviderId,
    agent: AgentType,
    validation: &validate::Options,
    pretty: bool,
) -> Result<(String, Vec<Diagnostic>), Report> {
    let validated = if bare {
        validate::validate_input(document, validation)
    } else {
        validate::validate_request(document, validation)
    };
    let (request, mut report) = validated.into_result()?;
    match agent_input::convert::mlcommons::parameters_for(provider, agent, document, &request) {
        Ok(parameters) => {
            let text =
                if pretty { serde_json::to_string_pretty(&parameters) } else { serde_json::to_string(&parameters) };
            Ok((text.unwrap_or_default(), report.warnings))
        }
        Err(errors) => {
            report.extend(errors);
            Err(report)
        }
    }
}

/// Validates and converts, returning the body as JSON text: written once, exactly as the
/// converter produced it (tool arguments pass through untouched, large numbers included).
fn convert(
    document: &Document<'_>,
    bare: bool,
    provider: ProviderId,
    options: &ConvertOptions,
    validation: &validate::Options,
    pretty: bool,
) -> Result<(String, Vec<Diagnostic>), Report> {
    let validated = if bare {
        validate::validate_input(document, validation)
    } else {
        validate::validate_request(document, validation)
    };
    let (request, mut report) = validated.into_result()?;
    let mut body = String::new();
    match agent_input::convert::convert_into(provider, &request, options, pretty, &mut body) {
        Ok(warnings) => {
            report.warnings.extend(warnings);
            Ok((body, report.warnings))
        }
        Err(errors) => {
            report.extend(errors);
            Err(report)
        }
    }
}

fn parse_version(raw: &str) -> Result<register::Version, String> {
    register::Version::parse(raw).ok_or_else(|| format!("'{raw}' is not a version; write X.Y, e.g. 3.4"))
}

fn read_json_file(file: Option<&PathBuf>, what: &str) -> Result<serde_json::Value, UsageError> {
    let Input::Bytes(bytes) = read_input(file, Limits::default().max_body_bytes)? else {
        return Err(UsageError(format!("the {what} is larger than 64 MiB")));
    };
    serde_json::from_slice(&bytes).map_err(|e| UsageError(format!("the {what} is not JSON: {e}")))
}

/// `register-plan`: the plan as JSON or as a curl script, or a template preview.
fn register_plan(
    file: Option<&PathBuf>,
    version: register::Version,
    format: &str,
    api: Option<&str>,
    preview: Option<&PathBuf>,
) -> Result<bool, UsageError> {
    let Input::Bytes(bytes) = read_input(file, Limits::default().max_body_bytes)? else {
        return Err(UsageError("the registration body is larger than 64 MiB".into()));
    };
    let text = String::from_utf8_lossy(&bytes);
    if let Some(request) = preview {
        let request = read_json_file(Some(request), "execute request")?;
        let registration =
            serde_json::from_str(&text).map_err(|e| UsageError(format!("the registration body is not JSON: {e}")))?;
        let preview = register::preview(&registration, &request);
        print_json(&preview, false)?;
        return Ok(preview.report.is_ok());
    }
    let api = match api {
        Some("unified") => Some(register::Api::Unified),
        Some(_) => Some(register::Api::Legacy),
        None => None,
    };
    let plan = match register::plan_str(&text, &register::PlanOptions { version, api }) {
        Ok(plan) => plan,
        Err(report) => {
            if format == "json" {
                print_json(&json!({"errors": report.errors, "warnings": report.warnings}), false)?;
            } else {
                print_diagnostics(&report.errors, "error");
                print_diagnostics(&report.warnings, "warning");
            }
            return Ok(false);
        }
    };
    if format == "json" {
        print_json(&plan, false)?;
    } else {
        print_diagnostics(&plan.warnings, "warning");
        write_line(&register::curl_script(&plan, version))?;
    }
    Ok(true)
}
