//! The badge of an assistant message holding reasoning state: which provider wrote it, and
//! whether the chosen provider gets it back or the conversion leaves it out. A badge is drawn for
//! the provider chosen at the time, and `follow` rewrites every badge on the page when the choice
//! changes: one effect for the page, not a reactive view per badge (a fifth of the code).

use agent_input::ProviderId;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::model::reasoning;

/// The badge for the state `provider` wrote (the provider id under `reasoningState`), with the
/// request converted for `chosen`.
pub(super) fn reasoning_badge(provider: String, chosen: ProviderId) -> impl IntoView {
    let sent = reasoning::sent_back(&provider, chosen).to_string();
    let label = reasoning::label(&provider, chosen);
    view! { <span class="badge reasoning-state" data-testid="reasoning-state" data-provider=provider data-sent=sent>{label}</span> }
}

/// Rewrites the page's badges for the provider now chosen.
pub(super) fn follow(chosen: ProviderId) {
    let Ok(badges) = document().query_selector_all(".reasoning-state") else { return };
    for badge in (0..badges.length()).filter_map(|i| badges.item(i)?.dyn_into::<web_sys::Element>().ok()) {
        let provider = badge.get_attribute("data-provider").unwrap_or_default();
        let _ = badge.set_attribute("data-sent", &reasoning::sent_back(&provider, chosen).to_string());
        badge.set_text_content(Some(&reasoning::label(&provider, chosen)));
    }
}
