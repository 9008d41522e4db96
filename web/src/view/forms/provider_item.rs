//! A provider item's card (a `provider_item` block, contract §3.2): read-only, since the item is
//! the provider's own JSON and goes back to it unchanged. It names the provider and the item's
//! kind, says whether the chosen provider gets it back or the conversion leaves it out, and shows
//! the item.

use agent_input::ProviderId;
use leptos::prelude::*;
use serde_json::Value;

use crate::state::Editor;

/// The card body for `block`, following the provider chosen for the conversion.
pub(super) fn provider_item_card(editor: Editor, block: &Value) -> AnyView {
    let provider = block.get("provider").and_then(Value::as_str).unwrap_or("?").to_string();
    let item = block.get("item").cloned().unwrap_or(Value::Null);
    let kind = agent_input::ProviderItem::kind_of(&item).to_string();
    let text = serde_json::to_string_pretty(&item).unwrap_or_default();
    let settings = editor.analyzer().settings;
    let (p, k) = (provider.clone(), provider.clone());
    let sent = move || settings.with(|s| ProviderId::parse(&p) == Some(s.provider)).to_string();
    let shown = move || settings.with(|s| label(&k, &kind, s.provider));
    view! {
        <div class="provider-item" data-testid="provider-item" data-provider=provider data-sent=sent>
            <p class="hint">{shown}</p>
            <details>
                <summary>"The item, as its provider wrote it"</summary>
                <pre class="code">{text}</pre>
            </details>
        </div>
    }
    .into_any()
}

/// `Anthropic Messages · web_search_tool_result · sent back`, or `… · left out for <chosen>`.
fn label(provider: &str, kind: &str, chosen: ProviderId) -> String {
    let name = ProviderId::parse(provider).map_or_else(|| provider.to_string(), |p| p.display_name().to_string());
    if ProviderId::parse(provider) == Some(chosen) {
        format!("{name} · {kind} · sent back")
    } else {
        format!("{name} · {kind} · left out for {}", chosen.display_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels_name_the_item_and_say_whether_it_goes_back() {
        let code = json!({"executableCode": {"code": "1"}, "thoughtSignature": "c2ln"});
        assert_eq!(agent_input::ProviderItem::kind_of(&code), "executableCode");
        assert_eq!(
            label("openai-responses", "web_search_call", ProviderId::OpenAiResponses),
            "OpenAI Responses · web_search_call · sent back"
        );
        assert_eq!(
            label("gemini", "executableCode", ProviderId::OpenAiChat),
            "Gemini · executableCode · left out for OpenAI Chat Completions"
        );
    }
}
