//! The views: Leptos components over the state. One file per pane or sizeable component;
//! each takes the signals it needs.

pub(crate) mod app;
mod build_pane;
mod chat;
mod code_export;
mod compare;
mod copy;
mod deploy;
mod diagnostics;
mod execute_pane;
mod forms;
mod highlight;
mod import_pane;
mod model_field;
mod output_pane;
mod reasoning_badge;
mod run_notice;
mod schema_editor;
mod shrink_to_fit;
mod toolbar;
mod validation_pane;
