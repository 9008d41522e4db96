//! contract §9, ml-commons' template substitution: with [`Options::ml_commons`](super::Options),
//! every string of the input that holds `${` is reported (`template_placeholder`), because the
//! cluster fills `${parameters.NAME}` inside the user's text from the agent's and connector's
//! parameters (ml-commons issue 5036) before the model sees it. Nothing is changed: the warning
//! only tells the user, and neither the library nor the gateway substitutes.

use crate::json::Json;
use crate::path::Loc;

use super::diagnostics;
use super::validator::Validator;

/// Strings reported one by one; the rest are counted in one warning at the input.
const MAX_REPORTED: usize = 20;

impl Validator<'_> {
    /// Reports the strings of `value` (the input, or `parameters.question`) that hold `${`.
    pub(super) fn placeholders(&mut self, value: &Json<'_>, loc: Loc<'_>) {
        let mut found = 0;
        self.walk_placeholders(value, loc, &mut found);
        if found > MAX_REPORTED {
            self.push(diagnostics::more_template_placeholders(loc.to_path(), found - MAX_REPORTED));
        }
    }

    fn walk_placeholders(&mut self, value: &Json<'_>, loc: Loc<'_>, found: &mut usize) {
        match value {
            Json::String(text) if holds_placeholder(text) => {
                *found += 1;
                if *found <= MAX_REPORTED {
                    self.push(diagnostics::template_placeholder(loc.to_path(), text));
                }
            }
            Json::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    self.walk_placeholders(item, loc.index(i), found);
                }
            }
            Json::Object(object) => {
                for (key, item) in object.iter() {
                    self.walk_placeholders(item, loc.key(key), found);
                }
            }
            Json::Null | Json::Bool(_) | Json::Number(_) | Json::String(_) => {}
        }
    }
}

/// Whether `text` holds `${`.
fn holds_placeholder(text: &str) -> bool {
    crate::json::occurrences(text, "${").next().is_some()
}

#[cfg(test)]
mod tests {
    use super::holds_placeholder;

    #[test]
    fn a_placeholder_is_a_dollar_sign_then_a_brace() {
        for (text, holds) in [
            ("${x}", true),
            ("a $${b}", true),
            ("cost: $5 {sic}", false),
            ("ends in $", false),
            ("$ {", false),
            ("", false),
        ] {
            assert_eq!(holds_placeholder(text), holds, "{text:?}");
            assert_eq!(holds_placeholder(text), text.contains("${"), "{text:?}");
        }
    }
}
