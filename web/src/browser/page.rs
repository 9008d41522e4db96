//! The page itself: its clock and its origin.

/// Milliseconds from the page's performance clock (0 where there is none).
pub(crate) fn now() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// This page's origin (`http://127.0.0.1:9200`), or empty.
pub(crate) fn origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}
