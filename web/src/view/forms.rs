//! The form editors. Each renders from a light snapshot of the body (payloads as sizes) and
//! writes back at JSON Pointers; every field carries `data-path`, so errors can highlight it and
//! clicks can reach it.

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::{Value, json};

use super::schema_editor;
use crate::browser::files;
use crate::model::display::human_bytes;
use crate::model::input_form::{self, Form};
use crate::model::media::{is_image_bytes, preview_key};
use crate::model::placeholders::{is_large, light};
use crate::model::pointer;
use crate::model::schema::Field;
use crate::state::Editor;

const ROLES: [&str; 4] = ["user", "assistant", "system", "tool"];

/// The editor of one form, with the form the schema generates (when the schema editor is on)
/// and the parameters editor.
pub(super) fn render(editor: Editor, form: Form, schema_fields: Option<Arc<Vec<Field>>>) -> AnyView {
    let body = editor.doc.with_value(light);
    // With a schema, its properties get the generated form and the parameters editor the rest.
    let generated: Vec<String> =
        schema_fields.as_ref().map(|f| f.iter().map(|f| f.name.clone()).collect()).unwrap_or_default();
    let schema_form = schema_fields.map(|fields| schema_editor::render_form(editor, &fields, &body));
    let parameters = parameters_editor(editor, &body, form == Form::Legacy, &generated);
    let editor = match (form, body.get("input")) {
        (Form::Text, _) => text_field(editor, "/input".into(), "Input text".into(), str_at(&body, "/input"), true),
        (Form::Legacy, _) => text_field(
            editor,
            "/parameters/question".into(),
            "parameters.question".into(),
            str_at(&body, "/parameters/question"),
            true,
        ),
        (Form::Blocks, Some(Value::Array(items))) => blocks_editor(editor, "/input", items),
        (Form::Messages, Some(Value::Array(items))) => messages_editor(editor, items),
        _ => view! { <p class="note">"This input cannot be shown in this form; edit it as JSON."</p> }.into_any(),
    };
    view! {
        <div class="form" data-form=form.id()>
            {editor}
            {schema_form}
            {parameters}
        </div>
    }
    .into_any()
}

fn str_at(body: &Value, pointer: &str) -> String {
    body.pointer(pointer).and_then(Value::as_str).unwrap_or_default().to_string()
}

fn field_id(pointer: &str) -> String {
    let mut id = String::from("field");
    for c in pointer.chars() {
        id.push(if c.is_ascii_alphanumeric() { c } else { '-' });
    }
    id
}

/// A labelled text input (or text area) bound to the string at `pointer`.
fn text_field(editor: Editor, pointer: String, label: String, value: String, multiline: bool) -> AnyView {
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
fn raw_item(editor: Editor, pointer: String, value: &Value, label: &str) -> AnyView {
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
fn item_controls(editor: Editor, array: String, i: usize, len: usize, what: &'static str) -> impl IntoView {
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

fn blocks_editor(editor: Editor, array: &str, items: &[Value]) -> AnyView {
    let len = items.len();
    let cards: Vec<AnyView> = items.iter().enumerate().map(|(i, b)| block_card(editor, array, i, len, b)).collect();
    let add = |kind: &'static str, label: &'static str| {
        let array = array.to_string();
        view! {
            <button type="button" class="add" on:click=move |_| editor.edit_structure(|doc| { pointer::push(doc, &array, input_form::new_block(kind)); })>
                {label}
            </button>
        }
    };
    view! {
        <ol class="blocks" data-path=array.to_string() tabindex="-1">{cards}</ol>
        <div class="add-row" role="group" aria-label="Add a block">
            {add("text", "+ Text")} {add("image", "+ Image")} {add("video", "+ Video")} {add("document", "+ Document")}
        </div>
    }
    .into_any()
}

fn block_card(editor: Editor, array: &str, i: usize, len: usize, block: &Value) -> AnyView {
    let pointer = pointer::index(array, i);
    let kind = block.get("type").and_then(Value::as_str).map(str::to_ascii_lowercase).unwrap_or_default();
    let body = match kind.as_str() {
        "text" if block.get("text").is_none_or(Value::is_string) => {
            text_field(editor, pointer::key(&pointer, "text"), "Text".into(), str_at(block, "/text"), true)
        }
        "image" | "video" | "document" if block.get("source").is_some_and(Value::is_object) => {
            media_fields(editor, &pointer, &kind, block)
        }
        _ => raw_item(editor, pointer.clone(), block, "Block"),
    };
    let title = if kind.is_empty() { "block".to_string() } else { kind.clone() };
    view! {
        <li class="card" data-path=pointer.clone() tabindex="-1">
            <div class="card-head">
                <span class="card-title">{format!("{} · {title}", i + 1)}</span>
                {item_controls(editor, array.to_string(), i, len, "block")}
            </div>
            {body}
        </li>
    }
    .into_any()
}

fn formats_for(kind: &str) -> &'static [&'static str] {
    match kind {
        "image" => agent_input::format::ImageFormat::NAMES,
        "video" => agent_input::format::VideoFormat::NAMES,
        _ => agent_input::format::DocumentFormat::NAMES,
    }
}

fn media_fields(editor: Editor, pointer: &str, kind: &str, block: &Value) -> AnyView {
    let source = pointer::key(pointer, "source");
    let source_type = block.pointer("/source/type").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
    let type_ptr = pointer::key(&source, "type");
    let type_id = field_id(&type_ptr);
    let data_ptr = pointer::key(&source, "data");
    let list_id = format!("formats-{kind}");
    let format_ptr = pointer::key(&source, "format");
    let format_id = field_id(&format_ptr);
    let format_value = str_at(block, "/source/format");
    let options: Vec<_> = formats_for(kind).iter().map(|f| view! { <option value=*f></option> }).collect();
    let format_target = format_ptr.clone();
    let set_type = {
        let data_ptr = data_ptr.clone();
        move |ev: leptos::ev::Event| {
            let chosen = event_target_value(&ev);
            let (type_ptr, data_ptr) = (type_ptr.clone(), data_ptr.clone());
            editor.edit_structure(move |doc| {
                pointer::set(doc, &type_ptr, Value::String(chosen));
                pointer::set(doc, &data_ptr, Value::String(String::new()));
            });
        }
    };
    let data_view = if source_type == "base64" {
        base64_summary(editor, pointer, kind, block, &data_ptr)
    } else {
        let id = field_id(&data_ptr);
        let value = str_at(block, "/source/data");
        let target = data_ptr.clone();
        view! {
            <div class="field">
                <label for=id.clone()>"URL (https, http or s3)"</label>
                <input type="text" inputmode="url" id=id data-path=data_ptr placeholder="s3://bucket/key or https://…"
                    prop:value=value
                    on:input=move |ev| { let t = event_target_value(&ev); let p = target.clone(); editor.edit(move |doc| { pointer::set(doc, &p, Value::String(t)); }); } />
                <p class="hint">"Never fetched by the playground; the provider reads it."</p>
            </div>
        }
        .into_any()
    };
    let name = (kind == "document").then(|| {
        text_field(editor, pointer::key(pointer, "name"), "Document name".into(), str_at(block, "/name"), false)
    });
    view! {
        <div class="media-fields">
            <div class="field">
                <label for=type_id.clone()>"Source"</label>
                <select id=type_id data-path=pointer::key(&source, "type") on:change=set_type>
                    <option value="base64" selected=source_type == "base64">"base64 (a file)"</option>
                    <option value="url" selected=source_type == "url">"URL"</option>
                    {(source_type != "base64" && source_type != "url").then(|| view! { <option value=source_type.clone() selected=true>{source_type.clone()}</option> })}
                </select>
            </div>
            <div class="field">
                <label for=format_id.clone()>"Format"</label>
                <input type="text" id=format_id list=list_id.clone() data-path=format_ptr prop:value=format_value
                    on:input=move |ev| { let t = event_target_value(&ev); let p = format_target.clone(); editor.edit(move |doc| { pointer::set(doc, &p, Value::String(t)); }); } />
                <datalist id=list_id>{options}</datalist>
            </div>
            {name}
        </div>
        {data_view}
    }
    .into_any()
}

fn base64_summary(editor: Editor, pointer: &str, kind: &str, block: &Value, data_ptr: &str) -> AnyView {
    let data = block.pointer("/source/data");
    let (chars, key, small) = match data {
        Some(d) if is_large(d) => (
            usize::try_from(d["$large"].as_u64().unwrap_or(0)).unwrap_or(0),
            d["key"].as_str().unwrap_or_default().to_string(),
            None,
        ),
        Some(Value::String(s)) => (s.len(), preview_key(s), Some(s.clone())),
        _ => (0, String::new(), None),
    };
    let format = str_at(block, "/source/format");
    // Previews only of bytes the user gave: an object URL of the file, or a small payload as a data URL.
    let preview = (kind == "image")
        .then(|| {
            editor.previews.with_value(|p| p.get(&key).cloned()).or_else(|| {
                // Only bytes that are an image: a broken preview helps nobody.
                small.filter(|s| is_image_bytes(s)).map(|s| {
                    let mime = agent_input::format::ImageFormat::ALL
                        .iter()
                        .find(|f| f.as_str() == format.to_ascii_lowercase())
                        .map_or("image/png", |f| f.mime_type());
                    format!("data:{mime};base64,{s}")
                })
            })
        })
        .flatten();
    let size = if chars == 0 {
        "no data yet".to_string()
    } else {
        format!("{} ({} base64)", human_bytes(chars / 4 * 3), human_bytes(chars))
    };
    let replace_id = format!("{}-file", field_id(pointer));
    let target = pointer.to_string();
    let accept = match kind {
        "image" => "image/*",
        "video" => "video/*",
        _ => "",
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        let files = files::files(input.files());
        let target = target.clone();
        if let Some(file) = files.into_iter().next() {
            leptos::task::spawn_local(async move {
                match files::read(file).await {
                    Ok(read) => {
                        editor.keep_preview(read.preview, read.preview_key);
                        editor.edit_structure(move |doc| {
                            pointer::set(doc, &target, read.block);
                        });
                    }
                    Err(why) => editor.notice.set(Some(why)),
                }
            });
        }
    };
    view! {
        <div class="media-summary" data-path=data_ptr.to_string() tabindex="-1">
            {preview.map(|src| view! { <img class="preview" src=src alt=format!("Preview of the {format} image") /> })}
            <div>
                <p class="size">{size}</p>
                <label class="file-button" for=replace_id.clone()>"Choose file…"</label>
                <input type="file" class="visually-hidden" id=replace_id accept=accept on:change=on_file />
            </div>
        </div>
    }
    .into_any()
}

fn messages_editor(editor: Editor, items: &[Value]) -> AnyView {
    let len = items.len();
    let cards: Vec<AnyView> = items.iter().enumerate().map(|(i, m)| message_card(editor, i, len, m)).collect();
    let add = |role: &'static str, label: &'static str| {
        view! {
            <button type="button" class="add" on:click=move |_| editor.edit_structure(|doc| {
                let mut message = json!({"role": role, "content": [{"type": "text", "text": ""}]});
                if role == "tool" { message["toolCallId"] = json!(""); }
                pointer::push(doc, "/input", message);
            })>{label}</button>
        }
    };
    view! {
        <ol class="messages" data-path="/input" tabindex="-1">{cards}</ol>
        <div class="add-row" role="group" aria-label="Add a message">
            {add("user", "+ User")} {add("assistant", "+ Assistant")} {add("system", "+ System")} {add("tool", "+ Tool result")}
        </div>
    }
    .into_any()
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
                    <button type="button" class="add" on:click=move |_| editor.edit_structure(|doc| { pointer::set(doc, &target, json!([{"type": "text", "text": ""}])); })>"+ Content"</button>
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
    view! {
        <li class="card message" data-path=pointer.clone() tabindex="-1">
            <div class="card-head">
                <span class="card-title">{format!("Message {}", i + 1)}</span>
                <label class="visually-hidden" for=role_id.clone()>{format!("Role of message {}", i + 1)}</label>
                <select id=role_id class="role" data-path=role_ptr on:change=on_role>
                    {options}
                    <option value="custom" selected=!known>"custom…"</option>
                </select>
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
    let add_target = array.clone();
    view! {
        <div class="tool-calls">
            <h4>"Tool calls"</h4>
            <ol data-path=array tabindex="-1">{rows}</ol>
            <button type="button" class="add" on:click=move |_| editor.edit_structure(|doc| {
                pointer::push(doc, &add_target, json!({"id": "", "type": "function", "function": {"name": "", "arguments": "{}"}}));
            })>"+ Tool call"</button>
        </div>
    }
    .into_any()
}

/// `parameters` other than the legacy question: string values edited in place, others as JSON.
fn parameters_editor(editor: Editor, body: &Value, legacy: bool, generated: &[String]) -> AnyView {
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
