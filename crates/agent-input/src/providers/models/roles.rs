//! Roles a model has no place for.

use super::family::{Family, Support, Vendor};
use super::finding::{Finding, Rule};
use crate::providers::id::ProviderId;

/// A system prompt for a model that takes none (Bedrock: Amazon Titan, Mistral 7B and Mixtral
/// Instruct). At the pointer the caller gives (`/system`).
pub fn system_prompt(family: &Family, pointer: &str) -> Option<Finding> {
    (family.system_messages == Support::No).then(|| {
        let message = format!("{} takes no system prompt; put the instructions in the first user message", family.name);
        Finding::new(Rule::RoleNotSupported, pointer, message)
    })
}

/// A `system` message among the messages of an Anthropic Messages body (`messages[i].role`):
/// the API's roles are `user` and `assistant`, the system prompt is the body's top-level `system`,
/// except on the models that take mid-conversation system messages (the table's
/// `mid_conversation_system`: Claude Opus 4.7 and later). At the pointer the caller gives.
pub fn message_role(family: &Family, provider: ProviderId, role: &str, pointer: &str) -> Option<Finding> {
    let refused = provider == ProviderId::AnthropicMessages
        && family.vendor == Vendor::Anthropic
        && role == "system"
        && !matches!(family.mid_conversation_system, Support::Yes | Support::Varies);
    refused.then(|| {
        let message = format!(
            "{} takes no `system` message in `messages`; the system prompt goes in the top-level `system`",
            family.name
        );
        Finding::new(Rule::RoleNotSupported, pointer, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::models::lookup;

    #[test]
    fn system_prompts() {
        for (model, refused) in [
            ("amazon.titan-text-express-v1", true),
            ("mistral.mistral-7b-instruct-v0:2", true),
            ("meta.llama3-8b-instruct-v1:0", false),
            ("anthropic.claude-3-haiku-20240307-v1:0", false),
            ("amazon.nova-pro-v1:0", false),
        ] {
            assert_eq!(system_prompt(lookup(model).unwrap(), "/system").is_some(), refused, "{model}");
        }
    }

    #[test]
    fn system_messages_in_anthropic_messages() {
        let older = lookup("claude-sonnet-4-5").unwrap();
        let found = message_role(older, ProviderId::AnthropicMessages, "system", "/messages/1/role").unwrap();
        assert_eq!((found.rule, found.pointer.as_str()), (Rule::RoleNotSupported, "/messages/1/role"));
        assert!(message_role(older, ProviderId::AnthropicMessages, "user", "/messages/0/role").is_none());
        assert!(message_role(older, ProviderId::BedrockConverse, "system", "/messages/1/role").is_none());
        // Claude Opus 4.7 and later take mid-conversation system messages.
        let newer = lookup("claude-opus-4-8").unwrap();
        assert!(message_role(newer, ProviderId::AnthropicMessages, "system", "/messages/1/role").is_none());
        let gpt = lookup("gpt-4o").unwrap();
        assert!(message_role(gpt, ProviderId::AnthropicMessages, "system", "/messages/1/role").is_none());
    }
}
