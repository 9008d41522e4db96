//! "Import a provider request": closed until opened; the first opening loads the view and the
//! importers (`browser::import_module`, on demand), and each import's standard request goes into
//! the editor and its options into the conversion settings (`model::import::apply`).

use leptos::prelude::*;
use serde_json::Value;
use wasm_bindgen::JsValue;

use crate::browser::import_module;
use crate::browser::schema_module::Load;
use crate::model::import;
use crate::model::settings::Settings;
use crate::state::Editor;

/// The settings' fields hold what was typed (the output pane draws them once), so an import
/// writes them as typing would have.
fn show_settings(s: &Settings) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let set = |selector: &str, key: &str, value: JsValue| {
        if let Ok(Some(field)) = document.query_selector(selector) {
            let _ = js_sys::Reflect::set(&field, &JsValue::from_str(key), &value);
        }
    };
    for (selector, value) in [
        ("#max-tokens", &s.max_tokens),
        ("#temperature", &s.temperature),
        ("#top-p", &s.top_p),
        ("#system-prompt", &s.system),
        ("#stop-sequences", &s.stop_sequences),
        ("#tools", &s.tools),
        ("#tool-choice", &s.tool_choice),
        ("#tool-choice-name", &s.tool_choice_name),
        ("#prompt-cache-ttl", &s.prompt_cache_ttl),
        ("#response-schema", &s.response_schema),
        ("#response-name", &s.response_name),
    ] {
        set(selector, "value", JsValue::from_str(value));
    }
    set("[data-testid=\"prompt-cache\"]", "checked", JsValue::from_bool(s.prompt_cache));
}

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ImportPane(editor: Editor, settings: RwSignal<Settings>) -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let state = RwSignal::new(Load::NotLoaded);
    let apply = move |text: String| {
        let Ok(imported) = serde_json::from_str::<Value>(&text) else { return };
        let (request, next) =
            import::apply(imported["request"].clone(), &imported["options"], &settings.get_untracked());
        editor.load(request);
        show_settings(&next);
        settings.set(next);
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
