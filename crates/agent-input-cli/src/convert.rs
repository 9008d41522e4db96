//! `convert`: an execute request into a provider's request body, or with `--ml-commons` into the
//! parameters ml-commons' provider builds.

use std::path::PathBuf;

use agent_input::convert::mlcommons::{self, AgentType};
use agent_input::json::Document;
use agent_input::register::Version;
use agent_input::{ConvertOptions, Diagnostic, ExecuteRequest, ProviderId, Report, validate};
use clap::Args;
use serde_json::value::RawValue;
use serde_json::{Value, json};

use crate::args::{Common, parse_provider};
use crate::input::{UsageError, parse, read_input};
use crate::output::{print_diagnostics, print_json, write_line};

/// The `convert` command's flags.
// Each switch is a flag of its own, as the command line has them.
#[allow(clippy::struct_excessive_bools)]
#[derive(Debug, Args)]
pub(crate) struct ConvertArgs {
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
    /// JSON file with an array of tool specs, [{"name", "description", "`input_schema`"}], and
    /// provider tools, {"type": "`provider_tool`", "provider", "tool"}.
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
    /// How much the model may think: an effort (none, minimal, low, medium, high, xhigh, max; each
    /// provider takes some) or a budget of thinking tokens (Anthropic and Bedrock: at least 1024
    /// and below --max-tokens).
    #[arg(long, value_name = "EFFORT|TOKENS")]
    reasoning: Option<String>,
    /// The model the body is for (gpt-4o, claude-sonnet-4-5, gemini-2.5-pro,
    /// us.anthropic.claude-sonnet-4-5-20250929-v1:0): its rules are checked too. An id the
    /// capability table does not know is a warning (`unknown_model`) and the provider's rules only.
    #[arg(long, value_name = "ID")]
    model: Option<String>,
    /// JSON file with a provider's own request fields, {"provider": ID, "fields": {...}}: merged
    /// into the body for that provider, left out with a warning for any other.
    #[arg(long, value_name = "FILE")]
    provider_fields: Option<PathBuf>,
    /// Print {"ok", "body", "errors", "warnings"} instead of the bare body.
    #[arg(long)]
    report: bool,
    /// Print the `question` and `body` parameters exactly as ml-commons' provider builds
    /// them, bugs included (bedrock-converse, openai-chat, gemini only).
    #[arg(long)]
    ml_commons: bool,
    /// With --ml-commons: the agent's type (default `conversational`). `ag_ui` and
    /// `conversational_v2` take text, content blocks and messages; `conversational`,
    /// `plan_execute_and_reflect`, `flow` and `conversational_flow` take text only and refuse the
    /// rest (`unsupported_by_agent_type`). `ag_ui` and the text-only types map the input by its
    /// form and extract the question; `conversational_v2` maps every input as messages and
    /// extracts none.
    #[arg(long, value_name = "TYPE", requires = "ml_commons", value_parser = parse_agent_type)]
    agent_type: Option<AgentType>,
    /// With --ml-commons: the ml-commons version (3.6, 3.7, 3.8 or 3.9; default 3.9). From 3.7
    /// its providers add default settings (`defaults`: 4096 tokens, temperature 1.0).
    #[arg(long, value_name = "X.Y", requires = "ml_commons", value_parser = mlcommons::parse_version)]
    ml_commons_version: Option<Version>,
}

fn parse_agent_type(raw: &str) -> Result<AgentType, String> {
    AgentType::parse(raw).ok_or_else(|| {
        let names: Vec<&str> = AgentType::ALL.iter().map(|t| t.name()).collect();
        format!("unknown agent type '{raw}'; use one of {}", names.join(", "))
    })
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

/// `convert`: the body, or the report with `--report`.
pub(crate) fn run(args: ConvertArgs) -> Result<bool, UsageError> {
    let ConvertArgs {
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
        model,
        provider_fields,
        report: as_report,
        ml_commons,
        agent_type,
        ml_commons_version,
    } = args;
    // The request features are read by the core's option reader, so they take the values
    // and give the messages the npm package and the gateway do.
    let mut features = serde_json::Map::new();
    if let Some(path) = tools {
        let text =
            std::fs::read_to_string(&path).map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
        let tools: Value = serde_json::from_str(&text)
            .map_err(|e| UsageError(format!("{} is not JSON (an array of tool specs): {e}", path.display())))?;
        features.insert("tools".into(), tools);
    }
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
    if let Some(path) = provider_fields {
        let text =
            std::fs::read_to_string(&path).map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
        let fields = serde_json::from_str(&text)
            .map_err(|e| UsageError(format!("{} is not JSON ({{\"provider\", \"fields\"}}): {e}", path.display())))?;
        features.insert("provider_fields".into(), fields);
    }
    // Reported with the conversion's own problems, as the other option problems are.
    let (features, feature_problems) = ConvertOptions::read_json(&Value::Object(features));
    let convert_options = ConvertOptions {
        system,
        max_tokens,
        temperature,
        top_p,
        stop_sequences,
        tools: features.tools,
        tool_choice: features.tool_choice,
        prompt_cache: features.prompt_cache,
        response_format: features.response_format,
        reasoning: features.reasoning,
        model: model.map(|id| id.trim().to_string()).filter(|id| !id.is_empty()),
        provider_fields: features.provider_fields,
    };
    let options = validate::Options { ml_commons, ..common.options() };
    let input = read_input(common.file.as_ref(), options.limits.max_body_bytes)?;
    let result = parse(&input, &options).and_then(|document| {
        let pretty = !common.compact && !as_report;
        if ml_commons {
            let agent = agent_type.unwrap_or_default();
            let version = ml_commons_version.unwrap_or(mlcommons::LATEST);
            return ml_commons_parameters(&document, bare, to, (agent, version), &options, pretty);
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
            let body =
                RawValue::from_string(body).map_err(|e| UsageError(format!("the converted body is not JSON: {e}")))?;
            let report = ConversionReport { ok: true, body: Some(&body), errors: &[], warnings: &warnings };
            print_json(&report, common.compact)?;
            Ok(true)
        }
        (Err(report), true) => {
            let report = ConversionReport { ok: false, body: None, errors: &report.errors, warnings: &report.warnings };
            print_json(&report, common.compact)?;
            Ok(false)
        }
    }
}

/// Validates the document as a bare input or as a whole `_execute` request.
fn validated<'a>(
    document: &'a Document<'_>,
    bare: bool,
    validation: &validate::Options,
) -> Result<(ExecuteRequest<'a>, Report), Report> {
    let validated = if bare {
        validate::validate_input(document, validation)
    } else {
        validate::validate_request(document, validation)
    };
    validated.into_result()
}

/// Validates and builds ml-commons' parameters, returned as JSON text like a converted body.
fn ml_commons_parameters(
    document: &Document<'_>,
    bare: bool,
    provider: ProviderId,
    (agent, version): (AgentType, Version),
    validation: &validate::Options,
    pretty: bool,
) -> Result<(String, Vec<Diagnostic>), Report> {
    let (request, mut report) = validated(document, bare, validation)?;
    match mlcommons::parameters_for(provider, agent, version, document, &request) {
        Ok((parameters, warnings)) => {
            let text =
                if pretty { serde_json::to_string_pretty(&parameters) } else { serde_json::to_string(&parameters) };
            report.warnings.extend(warnings);
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
    let (request, mut report) = validated(document, bare, validation)?;
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
