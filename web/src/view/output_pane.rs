//! The output pane: the provider picker and the common settings in its header, the other
//! conversion settings under "More settings", the provider request the body converts to (long
//! base64 shortened), the conversion's diagnostics with tool specs made from the calls when the
//! provider needs them, and Copy (the whole request).

use std::sync::Arc;

use agent_input::ProviderId;
use leptos::prelude::*;

use super::code_export::code_export;
use super::copy::copy;
use super::diagnostics::diagnostic_items;
use super::model_field::ModelField;
use crate::model::analysis::{Analysis, Conversion, full_body};
use crate::model::display::human_bytes;
use crate::model::export;
use crate::model::settings::Settings;
use crate::model::tools;
use crate::state::Editor;

/// Sets the tools setting and its field (the field is not bound back: typing stays cheap).
pub(super) fn set_tools(settings: RwSignal<Settings>, specs: String) {
    if let Some(field) = document().get_element_by_id("tools") {
        wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlTextAreaElement>(field).set_value(&specs);
    }
    settings.update(|s| s.tools = specs);
}

/// The temperature range the provider takes (its profile in the core), as the field's hint.
fn temperature_range(provider: ProviderId) -> String {
    format!("0–{}", agent_input::convert::max_temperature(provider))
}

/// A one-line numeric setting.
fn setting_field(
    settings: RwSignal<Settings>,
    id: &'static str,
    label: &'static str,
    initial: String,
    placeholder: impl Fn() -> String + Send + Sync + 'static,
    set: impl Fn(&mut Settings, String) + Copy + 'static,
) -> impl IntoView {
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input type="text" id=id inputmode="decimal" placeholder=placeholder prop:value=initial
                on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| set(s, v)); } />
        </div>
    }
}

/// The output pane: the provider request for the body, its warnings or why the provider
/// cannot take it, the conversion settings, Copy.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn OutputPane(
    editor: Editor,
    analysis: RwSignal<Arc<Analysis>>,
    settings: RwSignal<Settings>,
) -> impl IntoView {
    let initial = settings.get_untracked();
    let providers: Vec<_> = ProviderId::ALL
        .iter()
        .map(|p| view! { <option value=p.as_str() selected=*p == initial.provider>{p.display_name()}</option> })
        .collect();
    let status = RwSignal::new(None::<String>);
    let provider_name = move || settings.with(|s| s.provider.display_name());
    let on_copy = move |_| {
        let current = settings.get_untracked();
        match editor.body_value().and_then(|v| full_body(&v, &current)) {
            Ok(body) => {
                let size = human_bytes(body.len());
                copy(body, status, format!("Copied the whole {} request ({size}).", current.provider.display_name()));
            }
            Err(why) => status.set(Some(format!("Nothing to copy: {why}."))),
        }
    };
    // The provider request as code, to the provider's own API (an example model id to replace).
    let provider_call = move || {
        let current = settings.get_untracked();
        let body = editor.body_value().and_then(|v| full_body(&v, &current))?;
        let model = match current.model().trim() {
            "" => export::example_model(current.provider),
            chosen => chosen,
        };
        export::provider_call(current.provider, model, &body)
            .ok_or_else(|| format!("no code is written for {}", current.provider.display_name()))
    };
    // The provider needs its tools declared: specs from the calls, one click away.
    let needs_tools = move || {
        analysis.with(|a| match &a.conversion {
            Conversion::Failed(report) => report.errors.iter().any(|d| d.code.as_str() == "tool_config_required"),
            _ => false,
        })
    };
    let on_tools = move |_| match editor.body_value().ok().as_ref().and_then(tools::specs_from_calls) {
        Some(specs) => {
            set_tools(settings, specs);
            status.set(Some("Tool specs made from the calls: under More settings, ready to edit.".into()));
        }
        None => status.set(Some("No named tool calls to make specs from.".into())),
    };
    let temperature_hint = move || temperature_range(settings.with(|s| s.provider));
    view! {
        <div class="output-head">
            <h2 id="output-title">"Provider request"</h2>
            <div class="field provider-field">
                <label for="provider">"Provider"</label>
                <select id="provider" data-testid="provider-select" on:change=move |ev| {
                    if let Some(p) = ProviderId::parse(&event_target_value(&ev)) { settings.update(|s| s.provider = p); }
                }>{providers}</select>
            </div>
        </div>
        <p class="hint">"The "<strong data-testid="output-provider">{provider_name}</strong>" request body for this input, as agent-gateway would send it."</p>
        <ModelField settings />
        <div class="row common-settings">
            {setting_field(settings, "max-tokens", "Max tokens", initial.max_tokens.clone(), || "4096".to_string(), |s, v| s.max_tokens = v)}
            {setting_field(settings, "temperature", "Temperature", initial.temperature.clone(), temperature_hint, |s, v| s.temperature = v)}
            {setting_field(settings, "top-p", "Top p", initial.top_p.clone(), || "0–1".to_string(), |s, v| s.top_p = v)}
        </div>
        <div class="field">
            <label for="system-prompt">"System prompt"</label>
            <textarea id="system-prompt" data-testid="system-prompt" rows="1" prop:value=initial.system.clone()
                on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.system = v); }></textarea>
        </div>
        {move || analysis.with(|a| a.schema.as_ref().is_some_and(|s| s.prompt.is_some())).then(|| view! {
            <p class="hint" data-testid="output-schema-note">"With an agent's schema, agent-gateway adds the formatted prompt's "<code>"<inputs>"</code>" block to the input before converting; this shows the input as given."</p>
        })}
        <details class="settings">
            <summary>"More settings (tools, stop sequences, caching, structured output, prefill)"</summary>
            <div class="field">
                <label for="stop-sequences">"Stop sequences (one a line)"</label>
                <textarea id="stop-sequences" rows="2" prop:value=initial.stop_sequences.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.stop_sequences = v); }></textarea>
            </div>
            <div class="field">
                <label for="tools">"Tools (JSON array: functions {name, description, input_schema}, hosted tools {type: \"provider_tool\", provider, tool})"</label>
                <textarea id="tools" class="code" data-testid="tools" rows="3" spellcheck="false" prop:value=initial.tools.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.tools = v); }></textarea>
            </div>
            <div class="field">
                <label for="provider-fields">"Provider fields (JSON {provider, fields}: the provider's own request fields, sent to that provider only)"</label>
                <textarea id="provider-fields" class="code" data-testid="provider-fields" rows="2" spellcheck="false" prop:value=initial.provider_fields.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.provider_fields = v); }></textarea>
            </div>
            <div class="row">
                <div class="field">
                    <label for="tool-choice">"Tool choice"</label>
                    <select id="tool-choice" data-testid="tool-choice" on:change=move |ev| {
                        let v = event_target_value(&ev); settings.update(|s| s.tool_choice = v);
                    }>
                        {[("", "provider default"), ("auto", "auto"), ("any", "any (required)"), ("none", "none"), ("tool", "a named tool")]
                            .into_iter()
                            .map(|(value, label)| view! { <option value=value selected=initial.tool_choice == value>{label}</option> })
                            .collect::<Vec<_>>()}
                    </select>
                </div>
                <div class="field" class:hidden=move || settings.with(|s| s.tool_choice != "tool")>
                    <label for="tool-choice-name">"Tool name"</label>
                    <input type="text" id="tool-choice-name" data-testid="tool-choice-name" placeholder="one of the tools"
                        prop:value=initial.tool_choice_name.clone()
                        on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.tool_choice_name = v); } />
                </div>
            </div>
            <div class="row">
                <label class="check">
                    <input type="checkbox" data-testid="prompt-cache" prop:checked=initial.prompt_cache
                        on:change=move |ev| { let v = event_target_checked(&ev); settings.update(|s| s.prompt_cache = v); } />
                    " Prompt caching (after the system prompt and the tools)"
                </label>
                <div class="field">
                    <label for="prompt-cache-ttl">"Cache TTL"</label>
                    <select id="prompt-cache-ttl" data-testid="prompt-cache-ttl" aria-describedby="prompt-cache-ttl-why"
                        disabled=move || settings.with(|s| !s.prompt_cache) on:change=move |ev| {
                        let v = event_target_value(&ev); settings.update(|s| s.prompt_cache_ttl = v);
                    }>
                        {[("", "default"), ("5m", "5 minutes"), ("1h", "1 hour")]
                            .into_iter()
                            .map(|(value, label)| view! { <option value=value selected=initial.prompt_cache_ttl == value>{label}</option> })
                            .collect::<Vec<_>>()}
                    </select>
                    <span class="hint" id="prompt-cache-ttl-why" data-testid="prompt-cache-ttl-why">
                        {move || settings.with(|s| !s.prompt_cache).then_some("Turn on prompt caching to set how long the cache lasts.")}
                    </span>
                </div>
            </div>
            <div class="row">
                <div class="field">
                    <label for="reasoning">"Reasoning"</label>
                    <select id="reasoning" data-testid="reasoning" on:change=move |ev| {
                        let v = event_target_value(&ev); settings.update(|s| s.reasoning = v);
                    }>
                        {[("", "provider default"), ("low", "low effort"), ("medium", "medium effort"), ("high", "high effort"), ("budget", "a token budget")]
                            .into_iter()
                            .map(|(value, label)| view! { <option value=value selected=initial.reasoning == value>{label}</option> })
                            .collect::<Vec<_>>()}
                    </select>
                </div>
                <div class="field" class:hidden=move || settings.with(|s| s.reasoning != "budget")>
                    <label for="reasoning-budget">"Thinking tokens"</label>
                    <input type="text" inputmode="numeric" id="reasoning-budget" data-testid="reasoning-budget" placeholder="e.g. 2048"
                        prop:value=initial.reasoning_budget.clone()
                        on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.reasoning_budget = v); } />
                </div>
            </div>
            <div class="field">
                <label for="response-schema">"Structured output: the answer's JSON Schema"</label>
                <textarea id="response-schema" class="code" data-testid="response-schema" rows="3" spellcheck="false"
                    placeholder="{\"type\": \"object\", \"properties\": {…}}" prop:value=initial.response_schema.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.response_schema = v); }></textarea>
            </div>
            <div class="field">
                <label for="response-name">"Schema name"</label>
                <input type="text" id="response-name" data-testid="response-name" placeholder="response" prop:value=initial.response_name.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.response_name = v); } />
            </div>
            <label class="check">
                <input type="checkbox" data-testid="allow-prefill" prop:checked=initial.allow_prefill
                    on:change=move |ev| { let v = event_target_checked(&ev); settings.update(|s| s.allow_prefill = v); } />
                " Allow a final assistant message (prefill)"
            </label>
        </details>
        {move || {
            let a: Arc<Analysis> = analysis.get();
            match &a.conversion {
                Conversion::Invalid => view! {
                    <p class="hint" data-testid="converse-status">"The " {provider_name()} " request shows once the input is valid."</p>
                    <pre class="code-output empty" data-testid="converse-output"></pre>
                }.into_any(),
                Conversion::Converted { view, warnings } => view! {
                    <ul class="diagnostics">{diagnostic_items(editor, analysis, warnings, "conversion-warning", None)}</ul>
                    <pre class="code-output" data-testid="converse-output" tabindex="0" aria-label="Provider request body">{view.clone()}</pre>
                }.into_any(),
                Conversion::Failed(_) => view! {
                    <p class="hint" data-testid="converse-status">{provider_name()} " cannot take this input: its problems are listed under Validation."</p>
                    {needs_tools().then(|| view! {
                        <button type="button" class="add" data-testid="tools-from-calls" on:click=on_tools>
                            "Make tool specs from the calls in this conversation"
                        </button>
                    })}
                    <pre class="code-output empty" data-testid="converse-output"></pre>
                }.into_any(),
            }
        }}
        <div class="actions">
            <button type="button" data-testid="copy-body" on:click=on_copy>"Copy request"</button>
            {code_export("provider-code", "the provider request", provider_call)}
            <span class="hint" role="status">{move || status.get()}</span>
        </div>
    }
}
