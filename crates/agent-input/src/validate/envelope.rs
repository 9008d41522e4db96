//! contract §2, the execute request envelope: `{"input": ..., "parameters": {...}}`. `input` wins over
//! the legacy `parameters.question` (with `question_ignored`); without either, `missing_input` —
//! which a `parameters_schema` lifts when `parameters.prompt` is given (contract §8).

use std::borrow::Cow;

use crate::json::{Json, Object};
use crate::model::{AgentInput, ExecuteRequest, InputType, java_trim};
use crate::path::{Loc, Path};

use super::diagnostics::{self, Subject};
use super::validator::Validator;

/// The keys of the envelope; others are reported as ignored.
const ENVELOPE_KEYS: &[&str] = &["input", "parameters", "agent_id", "tenant_id", "isAsync"];

impl Validator<'_> {
    pub(super) fn request<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<ExecuteRequest<'a>> {
        let Json::Object(object) = value else {
            self.wrong_type(loc, "the request body", "object", value);
            return None;
        };
        self.ignore_unknown_keys(object, loc, ENVELOPE_KEYS, Subject::Request);
        let parameters_loc = loc.key("parameters");
        let parameters = match object.get("parameters") {
            None | Some(Json::Null) => None,
            Some(Json::Object(map)) => Some(map),
            Some(other) => {
                self.wrong_type(parameters_loc, "'parameters'", "object", other);
                None
            }
        };
        let question = parameters.and_then(|p| p.get("question"));
        let question_loc = parameters_loc.key("question");
        let (input, legacy_question, input_path) = if let Some(input) = object.get("input") {
            if question.is_some() {
                self.push(diagnostics::question_ignored(question_loc.to_path()));
            }
            let input_loc = loc.key("input");
            (self.input(input, input_loc), false, input_loc.to_path())
        } else {
            match question {
                Some(Json::String(text)) => {
                    self.input_type = Some(InputType::Text);
                    let input = if java_trim(text).is_empty() {
                        self.push(diagnostics::blank_question(question_loc.to_path()));
                        None
                    } else {
                        Some(AgentInput::Text(Cow::Borrowed(text.as_ref())))
                    };
                    (input, true, question_loc.to_path())
                }
                Some(other) => {
                    self.wrong_type(question_loc, "'parameters.question'", "string", other);
                    (None, true, question_loc.to_path())
                }
                None => {
                    // The prompt-only request: `parameters.prompt` is the input, but
                    // only under a `parameters_schema` (`schema::extend_validation` accepts it).
                    if let Some(Json::String(prompt)) = parameters.and_then(|p| p.get("prompt")) {
                        self.push(diagnostics::missing_input_prompt_only(loc.to_path()));
                        self.prompt_only = true;
                        let at = parameters_loc.key("prompt").to_path();
                        (Some(AgentInput::Text(Cow::Borrowed(prompt.as_ref()))), false, at)
                    } else {
                        self.push(diagnostics::missing_input(loc.to_path()));
                        (None, false, Path::root())
                    }
                }
            }
        };
        let mut parameters = parameters.map(Object::to_map).unwrap_or_default();
        if legacy_question {
            // `shift_remove` keeps the other parameters in their order (`remove` swaps).
            parameters.shift_remove("question");
        }
        Some(ExecuteRequest { input: input?, parameters, legacy_question, input_path, source_text: None })
    }
}
