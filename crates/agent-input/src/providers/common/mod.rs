//! The steps every provider shares, one folder per public face: `convert` (the request writer's
//! trait, the conversion context and profile, turns, media in bodies), `import` (the standard
//! request being built from a provider's body), `items` (provider items carried opaquely), `response` (an answer read back), `stream` (the
//! neutral events and the framings), and `mlcommons` (ml-commons' model-provider facts and the
//! parity writer). Nothing here knows a particular provider.

pub(crate) mod convert;
pub(crate) mod fields;
pub(crate) mod import;
pub(crate) mod items;
pub(crate) mod mlcommons;
pub(crate) mod response;
pub(crate) mod stream;
