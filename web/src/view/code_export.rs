//! "Copy as code": closed until opened; the first opening loads its script (`code_view.js`,
//! `browser::code_module`), which draws a copy button for curl, Python and JavaScript and shows
//! the code, asking `make` for the request each time.

use leptos::prelude::*;

use crate::browser::code_module;
use crate::browser::schema_module::Load;
use crate::model::export::Call;

/// The closed "Copy as code" of the request `make` describes (or why there is none); `what`
/// names it in the status line.
pub(super) fn code_export(
    testid: &'static str,
    what: &'static str,
    make: impl Fn() -> Result<Call, String> + Copy + Send + Sync + 'static,
) -> impl IntoView {
    let host = NodeRef::<leptos::html::Div>::new();
    let state = RwSignal::new(Load::NotLoaded);
    let on_toggle = move |ev: leptos::ev::Event| {
        let open = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if !open || matches!(state.get_untracked(), Load::Loading | Load::Ready) {
            return;
        }
        let Some(host) = host.get_untracked() else { return };
        state.set(Load::Loading);
        let facts = move || {
            match make() {
                Ok(call) => serde_json::json!({"ok": call.to_json()}),
                Err(why) => serde_json::json!({"error": why}),
            }
            .to_string()
        };
        leptos::task::spawn_local(async move { state.set(code_module::open(&host, testid, what, facts).await) });
    };
    view! {
        <details class="code-shown" data-testid=testid on:toggle=on_toggle>
            <summary>"Copy as code (curl, Python, JavaScript)"</summary>
            <div node_ref=host></div>
            {move || state.with(|s| match s {
                Load::Failed(why) => Some(format!("The code view did not load: {why}. Close and open it to try again.")),
                _ => None,
            })}
        </details>
    }
}
