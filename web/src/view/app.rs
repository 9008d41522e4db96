//! The page's shell: the state created, a share link or the last session's input and settings
//! (kept in this browser, media and secrets never) read, files dropped or pasted anywhere, the
//! effects that tie settings to the analysis, and the workbench laid out: the conversation with
//! the composer and Execute under it, the validation and the provider request beside.

use leptos::prelude::*;
use serde_json::Value;

use super::build_pane::BuildPane;
use super::chat::ChatView;
use super::compare::ComparePane;
use super::deploy::DeployPane;
use super::execute_pane::ExecutePane;
use super::highlight::highlight;
use super::output_pane::OutputPane;
use super::run_notice::RunNotice;
use super::toolbar::Toolbar;
use super::validation_pane::ValidationPane;
use crate::browser::{files, storage};
use crate::model::share;
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

    let hash = window().location().hash().unwrap_or_default();
    let from_link = share::decode(&hash).is_some();
    let kept = if from_link { None } else { storage::load::<String>(WORK_STORAGE_KEY) };
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
            share_note.set(Some(if from_link {
                format!("Loaded from a share link. {media} left out of the link; add the files again.")
            } else {
                format!("Your last input is back. {media} not kept; add the files again.")
            }));
        }
        // After the editor exists, so the JSON view can be filled.
        request_animation_frame(move || editor.load(request));
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

    // Highlight the fields the diagnostics point at, once the forms are on the page.
    Effect::new(move |_| {
        let analysis = analyzer.analysis.get();
        let holds = editor.holds.get();
        editor.structure.track();
        editor.view.track();
        request_animation_frame(move || highlight(&analysis, &holds));
    });
    // The input and the settings are kept in this browser, a moment after the last edit.
    let save_timer = StoredValue::new(None::<leptos::leptos_dom::helpers::TimeoutHandle>);
    Effect::new(move |first: Option<()>| {
        analyzer.analyzed_rev.track();
        settings.track();
        if first.is_none() {
            return;
        }
        if let Some(timer) = save_timer.try_update_value(Option::take).flatten() {
            timer.clear();
        }
        let save = move || {
            if let Ok(body) = editor.body_value() {
                let (fragment, _, _) = share::encode(&body, &settings.get_untracked());
                storage::save(WORK_STORAGE_KEY, &fragment);
            }
        };
        save_timer.set_value(set_timeout_with_handle(save, std::time::Duration::from_millis(500)).ok());
    });
    // The schema editor's settings are kept in this browser; turning it on loads the validator.
    Effect::new(move |_| {
        let (schema, on) = settings.with(|s| (s.schema.clone(), s.schema_on));
        storage::save(SCHEMA_STORAGE_KEY, &serde_json::json!({"schema": schema, "on": on}));
        if on {
            analyzer.load_schema_module(move || editor.changed());
        }
    });
    // Conversion settings feed the output at once.
    Effect::new(move |first: Option<()>| {
        settings.track();
        if first.is_some() {
            editor.changed();
        }
    });

    let analysis = analyzer.analysis;
    let chat = ChatState::new();
    view! {
        <div class="app" class:dragging=move || drag_over.get()
            data-rev=move || analyzer.rev.get().to_string() data-analyzed-rev=move || analyzer.analyzed_rev.get().to_string()
            data-analysis-ms=move || crate::model::display::fixed(analyzer.analysis_ms.get(), 1)>
            <header class="topbar">
                <div class="title">
                    <h1><span class="logo" aria-hidden="true">"{ }"</span>" agent-input "<span class="muted">"playground"</span></h1>
                    <p class="tagline">"Build an OpenSearch ml-commons agent input, check it, see it as each provider's request, and run it."</p>
                </div>
                <Toolbar editor=editor settings=settings share_note=share_note />
            </header>
            {move || share_note.get().map(|n| view! {
                <p class="banner" role="status" data-testid="share-note">
                    <span>{n}</span>
                    <button type="button" class="icon" aria-label="Dismiss" on:click=move |_| share_note.set(None)>"✕"</button>
                </p>
            })}
            <main class="panes">
                <div class="workbench">
                    <section class="pane conversation" aria-labelledby="chat-title" class:empty=move || chat.chat.with(|c| c.turns.is_empty())>
                        <ChatView chat=chat editor=editor />
                    </section>
                    <RunNotice chat=chat />
                    <section class="pane build" aria-labelledby="build-title">
                        <BuildPane editor=editor analysis=analysis settings=settings schema_form=analyzer.schema_form schema_load=analyzer.schema_load />
                    </section>
                    <section class="pane run" aria-labelledby="execute-title">
                        <ExecutePane editor=editor chat=chat analysis=analysis settings=settings />
                    </section>
                </div>
                <section class="pane validation" aria-labelledby="validation-title">
                    <ValidationPane editor=editor analysis=analysis settings=settings rev=analyzer.rev analyzed_rev=analyzer.analyzed_rev />
                </section>
                <section class="pane output" aria-labelledby="output-title">
                    <OutputPane editor=editor analysis=analysis settings=settings />
                </section>
            </main>
            <section class="pane wide" aria-labelledby="compare-title"><ComparePane editor=editor analyzer=analyzer /></section>
            <section class="pane wide" aria-labelledby="deploy-title"><DeployPane settings=settings /></section>
            <div class="drop-overlay" aria-hidden="true">"Drop files to add them as content blocks"</div>
        </div>
    }
}
