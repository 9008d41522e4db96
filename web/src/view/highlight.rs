//! The DOM side of diagnostics: fields the diagnostics (the input's, and the chosen provider's)
//! point at marked (`has-error`, the provider's refusals `has-refusal`, `has-warning`, `aria-invalid`; the nearest field on the path
//! when none is exact; none while held back), and a click taken to the field or to the value in
//! the JSON editor.

use std::sync::Arc;

use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::model::analysis::{Analysis, Conversion};
use crate::model::jsonpos;
use crate::model::text_offsets::{byte_to_utf16, line_column_to_byte, line_share};
use crate::model::verdict::Holds;
use crate::state::{Editor, EditorView};

/// Marks the fields diagnostics point at (the nearest field on the path when none is exact),
/// but for those `holds` holds back.
pub(super) fn highlight(analysis: &Analysis, holds: &Holds) {
    let fields = fields();
    for el in &fields {
        let _ = el.class_list().remove_3("has-error", "has-refusal", "has-warning");
        let _ = el.remove_attribute("aria-invalid");
    }
    mark_settings(analysis);
    let mark = |list: &[agent_input::Diagnostic], class: &str| {
        for d in holds.shown(list) {
            if let Some(el) = nearest(&fields, &d.path.to_string()) {
                let _ = el.class_list().add_1(class);
                if class != "has-warning" {
                    let _ = el.set_attribute("aria-invalid", "true");
                }
            }
        }
    };
    mark(&analysis.warnings, "has-warning");
    match &analysis.conversion {
        Conversion::Converted { warnings, .. } => mark(warnings, "has-warning"),
        Conversion::Failed(report) => {
            mark(&report.warnings, "has-warning");
            let (settings, refusals): (Vec<_>, Vec<_>) =
                report.errors.iter().cloned().partition(|d| setting_of(&d.path.to_string()).is_some());
            mark(&refusals, "has-refusal");
            mark(&settings, "has-error");
        }
        Conversion::Invalid => {}
    }
    mark(&analysis.errors, "has-error");
    for violation in analysis.violations().iter().filter(|v| !holds.holds(&v.path)) {
        if let Some(el) = nearest(&fields, &violation.path) {
            let _ = el.class_list().add_1("has-error");
            let _ = el.set_attribute("aria-invalid", "true");
        }
    }
}

/// The id of the settings field a pointer under `/options` names (`/options/max_tokens` is
/// `#max-tokens`).
fn setting_of(path: &str) -> Option<String> {
    let key = path.strip_prefix("/options/")?.split('/').next()?;
    Some(key.replace('_', "-"))
}

/// Outlines the settings the conversion refuses (a temperature out of the provider's range, a
/// number that is not one, what the model refuses) and those it warns about (a model the table
/// does not know), the message as the field's description.
fn mark_settings(analysis: &Analysis) {
    if let Ok(marked) = document().query_selector_all(".settings-invalid, .settings-warning") {
        for el in
            (0..marked.length()).filter_map(|i| marked.get(i)).filter_map(|n| n.dyn_into::<web_sys::Element>().ok())
        {
            let _ = el.class_list().remove_4("settings-invalid", "settings-warning", "has-error", "has-warning");
            let _ = el.remove_attribute("aria-invalid");
            let _ = el.remove_attribute("title");
        }
    }
    let mark = |list: &[agent_input::Diagnostic], classes: (&str, &str)| {
        for d in list {
            if let Some(el) = setting_of(&d.path.to_string()).and_then(|id| document().get_element_by_id(&id)) {
                if classes.0 == "settings-warning" && el.class_list().contains("settings-invalid") {
                    continue;
                }
                let _ = el.class_list().add_2(classes.0, classes.1);
                if classes.0 == "settings-invalid" {
                    let _ = el.set_attribute("aria-invalid", "true");
                }
                let _ = el.set_attribute("title", &d.message);
            }
        }
    };
    match &analysis.conversion {
        Conversion::Failed(report) => {
            mark(&report.errors, ("settings-invalid", "has-error"));
            mark(&report.warnings, ("settings-warning", "has-warning"));
        }
        Conversion::Converted { warnings, .. } => mark(warnings, ("settings-warning", "has-warning")),
        Conversion::Invalid => {}
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

/// Takes the user to what a diagnostic is about: the field, or the value in the JSON editor
/// (where the JSON breaks, when it does not parse).
pub(super) fn go_to(editor: Editor, analysis: RwSignal<Arc<Analysis>>, path: &str) {
    if editor.view.get_untracked() == EditorView::Json {
        let Some(textarea) = editor.json_ref.get_untracked() else { return };
        let text = textarea.value();
        let range = match analysis.with_untracked(|a| a.json_error_at) {
            Some((line, column)) => {
                let start = line_column_to_byte(&text, line, column);
                Some((start, start))
            }
            None => jsonpos::locate(&text, path),
        };
        if let Some((start, end)) = range {
            let _ = textarea.focus();
            let _ = textarea.set_selection_range(byte_to_utf16(&text, start), byte_to_utf16(&text, end));
            // Scroll the selection into view: the line's share of the text's height.
            let top = f64::from(textarea.scroll_height()) * line_share(&text, start) - 60.0;
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
