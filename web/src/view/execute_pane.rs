//! The execute panel: the backend's settings (kept in this browser), Execute through
//! `browser::http`, Copy as curl, and the answer: streamed by default (the chat of
//! `view::chat`, Stop, the conversation continued in place with `RUN_STARTED`'s thread id), or
//! with streaming off the `_execute` response (status, answer, error details, raw body) and
//! continuing the conversation with the returned `memory_id`.

use leptos::prelude::*;
use leptos::task::spawn_local;

use super::chat::ChatView;
use super::copy::copy;
use crate::browser::{http, page, storage};
use crate::model::backend::{self, Auth, Backend, Reading, Reply};
use crate::model::chat::UserTurn;
use crate::model::display::human_bytes;
use crate::model::input_form;
use crate::state::{ChatState, Editor};

/// The execute panel: the backend's settings, Execute, Copy as curl, and the response with
/// Continue conversation / New conversation.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ExecutePane(editor: Editor) -> impl IntoView {
    let stored = storage::load::<Backend>(backend::STORAGE_KEY).unwrap_or_else(|| Backend {
        endpoint: page::origin(),
        agent_id: "echo".into(),
        ..Backend::default()
    });
    let backend_state = RwSignal::new(stored.clone());
    Effect::new(move |_| backend_state.with(|b| storage::save(backend::STORAGE_KEY, &b.stored())));
    let running = RwSignal::new(false);
    let result = RwSignal::new(None::<(Reply, Reading, String)>);
    let status = RwSignal::new(None::<String>);
    let chat = ChatState::new();
    let streaming = move || backend_state.with(|b| b.stream);

    let execute = move || {
        if running.get_untracked() || chat.running() {
            return;
        }
        let backend = backend_state.get_untracked();
        let body = editor.body_text();
        if backend.stream {
            let user = serde_json::from_str(&body).map_or_else(
                |_| UserTurn {
                    role: "user".into(),
                    texts: vec!["(a body that is not JSON)".into()],
                    ..UserTurn::default()
                },
                |v| UserTurn::of(&v),
            );
            status.set(None);
            // Finished: the next turn continues the memory in place.
            chat.send(backend, body, user, move |memory_id| {
                match editor.edit_anywhere(|doc| input_form::continue_conversation(doc, memory_id)) {
                    Ok(()) => status.set(Some("Type the next turn: it continues this conversation.".into())),
                    Err(why) => status.set(Some(why)),
                }
            });
            return;
        }
        running.set(true);
        spawn_local(async move {
            let reply = http::execute(&backend, body).await;
            let (reading, raw) = match &reply {
                Reply::Answered { body, .. } => (backend::read(body), backend::raw_view(body)),
                Reply::TooLarge { .. } | Reply::Unreachable { .. } => (Reading::default(), String::new()),
            };
            result.set(Some((reply, reading, raw)));
            running.set(false);
        });
    };
    let on_curl = move |_| {
        let curl = backend_state.with_untracked(|b| b.curl(&editor.body_text()));
        copy(curl, status, "Copied as curl (credentials as $AGENT_TOKEN / $AGENT_PASSWORD).".into());
    };
    let continue_with =
        move |memory_id: String| match editor.edit_anywhere(|doc| input_form::continue_conversation(doc, memory_id)) {
            Ok(()) => status.set(Some("Continuing the conversation: type the next turn.".into())),
            Err(why) => status.set(Some(why)),
        };
    let new_conversation = move |_| {
        let _ = editor.edit_anywhere(input_form::forget_conversation);
        result.set(None);
    };
    let new_chat = move |_| {
        chat.reset();
        let _ = editor.edit_anywhere(input_form::forget_conversation);
        status.set(Some("A new conversation: the next turn starts a new memory.".into()));
    };
    let chat_running = move || chat.running();
    let has_turns = move || chat.chat.with(|c| !c.turns.is_empty());
    let endpoint = Signal::derive(move || backend_state.with(|b| b.endpoint.clone()));
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
        <h2 id="execute-title" class="execute-title">"Execute"</h2>
        <form class="execute" aria-labelledby="execute-title" on:submit=move |ev| { ev.prevent_default(); execute(); }>
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
                " Remember the password or token in this browser"
            </label>
            <label class="check">
                <input type="checkbox" data-testid="stream-toggle" prop:checked=stored.stream
                    on:change=move |ev| { let v = event_target_checked(&ev); backend_state.update(|b| b.stream = v); } />
                " Stream the answer (AG-UI events from "<code>"_execute/stream"</code>")"
            </label>
            <div class="actions">
                <button type="submit" class="primary" data-testid="execute-button" disabled=move || running.get() || chat_running()>
                    {move || if running.get() || chat_running() { "Executing…" } else { "Execute" }}
                </button>
                <button type="button" data-testid="stop-button" class:hidden=move || !chat_running() on:click=move |_| chat.stop()>"Stop"</button>
                <button type="button" data-testid="chat-new-conversation" class:hidden=move || !streaming() || !has_turns() || chat_running()
                    on:click=new_chat>"New conversation"</button>
                <button type="button" data-testid="copy-curl" on:click=on_curl>"Copy as curl"</button>
                <span class="hint" role="status">{move || status.get()}</span>
            </div>
        </form>
        <div class:hidden=move || !streaming()>
            <ChatView chat=chat editor=editor endpoint=endpoint />
        </div>
        {move || result.get().filter(|_| !streaming()).map(|(reply, reading, raw)| {
            let current = backend_state.get_untracked();
            let (status_text, status_class, millis) = match &reply {
                Reply::Answered { status, millis, .. } | Reply::TooLarge { status, millis } => (
                    status.to_string(),
                    if *status < 300 { "ok" } else { "bad" },
                    *millis,
                ),
                Reply::Unreachable { millis, .. } => ("no response".to_string(), "bad", *millis),
            };
            let unreachable = match &reply {
                Reply::Unreachable { reason, cross_origin, .. } => {
                    let origin = page::origin();
                    let hint = if *cross_origin {
                        format!(
                            "The endpoint is on another origin: if it is running, it must allow this page's origin ({origin}) by CORS — agent-gateway: --cors-origin {origin}."
                        )
                    } else {
                        "Is the backend running?".to_string()
                    };
                    Some(view! {
                        <p class="notice" data-testid="execute-network-error">
                            {format!("Could not reach {}: {reason}. ", current.endpoint)}{hint}
                        </p>
                    })
                }
                Reply::Answered { .. } | Reply::TooLarge { .. } => None,
            };
            let too_large = matches!(reply, Reply::TooLarge { .. }).then(|| view! {
                <p class="notice" data-testid="execute-too-large">
                    {format!(
                        "The answer is over the {} the playground reads; it was not read further. \
                         The backend's answer can be read with Copy as curl.",
                        human_bytes(backend::MAX_ANSWER_BYTES)
                    )}
                </p>
            });
            let details: Vec<_> = reading.details.iter().map(|(code, path, message)| view! {
                <li data-testid="execute-error" data-code=code.clone() data-path=path.clone() class="error">
                    <span class="badge">"error"</span><code class="code-name">{code.clone()}</code>
                    <code class="path">{path.clone()}</code><span class="message">{message.clone()}</span>
                </li>
            }).collect();
            let memory = reading.memory_id.clone();
            let status_attr = status_text.clone();
            view! {
                <div class="response" data-testid="execute-response" data-status=status_attr>
                    <p class="status-line">
                        <span class=format!("status {status_class}")>{status_text}</span>
                        <span class="muted">{format!(" {} ms", crate::model::display::fixed(millis, 0))}</span>
                    </p>
                    {unreachable}
                    {too_large}
                    {reading.reason.clone().map(|r| view! { <p class="notice">{r}</p> })}
                    {(!details.is_empty()).then(|| view! { <ul class="diagnostics">{details}</ul> })}
                    {reading.answer.clone().map(|answer| view! {
                        <h3>"Answer"</h3>
                        <p class="answer" data-testid="execute-answer">{answer}</p>
                    })}
                    {memory.map(|id| {
                        let shown = id.clone();
                        view! {
                            <p class="memory">"memory_id " <code data-testid="execute-memory-id">{shown}</code></p>
                            <div class="actions">
                                <button type="button" data-testid="continue-button" on:click=move |_| continue_with(id.clone())>"Continue conversation"</button>
                                <button type="button" data-testid="new-conversation" on:click=new_conversation>"New conversation"</button>
                            </div>
                        }
                    })}
                    {(!raw.is_empty()).then(|| view! {
                        <details><summary>"Raw response"</summary><pre class="code-output" data-testid="execute-raw">{raw}</pre></details>
                    })}
                </div>
            }
        })}
    }
}
