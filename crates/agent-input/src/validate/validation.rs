//! The outcome of validating a request: the typed request when it is valid, and the report.

use serde::Serialize;

use crate::diagnostic::Report;
use crate::model::{ExecuteRequest, InputType};

/// The outcome of validating a request or a bare input.
#[derive(Debug, Clone)]
pub struct Validation<'a> {
    /// The typed request, present exactly when there are no errors.
    pub request: Option<ExecuteRequest<'a>>,
    /// The input's form, when it could be told (even if the input has errors).
    pub input_type: Option<InputType>,
    /// Everything found.
    pub report: Report,
    /// The prompt-only request, `{"parameters": {"prompt": "...", ...}}` with no
    /// `input`: its one error is `missing_input`, and this is the request with the prompt as its
    /// text input (at `/parameters/prompt`). Under a `parameters_schema` it is valid
    /// ([`crate::schema::extend_validation`]); without one it is not.
    pub prompt_request: Option<ExecuteRequest<'a>>,
}

impl<'a> Validation<'a> {
    /// Whether the input can be used.
    pub fn is_valid(&self) -> bool {
        self.request.is_some()
    }

    /// The report in its wire shape: `{"valid", "input_type", "errors", "warnings"}`.
    pub fn summary(&self) -> ValidationReport<'_> {
        ValidationReport {
            valid: self.is_valid(),
            input_type: self.input_type,
            errors: &self.report.errors,
            warnings: &self.report.warnings,
        }
    }

    /// The typed request, or the report when there are errors.
    pub fn into_result(self) -> Result<(ExecuteRequest<'a>, Report), Report> {
        match self.request {
            Some(request) => Ok((request, self.report)),
            None => Err(self.report),
        }
    }

    /// Under an agent's `parameters_schema` (contract §8): the prompt-only request
    /// ([`Validation::prompt_request`]) becomes the valid request, its `missing_input` lifted.
    /// Anything else is returned as it is.
    #[must_use]
    pub fn with_prompt_as_input(mut self) -> Self {
        if let Some(request) = self.prompt_request.take() {
            self.report.errors.retain(|d| d.code != crate::Code::MissingInput);
            self.input_type = Some(InputType::Text);
            self.request = Some(request);
        }
        self
    }

    /// The rules of `model` for the valid request, where no provider is chosen
    /// ([`crate::convert::check_model_alone`]): its errors make the request invalid.
    pub fn check_model(&mut self, model: &str) {
        if let Some(request) = &self.request {
            let checked = crate::convert::check_model_alone(model, request);
            if !checked.is_ok() {
                self.request = None;
            }
            self.report.extend(checked);
        }
    }

    pub(super) fn failed(report: Report) -> Self {
        Self { request: None, input_type: None, report, prompt_request: None }
    }
}

/// A validation result as it is written out.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct ValidationReport<'v> {
    /// No errors.
    pub valid: bool,
    /// `TEXT`, `CONTENT_BLOCKS`, `MESSAGES`, or `null` when the form could not be told.
    pub input_type: Option<InputType>,
    /// Problems that make the input unusable.
    pub errors: &'v [crate::Diagnostic],
    /// Problems worth knowing that do not.
    pub warnings: &'v [crate::Diagnostic],
}
