//! The messages editor: a card per message (role, content blocks, an assistant's tool calls with
//! generated ids, a tool result's `toolCallId` filled with a call no result answers yet), add, move
//! and remove. What "+" adds is held back from the verdict until it is left or a run is tried.

use leptos::prelude::*;
use serde_json::{Value, json};
use wasm_bindgen::JsCast;

use super::blocks::blocks_editor;
use super::fields::{field_id, item_controls, raw_item, str_at, text_field};
use crate::model::{pointer, reasoning, tools};
use crate::state::Editor;
use crate::view::reasoning_badge::reasoning_badge;

/// The length of the array at `at` in the body.
fn len_at(editor: Editor, at: &str) -> usize {
    editor.doc.with_value(|d| d.pointer(at).and_then(Value::as_array).map_or(0, Vec::len))
}

const ROLES: [&str; 4] = ["user", "assistant", "system", "tool"];

pub(super) fn messages_editor(editor: Editor, items: &[Value]) -> AnyView {
    let len = items.len();
    let cards: Vec<AnyView> = items.iter().enumerate().map(|(i, m)| message_card(editor, i, len, m)).collect();
    // One handler for the row: a button's `data-role` adds a message, a listed call's
    // `data-call` answers it.
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = ev.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) else { return };
        let row = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if let Some(call) = button.get_attribute("data-call") {
            close_calls(row.as_ref());
            add_message(editor, "tool", Some(call));
        } else if let Some(role) = button.get_attribute("data-role") {
            if role == "tool" {
                tool_result(editor, row.as_ref(), &button);
            } else {
                add_message(editor, &role, None);
            }
        }
    };
    // Escape closes the list of calls, the focus back on "+ Tool result".
    let on_keydown = move |ev: leptos::ev::KeyboardEvent| {
        let row = ev.current_target().and_then(|t| t.dyn_into::<web_sys::Element>().ok());
        if ev.key() == "Escape"
            && close_calls(row.as_ref())
            && let Some(button) = row.and_then(|r| r.query_selector("[data-role=tool]").ok().flatten())
        {
            let _ = button.unchecked_into::<web_sys::HtmlElement>().focus();
        }
    };
    view! {
        <ol class="messages" data-path="/input" tabindex="-1">{cards}</ol>
        <div class="add-row" role="group" aria-label="Add a message" on:click=on_click on:keydown=on_keydown>
            <button type="button" class="add" data-role="user">"+ User"</button>
            <button type="button" class="add" data-role="assistant">"+ Assistant"</button>
            <button type="button" class="add" data-role="system">"+ System"</button>
            <button type="button" class="add" data-role="tool" data-testid="add-tool-result" aria-expanded="false">"+ Tool result"</button>
        </div>
    }
    .into_any()
}

/// Adds a message of `role` at the end; a tool result answers `call` (`None`: no call).
fn add_message(editor: Editor, role: &str, call: Option<String>) {
    let at = pointer::index("/input", len_at(editor, "/input"));
    let mut message = json!({"role": role, "content": [{"type": "text", "text": ""}]});
    if role == "tool" {
        message["toolCallId"] = json!(call.unwrap_or_default());
    }
    editor.add_structure(at, move |doc| {
        pointer::push(doc, "/input", message);
    });
}

/// "+ Tool result": one click answers the only call no result answers yet; with several, it
/// lists them after the button (id and function name) to answer one, or closes the list. The
/// list is drawn from the body as it is then (a call id typed into a field counts).
fn tool_result(editor: Editor, row: Option<&web_sys::Element>, button: &web_sys::Element) {
    if close_calls(row) {
        return;
    }
    let mut open = editor.doc.with_value(tools::unanswered);
    if open.len() < 2 {
        add_message(editor, "tool", open.pop().map(|(id, _)| id));
        return;
    }
    let Ok(list) = document().create_element("div") else { return };
    for (key, value) in [
        ("class", "call-menu"),
        ("role", "group"),
        ("aria-label", "Answer which call"),
        ("data-testid", "tool-result-menu"),
    ] {
        let _ = list.set_attribute(key, value);
    }
    for (id, name) in open {
        let Ok(item) = document().create_element("button") else { return };
        let _ = item.set_attribute("type", "button");
        let _ = item.set_attribute("data-testid", "tool-result-for");
        let _ = item.set_attribute("data-call", &id);
        item.set_text_content(Some(&if name.is_empty() { id } else { format!("{id} · {name}") }));
        let _ = list.append_child(&item);
    }
    let _ = button.after_with_node_1(&list);
    let _ = button.set_attribute("aria-expanded", "true");
    if let Some(first) = list.first_element_child() {
        let _ = first.unchecked_into::<web_sys::HtmlElement>().focus();
    }
}

/// Closes the list of calls in the add row, if it is open.
fn close_calls(row: Option<&web_sys::Element>) -> bool {
    let Some(row) = row else { return false };
    let Some(list) = row.query_selector(".call-menu").ok().flatten() else { return false };
    list.remove();
    if let Some(button) = row.query_selector("[data-role=tool]").ok().flatten() {
        let _ = button.set_attribute("aria-expanded", "false");
    }
    true
}

fn message_card(editor: Editor, i: usize, len: usize, message: &Value) -> AnyView {
    let pointer = pointer::index("/input", i);
    let Some(object) = message.as_object() else {
        return view! { <li class="card">{raw_item(editor, pointer, message, "Message")}</li> }.into_any();
    };
    let role = object.get("role").and_then(Value::as_str).unwrap_or_default().to_string();
    let lower = role.to_ascii_lowercase();
    let known = ROLES.contains(&lower.as_str());
    let role_ptr = pointer::key(&pointer, "role");
    let role_id = field_id(&role_ptr);
    let select_target = role_ptr.clone();
    let message_ptr = pointer.clone();
    let on_role = move |ev: leptos::ev::Event| {
        let chosen = event_target_value(&ev);
        let (target, message_ptr) = (select_target.clone(), message_ptr.clone());
        editor.edit_structure(move |doc| {
            let role = if chosen == "custom" { "custom".to_string() } else { chosen };
            pointer::set(doc, &target, Value::String(role.clone()));
            if role == "tool" && doc.pointer(&pointer::key(&message_ptr, "toolCallId")).is_none() {
                pointer::set(doc, &pointer::key(&message_ptr, "toolCallId"), json!(""));
            }
        });
    };
    let options: Vec<_> = ROLES.iter().map(|r| view! { <option value=*r selected=lower == *r>{*r}</option> }).collect();
    let custom = (!known).then(|| text_field(editor, role_ptr.clone(), "Custom role".into(), role.clone(), false));
    let content_ptr = pointer::key(&pointer, "content");
    let content = match object.get("content") {
        Some(Value::Array(blocks)) => blocks_editor(editor, &content_ptr, blocks),
        Some(other) => raw_item(editor, content_ptr, other, "Content"),
        None => {
            let target = content_ptr.clone();
            view! {
                <div data-path=content_ptr tabindex="-1">
                    <button type="button" class="add" on:click=move |_| editor.add_structure(target.clone(), |doc| { pointer::set(doc, &target, json!([{"type": "text", "text": ""}])); })>"+ Content"</button>
                </div>
            }
            .into_any()
        }
    };
    let tool_calls = (lower == "assistant").then(|| tool_calls_editor(editor, &pointer, object.get("toolCalls")));
    let tool_call_id = (lower == "tool").then(|| {
        text_field(
            editor,
            pointer::key(&pointer, "toolCallId"),
            "toolCallId".into(),
            str_at(message, "/toolCallId"),
            false,
        )
    });
    // Reasoning state is kept as it is (edited as JSON); the card says whether it goes back.
    let reasoning = (lower == "assistant")
        .then(|| reasoning::provider_of(message))
        .flatten()
        .map(|provider| reasoning_badge(provider, editor.analyzer().settings.with_untracked(|s| s.provider)));
    view! {
        <li class="card message" data-path=pointer.clone() tabindex="-1">
            <div class="card-head">
                <span class="card-title">{format!("Message {}", i + 1)}</span>
                <label class="visually-hidden" for=role_id.clone()>{format!("Role of message {}", i + 1)}</label>
                <select id=role_id class="role" data-path=role_ptr on:change=on_role>
                    {options}
                    <option value="custom" selected=!known>"custom…"</option>
                </select>
                {reasoning}
                {item_controls(editor, "/input".into(), i, len, "message")}
            </div>
            {custom}
            {tool_call_id}
            {content}
            {tool_calls}
        </li>
    }
    .into_any()
}

fn tool_calls_editor(editor: Editor, message: &str, calls: Option<&Value>) -> AnyView {
    let array = pointer::key(message, "toolCalls");
    let items = match calls {
        Some(Value::Array(items)) => items.clone(),
        Some(other) => return raw_item(editor, array, other, "toolCalls"),
        None => Vec::new(),
    };
    let len = items.len();
    let rows: Vec<AnyView> = items
        .iter()
        .enumerate()
        .map(|(j, call)| {
            let pointer = pointer::index(&array, j);
            if !call.is_object() {
                return raw_item(editor, pointer, call, "Tool call");
            }
            view! {
                <li class="tool-call" data-path=pointer.clone() tabindex="-1">
                    <div class="card-head"><span class="card-title">{format!("Tool call {}", j + 1)}</span>
                        {item_controls(editor, array.clone(), j, len, "tool call")}</div>
                    <div class="row">
                        {text_field(editor, pointer::key(&pointer, "id"), "id".into(), str_at(call, "/id"), false)}
                        {text_field(editor, format!("{pointer}/function/name"), "function.name".into(), str_at(call, "/function/name"), false)}
                    </div>
                    {text_field(editor, format!("{pointer}/function/arguments"), "function.arguments (JSON text)".into(), str_at(call, "/function/arguments"), true)}
                </li>
            }
            .into_any()
        })
        .collect();
    let message = message.to_string();
    let at = pointer::index(&array, len);
    view! {
        <div class="tool-calls">
            <h4>"Tool calls"</h4>
            <ol data-path=array tabindex="-1">{rows}</ol>
            <button type="button" class="add" data-testid="add-tool-call" on:click=move |_| {
                let message = message.clone();
                editor.add_structure(at.clone(), move |doc| tools::add_call(doc, &message));
            }>"+ Tool call"</button>
        </div>
    }
    .into_any()
}
