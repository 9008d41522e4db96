//! localStorage, read and written as JSON; a browser that refuses storage just keeps nothing.

use serde::Serialize;
use serde::de::DeserializeOwned;

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok()?
}

/// The value stored under `key`, when there is one and it parses.
pub(crate) fn load<T: DeserializeOwned>(key: &str) -> Option<T> {
    serde_json::from_str(&storage()?.get_item(key).ok()??).ok()
}

/// Stores `value` under `key`.
pub(crate) fn save(key: &str, value: &impl Serialize) {
    if let Some(storage) = storage()
        && let Ok(text) = serde_json::to_string(value)
    {
        let _ = storage.set_item(key, &text);
    }
}
