//! The validation pane: the one verdict (the input and the chosen provider), the core's
//! diagnostics and the schema's violations (but for those held back), the provider's problems as
//! their own group, the formatted prompt (with a schema) and the question ml-commons' runners read.

use std::sync::Arc;

use leptos::prelude::*;

use super::diagnostics::{diagnostic_items, finding_items};
use crate::model::analysis::{Analysis, Conversion};
use crate::model::settings::Settings;
use crate::model::verdict::verdict;
use crate::state::Editor;

/// The validation pane: the summary, every diagnostic, the formatted prompt, the question.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ValidationPane(
    editor: Editor,
    analysis: RwSignal<Arc<Analysis>>,
    settings: RwSignal<Settings>,
    rev: RwSignal<u64>,
    analyzed_rev: RwSignal<u64>,
) -> impl IntoView {
    let provider = Memo::new(move |_| settings.with(|s| s.provider.display_name()));
    let shown = Memo::new(move |_| {
        let pending = rev.get() != analyzed_rev.get();
        editor.holds.with(|h| verdict(&analysis.get(), provider.get(), h, pending))
    });
    view! {
        <h2 id="validation-title">"Validation"</h2>
        <p class="summary" data-testid="validation-summary" aria-live="polite"
            class:valid=move || analysis.get().all_valid() class:waiting=move || shown.with(|v| v.tone.as_str() == "waiting")
            data-valid=move || analysis.get().all_valid().to_string()
            data-tone=move || shown.with(|v| v.tone.as_str())
            data-provider-problems=move || shown.with(|v| v.provider_problems.to_string())
            data-input-type=move || analysis.get().input_type.unwrap_or("null")>
            {move || shown.with(|v| v.text.clone())}
        </p>
        <ul class="diagnostics" data-testid="validation-errors">
            {move || {
                let a = analysis.get();
                editor.holds.with(|h| {
                    let errors: Vec<_> = h.shown(&a.errors).into_iter().cloned().collect();
                    let violations: Vec<_> = a.violations().iter().filter(|f| !h.holds(&f.path)).cloned().collect();
                    let warnings: Vec<_> = h.shown(&a.warnings).into_iter().cloned().collect();
                    let mut items = diagnostic_items(editor, analysis, &errors, "validation-error");
                    items.extend(finding_items(editor, analysis, &violations));
                    items.extend(diagnostic_items(editor, analysis, &warnings, "validation-error"));
                    items
                })
            }}
        </ul>
        {move || {
            let a = analysis.get();
            let Conversion::Failed(report) = &a.conversion else { return None };
            let errors: Vec<_> = editor.holds.with(|h| h.shown(&report.errors).into_iter().cloned().collect());
            Some(view! {
                <h3 data-testid="provider-problems-title">{provider.get()}</h3>
                <p class="hint">"What the chosen provider cannot take (the request pane shows the same)."</p>
                <ul class="diagnostics" data-testid="provider-problems">
                    {diagnostic_items(editor, analysis, &errors, "provider-problem")}
                </ul>
            })
        }}
        {move || {
            let a = analysis.get();
            (a.all_valid() && a.warnings.is_empty() && shown.with(|v| v.provider_problems == 0))
                .then(|| view! { <p class="hint">"No errors or warnings."</p> })
        }}
        {move || analysis.get().schema.clone().map(|s| view! {
            <h3>"Formatted prompt"</h3>
            <p class="hint">"What the model receives with the schema: the other parameters in an "<code>"<inputs>"</code>" block, then the prompt."</p>
            {match (s.prompt, s.pending, s.json_error.is_some() || !s.problems.is_empty()) {
                (Some(prompt), _, _) => view! { <pre class="question" data-testid="formatted-prompt">{prompt}</pre> }.into_any(),
                (None, Some(why), _) => view! { <p class="hint" data-testid="formatted-prompt-status">{why}</p> }.into_any(),
                (None, None, true) => view! { <p class="hint" data-testid="formatted-prompt-status">"Fix the schema first."</p> }.into_any(),
                (None, None, false) => view! { <p class="hint" data-testid="formatted-prompt-status">"Fix the parameters' violations to see the prompt."</p> }.into_any(),
            }}
        })}
        {move || analysis.get().question.clone().map(|q| view! {
            <h3>"Question"</h3>
            <p class="hint">"What ml-commons' runners read as "<code>"question"</code>"."</p>
            <pre class="question" data-testid="question">{q}</pre>
        })}
    }
}
