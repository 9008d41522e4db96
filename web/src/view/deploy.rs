//! "Deploy to `OpenSearch`": closed until opened; the first opening loads the view and the
//! registration planner (`browser::register_module`, on demand), which build the registration
//! body from what the conversion settings give (`model::deploy::facts`, handed on as they
//! change), plan it for the chosen ml-commons version and copy the plan as Dev Tools console text
//! or as a curl script (`model::deploy::curl_script`).

use std::sync::Arc;

use leptos::prelude::*;

use crate::browser::register_module;
use crate::browser::schema_module::Load;
use crate::model::analysis::Analysis;
use crate::model::deploy;
use crate::model::settings::Settings;

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn DeployPane(settings: RwSignal<Settings>, analysis: RwSignal<Arc<Analysis>>) -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let state = RwSignal::new(Load::NotLoaded);
    // The input's form decides which agent types take it.
    let form = Memo::new(move |_| analysis.with(|a| deploy::input_form(a.input_type)));
    let facts = move || settings.with(|s| deploy::facts(s, form.get()));
    let facts_untracked = move || settings.with_untracked(|s| deploy::facts(s, form.get_untracked()));
    Effect::new(move |_| {
        if matches!(state.get(), Load::Loading | Load::Ready) {
            register_module::settings(&facts().to_string());
        }
    });
    let on_toggle = move |ev: leptos::ev::Event| {
        let open = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if !open || matches!(state.get_untracked(), Load::Loading | Load::Ready) {
            return;
        }
        let Some(host) = host.get_untracked() else { return };
        // The view is drawn with the settings of the moment; the effect above hands on the rest.
        register_module::settings(&facts_untracked().to_string());
        state.set(Load::Loading);
        let curl = |report: String, version: String| deploy::curl_script(&report, &version).unwrap_or_default();
        leptos::task::spawn_local(async move { state.set(register_module::open(&host, curl).await) });
    };
    view! {
        <details class="deploy" data-testid="deploy" on:toggle=on_toggle>
            <summary id="deploy-title">"Deploy to OpenSearch"</summary>
            <div node_ref=host></div>
            {move || state.with(|s| match s {
                Load::Loading => Some(view! { <p class="hint" data-testid="deploy-loading">"Loading the registration planner…"</p> }.into_any()),
                Load::Failed(why) => Some(view! {
                    <p class="hint error" data-testid="deploy-load-failed">{format!("The registration planner did not load: {why}. Close and open the view to try again.")}</p>
                }.into_any()),
                Load::NotLoaded | Load::Ready => None,
            })}
        </details>
    }
}
