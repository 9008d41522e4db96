//! "Import a provider request": a provider's request body, or a curl command carrying one, pasted
//! and read into the editor (the standard request) and the conversion settings (its options),
//! with what the standard input cannot carry listed at JSON Pointers into the pasted body. The
//! importers come from `agent-input/import`'s module, loaded the first time the view is opened.

use agent_input::ProviderId;
use leptos::prelude::*;
use wasm_bindgen::JsValue;

use crate::browser::import_module;
use crate::browser::schema_module::Load;
use crate::model::import::{self, Loss};
use crate::model::settings::Settings;
use crate::state::Editor;

/// The settings' fields hold what was typed (the output pane draws them once), so an import
/// writes them as typing would have.
fn show_settings(s: &Settings) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let texts = [
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
    ];
    let set = |selector: &str, key: &str, value: JsValue| {
        if let Ok(Some(field)) = document.query_selector(selector) {
            let _ = js_sys::Reflect::set(&field, &JsValue::from_str(key), &value);
        }
    };
    for (selector, value) in texts {
        set(selector, "value", JsValue::from_str(value));
    }
    set("[data-testid=\"prompt-cache\"]", "checked", JsValue::from_bool(s.prompt_cache));
}

/// The import view, closed until opened.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ImportPane(editor: Editor, settings: RwSignal<Settings>) -> impl IntoView {
    let open = RwSignal::new(false);
    let module = RwSignal::new(Load::NotLoaded);
    Effect::new(move |_| {
        if open.get() && matches!(module.get_untracked(), Load::NotLoaded | Load::Failed(_)) {
            module.set(Load::Loading);
            leptos::task::spawn_local(async move { module.set(import_module::load().await) });
        }
    });
    let text = RwSignal::new(String::new());
    // The provider chosen by hand; empty: the one detected.
    let chosen = RwSignal::new(String::new());
    let pasted = Memo::new(move |_| text.with(|t| import::read_pasted(t)));
    let detected = move || {
        pasted.with(|p| match p.provider {
            Some(provider) => format!(
                "Detected: {}{}",
                provider.display_name(),
                if p.curl { " (from the curl command)" } else { " (from the body's shape)" }
            ),
            None if text.with(String::is_empty) => String::new(),
            None => "No provider detected: choose one.".into(),
        })
    };
    let status = RwSignal::new(None::<String>);
    let losses = RwSignal::new(Vec::<Loss>::new());
    let on_import = move |_| {
        if module.with_untracked(|m| *m != Load::Ready) {
            status.set(Some("The importers are still loading; try again in a moment.".into()));
            return;
        }
        let pasted = pasted.get_untracked();
        let provider = ProviderId::parse(&chosen.get_untracked()).or(pasted.provider);
        let Some(provider) = provider else {
            status.set(Some("Choose the provider this request is for.".into()));
            return;
        };
        let read = import_module::import(provider.as_str(), &pasted.body).and_then(|r| import::read_report(&r));
        match read {
            Ok(report) => {
                losses.set(report.losses.clone());
                match report.request {
                    Some(request) => {
                        let (request, next) = import::apply(request, &report.options, &settings.get_untracked());
                        editor.load(request);
                        show_settings(&next);
                        settings.set(next);
                        let problems = report.losses.len();
                        status.set(Some(format!(
                            "Imported the {} request{}.",
                            provider.display_name(),
                            match problems {
                                0 => " with nothing lost".to_string(),
                                1 => ": 1 problem, below".to_string(),
                                n => format!(": {n} problems, below"),
                            }
                        )));
                    }
                    None => status.set(Some("Nothing imported: the body is not JSON.".into())),
                }
            }
            Err(why) => status.set(Some(format!("The import failed: {why}"))),
        }
    };
    let providers: Vec<_> =
        ProviderId::ALL.iter().map(|p| view! { <option value=p.as_str()>{p.display_name()}</option> }).collect();
    let loss_items = move || {
        losses
            .get()
            .into_iter()
            .map(|d| {
                let shown = if d.path.is_empty() { "/".to_string() } else { d.path.clone() };
                view! {
                    <li data-testid="import-problem" data-code=d.code.clone() data-path=d.path.clone() data-severity=d.severity class=d.severity>
                        <span class="badge">{d.severity}</span>
                        <code class="code-name">{d.code.clone()}</code>
                        <code class="path">{shown}</code>
                        <span class="message">{d.message.clone()}</span>
                    </li>
                }
            })
            .collect::<Vec<_>>()
    };
    view! {
        <details class="import" data-testid="import" on:toggle=move |ev| {
            open.set(event_target::<web_sys::Element>(&ev).has_attribute("open"));
        }>
            <summary id="import-title">"Import a provider request"</summary>
            <p class="hint">"Paste a request body of OpenAI Chat Completions, OpenAI Responses, Anthropic Messages, Gemini generateContent or Bedrock Converse, or a curl command carrying one. The standard request goes into the editor and its options into the settings; what the standard input cannot carry is listed, at its place in what you pasted."</p>
            <div class="field">
                <label for="import-text">"Request body or curl command"</label>
                <textarea id="import-text" class="code" data-testid="import-text" rows="6" spellcheck="false"
                    on:input=move |ev| text.set(event_target_value(&ev))></textarea>
            </div>
            <div class="row">
                <div class="field">
                    <label for="import-provider">"Provider"</label>
                    <select id="import-provider" data-testid="import-provider" on:change=move |ev| chosen.set(event_target_value(&ev))>
                        <option value="" selected=true>"Detect"</option>
                        {providers}
                    </select>
                </div>
                <p class="hint" data-testid="import-detected">{detected}</p>
            </div>
            <button type="button" data-testid="import-button"
                data-ready=move || module.with(|m| (*m == Load::Ready).to_string())
                on:click=on_import>"Import"</button>
            {move || module.with(|m| match m {
                Load::Failed(why) => Some(format!("The importers could not be loaded: {why}")),
                _ => None,
            }).map(|n| view! { <p class="notice">{n}</p> })}
            <p class="status" role="status" data-testid="import-status">{move || status.get()}</p>
            <ul class="diagnostics" data-testid="import-problems">{loss_items}</ul>
        </details>
    }
}
