//! The toolbar: load an example, make a share link.

use leptos::prelude::*;

use super::copy::copy;
use crate::model::display::human_bytes;
use crate::model::settings::Settings;
use crate::model::{examples, share};
use crate::state::Editor;

/// The examples, the share link.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn Toolbar(
    editor: Editor,
    settings: RwSignal<Settings>,
    share_note: RwSignal<Option<String>>,
) -> impl IntoView {
    let examples = StoredValue::new(examples::all());
    let options: Vec<_> = examples.with_value(|all| {
        all.iter()
            .enumerate()
            .map(|(i, e)| view! { <option value=i.to_string() title=e.source.clone()>{e.label.clone()}</option> })
            .collect()
    });
    let on_example = move |ev: leptos::ev::Event| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        if let Ok(i) = select.value().parse::<usize>()
            && let Some(example) = examples.with_value(|all| all.get(i).cloned())
        {
            editor.load(example.request);
            share_note.set(Some(format!("Example from {}.", example.source)));
        }
        select.set_value("");
    };
    let link = RwSignal::new(None::<String>);
    let on_share = move |_| match editor.body_value() {
        Ok(body) => {
            let (fragment, count, chars) = share::encode(&body, &settings.get_untracked());
            let location = window().location();
            let url = format!(
                "{}{}{fragment}",
                location.origin().unwrap_or_default(),
                location.pathname().unwrap_or_default()
            );
            let note = if count > 0 {
                format!(
                    " {count} media payload(s) ({} of base64) were left out of the link; whoever opens it adds them again.",
                    human_bytes(chars)
                )
            } else {
                String::new()
            };
            copy(url.clone(), share_note, format!("Share link copied.{note}"));
            link.set(Some(url));
        }
        Err(why) => share_note.set(Some(format!("No share link: {why}"))),
    };
    view! {
        <div class="toolbar">
            <label class="visually-hidden" for="examples">"Load an example"</label>
            <select id="examples" data-testid="example-select" on:change=on_example>
                <option value="" selected=true>"Examples…"</option>
                {options}
            </select>
            <button type="button" data-testid="share-button" on:click=on_share>"Share link"</button>
            {move || link.get().map(|l| view! {
                <label class="visually-hidden" for="share-link">"Share link"</label>
                <input id="share-link" class="share-link" data-testid="share-link" readonly=true prop:value=l />
            })}
        </div>
    }
}
