//! Conversations the gateway validated itself, kept in memory so that a continued turn does not
//! parse and validate its stored history again: each stored message is validated when it is
//! written (the input by the request's validation, the answer by the response parser), and
//! again only once after a restart or an eviction. Bounded by [`CACHE_BYTES`] and
//! [`CACHE_ENTRIES`], least recently used first out.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use agent_input::Message;

/// Most bytes of conversations kept, counted as their stored JSON.
pub const CACHE_BYTES: usize = 64 * 1024 * 1024;

/// Most conversations kept (finding the least recently used one is a scan of them all).
pub const CACHE_ENTRIES: usize = 4096;

/// The cache, shared by all requests.
#[derive(Debug, Clone, Default)]
pub struct HistoryCache {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Debug, Default)]
struct Inner {
    entries: HashMap<String, Entry>,
    bytes: usize,
    clock: u64,
}

#[derive(Debug)]
struct Entry {
    messages: Arc<Vec<Message<'static>>>,
    bytes: usize,
    used: u64,
}

impl HistoryCache {
    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Nothing is left half-done under this lock: a poisoned one is still consistent.
        self.inner.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The messages of `memory_id` when the cache holds exactly the `count` stored ones.
    pub fn get(&self, memory_id: &str, count: usize) -> Option<Arc<Vec<Message<'static>>>> {
        let mut inner = self.lock();
        inner.clock += 1;
        let clock = inner.clock;
        let entry = inner.entries.get_mut(memory_id).filter(|e| e.messages.len() == count)?;
        entry.used = clock;
        Some(Arc::clone(&entry.messages))
    }

    /// Keeps `messages`, every stored message of `memory_id` (`bytes` of stored JSON), evicting
    /// the least recently used conversations to stay within [`CACHE_BYTES`] and [`CACHE_ENTRIES`].
    pub fn put(&self, memory_id: &str, messages: Vec<Message<'static>>, bytes: usize) {
        let mut inner = self.lock();
        if let Some(old) = inner.entries.remove(memory_id) {
            inner.bytes -= old.bytes;
        }
        if bytes > CACHE_BYTES {
            return;
        }
        while inner.bytes + bytes > CACHE_BYTES || inner.entries.len() >= CACHE_ENTRIES {
            let Some(oldest) = inner.entries.iter().min_by_key(|(_, e)| e.used).map(|(k, _)| k.clone()) else { break };
            if let Some(old) = inner.entries.remove(&oldest) {
                inner.bytes -= old.bytes;
            }
        }
        inner.clock += 1;
        let used = inner.clock;
        inner.bytes += bytes;
        inner.entries.insert(memory_id.to_string(), Entry { messages: Arc::new(messages), bytes, used });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_input::{ContentBlock, Role};

    fn messages(n: usize) -> Vec<Message<'static>> {
        let message = Message {
            role: Role::User,
            content: vec![ContentBlock::Text("hi".into())],
            tool_calls: Vec::new(),
            tool_call_id: None,
            json_result: false,
            reasoning_state: None,
            provider_fields: None,
        };
        vec![message; n]
    }

    #[test]
    fn holds_exact_counts_and_evicts_the_least_recently_used() {
        let cache = HistoryCache::default();
        cache.put("a", messages(2), CACHE_BYTES / 2);
        cache.put("b", messages(3), CACHE_BYTES / 2);
        assert_eq!(cache.get("a", 2).map(|m| m.len()), Some(2));
        assert!(cache.get("a", 4).is_none(), "another turn was stored meanwhile");
        cache.put("c", messages(1), 10); // "b" was used least recently
        assert!(cache.get("b", 3).is_none());
        assert!(cache.get("a", 2).is_some() && cache.get("c", 1).is_some());
        cache.put("huge", messages(1), CACHE_BYTES + 1);
        assert!(cache.get("huge", 1).is_none());
        assert_eq!(cache.lock().bytes, CACHE_BYTES / 2 + 10);
        for i in 0..CACHE_ENTRIES + 5 {
            cache.put(&i.to_string(), messages(1), 1);
        }
        assert_eq!(cache.lock().entries.len(), CACHE_ENTRIES);
        assert!(cache.get(&(CACHE_ENTRIES + 4).to_string(), 1).is_some() && cache.get("0", 1).is_none());
    }
}
