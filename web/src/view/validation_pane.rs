//! The validation pane: the summary line, the core's diagnostics and the schema's violations,
//! the formatted prompt (with a schema) and the question ml-commons' runners read.

use std::sync::Arc;

use leptos::prelude::*;

use super::diagnostics::{diagnostic_items, finding_items};
use crate::model::analysis::{Analysis, summary};
use crate::state::Editor;

/// The validation pane: the summary, every diagnostic, the formatted prompt, the question.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ValidationPane(
    editor: Editor,
    analysis: RwSignal<Arc<Analysis>>,
    rev: RwSignal<u64>,
    analyzed_rev: RwSignal<u64>,
) -> impl IntoView {
    let pending = move || rev.get() != analyzed_rev.get();
    view! {
        <h2 id="validation-title">"Validation"</h2>
        <p class="summary" data-testid="validation-summary" class:valid=move || analysis.get().all_valid() aria-live="polite"
            data-valid=move || analysis.get().all_valid().to_string()
            data-input-type=move || analysis.get().input_type.unwrap_or("null")>
            {move || summary(&analysis.get(), pending())}
        </p>
        <ul class="diagnostics" data-testid="validation-errors">
            {move || {
                let a = analysis.get();
                let mut items = diagnostic_items(editor, analysis, &a.errors, "validation-error");
                items.extend(finding_items(editor, analysis, a.violations()));
                items.extend(diagnostic_items(editor, analysis, &a.warnings, "validation-error"));
                items
            }}
        </ul>
        {move || {
            let a = analysis.get();
            (a.all_valid() && a.warnings.is_empty()).then(|| view! { <p class="hint">"No errors or warnings."</p> })
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
