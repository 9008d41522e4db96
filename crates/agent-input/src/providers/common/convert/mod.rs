//! What every provider's conversion shares: the [`Provider`] trait a converter implements, the
//! conversion context and provider profile (`context`), the messages as turns (`turns`) and media
//! in bodies (`payload`). Nothing here knows a particular provider; `providers/` builds on it and
//! `convert` dispatches to it.

mod context;
pub(crate) mod marks;
pub(crate) mod model;
pub(crate) mod payload;
pub(crate) mod turns;
mod writer;

pub use crate::options::{ConvertOptions, ToolEntry, ToolSpec};
pub(crate) use crate::providers::id::ProviderId;
pub use context::DEFAULT_MAX_TOKENS;
pub(crate) use context::{
    Conversion, Declared, PLAIN_NAME, Placement, Profile, Rule, check_options, non_blank, option_path,
};
pub(crate) use model::ModelCheck;
pub(crate) use payload::Splice;
pub use writer::{Capabilities, Converted, Provider};
pub(crate) use writer::{indent, serialize_failure};
