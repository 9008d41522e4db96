//! The run area under the composer: Execute (the agent input sent to the backend's
//! `_execute/stream`, or `_execute` with streaming off; Ctrl/Cmd+Enter clicks it), Stop, New conversation,
//! the Execute call as code (curl, Python, JavaScript), and the backend's settings (kept in this browser). Execute is held back, with
//! the reason, while the input cannot succeed. Either way a finished run becomes a turn of the
//! conversation and the next turn continues it in place (its memory id set, the input emptied).

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::code_export::code_export;
use crate::browser::{http, page, storage};
use crate::model::backend::{self, Auth, Backend, Reply};
use crate::model::chat::{Run, Status, UserTurn};
use crate::model::export;
use crate::model::input_form;
use crate::model::verdict::{Holds, Verdict};
use crate::state::{ChatState, Editor};

/// The run area: Execute and its reason when held back, Stop, New conversation, the call
/// as code, the backend's settings.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ExecutePane(editor: Editor, chat: ChatState, judged: Signal<Verdict>) -> impl IntoView {
    let stored = storage::load::<Backend>(backend::STORAGE_KEY).unwrap_or_else(|| Backend {
        endpoint: page::origin(),
        agent_id: "echo".into(),
        ..Backend::default()
    });
    let backend_state = chat.backend;
    backend_state.set(stored.clone());
    Effect::new(move |_| backend_state.with(|b| storage::save(backend::STORAGE_KEY, &b.stored())));
    let running = RwSignal::new(false);
    let status = RwSignal::new(None::<String>);
    let blocked = move || judged.with(|v| v.blocked.clone());

    // The next turn continues the conversation in place, streamed or not.
    let continue_with = move |memory_id: String| match editor
        .edit_anywhere(|doc| input_form::continue_conversation(doc, memory_id.clone()))
    {
        Ok(()) => {
            editor.await_next_turn(memory_id);
            status.set(None);
        }
        Err(why) => status.set(Some(why)),
    };
    // Sends `body` as the next turn.
    let send = move |body: String| {
        status.set(None);
        let backend = backend_state.get_untracked();
        chat.endpoint.set(backend.endpoint.clone());
        let sent = serde_json::from_str::<serde_json::Value>(&body).ok();
        let user = sent.as_ref().map_or_else(
            || UserTurn { role: "user".into(), texts: vec!["(a body that is not JSON)".into()], ..UserTurn::default() },
            UserTurn::of,
        );
        let turn = (user, sent.unwrap_or_default());
        if backend.stream {
            chat.send(backend, body, turn, continue_with);
            return;
        }
        running.set(true);
        chat.notice.set(None);
        spawn_local(async move {
            let reply = http::execute(&backend, body).await;
            running.set(false);
            match reply {
                Reply::Answered { status, millis, body } if status < 300 => {
                    let reading = backend::read(&body);
                    let answer = reading.answer.clone().unwrap_or_else(|| backend::raw_view(&body));
                    chat.answered(turn, Run::answered(answer, reading.memory_id.clone(), reading.usage, millis));
                    if let Some(id) = reading.memory_id {
                        continue_with(id);
                    }
                }
                Reply::Answered { status, body, .. } => chat.notice.set(Some(Status::Rejected {
                    status,
                    reading: backend::read(&body),
                    raw: backend::raw_view(&body),
                })),
                // Not read on: the notice says so ("No readable body").
                Reply::TooLarge { status, .. } => chat.notice.set(Some(Status::Rejected {
                    status,
                    reading: backend::Reading::default(),
                    raw: String::new(),
                })),
                Reply::Unreachable { reason, cross_origin, .. } => {
                    chat.notice.set(Some(Status::Unreachable { reason, cross_origin }));
                }
            }
        });
    };
    let execute = move || {
        if running.get_untracked() || chat.running() {
            return;
        }
        // A run tried: whatever was held back shows.
        editor.release_all();
        if let Some(why) = judged.with_untracked(|v| v.blocked.clone()) {
            status.set(Some(why));
            return;
        }
        send(editor.body_text());
    };
    // A turn's retry: the body it sent again (with the turns before it), sent at once.
    Effect::new(move |_| {
        if let Some(body) = chat.queued.get() {
            chat.queued.set(None);
            if !running.get_untracked() && !chat.running() {
                send(serde_json::to_string(&body).unwrap_or_default());
            }
        }
    });
    let execute_call = move || Ok(backend_state.with_untracked(|b| export::execute_call(b, &editor.body_text())));
    let new_chat = move |_| {
        chat.reset();
        let _ = editor.edit_anywhere(input_form::forget_conversation);
        editor.holds.set(Holds::default());
        status.set(Some("A new conversation: the next turn starts a new memory.".into()));
    };
    let busy = move || running.get() || chat.running();
    let has_turns = move || chat.chat.with(|c| !c.turns.is_empty()) || chat.restore_note.with(Option::is_some);
    let field = move |id: &'static str,
                      label: &'static str,
                      testid: &'static str,
                      kind: &'static str,
                      initial: String,
                      set: fn(&mut Backend, String)| {
        view! {
            <div class="field">
                <label for=id>{label}</label>
                <input type=kind id=id data-testid=testid autocomplete="off" prop:value=initial
                    on:input=move |ev| { let v = event_target_value(&ev); backend_state.update(|b| set(b, v)); } />
            </div>
        }
    };
    let auth = move || backend_state.with(|b| b.auth);
    view! {
        <div class="actions run-bar" data-testid="run-bar" role="group" aria-label="Run">
                <span class="run-summary" data-testid="run-summary" data-tone=move || judged.with(|v| v.tone.as_str())>{move || judged.with(|v| v.text.clone())}</span>
                <button type="button" id="execute-button" class="primary" data-testid="execute-button" disabled=busy
                    on:click=move |_| execute()
                    aria-disabled=move || blocked().is_some().to_string() aria-describedby="execute-why" title="Ctrl+Enter (⌘+Enter) sends">
                    {move || if busy() { "Executing…" } else { "Execute" }}
                </button>
                <button type="button" data-testid="stop-button" class:hidden=move || !chat.running() on:click=move |_| chat.stop()>"Stop"</button>
                <button type="button" data-testid="chat-new-conversation" class:hidden=move || !has_turns() || busy()
                    on:click=new_chat>"New conversation"</button>
                <span class="hint" id="execute-why" role="status" data-testid="execute-status">
                    {move || blocked().filter(|_| !busy()).or_else(|| status.get())}
                </span>
        </div>
        <section class="pane run" aria-labelledby="execute-title">
        <h2 id="execute-title" class="execute-title">"Run the agent input"</h2>
        <p class="hint">"Execute sends the agent input above to the agent's "<code>"_execute"</code>", not the provider request."</p>
        <form class="execute" aria-labelledby="execute-title" on:submit=move |ev| { ev.prevent_default(); execute(); }>
            <details class="backend" open=true>
                <summary>"Backend"</summary>
                <div class="row">
                    {field("endpoint", "Endpoint", "endpoint-input", "url", stored.endpoint.clone(), |b, v| b.endpoint = v)}
                    {field("agent-id", "Agent id", "agent-id-input", "text", stored.agent_id.clone(), |b, v| b.agent_id = v)}
                </div>
                <div class="row">
                    <div class="field">
                        <label for="auth">"Auth"</label>
                        <select id="auth" data-testid="auth-select" on:change=move |ev| {
                            let v = match event_target_value(&ev).as_str() { "basic" => Auth::Basic, "bearer" => Auth::Bearer, _ => Auth::None };
                            backend_state.update(|b| b.auth = v);
                        }>
                            <option value="none" selected=stored.auth == Auth::None>"None"</option>
                            <option value="basic" selected=stored.auth == Auth::Basic>"Basic"</option>
                            <option value="bearer" selected=stored.auth == Auth::Bearer>"Bearer token"</option>
                        </select>
                    </div>
                    <div class="field" class:hidden=move || auth() != Auth::Basic>
                        <label for="username">"Username"</label>
                        <input type="text" id="username" autocomplete="username" prop:value=stored.username.clone()
                            on:input=move |ev| { let v = event_target_value(&ev); backend_state.update(|b| b.username = v); } />
                    </div>
                    <div class="field" class:hidden=move || auth() == Auth::None>
                        <label for="secret">{move || if auth() == Auth::Basic { "Password" } else { "Token" }}</label>
                        <input type="password" id="secret" data-testid="secret-input" autocomplete="off" prop:value=stored.secret.clone()
                            on:input=move |ev| { let v = event_target_value(&ev); backend_state.update(|b| b.secret = v); } />
                    </div>
                </div>
                <label class="check" class:hidden=move || auth() == Auth::None>
                    <input type="checkbox" data-testid="remember-secret" prop:checked=stored.remember
                        on:change=move |ev| { let v = event_target_checked(&ev); backend_state.update(|b| b.remember = v); } />
                    <span>" Remember the password or token in this browser"</span>
                </label>
                <label class="check">
                    <input type="checkbox" data-testid="stream-toggle" prop:checked=stored.stream
                        on:change=move |ev| { let v = event_target_checked(&ev); backend_state.update(|b| b.stream = v); } />
                    <span>" Stream the answer (AG-UI events from "<code>"_execute/stream"</code>")"</span>
                </label>
                {code_export("execute-code", "the Execute call", execute_call)}
            </details>
        </form>
        </section>
    }
}
