//! The conversation's state: the [`Chat`] as a signal, the run under way and its Stop, and the
//! notice of a run that failed before any event (shown above the composer, not as a turn). Each
//! network chunk's events are applied together (one re-render a chunk, not one an event).

use std::cell::Cell;

use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

use crate::browser::http::{self, Step, StreamEnd};
use crate::browser::page;
use serde_json::Value;

use crate::model::backend::{self, Backend};
use crate::model::chat::history;
use crate::model::chat::{Chat, Run, Status, Turn, UserTurn};

/// The conversation shown by the execute pane when streaming.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ChatState {
    pub(crate) chat: RwSignal<Chat>,
    /// How the last run failed before any event (refused, unreachable), if it did.
    pub(crate) notice: RwSignal<Option<Status>>,
    /// The endpoint the last run went to (what a network error names).
    pub(crate) endpoint: RwSignal<String>,
    /// The backend's settings (the run area edits them, kept in this browser).
    pub(crate) backend: RwSignal<Backend>,
    /// A body to send as the next turn at once (a turn's retry), taken by the run area.
    pub(crate) queued: RwSignal<Option<Value>>,
    /// How reading the transcript back from the backend's memory went, when it did not.
    pub(crate) restore_note: RwSignal<Option<String>>,
    /// The fetch under way, to abort on Stop.
    abort: StoredValue<Option<web_sys::AbortController>, LocalStorage>,
    /// Counts sends: a run's late updates (after New conversation) go nowhere.
    generation: StoredValue<u64>,
    /// When the run under way was sent (`page::now`).
    sent_at: StoredValue<f64>,
}

impl ChatState {
    pub(crate) fn new() -> Self {
        Self {
            chat: RwSignal::new(Chat::default()),
            notice: RwSignal::new(None),
            endpoint: RwSignal::new(String::new()),
            backend: RwSignal::new(Backend::default()),
            queued: RwSignal::new(None),
            restore_note: RwSignal::new(None),
            abort: StoredValue::new_local(None),
            generation: StoredValue::new(0),
            sent_at: StoredValue::new(0.0),
        }
    }

    /// Whether a run is under way.
    pub(crate) fn running(self) -> bool {
        self.chat.with(|c| c.turns.last().is_some_and(|t| !t.run.status.is_over()))
    }

    /// Sends `body` as the next turn; `finished` gets the memory id when the run finishes.
    pub(crate) fn send(
        self,
        backend: Backend,
        body: String,
        (user, sent): (UserTurn, Value),
        finished: impl Fn(String) + 'static,
    ) {
        if self.running() {
            return;
        }
        let Ok(controller) = web_sys::AbortController::new() else { return };
        let signal = controller.signal();
        self.abort.set_value(Some(controller));
        self.generation.update_value(|g| *g += 1);
        let generation = self.generation.get_value();
        self.sent_at.set_value(page::now());
        self.notice.set(None);
        self.restore_note.set(None);
        self.chat.update(|c| {
            let carried = history::carried(&c.turns, &sent);
            c.turns.push(Turn { user, sent, carried, run: Run::default() });
        });
        reveal_last_turn();
        let update = move |f: &dyn Fn(&mut Run)| {
            if self.generation.get_value() != generation {
                return;
            }
            self.chat.update(|c| {
                if let Some(turn) = c.turns.last_mut() {
                    f(&mut turn.run);
                }
            });
        };
        spawn_local(async move {
            // The conversation continues (memory id set, input cleared) as soon as the run is
            // shown finished: at RUN_FINISHED, not when the body ends after it, so that what the
            // user types next is never cleared under them.
            let continued = Cell::new(false);
            let continue_if_finished = || {
                if continued.get() || self.generation.get_value() != generation {
                    return;
                }
                let memory = self.chat.with_untracked(|c| {
                    c.turns.last().filter(|t| t.run.status == Status::Finished).and_then(|t| t.run.thread_id.clone())
                });
                if let Some(memory) = memory {
                    continued.set(true);
                    finished(memory);
                }
            };
            let (end, millis) = http::execute_stream(&backend, body, &signal, |step, millis| match step {
                Step::Streaming => update(&|run| run.streaming(millis)),
                Step::Events(events) => {
                    update(&|run| {
                        for data in &events {
                            run.apply(data, millis);
                        }
                    });
                    continue_if_finished();
                }
            })
            .await;
            if self.generation.get_value() == generation {
                self.abort.set_value(None);
            }
            let status = match end {
                StreamEnd::Complete => None,
                StreamEnd::Answered { status, body: Some(body), content_type } if (200..300).contains(&status) => {
                    Some(Status::Broken {
                        reason: format!(
                            "the backend answered {status} with {} instead of an event stream (text/event-stream): does it have the streaming endpoint? Turn streaming off to use _execute. It said: {}",
                            if content_type.is_empty() { "no content type" } else { &content_type },
                            body.chars().take(300).collect::<String>()
                        ),
                    })
                }
                StreamEnd::Answered { status, body, .. } => Some(match body {
                    Some(body) => {
                        Status::Rejected { status, reading: backend::read(&body), raw: backend::raw_view(&body) }
                    }
                    None => Status::Rejected { status, reading: backend::Reading::default(), raw: String::new() },
                }),
                StreamEnd::Unreachable { reason, cross_origin } => Some(Status::Unreachable { reason, cross_origin }),
                StreamEnd::Broken { reason } => {
                    Some(Status::Broken { reason: format!("the stream broke off: {reason}") })
                }
            };
            update(&|run| match &status {
                Some(status) => run.end(status.clone(), millis),
                None => run.end_of_stream(millis),
            });
            // Refused or unreachable before any event: a notice above the composer, not a turn.
            if self.generation.get_value() == generation
                && self.chat.with_untracked(|c| c.turns.last().is_some_and(|t| t.run.failed_to_start()))
            {
                let mut failed = None;
                self.chat.update(|c| failed = c.turns.pop().map(|t| t.run.status));
                self.notice.set(failed);
            }
        });
    }

    /// A run of `_execute` (not streamed) that answered: a finished turn, as a streamed one ends.
    pub(crate) fn answered(self, (user, sent): (UserTurn, Value), run: Run) {
        self.notice.set(None);
        self.restore_note.set(None);
        self.chat.update(|c| {
            let carried = history::carried(&c.turns, &sent);
            c.turns.push(Turn { user, sent, carried, run });
        });
        reveal_last_turn();
    }

    /// Stops the run under way: marked stopped first, so the aborted fetch's error is not
    /// taken for a network failure.
    pub(crate) fn stop(self) {
        if !self.chat.with_untracked(|c| c.turns.last().is_some_and(|t| !t.run.status.is_over())) {
            return;
        }
        let millis = page::now() - self.sent_at.get_value();
        self.chat.update(|c| {
            if let Some(run) = c.current() {
                run.end(Status::Stopped, millis);
            }
        });
        if let Some(controller) = self.abort.get_value() {
            controller.abort();
        }
    }

    /// Forgets the conversation (stopping a run under way).
    pub(crate) fn reset(self) {
        self.stop();
        self.notice.set(None);
        self.restore_note.set(None);
        self.generation.update_value(|g| *g += 1);
        self.chat.set(Chat::default());
    }

    /// Reads the transcript of memory `memory_id` back from the backend (after a reload), page by
    /// page, unless a run starts first; a memory that cannot be read is said, not hidden.
    pub(crate) fn restore(self, memory_id: String) {
        let backend = self.backend.get_untracked();
        let generation = self.generation.get_value();
        spawn_local(async move {
            let mut messages = Vec::new();
            let mut next: Option<String> = None;
            let failed = loop {
                let url = match backend.memory_url(&memory_id, next.as_deref()) {
                    Ok(url) => url,
                    Err(why) => break Some(why),
                };
                match http::get_json(&url, backend.authorization().as_deref()).await {
                    Ok((200, Some(body))) => {
                        let Ok(answer) = serde_json::from_str::<Value>(&body) else {
                            break Some("the backend's answer is not JSON".into());
                        };
                        let (page, token) = history::memory_page(&answer);
                        let empty = page.is_empty();
                        messages.extend(page);
                        match token {
                            Some(token) if !empty && messages.len() < history::MAX_RESTORED => next = Some(token),
                            _ => break None,
                        }
                    }
                    Ok((status, body)) => {
                        let reason = body.map(|b| backend::read(&b)).and_then(|r| r.reason);
                        break Some(format!(
                            "the backend answered {status}{}",
                            reason.map(|r| format!(": {r}")).unwrap_or_default()
                        ));
                    }
                    Err(reason) => break Some(reason),
                }
            };
            if self.generation.get_value() != generation || self.chat.with_untracked(|c| !c.turns.is_empty()) {
                return;
            }
            match failed {
                None => self.chat.set(Chat { turns: history::restore(&memory_id, &messages) }),
                Some(why) => self.restore_note.set(Some(format!(
                    "The conversation {memory_id} could not be read back ({why}); the next turn still continues it."
                ))),
            }
            reveal_last_turn();
        });
    }
}

/// Scrolls the conversation to its newest turn once it is on the page (the conversation scrolls
/// in its own box above the composer).
fn reveal_last_turn() {
    request_animation_frame(|| {
        if let Some(chat) = document().get_element_by_id("conversation") {
            chat.set_scroll_top(chat.scroll_height());
        }
        let Ok(turns) = document().query_selector_all("[data-testid=\"chat-assistant\"]") else { return };
        let Some(newest) = turns.get(turns.length().saturating_sub(1)) else { return };
        if let Ok(el) = newest.dyn_into::<web_sys::Element>() {
            let options = web_sys::ScrollIntoViewOptions::new();
            options.set_block(web_sys::ScrollLogicalPosition::Nearest);
            el.scroll_into_view_with_scroll_into_view_options(&options);
        }
    });
}
