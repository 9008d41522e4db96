//! The parameters editor: `parameters` other than the legacy question and the schema's
//! generated fields, strings edited in place and other values as JSON.

use leptos::prelude::*;
use serde_json::{Value, json};

use super::fields::{raw_item, text_field};
use crate::model::pointer;
use crate::state::Editor;

/// `parameters` other than the legacy question: string values edited in place, others as JSON.
pub(super) fn parameters_editor(editor: Editor, body: &Value, legacy: bool, generated: &[String]) -> AnyView {
    let entries: Vec<(String, Value)> = body
        .get("parameters")
        .and_then(Value::as_object)
        .map(|m| {
            m.iter()
                .filter(|(k, _)| !(generated.contains(k) || legacy && *k == "question"))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default();
    let rows: Vec<AnyView> = entries
        .into_iter()
        .map(|(key, value)| {
            let pointer = pointer::key("/parameters", &key);
            let remove = pointer.clone();
            let field = match &value {
                Value::String(s) => text_field(editor, pointer.clone(), key.clone(), s.clone(), false),
                other => raw_item(editor, pointer.clone(), other, &key),
            };
            view! {
                <li class="parameter">
                    {field}
                    <button type="button" class="icon danger" aria-label=format!("Remove parameter {key}")
                        on:click=move |_| editor.edit_structure(|doc| {
                            pointer::remove(doc, &remove);
                            pointer::drop_empty_parameters(doc);
                        })>"✕"</button>
                </li>
            }
            .into_any()
        })
        .collect();
    let open = !rows.is_empty();
    let new_key = RwSignal::new(String::new());
    let add = move |_| {
        let key = new_key.get_untracked().trim().to_string();
        if key.is_empty() {
            return;
        }
        editor.edit_structure(move |doc| {
            pointer::set(doc, &pointer::key("/parameters", &key), json!(""));
        });
    };
    view! {
        <details class="parameters" open=open>
            <summary>{if legacy { "Other parameters" } else { "Parameters" }}</summary>
            <ul data-path="/parameters" tabindex="-1">{rows}</ul>
            <div class="add-row">
                <label class="visually-hidden" for="new-parameter">"New parameter name"</label>
                <input type="text" id="new-parameter" placeholder="name, e.g. memory_id" on:input=move |ev| new_key.set(event_target_value(&ev)) />
                <button type="button" class="add" on:click=add>"+ Parameter"</button>
            </div>
        </details>
    }
    .into_any()
}
