//! contract §3 Messages, tool calls: an assistant's `toolCalls` item needs `id` and `function` with
//! `name` and `arguments` — a string holding a JSON object (`invalid_tool_arguments`); `type`
//! defaults to `function`.

use std::borrow::Cow;

use crate::json::{Document, Json};
use crate::model::ToolCall;
use crate::path::Loc;

use super::diagnostics::{self, Subject};
use super::validator::{Validator, fields};

impl Validator<'_> {
    pub(super) fn tool_call<'a>(&mut self, value: &'a Json<'_>, loc: Loc<'_>) -> Option<ToolCall<'a>> {
        let Json::Object(object) = value else {
            self.wrong_type(loc, "a tool call", "object", value);
            return None;
        };
        self.ignore_unknown_keys(object, loc, &["id", "type", "function"], Subject::ToolCall);
        let id = self.required_nonblank(object, "id", loc, "the tool call");
        let kind = self
            .record(fields(object, loc, "the tool call").optional_str("type"))
            .map(|kind| Cow::Borrowed(kind.unwrap_or("function")));
        let function_loc = loc.key("function");
        let function = match object.get("function") {
            Some(Json::Object(function)) => {
                self.ignore_unknown_keys(function, function_loc, &["name", "arguments"], Subject::ToolFunction);
                let what = "the tool call's function";
                let name = self.required_nonblank(function, "name", function_loc, what);
                let arguments =
                    self.record(fields(function, function_loc, what).str("arguments")).and_then(|arguments| {
                        // Parsed for real (not skimmed): lone surrogates and out-of-range numbers
                        // only fail when decoded, and providers decode them.
                        let is_object = Document::parse(arguments).is_ok_and(|d| d.root.is_object());
                        if is_object {
                            Some(arguments)
                        } else {
                            let at = function_loc.key("arguments").to_path();
                            self.push(diagnostics::invalid_tool_arguments(at, arguments));
                            None
                        }
                    });
                name.zip(arguments)
            }
            Some(other) => {
                self.wrong_type(function_loc, "'function'", "object", other);
                None
            }
            None => {
                self.push(diagnostics::tool_call_missing_function(function_loc.to_path()));
                None
            }
        };
        let (name, arguments) = function?;
        Some(ToolCall {
            id: Cow::Borrowed(id?),
            kind: kind?,
            name: Cow::Borrowed(name),
            arguments: Cow::Borrowed(arguments),
        })
    }
}
