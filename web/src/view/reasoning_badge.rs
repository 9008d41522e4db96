//! The badge of an assistant message holding reasoning state: which provider wrote it, and
//! whether the chosen provider gets it back or the conversion leaves it out.

use agent_input::ProviderId;
use leptos::prelude::*;

use crate::model::reasoning;

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ReasoningBadge(
    /// The provider id under `reasoningState`.
    provider: String,
    /// The provider the request is converted for.
    chosen: Signal<ProviderId>,
) -> impl IntoView {
    let (kept, label) = (provider.clone(), provider.clone());
    view! {
        <span class="badge reasoning-state" data-testid="reasoning-state"
            data-provider=provider
            data-sent=move || reasoning::sent_back(&kept, chosen.get()).to_string()>
            {move || reasoning::label(&label, chosen.get())}
        </span>
    }
}
