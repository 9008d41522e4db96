//! The notice of a run that failed before any event (the backend refused it, or never
//! answered): shown above the composer, dismissible, never a turn of the conversation.

use leptos::prelude::*;

use super::chat::status_view;
use crate::state::ChatState;

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn RunNotice(chat: ChatState) -> impl IntoView {
    move || {
        chat.notice.get().map(|status| {
            view! {
                <div class="run-notice" role="alert" data-testid="run-notice">
                    <div class="run-notice-body">{status_view(&status, &chat.endpoint.get_untracked())}</div>
                    <button type="button" class="icon" aria-label="Dismiss" data-testid="run-notice-dismiss"
                        on:click=move |_| chat.notice.set(None)>"✕"</button>
                </div>
            }
        })
    }
}
