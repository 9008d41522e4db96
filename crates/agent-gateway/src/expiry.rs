//! Memories that expire: a task that evicts the memories unused for longer than
//! `--memory-ttl`, and the least recently used ones while the database is over `--max-db-bytes`
//! ([`Store::evict`]), as soon as a stored turn leaves the file over the cap, and at least every
//! minute. Each pass that evicts
//! something says so on standard error, with its counts.

use std::fmt::Write as _;
use std::time::Duration;

use crate::store::{Evictions, Store, now_ms};

/// Runs until dropped (aborted with the server).
pub async fn run(store: Store, ttl: Option<Duration>, max_db_bytes: u64) {
    // A short TTL is checked often enough to be kept to within a quarter of it.
    let tick =
        ttl.map_or(Duration::from_secs(60), |ttl| (ttl / 4).clamp(Duration::from_millis(200), Duration::from_secs(60)));
    loop {
        let cutoff = ttl.map(|ttl| now_ms().saturating_sub(i64::try_from(ttl.as_millis()).unwrap_or(i64::MAX)));
        match store.call(move |store| Ok((store.evict(cutoff, max_db_bytes)?, store.size()?))).await {
            Ok((done, size)) => log(done, size, max_db_bytes),
            Err(error) => eprintln!("agent-gateway: evicting memories failed: {error}"),
        }
        tokio::select! {
            () = store.over(max_db_bytes) => {}
            () = tokio::time::sleep(tick) => {}
        }
    }
}

fn log(done: Evictions, (used, file): (u64, u64), max_db_bytes: u64) {
    if done.expired + done.over_size == 0 && (done.pinned == 0 || used <= max_db_bytes) {
        return;
    }
    let mut line = format!(
        "agent-gateway: evicted {} memories ({} expired, {} over --max-db-bytes), {} payloads deleted; \
         database {used} bytes in use, file {file} bytes",
        done.expired + done.over_size,
        done.expired,
        done.over_size,
        done.payloads,
    );
    if done.pinned > 0 {
        let _ = write!(line, "; {} kept while a turn uses them", done.pinned);
    }
    eprintln!("{line}");
}
