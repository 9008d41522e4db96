//! The model field's suggestions: the ids the capability table was generated from (web/build.rs),
//! for the chosen provider, each of a family the table knows.

use agent_input::ProviderId;

/// `(provider, id)` pairs.
const MODEL_IDS: &[(&str, &str)] = include!(concat!(env!("OUT_DIR"), "/model_ids.rs"));

/// The model ids to suggest for `provider`, in the source's order.
pub(crate) fn suggestions(provider: ProviderId) -> Vec<&'static str> {
    MODEL_IDS
        .iter()
        .filter(|(p, id)| *p == provider.as_str() && agent_input::models::lookup(id).is_some())
        .map(|&(_, id)| id)
        .collect()
}

/// The name of the family a model id is of, for the field's hint; `None` when the table has none.
pub(crate) fn family_name(id: &str) -> Option<&'static str> {
    agent_input::models::lookup(id).map(|family| family.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_provider_has_its_own_ids() {
        let chat = suggestions(ProviderId::OpenAiChat);
        assert!(chat.contains(&"gpt-4o") && chat.contains(&"o3-mini"), "{chat:?}");
        assert!(!chat.iter().any(|id| id.starts_with("claude") || id.starts_with("gemini")));
        let gemini = suggestions(ProviderId::Gemini);
        assert!(gemini.contains(&"gemini-2.5-pro"), "{gemini:?}");
        assert!(gemini.iter().all(|id| !id.contains('/')), "{gemini:?}");
        let bedrock = suggestions(ProviderId::BedrockConverse);
        assert!(bedrock.iter().any(|id| id.starts_with("us.anthropic.claude")), "{bedrock:?}");
        assert!(bedrock.iter().all(|id| !id.contains('/')));
        let anthropic = suggestions(ProviderId::AnthropicMessages);
        assert!(anthropic.contains(&"claude-sonnet-4-5"), "{anthropic:?}");
        for provider in ProviderId::ALL {
            let ids = suggestions(*provider);
            let mut unique = ids.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(unique.len(), ids.len(), "{provider:?} once each");
        }
        assert_eq!(family_name("my-fine-tune"), None);
        assert!(family_name("o3-mini").is_some());
    }
}
