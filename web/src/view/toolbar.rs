//! The toolbar: load an example (valid inputs and common mistakes; one with tool calls comes
//! with tool specs made from them, so it converts for every provider), make a share link.

use leptos::prelude::*;

use super::copy::copy;
use super::output_pane::set_tools;
use crate::model::display::human_bytes;
use crate::model::settings::Settings;
use crate::model::{examples, share, tools};
use crate::state::Editor;

/// Loads an example (with tool specs made from its calls), named in the banner.
fn load_example(
    editor: Editor,
    settings: RwSignal<Settings>,
    share_note: RwSignal<Option<String>>,
    example: examples::Example,
) {
    let specs = tools::specs_from_calls(&example.request).unwrap_or_default();
    set_tools(settings, specs);
    editor.load(example.request);
    share_note.set(Some(format!("Example: {}.", example.label.strip_prefix("Mistake: ").unwrap_or(&example.label))));
}

/// The first few valid examples as buttons, for the first load's line.
pub(super) fn example_buttons(
    editor: Editor,
    settings: RwSignal<Settings>,
    share_note: RwSignal<Option<String>>,
) -> impl IntoView {
    examples::all()
        .into_iter()
        .filter(|e| !e.label.starts_with("Mistake: "))
        .take(3)
        .map(|example| {
            let label = example.label.clone();
            let example = StoredValue::new(example);
            view! {
                <button type="button" class="small link" data-testid="try-example"
                    on:click=move |_| load_example(editor, settings, share_note, example.get_value())>{label}</button>
            }
        })
        .collect::<Vec<_>>()
}

/// The examples, the share link.
#[component]
#[allow(unreachable_pub)] // the component macro's expansion
pub(super) fn Toolbar(
    editor: Editor,
    settings: RwSignal<Settings>,
    share_note: RwSignal<Option<String>>,
) -> impl IntoView {
    let examples = StoredValue::new(examples::all());
    let group = |mistakes: bool| -> Vec<_> {
        examples.with_value(|all| {
            all.iter()
                .enumerate()
                .filter(|(_, e)| e.label.starts_with("Mistake: ") == mistakes)
                .map(|(i, e)| {
                    let label = e.label.strip_prefix("Mistake: ").unwrap_or(&e.label).to_string();
                    view! { <option value=i.to_string()>{label}</option> }
                })
                .collect()
        })
    };
    let (valid, mistakes) = (group(false), group(true));
    let on_example = move |ev: leptos::ev::Event| {
        let select: web_sys::HtmlSelectElement = event_target(&ev);
        if let Ok(i) = select.value().parse::<usize>()
            && let Some(example) = examples.with_value(|all| all.get(i).cloned())
        {
            load_example(editor, settings, share_note, example);
        }
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
                    " {} ({} of base64) left out of the link; whoever opens it adds them again.",
                    if count == 1 { "1 media payload".to_string() } else { format!("{count} media payloads") },
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
                <option value="" selected=true disabled=true>"Start with an example…"</option>
                <optgroup label="Valid inputs">{valid}</optgroup>
                <optgroup label="Common mistakes">{mistakes}</optgroup>
            </select>
            <button type="button" data-testid="share-button" on:click=on_share>"Share link"</button>
            {move || link.get().map(|l| view! {
                <label class="visually-hidden" for="share-link">"Share link"</label>
                <input id="share-link" class="share-link" data-testid="share-link" readonly=true prop:value=l />
            })}
        </div>
    }
}
