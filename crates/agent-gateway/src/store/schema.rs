//! The tables, and the migration of a file written by an earlier version of the gateway.

use rusqlite::{Connection, Transaction, params};
use serde_json::Value;

use super::records::StoreError;
use crate::media;

/// The tables as version 1 made them; [`migrate`] adds what later versions did.
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS agents (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    description TEXT,
    model_id TEXT NOT NULL,
    model_provider TEXT NOT NULL,
    credential TEXT NOT NULL,
    model_parameters TEXT NOT NULL,
    parameters TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS memories (
    id TEXT PRIMARY KEY,
    agent_id TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    updated_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS messages (
    memory_id TEXT NOT NULL REFERENCES memories(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL,
    role TEXT NOT NULL,
    message TEXT NOT NULL,
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (memory_id, message_id)
);
";

/// What version 3 adds: payloads stored once, the last use of a memory, evicted memories.
const SCHEMA_3: &str = "
CREATE TABLE IF NOT EXISTS payloads (
    hash TEXT PRIMARY KEY,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS message_payloads (
    memory_id TEXT NOT NULL,
    message_id INTEGER NOT NULL,
    hash TEXT NOT NULL REFERENCES payloads(hash),
    PRIMARY KEY (memory_id, message_id, hash),
    FOREIGN KEY (memory_id, message_id) REFERENCES messages(memory_id, message_id) ON DELETE CASCADE
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS message_payloads_hash ON message_payloads(hash);
CREATE TABLE IF NOT EXISTS evicted (
    id TEXT PRIMARY KEY,
    reason TEXT NOT NULL,
    evicted_ms INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS evicted_time ON evicted(evicted_ms);
";

/// The version this gateway writes.
pub(super) const VERSION: i64 = 3;

fn has_column(connection: &Connection, table: &str, column: &str) -> Result<bool, rusqlite::Error> {
    connection.prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")?.exists([table, column])
}

/// Brings a database of an earlier version up to date, in place: version 1 had no
/// `parameters_schema` column; version 2 stored media inside each message, had no last use of
/// a memory and no incremental vacuum. Idempotent. A database of a later version is refused.
pub(super) fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
    let version: i64 = connection.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version > VERSION {
        return Err(StoreError(format!(
            "this database was written by a newer agent-gateway (schema version {version}; this one reads up to \
             {VERSION}): run that version, or give another --db"
        )));
    }
    if !has_column(connection, "agents", "parameters_schema")? {
        connection.execute_batch("ALTER TABLE agents ADD COLUMN parameters_schema TEXT")?;
    }
    connection.execute_batch(SCHEMA_3)?;
    if !has_column(connection, "memories", "used_ms")? {
        connection.execute_batch(
            "ALTER TABLE memories ADD COLUMN used_ms INTEGER NOT NULL DEFAULT 0;
             UPDATE memories SET used_ms = updated_ms;",
        )?;
    }
    connection.execute_batch("CREATE INDEX IF NOT EXISTS memories_used ON memories(used_ms)")?;
    if !has_column(connection, "messages", "bytes")? {
        connection.execute_batch("ALTER TABLE messages ADD COLUMN bytes INTEGER")?;
    }
    if version < VERSION {
        let transaction = connection.transaction()?;
        move_payloads_out(&transaction)?;
        transaction.pragma_update(None, "user_version", VERSION)?;
        transaction.commit()?;
    }
    let auto_vacuum: i64 = connection.pragma_query_value(None, "auto_vacuum", |row| row.get(0))?;
    if auto_vacuum != 2 {
        // Incremental vacuum can only be turned on for an existing file by rewriting it.
        connection.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        connection.execute_batch("VACUUM")?;
    }
    Ok(())
}

/// Version 2 stored each message whole: its large payloads move to `payloads`, the message keeps
/// references, and every message gets its `bytes`.
fn move_payloads_out(transaction: &Transaction<'_>) -> Result<(), StoreError> {
    let rows: Vec<(i64, String, i64)> = transaction
        .prepare(
            "SELECT rowid, memory_id, message_id FROM messages WHERE bytes IS NULL
             AND LENGTH(CAST(message AS BLOB)) >= ?1",
        )?
        .query_map([i64::try_from(media::OUT_OF_LINE).unwrap_or(i64::MAX)], |row| {
            Ok((row.get(0)?, row.get(1)?, row.get(2)?))
        })?
        .collect::<Result<_, _>>()?;
    for (rowid, memory_id, message_id) in rows {
        let text: String =
            transaction.query_row("SELECT message FROM messages WHERE rowid = ?1", [rowid], |row| row.get(0))?;
        let Ok(mut message) = serde_json::from_str::<Value>(&text) else { continue };
        let payloads = media::extract(&mut message);
        if payloads.is_empty() {
            continue;
        }
        for payload in &payloads {
            transaction.execute(
                "INSERT OR IGNORE INTO payloads (hash, data) VALUES (?1, ?2)",
                params![payload.hash, payload.data],
            )?;
            transaction.execute(
                "INSERT OR IGNORE INTO message_payloads (memory_id, message_id, hash) VALUES (?1, ?2, ?3)",
                params![memory_id, message_id, payload.hash],
            )?;
        }
        transaction.execute(
            "UPDATE messages SET message = ?1, bytes = ?2 WHERE rowid = ?3",
            params![message.to_string(), i64::try_from(text.len()).unwrap_or(i64::MAX), rowid],
        )?;
    }
    transaction.execute("UPDATE messages SET bytes = LENGTH(CAST(message AS BLOB)) WHERE bytes IS NULL", [])?;
    Ok(())
}
