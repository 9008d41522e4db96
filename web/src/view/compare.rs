//! The compare view: the current input converted for every provider side by side, each its
//! body (long base64 shortened) or why it cannot take the input. Computed only while open.

use std::sync::Arc;

use leptos::prelude::*;

use super::copy::copy;
use super::diagnostics::diagnostic_items;
use crate::model::analysis::{Analysis, Conversion, full_body};
use crate::model::verdict::{Tone, Verdict};
use crate::state::{Analyzer, Editor};

/// Every provider's request for the input, side by side; opening it starts the extra analysis.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ComparePane(editor: Editor, analyzer: Analyzer, judged: Signal<Verdict>) -> impl IntoView {
    let analysis = analyzer.analysis;
    let status = RwSignal::new(None::<String>);
    // Takes it / refuses it, every provider in one line.
    let summary = move || {
        let a = analysis.get();
        let all = a.compare.as_ref()?;
        let (takes, refuses): (Vec<_>, Vec<_>) =
            all.iter().partition(|(_, c)| matches!(c, Conversion::Converted { .. }));
        let names = |list: &[&(agent_input::ProviderId, Conversion)]| {
            list.iter().map(|(p, _)| p.display_name()).collect::<Vec<_>>().join(", ")
        };
        Some(view! {
            <p class="compare-summary" data-testid="compare-summary">
                {(!takes.is_empty()).then(|| view! { <span class="takes">{format!("✓ Takes it: {}", names(&takes))}</span> })}
                {(!refuses.is_empty()).then(|| view! { <span class="refuses">{format!("✗ Refuses it: {}", names(&refuses))}</span> })}
            </p>
        })
    };
    let open = analyzer.compare_open;
    let on_toggle = move |ev: leptos::ev::Event| {
        let now_open = event_target::<web_sys::Element>(&ev).has_attribute("open");
        if now_open != open.get_untracked() {
            open.set(now_open);
            editor.changed();
        }
    };
    let columns = move || {
        let a: Arc<Analysis> = analysis.get();
        match &a.compare {
            None if !open.get() => Vec::new(),
            None => vec![view! {
                <p class="hint" data-testid="compare-status">{move || match judged.with(|v| v.tone) {
                    Tone::Waiting => "Fill in the input to compare the providers' requests.",
                    _ => "Fix the input's errors to compare the providers' requests.",
                }}</p>
            }
            .into_any()],
            Some(all) => all
                .iter()
                .map(|(provider, conversion)| {
                    let (state, content) = match conversion {
                        Conversion::Invalid => ("invalid", view! { <p class="hint">"The input has errors."</p> }.into_any()),
                        Conversion::Converted { view, warnings } => (
                            "converted",
                            view! {
                                <ul class="diagnostics">{diagnostic_items(editor, analysis, warnings, "compare-warning", None)}</ul>
                                <pre class="code-output" data-testid="compare-body" tabindex="0"
                                    aria-label=format!("{} request body", provider.display_name())>{view.clone()}</pre>
                                <button type="button" class="small" data-testid="compare-copy"
                                    aria-label=format!("Copy the {} request", provider.display_name())
                                    on:click={
                                        let provider = *provider;
                                        move |_| {
                                            let mut settings = analyzer.settings.get_untracked();
                                            settings.provider = provider;
                                            match editor.body_value().and_then(|v| full_body(&v, &settings)) {
                                                Ok(body) => copy(body, status, format!("Copied the {} request.", provider.display_name())),
                                                Err(why) => status.set(Some(format!("Nothing to copy: {why}."))),
                                            }
                                        }
                                    }>"Copy"</button>
                            }
                            .into_any(),
                        ),
                        Conversion::Failed(report) => (
                            "failed",
                            view! {
                                <p class="hint">{provider.display_name()} " cannot take this input:"</p>
                                <ul class="diagnostics">
                                    {diagnostic_items(editor, analysis, &report.errors, "compare-error", None)}
                                    {diagnostic_items(editor, analysis, &report.warnings, "compare-warning", None)}
                                </ul>
                            }
                            .into_any(),
                        ),
                    };
                    view! {
                        <article class="compare-column" data-testid="compare-provider" data-provider=provider.as_str() data-state=state>
                            <h3>{provider.display_name()} <span class=format!("status {}", if state == "converted" { "ok" } else { "bad" })>
                                {if state == "converted" { "takes it" } else { "refuses" }}</span></h3>
                            {content}
                        </article>
                    }
                    .into_any()
                })
                .collect(),
        }
    };
    view! {
        <details class="compare" data-testid="compare" on:toggle=on_toggle>
            <summary id="compare-title">"Compare providers"</summary>
            <p class="hint">"The input converted for every provider with the current settings: each one's request body, or why it cannot take the input."</p>
            {summary}
            <p class="hint" role="status" data-testid="compare-copy-status">{move || status.get()}</p>
            <div class="compare-grid">{columns}</div>
        </details>
    }
}
