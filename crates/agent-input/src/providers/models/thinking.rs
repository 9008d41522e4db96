//! Reasoning settings a model refuses: thinking budgets out of range, budgeted thinking where only
//! adaptive thinking is taken, function tools with a reasoning effort on Chat Completions.

use super::family::Family;
use super::finding::{Finding, Rule};
use super::sampling::{Reasoning, gpt5_minor};
use crate::providers::id::ProviderId;

/// The `thinkingBudget` values a Gemini 2.5 model takes, besides -1 (dynamic): `(least, most,
/// whether 0 turns thinking off)`. Gemini 3 takes `thinkingLevel`; other families, no budget.
pub fn gemini_budget_range(family: &Family) -> Option<(i64, i64, bool)> {
    match family.id {
        "gemini-2.5-pro" => Some((128, 32_768, false)),
        "gemini-2.5-flash" => Some((1, 24_576, true)),
        "gemini-2.5-flash-lite" => Some((512, 24_576, true)),
        _ => None,
    }
}

/// A Gemini `thinkingBudget` (at `/thinkingBudget`) the model refuses.
pub fn gemini_budget(family: &Family, budget: i64) -> Option<Finding> {
    let (least, most, zero) = gemini_budget_range(family)?;
    if budget == -1 || (budget == 0 && zero) || (least..=most).contains(&budget) {
        return None;
    }
    let name = family.name;
    let message = if budget == 0 {
        format!("{name} cannot turn thinking off: `thinkingBudget` is -1 (dynamic) or {least} to {most}")
    } else if zero {
        format!("{name} takes a `thinkingBudget` of -1 (dynamic), 0 (off) or {least} to {most}; this one is {budget}")
    } else {
        format!("{name} takes a `thinkingBudget` of -1 (dynamic) or {least} to {most}; this one is {budget}")
    };
    Some(Finding::new(Rule::ThinkingBudget, "/thinkingBudget", message))
}

/// Anthropic's `thinking` the model refuses: budgeted thinking on Claude Opus 4.7 and later
/// (adaptive only), a `budget_tokens` under 1024 or not under `max_tokens`.
pub fn anthropic_thinking(family: &Family, reasoning: Reasoning<'_>, max_tokens: Option<u64>) -> Option<Finding> {
    let Reasoning::Budget(budget) = reasoning else { return None };
    let name = family.name;
    if family.id == "claude-4.7" {
        let message = format!("{name} takes adaptive thinking only: `thinking.type` \"adaptive\", without a budget");
        return Some(Finding::new(Rule::ThinkingBudget, "/thinking/type", message));
    }
    if !matches!(family.id, "claude-3.7" | "claude-4") {
        let message = format!("{name} has no extended thinking");
        return Some(Finding::new(Rule::ThinkingBudget, "/thinking", message));
    }
    if budget < 1024 {
        let message = format!("`budget_tokens` is at least 1024; this one is {budget}");
        return Some(Finding::new(Rule::ThinkingBudget, "/thinking/budget_tokens", message));
    }
    if let Some(max) = max_tokens.filter(|&max| budget >= max) {
        let message = format!("`budget_tokens` ({budget}) must be less than `max_tokens` ({max})");
        return Some(Finding::new(Rule::ThinkingBudget, "/thinking/budget_tokens", message));
    }
    None
}

/// Function tools with a reasoning effort on `OpenAI` Chat Completions, which GPT-5.2 and later
/// refuse ("use `/v1/responses` or set `reasoning_effort` to 'none'"); from GPT-5.6, whose default
/// effort is not `none`, also without an effort. At `/reasoning_effort`.
pub fn tools_with_effort(
    family: &Family,
    model_id: &str,
    provider: ProviderId,
    function_tools: bool,
    reasoning: Reasoning<'_>,
) -> Option<Finding> {
    if provider != ProviderId::OpenAiChat || !function_tools || family.id != "gpt-5.x" {
        return None;
    }
    let minor = gpt5_minor(model_id)?;
    let refused = match reasoning {
        Reasoning::Effort(effort) => minor >= 2 && effort != "none",
        _ => minor >= 6,
    };
    refused.then(|| {
        let message = format!(
            "{model_id} takes function tools with a reasoning effort on the Responses API only; on Chat \
             Completions set `reasoning_effort` to \"none\", or convert to OpenAI Responses"
        );
        Finding::new(Rule::ToolsWithReasoningEffort, "/reasoning_effort", message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::models::lookup;

    #[test]
    fn gemini_budgets_per_model() {
        let cases: &[(&str, i64, bool)] = &[
            ("gemini-2.5-pro", 128, true),
            ("gemini-2.5-pro", 32_768, true),
            ("gemini-2.5-pro", 0, false),
            ("gemini-2.5-pro", 127, false),
            ("gemini-2.5-pro", -1, true),
            ("gemini-2.5-flash", 0, true),
            ("gemini-2.5-flash", 24_576, true),
            ("gemini-2.5-flash", 24_577, false),
            ("gemini-2.5-flash-lite", 0, true),
            ("gemini-2.5-flash-lite", 511, false),
            ("gemini-2.5-flash-lite", 512, true),
            ("gemini-3.1-pro-preview", 99_999, true), // not a budget family
        ];
        for &(model, budget, taken) in cases {
            let found = gemini_budget(lookup(model).unwrap(), budget);
            assert_eq!(found.is_none(), taken, "{model} {budget}: {found:?}");
        }
        let pro = gemini_budget(lookup("gemini-2.5-pro").unwrap(), 0).unwrap();
        assert_eq!(
            pro.message,
            "Gemini 2.5 Pro cannot turn thinking off: `thinkingBudget` is -1 (dynamic) or 128 to 32768"
        );
    }

    #[test]
    fn anthropic_budgets() {
        let check =
            |model: &str, reasoning, max| anthropic_thinking(lookup(model).unwrap(), reasoning, max).map(|f| f.pointer);
        assert_eq!(check("claude-sonnet-4-5", Reasoning::Budget(2048), Some(4096)), None);
        assert_eq!(
            check("claude-sonnet-4-5", Reasoning::Budget(512), Some(4096)),
            Some("/thinking/budget_tokens".into())
        );
        assert_eq!(
            check("claude-sonnet-4-5", Reasoning::Budget(4096), Some(4096)),
            Some("/thinking/budget_tokens".into())
        );
        assert_eq!(check("claude-opus-4-8", Reasoning::Budget(2048), Some(4096)), Some("/thinking/type".into()));
        assert_eq!(check("claude-opus-4-8", Reasoning::Adaptive, Some(4096)), None);
        assert_eq!(check("claude-3-5-haiku-20241022", Reasoning::Budget(2048), None), Some("/thinking".into()));
    }

    #[test]
    fn function_tools_with_effort_on_chat_completions() {
        let check = |model: &str, provider, tools, reasoning| {
            tools_with_effort(lookup(model).unwrap(), model, provider, tools, reasoning).is_some()
        };
        let chat = ProviderId::OpenAiChat;
        assert!(check("gpt-5.4-mini", chat, true, Reasoning::Effort("medium")));
        assert!(!check("gpt-5.4-mini", chat, true, Reasoning::Effort("none")));
        assert!(!check("gpt-5.4-mini", chat, true, Reasoning::Default));
        assert!(!check("gpt-5.4-mini", chat, false, Reasoning::Effort("medium")));
        assert!(!check("gpt-5.4-mini", ProviderId::OpenAiResponses, true, Reasoning::Effort("medium")));
        assert!(check("gpt-5.6-terra", chat, true, Reasoning::Default));
        assert!(!check("gpt-5-mini", chat, true, Reasoning::Effort("medium")));
        assert!(!check("o3", chat, true, Reasoning::Effort("high")));
    }
}
