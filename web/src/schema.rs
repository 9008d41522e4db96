//! The agent input schema (SPEC §8): an editor for an agent's `parameters_schema`, a form for the
//! parameters generated from it, its violations and the formatted prompt. The JSON Schema
//! validator is `agent-input/schema`'s own WebAssembly module, loaded the first time the editor is
//! turned on (`schema_loader.js`); the form needs only the schema's JSON.

use std::sync::Arc;

use leptos::prelude::*;
use leptos::task::spawn_local;
use serde::Deserialize;
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use crate::analysis::Settings;
use crate::model;
use crate::state::Ctx;

const STORAGE_KEY: &str = "agent-input-playground/schema";

#[wasm_bindgen(module = "/src/schema_loader.js")]
extern "C" {
    #[wasm_bindgen(js_name = schemaLoad)]
    fn schema_load() -> js_sys::Promise;
    #[wasm_bindgen(js_name = schemaCheck, catch)]
    fn schema_check(schema: &str) -> Result<String, JsValue>;
    #[wasm_bindgen(js_name = schemaFormat, catch)]
    fn schema_format(body: &str, schema: &str, allow_prefill: bool) -> Result<String, JsValue>;
}

/// Where the schema module is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Load {
    NotLoaded,
    Loading,
    Ready,
    Failed(String),
}

/// A diagnostic of the schema module (its JavaScript shape).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub(crate) struct Finding {
    pub(crate) code: String,
    pub(crate) path: String,
    pub(crate) message: String,
    #[serde(rename = "schemaPath", default)]
    pub(crate) schema_path: Option<String>,
    #[serde(default)]
    pub(crate) expected: Vec<String>,
    #[serde(default)]
    pub(crate) received: Option<String>,
}

/// What the schema says about the current body.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Outcome {
    /// The schema text is not JSON: where and why.
    pub(crate) json_error: Option<String>,
    /// `invalid_schema` problems, paths into the schema.
    pub(crate) problems: Vec<Finding>,
    /// `schema_violation` errors, paths into the request.
    pub(crate) violations: Vec<Finding>,
    /// What `formatInputsJson` returns when everything is valid.
    pub(crate) prompt: Option<String>,
    /// Not checked: the module is not loaded yet, or the request itself is invalid.
    pub(crate) pending: Option<&'static str>,
}

#[derive(Deserialize)]
struct Check {
    valid: bool,
    #[serde(default)]
    errors: Vec<Finding>,
}

#[derive(Deserialize)]
struct Formatted {
    ok: bool,
    #[serde(default)]
    prompt: Option<String>,
    #[serde(default)]
    errors: Vec<Finding>,
}

/// The schema's JSON: `Err` says where it breaks.
fn parse(text: &str) -> Result<Value, String> {
    serde_json::from_str(text)
        .map_err(|e| format!("The schema is not JSON: line {}, column {}: {e}.", e.line(), e.column()))
}

/// Checks the schema and the body against it. `body_valid`: the request passed the core's own
/// validation (an invalid request is not checked against a schema, as the gateway does).
pub(crate) fn outcome(settings: &Settings, loaded: bool, body_valid: bool, body: impl FnOnce() -> String) -> Outcome {
    let mut out = Outcome::default();
    if settings.schema.trim().is_empty() {
        out.pending = Some("Paste or write an agent's parameters_schema.");
        return out;
    }
    if let Err(why) = parse(&settings.schema) {
        out.json_error = Some(why);
        return out;
    }
    if !loaded {
        out.pending = Some("Loading the schema validator…");
        return out;
    }
    match schema_check(&settings.schema).map(|t| serde_json::from_str::<Check>(&t)) {
        Ok(Ok(check)) if !check.valid => {
            out.problems = check.errors;
            return out;
        }
        Ok(Ok(_)) => {}
        Ok(Err(e)) => {
            out.json_error = Some(format!("The schema module answered unexpectedly: {e}."));
            return out;
        }
        Err(e) => {
            out.json_error = Some(format!("The schema module failed: {}.", js_text(&e)));
            return out;
        }
    }
    if !body_valid {
        out.pending = Some("Fix the request's errors first: its parameters are checked once it is valid.");
        return out;
    }
    match schema_format(&body(), &settings.schema, settings.allow_prefill)
        .map(|t| serde_json::from_str::<Formatted>(&t))
    {
        Ok(Ok(formatted)) => {
            out.prompt = if formatted.ok { formatted.prompt } else { None };
            out.violations = formatted.errors.into_iter().filter(|f| f.code == "schema_violation").collect();
        }
        Ok(Err(e)) => out.json_error = Some(format!("The schema module answered unexpectedly: {e}.")),
        Err(e) => out.json_error = Some(format!("The schema module failed: {}.", js_text(&e))),
    }
    out
}

fn js_text(value: &JsValue) -> String {
    value
        .dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| value.as_string())
        .unwrap_or_else(|| format!("{value:?}"))
}

/// Loads the schema module once; the analysis runs again when it is there.
pub(crate) fn ensure_loaded(ctx: Ctx) {
    if matches!(ctx.schema_load.get_untracked(), Load::Loading | Load::Ready) {
        return;
    }
    ctx.schema_load.set(Load::Loading);
    spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(schema_load()).await {
            Ok(_) => ctx.schema_load.set(Load::Ready),
            Err(e) => ctx.schema_load.set(Load::Failed(js_text(&e))),
        }
        ctx.changed();
    });
}

/// The kinds of field the generated form has.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Kind {
    /// `enum`: a select of the values (as JSON text).
    Choice(Vec<Value>),
    Text {
        multiline: bool,
    },
    Number {
        integer: bool,
    },
    Boolean,
    /// Arrays, objects and anything else: JSON text.
    Json,
}

/// One generated field: a top-level property of the schema.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Field {
    pub(crate) name: String,
    pub(crate) kind: Kind,
    pub(crate) required: bool,
    pub(crate) description: Option<String>,
}

/// The generated form: the schema's properties but `prompt` (the prompt is the input, or
/// `parameters.prompt` in the parameters editor).
pub(crate) fn form_spec(settings: &Settings) -> Option<Arc<Vec<Field>>> {
    if !settings.schema_on {
        return None;
    }
    let schema = parse(&settings.schema).ok()?;
    let properties = schema.get("properties")?.as_object()?;
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let fields = properties
        .iter()
        .filter(|(name, _)| name.as_str() != "prompt")
        .map(|(name, property)| Field {
            name: name.clone(),
            kind: kind(property),
            required: required.contains(&name.as_str()),
            description: property.get("description").and_then(Value::as_str).map(str::to_string),
        })
        .collect();
    Some(Arc::new(fields))
}

fn kind(property: &Value) -> Kind {
    if let Some(values) = property.get("enum").and_then(Value::as_array) {
        return Kind::Choice(values.clone());
    }
    // `"type": ["string", "null"]`: the first type that is not null.
    let type_name = match property.get("type") {
        Some(Value::String(t)) => Some(t.as_str()),
        Some(Value::Array(types)) => types.iter().filter_map(Value::as_str).find(|t| *t != "null"),
        _ => None,
    };
    match type_name {
        Some("string") => {
            // Short bounded strings get one line; anything else may be prose.
            let short = property.get("maxLength").and_then(Value::as_u64).is_some_and(|n| n <= 100);
            Kind::Text { multiline: !short }
        }
        Some("integer") => Kind::Number { integer: true },
        Some("number") => Kind::Number { integer: false },
        Some("boolean") => Kind::Boolean,
        _ => Kind::Json,
    }
}

/// What a form field's text becomes in the body; `None` removes the parameter.
pub(crate) fn value_of(kind: &Kind, text: &str) -> Result<Option<Value>, String> {
    match kind {
        Kind::Text { .. } => Ok((!text.is_empty()).then(|| Value::String(text.to_string()))),
        Kind::Choice(_) | Kind::Boolean => {
            if text.is_empty() {
                Ok(None)
            } else {
                serde_json::from_str(text).map(Some).map_err(|e| e.to_string())
            }
        }
        // Not a number: kept as text, so the schema reports it.
        Kind::Number { .. } => Ok(match text.trim() {
            "" => None,
            t => Some(match serde_json::from_str::<Value>(t) {
                Ok(n @ Value::Number(_)) => n,
                _ => Value::String(text.to_string()),
            }),
        }),
        Kind::Json => {
            if text.trim().is_empty() {
                Ok(None)
            } else {
                serde_json::from_str(text).map(Some).map_err(|e| format!("Not JSON: {e}"))
            }
        }
    }
}

/// A value as its field shows it.
fn text_of(kind: &Kind, value: Option<&Value>) -> String {
    match (kind, value) {
        (_, None) => String::new(),
        (Kind::Text { .. } | Kind::Number { .. }, Some(Value::String(s))) => s.clone(),
        (Kind::Json, Some(v)) => serde_json::to_string_pretty(v).unwrap_or_default(),
        (_, Some(v)) => v.to_string(),
    }
}

/// The generated form for the body's parameters.
pub(crate) fn render_form(ctx: Ctx, fields: &[Field], body: &Value) -> AnyView {
    let parameters = body.get("parameters").and_then(Value::as_object).cloned().unwrap_or_else(Map::new);
    let items: Vec<AnyView> = fields.iter().map(|f| field_view(ctx, f, parameters.get(&f.name))).collect();
    view! {
        <fieldset class="schema-form" data-testid="schema-form">
            <legend>"Parameters from the schema"</legend>
            {if items.is_empty() { Some(view! { <p class="hint">"The schema defines no properties besides the prompt."</p> }) } else { None }}
            {items}
        </fieldset>
    }
    .into_any()
}

fn field_view(ctx: Ctx, field: &Field, value: Option<&Value>) -> AnyView {
    let pointer = model::key("/parameters", &field.name);
    let id: String = format!(
        "schema-{}",
        field.name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect::<String>()
    );
    let problem = RwSignal::new(None::<String>);
    let kind = field.kind.clone();
    let target = pointer.clone();
    let apply = move |text: String| match value_of(&kind, &text) {
        Ok(value) => {
            problem.set(None);
            let target = target.clone();
            ctx.edit(move |doc| {
                if let Some(v) = value {
                    model::set(doc, &target, v);
                } else {
                    model::remove(doc, &target);
                    if doc.get("parameters").and_then(Value::as_object).is_some_and(Map::is_empty) {
                        model::remove(doc, "/parameters");
                    }
                }
            });
        }
        Err(why) => problem.set(Some(why)),
    };
    let text = text_of(&field.kind, value);
    let name = field.name.clone();
    let input = match &field.kind {
        Kind::Choice(values) => {
            let options: Vec<_> = values
                .iter()
                .map(|v| {
                    let json = v.to_string();
                    let label = v.as_str().map_or_else(|| json.clone(), str::to_string);
                    view! { <option value=json.clone() selected=json == text>{label}</option> }
                })
                .collect();
            view! {
                <select id=id.clone() data-path=pointer.clone() data-testid="schema-field" data-name=name
                    on:change=move |ev| apply(event_target_value(&ev))>
                    <option value="" selected=text.is_empty()>"(not set)"</option>
                    {options}
                </select>
            }
            .into_any()
        }
        Kind::Boolean => view! {
            <select id=id.clone() data-path=pointer.clone() data-testid="schema-field" data-name=name
                on:change=move |ev| apply(event_target_value(&ev))>
                <option value="" selected=text.is_empty()>"(not set)"</option>
                <option value="true" selected=text == "true">"true"</option>
                <option value="false" selected=text == "false">"false"</option>
            </select>
        }
        .into_any(),
        Kind::Text { multiline: true } => view! {
            <textarea id=id.clone() data-path=pointer.clone() data-testid="schema-field" data-name=name rows="2"
                prop:value=text on:input=move |ev| apply(event_target_value(&ev))></textarea>
        }
        .into_any(),
        Kind::Text { multiline: false } => view! {
            <input type="text" id=id.clone() data-path=pointer.clone() data-testid="schema-field" data-name=name
                prop:value=text on:input=move |ev| apply(event_target_value(&ev)) />
        }
        .into_any(),
        Kind::Number { integer } => view! {
            <input type="text" inputmode=if *integer { "numeric" } else { "decimal" } id=id.clone() data-path=pointer.clone()
                data-testid="schema-field" data-name=name prop:value=text on:input=move |ev| apply(event_target_value(&ev)) />
        }
        .into_any(),
        Kind::Json => view! {
            <textarea id=id.clone() class="code" data-path=pointer.clone() data-testid="schema-field" data-name=name rows="2"
                spellcheck="false" prop:value=text on:change=move |ev| apply(event_target_value(&ev))></textarea>
        }
        .into_any(),
    };
    let type_note = match &field.kind {
        Kind::Number { integer: true } => " (integer)",
        Kind::Number { integer: false } => " (number)",
        Kind::Json => " (JSON)",
        _ => "",
    };
    view! {
        <div class="field">
            <label for=id>
                {field.name.clone()}{type_note}
                {field.required.then(|| view! { <span class="required" title="required">" *"</span> })}
            </label>
            {input}
            {field.description.clone().map(|d| view! { <p class="hint">{d}</p> })}
            {move || problem.get().map(|p| view! { <p class="field-problem">{p}</p> })}
        </div>
    }
    .into_any()
}

/// Re-indents the schema (two spaces), or says why it cannot.
pub(crate) fn prettify(text: &str) -> Result<String, String> {
    parse(text).map(|v| serde_json::to_string_pretty(&v).unwrap_or_default())
}

/// The schema settings kept in this browser: `(text, on)`.
pub(crate) fn load_stored() -> Option<(String, bool)> {
    let storage = web_sys::window()?.local_storage().ok()??;
    let stored: Value = serde_json::from_str(&storage.get_item(STORAGE_KEY).ok()??).ok()?;
    Some((stored.get("schema")?.as_str()?.to_string(), stored.get("on").and_then(Value::as_bool).unwrap_or(false)))
}

pub(crate) fn store(text: &str, on: bool) {
    if let Some(Ok(Some(storage))) = web_sys::window().map(|w| w.local_storage()) {
        let _ = storage.set_item(STORAGE_KEY, &serde_json::json!({"schema": text, "on": on}).to_string());
    }
}

/// The schema editor: the toggle, the schema's text, Prettify, and the schema's own problems.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(crate) fn SchemaEditor() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let initial = ctx.settings.get_untracked();
    let text_ref = NodeRef::<leptos::html::Textarea>::new();
    let note = RwSignal::new(None::<String>);
    let on = move || ctx.settings.with(|s| s.schema_on);
    let prettify_click = move |_| {
        let text = ctx.settings.with_untracked(|s| s.schema.clone());
        match prettify(&text) {
            Ok(pretty) => {
                if let Some(area) = text_ref.get_untracked() {
                    area.set_value(&pretty);
                }
                note.set(None);
                ctx.settings.update(|s| s.schema = pretty);
            }
            Err(why) => note.set(Some(why)),
        }
    };
    let outcome = move || ctx.analysis.with(|a| a.schema.clone());
    view! {
        <details class="schema-editor" open=initial.schema_on>
            <summary>"Agent input schema"</summary>
            <label class="check">
                <input type="checkbox" data-testid="schema-toggle" prop:checked=initial.schema_on
                    on:change=move |ev| { let v = event_target_checked(&ev); ctx.settings.update(|s| s.schema_on = v); } />
                " Check the parameters against an agent's parameters_schema"
            </label>
            <div class="field" class:hidden=move || !on()>
                <label for="schema-text">"parameters_schema (JSON Schema; prompt is always added as a required string)"</label>
                <textarea id="schema-text" class="code" data-testid="schema-editor" rows="8" spellcheck="false" autocomplete="off"
                    node_ref=text_ref prop:value=initial.schema.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); note.set(None); ctx.settings.update(|s| s.schema = v); }></textarea>
            </div>
            <div class="schema-actions" class:hidden=move || !on()>
                <button type="button" data-testid="schema-prettify" on:click=prettify_click>"Prettify"</button>
                <span class="hint" data-testid="schema-status" data-state=move || match ctx.schema_load.get() {
                    Load::NotLoaded => "off", Load::Loading => "loading", Load::Ready => "ready", Load::Failed(_) => "failed" }>
                    {move || match ctx.schema_load.get() {
                        Load::NotLoaded => String::new(),
                        Load::Loading => "Loading the schema validator…".into(),
                        Load::Ready => outcome().map(|o| if o.json_error.is_none() && o.problems.is_empty() { "The schema is valid." } else { "" }).unwrap_or_default().into(),
                        Load::Failed(why) => format!("The schema validator did not load: {why}"),
                    }}
                </span>
            </div>
            {move || note.get().map(|n| view! { <p class="field-problem" data-testid="schema-error">{n}</p> })}
            {move || on().then(outcome).flatten().map(|o| view! {
                {o.json_error.clone().map(|e| view! { <p class="field-problem" data-testid="schema-error">{e}</p> })}
                <ul class="diagnostics">
                    {o.problems.iter().map(|p| {
                        let shown = if p.path.is_empty() { "/".to_string() } else { p.path.clone() };
                        view! {
                            <li data-testid="schema-problem" data-code=p.code.clone() data-path=p.path.clone() class="error">
                                <span class="badge">"error"</span><code class="code-name">{p.code.clone()}</code>
                                <code class="path">{shown}</code><span class="message">{p.message.clone()}</span>
                            </li>
                        }
                    }).collect::<Vec<_>>()}
                </ul>
            })}
        </details>
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_follow_the_schema() {
        let settings = Settings {
            schema_on: true,
            schema: json!({"required": ["topic"], "properties": {
                "topic": {"type": "string", "description": "What about"},
                "format": {"type": "string", "enum": ["summary", "essay"]},
                "code": {"type": "string", "maxLength": 8},
                "max_words": {"type": "integer"},
                "ratio": {"type": ["number", "null"]},
                "draft": {"type": "boolean"},
                "audience": {"type": "array"},
                "prompt": {"type": "string"}
            }})
            .to_string(),
            ..Settings::default()
        };
        let fields = form_spec(&settings).unwrap();
        let kinds: Vec<(&str, &Kind, bool)> = fields.iter().map(|f| (f.name.as_str(), &f.kind, f.required)).collect();
        assert_eq!(
            kinds,
            [
                ("topic", &Kind::Text { multiline: true }, true),
                ("format", &Kind::Choice(vec![json!("summary"), json!("essay")]), false),
                ("code", &Kind::Text { multiline: false }, false),
                ("max_words", &Kind::Number { integer: true }, false),
                ("ratio", &Kind::Number { integer: false }, false),
                ("draft", &Kind::Boolean, false),
                ("audience", &Kind::Json, false),
            ]
        );
        assert_eq!(fields[0].description.as_deref(), Some("What about"));
        assert!(form_spec(&Settings { schema_on: false, ..settings.clone() }).is_none());
        assert!(form_spec(&Settings { schema: "{".into(), ..settings }).is_none());
    }

    #[test]
    fn field_text_becomes_parameters() {
        let int = Kind::Number { integer: true };
        assert_eq!(value_of(&int, "300"), Ok(Some(json!(300))));
        assert_eq!(value_of(&int, "300.0"), Ok(Some(json!(300.0))));
        assert_eq!(value_of(&int, "lots"), Ok(Some(json!("lots"))));
        assert_eq!(value_of(&int, " "), Ok(None));
        assert_eq!(value_of(&Kind::Boolean, "false"), Ok(Some(json!(false))));
        assert_eq!(value_of(&Kind::Choice(vec![json!(1)]), "1"), Ok(Some(json!(1))));
        assert_eq!(value_of(&Kind::Text { multiline: true }, "a\nb"), Ok(Some(json!("a\nb"))));
        assert_eq!(value_of(&Kind::Text { multiline: true }, ""), Ok(None));
        assert_eq!(value_of(&Kind::Json, "[\"a\"]"), Ok(Some(json!(["a"]))));
        assert!(value_of(&Kind::Json, "[").is_err());
        assert_eq!(text_of(&Kind::Choice(vec![]), Some(&json!("essay"))), "\"essay\"");
        assert_eq!(text_of(&int, Some(&json!(5))), "5");
    }

    #[test]
    fn schema_json_errors_say_where() {
        let err = prettify("{\n  \"type\": \"object\",\n}").unwrap_err();
        assert!(err.contains("line 3, column 1"), "{err}");
        assert_eq!(prettify("{\"a\":1}").unwrap(), "{\n  \"a\": 1\n}");
    }
}
