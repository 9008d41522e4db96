//! "Import a provider request": closed until opened; the first opening loads the view and the
//! importers (`browser::import_module`, on demand), which list the losses and type the options
//! into the settings' fields; each import's standard request goes into the editor.

use leptos::prelude::*;
use serde_json::Value;

use crate::browser::import_module;
use crate::browser::schema_module::Load;
use crate::state::Editor;

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ImportPane(editor: Editor) -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let state = RwSignal::new(Load::NotLoaded);
    let apply = move |text: String| {
        if let Ok(request) = serde_json::from_str::<Value>(&text) {
            editor.load(request);
        }
    };
    let on_toggle = move |ev: leptos::ev::Event| {
        let open = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if !open || matches!(state.get_untracked(), Load::Loading | Load::Ready) {
            return;
        }
        let Some(host) = host.get_untracked() else { return };
        state.set(Load::Loading);
        leptos::task::spawn_local(async move { state.set(import_module::open(&host, apply).await) });
    };
    view! {
        <details class="import" data-testid="import" on:toggle=on_toggle>
            <summary id="import-title">"Import a provider request"</summary>
            <div node_ref=host><p class="muted">"Loading the importers…"</p></div>
            {move || state.with(|s| match s {
                Load::Failed(why) => Some(format!("The importers could not be loaded: {why}")),
                _ => None,
            }).map(|n| view! { <p class="notice">{n}</p> })}
        </details>
    }
}
