//! The model field: the model id for the chosen provider (each provider keeps its own), with the
//! ids of the capability table's families as suggestions and the family it is read as. The
//! model's rules then check the request; what they refuse is marked at the setting or the block
//! it is about (`highlight`), `unknown_model` at this field.

use leptos::prelude::*;

use crate::model::export::example_model;
use crate::model::models::{family_name, suggestions};
use crate::model::settings::Settings;

#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn ModelField(settings: RwSignal<Settings>) -> impl IntoView {
    let provider = Memo::new(move |_| settings.with(|s| s.provider));
    let options = move || {
        suggestions(provider.get()).into_iter().map(|id| view! { <option value=id></option> }).collect::<Vec<_>>()
    };
    let family = move || {
        settings.with(|s| {
            let model = s.model().trim();
            if model.is_empty() {
                "No model: the provider's own rules are checked.".to_string()
            } else if let Some(name) = family_name(model) {
                format!("Checked as {name}.")
            } else {
                "Not in the model table: the provider's own rules are checked.".to_string()
            }
        })
    };
    view! {
        <div class="field model-field">
            <label for="model">"Model"</label>
            <input type="text" id="model" data-testid="model" list="model-suggestions" autocomplete="off" spellcheck="false"
                aria-describedby="model-family" placeholder=move || example_model(provider.get())
                prop:value=move || settings.with(|s| s.model().to_string())
                on:input=move |ev| { let v = event_target_value(&ev); settings.update(|s| s.set_model(v)); } />
            <datalist id="model-suggestions" data-testid="model-suggestions">{options}</datalist>
            <span class="hint" id="model-family" data-testid="model-family">{family}</span>
        </div>
    }
}
