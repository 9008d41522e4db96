//! Memories and their messages: a turn written in one transaction with its payloads stored once,
//! and messages read back with their payloads in place.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::Value;

use super::connection::Store;
use super::evict::size;
use super::records::{Memory, StoreError, StoredMessage, now_ms};
use crate::media::{self, NewMessage};

impl Store {
    /// The memory with this id.
    ///
    /// # Errors
    /// Storage failures.
    pub fn memory(&self, id: &str) -> Result<Option<Memory>, StoreError> {
        Ok(self
            .lock()
            .query_row("SELECT id, agent_id, created_ms, updated_ms FROM memories WHERE id = ?1", [id], |row| {
                Ok(Memory { id: row.get(0)?, agent_id: row.get(1)?, created_ms: row.get(2)?, updated_ms: row.get(3)? })
            })
            .optional()?)
    }

    /// How many messages a memory holds, and their bytes.
    ///
    /// # Errors
    /// Storage failures.
    pub fn memory_size(&self, memory_id: &str) -> Result<(usize, usize), StoreError> {
        let (count, bytes): (i64, i64) = self.lock().query_row(
            "SELECT COUNT(*), COALESCE(SUM(COALESCE(bytes, LENGTH(CAST(message AS BLOB)))), 0) FROM messages
             WHERE memory_id = ?1",
            [memory_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        Ok((usize::try_from(count).unwrap_or(usize::MAX), usize::try_from(bytes).unwrap_or(usize::MAX)))
    }

    /// At most `limit` messages of a memory with an id above `after`, in order, each with its
    /// payloads back in place.
    ///
    /// # Errors
    /// Storage failures.
    pub fn messages_page(&self, memory_id: &str, after: i64, limit: usize) -> Result<Vec<StoredMessage>, StoreError> {
        let connection = self.lock();
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = read_messages(
            &connection,
            "SELECT message_id, role, message, created_ms FROM messages WHERE memory_id = ?1 AND message_id > ?2
             ORDER BY message_id LIMIT ?3",
            params![memory_id, after, limit],
        )?;
        restore_all(&connection, rows)
    }

    /// Every message of a memory, in order, each with its payloads back in place.
    ///
    /// # Errors
    /// Storage failures.
    pub fn messages(&self, memory_id: &str) -> Result<Vec<StoredMessage>, StoreError> {
        let connection = self.lock();
        let rows = read_messages(
            &connection,
            "SELECT message_id, role, message, created_ms FROM messages WHERE memory_id = ?1 ORDER BY message_id",
            params![memory_id],
        )?;
        restore_all(&connection, rows)
    }

    /// Appends one turn's messages to a memory, creating it if needed, in one transaction: each
    /// payload is written unless stored already. Returns the id of the first message written.
    ///
    /// # Errors
    /// Storage failures.
    ///
    /// `known` is how many messages the memory had when the turn was prepared: if another turn was
    /// stored in the meantime, nothing is stored and `Ok(None)` says so — appending anyway would
    /// record a history the model never saw.
    pub fn append(
        &self,
        memory_id: &str,
        agent_id: &str,
        known: i64,
        messages: &[NewMessage],
    ) -> Result<Option<i64>, StoreError> {
        let mut connection = self.lock();
        let transaction = connection.transaction()?;
        let stored: i64 =
            transaction
                .query_row("SELECT COUNT(*) FROM messages WHERE memory_id = ?1", [memory_id], |row| row.get(0))?;
        if stored != known {
            return Ok(None);
        }
        let now = now_ms();
        transaction.execute(
            "INSERT INTO memories (id, agent_id, created_ms, updated_ms, used_ms) VALUES (?1, ?2, ?3, ?3, ?3)
             ON CONFLICT(id) DO UPDATE SET updated_ms = excluded.updated_ms, used_ms = excluded.used_ms",
            params![memory_id, agent_id, now],
        )?;
        // A memory started again under an evicted id (an AG-UI thread) is no longer evicted.
        transaction.execute("DELETE FROM evicted WHERE id = ?1", [memory_id])?;
        let next: i64 = transaction.query_row(
            "SELECT COALESCE(MAX(message_id), 0) + 1 FROM messages WHERE memory_id = ?1",
            [memory_id],
            |row| row.get(0),
        )?;
        {
            let mut insert = transaction.prepare_cached(
                "INSERT INTO messages (memory_id, message_id, role, message, created_ms, bytes)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let mut known_payload = transaction.prepare_cached("SELECT 1 FROM payloads WHERE hash = ?1")?;
            let mut payload = transaction.prepare_cached("INSERT INTO payloads (hash, data) VALUES (?1, ?2)")?;
            let mut reference = transaction
                .prepare_cached("INSERT INTO message_payloads (memory_id, message_id, hash) VALUES (?1, ?2, ?3)")?;
            for (offset, message) in (0_i64..).zip(messages) {
                let id = next + offset;
                let bytes = i64::try_from(message.bytes).unwrap_or(i64::MAX);
                insert.execute(params![memory_id, id, message.role, message.json, now, bytes])?;
                for stored in &message.payloads {
                    if !known_payload.exists([&stored.hash])? {
                        payload.execute(params![stored.hash, stored.data])?;
                    }
                    reference.execute(params![memory_id, id, stored.hash])?;
                }
            }
        }
        transaction.commit()?;
        if size(&connection)?.0 > self.cap.load(std::sync::atomic::Ordering::Relaxed) {
            self.stored.notify_one();
        }
        Ok(Some(next))
    }

    /// Records a read of a memory: it was used now, for expiry and eviction.
    ///
    /// # Errors
    /// Storage failures.
    pub fn touch(&self, memory_id: &str) -> Result<(), StoreError> {
        self.lock().execute("UPDATE memories SET used_ms = ?2 WHERE id = ?1", params![memory_id, now_ms()])?;
        Ok(())
    }
}

fn read_messages(
    connection: &Connection,
    sql: &str,
    arguments: impl rusqlite::Params,
) -> Result<Vec<StoredMessage>, StoreError> {
    let mut statement = connection.prepare_cached(sql)?;
    let rows = statement.query_map(arguments, |row| {
        Ok(StoredMessage { message_id: row.get(0)?, role: row.get(1)?, message: row.get(2)?, created_ms: row.get(3)? })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Puts the payloads back into messages read from the table, each payload read once.
fn restore_all(connection: &Connection, mut rows: Vec<StoredMessage>) -> Result<Vec<StoredMessage>, StoreError> {
    let mut payloads: HashMap<String, String> = HashMap::new();
    let mut read = connection.prepare_cached("SELECT data FROM payloads WHERE hash = ?1")?;
    for row in &mut rows {
        if !media::may_refer(&row.message) {
            continue;
        }
        let corrupt = |e: String| StoreError(format!("stored message {}: {e}", row.message_id));
        let mut message: Value = serde_json::from_str(&row.message).map_err(|e| corrupt(e.to_string()))?;
        for hash in media::references(&message) {
            if let std::collections::hash_map::Entry::Vacant(entry) = payloads.entry(hash) {
                let data: Option<String> = read.query_row([entry.key()], |r| r.get(0)).optional()?;
                if let Some(data) = data {
                    entry.insert(data);
                }
            }
        }
        media::restore(&mut message, |hash| payloads.get(hash).cloned()).map_err(corrupt)?;
        row.message = message.to_string();
    }
    Ok(rows)
}
