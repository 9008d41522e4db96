//! The page's shell: the state created, a share link or the input and settings this browser
//! kept (media and secrets never) read, files dropped or pasted anywhere, the
//! effects that tie settings to the analysis, and the workbench laid out: the conversation with
//! the composer and Execute under it, the validation and the provider request beside.

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsCast;

use super::build_pane::BuildPane;
use super::chat::ChatView;
use super::compare::ComparePane;
use super::deploy::DeployPane;
use super::execute_pane::ExecutePane;
use super::highlight::highlight;
use super::import_pane::ImportPane;
use super::output_pane::OutputPane;
use super::reasoning_badge;
use super::run_notice::RunNotice;
use super::toolbar::{self, Toolbar};
use super::validation_pane::ValidationPane;
use crate::browser::{files, storage};
use crate::model::verdict::verdict;
use crate::model::{input_form, share};
use crate::state::{Analyzer, ChatState, Editor};

/// Where the schema editor's settings are kept in localStorage: `{"schema": text, "on": bool}`.
const SCHEMA_STORAGE_KEY: &str = "agent-input-playground/schema";
/// Where the input and the conversion settings are kept, as a share link's fragment (large
/// media left out; no secret is ever part of it).
const WORK_STORAGE_KEY: &str = "agent-input-playground/work";

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(crate) fn App() -> impl IntoView {
    let analyzer = Analyzer::new();
    let editor = Editor::new(analyzer);
    let settings = analyzer.settings;
    if let Some(stored) = storage::load::<Value>(SCHEMA_STORAGE_KEY)
        && let Some(schema) = stored.get("schema").and_then(Value::as_str)
    {
        let on = stored.get("on").and_then(Value::as_bool).unwrap_or(false);
        settings.update(|s| {
            s.schema = schema.to_string();
            s.schema_on = on;
        });
    }
    let share_note = RwSignal::new(None::<String>);
    let chat = ChatState::new();

    let hash = window().location().hash().unwrap_or_default();
    let kept = if hash.contains("share=") { None } else { storage::load::<String>(WORK_STORAGE_KEY) };
    let from_link = kept.is_none();
    if let Some((request, mut shared, omitted)) = share::decode(kept.as_deref().unwrap_or(hash.as_str())) {
        // A link without a schema keeps the one this browser has.
        if shared.schema.is_empty() {
            settings.with_untracked(|s| {
                shared.schema.clone_from(&s.schema);
                shared.schema_on = s.schema_on;
            });
        }
        settings.set(shared);
        if omitted > 0 {
            let media = if omitted == 1 { "1 large media payload was" } else { "large media payloads were" };
            let from = if from_link { "a share link" } else { "this browser" };
            share_note.set(Some(format!("Loaded from {from}. {media} left out; add the files again.")));
        }
        // After the editor exists, so the JSON view can be filled. A kept conversation comes
        // back: its transcript read from the backend's memory, its blank next turn waiting.
        request_animation_frame(move || {
            let memory = request.pointer("/parameters/memory_id").and_then(Value::as_str).map(str::to_string);
            let blank = input_form::blank_turn_of(&request);
            editor.load(request);
            if let Some(memory) = blank {
                editor.await_next_turn(memory);
            }
            if let Some(memory) = memory {
                chat.restore(memory);
            }
        });
    } else {
        editor.changed();
    }

    // Files dropped anywhere on the page, and images pasted, become content blocks.
    let drag_over = RwSignal::new(false);
    let _ = window_event_listener(leptos::ev::dragover, move |ev| {
        ev.prevent_default();
        drag_over.set(true);
    });
    let _ = window_event_listener(leptos::ev::dragleave, move |ev| {
        if ev.related_target().is_none() {
            drag_over.set(false);
        }
    });
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        drag_over.set(false);
        editor.add_files(files::files(ev.data_transfer().and_then(|d| d.files())));
    });
    let _ = window_event_listener(leptos::ev::paste, move |ev| {
        let pasted = files::pasted_files(&ev);
        if !pasted.is_empty() {
            ev.prevent_default();
            editor.add_files(pasted);
        }
    });

    // The example's banner goes once the user edits the input.
    let _ = window_event_listener(leptos::ev::input, move |ev| {
        let in_build = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .is_some_and(|el| el.closest(".pane.build").ok().flatten().is_some());
        if in_build && share_note.with_untracked(|n| n.as_deref().is_some_and(|n| n.starts_with("Example: "))) {
            share_note.set(None);
        }
    });
    // Highlight the fields the diagnostics point at, once the forms are on the page.
    Effect::new(move |_| {
        let analysis = analyzer.analysis.get();
        let holds = editor.holds.get();
        editor.structure.track();
        editor.view.track();
        request_animation_frame(move || highlight(&analysis, &holds));
    });
    // The input and the settings are kept in this browser when the page goes (a reload, a closed
    // tab): nothing is written while typing.
    let _ = window_event_listener(leptos::ev::pagehide, move |_| {
        if let Ok(body) = editor.body_value() {
            let (fragment, _, _) = share::encode(&body, &settings.get_untracked());
            storage::save(WORK_STORAGE_KEY, &fragment);
        }
    });
    // Keys: Ctrl+Enter (⌘+Enter) runs the input from anywhere, as Execute does; the arrow keys
    // move between the editor's tabs (each chosen as it is reached).
    let _ = window_event_listener(leptos::ev::keydown, move |ev| {
        let key = ev.key();
        let tab = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .filter(|t| t.get_attribute("role").as_deref() == Some("tab"));
        let to = match (key.as_str(), tab) {
            ("Enter", _) if ev.ctrl_key() || ev.meta_key() => document().get_element_by_id("execute-button"),
            ("ArrowRight", Some(tab)) => {
                tab.next_element_sibling().or_else(|| tab.parent_element()?.first_element_child())
            }
            ("ArrowLeft", Some(tab)) => {
                tab.previous_element_sibling().or_else(|| tab.parent_element()?.last_element_child())
            }
            _ => return,
        };
        ev.prevent_default();
        if let Some(el) = to.and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok()) {
            if key != "Enter" {
                let _ = el.focus();
            }
            el.click();
        }
    });
    // The schema editor's settings are kept in this browser; turning it on loads the validator.
    Effect::new(move |_| {
        let (schema, on) = settings.with(|s| (s.schema.clone(), s.schema_on));
        storage::save(SCHEMA_STORAGE_KEY, &serde_json::json!({"schema": schema, "on": on}));
        if on {
            analyzer.load_schema_module(move || editor.changed());
        }
    });
    // The reasoning state badges follow the chosen provider.
    Effect::new(move |_| reasoning_badge::follow(settings.with(|s| s.provider)));
    // Conversion settings feed the output at once.
    Effect::new(move |first: Option<()>| {
        settings.track();
        if first.is_some() {
            editor.changed();
        }
    });

    let analysis = analyzer.analysis;

    // The one verdict the validation pane and Execute share.
    let judged = Signal::derive(move || {
        let pending = analyzer.rev.get() != analyzer.analyzed_rev.get();
        let provider = settings.with(|s| s.provider.display_name());
        editor.holds.with(|h| verdict(&analysis.get(), provider, h, pending))
    });
    view! {
        <div class="app" class:dragging=move || drag_over.get()
            data-rev=move || analyzer.rev.get().to_string() data-analyzed-rev=move || analyzer.analyzed_rev.get().to_string()
            data-analysis-ms=move || crate::model::display::fixed(analyzer.analysis_ms.get(), 1)>
            <header class="topbar">
                <h1><span class="logo" aria-hidden="true">"{ }"</span>" agent-input "<span class="muted">"playground"</span></h1>
                <Toolbar editor=editor settings=settings share_note=share_note />
            </header>
            <p class="intro" data-testid="intro">
                "Build the input of an OpenSearch ml-commons agent, see whether Bedrock, OpenAI, Anthropic and Gemini take it, and run it as a chat. "
                <span class="try">"Try an example: "{toolbar::example_buttons(editor, settings, share_note)}</span>
            </p>
            {move || share_note.get().map(|n| view! {
                <p class="banner" role="status" data-testid="share-note">
                    <span>{n}</span>
                    <button type="button" class="icon" aria-label="Dismiss" on:click=move |_| share_note.set(None)>"✕"</button>
                </p>
            })}
            <main class="panes">
                <div class="workbench">
                    <section class="pane conversation" aria-label="Conversation">
                        <ChatView chat=chat editor=editor />
                    </section>
                    <RunNotice chat=chat />
                    <section class="pane build" aria-labelledby="build-title">
                        <BuildPane editor=editor analysis=analysis settings=settings schema_form=analyzer.schema_form schema_load=analyzer.schema_load />
                    </section>
                    <ExecutePane editor=editor chat=chat judged=judged />
                </div>
                <div class="feedback">
                    <section class="pane validation" aria-labelledby="validation-title">
                        <ValidationPane editor=editor analysis=analysis settings=settings shown=judged />
                    </section>
                    <section class="pane output" aria-labelledby="output-title">
                        <OutputPane editor=editor analysis=analysis settings=settings />
                    </section>
                </div>
            </main>
            <section class="pane wide" aria-labelledby="import-title"><ImportPane editor=editor /></section>
            <section class="pane wide" aria-labelledby="compare-title"><ComparePane editor=editor analyzer=analyzer judged=judged /></section>
            <section class="pane wide" aria-labelledby="deploy-title"><DeployPane settings=settings analysis=analysis /></section>
            <div class="drop-overlay" aria-hidden="true">"Drop files to add them as content blocks"</div>
        </div>
    }
}
