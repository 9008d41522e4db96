//! The validation pane: the one verdict (the input and the chosen provider), the core's
//! diagnostics and the schema's violations (but for those held back), the provider's problems as
//! their own group, the formatted prompt (with a schema) and the question ml-commons' runners read.

use std::sync::Arc;

use leptos::prelude::*;

use super::diagnostics::{diagnostic_items, finding_items};
use crate::model::analysis::{Analysis, Conversion};
use crate::model::settings::Settings;
use crate::model::verdict::Verdict;
use crate::state::Editor;

/// The validation pane: the summary, every diagnostic, the formatted prompt, the question.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ValidationPane(
    editor: Editor,
    analysis: RwSignal<Arc<Analysis>>,
    settings: RwSignal<Settings>,
    shown: Signal<Verdict>,
) -> impl IntoView {
    let provider = move || settings.with(|s| s.provider.display_name());
    view! {
        <h2 id="validation-title">"Validation"</h2>
        <p class="summary" data-testid="validation-summary" aria-live="polite"
            data-valid=move || analysis.get().all_valid().to_string()
            data-tone=move || shown.with(|v| v.tone.as_str())
            data-input-type=move || analysis.get().input_type.unwrap_or("null")>
            {move || shown.with(|v| v.text.clone())}
        </p>
        <ul class="diagnostics" data-testid="validation-errors">
            {move || {
                let a = analysis.get();
                editor.holds.with(|h| {
                    let mut items = diagnostic_items(editor, analysis, &a.errors, "validation-error", Some(h));
                    items.extend(finding_items(editor, analysis, a.violations(), h));
                    items.extend(diagnostic_items(editor, analysis, &a.warnings, "validation-error", Some(h)));
                    items
                })
            }}
        </ul>
        {move || {
            let a = analysis.get();
            let Conversion::Failed(report) = &a.conversion else { return None };
            let (errors, warnings) = editor.holds.with(|h| {
                (
                    diagnostic_items(editor, analysis, &report.errors, "conversion-error", Some(h)),
                    diagnostic_items(editor, analysis, &report.warnings, "conversion-warning", None),
                )
            });
            Some(view! {
                <h3 data-testid="provider-problems-title">{provider()}</h3>
                <p class="hint">"What the chosen provider cannot take."</p>
                <ul class="diagnostics" data-testid="provider-problems">
                    {errors}
                    {warnings}
                </ul>
            })
        }}
        {move || {
            let a = analysis.get();
            (a.all_valid() && a.warnings.is_empty() && !matches!(a.conversion, Conversion::Failed(_)))
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
