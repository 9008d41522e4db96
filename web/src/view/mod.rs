//! The views: Leptos components over the state. One file per pane or sizeable component;
//! each takes the signals it needs.

pub(crate) mod app;
mod build_pane;
mod diagnostics;
mod execute_pane;
mod forms;
mod highlight;
mod output_pane;
mod schema_editor;
mod toolbar;
mod validation_pane;

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::browser::clipboard;

/// Copies text, reporting into `status`.
fn copy(text: String, status: RwSignal<Option<String>>, done: String) {
    spawn_local(async move {
        match clipboard::write_text(&text).await {
            Ok(()) => status.set(Some(done)),
            Err(()) => status.set(Some("The browser refused access to the clipboard.".into())),
        }
    });
}
