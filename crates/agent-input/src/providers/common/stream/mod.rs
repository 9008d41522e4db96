//! What every provider's stream decoder shares: the neutral [`StreamEvent`]s, the
//! [`StreamError`]s, the framings (`sse`, `event_stream`) and the [`Answer`] being gathered. Nothing
//! here knows a particular provider; each decoder lives in its folder under `providers/`.

mod answer;
pub mod event_stream;
pub mod sse;

pub use answer::*;
