//! Copy buttons' common part: text to the clipboard, the outcome in a status line.

use leptos::prelude::*;
use leptos::task::spawn_local;

use crate::browser::clipboard;

/// Copies text, reporting into `status`.
pub(super) fn copy(text: String, status: RwSignal<Option<String>>, done: String) {
    spawn_local(async move {
        match clipboard::write_text(&text).await {
            Ok(()) => status.set(Some(done)),
            Err(()) => status.set(Some("The browser refused access to the clipboard.".into())),
        }
    });
}
