//! The app's state: the request body, which editor shows it, and the debounced analysis.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use leptos::html;
use leptos::prelude::*;
use serde_json::{Value, json};

use crate::analysis::{self, Analysis, Settings};
use crate::model::{self, Form};

/// Which editor the build pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum View {
    Form(Form),
    Json,
}

/// Everything the panes share. The body lives in `doc` (not reactive: the forms write to it
/// field by field without re-rendering); `structure` re-renders the forms, `rev` counts edits.
/// In the JSON view the editor's text is the body.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx {
    pub(crate) doc: StoredValue<Value>,
    pub(crate) json_ref: NodeRef<html::Textarea>,
    pub(crate) view: RwSignal<View>,
    pub(crate) structure: RwSignal<u64>,
    pub(crate) rev: RwSignal<u64>,
    pub(crate) analyzed_rev: RwSignal<u64>,
    pub(crate) analysis: RwSignal<Arc<Analysis>>,
    pub(crate) settings: RwSignal<Settings>,
    pub(crate) notice: RwSignal<Option<String>>,
    /// Object URLs of images read from files, by `media::preview_key`.
    pub(crate) previews: StoredValue<HashMap<String, String>>,
    /// Media payloads the JSON editor shows as placeholders: (placeholder, payload).
    pub(crate) media_tokens: StoredValue<Vec<(String, String)>>,
    /// How long the last analysis took, in ms (shown to tools as `data-analysis-ms`).
    pub(crate) analysis_ms: RwSignal<f64>,
    /// The schema module (loaded when the schema editor is first turned on).
    pub(crate) schema_load: RwSignal<crate::schema::Load>,
    /// The form generated from the schema (re-rendered when the schema's fields change).
    pub(crate) schema_form: RwSignal<Option<Arc<Vec<crate::schema::Field>>>>,
    timer: StoredValue<Option<leptos::leptos_dom::helpers::TimeoutHandle>>,
    last_cost: StoredValue<f64>,
}

pub(crate) fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

impl Ctx {
    pub(crate) fn new() -> Self {
        Self {
            doc: StoredValue::new(json!({"input": "What is OpenSearch?"})),
            json_ref: NodeRef::new(),
            view: RwSignal::new(View::Form(Form::Text)),
            structure: RwSignal::new(0),
            rev: RwSignal::new(1),
            analyzed_rev: RwSignal::new(0),
            analysis: RwSignal::new(Arc::new(Analysis::empty())),
            settings: RwSignal::new(Settings::default()),
            notice: RwSignal::new(None),
            previews: StoredValue::new(HashMap::new()),
            media_tokens: StoredValue::new(Vec::new()),
            analysis_ms: RwSignal::new(0.0),
            schema_load: RwSignal::new(crate::schema::Load::NotLoaded),
            schema_form: RwSignal::new(None),
            timer: StoredValue::new(None),
            last_cost: StoredValue::new(0.0),
        }
    }

    /// A field's edit: the body changes, the form stays.
    pub(crate) fn edit(self, f: impl FnOnce(&mut Value)) {
        self.doc.update_value(f);
        self.changed();
    }

    /// An edit that changes what the form shows (blocks added, a role changed).
    pub(crate) fn edit_structure(self, f: impl FnOnce(&mut Value)) {
        self.doc.update_value(f);
        self.structure.update(|n| *n += 1);
        self.changed();
    }

    pub(crate) fn changed(self) {
        self.rev.update(|n| *n += 1);
        self.schedule();
    }

    /// Runs the analysis after the typing pauses: at once while it is cheap, and a little later
    /// when it is not (megabytes of media), so keystrokes that queued behind one analysis are
    /// taken together into the next.
    fn schedule(self) {
        if let Some(handle) = self.timer.get_value() {
            handle.clear();
        }
        let cost = self.last_cost.get_value();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let delay = if cost < 12.0 { 0 } else { (cost / 4.0).min(50.0) as u64 };
        let handle = set_timeout_with_handle(move || self.run(), Duration::from_millis(delay)).ok();
        self.timer.set_value(handle);
    }

    fn run(self) {
        let start = now();
        let settings = self.settings.get_untracked();
        let mut result = match self.view.get_untracked() {
            View::Json => analysis::analyze_text(&self.json_text(), &settings),
            View::Form(_) => self.doc.with_value(|v| analysis::analyze_value(v, &settings)),
        };
        if settings.schema_on {
            let loaded = self.schema_load.get_untracked() == crate::schema::Load::Ready;
            result.schema = Some(crate::schema::outcome(&settings, loaded, result.valid, || self.body_text()));
        }
        let form = crate::schema::form_spec(&settings);
        if self.schema_form.with_untracked(|current| *current != form) {
            self.schema_form.set(form);
        }
        self.analysis.set(Arc::new(result));
        self.analyzed_rev.set(self.rev.get_untracked());
        let cost = now() - start;
        self.last_cost.set_value(cost);
        self.analysis_ms.set(cost);
    }

    /// The JSON editor's text with the media it shows as placeholders put back.
    pub(crate) fn json_text(self) -> String {
        let text = self.json_ref.get_untracked().map(|t| t.value()).unwrap_or_default();
        self.media_tokens.with_value(|tokens| crate::model::expand_tokens(&text, tokens))
    }

    fn set_json_text(self, value: &Value) {
        if let Some(textarea) = self.json_ref.get_untracked() {
            let mut tokens = Vec::new();
            let shown = crate::model::with_tokens(value, &mut tokens);
            textarea.set_value(&serde_json::to_string_pretty(&shown).unwrap_or_default());
            self.media_tokens.set_value(tokens);
        }
    }

    /// The body as it is sent.
    pub(crate) fn body_text(self) -> String {
        match self.view.get_untracked() {
            View::Json => self.json_text(),
            View::Form(_) => self.doc.with_value(|v| serde_json::to_string(v).unwrap_or_default()),
        }
    }

    /// The body as JSON, reading the editor in the JSON view.
    pub(crate) fn body_value(self) -> Result<Value, String> {
        match self.view.get_untracked() {
            View::Json => serde_json::from_str(&self.json_text()).map_err(|e| format!("the JSON does not parse: {e}")),
            View::Form(_) => Ok(self.doc.get_value()),
        }
    }

    /// Replaces the body (an example, a share link) and shows it in its form's editor.
    pub(crate) fn load(self, value: Value) {
        let view = model::form_of(&value).map_or(View::Json, View::Form);
        self.set_json_text(&value);
        self.doc.set_value(value);
        self.view.set(view);
        self.notice.set(None);
        self.structure.update(|n| *n += 1);
        self.changed();
    }

    /// Changes a body that may be in the JSON editor, keeping the view.
    pub(crate) fn edit_anywhere(self, f: impl FnOnce(&mut Value)) -> Result<(), String> {
        if self.view.get_untracked() == View::Json {
            let mut value = self.body_value()?;
            f(&mut value);
            self.set_json_text(&value);
            self.doc.set_value(value);
            self.changed();
        } else {
            self.edit_structure(f);
        }
        Ok(())
    }

    /// Switches editors, moving the input into the chosen form when that loses nothing.
    pub(crate) fn switch(self, to: View) {
        let from = self.view.get_untracked();
        if from == to {
            return;
        }
        self.notice.set(None);
        if from == View::Json {
            match serde_json::from_str::<Value>(&self.json_text()) {
                Ok(value) => {
                    self.doc.set_value(value);
                    // A hidden textarea holding megabytes still slows the page down.
                    if let Some(textarea) = self.json_ref.get_untracked() {
                        textarea.set_value("");
                    }
                }
                Err(e) => {
                    self.notice.set(Some(format!("Fix the JSON first: {e}.")));
                    return;
                }
            }
        }
        match to {
            View::Json => {
                self.doc.with_value(|v| self.set_json_text(v));
                self.view.set(View::Json);
            }
            View::Form(form) => {
                let mut value = self.doc.get_value();
                match model::convert_form(&mut value, form) {
                    Ok(()) => {
                        self.doc.set_value(value);
                        self.view.set(View::Form(form));
                    }
                    Err(why) => {
                        let current = self.doc.with_value(model::form_of);
                        self.notice.set(Some(format!("Cannot switch to {}: {why}.", form.label())));
                        // Coming from JSON, show the form the body is in.
                        if from == View::Json {
                            match current {
                                Some(current) => self.view.set(View::Form(current)),
                                // Staying in the JSON editor: show the body again.
                                None => self.doc.with_value(|v| self.set_json_text(v)),
                            }
                        }
                    }
                }
            }
        }
        self.structure.update(|n| *n += 1);
        self.changed();
    }

    /// Adds a content block wherever the input takes one: the content blocks, or the last
    /// message's content; a text input becomes content blocks first.
    pub(crate) fn add_block(self, block: Value) {
        if self.view.get_untracked() == View::Json {
            self.switch(View::Form(Form::Blocks));
            if self.view.get_untracked() == View::Json {
                return;
            }
        }
        let mut value = self.doc.get_value();
        let form = if model::form_of(&value) == Some(Form::Messages) {
            Form::Messages
        } else {
            if let Err(why) = model::convert_form(&mut value, Form::Blocks) {
                self.notice.set(Some(format!("Cannot add the file: {why}.")));
                return;
            }
            Form::Blocks
        };
        if form == Form::Messages {
            let last = value["input"].as_array().map_or(0, Vec::len);
            let content = format!("/input/{}/content", last.saturating_sub(1));
            if last == 0 || !model::push(&mut value, &content, block.clone()) {
                model::push(&mut value, "/input", json!({"role": "user", "content": [block]}));
            }
        } else {
            model::push(&mut value, "/input", block);
        }
        self.doc.set_value(value);
        self.view.set(View::Form(form));
        self.structure.update(|n| *n += 1);
        self.changed();
    }
}
