//! The form editors. Each renders from a light snapshot of the body (payloads as sizes) and
//! writes back at JSON Pointers; every field carries `data-path`, so errors can highlight it and
//! clicks can reach it. This file: the form chosen; the fields every editor uses are in `fields`,
//! and the content blocks, messages and parameters editors and the provider item card have a file
//! each.

mod blocks;
mod fields;
mod messages;
mod parameters;
mod provider_item;

use std::sync::Arc;

use leptos::prelude::*;
use serde_json::Value;

use super::schema_editor;
use crate::model::input_form::Form;
use crate::model::placeholders::light;
use crate::model::schema::Field;
use crate::state::Editor;
use blocks::blocks_editor;
use fields::{str_at, text_field};
use messages::messages_editor;
use parameters::parameters_editor;

/// The editor of one form, with the form the schema generates (when the schema editor is on)
/// and the parameters editor.
pub(super) fn render(editor: Editor, form: Form, schema_fields: Option<Arc<Vec<Field>>>) -> AnyView {
    let body = editor.doc.with_value(light);
    // With a schema, its properties get the generated form and the parameters editor the rest.
    let generated: Vec<String> =
        schema_fields.as_ref().map(|f| f.iter().map(|f| f.name.clone()).collect()).unwrap_or_default();
    let schema_form = schema_fields.map(|fields| schema_editor::render_form(editor, &fields, &body));
    let parameters = parameters_editor(editor, &body, form == Form::Legacy, &generated);
    let editor = match (form, body.get("input")) {
        (Form::Text, _) => text_field(editor, "/input".into(), "Input text".into(), str_at(&body, "/input"), true),
        (Form::Legacy, _) => text_field(
            editor,
            "/parameters/question".into(),
            "parameters.question".into(),
            str_at(&body, "/parameters/question"),
            true,
        ),
        (Form::Blocks, Some(Value::Array(items))) => blocks_editor(editor, "/input", items),
        (Form::Messages, Some(Value::Array(items))) => messages_editor(editor, items),
        _ => view! { <p class="note">"This input cannot be shown in this form; edit it as JSON."</p> }.into_any(),
    };
    view! {
        <div class="form" data-form=form.id()>
            {editor}
            {schema_form}
            {parameters}
        </div>
    }
    .into_any()
}
