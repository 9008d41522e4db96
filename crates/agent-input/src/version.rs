//! An ml-commons (`OpenSearch`) version, shared by the registration plans and the ml-commons
//! prediction.

use std::fmt;

/// An ml-commons (`OpenSearch`) version, `major.minor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// Major version.
    pub major: u32,
    /// Minor version.
    pub minor: u32,
}

impl Version {
    /// The first version with the unified agent API (ml-commons #4546), off by default.
    pub const UNIFIED_API: Version = Version::new(3, 5);
    /// The first version with the unified agent API on by default.
    pub const UNIFIED_API_DEFAULT_ON: Version = Version::new(3, 9);
    /// The first version with `_llm_interface` function calling for Bedrock Converse and `OpenAI`
    /// (`FunctionCallingFactory`); Gemini's arrived with the unified API in 3.5.
    pub const FUNCTION_CALLING: Version = Version::new(3, 0);
    /// The newest version this module knows; the CLI's default.
    pub const LATEST: Version = Version::new(3, 9);

    /// A version from its parts.
    pub const fn new(major: u32, minor: u32) -> Self {
        Self { major, minor }
    }

    /// Reads `X.Y` (a patch part `X.Y.Z` and a suffix such as `-SNAPSHOT` are ignored).
    pub fn parse(text: &str) -> Option<Self> {
        let core = text.trim().split(['-', '+']).next()?;
        let mut parts = core.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        match parts.next() {
            None => Some(Self::new(major, minor)),
            Some(patch) if patch.parse::<u32>().is_ok() && parts.next().is_none() => Some(Self::new(major, minor)),
            Some(_) => None,
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.major, self.minor)
    }
}
