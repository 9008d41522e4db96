//! `agent-input`: validate and convert the ml-commons standard agent input from the command line.
//!
//! Exit status: 0 when the input is valid (or converted), 1 when it is not, 2 for usage and I/O
//! errors. Results go to standard output as JSON; human-readable problems go to standard error.

mod args;
mod convert;
mod import;
mod input;
mod output;
mod register_plan;

use std::path::PathBuf;
use std::process::ExitCode;

use agent_input::{Limits, ProviderId, register, validate};
use clap::{Parser, Subcommand};
use serde_json::json;

use crate::args::{Common, parse_provider, parse_version};
use crate::input::{Input, UsageError, parse, read_input, read_schema};
use crate::output::{print_diagnostics, print_json, print_outcome};

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
        /// The model the input is for (gpt-4o, claude-sonnet-4-5, gemini-2.5-pro,
        /// us.anthropic.claude-sonnet-4-5-20250929-v1:0): also check what the model takes
        /// (images, PDFs, video, pixel sizes). An id the capability table does not know is a
        /// warning (`unknown_model`).
        #[arg(long, value_name = "ID", conflicts_with = "bare")]
        model: Option<String>,
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
    Convert(convert::ConvertArgs),
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
        /// With --to: check the target's rules of this model (default: the body's own `model`,
        /// or Bedrock's `modelId`, when the target serves its family).
        #[arg(long, value_name = "ID", requires = "to")]
        model: Option<String>,
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

fn run(cli: Cli) -> Result<bool, UsageError> {
    match cli.command {
        Command::Validate { common, bare, schema, ml_commons, model } => {
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
                    if let Some(model) = &model {
                        validation.check_model(model);
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
        Command::Import { file, from, to, model, max_body_bytes, compact } => {
            import::run(file.as_ref(), from, to, model.as_deref(), max_body_bytes, compact)
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
        Command::Convert(args) => convert::run(args),
        Command::RegisterPlan { file, version, format, api, preview } => {
            register_plan::run(file.as_ref(), version, &format, api.as_deref(), preview.as_ref())
        }
    }
}
