//! The fields every form editor uses: a labelled text field, an item edited as JSON, the up,
//! down and remove buttons, each bound to a JSON Pointer of the body.

use leptos::prelude::*;
use serde_json::Value;

use crate::model::pointer;
use crate::state::Editor;

pub(super) fn str_at(body: &Value, pointer: &str) -> String {
    body.pointer(pointer).and_then(Value::as_str).unwrap_or_default().to_string()
}

pub(super) fn field_id(pointer: &str) -> String {
    let mut id = String::from("field");
    for c in pointer.chars() {
        id.push(if c.is_ascii_alphanumeric() { c } else { '-' });
    }
    id
}

/// A labelled text input (or text area) bound to the string at `pointer`.
pub(super) fn text_field(editor: Editor, pointer: String, label: String, value: String, multiline: bool) -> AnyView {
    let id = field_id(&pointer);
    let target = pointer.clone();
    let on_input = move |ev: leptos::ev::Event| {
        let text = event_target_value(&ev);
        let target = target.clone();
        editor.edit(move |doc| {
            pointer::set(doc, &target, Value::String(text));
        });
    };
    if multiline {
        view! {
            <div class="field">
                <label for=id.clone()>{label}</label>
                <textarea id=id data-path=pointer rows="4" prop:value=value on:input=on_input></textarea>
            </div>
        }
        .into_any()
    } else {
        view! {
            <div class="field">
                <label for=id.clone()>{label}</label>
                <input type="text" id=id data-path=pointer prop:value=value on:input=on_input />
            </div>
        }
        .into_any()
    }
}

/// An item the forms have no editor for, edited as JSON (applied when the field loses focus).
pub(super) fn raw_item(editor: Editor, pointer: String, value: &Value, label: &str) -> AnyView {
    let id = field_id(&pointer);
    let text = serde_json::to_string_pretty(value).unwrap_or_default();
    let problem = RwSignal::new(None::<String>);
    let target = pointer.clone();
    let on_change = move |ev: leptos::ev::Event| match serde_json::from_str::<Value>(&event_target_value(&ev)) {
        Ok(parsed) => {
            let target = target.clone();
            problem.set(None);
            editor.edit_structure(move |doc| {
                pointer::set(doc, &target, parsed);
            });
        }
        Err(e) => problem.set(Some(format!("Not JSON: {e}"))),
    };
    view! {
        <div class="field">
            <label for=id.clone()>{label.to_string()} " (JSON)"</label>
            <textarea id=id class="code" data-path=pointer rows="3" prop:value=text on:change=on_change></textarea>
            {move || problem.get().map(|p| view! { <p class="field-problem">{p}</p> })}
        </div>
    }
    .into_any()
}

/// Up, down and remove buttons for item `i` of the array at `array`.
pub(super) fn item_controls(editor: Editor, array: String, i: usize, len: usize, what: &'static str) -> impl IntoView {
    let (up, down, remove) = (array.clone(), array.clone(), array);
    let n = i + 1;
    view! {
        <div class="item-controls">
            <button type="button" class="icon" aria-label=format!("Move {what} {n} up") title="Move up" disabled={i == 0}
                on:click=move |_| editor.edit_structure(|doc| { pointer::swap(doc, &up, i, i.saturating_sub(1)); })>"↑"</button>
            <button type="button" class="icon" aria-label=format!("Move {what} {n} down") title="Move down" disabled={i + 1 >= len}
                on:click=move |_| editor.edit_structure(|doc| { pointer::swap(doc, &down, i, i + 1); })>"↓"</button>
            <button type="button" class="icon danger" aria-label=format!("Remove {what} {n}") title="Remove"
                on:click=move |_| editor.edit_structure(|doc| { pointer::remove(doc, &pointer::index(&remove, i)); })>"✕"</button>
        </div>
    }
}
