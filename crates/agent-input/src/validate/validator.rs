//! The state of one validation — the options, the report so far, the input's form once told —
//! and what every rule module shares: reading fields, unknown keys, array limits.
//!
//! The rules are methods of [`Validator`] spread over the modules of their contract section
//! (`envelope`, `classify`, `message`, ...); each returns the typed value it read, or `None`
//! once it has reported why it could not.

use crate::diagnostic::{Diagnostic, Report};
use crate::field::{Fields, Nulls};
use crate::json::{Json, Object, same_key, type_name};
use crate::model::{ExecuteRequest, InputType, java_trim};
use crate::path::Loc;

use super::diagnostics::{self, FieldsOf, Subject};
use super::validation::Validation;
use crate::options::Options;

/// Unknown keys reported one by one per object; the rest are counted in one warning.
const MAX_IGNORED_PER_OBJECT: usize = 20;

/// One validation in progress.
pub(super) struct Validator<'o> {
    pub(super) options: &'o Options,
    report: Report,
    /// The input's form, set as soon as it is known (even if the input then has errors).
    pub(super) input_type: Option<InputType>,
    /// The request's input is its `parameters.prompt` (no `input`, no `question`).
    pub(super) prompt_only: bool,
    /// The caller's memo of base64 text already checked (`validate_request_known`).
    pub(super) known_base64: Option<&'o dyn Fn(&str) -> bool>,
}

/// The fields of `object` (at `loc`), read as the validator reads them: `null` is a value of the
/// wrong type, and problems are worded as fields of `what` ("the source").
pub(super) fn fields<'v, 'a, 'p, 'w>(
    object: &'v Object<'a>,
    loc: Loc<'p>,
    what: &'w str,
) -> Fields<'v, Object<'a>, Loc<'p>, FieldsOf<'w>> {
    Fields::new(object, loc, FieldsOf(what)).nulls(Nulls::Value)
}

impl<'o> Validator<'o> {
    pub(super) fn new(options: &'o Options) -> Self {
        Self { options, report: Report::default(), input_type: None, prompt_only: false, known_base64: None }
    }

    pub(super) fn finish<'a>(self, request: Option<ExecuteRequest<'a>>, text: Option<&'a str>) -> Validation<'a> {
        let request = request.map(|r| ExecuteRequest { source_text: text, ..r });
        // A prompt-only request whose one error is its `missing_input` is kept aside.
        let (request, prompt_request) = match request {
            Some(request) if self.report.is_ok() => (Some(request), None),
            Some(request) if self.prompt_only && self.report.errors.len() == 1 => (None, Some(request)),
            _ => (None, None),
        };
        Validation { input_type: self.input_type, request, report: self.report, prompt_request }
    }

    pub(super) fn push(&mut self, diagnostic: Diagnostic) {
        self.report.push(diagnostic);
    }

    /// The value read, or `None` with its problem reported.
    pub(super) fn record<T>(&mut self, read: Result<T, Diagnostic>) -> Option<T> {
        self.report.record(read)
    }

    /// Reports `value`, at `loc`, as not the `expected` JSON type; `what` names it in the message.
    pub(super) fn wrong_type(&mut self, loc: Loc<'_>, what: &str, expected: &str, value: &Json<'_>) {
        self.push(diagnostics::invalid_field_type(loc.to_path(), what, expected, type_name(value)));
    }

    pub(super) fn too_many(&mut self, loc: Loc<'_>, len: usize, limit: usize, what: &str) {
        self.push(diagnostics::too_many(loc.to_path(), len, limit, what));
    }

    /// A required string field that must not be blank (`empty_field`).
    pub(super) fn required_nonblank<'a>(
        &mut self,
        object: &'a Object<'_>,
        key: &str,
        loc: Loc<'_>,
        what: &str,
    ) -> Option<&'a str> {
        let value = self.record(fields(object, loc, what).str(key))?;
        if java_trim(value).is_empty() {
            self.push(diagnostics::empty_field(loc.key(key).to_path(), key, what));
            return None;
        }
        Some(value)
    }

    pub(super) fn ignore_unknown_keys(&mut self, object: &Object<'_>, loc: Loc<'_>, known: &[&str], what: Subject<'_>) {
        self.ignore_keys_except(object, loc, known, what, None);
    }

    /// Reports unknown keys (all but `skip`), at most [`MAX_IGNORED_PER_OBJECT`] one by one and
    /// the rest in one summary, so a flood of keys cannot flood the report.
    pub(super) fn ignore_keys_except(
        &mut self,
        object: &Object<'_>,
        loc: Loc<'_>,
        known: &[&str],
        what: Subject<'_>,
        skip: Option<&str>,
    ) {
        let mut unknown = object
            .keys()
            .filter(|key| !known.iter().any(|known| same_key(known, key)) && skip.is_none_or(|skip| skip != *key));
        for key in unknown.by_ref().take(MAX_IGNORED_PER_OBJECT) {
            self.push(diagnostics::field_ignored(loc.key(key).to_path(), key, known, what));
        }
        let rest = unknown.count();
        if rest > 0 {
            self.push(diagnostics::more_fields_ignored(loc.to_path(), rest, what));
        }
    }
}
