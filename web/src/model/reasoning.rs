//! An assistant message's reasoning state (`reasoningState`, contract §3.5) as the playground
//! labels it: the provider that wrote it, and whether the chosen provider gets it back (the
//! core's conversion leaves another provider's out, with the warning `reasoning_state_dropped`).

use agent_input::ProviderId;
use serde_json::Value;

/// The provider id under a message's `reasoningState`, when it has one.
pub(crate) fn provider_of(message: &Value) -> Option<String> {
    let state = message.get("reasoningState")?;
    if state.is_null() {
        return None;
    }
    Some(state.get("provider").and_then(Value::as_str).unwrap_or("?").to_string())
}

/// The badge's text: `reasoning state · Gemini · sent back`, or `… · left out for <chosen>`.
pub(crate) fn label(provider: &str, chosen: ProviderId) -> String {
    let name = ProviderId::parse(provider).map_or_else(|| provider.to_string(), |p| p.display_name().to_string());
    if sent_back(provider, chosen) {
        format!("reasoning state · {name} · sent back")
    } else {
        format!("reasoning state · {name} · left out for {}", chosen.display_name())
    }
}

/// Whether the chosen provider is the one that wrote the state.
pub(crate) fn sent_back(provider: &str, chosen: ProviderId) -> bool {
    ProviderId::parse(provider) == Some(chosen)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn labels_say_whether_the_state_goes_back() {
        let message = json!({"role": "assistant", "content": "Hi",
            "reasoningState": {"provider": "gemini", "items": [{"on": 0, "thoughtSignature": "EvE"}]}});
        let provider = provider_of(&message).unwrap();
        assert_eq!(label(&provider, ProviderId::Gemini), "reasoning state · Gemini · sent back");
        let other = label(&provider, ProviderId::AnthropicMessages);
        assert!(other.starts_with("reasoning state · Gemini · left out for "), "{other}");
        assert!(!sent_back(&provider, ProviderId::AnthropicMessages));
        assert_eq!(provider_of(&json!({"role": "assistant", "content": "Hi"})), None);
        assert_eq!(provider_of(&json!({"role": "assistant", "reasoningState": null})), None);
        assert_eq!(label("mystery", ProviderId::Gemini), "reasoning state · mystery · left out for Gemini");
    }
}
