//! Eviction: memories past their age or over the file's size cap go, least recently used first,
//! except those a running turn has pinned; each leaves a tombstone saying why.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rusqlite::{Connection, OptionalExtension, params};

use super::connection::Store;
use super::records::{StoreError, now_ms};

/// A memory kept from eviction while this lives ([`Store::pin`]).
#[derive(Debug)]
pub struct Pin {
    pins: Arc<Mutex<HashMap<String, usize>>>,
    id: String,
}

impl Drop for Pin {
    fn drop(&mut self) {
        let mut pins = self.pins.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(count) = pins.get_mut(&self.id) {
            *count -= 1;
            if *count == 0 {
                pins.remove(&self.id);
            }
        }
    }
}

/// Why a memory was evicted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Unused for longer than `--memory-ttl`.
    Expired,
    /// Least recently used while the file was over `--max-db-bytes`.
    OverSize,
}

impl Reason {
    fn as_str(self) -> &'static str {
        match self {
            Self::Expired => "expired",
            Self::OverSize => "size",
        }
    }
}

/// A memory that is gone: when, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Evicted {
    /// When, milliseconds since the epoch.
    pub evicted_ms: i64,
    /// `expired` or `size`.
    pub reason: String,
}

/// What one eviction pass did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Evictions {
    /// Memories evicted for their age.
    pub expired: usize,
    /// Memories evicted for the file's size.
    pub over_size: usize,
    /// Payloads deleted with them (no message referred to them any more).
    pub payloads: usize,
    /// Memories over their age or needed for the size but kept: a running turn uses them.
    pub pinned: usize,
}

/// How long an evicted memory's id is remembered, to say why it is gone.
const TOMBSTONE_MS: i64 = 90 * 24 * 3600 * 1000;

impl Store {
    /// Keeps `memory_id` from eviction until the returned [`Pin`] is dropped. A turn pins its
    /// memory before it reads it.
    pub fn pin(&self, memory_id: &str) -> Pin {
        let mut pins = self.pins.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        *pins.entry(memory_id.to_string()).or_default() += 1;
        Pin { pins: Arc::clone(&self.pins), id: memory_id.to_string() }
    }

    fn pinned(&self, memory_id: &str) -> bool {
        self.pins.lock().unwrap_or_else(std::sync::PoisonError::into_inner).contains_key(memory_id)
    }

    /// Completes after a stored turn leaves more than `cap` bytes in use (at once if one did
    /// since the last call). The check is two page counts in the turn's own lock.
    pub async fn over(&self, cap: u64) {
        self.cap.store(cap, std::sync::atomic::Ordering::Relaxed);
        self.stored.notified().await;
    }

    /// When and why a memory was evicted, if it was (and is not back).
    ///
    /// # Errors
    /// Storage failures.
    pub fn evicted(&self, memory_id: &str) -> Result<Option<Evicted>, StoreError> {
        Ok(self
            .lock()
            .query_row("SELECT evicted_ms, reason FROM evicted WHERE id = ?1", [memory_id], |row| {
                Ok(Evicted { evicted_ms: row.get(0)?, reason: row.get(1)? })
            })
            .optional()?)
    }

    /// Bytes of the file in use (its pages less the free ones), and the file's own size.
    ///
    /// # Errors
    /// Storage failures.
    pub fn size(&self) -> Result<(u64, u64), StoreError> {
        size(&self.lock())
    }

    /// Evicts memories not used since `unused_since_ms` (none when `None`), then the least
    /// recently used ones while the file's pages in use are over `max_bytes`, never one that a
    /// running turn has pinned; each memory in its own transaction, with the payloads no other
    /// message refers to. Then gives the free pages back to the file system.
    ///
    /// # Errors
    /// Storage failures (what was evicted before stays evicted).
    pub fn evict(&self, unused_since_ms: Option<i64>, max_bytes: u64) -> Result<Evictions, StoreError> {
        let mut done = Evictions::default();
        let mut connection = self.lock();
        if let Some(cutoff) = unused_since_ms {
            let old: Vec<String> = connection
                .prepare_cached("SELECT id FROM memories WHERE used_ms < ?1 ORDER BY used_ms")?
                .query_map([cutoff], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            for id in old {
                if self.pinned(&id) {
                    done.pinned += 1;
                } else {
                    done.payloads += evict_one(&mut connection, &id, Reason::Expired)?;
                    done.expired += 1;
                }
            }
            connection.execute("DELETE FROM evicted WHERE evicted_ms < ?1", [now_ms() - TOMBSTONE_MS])?;
        }
        let mut skipped: Vec<String> = Vec::new();
        while size(&connection)?.0 > max_bytes {
            let next: Option<String> = connection
                .prepare_cached("SELECT id FROM memories ORDER BY used_ms LIMIT 1 OFFSET ?1")?
                .query_row([skipped.len()], |row| row.get(0))
                .optional()?;
            let Some(id) = next else { break };
            if self.pinned(&id) {
                done.pinned += 1;
                skipped.push(id);
                continue;
            }
            done.payloads += evict_one(&mut connection, &id, Reason::OverSize)?;
            done.over_size += 1;
        }
        if done.expired + done.over_size > 0 {
            // One step frees one page: stepped to the end, it frees them all.
            let mut vacuum = connection.prepare("PRAGMA incremental_vacuum")?;
            let mut rows = vacuum.query([])?;
            while rows.next()?.is_some() {}
            drop(rows);
            drop(vacuum);
            // The file shrinks only once the WAL is written back into it.
            connection.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
        }
        Ok(done)
    }
}

/// Deletes one memory, its messages and the payloads nothing else refers to, and remembers why,
/// in one transaction. Returns how many payloads went.
fn evict_one(connection: &mut Connection, id: &str, reason: Reason) -> Result<usize, StoreError> {
    let transaction = connection.transaction()?;
    let hashes: Vec<String> = transaction
        .prepare_cached("SELECT DISTINCT hash FROM message_payloads WHERE memory_id = ?1")?
        .query_map([id], |row| row.get(0))?
        .collect::<Result<_, _>>()?;
    transaction.execute("DELETE FROM messages WHERE memory_id = ?1", [id])?;
    transaction.execute("DELETE FROM memories WHERE id = ?1", [id])?;
    pause_for_tests(id);
    let mut payloads = 0;
    for hash in hashes {
        payloads += transaction.execute(
            "DELETE FROM payloads WHERE hash = ?1 AND NOT EXISTS (SELECT 1 FROM message_payloads WHERE hash = ?1)",
            [&hash],
        )?;
    }
    transaction.execute(
        "INSERT OR REPLACE INTO evicted (id, reason, evicted_ms) VALUES (?1, ?2, ?3)",
        params![id, reason.as_str(), now_ms()],
    )?;
    transaction.commit()?;
    Ok(payloads)
}

/// In debug builds, `AGENT_GATEWAY_TEST_EVICTION_PAUSE_MS` holds an eviction halfway (messages
/// deleted, payloads not yet), after saying so on standard error: a test kills the process there.
fn pause_for_tests(id: &str) {
    #[cfg(debug_assertions)]
    if let Some(ms) = std::env::var("AGENT_GATEWAY_TEST_EVICTION_PAUSE_MS").ok().and_then(|v| v.parse().ok()) {
        eprintln!("evicting {id}: messages deleted, payloads next");
        std::thread::sleep(std::time::Duration::from_millis(ms));
    }
    #[cfg(not(debug_assertions))]
    let _ = id;
}

pub(super) fn size(connection: &Connection) -> Result<(u64, u64), StoreError> {
    let pragma = |name: &str| -> Result<u64, StoreError> {
        let value: i64 = connection.pragma_query_value(None, name, |row| row.get(0))?;
        Ok(u64::try_from(value).unwrap_or(0))
    };
    let (pages, free, page) = (pragma("page_count")?, pragma("freelist_count")?, pragma("page_size")?);
    Ok((pages.saturating_sub(free) * page, pages * page))
}
