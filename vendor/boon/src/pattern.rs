// agent-input vendor patch (VENDORED.md): the regular-expression engine of `pattern`,
// `patternProperties` and the `regex` format. Native builds keep `regex` (after the ECMA-262
// translation in `ecma.rs`), with `fancy-regex` for look-around; wasm32-unknown-unknown uses the
// JavaScript engine's own `RegExp` with the `u` flag, the dialect JSON Schema specifies, so the
// module links no engine.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use native::{compile, Regex};

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
mod native {
    /// `regex` after the ECMA-262 translation; what it cannot run (look-around, backreferences,
    /// which ECMA-262 has) goes to `fancy-regex`, as written.
    #[derive(Debug)]
    pub(crate) enum Regex {
        Plain(regex::Regex),
        Fancy(fancy_regex::Regex),
    }

    impl Regex {
        pub(crate) fn is_match(&self, text: &str) -> bool {
            match self {
                Self::Plain(regex) => regex.is_match(text),
                // A backtracking limit reached is not a match.
                Self::Fancy(regex) => regex.is_match(text).unwrap_or(false),
            }
        }

        pub(crate) fn as_str(&self) -> &str {
            match self {
                Self::Plain(regex) => regex.as_str(),
                Self::Fancy(regex) => regex.as_str(),
            }
        }
    }

    pub(crate) fn compile(pattern: &str) -> Result<Regex, Box<dyn std::error::Error>> {
        let plain = crate::ecma::convert(pattern).and_then(|ecma| Ok(regex::Regex::new(ecma.as_ref())?));
        match plain {
            Ok(regex) => Ok(Regex::Plain(regex)),
            Err(error) => fancy_regex::Regex::new(pattern).map(Regex::Fancy).map_err(|_| error),
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use js::{compile, Regex};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod js {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        // `js_sys::RegExp::new` does not catch the SyntaxError of an invalid pattern.
        #[wasm_bindgen(catch, js_name = RegExp)]
        fn new_regexp(pattern: &str, flags: &str) -> Result<js_sys::RegExp, JsValue>;
    }

    #[derive(Debug)]
    pub(crate) struct Regex {
        source: String,
        regexp: js_sys::RegExp,
    }

    impl Regex {
        pub(crate) fn is_match(&self, text: &str) -> bool {
            self.regexp.test(text)
        }

        pub(crate) fn as_str(&self) -> &str {
            &self.source
        }
    }

    pub(crate) fn compile(pattern: &str) -> Result<Regex, Box<dyn std::error::Error>> {
        match new_regexp(pattern, "u") {
            Ok(regexp) => Ok(Regex { source: pattern.to_owned(), regexp }),
            Err(error) => Err(js_sys::Error::from(error).message().as_string().unwrap_or_default().into()),
        }
    }
}
