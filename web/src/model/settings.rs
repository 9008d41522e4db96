//! The conversion settings as the output pane's fields hold them, and their reading into the
//! core's options (numbers as typed text; a bad value is an `invalid_parameter` at
//! `/options/<key>`, as everywhere else).

use agent_input::{ConvertOptions, Diagnostic, ProviderId, Report, validate};
use serde_json::{Map, Value, json};

/// The conversion settings as the output pane's fields hold them (text, as typed).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Settings {
    pub(crate) provider: ProviderId,
    pub(crate) system: String,
    pub(crate) max_tokens: String,
    pub(crate) temperature: String,
    pub(crate) top_p: String,
    /// One stop sequence a line.
    pub(crate) stop_sequences: String,
    /// A JSON array of tool specs, or empty.
    pub(crate) tools: String,
    /// `provider_fields`: a JSON object `{provider, fields}` of a provider's own request fields,
    /// or empty.
    pub(crate) provider_fields: String,
    pub(crate) allow_prefill: bool,
    /// `tool_choice`: empty (not set), `auto`, `any`, `none`, or `tool` (the tool named in
    /// `tool_choice_name`).
    pub(crate) tool_choice: String,
    pub(crate) tool_choice_name: String,
    /// `prompt_cache`: on, with an optional ttl (`5m`, `1h`; empty: the provider's default).
    pub(crate) prompt_cache: bool,
    pub(crate) prompt_cache_ttl: String,
    /// `reasoning`: empty (not set), an effort (`low`, `medium`, `high`), or `budget` with the
    /// thinking tokens typed in `reasoning_budget`.
    pub(crate) reasoning: String,
    pub(crate) reasoning_budget: String,
    /// `response_format`: the answer's JSON Schema as typed (empty: not set) and its name.
    pub(crate) response_schema: String,
    pub(crate) response_name: String,
    /// An agent's `parameters_schema`, as typed, and whether the parameters are checked against it.
    pub(crate) schema: String,
    pub(crate) schema_on: bool,
    /// The model id typed for each provider, in the order of `ProviderId::ALL` (empty: none).
    pub(crate) models: Vec<String>,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            provider: ProviderId::ALL[0],
            system: String::new(),
            max_tokens: String::new(),
            temperature: String::new(),
            top_p: String::new(),
            stop_sequences: String::new(),
            tools: String::new(),
            provider_fields: String::new(),
            allow_prefill: false,
            tool_choice: String::new(),
            tool_choice_name: String::new(),
            prompt_cache: false,
            prompt_cache_ttl: String::new(),
            reasoning: String::new(),
            reasoning_budget: String::new(),
            response_schema: String::new(),
            response_name: String::new(),
            schema: String::new(),
            schema_on: false,
            models: vec![String::new(); ProviderId::ALL.len()],
        }
    }
}

impl Settings {
    /// The model id typed for the chosen provider.
    pub(crate) fn model(&self) -> &str {
        self.models.get(provider_index(self.provider)).map_or("", String::as_str)
    }

    /// Sets the chosen provider's model id.
    pub(crate) fn set_model(&mut self, model: String) {
        let at = provider_index(self.provider);
        if let Some(slot) = self.models.get_mut(at) {
            *slot = model;
        }
    }

    /// The options as JSON in the shape `ConvertOptions::read_json` reads (numbers as typed
    /// text: it takes numeric strings, and reports what is not a number at `/options/<key>`).
    pub(crate) fn options_json(&self) -> (Value, Report) {
        let mut object = Map::new();
        let mut report = Report::default();
        let text = |s: &str| (!s.trim().is_empty()).then(|| Value::String(s.trim().to_string()));
        if !self.system.is_empty() {
            object.insert("system".into(), Value::String(self.system.clone()));
        }
        if let Some(model) = text(self.model()) {
            object.insert("model".into(), model);
        }
        for (name, value) in
            [("max_tokens", &self.max_tokens), ("temperature", &self.temperature), ("top_p", &self.top_p)]
        {
            if let Some(v) = text(value) {
                object.insert(name.into(), v);
            }
        }
        let stops: Vec<Value> =
            self.stop_sequences.lines().filter(|l| !l.is_empty()).map(|l| Value::String(l.to_string())).collect();
        if !stops.is_empty() {
            object.insert("stop_sequences".into(), Value::Array(stops));
        }
        for (key, typed) in [("tools", &self.tools), ("provider_fields", &self.provider_fields)] {
            if !typed.trim().is_empty() {
                match serde_json::from_str::<Value>(typed) {
                    Ok(value) => {
                        object.insert(key.into(), value);
                    }
                    Err(e) => report.push(not_json(key, &e)),
                }
            }
        }
        self.features_json(&mut object, &mut report);
        (Value::Object(object), report)
    }

    /// Tool choice, prompt caching, reasoning and structured output, in the option names of the
    /// core (`tool_choice`, `prompt_cache`, `reasoning`, `response_format`).
    fn features_json(&self, object: &mut Map<String, Value>, report: &mut Report) {
        match self.tool_choice.as_str() {
            "" => {}
            "tool" => {
                object.insert("tool_choice".into(), json!({"name": self.tool_choice_name.trim()}));
            }
            choice => {
                object.insert("tool_choice".into(), Value::String(choice.to_string()));
            }
        }
        if self.prompt_cache {
            let ttl = self.prompt_cache_ttl.trim();
            object.insert("prompt_cache".into(), if ttl.is_empty() { Value::Bool(true) } else { json!({"ttl": ttl}) });
        }
        match self.reasoning.as_str() {
            "" => {}
            // A whole number is a budget; anything else goes as typed, for the core to report.
            "budget" => {
                let typed = self.reasoning_budget.trim();
                let budget = typed
                    .parse::<u64>()
                    .map_or_else(|_| Value::String(typed.to_string()), |n| json!({"budget_tokens": n}));
                object.insert("reasoning".into(), budget);
            }
            effort => {
                object.insert("reasoning".into(), Value::String(effort.to_string()));
            }
        }
        if !self.response_schema.trim().is_empty() {
            match serde_json::from_str::<Value>(&self.response_schema) {
                Ok(schema) => {
                    let mut format = Map::new();
                    format.insert("schema".into(), schema);
                    if !self.response_name.trim().is_empty() {
                        format.insert("name".into(), Value::String(self.response_name.trim().to_string()));
                    }
                    object.insert("response_format".into(), Value::Object(format));
                }
                Err(e) => report.push(not_json("response_format", &e)),
            }
        }
    }

    /// The settings `features_json` writes, and the model, read back from options JSON (a share
    /// link's).
    pub(crate) fn read_features(&mut self, options: &Value) {
        if let Some(model) = options.get("model").and_then(Value::as_str) {
            self.set_model(model.to_string());
        }
        match options.get("tool_choice") {
            Some(Value::String(choice)) => self.tool_choice.clone_from(choice),
            Some(Value::Object(named)) => {
                self.tool_choice = "tool".into();
                self.tool_choice_name = named.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
            }
            _ => {}
        }
        match options.get("prompt_cache") {
            Some(Value::Bool(on)) => self.prompt_cache = *on,
            Some(Value::Object(cache)) => {
                self.prompt_cache = true;
                self.prompt_cache_ttl = cache.get("ttl").and_then(Value::as_str).unwrap_or_default().to_string();
            }
            _ => {}
        }
        match options.get("reasoning") {
            Some(Value::String(effort)) => self.reasoning.clone_from(effort),
            Some(Value::Object(reasoning)) if reasoning.contains_key("effort") => {
                self.reasoning = reasoning["effort"].as_str().unwrap_or_default().to_string();
            }
            Some(budget @ (Value::Number(_) | Value::Object(_))) => {
                self.reasoning = "budget".into();
                self.reasoning_budget = budget.get("budget_tokens").unwrap_or(budget).to_string();
            }
            _ => {}
        }
        if let Some(format) = options.get("response_format") {
            self.response_schema =
                format.get("schema").map(|s| serde_json::to_string_pretty(s).unwrap_or_default()).unwrap_or_default();
            self.response_name = format.get("name").and_then(Value::as_str).unwrap_or_default().to_string();
        }
    }

    pub(crate) fn options(&self) -> (ConvertOptions, Report) {
        let (json, mut report) = self.options_json();
        let (options, read) = ConvertOptions::read_json(&json);
        report.extend(read);
        (options, report)
    }

    pub(crate) fn validation_options(&self) -> validate::Options {
        validate::Options { allow_prefill: self.allow_prefill, ..validate::Options::default() }
    }
}

fn not_json(key: &str, e: &serde_json::Error) -> Diagnostic {
    Diagnostic::new(
        agent_input::Code::InvalidParameter,
        agent_input::Path::root().key("options").key(key),
        format!("{key} is not valid JSON: {e}"),
    )
}

/// A provider's place in `ProviderId::ALL`.
fn provider_index(provider: ProviderId) -> usize {
    ProviderId::ALL.iter().position(|&p| p == provider).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_are_written_in_the_core_option_names() {
        let settings = Settings {
            tool_choice: "tool".into(),
            tool_choice_name: " get_weather ".into(),
            prompt_cache: true,
            prompt_cache_ttl: "1h".into(),
            response_schema: r#"{"type": "object"}"#.into(),
            response_name: "answer".into(),
            ..Settings::default()
        };
        let (options, report) = settings.options_json();
        assert!(report.is_ok());
        assert_eq!(
            options,
            json!({"tool_choice": {"name": "get_weather"}, "prompt_cache": {"ttl": "1h"},
                   "response_format": {"schema": {"type": "object"}, "name": "answer"}})
        );
        let mut read = Settings::default();
        read.read_features(&options);
        assert_eq!(read.tool_choice_name, "get_weather");
        assert_eq!((read.prompt_cache, read.prompt_cache_ttl.as_str()), (true, "1h"));
        assert_eq!(read.response_name, "answer");
        let plain = Settings { tool_choice: "any".into(), prompt_cache: true, ..Settings::default() };
        assert_eq!(plain.options_json().0, json!({"tool_choice": "any", "prompt_cache": true}));
        let bad = Settings { response_schema: "{".into(), ..Settings::default() };
        let (_, report) = bad.options_json();
        assert_eq!(report.errors[0].path.to_string(), "/options/response_format");
    }

    #[test]
    fn a_model_for_each_provider() {
        let mut settings = Settings { provider: ProviderId::OpenAiChat, ..Settings::default() };
        settings.set_model(" o3-mini ".into());
        assert_eq!(settings.options_json().0, json!({"model": "o3-mini"}));
        settings.provider = ProviderId::Gemini;
        assert_eq!(settings.model(), "");
        assert_eq!(settings.options_json().0, json!({}));
        settings.set_model("gemini-2.5-pro".into());
        settings.provider = ProviderId::OpenAiChat;
        assert_eq!(settings.model(), " o3-mini ");
        let mut read = Settings { provider: ProviderId::Gemini, ..Settings::default() };
        read.read_features(&json!({"model": "gemini-2.5-flash"}));
        assert_eq!(read.model(), "gemini-2.5-flash");
    }
}
