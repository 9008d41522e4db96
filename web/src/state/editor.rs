//! The request body and its editors: the value the forms edit at JSON Pointers, the JSON
//! editor's text (media as placeholders), which editor shows it, and the moves between them.
//! Every change goes to the [`Analyzer`].

use std::collections::HashMap;

use leptos::html;
use leptos::prelude::*;
use leptos::task::spawn_local;
use serde_json::{Value, json};

use super::analyzer::{Analyzer, Body};
use crate::browser::{files, json_editor};
use crate::model::input_form::{self, Form, convert_form, form_of};
use crate::model::media::media_bytes;
use crate::model::placeholders::{Token, expand_tokens, with_tokens};
use crate::model::verdict::Holds;

/// Which editor the build pane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EditorView {
    Form(Form),
    Json,
}

/// The body and its editors. The body lives in `doc` (not reactive: the forms write to it field
/// by field without re-rendering); `structure` re-renders the forms. In the JSON view the
/// editor's text is the body.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Editor {
    pub(crate) doc: StoredValue<Value>,
    pub(crate) json_ref: NodeRef<html::Textarea>,
    pub(crate) view: RwSignal<EditorView>,
    pub(crate) structure: RwSignal<u64>,
    /// Why the last switch or file was refused.
    pub(crate) notice: RwSignal<Option<String>>,
    /// Object URLs of images read from files, and the names of files read, by
    /// `media::preview_key` (a name under the key with `name:` before it).
    pub(crate) previews: StoredValue<HashMap<String, String>>,
    /// Diagnostics held back: fields added by "+" until left, the blank next turn.
    pub(crate) holds: RwSignal<Holds>,
    /// Media payloads the JSON editor shows as placeholders: (placeholder, payload).
    media_tokens: StoredValue<Vec<Token>>,
    analyzer: Analyzer,
}

impl Editor {
    pub(crate) fn new(analyzer: Analyzer) -> Self {
        Self {
            doc: StoredValue::new(json!({"input": "What is OpenSearch?"})),
            json_ref: NodeRef::new(),
            view: RwSignal::new(EditorView::Form(Form::Text)),
            structure: RwSignal::new(0),
            notice: RwSignal::new(None),
            previews: StoredValue::new(HashMap::new()),
            holds: RwSignal::new(Holds::default()),
            media_tokens: StoredValue::new(Vec::new()),
            analyzer,
        }
    }

    /// The analysis this editor feeds (its settings: the chosen provider).
    pub(crate) fn analyzer(self) -> Analyzer {
        self.analyzer
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

    /// Something the analysis reads changed (the body, or the settings).
    pub(crate) fn changed(self) {
        self.analyzer.changed(move || match self.view.get_untracked() {
            EditorView::Json => {
                let text = self.json_ref.get_untracked().map(|t| t.value()).unwrap_or_default();
                Body::Text { text, tokens: self.media_tokens }
            }
            EditorView::Form(_) => Body::Tree { doc: self.doc, structure: self.structure.get_untracked() },
        });
    }

    /// The JSON editor's text with the media it shows as placeholders put back.
    pub(crate) fn json_text(self) -> String {
        let text = self.json_ref.get_untracked().map(|t| t.value()).unwrap_or_default();
        self.media_tokens.with_value(|tokens| expand_tokens(&text, tokens, false))
    }

    fn set_json_text(self, value: &Value) {
        if let Some(textarea) = self.json_ref.get_untracked() {
            let mut tokens = Vec::new();
            let shown = with_tokens(value, &mut tokens);
            textarea.set_value(&serde_json::to_string_pretty(&shown).unwrap_or_default());
            self.media_tokens.set_value(tokens);
            json_editor::refresh();
        }
    }

    /// The body as it is sent.
    pub(crate) fn body_text(self) -> String {
        match self.view.get_untracked() {
            EditorView::Json => self.json_text(),
            EditorView::Form(_) => self.doc.with_value(|v| serde_json::to_string(v).unwrap_or_default()),
        }
    }

    /// The body as JSON, reading the editor in the JSON view.
    pub(crate) fn body_value(self) -> Result<Value, String> {
        match self.view.get_untracked() {
            EditorView::Json => {
                serde_json::from_str(&self.json_text()).map_err(|e| format!("the JSON does not parse: {e}"))
            }
            EditorView::Form(_) => Ok(self.doc.get_value()),
        }
    }

    /// Replaces the body (an example, a share link) and shows it in its form's editor.
    pub(crate) fn load(self, value: Value) {
        let view = form_of(&value).map_or(EditorView::Json, EditorView::Form);
        self.set_json_text(&value);
        self.doc.set_value(value);
        self.view.set(view);
        self.notice.set(None);
        self.holds.set(Holds::default());
        self.structure.update(|n| *n += 1);
        self.changed();
    }

    /// A "+" added the field at `pointer`: its diagnostics wait until it is left or a run is tried.
    pub(crate) fn add_structure(self, pointer: String, f: impl FnOnce(&mut Value)) {
        self.holds.update(|h| h.paths.push(pointer));
        self.edit_structure(f);
    }

    /// The field at `pointer` was left: what it holds back shows.
    pub(crate) fn left(self, pointer: &str) {
        if self.holds.with_untracked(|h| h.holds(pointer)) {
            self.holds.update(|h| {
                h.release(pointer);
            });
        }
    }

    /// A run was tried: nothing is held back any more.
    pub(crate) fn release_all(self) {
        if self.holds.with_untracked(|h| !h.paths.is_empty()) {
            self.holds.update(|h| h.paths.clear());
        }
    }

    /// The input was emptied for the next turn of conversation `memory_id`: waiting, not wrong.
    pub(crate) fn await_next_turn(self, memory_id: String) {
        let input = if self.doc.with_value(form_of) == Some(Form::Legacy) { "/parameters/question" } else { "/input" };
        self.holds.set(Holds { paths: vec![input.to_string()], continuing: Some(memory_id) });
    }

    /// Changes a body that may be in the JSON editor, keeping the view.
    pub(crate) fn edit_anywhere(self, f: impl FnOnce(&mut Value)) -> Result<(), String> {
        if self.view.get_untracked() == EditorView::Json {
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
    pub(crate) fn switch(self, to: EditorView) {
        let from = self.view.get_untracked();
        if from == to {
            return;
        }
        self.notice.set(None);
        if from == EditorView::Json {
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
            EditorView::Json => {
                self.doc.with_value(|v| self.set_json_text(v));
                self.view.set(EditorView::Json);
            }
            EditorView::Form(form) => {
                let mut value = self.doc.get_value();
                match convert_form(&mut value, form) {
                    Ok(()) => {
                        self.doc.set_value(value);
                        self.view.set(EditorView::Form(form));
                    }
                    Err(why) => {
                        let current = self.doc.with_value(form_of);
                        self.notice.set(Some(format!("Cannot switch to {}: {why}.", form.label())));
                        // Coming from JSON, show the form the body is in.
                        if from == EditorView::Json {
                            match current {
                                Some(current) => self.view.set(EditorView::Form(current)),
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

    /// Adds a content block wherever the input takes one (`input_form::add_block`), leaving the
    /// JSON editor for the content blocks form first.
    pub(crate) fn add_block(self, block: Value) {
        if self.view.get_untracked() == EditorView::Json {
            self.switch(EditorView::Form(Form::Blocks));
            if self.view.get_untracked() == EditorView::Json {
                return;
            }
        }
        match self.doc.try_update_value(|value| input_form::add_block(value, block)) {
            Some(Ok(form)) => {
                self.view.set(EditorView::Form(form));
                self.structure.update(|n| *n += 1);
                self.changed();
            }
            Some(Err(why)) => self.notice.set(Some(format!("Cannot add the file: {why}."))),
            None => {}
        }
    }

    /// Reads files into content blocks, one after the other, keeping image previews.
    pub(crate) fn add_files(self, files: Vec<web_sys::File>) {
        if files.is_empty() {
            return;
        }
        spawn_local(async move {
            for file in files {
                match files::read(file, self.attached_bytes()).await {
                    Ok(read) => {
                        self.keep_preview(read.preview, read.preview_key, read.name);
                        self.add_block(read.block);
                    }
                    Err(why) => self.notice.set(Some(why)),
                }
            }
        });
    }

    /// The bytes of media in the body (the JSON editor's text read, placeholders put back).
    pub(crate) fn attached_bytes(self) -> usize {
        match self.view.get_untracked() {
            EditorView::Json => self.body_value().map_or(0, |v| media_bytes(&v)),
            EditorView::Form(_) => self.doc.with_value(media_bytes),
        }
    }

    /// Files an image's object URL and the file's name under its payload's preview key.
    pub(crate) fn keep_preview(self, url: Option<String>, key: String, name: Option<String>) {
        if let Some(name) = name {
            self.previews.update_value(|p| {
                p.insert(format!("name:{key}"), name);
            });
        }
        if let Some(url) = url {
            self.previews.update_value(|p| {
                p.insert(key, url);
            });
        }
    }
}
