//! What a model takes, by family: the capability table generated from `LiteLLM`'s model map
//! (`table`, scripts/gen-models.py), the lookup of a model id as users write it, and the rules
//! no table holds, as pure functions returning [`Finding`]s that a provider turns into
//! diagnostics. An id no family matches is `None`: the caller warns (`unknown_model`) and keeps
//! to the provider's own checks. The table is compiled with feature `models` (on by default).

mod family;
mod finding;
pub mod inputs;
mod lookup;
pub mod pixels;
pub mod roles;
pub mod sampling;
pub mod schema;
#[cfg(feature = "models")]
mod table;
pub mod thinking;

pub use family::{Family, Support, Vendor};
#[cfg(not(feature = "models"))]
pub use finding::NO_TABLE;
pub use finding::{Finding, Rule, unknown_model};
pub use lookup::{SOURCE, families, lookup, normalize};
