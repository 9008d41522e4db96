//! The streamed conversation: each turn the user's side (text, images as thumbnails, other
//! media as chips) and the assistant's answer growing as its events arrive (text, reasoning, tool
//! calls), how the run ended, and its AG-UI event log with timings.
//!
//! Turns and log lines are keyed lists: a chunk's events add to the page, nothing already shown
//! is rebuilt (an open event log stays open while the answer streams).

use std::fmt::Write as _;

use leptos::prelude::*;

use crate::browser::page;
use crate::model::backend::MAX_ANSWER_BYTES;
use crate::model::chat::{LogEntry, Media, Part, Status, Turn, history};
use crate::model::display::{fixed, human_bytes};
use crate::model::input_form;
use crate::model::verdict::Holds;
use crate::state::{ChatState, Editor};
use crate::view::reasoning_badge::reasoning_badge;

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ChatView(chat: ChatState, editor: Editor) -> impl IntoView {
    let count = Memo::new(move |_| chat.chat.with(|c| c.turns.len()));
    // Bumped when a turn is deleted: the turns after it are drawn again (keyed by the epoch in the
    // high bits and the index in the low 20).
    let epoch = RwSignal::new(0_usize);
    // The conversation follows a growing answer while the user is at its end.
    let follow = StoredValue::new(true);
    let on_scroll = move |ev: leptos::ev::Event| {
        let el = event_target::<web_sys::Element>(&ev);
        follow.set_value(el.scroll_height() - el.scroll_top() - el.client_height() < 48);
    };
    Effect::new(move |_| {
        chat.chat.track();
        if follow.get_value() {
            request_animation_frame(|| {
                if let Some(box_) = document().get_element_by_id("conversation") {
                    box_.set_scroll_top(box_.scroll_height());
                }
            });
        }
    });
    view! {
        {move || chat.restore_note.get().map(|n| view! { <p class="notice" data-testid="chat-restore-note">{n}</p> })}
        <div class="chat" id="conversation" data-testid="chat" aria-live="polite" on:scroll=on_scroll>
            <For each=move || { let e = epoch.get().wrapping_shl(20); (0..count.get()).map(move |i| e | i) } key=|k| *k let:key>
                <TurnView chat=chat editor=editor endpoint=chat.endpoint index=key & 0xf_ffff epoch=epoch />
            </For>
        </div>
    }
}

/// Turn `k` sent again at once (retry) or loaded into the composer (edit): the conversation
/// before it and its input, in a new memory; the turns from `k` on leave the transcript.
fn resend(chat: ChatState, editor: Editor, k: usize, now: bool) {
    let Some(body) = chat.chat.with_untracked(|c| history::resend(&c.turns, k)) else { return };
    chat.chat.update(|c| c.turns.truncate(k));
    editor.load(body.clone());
    if now {
        chat.queued.set(Some(body));
    }
}

/// Turn `k` deleted: the turns left carry on in a new memory, a blank message to type next.
fn delete(chat: ChatState, editor: Editor, k: usize, epoch: RwSignal<usize>) {
    chat.chat.update(|c| {
        if k < c.turns.len() {
            c.turns.remove(k);
        }
    });
    epoch.update(|e| *e += 1);
    if let Some(body) = chat.chat.with_untracked(|c| history::without(&c.turns)) {
        let last = body["input"].as_array().map_or(0, Vec::len).saturating_sub(1);
        editor.load(body);
        editor.holds.set(Holds { paths: vec![format!("/input/{last}")], continuing: None });
    } else {
        chat.reset();
        let _ = editor.edit_anywhere(input_form::forget_conversation);
        // A blank composer waits to be filled, as a new field does.
        editor.holds.set(Holds { paths: vec!["/input".into(), "/parameters/question".into()], continuing: None });
    }
}

#[component]
fn TurnView(
    chat: ChatState,
    editor: Editor,
    endpoint: RwSignal<String>,
    index: usize,
    epoch: RwSignal<usize>,
) -> impl IntoView {
    let turn = move |f: &dyn Fn(&Turn) -> String| chat.chat.with(|c| c.turns.get(index).map(f).unwrap_or_default());
    let user = chat.chat.with_untracked(|c| c.turns.get(index).map(|t| t.user.clone())).unwrap_or_default();
    let status = Memo::new(move |_| chat.chat.with(|c| c.turns.get(index).map(|t| t.run.status.clone())));
    let parts =
        Memo::new(move |_| chat.chat.with(|c| c.turns.get(index).map(|t| t.run.parts.clone()).unwrap_or_default()));
    let log_len = Memo::new(move |_| chat.chat.with(|c| c.turns.get(index).map_or(0, |t| t.run.log.len())));
    let earlier = (user.earlier > 0).then(|| {
        view! { <span class="muted">{format!(" (after {} earlier message{})", user.earlier, if user.earlier == 1 { "" } else { "s" })}</span> }
    });
    let texts: Vec<_> = user.texts.iter().map(|t| view! { <p class="said">{t.clone()}</p> }).collect();
    let media: Vec<_> = user.media.iter().map(|m| media_view(editor, m)).collect();
    // The earlier assistant turns sent with reasoning state, and whether the chosen provider gets it.
    let chosen = editor.analyzer().settings.with_untracked(|s| s.provider);
    let reasoning: Vec<_> = user
        .reasoning
        .iter()
        .map(|(n, provider)| {
            view! {
                <li data-message=n.to_string()><span class="muted">{format!("message {n}: ")}</span>
                    {reasoning_badge(provider.clone(), chosen)}</li>
            }
        })
        .collect();
    // A new memory starts where a run's thread differs from the one before it.
    let new_thread = move || {
        chat.chat.with(|c| {
            let this = c.turns.get(index).and_then(|t| t.run.thread_id.as_deref());
            let before = index.checked_sub(1).and_then(|i| c.turns.get(i)).and_then(|t| t.run.thread_id.as_deref());
            match (before, this) {
                (Some(before), Some(this)) if before != this => Some(view! {
                    <p class="thread-break muted">{format!("A new conversation: memory {this}")}</p>
                }),
                _ => None,
            }
        })
    };
    view! {
        {new_thread}
        <div class="turn user" data-testid="chat-user">
            <div class="turn-head">
                <p class="who">{user.role.clone()}{earlier}</p>
                <div class="turn-actions" role="group" aria-label=format!("Turn {}", index + 1)>
                    {[
                        ("retry", "Retry", "Send this turn again, with the turns above it, in a new memory"),
                        ("edit", "Edit", "Load this turn into the composer; the turns from here on leave the conversation"),
                        ("delete", "Delete", "Delete this turn; the others carry on in a new memory"),
                    ]
                    .into_iter()
                    .map(|(action, label, title)| view! {
                        <button type="button" class="small" data-testid=format!("turn-{action}") disabled=move || chat.running()
                            title=title aria-label=format!("{label} turn {}", index + 1)
                            on:click=move |_| match action {
                                "retry" => resend(chat, editor, index, true),
                                "edit" => resend(chat, editor, index, false),
                                _ => delete(chat, editor, index, epoch),
                            }>{label}</button>
                    })
                    .collect::<Vec<_>>()}
                </div>
            </div>
            {texts}
            {(!media.is_empty()).then(|| view! { <div class="media-row">{media}</div> })}
            {(!reasoning.is_empty()).then(|| view! { <ul class="reasoning-states" data-testid="chat-reasoning-states">{reasoning}</ul> })}
        </div>
        <div class="turn assistant" data-testid="chat-assistant"
            data-status=move || status.get().map_or("", |s| status_key(&s))
            data-thread=move || turn(&|t| t.run.thread_id.clone().unwrap_or_default())>
            <p class="who">"assistant"</p>
            {move || parts.get().into_iter().map(part_view).collect::<Vec<_>>()}
            {move || status.get().map(|s| status_view(&s, &endpoint.get_untracked()))}
            <p class="usage" data-testid="chat-usage">{move || turn(&usage)}</p>
            <p class="timing muted" data-testid="chat-timing">{move || turn(&timing)}</p>
            <details class="event-log" data-testid="event-log">
                <summary>{move || {
                    let (n, more, problems) = chat.chat.with(|c| c.turns.get(index).map_or((0, 0, 0), |t| (t.run.log.len(), t.run.unlogged, t.run.problems)));
                    let mut s = format!("AG-UI events ({})", n + more);
                    if problems > 0 {
                        let _ = write!(s, " · {problems} out of protocol");
                    }
                    s
                }}</summary>
                <ol class="events">
                    <For each=move || 0..log_len.get() key=|j| *j let:j>
                        {chat.chat.with_untracked(|c| c.turns.get(index).and_then(|t| t.run.log.get(j).cloned())).map(log_view)}
                    </For>
                </ol>
                {move || turn(&|t| if t.run.unlogged > 0 { format!("… and {} more events, not logged", t.run.unlogged) } else { String::new() })}
            </details>
        </div>
    }
}

fn media_view(editor: Editor, media: &Media) -> AnyView {
    let label = format!("{} {}", media.kind, media.label);
    let url = media
        .preview_key
        .as_ref()
        .and_then(|key| editor.previews.with_value(|p| p.get(key).cloned()))
        .or_else(|| media.inline.clone());
    match url {
        Some(src) => view! {
            <figure class="thumb" data-testid="chat-thumbnail"><img src=src alt=label.clone() /><figcaption>{label}</figcaption></figure>
        }
        .into_any(),
        None => view! { <span class="chip" data-testid="chat-media">{label}</span> }.into_any(),
    }
}

fn part_view(part: Part) -> AnyView {
    match part {
        Part::Text { text, .. } => view! { <p class="answer" data-testid="chat-answer">{text}</p> }.into_any(),
        Part::Reasoning { text, .. } => view! {
            <details class="reasoning" data-testid="chat-reasoning"><summary>"Reasoning"</summary><p>{text}</p></details>
        }
        .into_any(),
        Part::ToolCall { name, args, done, result, .. } => view! {
            <div class="tool-call" data-testid="chat-tool-call" data-name=name.clone() data-done=done.to_string()>
                <span class="badge">"tool call"</span> <code>{name.clone()}</code>
                <pre class="args">{args}</pre>
                {(!done).then(|| view! { <span class="muted">"…"</span> })}
                {result.map(|r| view! { <p class="tool-result"><span class="muted">"result: "</span>{r}</p> })}
            </div>
        }
        .into_any(),
    }
}

fn status_key(status: &Status) -> &'static str {
    match status {
        Status::Waiting => "waiting",
        Status::Streaming => "streaming",
        Status::Finished => "finished",
        Status::RunError { .. } => "error",
        Status::Stopped => "stopped",
        Status::Rejected { .. } => "rejected",
        Status::Unreachable { .. } => "unreachable",
        Status::Broken { .. } => "broken",
    }
}

/// The turn's usage in words: tokens read and written, and how long the run took.
fn usage(turn: &Turn) -> String {
    let run = &turn.run;
    if run.restored {
        return "From the backend's memory.".into();
    }
    let mut parts = Vec::new();
    if let Some((input, output)) = run.usage {
        let tokens = |n: u64, what: &str| format!("{n} {what} token{}", if n == 1 { "" } else { "s" });
        parts.push(tokens(input, "input"));
        parts.push(tokens(output, "output"));
    }
    if let Some(ms) = run.ended_ms {
        parts.push(format!("{} s", fixed(ms / 1000.0, 2)));
    }
    parts.join(" · ")
}

fn timing(turn: &Turn) -> String {
    let run = &turn.run;
    let mut parts = Vec::new();
    if let Some(ms) = run.answered_ms {
        parts.push(format!("response {} ms", fixed(ms, 0)));
    }
    if let Some(first) = run.log.first() {
        parts.push(format!("first event {} ms", fixed(first.millis, 0)));
    }
    if let Some(ms) = run.ended_ms {
        parts.push(format!("ended {} ms", fixed(ms, 0)));
    }
    parts.join(" · ")
}

/// How a run stands or ended, as the turn (or the notice of a run that never started) shows it.
pub(super) fn status_view(status: &Status, endpoint: &str) -> AnyView {
    match status {
        Status::Waiting => view! { <p class="muted">"Waiting for the backend…"</p> }.into_any(),
        Status::Streaming => view! { <p class="muted streaming">"Streaming…"</p> }.into_any(),
        Status::Finished => ().into_any(),
        Status::RunError { message, code } => view! {
            <p class="notice error-notice" data-testid="chat-run-error" data-code=code.clone().unwrap_or_default()>
                "The run failed: "{message.clone()}{code.as_ref().map(|c| format!(" ({c})"))}
            </p>
        }
        .into_any(),
        Status::Stopped => view! {
            <p class="notice" data-testid="chat-stopped">"Stopped: the request was cancelled, the answer above is as far as it got."</p>
        }
        .into_any(),
        Status::Broken { reason } => view! { <p class="notice" data-testid="chat-broken">{reason.clone()}</p> }.into_any(),
        Status::Unreachable { reason, cross_origin } => {
            let origin = page::origin();
            let hint = if *cross_origin {
                format!(
                    "The endpoint is on another origin: if it is running, it must allow this page's origin ({origin}) by CORS — agent-gateway: --cors-origin {origin}."
                )
            } else {
                "Is the backend running?".to_string()
            };
            view! {
                <p class="notice" data-testid="execute-network-error">{format!("Could not reach {endpoint}: {reason}. ")}{hint}</p>
            }
            .into_any()
        }
        Status::Rejected { status, reading, raw } => {
            let details: Vec<_> = reading
                .details
                .iter()
                .map(|(code, path, message)| view! {
                    <li data-testid="execute-error" data-code=code.clone() data-path=path.clone() class="error">
                        <span class="badge">"error"</span><code class="code-name">{code.clone()}</code>
                        <code class="path">{path.clone()}</code><span class="message">{message.clone()}</span>
                    </li>
                })
                .collect();
            let raw = raw.clone();
            let too_large = raw.is_empty() && reading.reason.is_none();
            view! {
                <div class="response" data-testid="execute-response" data-status=status.to_string()>
                    <p class="status-line"><span class="status bad">{status.to_string()}</span><span class="muted">" before any event"</span></p>
                    {reading.reason.clone().map(|r| view! { <p class="notice">{r}</p> })}
                    {(!details.is_empty()).then(|| view! { <ul class="diagnostics">{details}</ul> })}
                    {too_large.then(|| view! { <p class="notice">{format!("No readable body (over {} or empty).", human_bytes(MAX_ANSWER_BYTES))}</p> })}
                    {(!raw.is_empty()).then(|| view! {
                        <details><summary>"Raw response"</summary><pre class="code-output">{raw}</pre></details>
                    })}
                </div>
            }
            .into_any()
        }
    }
}

fn log_view(entry: LogEntry) -> impl IntoView {
    let LogEntry { millis, kind, json, problem } = entry;
    let (type_attr, bad) = (kind.clone(), problem.is_some());
    view! {
        <li data-testid="event" data-type=type_attr data-ms=fixed(millis, 1) class:bad=bad>
            <span class="ms">{format!("{:>7} ms", fixed(millis, 1))}</span>" "
            <code class="type">{kind}</code>" "
            <code class="json">{json}</code>
            {problem.map(|p| view! { <span class="problem" data-testid="event-problem">{p}</span> })}
        </li>
    }
}
