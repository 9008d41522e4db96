//! The type of each agent the proxy forwards to, so that input the agent's type refuses is
//! answered here (`AgentType::check_form`) and never reaches the cluster. A type is learnt from
//! the registration the proxy forwarded, or by reading the agent once; at most [`MAX_AGENTS`]
//! are kept, the oldest forgotten first, and a deleted agent is forgotten.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

use agent_input::convert::mlcommons::AgentType;
use serde_json::Value;

/// Most agents whose type is kept.
pub(super) const MAX_AGENTS: usize = 4096;

/// What the proxy knows of an agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Known {
    /// Registered with a `model` block (the unified interface): its type's input rules apply.
    Unified(AgentType),
    /// Registered without one (`llm`, tools only), or of a type this project does not know: the
    /// cluster judges its input.
    Other,
}

impl Known {
    /// What a registration body or a stored agent says: its `type` and whether it has `model`.
    pub(super) fn of(agent: &Value) -> Self {
        let unified = agent.get("model").is_some_and(Value::is_object);
        match agent.get("type").and_then(Value::as_str).and_then(AgentType::parse) {
            Some(agent_type) if unified => Self::Unified(agent_type),
            _ => Self::Other,
        }
    }
}

/// The kept types, oldest first in `order`.
#[derive(Debug, Default)]
pub(super) struct Agents {
    inner: Mutex<Inner>,
}

#[derive(Debug, Default)]
struct Inner {
    types: HashMap<String, Known>,
    order: VecDeque<String>,
}

impl Agents {
    pub(super) fn get(&self, agent_id: &str) -> Option<Known> {
        self.lock().types.get(agent_id).copied()
    }

    pub(super) fn insert(&self, agent_id: &str, known: Known) {
        let mut inner = self.lock();
        if inner.types.insert(agent_id.to_string(), known).is_none() {
            inner.order.push_back(agent_id.to_string());
        }
        while inner.order.len() > MAX_AGENTS {
            if let Some(oldest) = inner.order.pop_front() {
                inner.types.remove(&oldest);
            }
        }
    }

    pub(super) fn forget(&self, agent_id: &str) {
        let mut inner = self.lock();
        if inner.types.remove(agent_id).is_some() {
            inner.order.retain(|id| id != agent_id);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic elsewhere while holding the lock leaves a consistent map.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_agents_with_a_model_block_get_their_types_rules() {
        let model = json!({"model_id": "m", "model_provider": "bedrock/converse"});
        assert_eq!(
            Known::of(&json!({"type": "CONVERSATIONAL", "model": model})),
            Known::Unified(AgentType::Conversational)
        );
        assert_eq!(Known::of(&json!({"type": "conversational", "llm": {"model_id": "m"}})), Known::Other);
        assert_eq!(Known::of(&json!({"type": "new_kind", "model": model})), Known::Other);
    }

    #[test]
    fn keeps_at_most_the_bound_and_forgets_the_oldest() {
        let agents = Agents::default();
        for i in 0..=MAX_AGENTS {
            agents.insert(&format!("a{i}"), Known::Other);
        }
        assert_eq!(agents.get("a0"), None);
        assert_eq!(agents.get("a1"), Some(Known::Other));
        assert_eq!(agents.get(&format!("a{MAX_AGENTS}")), Some(Known::Other));
        agents.insert("a1", Known::Unified(AgentType::AgUi));
        assert_eq!(agents.get("a1"), Some(Known::Unified(AgentType::AgUi)));
        agents.forget("a1");
        assert_eq!(agents.get("a1"), None);
        assert_eq!(agents.lock().order.len(), MAX_AGENTS - 1);
    }
}
