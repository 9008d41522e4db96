//! The analysis of the body, kept current: the conversion settings, the last analysis and the
//! schema module's state as signals, and the adaptive scheduling that runs the analysis.

use std::sync::Arc;
use std::time::Duration;

use leptos::leptos_dom::helpers::{TimeoutHandle, queue_microtask};
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::Value;

use crate::browser::page::now;
use crate::browser::schema_module;
use crate::browser::schema_module::Load;
use crate::model::analysis::{self, Analysis, Known};
use crate::model::placeholders::{Token, expand_tokens, for_schema};
use crate::model::schema::{self, Field};
use crate::model::settings::Settings;

/// The body as the analysis reads it: the JSON editor's text with its media tokens, or the
/// forms' value with the count of their structure changes (the forms' payloads stay the same
/// strings between two).
pub(crate) enum Body {
    Text { text: String, tokens: StoredValue<Vec<Token>> },
    Tree { doc: StoredValue<Value>, structure: u64 },
}

/// The analysis and what it depends on besides the body.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Analyzer {
    pub(crate) settings: RwSignal<Settings>,
    pub(crate) analysis: RwSignal<Arc<Analysis>>,
    /// Edits so far, and the edit the shown analysis is of (the summary says "checking…" between).
    pub(crate) rev: RwSignal<u64>,
    pub(crate) analyzed_rev: RwSignal<u64>,
    /// How long the last analysis took, in ms (shown to tools as `data-analysis-ms`).
    pub(crate) analysis_ms: RwSignal<f64>,
    /// The schema module (loaded when the schema editor is first turned on).
    pub(crate) schema_load: RwSignal<Load>,
    /// The form generated from the schema (re-rendered when the schema's fields change).
    pub(crate) schema_form: RwSignal<Option<Arc<Vec<Field>>>>,
    /// Whether the compare view is open (only then is every provider's conversion computed).
    pub(crate) compare_open: RwSignal<bool>,
    /// Not reactive, in one handle so `Analyzer` (and the `Editor` holding it, both passed to
    /// components by value) stays small.
    scheduling: StoredValue<Scheduling>,
}

/// When the next analysis runs, and what the last one learned.
#[derive(Debug, Default)]
struct Scheduling {
    timer: Option<TimeoutHandle>,
    last_cost: f64,
    /// The forms' payloads already checked, and the structure count they were checked at.
    known: (u64, Known),
}

impl Analyzer {
    pub(crate) fn new() -> Self {
        Self {
            settings: RwSignal::new(Settings::default()),
            analysis: RwSignal::new(Arc::new(Analysis::empty())),
            rev: RwSignal::new(1),
            analyzed_rev: RwSignal::new(0),
            analysis_ms: RwSignal::new(0.0),
            schema_load: RwSignal::new(Load::NotLoaded),
            schema_form: RwSignal::new(None),
            compare_open: RwSignal::new(false),
            scheduling: StoredValue::new(Scheduling::default()),
        }
    }

    /// The body changed: counts the edit and runs the analysis, at once while it is cheap (as a
    /// microtask: after the event's handlers, before the frame that shows it; a timer would wait
    /// behind the browser's input and rendering work) and a little later when it is not, so
    /// keystrokes that queued behind one analysis are taken together into the next. `body` is
    /// read then; of several changes in one task, the last one's analysis runs.
    pub(crate) fn changed(self, body: impl FnOnce() -> Body + 'static) {
        self.rev.update(|n| *n += 1);
        let rev = self.rev.get_untracked();
        let cost = self
            .scheduling
            .try_update_value(|s| {
                if let Some(handle) = s.timer.take() {
                    handle.clear();
                }
                s.last_cost
            })
            .unwrap_or_default();
        // Only the last change's analysis runs: `rev` counts the changes.
        let run = move || {
            if self.rev.get_untracked() == rev {
                self.run(body());
            }
        };
        if cost < 12.0 {
            queue_microtask(run);
        } else {
            let delay = Duration::from_millis((cost / 4.0).min(50.0) as u64);
            let handle = set_timeout_with_handle(run, delay).ok();
            self.scheduling.update_value(|s| s.timer = handle);
        }
    }

    fn run(self, body: Body) {
        let start = now();
        let settings = self.settings.get_untracked();
        let compare = self.compare_open.get_untracked();
        let (mut result, text) = match body {
            Body::Text { text, tokens } => {
                let result = tokens
                    .try_update_value(|tokens| analysis::analyze_json(&text, tokens, &settings, compare))
                    .unwrap_or_else(Analysis::empty);
                (result, Ok((text, tokens)))
            }
            Body::Tree { doc, structure } => {
                // Payloads are checked once per structure: field edits never replace them.
                if self.scheduling.with_value(|s| s.known.0 != structure) {
                    let known = doc.with_value(Known::of_payloads);
                    self.scheduling.update_value(|s| s.known = (structure, known));
                }
                let result = self
                    .scheduling
                    .with_value(|s| doc.with_value(|v| analysis::analyze_value(v, &settings, compare, &s.known.1)));
                (result, Err(doc))
            }
        };
        if settings.schema_on {
            // The schema check reads the parameters and the prompt: media go as stand-ins.
            let body_text = move || match text {
                Ok((text, tokens)) => tokens.with_value(|tokens| expand_tokens(&text, tokens, true)),
                Err(doc) => doc.with_value(|v| serde_json::to_string(&for_schema(v)).unwrap_or_default()),
            };
            let module = self.schema_load.with_untracked(Load::module);
            result.schema = Some(schema::check(&settings, module, result.valid, body_text));
        }
        let form = schema::form_spec(&settings);
        if self.schema_form.with_untracked(|current| *current != form) {
            self.schema_form.set(form);
        }
        self.analysis.set(Arc::new(result));
        self.analyzed_rev.set(self.rev.get_untracked());
        let cost = now() - start;
        self.scheduling.update_value(|s| s.last_cost = cost);
        self.analysis_ms.set(cost);
    }

    /// Loads the schema module once (again after a failure); `then` runs when it is there, to
    /// analyse again with it.
    pub(crate) fn load_schema_module(self, then: impl FnOnce() + 'static) {
        if matches!(self.schema_load.get_untracked(), Load::Loading | Load::Ready) {
            return;
        }
        self.schema_load.set(Load::Loading);
        spawn_local(async move {
            self.schema_load.set(schema_module::load().await);
            then();
        });
    }
}
