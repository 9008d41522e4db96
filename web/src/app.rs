//! The page: build | validation | output, and the execute panel.

use std::sync::Arc;

use agent_input::ProviderId;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;
use wasm_bindgen::JsCast;

use crate::analysis::{self, Analysis, Output, Settings, human_bytes};
use crate::backend::{self, Auth, Backend, Outcome};
use crate::model::Form;
use crate::state::{Ctx, View};
use crate::{examples, forms, jsonpos, media, share};

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(crate) fn App() -> impl IntoView {
    let ctx = Ctx::new();
    provide_context(ctx);
    if let Some((schema, on)) = crate::schema::load_stored() {
        ctx.settings.update(|s| {
            s.schema = schema;
            s.schema_on = on;
        });
    }
    let share_note = RwSignal::new(None::<String>);

    let hash = window().location().hash().unwrap_or_default();
    if let Some((request, mut settings, omitted)) = share::decode(&hash) {
        // A link without a schema keeps the one this browser has.
        if settings.schema.is_empty() {
            ctx.settings.with_untracked(|s| {
                settings.schema.clone_from(&s.schema);
                settings.schema_on = s.schema_on;
            });
        }
        ctx.settings.set(settings);
        if omitted > 0 {
            share_note.set(Some(format!(
                "Loaded from a share link. {omitted} large media payload(s) were left out of the link; add the files again."
            )));
        }
        // After the editor exists, so the JSON view can be filled.
        request_animation_frame(move || ctx.load(request));
    } else {
        ctx.changed();
    }

    // Files dropped anywhere on the page, and images pasted, become content blocks.
    let drag_over = RwSignal::new(false);
    let _ = window_event_listener(leptos::ev::dragover, move |ev| {
        ev.prevent_default();
        drag_over.set(true);
    });
    let _ = window_event_listener(leptos::ev::dragleave, move |ev| {
        if ev.related_target().is_none() {
            drag_over.set(false);
        }
    });
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        drag_over.set(false);
        let files = media::files(ev.data_transfer().and_then(|d| d.files()));
        add_files(ctx, files);
    });
    let _ = window_event_listener(leptos::ev::paste, move |ev| {
        let files = media::pasted_files(&ev);
        if !files.is_empty() {
            ev.prevent_default();
            add_files(ctx, files);
        }
    });

    // Highlight the fields the diagnostics point at, once the forms are on the page.
    Effect::new(move |_| {
        let analysis = ctx.analysis.get();
        ctx.structure.track();
        ctx.view.track();
        request_animation_frame(move || highlight(&analysis));
    });
    // The schema editor's settings are kept in this browser; turning it on loads the validator.
    Effect::new(move |_| {
        let (schema, on) = ctx.settings.with(|s| (s.schema.clone(), s.schema_on));
        crate::schema::store(&schema, on);
        if on {
            crate::schema::ensure_loaded(ctx);
        }
    });
    // Conversion settings feed the output at once.
    Effect::new(move |first: Option<()>| {
        ctx.settings.track();
        if first.is_some() {
            ctx.changed();
        }
    });

    view! {
        <div class="app" class:dragging=move || drag_over.get()
            data-rev=move || ctx.rev.get().to_string() data-analyzed-rev=move || ctx.analyzed_rev.get().to_string()
            data-analysis-ms=move || format!("{:.1}", ctx.analysis_ms.get())>
            <header class="topbar">
                <h1><span class="logo" aria-hidden="true">"{ }"</span>" agent-input "<span class="muted">"playground"</span></h1>
                <Toolbar share_note />
            </header>
            {move || share_note.get().map(|n| view! {
                <p class="banner" role="status" data-testid="share-note">
                    <span>{n}</span>
                    <button type="button" class="icon" aria-label="Dismiss" on:click=move |_| share_note.set(None)>"✕"</button>
                </p>
            })}
            <main class="panes">
                <section class="pane build" aria-labelledby="build-title"><BuildPane /></section>
                <section class="pane validation" aria-labelledby="validation-title"><ValidationPane /></section>
                <section class="pane output" aria-labelledby="output-title"><OutputPane /><ExecutePane /></section>
            </main>
            <div class="drop-overlay" aria-hidden="true">"Drop files to add them as content blocks"</div>
        </div>
    }
}

fn add_files(ctx: Ctx, files: Vec<web_sys::File>) {
    if files.is_empty() {
        return;
    }
    spawn_local(async move {
        for file in files {
            match media::read(file).await {
                Ok(read) => {
                    if let Some(url) = read.preview {
                        ctx.previews.update_value(|p| {
                            p.insert(read.preview_key, url);
                        });
                    }
                    ctx.add_block(read.block);
                }
                Err(why) => ctx.notice.set(Some(why)),
            }
        }
    });
}

#[component]
fn Toolbar(share_note: RwSignal<Option<String>>) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let examples = StoredValue::new(examples::all());
    let options: Vec<_> = examples.with_value(|all| {
        all.iter()
            .enumerate()
            .map(|(i, e)| view! { <option value=i.to_string() title=e.source.clone()>{e.label.clone()}</option> })
            .collect()
    });
    let on_example = move |ev: leptos::ev::Event| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        if let Ok(i) = select.value().parse::<usize>()
            && let Some(example) = examples.with_value(|all| all.get(i).cloned())
        {
            ctx.load(example.request);
            share_note.set(Some(format!("Example from {}.", example.source)));
        }
        select.set_value("");
    };
    let link = RwSignal::new(None::<String>);
    let on_share = move |_| match ctx.body_value() {
        Ok(body) => {
            let (fragment, count, chars) = share::encode(&body, &ctx.settings.get_untracked());
            let location = window().location();
            let url = format!(
                "{}{}{fragment}",
                location.origin().unwrap_or_default(),
                location.pathname().unwrap_or_default()
            );
            let note = if count > 0 {
                format!(
                    " {count} media payload(s) ({} of base64) were left out of the link; whoever opens it adds them again.",
                    human_bytes(chars)
                )
            } else {
                String::new()
            };
            copy(url.clone(), share_note, format!("Share link copied.{note}"));
            link.set(Some(url));
        }
        Err(why) => share_note.set(Some(format!("No share link: {why}"))),
    };
    view! {
        <div class="toolbar">
            <label class="visually-hidden" for="examples">"Load an example"</label>
            <select id="examples" data-testid="example-select" on:change=on_example>
                <option value="" selected=true>"Examples…"</option>
                {options}
            </select>
            <button type="button" data-testid="share-button" on:click=on_share>"Share link"</button>
            {move || link.get().map(|l| view! {
                <label class="visually-hidden" for="share-link">"Share link"</label>
                <input id="share-link" class="share-link" data-testid="share-link" readonly=true prop:value=l />
            })}
        </div>
    }
}

/// Copies text, reporting into `status`.
fn copy(text: String, status: RwSignal<Option<String>>, done: String) {
    let clipboard = window().navigator().clipboard();
    spawn_local(async move {
        match wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text)).await {
            Ok(_) => status.set(Some(done)),
            Err(_) => status.set(Some("The browser refused access to the clipboard.".into())),
        }
    });
}

#[component]
fn BuildPane() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let tab = move |view: View, id: &'static str, label: &'static str| {
        view! {
            <button type="button" role="tab" id=format!("tab-{id}") data-testid=format!("form-{id}")
                aria-selected=move || (ctx.view.get() == view).to_string()
                class:active=move || ctx.view.get() == view
                on:click=move |_| ctx.switch(view)>{label}</button>
        }
    };
    let tabs: Vec<_> = Form::ALL.iter().map(|f| tab(View::Form(*f), f.id(), f.label())).collect();
    let on_image = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        add_files(ctx, media::files(input.files()));
        input.set_value("");
    };
    let on_file = move |ev: leptos::ev::Event| {
        let input: web_sys::HtmlInputElement = event_target(&ev);
        add_files(ctx, media::files(input.files()));
        input.set_value("");
    };
    view! {
        <h2 id="build-title">"Build"</h2>
        <div class="tabs" role="tablist" aria-label="Input form">{tabs}{tab(View::Json, "json", "JSON")}</div>
        {move || ctx.notice.get().map(|n| view! { <p class="notice" role="alert" data-testid="notice">{n}</p> })}
        <div class="media-bar">
            <label class="file-button" for="image-upload">"Add image…"</label>
            <input type="file" id="image-upload" class="visually-hidden" accept="image/*" multiple=true data-testid="image-upload" on:change=on_image />
            <label class="file-button" for="file-upload">"Add file…"</label>
            <input type="file" id="file-upload" class="visually-hidden" multiple=true data-testid="file-upload" on:change=on_file />
            <span class="hint">"or drop files, or paste an image"</span>
        </div>
        <div class="form-area" class:hidden=move || ctx.view.get() == View::Json>
            {move || {
                ctx.structure.track();
                match ctx.view.get() {
                    View::Form(form) => forms::render(ctx, form),
                    View::Json => ().into_any(),
                }
            }}
        </div>
        <div class="json-area" class:hidden=move || ctx.view.get() != View::Json>
            <label for="json-editor">"Request body"</label>
            <textarea id="json-editor" class="code" data-testid="json-editor" data-path="" spellcheck="false"
                autocomplete="off" node_ref=ctx.json_ref on:input=move |_| ctx.changed()></textarea>
            {move || ctx.analysis.get().json_error_at.map(|(line, column)| view! {
                <p class="field-problem" data-testid="json-error-at">{format!("The JSON breaks at line {line}, column {column}.")}</p>
            })}
            {move || (ctx.schema_form.get().is_some()).then(|| view! {
                <p class="hint">"The form the schema generates for the parameters is in the form views."</p>
            })}
        </div>
        <crate::schema::SchemaEditor />
    }
}

fn summary(a: &Analysis, pending: bool) -> String {
    use std::fmt::Write as _;
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    let errors = a.errors.len() + a.violations().len();
    let mut text = match (a.all_valid(), errors) {
        (true, _) => "Valid".to_string(),
        (false, 0) => "The schema has errors".to_string(),
        (false, n) => count(n, "error"),
    };
    if errors > 0 && a.schema_problems() > 0 {
        text.push_str(" · the schema has errors");
    }
    if let Some(t) = a.input_type {
        let _ = write!(text, " · {t}");
    }
    if !a.warnings.is_empty() {
        let _ = write!(text, " · {}", count(a.warnings.len(), "warning"));
    }
    if pending {
        text.push_str(" · checking…");
    }
    text
}

fn diagnostic_items(ctx: Ctx, list: &[agent_input::Diagnostic], testid: &'static str) -> Vec<AnyView> {
    list.iter()
        .map(|d| {
            let path = d.path.to_string();
            let severity = match d.severity() {
                agent_input::Severity::Error => "error",
                agent_input::Severity::Warning => "warning",
            };
            let shown = if path.is_empty() { "/".to_string() } else { path.clone() };
            let target = path.clone();
            // The diagnostic's data, for tools and tests (the message says it in words).
            let expected = (!d.expected.is_empty()).then(|| serde_json::to_string(&d.expected).unwrap_or_default());
            let received = d.received.clone();
            let limit = d.limit.map(|n| n.to_string());
            let actual = d.actual.map(|n| n.to_string());
            view! {
                <li data-testid=testid data-code=d.code.as_str() data-path=path data-severity=severity class=severity
                    data-expected=expected data-received=received data-limit=limit data-actual=actual>
                    <button type="button" class="diagnostic" on:click=move |_| go_to(ctx, &target)>
                        <span class="badge">{severity}</span>
                        <code class="code-name">{d.code.as_str()}</code>
                        <code class="path">{shown}</code>
                        <span class="message">{d.message.clone()}</span>
                    </button>
                </li>
            }
            .into_any()
        })
        .collect()
}

/// The schema's violations, listed like the core's diagnostics.
fn finding_items(ctx: Ctx, list: &[crate::schema::Finding]) -> Vec<AnyView> {
    list.iter()
        .map(|f| {
            let shown = if f.path.is_empty() { "/".to_string() } else { f.path.clone() };
            let target = f.path.clone();
            let expected = (!f.expected.is_empty()).then(|| serde_json::to_string(&f.expected).unwrap_or_default());
            view! {
                <li data-testid="validation-error" data-code=f.code.clone() data-path=f.path.clone() data-severity="error"
                    data-schema-path=f.schema_path.clone() data-expected=expected data-received=f.received.clone() class="error">
                    <button type="button" class="diagnostic" on:click=move |_| go_to(ctx, &target)>
                        <span class="badge">"error"</span>
                        <code class="code-name">{f.code.clone()}</code>
                        <code class="path">{shown}</code>
                        <span class="message">{f.message.clone()}</span>
                    </button>
                </li>
            }
            .into_any()
        })
        .collect()
}

#[component]
fn ValidationPane() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let pending = move || ctx.rev.get() != ctx.analyzed_rev.get();
    view! {
        <h2 id="validation-title">"Validation"</h2>
        <p class="summary" data-testid="validation-summary" class:valid=move || ctx.analysis.get().all_valid() aria-live="polite"
            data-valid=move || ctx.analysis.get().all_valid().to_string()
            data-input-type=move || ctx.analysis.get().input_type.unwrap_or("null")>
            {move || summary(&ctx.analysis.get(), pending())}
        </p>
        <ul class="diagnostics" data-testid="validation-errors">
            {move || {
                let a = ctx.analysis.get();
                let mut items = diagnostic_items(ctx, &a.errors, "validation-error");
                items.extend(finding_items(ctx, a.violations()));
                items.extend(diagnostic_items(ctx, &a.warnings, "validation-error"));
                items
            }}
        </ul>
        {move || {
            let a = ctx.analysis.get();
            (a.all_valid() && a.warnings.is_empty()).then(|| view! { <p class="hint">"No errors or warnings."</p> })
        }}
        {move || ctx.analysis.get().schema.clone().map(|s| view! {
            <h3>"Formatted prompt"</h3>
            <p class="hint">"What the model receives with the schema: the other parameters in an "<code>"<inputs>"</code>" block, then the prompt."</p>
            {match (s.prompt, s.pending, s.json_error.is_some() || !s.problems.is_empty()) {
                (Some(prompt), _, _) => view! { <pre class="question" data-testid="formatted-prompt">{prompt}</pre> }.into_any(),
                (None, Some(why), _) => view! { <p class="hint" data-testid="formatted-prompt-status">{why}</p> }.into_any(),
                (None, None, true) => view! { <p class="hint" data-testid="formatted-prompt-status">"Fix the schema first."</p> }.into_any(),
                (None, None, false) => view! { <p class="hint" data-testid="formatted-prompt-status">"Fix the parameters' violations to see the prompt."</p> }.into_any(),
            }}
        })}
        {move || ctx.analysis.get().question.clone().map(|q| view! {
            <h3>"Question"</h3>
            <p class="hint">"What ml-commons' runners read as "<code>"question"</code>"."</p>
            <pre class="question" data-testid="question">{q}</pre>
        })}
    }
}

/// Marks the fields diagnostics point at (the nearest field on the path when none is exact).
fn highlight(analysis: &Analysis) {
    let fields = fields();
    for el in &fields {
        let _ = el.class_list().remove_2("has-error", "has-warning");
        let _ = el.remove_attribute("aria-invalid");
    }
    let mark = |list: &[agent_input::Diagnostic], class: &str| {
        for d in list {
            if let Some(el) = nearest(&fields, &d.path.to_string()) {
                let _ = el.class_list().add_1(class);
                if class == "has-error" {
                    let _ = el.set_attribute("aria-invalid", "true");
                }
            }
        }
    };
    mark(&analysis.warnings, "has-warning");
    mark(&analysis.errors, "has-error");
    for violation in analysis.violations() {
        if let Some(el) = nearest(&fields, &violation.path) {
            let _ = el.class_list().add_1("has-error");
            let _ = el.set_attribute("aria-invalid", "true");
        }
    }
}

fn fields() -> Vec<web_sys::Element> {
    let Ok(list) = document().query_selector_all(".form-area [data-path]") else { return Vec::new() };
    (0..list.length()).filter_map(|i| list.get(i)).filter_map(|n| n.dyn_into().ok()).collect()
}

fn nearest(fields: &[web_sys::Element], path: &str) -> Option<web_sys::Element> {
    let mut path = path.to_string();
    loop {
        if let Some(el) = fields.iter().find(|el| el.get_attribute("data-path").as_deref() == Some(path.as_str())) {
            return Some(el.clone());
        }
        path = path.rsplit_once('/')?.0.to_string();
    }
}

/// Takes the user to what a diagnostic is about: the field, or the value in the JSON editor.
fn go_to(ctx: Ctx, path: &str) {
    if ctx.view.get_untracked() == View::Json {
        let Some(textarea) = ctx.json_ref.get_untracked() else { return };
        let text = textarea.value();
        let range = match ctx.analysis.get_untracked().json_error_at {
            Some((line, column)) => {
                let start =
                    text.split_inclusive('\n').take(line - 1).map(str::len).sum::<usize>() + column.saturating_sub(1);
                let start = start.min(text.len());
                Some((start, start))
            }
            None => jsonpos::locate(&text, path),
        };
        if let Some((start, end)) = range {
            let utf16 = |byte: usize| {
                let mut b = byte.min(text.len());
                while !text.is_char_boundary(b) {
                    b -= 1;
                }
                u32::try_from(text[..b].encode_utf16().count()).unwrap_or(u32::MAX)
            };
            let _ = textarea.focus();
            let _ = textarea.set_selection_range(utf16(start), utf16(end));
            // Scroll the selection into view: the line's share of the text's height.
            let line = text[..start.min(text.len())].matches('\n').count();
            let lines = text.matches('\n').count().max(1);
            #[allow(clippy::cast_precision_loss)]
            let top = f64::from(textarea.scroll_height()) * (line as f64 / lines as f64) - 60.0;
            textarea.set_scroll_top(top.max(0.0).round() as i32);
        }
        return;
    }
    if let Some(el) = nearest(&fields(), path) {
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Center);
        el.scroll_into_view_with_scroll_into_view_options(&options);
        if let Ok(html) = el.dyn_into::<web_sys::HtmlElement>() {
            let _ = html.focus();
            let _ = html.class_list().add_1("flash");
            set_timeout(
                move || {
                    let _ = html.class_list().remove_1("flash");
                },
                std::time::Duration::from_millis(900),
            );
        }
    }
}

fn setting_field(
    id: &'static str,
    label: &'static str,
    initial: String,
    placeholder: &'static str,
    set: impl Fn(&mut Settings, String) + Copy + 'static,
) -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    view! {
        <div class="field">
            <label for=id>{label}</label>
            <input type="text" id=id inputmode="decimal" placeholder=placeholder prop:value=initial
                on:input=move |ev| { let v = event_target_value(&ev); ctx.settings.update(|s| set(s, v)); } />
        </div>
    }
}

#[component]
fn OutputPane() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let initial = ctx.settings.get_untracked();
    let providers: Vec<_> = ProviderId::ALL
        .iter()
        .map(|p| view! { <option value=p.as_str() selected=*p == initial.provider>{p.display_name()}</option> })
        .collect();
    let status = RwSignal::new(None::<String>);
    let provider_name = move || ctx.settings.with(|s| s.provider.display_name());
    let on_copy = move |_| {
        let settings = ctx.settings.get_untracked();
        match ctx.body_value().and_then(|v| analysis::full_body(&v, &settings)) {
            Ok(body) => {
                let size = human_bytes(body.len());
                copy(body, status, format!("Copied the whole {} request ({size}).", settings.provider.display_name()));
            }
            Err(why) => status.set(Some(format!("Nothing to copy: {why}."))),
        }
    };
    view! {
        <h2 id="output-title">"Provider request"</h2>
        <p class="hint">"The "<strong data-testid="output-provider">{provider_name}</strong>" request body for this input (choose the provider in the settings)."</p>
        {move || ctx.analysis.with(|a| a.schema.as_ref().is_some_and(|s| s.prompt.is_some())).then(|| view! {
            <p class="hint" data-testid="output-schema-note">"With an agent's schema, agent-gateway adds the formatted prompt's "<code>"<inputs>"</code>" block to the input before converting; this shows the input as given."</p>
        })}
        <details class="settings">
            <summary>"Conversion settings"</summary>
            <div class="field">
                <label for="provider">"Provider"</label>
                <select id="provider" data-testid="provider-select" on:change=move |ev| {
                    if let Some(p) = ProviderId::parse(&event_target_value(&ev)) { ctx.settings.update(|s| s.provider = p); }
                }>{providers}</select>
            </div>
            <div class="field">
                <label for="system-prompt">"System prompt"</label>
                <textarea id="system-prompt" data-testid="system-prompt" rows="2" prop:value=initial.system.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); ctx.settings.update(|s| s.system = v); }></textarea>
            </div>
            <div class="row">
                {setting_field("max-tokens", "Max tokens", initial.max_tokens.clone(), "4096", |s, v| s.max_tokens = v)}
                {setting_field("temperature", "Temperature", initial.temperature.clone(), "0–1", |s, v| s.temperature = v)}
                {setting_field("top-p", "Top p", initial.top_p.clone(), "0–1", |s, v| s.top_p = v)}
            </div>
            <div class="field">
                <label for="stop-sequences">"Stop sequences (one a line)"</label>
                <textarea id="stop-sequences" rows="2" prop:value=initial.stop_sequences.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); ctx.settings.update(|s| s.stop_sequences = v); }></textarea>
            </div>
            <div class="field">
                <label for="tools">"Tools (JSON array of {name, description, input_schema})"</label>
                <textarea id="tools" class="code" data-testid="tools" rows="3" spellcheck="false" prop:value=initial.tools.clone()
                    on:input=move |ev| { let v = event_target_value(&ev); ctx.settings.update(|s| s.tools = v); }></textarea>
            </div>
            <label class="check">
                <input type="checkbox" data-testid="allow-prefill" prop:checked=initial.allow_prefill
                    on:change=move |ev| { let v = event_target_checked(&ev); ctx.settings.update(|s| s.allow_prefill = v); } />
                " Allow a final assistant message (prefill)"
            </label>
        </details>
        {move || {
            let a: Arc<Analysis> = ctx.analysis.get();
            match &a.output {
                Output::Invalid => view! {
                    <p class="hint" data-testid="converse-status">"Fix the input's errors to see the " {provider_name()} " request."</p>
                    <pre class="code-output empty" data-testid="converse-output"></pre>
                }.into_any(),
                Output::Converted { view, warnings } => view! {
                    <ul class="diagnostics">{diagnostic_items(ctx, warnings, "conversion-warning")}</ul>
                    <pre class="code-output" data-testid="converse-output" tabindex="0" aria-label="Provider request body">{view.clone()}</pre>
                }.into_any(),
                Output::Failed(report) => view! {
                    <p class="hint" data-testid="converse-status">{provider_name()} " cannot take this input:"</p>
                    <ul class="diagnostics">
                        {diagnostic_items(ctx, &report.errors, "conversion-error")}
                        {diagnostic_items(ctx, &report.warnings, "conversion-warning")}
                    </ul>
                    <pre class="code-output empty" data-testid="converse-output"></pre>
                }.into_any(),
            }
        }}
        <div class="actions">
            <button type="button" data-testid="copy-body" on:click=on_copy>"Copy request"</button>
            <span class="hint" role="status">{move || status.get()}</span>
        </div>
    }
}

#[component]
fn ExecutePane() -> impl IntoView {
    let ctx = expect_context::<Ctx>();
    let origin = window().location().origin().unwrap_or_default();
    let stored = backend::load().unwrap_or_else(|| Backend {
        endpoint: origin.clone(),
        agent_id: "echo".into(),
        ..Backend::default()
    });
    let backend_state = RwSignal::new(stored.clone());
    Effect::new(move |_| backend_state.with(backend::save));
    let running = RwSignal::new(false);
    let result = RwSignal::new(None::<(Outcome, backend::Reading, String)>);
    let status = RwSignal::new(None::<String>);

    let execute = move || {
        if running.get_untracked() {
            return;
        }
        running.set(true);
        let backend = backend_state.get_untracked();
        let body = ctx.body_text();
        spawn_local(async move {
            let outcome = backend::execute(backend, body).await;
            let (reading, raw) = match &outcome {
                Outcome::Answered { body, .. } => {
                    let raw = match serde_json::from_str::<Value>(body) {
                        Ok(mut v) => {
                            analysis::shorten(&mut v);
                            serde_json::to_string_pretty(&v).unwrap_or_default()
                        }
                        Err(_) => body.chars().take(20_000).collect(),
                    };
                    (backend::read(body), raw)
                }
                Outcome::Unreachable { .. } => (backend::Reading::default(), String::new()),
            };
            result.set(Some((outcome, reading, raw)));
            running.set(false);
        });
    };
    let on_curl = move |_| {
        let curl = backend_state.with_untracked(|b| b.curl(&ctx.body_text()));
        copy(curl, status, "Copied as curl (credentials as $AGENT_TOKEN / $AGENT_PASSWORD).".into());
    };
    let continue_with = move |memory_id: String| {
        let reset = ctx.edit_anywhere(|doc| {
            crate::model::set(doc, "/parameters/memory_id", Value::String(memory_id));
            let next = match crate::model::form_of(doc) {
                Some(Form::Blocks) => serde_json::json!([{"type": "text", "text": ""}]),
                Some(Form::Messages) => {
                    serde_json::json!([{"role": "user", "content": [{"type": "text", "text": ""}]}])
                }
                Some(Form::Legacy) => {
                    crate::model::set(doc, "/parameters/question", Value::String(String::new()));
                    return;
                }
                _ => Value::String(String::new()),
            };
            crate::model::set(doc, "/input", next);
        });
        if let Err(why) = reset {
            status.set(Some(why));
        } else {
            status.set(Some("Continuing the conversation: type the next turn.".into()));
        }
    };
    let new_conversation = move |_| {
        let _ = ctx.edit_anywhere(|doc| {
            crate::model::remove(doc, "/parameters/memory_id");
            if doc.get("parameters").and_then(Value::as_object).is_some_and(serde_json::Map::is_empty) {
                crate::model::remove(doc, "/parameters");
            }
        });
        result.set(None);
    };
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
            <div class="actions">
                <button type="submit" class="primary" data-testid="execute-button" disabled=move || running.get()>
                    {move || if running.get() { "Executing…" } else { "Execute" }}
                </button>
                <button type="button" data-testid="copy-curl" on:click=on_curl>"Copy as curl"</button>
                <span class="hint" role="status">{move || status.get()}</span>
            </div>
        </form>
        {move || result.get().map(|(outcome, reading, raw)| {
            let current = backend_state.get_untracked();
            let (status_text, status_class, millis) = match &outcome {
                Outcome::Answered { status, millis, .. } => (
                    status.to_string(),
                    if *status < 300 { "ok" } else { "bad" },
                    *millis,
                ),
                Outcome::Unreachable { millis, .. } => ("no response".to_string(), "bad", *millis),
            };
            let unreachable = match &outcome {
                Outcome::Unreachable { reason, cross_origin, .. } => {
                    let origin = window().location().origin().unwrap_or_default();
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
                Outcome::Answered { .. } => None,
            };
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
                        <span class="muted">{format!(" {millis:.0} ms")}</span>
                    </p>
                    {unreachable}
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
