//! The agent input schema's views: the editor (the toggle, the schema's text, Prettify, the
//! schema's own problems) and the form generated from the schema for the body's parameters.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::{Map, Value};

use crate::browser::schema_module::Load;
use crate::model::analysis::Analysis;
use crate::model::pointer;
use crate::model::schema::{Field, FieldKind, prettify, text_of, value_of};
use crate::model::settings::Settings;
use crate::state::Editor;

/// The schema editor: the toggle, the schema's text, Prettify, and the schema's own problems.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn SchemaEditor(
    analysis: RwSignal<Arc<Analysis>>,
    settings: RwSignal<Settings>,
    schema_load: RwSignal<Load>,
) -> impl IntoView {
    let initial = settings.get_untracked();
    let text_ref = NodeRef::<leptos::html::Textarea>::new();
    let note = RwSignal::new(None::<String>);
    let on = move || settings.with(|s| s.schema_on);
    let prettify_click = move |_| {
        let text = settings.with_untracked(|s| s.schema.clone());
        match prettify(&text) {
            Ok(pretty) => {
                if let Some(area) = text_ref.get_untracked() {
                    area.set_value(&pretty);
                }
                note.set(None);
                settings.update(|s| s.schema = pretty);
            }
            Err(why) => note.set(Some(why)),
        }
    };
    let outcome = move || analysis.with(|a| a.schema.clone());
    view! {
        <details class="schema-editor" open=initial.schema_on>
            <summary>"Agent input schema"</summary>
            <label class="check">
                <input type="checkbox" data-testid="schema-toggle" prop:checked=initial.schema_on
                    on:change=move |ev| { let v = event_target_checked(&ev); settings.update(|s| s.schema_on = v); } />
                " Check the parameters against an agent's parameters_schema"
            </label>
            <div class="field" class:hidden=move || !on()>
                <label for="schema-text">"parameters_schema (JSON Schema; prompt is always added as a required string)"</label>
                <textarea id="schema-text" class="code" data-testid="schema-editor" rows="8" spellcheck="false" autocomplete="off"
                    node_ref=text_ref prop:value=initial.schema.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); note.set(None); settings.update(|s| s.schema = v); }></textarea>
            </div>
            <div class="schema-actions" class:hidden=move || !on()>
                <button type="button" data-testid="schema-prettify" on:click=prettify_click>"Prettify"</button>
                <span class="hint" data-testid="schema-status" data-state=move || match schema_load.get() {
                    Load::NotLoaded => "off", Load::Loading => "loading", Load::Ready => "ready", Load::Failed(_) => "failed" }>
                    {move || match schema_load.get() {
                        Load::NotLoaded => String::new(),
                        Load::Loading => "Loading the schema validator…".into(),
                        Load::Ready if settings.with(|s| s.schema.trim().is_empty()) => "Paste an agent's parameters_schema to begin.".into(),
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

/// The generated form for the body's parameters.
pub(super) fn render_form(editor: Editor, fields: &[Field], body: &Value) -> AnyView {
    let parameters = body.get("parameters").and_then(Value::as_object).cloned().unwrap_or_else(Map::new);
    let items: Vec<AnyView> = fields.iter().map(|f| field_view(editor, f, parameters.get(&f.name))).collect();
    view! {
        <fieldset class="schema-form" data-testid="schema-form">
            <legend>"Parameters from the schema"</legend>
            {if items.is_empty() { Some(view! { <p class="hint">"The schema defines no properties besides the prompt."</p> }) } else { None }}
            {items}
        </fieldset>
    }
    .into_any()
}

fn field_view(editor: Editor, field: &Field, value: Option<&Value>) -> AnyView {
    let pointer = pointer::key("/parameters", &field.name);
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
            editor.edit(move |doc| {
                if let Some(v) = value {
                    pointer::set(doc, &target, v);
                } else {
                    pointer::remove(doc, &target);
                    pointer::drop_empty_parameters(doc);
                }
            });
        }
        Err(why) => problem.set(Some(why)),
    };
    let text = text_of(&field.kind, value);
    let name = field.name.clone();
    let input = match &field.kind {
        FieldKind::Choice(values) => {
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
        FieldKind::Boolean => view! {
            <select id=id.clone() data-path=pointer.clone() data-testid="schema-field" data-name=name
                on:change=move |ev| apply(event_target_value(&ev))>
                <option value="" selected=text.is_empty()>"(not set)"</option>
                <option value="true" selected=text == "true">"true"</option>
                <option value="false" selected=text == "false">"false"</option>
            </select>
        }
        .into_any(),
        FieldKind::Text { multiline: true } => view! {
            <textarea id=id.clone() data-path=pointer.clone() data-testid="schema-field" data-name=name rows="2"
                prop:value=text on:input=move |ev| apply(event_target_value(&ev))></textarea>
        }
        .into_any(),
        FieldKind::Text { multiline: false } => view! {
            <input type="text" id=id.clone() data-path=pointer.clone() data-testid="schema-field" data-name=name
                prop:value=text on:input=move |ev| apply(event_target_value(&ev)) />
        }
        .into_any(),
        FieldKind::Number { integer } => view! {
            <input type="text" inputmode=if *integer { "numeric" } else { "decimal" } id=id.clone() data-path=pointer.clone()
                data-testid="schema-field" data-name=name prop:value=text on:input=move |ev| apply(event_target_value(&ev)) />
        }
        .into_any(),
        FieldKind::Json => view! {
            <textarea id=id.clone() class="code" data-path=pointer.clone() data-testid="schema-field" data-name=name rows="2"
                spellcheck="false" prop:value=text on:change=move |ev| apply(event_target_value(&ev))></textarea>
        }
        .into_any(),
    };
    let type_note = match &field.kind {
        FieldKind::Number { integer: true } => " (integer)",
        FieldKind::Number { integer: false } => " (number)",
        FieldKind::Json => " (JSON)",
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
