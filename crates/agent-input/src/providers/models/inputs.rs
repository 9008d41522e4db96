//! What a model takes as input at all: images, PDFs, video and function tools, from the
//! capability table. Only a family whose sources all say "no" is refused.

use super::family::{Family, Support};
use super::finding::{Finding, Rule};

/// A kind of input a request carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Input {
    /// An image block.
    Image,
    /// A PDF document.
    Pdf,
    /// A video block.
    Video,
    /// Function tool specs.
    FunctionTools,
}

/// The input, at the pointer the caller gives, when the model takes none of it.
pub fn check(family: &Family, input: Input, pointer: &str) -> Option<Finding> {
    let (support, what) = match input {
        Input::Image => (family.image_input, "images"),
        Input::Pdf => (family.pdf_input, "PDF documents"),
        Input::Video => (family.video_input, "video"),
        Input::FunctionTools => (family.function_calling, "function tools"),
    };
    (support == Support::No).then(|| {
        let message = format!("{} takes no {what}; choose a model that does, or leave them out", family.name);
        Finding::new(Rule::InputNotSupported, pointer, message)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::providers::models::lookup;

    #[test]
    fn inputs_per_family() {
        let cases: &[(&str, Input, bool)] = &[
            ("o3-mini", Input::Image, false),
            ("o4-mini", Input::Image, true),
            ("meta.llama3-8b-instruct-v1:0", Input::FunctionTools, false),
            ("meta.llama3-8b-instruct-v1:0", Input::Image, false),
            ("us.meta.llama3-2-11b-instruct-v1:0", Input::Image, true), // varies in the family: not refused
            ("amazon.titan-text-express-v1", Input::FunctionTools, false),
            ("anthropic.claude-3-haiku-20240307-v1:0", Input::Image, true),
            ("gemini-2.5-pro", Input::Video, true),
            ("gpt-4o", Input::FunctionTools, true),
        ];
        for &(model, input, taken) in cases {
            let found = check(lookup(model).unwrap(), input, "/input/0");
            assert_eq!(found.is_none(), taken, "{model} {input:?}: {found:?}");
        }
        let found = check(lookup("o3-mini").unwrap(), Input::Image, "/input/1").unwrap();
        assert_eq!(found.message, "o3-mini takes no images; choose a model that does, or leave them out");
        assert_eq!(found.rule.code(), crate::diagnostic::Code::UnsupportedByProvider);
    }
}
