//! The content blocks editor: a card per block (text, or media with its source, format, name and
//! file), add, move and remove.

use leptos::prelude::*;
use serde_json::Value;

use super::fields::{field_id, item_controls, raw_item, str_at, text_field};
use super::provider_item::provider_item_card;
use crate::browser::files;
use crate::model::display::human_bytes;
use crate::model::input_form;
use crate::model::media::{is_image_bytes, media_bytes, preview_key};
use crate::model::placeholders::is_large;
use crate::model::pointer;
use crate::state::Editor;

pub(super) fn blocks_editor(editor: Editor, array: &str, items: &[Value]) -> AnyView {
    let len = items.len();
    let cards: Vec<AnyView> = items.iter().enumerate().map(|(i, b)| block_card(editor, array, i, len, b)).collect();
    let add = |kind: &'static str, label: &'static str| {
        let array = array.to_string();
        view! {
            <button type="button" class="add" on:click=move |_| {
                let at = pointer::index(&array, editor.doc.with_value(|d| d.pointer(&array).and_then(Value::as_array).map_or(0, Vec::len)));
                let array = array.clone();
                editor.add_structure(at, move |doc| { pointer::push(doc, &array, input_form::new_block(kind)); });
            }>
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
        "provider_item" if block.get("item").is_some_and(Value::is_object) => provider_item_card(editor, block),
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
            // The file replaces this block's payload: the rest counts toward the cap.
            let attached = editor
                .doc
                .with_value(|doc| media_bytes(doc).saturating_sub(doc.pointer(&target).map_or(0, media_bytes)));
            leptos::task::spawn_local(async move {
                match files::read(file, attached).await {
                    Ok(read) => {
                        editor.keep_preview(read.preview, read.preview_key, read.name);
                        editor.edit_structure(move |doc| {
                            pointer::set(doc, &target, read.block);
                        });
                    }
                    Err(why) => editor.notice.set(Some(why)),
                }
            });
        }
    };
    let file_name = editor.previews.with_value(|p| p.get(&format!("name:{key}")).cloned());
    // An image that does not decode gets a plain tile (shown by the style), not the browser's
    // clipped alt text.
    let tile = preview.map(|src| {
        view! {
            <img class="preview" src=src alt=format!("Preview of the {format} image") on:error=|ev| {
                if let Some(img) = ev.target().and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok()) {
                    let _ = img.class_list().add_1("broken");
                }
            } />
            <span class="preview no-preview" data-testid="no-preview">"No preview: the bytes do not decode as an image"</span>
        }
    });
    view! {
        <div class="media-summary" data-path=data_ptr.to_string() tabindex="-1">
            {tile}
            <div>
                {file_name.map(|n| view! { <p class="file-name" data-testid="file-name">{n}</p> })}
                <p class="size">{size}</p>
                <label class="file-button" for=replace_id.clone()>"Choose file…"</label>
                <input type="file" class="visually-hidden" id=replace_id accept=accept on:change=on_file />
            </div>
        </div>
    }
    .into_any()
}
