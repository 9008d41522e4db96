//! The conversion options' table ([`CONVERT`]) and the readers of their values: tool choice,
//! prompt cache, response format and tool specs.

use serde_json::Value;

use super::table::{Field, number, parse, provider_ids, received};
use super::types::{
    CacheTtl, ConvertOptions, Effort, PromptCache, Reasoning, ResponseFormat, ToolChoice, ToolEntry, ToolSpec,
};
use crate::diagnostic::{Code, Diagnostic, Report};
use crate::model::{ProviderFields, ProviderItem};
use crate::path::Path;
use crate::providers::id::ProviderId;

pub(super) const SAMPLING: &str = "must be a number between 0 and 1";

pub(super) const CONVERT: &[Field<ConvertOptions>] = &[
    Field {
        keys: &["system", "system_prompt", "systemPrompt"],
        read: |v, o, _, _| v.as_str().map(|s| o.system = Some(s.to_string())).ok_or_else(|| "must be a string".into()),
    },
    // Whole numbers up to 2^31 - 1 (the providers' int32); larger ones would be clamped by the
    // conversion to an integer and reported as a different number.
    Field {
        keys: &["max_tokens", "maxTokens"],
        read: |v, o, _, _| {
            let n = number(v)
                .filter(|n| n.fract() == 0.0 && (0.0..=f64::from(i32::MAX)).contains(n))
                .ok_or("must be a whole number from 1 to 2147483647")?;
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = n as u64;
            o.max_tokens = Some(n);
            Ok(())
        },
    },
    Field {
        keys: &["temperature"],
        read: |v, o, _, _| number(v).map(|n| o.temperature = Some(n)).ok_or_else(|| SAMPLING.into()),
    },
    Field {
        keys: &["top_p", "topP"],
        read: |v, o, _, _| number(v).map(|n| o.top_p = Some(n)).ok_or_else(|| SAMPLING.into()),
    },
    Field {
        keys: &["stop_sequences", "stopSequences"],
        read: |v, o, _, _| {
            o.stop_sequences = match v {
                Value::String(s) => vec![s.clone()],
                Value::Array(items) => items
                    .iter()
                    .map(|item| item.as_str().map(str::to_string))
                    .collect::<Option<_>>()
                    .ok_or("must be an array of strings")?,
                _ => return Err("must be an array of strings".into()),
            };
            Ok(())
        },
    },
    Field {
        keys: &["tools"],
        read: |v, o, _, _| {
            o.tools = tool_specs(v).map_err(|why| format!("{TOOLS}: {why}"))?;
            Ok(())
        },
    },
    Field { keys: &["tool_choice", "toolChoice"], read: |v, o, _, _| tool_choice(v).map(|c| o.tool_choice = Some(c)) },
    Field { keys: &["prompt_cache", "promptCache"], read: |v, o, _, _| prompt_cache(v).map(|c| o.prompt_cache = c) },
    Field {
        keys: &["response_format", "responseFormat"],
        read: |v, o, _, _| response_format(v).map(|f| o.response_format = Some(f)),
    },
    // `reasoning_effort` is ml-commons' own `model_parameters` key (its OpenAI connector).
    Field {
        keys: &["reasoning", "reasoning_effort", "reasoningEffort"],
        read: |v, o, _, _| reasoning(v).map(|r| o.reasoning = Some(r)),
    },
    Field {
        keys: &["model"],
        read: |v, o, _, _| {
            let id =
                v.as_str().map(str::trim).filter(|s| !s.is_empty()).ok_or("must be a model id, a non-empty string")?;
            o.model = Some(id.to_string());
            Ok(())
        },
    },
    Field {
        keys: &["provider_fields", "providerFields"],
        read: |v, o, path, report| provider_fields(v, path, report).map(|f| o.provider_fields = f),
    },
];

pub(super) const PROVIDER_FIELDS: &str =
    "must be {\"provider\": <provider id>, \"fields\": {<the provider's own fields, as its API writes them>}}";

/// `{"provider", "fields"}`: the problems inside it are reported at their own paths under `path`
/// (and `None` kept); an empty `fields` carries nothing and is `None`.
pub(super) fn provider_fields(
    value: &Value,
    path: &Path,
    report: &mut Report,
) -> Result<Option<ProviderFields>, String> {
    if let Some(parsed) = json_text(value) {
        return provider_fields(&parsed, path, report);
    }
    let Value::Object(map) = value else { return Err(PROVIDER_FIELDS.into()) };
    let mut problem = |key: &str, message: String, got: Option<&Value>| {
        let mut diagnostic = Diagnostic::new(Code::InvalidParameter, path.key(key), message);
        if key == "provider" {
            diagnostic = diagnostic.expected(provider_ids());
        }
        report.push(match got {
            Some(got) => diagnostic.received(received(got)),
            None => diagnostic,
        });
    };
    for key in map.keys().filter(|key| !matches!(key.as_str(), "provider" | "fields")) {
        let message = format!("provider_fields takes 'provider' and 'fields' only, not '{key}'");
        problem(key, message, None);
    }
    let ids = provider_ids().join(", ");
    let provider = match map.get("provider") {
        None | Some(Value::Null) => {
            problem("provider", format!("provider_fields needs 'provider', one of {ids}"), None);
            None
        }
        Some(Value::String(raw)) => {
            let parsed = ProviderId::parse(raw);
            if parsed.is_none() {
                let message = format!("provider_fields names an unknown provider '{raw}'; use one of {ids}");
                problem("provider", message, Some(&map["provider"]));
            }
            parsed
        }
        Some(other) => {
            let message = format!("provider_fields' provider must be a provider id, one of {ids}");
            problem("provider", message, Some(other));
            None
        }
    };
    let fields = match map.get("fields") {
        Some(Value::Object(fields)) => Some(fields),
        None | Some(Value::Null) => {
            let message = "provider_fields needs 'fields', an object of the provider's own fields".to_string();
            problem("fields", message, None);
            None
        }
        Some(other) => {
            let message =
                "provider_fields' fields must be an object of the provider's own fields, as its API writes them"
                    .to_string();
            problem("fields", message, Some(other));
            None
        }
    };
    Ok(match (provider, fields) {
        (Some(provider), Some(fields)) if !fields.is_empty() => {
            Some(ProviderFields { provider, fields: fields.clone() })
        }
        _ => None,
    })
}

pub(super) const REASONING: &str = "must be an effort (\"none\", \"minimal\", \"low\", \"medium\", \"high\", \"xhigh\", \"max\"), a whole number of thinking tokens, {\"effort\": ...} or {\"budget_tokens\": N}";

/// A reasoning effort or budget (`model_parameters` may write it as JSON text or a number as text).
pub(super) fn reasoning(value: &Value) -> Result<Reasoning, String> {
    if let Some(parsed) = json_text(value) {
        return reasoning(&parsed);
    }
    let effort = Effort::parse;
    let budget = |value: &Value| {
        number(value).filter(|n| n.fract() == 0.0 && (1.0..=f64::from(i32::MAX)).contains(n)).map(|n| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let n = n as u64;
            Reasoning::BudgetTokens(n)
        })
    };
    match value {
        Value::String(text) => effort(text).map(Reasoning::Effort).or_else(|| budget(value)),
        Value::Number(_) => budget(value),
        Value::Object(map) if map.len() == 1 => match map.iter().next().map(|(k, v)| (k.as_str(), v)) {
            Some(("effort", Value::String(text))) => effort(text).map(Reasoning::Effort),
            Some(("budget_tokens" | "budgetTokens", n)) => budget(n),
            _ => None,
        },
        _ => None,
    }
    .ok_or_else(|| REASONING.into())
}

/// A JSON object or array written as JSON text, as ml-commons stores `model_parameters`.
pub(super) fn json_text(value: &Value) -> Option<Value> {
    let Value::String(text) = value else { return None };
    let text = text.trim_start();
    if text.starts_with('{') || text.starts_with('[') { Some(parse(text)).filter(|v| !v.is_null()) } else { None }
}

pub(super) const TOOL_CHOICE: &str = "must be \"auto\", \"any\" or \"none\", or name one of the tools: \"tool:get_weather\" or {\"name\": \"get_weather\"}";

pub(super) fn tool_choice(value: &Value) -> Result<ToolChoice, String> {
    if let Some(parsed) = json_text(value) {
        return tool_choice(&parsed);
    }
    match value {
        Value::String(s) => match s.trim() {
            "auto" => Ok(ToolChoice::Auto),
            "any" | "required" => Ok(ToolChoice::Any),
            "none" => Ok(ToolChoice::None),
            other => match other.strip_prefix("tool:") {
                Some(name) if !name.is_empty() => Ok(ToolChoice::Tool { name: name.to_string() }),
                _ => Err(TOOL_CHOICE.into()),
            },
        },
        Value::Object(map) => match (map.get("name"), map.len()) {
            (Some(Value::String(name)), 1) if !name.is_empty() => Ok(ToolChoice::Tool { name: name.clone() }),
            _ => Err(TOOL_CHOICE.into()),
        },
        _ => Err(TOOL_CHOICE.into()),
    }
}

pub(super) const PROMPT_CACHE: &str = "must be true, false or {\"ttl\": \"5m\" | \"1h\"}";

pub(super) fn ttl(value: &Value) -> Result<Option<CacheTtl>, String> {
    match value {
        Value::Null => Ok(None),
        Value::String(s) if s.trim() == "5m" => Ok(Some(CacheTtl::FiveMinutes)),
        Value::String(s) if s.trim() == "1h" => Ok(Some(CacheTtl::OneHour)),
        _ => Err(PROMPT_CACHE.into()),
    }
}

pub(super) fn prompt_cache(value: &Value) -> Result<Option<PromptCache>, String> {
    if let Some(parsed) = json_text(value) {
        return prompt_cache(&parsed);
    }
    match value {
        Value::Bool(on) => Ok(on.then_some(PromptCache::default())),
        Value::String(s) if s.trim() == "true" => Ok(Some(PromptCache::default())),
        Value::String(s) if s.trim() == "false" => Ok(None),
        Value::Object(map) if map.keys().all(|k| k == "ttl") => {
            Ok(Some(PromptCache { ttl: ttl(map.get("ttl").unwrap_or(&Value::Null))? }))
        }
        _ => Err(PROMPT_CACHE.into()),
    }
}

pub(super) const RESPONSE_FORMAT: &str =
    "must be {\"schema\": <JSON Schema object>, \"name\"?, \"description\"?, \"strict\"?}";

pub(super) fn response_format(value: &Value) -> Result<ResponseFormat, String> {
    if let Some(parsed) = json_text(value) {
        return response_format(&parsed);
    }
    let Value::Object(map) = value else { return Err(RESPONSE_FORMAT.into()) };
    let mut format = ResponseFormat { schema: Value::Null, name: None, description: None, strict: None };
    for (key, value) in map {
        match (key.as_str(), value) {
            (_, Value::Null) => {}
            ("schema", Value::Object(_)) => format.schema = value.clone(),
            ("name", Value::String(name)) if crate::text::is_plain_name(name) => format.name = Some(name.clone()),
            ("name", _) => return Err(format!("{RESPONSE_FORMAT}: name must be 1-64 letters, digits, '_' or '-'")),
            ("description", Value::String(d)) => format.description = Some(d.clone()),
            ("strict", Value::Bool(b)) => format.strict = Some(*b),
            _ => return Err(format!("{RESPONSE_FORMAT}; \"{key}\" is not one of them or has the wrong type")),
        }
    }
    if format.schema.is_null() {
        return Err(format!("{RESPONSE_FORMAT}: the schema object is missing"));
    }
    Ok(format)
}

pub(super) const TOOLS: &str = "must be an array of tool specs {name, description?, input_schema?, provider_fields?} and provider tools {\"type\": \"provider_tool\", provider, tool}";

/// The `tools` option from JSON: function tool specs `{"name", "description"?, "input_schema"? |
/// "inputSchema"?, "provider_fields"?}` and provider tools `{"type": "provider_tool", "provider",
/// "tool"}`, in order.
pub(super) fn tool_specs(value: &Value) -> Result<Vec<ToolEntry>, String> {
    let Value::Array(items) = value else { return Err("it is not an array".into()) };
    items.iter().enumerate().map(|(i, item)| tool_entry(item).map_err(|why| format!("item {i} {why}"))).collect()
}

/// One entry of the `tools` option: a function tool spec or a provider tool.
pub(super) fn tool_entry(item: &Value) -> Result<ToolEntry, String> {
    let Value::Object(spec) = item else { return Err("is not an object".into()) };
    if spec.get("type").and_then(Value::as_str) == Some("provider_tool") {
        return provider_tool(spec).map(ToolEntry::Provider);
    }
    let Some(Value::String(name)) = spec.get("name") else {
        return Err("has no string \"name\"".into());
    };
    let description = match spec.get("description") {
        None | Some(Value::Null) => None,
        Some(Value::String(d)) => Some(d.clone()),
        Some(_) => return Err("has a \"description\" that is not a string".into()),
    };
    let input_schema = spec.get("input_schema").or_else(|| spec.get("inputSchema")).filter(|s| !s.is_null()).cloned();
    let provider_fields = match spec.get("provider_fields").or_else(|| spec.get("providerFields")) {
        None => None,
        Some(fields) => spec_fields(fields).map_err(|why| format!("has provider_fields that {why}"))?,
    };
    Ok(ToolEntry::Function(ToolSpec { name: name.clone(), description, input_schema, provider_fields }))
}

/// `{"type": "provider_tool", "provider", "tool"}`: the tool object exactly as the provider
/// writes it.
fn provider_tool(entry: &serde_json::Map<String, Value>) -> Result<ProviderItem, String> {
    if let Some(key) = entry.keys().find(|key| !matches!(key.as_str(), "type" | "provider" | "tool")) {
        return Err(format!("is a provider tool, which takes type, provider and tool only, not \"{key}\""));
    }
    let provider = provider_id(entry.get("provider")).map_err(|why| format!("is a provider tool whose {why}"))?;
    match entry.get("tool") {
        Some(Value::Object(tool)) if !tool.is_empty() => {
            Ok(ProviderItem { provider, item: Value::Object(tool.clone()) })
        }
        _ => Err("is a provider tool without \"tool\", the tool object as its provider writes it".into()),
    }
}

/// A provider id of contract §7, as `provider` of provider fields or a provider tool.
fn provider_id(value: Option<&Value>) -> Result<ProviderId, String> {
    let ids = || super::table::provider_ids().join(", ");
    match value {
        Some(Value::String(raw)) => {
            ProviderId::parse(raw).ok_or_else(|| format!("\"provider\" '{raw}' is not one of {}", ids()))
        }
        _ => Err(format!("\"provider\" must be one of {}", ids())),
    }
}

/// A tool spec's `provider_fields`, `{"provider": <id>, "fields": {...}}`: `None` for `null` or no
/// fields.
pub(super) fn spec_fields(value: &Value) -> Result<Option<ProviderFields>, String> {
    let shape = "must be {\"provider\": <provider id>, \"fields\": {<the provider's own fields of the tool>}}";
    let map = match value {
        Value::Null => return Ok(None),
        Value::Object(map) => map,
        _ => return Err(shape.into()),
    };
    if let Some(key) = map.keys().find(|key| !matches!(key.as_str(), "provider" | "fields")) {
        return Err(format!("{shape}, not \"{key}\""));
    }
    let provider = provider_id(map.get("provider"))?;
    match map.get("fields") {
        Some(Value::Object(fields)) => {
            Ok((!fields.is_empty()).then(|| ProviderFields { provider, fields: fields.clone() }))
        }
        _ => Err(shape.into()),
    }
}
