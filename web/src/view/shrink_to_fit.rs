//! "Shrink to fit", beside a diagnostic that refuses an image for its bytes or pixels: the image
//! scaled down in the browser, in its own format, to what the chosen provider (and model) takes
//! (src/shrink.js, loaded on the first click); the body then changes and is checked again.

use leptos::prelude::*;
use serde_json::Value;

use crate::browser::shrink_module::shrink;
use crate::model::display::human_bytes;
use crate::model::media::preview_key;
use crate::model::shrink::oversize;
use crate::state::Editor;

/// The action for `d`, when it refuses an image the browser can shrink.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ShrinkToFit(editor: Editor, d: agent_input::Diagnostic) -> impl IntoView {
    let settings = editor.analyzer().settings;
    let found = editor
        .body_value()
        .ok()
        .and_then(move |body| settings.with_untracked(|s| oversize(&body, &d, s.provider, s.model().trim())));
    let busy = RwSignal::new(false);
    found.map(|found| {
        let on_click = move |_| {
            let data = editor.body_value().ok().and_then(|b| b.pointer(&found.data_at).and_then(Value::as_str).map(str::to_string));
            let Some(data) = data else { return };
            busy.set(true);
            let at = found.data_at.clone();
            let format = found.mime.trim_start_matches("image/").to_uppercase();
            let old_key = preview_key(&data);
            let done = move |text: String| {
                busy.set(false);
                let shrunk: Value = serde_json::from_str(&text).unwrap_or_default();
                let smaller = shrunk["data"].as_str().map(str::to_string);
                let size = |key: &str| shrunk[key].as_u64();
                let notice = if let (Some(smaller), Some(w), Some(h), Some(n)) =
                    (smaller, size("width"), size("height"), size("bytes"))
                {
                        let name = editor.previews.with_value(|p| p.get(&format!("name:{old_key}")).cloned());
                        let preview = shrunk["preview"].as_str().map(str::to_string);
                        editor.keep_preview(preview, preview_key(&smaller), name);
                        let provider = settings.with_untracked(|s| s.provider.display_name());
                        let n = human_bytes(usize::try_from(n).unwrap_or(usize::MAX));
                        match editor.edit_anywhere(move |body| {
                            if let Some(slot) = body.pointer_mut(&at) {
                                *slot = Value::String(smaller);
                            }
                        }) {
                            Ok(()) => format!("Shrunk the image to {w} × {h} px ({format}, {n}) to fit {provider}."),
                            Err(why) => format!("The image could not be shrunk: {why}."),
                        }
                } else {
                    let why = shrunk["error"].as_str().unwrap_or("the browser could not draw it");
                    format!("The image could not be shrunk: {why}.")
                };
                editor.notice.set(Some(notice));
            };
            #[allow(clippy::cast_precision_loss)]
            let (side, bytes) = (found.max_side.map_or(0.0, f64::from), found.max_bytes.map_or(0.0, |n| n as f64));
            shrink(&data, found.mime, side, bytes, done);
        };
        view! {
            <button type="button" class="add shrink" data-testid="shrink-to-fit" disabled=move || busy.get() on:click=on_click>
                {move || if busy.get() { "Shrinking…" } else { "Shrink to fit" }}
            </button>
        }
    })
}
