//! The build pane: the input's form editors (`forms`), the JSON editor, the file buttons and
//! the schema editor.

use std::sync::Arc;

use leptos::prelude::*;

use super::forms;
use super::schema_editor::SchemaEditor;
use crate::browser::schema_module::Load;
use crate::browser::{files, json_editor};
use crate::model::analysis::Analysis;
use crate::model::input_form::{self, Form};
use crate::model::schema::Field;
use crate::model::settings::Settings;
use crate::state::{Editor, EditorView};

/// The build pane: the form tabs, the file buttons, the form or the JSON editor, and the
/// schema editor.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn BuildPane(
    editor: Editor,
    analysis: RwSignal<Arc<Analysis>>,
    settings: RwSignal<Settings>,
    schema_form: RwSignal<Option<Arc<Vec<Field>>>>,
    schema_load: RwSignal<Load>,
) -> impl IntoView {
    let tab = move |view: EditorView, id: &'static str, label: &'static str| {
        let panel = if view == EditorView::Json { "json-panel" } else { "form-panel" };
        // Why the input cannot be shown in this form, said before a click (as the switch would).
        let why_not = move || {
            editor.analyzer().rev.track();
            match (editor.view.get(), view) {
                (EditorView::Form(_), EditorView::Form(form)) => {
                    editor.doc.with_value(|v| input_form::why_not(v, form)).map(|why| format!("Not available: {why}."))
                }
                _ => None,
            }
        };
        view! {
            <button type="button" role="tab" id=format!("tab-{id}") data-testid=format!("form-{id}") aria-controls=panel
                aria-disabled=move || why_not().map(|_| "true") title=why_not class:unavailable=move || why_not().is_some()
                aria-selected=move || (editor.view.get() == view).to_string()
                tabindex=move || if editor.view.get() == view { "0" } else { "-1" }
                class:active=move || editor.view.get() == view
                on:click=move |_| editor.switch(view)>{label}</button>
        }
    };
    let tabs: Vec<_> = Form::ALL.iter().map(|f| tab(EditorView::Form(*f), f.id(), f.label())).collect();
    // A field left: the diagnostics held back for it show.
    let on_focusout = move |ev: leptos::ev::FocusEvent| {
        if let Some(path) = ev
            .target()
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(t).ok())
            .and_then(|el| el.get_attribute("data-path"))
        {
            editor.left(&path);
        }
    };
    let on_image = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        editor.add_files(files::files(input.files()));
        input.set_value("");
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        editor.add_files(files::files(input.files()));
        input.set_value("");
    };
    // The JSON editor's line numbers and bracket matching, fetched the first time it is shown.
    Effect::new(move |_| {
        if editor.view.get() == EditorView::Json
            && let Some(textarea) = editor.json_ref.get()
        {
            json_editor::open(&textarea);
        }
    });
    view! {
        <h2 id="build-title">"Build"</h2>
        <div class="tabs" role="tablist" aria-label="Input form">{tabs}{tab(EditorView::Json, "json", "JSON")}</div>
        {move || editor.notice.get().map(|n| view! { <p class="notice" role="alert" data-testid="notice">{n}</p> })}
        <div class="media-bar">
            <label class="file-button" for="image-upload">"Add image…"</label>
            <input type="file" id="image-upload" class="visually-hidden" accept="image/*" multiple=true data-testid="image-upload" on:change=on_image />
            <label class="file-button" for="file-upload">"Add file…"</label>
            <input type="file" id="file-upload" class="visually-hidden" multiple=true data-testid="file-upload" on:change=on_file />
            <span class="hint">"or drop files, or paste an image"</span>
        </div>
        <div class="form-area" id="form-panel" role="tabpanel" aria-labelledby="build-title" on:focusout=on_focusout
            class:hidden=move || editor.view.get() == EditorView::Json>
            {move || {
                editor.structure.track();
                match editor.view.get() {
                    EditorView::Form(form) => forms::render(editor, form, schema_form.get()),
                    EditorView::Json => ().into_any(),
                }
            }}
        </div>
        <div class="json-area" id="json-panel" role="tabpanel" aria-labelledby="tab-json" class:hidden=move || editor.view.get() != EditorView::Json>
            <label for="json-editor">"Request body"</label>
            <div class="json-edit"><div class="json-field">
                <textarea id="json-editor" class="code" data-testid="json-editor" data-path="" spellcheck="false"
                    data-error-at=move || analysis.get().json_error_at.map(|(line, column)| format!("{line}:{column}"))
                    autocomplete="off" node_ref=editor.json_ref on:input=move |_| editor.changed()></textarea>
            </div></div>
            {move || analysis.get().json_error_at.map(|(line, column)| view! {
                <p class="field-problem" data-testid="json-error-at">{format!("The JSON breaks at line {line}, column {column}.")}</p>
            })}
            {move || (schema_form.get().is_some()).then(|| view! {
                <p class="hint">"The form the schema generates for the parameters is in the form views."</p>
            })}
        </div>
        <SchemaEditor analysis=analysis settings=settings schema_load=schema_load />
    }
}
