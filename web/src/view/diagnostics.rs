//! Diagnostics as list items: the core's (validation, conversion) and the schema's violations,
//! with the data attributes tools and tests read; a click goes to the field or the JSON value.

use std::sync::Arc;

use leptos::prelude::*;

use super::highlight::go_to;
use super::shrink_to_fit::ShrinkToFit;
use crate::model::analysis::Analysis;
use crate::model::location::in_words;
use crate::model::schema::Finding;
use crate::model::verdict::Holds;
use crate::state::Editor;

/// Diagnostics of the core as list items, but for those `held` holds back; a click goes to what
/// each is about.
pub(super) fn diagnostic_items(
    editor: Editor,
    analysis: RwSignal<Arc<Analysis>>,
    list: &[agent_input::Diagnostic],
    testid: &'static str,
    held: Option<&Holds>,
) -> Vec<AnyView> {
    list.iter()
        .filter(|d| held.is_none_or(|h| !h.holds(&d.path.to_string())))
        .map(|d| {
            let path = d.path.to_string();
            let severity = match d.severity() {
                agent_input::Severity::Error => "error",
                agent_input::Severity::Warning => "warning",
            };
            let shown = if path.is_empty() { "/".to_string() } else { path.clone() };
            let place = analysis.with_untracked(|a| in_words(&path, a.input_type));
            let target = path.clone();
            // The diagnostic's data, for tools and tests (the message says it in words).
            let expected = (!d.expected.is_empty()).then(|| serde_json::to_string(&d.expected).unwrap_or_default());
            let received = d.received.clone();
            let limit = d.limit.map(|n| n.to_string());
            let actual = d.actual.map(|n| n.to_string());
            view! {
                <li data-testid=testid data-code=d.code.as_str() data-path=path data-severity=severity class=severity
                    data-expected=expected data-received=received data-limit=limit data-actual=actual>
                    <button type="button" class="diagnostic" on:click=move |_| go_to(editor, analysis, &target)>
                        <span class="badge">{severity}</span>
                        <code class="code-name">{d.code.as_str()}</code>
                        <span class="path"><span class="where" data-testid="where">{place}</span>" "<code>{shown}</code></span>
                        <span class="message">{d.message.clone()}</span>
                    </button>
                    {(d.code == agent_input::Code::ProviderLimit).then(|| view! { <ShrinkToFit editor d=d.clone() /> })}
                </li>
            }
            .into_any()
        })
        .collect()
}

/// The schema's violations, listed like the core's diagnostics (but for those `held` holds back).
pub(super) fn finding_items(
    editor: Editor,
    analysis: RwSignal<Arc<Analysis>>,
    list: &[Finding],
    held: &Holds,
) -> Vec<AnyView> {
    list.iter()
        .filter(|f| !held.holds(&f.path))
        .map(|f| {
            let shown = if f.path.is_empty() { "/".to_string() } else { f.path.clone() };
            let place = analysis.with_untracked(|a| in_words(&f.path, a.input_type));
            let target = f.path.clone();
            let expected = (!f.expected.is_empty()).then(|| serde_json::to_string(&f.expected).unwrap_or_default());
            view! {
                <li data-testid="validation-error" data-code=f.code.clone() data-path=f.path.clone() data-severity="error"
                    data-schema-path=f.schema_path.clone() data-expected=expected data-received=f.received.clone() class="error">
                    <button type="button" class="diagnostic" on:click=move |_| go_to(editor, analysis, &target)>
                        <span class="badge">"error"</span>
                        <code class="code-name">{f.code.clone()}</code>
                        <span class="path"><span class="where" data-testid="where">{place}</span>" "<code>{shown}</code></span>
                        <span class="message">{f.message.clone()}</span>
                    </button>
                </li>
            }
            .into_any()
        })
        .collect()
}
