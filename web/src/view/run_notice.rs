//! The notice of a run that failed before any event (the backend refused it, or never
//! answered): shown above the composer until the next run, never a turn of the conversation.

use leptos::prelude::*;

use super::chat::status_view;
use crate::state::ChatState;

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn RunNotice(chat: ChatState) -> impl IntoView {
    move || {
        chat.notice.with(|notice| {
            notice.as_ref().map(|status| {
                view! {
                    <div class="run-notice" role="alert" data-testid="run-notice">
                        {status_view(status, &chat.endpoint.get_untracked())}
                    </div>
                }
            })
        })
    }
}
