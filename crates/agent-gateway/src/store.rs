//! The `SQLite` file: agents (with their credentials) and conversation memory, one row per message
//! in the standard format.
//!
//! Schema (`PRAGMA user_version` 3):
//!
//! ```sql
//! agents   (id TEXT PRIMARY KEY, name, type, description, model_id, model_provider,
//!           credential JSON, model_parameters JSON, parameters JSON, created_ms, updated_ms,
//!           parameters_schema JSON)   -- added in version 2, NULL for none
//! memories (id TEXT PRIMARY KEY, agent_id, created_ms, updated_ms,
//!           used_ms)                  -- version 3: last turn or read, for expiry and eviction
//! messages (memory_id, message_id INTEGER, role, message JSON, created_ms,
//!           bytes,                    -- version 3: its size with its payloads
//!           PRIMARY KEY (memory_id, message_id))
//! payloads (hash TEXT PRIMARY KEY, data)                     -- version 3, see [`crate::media`]
//! message_payloads (memory_id, message_id, hash REFERENCES payloads)  -- version 3
//! evicted  (id TEXT PRIMARY KEY, reason, evicted_ms)         -- version 3: why a memory is gone
//! ```
//!
//! `message_id` counts from 1 within a memory, as ml-commons' agentic memory does. A turn — the
//! new input messages and the model's answer — is written in one transaction after the model
//! answered, so a failed call leaves the memory as it was. A message's large media payloads are
//! stored once by hash ([`crate::media`]); a payload is deleted in the same transaction as the
//! last message referring to it, and the foreign key from `message_payloads` refuses any other
//! order, so no message ever points at a missing payload. The file uses incremental vacuum, so
//! evicting memories ([`Store::evict`]) gives its pages back to the file system.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, Transaction, params};
use serde_json::{Map, Value};

use crate::media::{self, NewMessage};

/// Credentials: string keys and values, never returned by the API nor logged.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Credential(pub BTreeMap<String, String>);

impl std::fmt::Debug for Credential {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.0.keys()).finish()
    }
}

impl Credential {
    /// A value, if present and not blank.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.0.get(key).map(String::as_str).filter(|v| !v.trim().is_empty())
    }
}

/// The ml-commons `model` block.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelSpec {
    /// The provider's model id.
    pub model_id: String,
    /// `echo`, or a provider id / alias (`bedrock/converse`).
    pub model_provider: String,
    /// Secrets.
    pub credential: Credential,
    /// Region, endpoint, inference parameters.
    pub model_parameters: Map<String, Value>,
}

/// A registered agent.
#[derive(Debug, Clone, PartialEq)]
pub struct Agent {
    /// Its id.
    pub id: String,
    /// Name.
    pub name: String,
    /// ml-commons agent type (`conversational`, `flow`, …), kept as given.
    pub kind: String,
    /// Description.
    pub description: Option<String>,
    /// The model it runs.
    pub model: ModelSpec,
    /// Agent parameters, kept as given.
    pub parameters: Map<String, Value>,
    /// The agent's `parameters_schema` (contract §8), checked at registration; `None` for none.
    pub parameters_schema: Option<Value>,
    /// Registration time, milliseconds since the epoch.
    pub created_ms: i64,
}

/// One stored message.
#[derive(Debug, Clone, PartialEq)]
pub struct StoredMessage {
    /// Position in the memory, from 1.
    pub message_id: i64,
    /// The message's role.
    pub role: String,
    /// The message in the standard format, as JSON text.
    pub message: String,
    /// When it was written, milliseconds since the epoch.
    pub created_ms: i64,
}

/// A memory's header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Memory {
    /// Its id.
    pub id: String,
    /// The agent that created it.
    pub agent_id: String,
    /// Created, milliseconds since the epoch.
    pub created_ms: i64,
    /// Last turn, milliseconds since the epoch.
    pub updated_ms: i64,
}

/// A storage failure.
#[derive(Debug)]
pub struct StoreError(pub String);

impl std::fmt::Display for StoreError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<rusqlite::Error> for StoreError {
    fn from(error: rusqlite::Error) -> Self {
        Self(format!("storage error: {error}"))
    }
}

/// The database, shared by all requests. Calls block: run them off the async threads.
#[derive(Debug, Clone)]
pub struct Store {
    connection: Arc<Mutex<Connection>>,
    /// Memories a running turn uses, with how many turns use each: never evicted.
    pins: Arc<Mutex<HashMap<String, usize>>>,
    /// Told when a stored turn leaves more than `cap` bytes in use, for whoever keeps the file
    /// under its size cap.
    stored: Arc<tokio::sync::Notify>,
    cap: Arc<std::sync::atomic::AtomicU64>,
}

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

/// The tables as version 1 made them; [`migrate`] adds what later versions did.
const SCHEMA: &str = "
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
const VERSION: i64 = 3;

/// How long an evicted memory's id is remembered, to say why it is gone.
const TOMBSTONE_MS: i64 = 90 * 24 * 3600 * 1000;

fn has_column(connection: &Connection, table: &str, column: &str) -> Result<bool, rusqlite::Error> {
    connection.prepare("SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2")?.exists([table, column])
}

/// Brings a database of an earlier version up to date, in place: version 1 had no
/// `parameters_schema` column; version 2 stored media inside each message, had no last use of
/// a memory and no incremental vacuum. Idempotent. A database of a later version is refused.
fn migrate(connection: &mut Connection) -> Result<(), StoreError> {
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

impl Store {
    /// Opens (creating, owner read/write only) the `SQLite` file at `path`.
    ///
    /// # Errors
    /// The file cannot be created or opened, or is not a database of this gateway.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        create_private(path)?;
        let mut connection = Connection::open(path)?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        let tables: i64 = connection.query_row("SELECT COUNT(*) FROM sqlite_master", [], |row| row.get(0))?;
        if tables == 0 {
            // Only a file without tables takes this without a rewrite.
            connection.pragma_update(None, "auto_vacuum", "INCREMENTAL")?;
        }
        connection.pragma_update(None, "journal_mode", "WAL")?;
        // A turn with megabytes of media grows the WAL by as much; it is cut back after a
        // checkpoint rather than kept at its largest.
        connection.pragma_update(None, "journal_size_limit", 16 * 1024 * 1024)?;
        // docs/decisions.md, "Gateway": a committed turn survives the process being killed; the
        // last turns may be lost (never corrupted) if the machine loses power.
        connection.pragma_update(None, "synchronous", "NORMAL")?;
        for suffix in ["-wal", "-shm"] {
            let mut side = path.as_os_str().to_owned();
            side.push(suffix);
            make_private(Path::new(&side))?;
        }
        connection.pragma_update(None, "foreign_keys", "ON")?;
        connection.execute_batch(SCHEMA)?;
        migrate(&mut connection)?;
        Ok(Self {
            connection: Arc::new(Mutex::new(connection)),
            pins: Arc::default(),
            stored: Arc::default(),
            cap: Arc::new(std::sync::atomic::AtomicU64::new(u64::MAX)),
        })
    }

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

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock cannot leave SQLite half-written (transactions roll
        // back), so a poisoned lock is still usable.
        self.connection.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `work` on a blocking thread.
    ///
    /// # Errors
    /// `work`'s error, or a task failure.
    pub async fn call<T, F>(&self, work: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    {
        let store = self.clone();
        tokio::task::spawn_blocking(move || work(&store))
            .await
            .map_err(|e| StoreError(format!("storage task failed: {e}")))?
    }

    /// Inserts or replaces an agent.
    ///
    /// # Errors
    /// Storage failures.
    pub fn put_agent(&self, agent: &Agent) -> Result<(), StoreError> {
        let credential = serde_json::to_string(&agent.model.credential.0).map_err(|e| StoreError(e.to_string()))?;
        self.lock().execute(
            "INSERT OR REPLACE INTO agents (id, name, type, description, model_id, model_provider, credential,
                model_parameters, parameters, created_ms, updated_ms, parameters_schema)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                agent.id,
                agent.name,
                agent.kind,
                agent.description,
                agent.model.model_id,
                agent.model.model_provider,
                credential,
                Value::Object(agent.model.model_parameters.clone()).to_string(),
                Value::Object(agent.parameters.clone()).to_string(),
                agent.created_ms,
                now_ms(),
                agent.parameters_schema.as_ref().map(Value::to_string),
            ],
        )?;
        Ok(())
    }

    /// The agent with this id.
    ///
    /// # Errors
    /// Storage failures.
    pub fn agent(&self, id: &str) -> Result<Option<Agent>, StoreError> {
        let connection = self.lock();
        let row = connection
            .query_row(
                "SELECT id, name, type, description, model_id, model_provider, credential, model_parameters,
                    parameters, created_ms, parameters_schema FROM agents WHERE id = ?1",
                [id],
                |row| {
                    Ok((
                        row.get::<_, String>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, Option<String>>(3)?,
                        row.get::<_, String>(4)?,
                        row.get::<_, String>(5)?,
                        row.get::<_, String>(6)?,
                        row.get::<_, String>(7)?,
                        row.get::<_, String>(8)?,
                        row.get::<_, i64>(9)?,
                        row.get::<_, Option<String>>(10)?,
                    ))
                },
            )
            .optional()?;
        let Some((
            id,
            name,
            kind,
            description,
            model_id,
            model_provider,
            credential,
            model_parameters,
            parameters,
            created_ms,
            parameters_schema,
        )) = row
        else {
            return Ok(None);
        };
        let corrupt =
            |what: &str, e: serde_json::Error| StoreError(format!("agent {id}: stored {what} is not valid: {e}"));
        Ok(Some(Agent {
            name,
            kind,
            description,
            model: ModelSpec {
                model_id,
                model_provider,
                credential: Credential(serde_json::from_str(&credential).map_err(|e| corrupt("credential", e))?),
                model_parameters: serde_json::from_str(&model_parameters)
                    .map_err(|e| corrupt("model_parameters", e))?,
            },
            parameters: serde_json::from_str(&parameters).map_err(|e| corrupt("parameters", e))?,
            parameters_schema: parameters_schema
                .map(|text| serde_json::from_str(&text).map_err(|e| corrupt("parameters_schema", e)))
                .transpose()?,
            created_ms,
            id,
        }))
    }

    /// Deletes an agent; whether it existed. Its memories stay readable.
    ///
    /// # Errors
    /// Storage failures.
    pub fn delete_agent(&self, id: &str) -> Result<bool, StoreError> {
        Ok(self.lock().execute("DELETE FROM agents WHERE id = ?1", [id])? > 0)
    }

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

fn size(connection: &Connection) -> Result<(u64, u64), StoreError> {
    let pragma = |name: &str| -> Result<u64, StoreError> {
        let value: i64 = connection.pragma_query_value(None, name, |row| row.get(0))?;
        Ok(u64::try_from(value).unwrap_or(0))
    };
    let (pages, free, page) = (pragma("page_count")?, pragma("freelist_count")?, pragma("page_size")?);
    Ok((pages.saturating_sub(free) * page, pages * page))
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

/// Creates the file with mode 0600 if it does not exist, or takes away others' access to an
/// existing one, so secrets are never readable by others (`SQLite` gives new `-wal` and `-shm`
/// files the database's mode; [`Store::open`] tightens existing ones).
fn create_private(path: &Path) -> Result<(), StoreError> {
    if path.exists() {
        return make_private(path);
    }
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| StoreError(format!("cannot create {}: {e}", parent.display())))?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError(format!("cannot create {}: {e}", path.display()))),
    }
}

/// Mode 0600 for an existing file (nothing for a missing one, nor off Unix).
fn make_private(path: &Path) -> Result<(), StoreError> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let Ok(metadata) = std::fs::metadata(path) else { return Ok(()) };
        if metadata.permissions().mode() & 0o077 != 0 {
            std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
                .map_err(|e| StoreError(format!("cannot make {} private: {e}", path.display())))?;
        }
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

/// Milliseconds since the epoch.
pub fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(role: &str) -> NewMessage {
        NewMessage { role: role.into(), json: "{}".into(), bytes: 2, payloads: Vec::new() }
    }

    fn temp_db(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("gw-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir.join("gateway.db")
    }

    #[test]
    fn agents_and_messages_round_trip_and_the_file_is_private() {
        let path = temp_db("roundtrip");
        let store = Store::open(&path).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&path).unwrap().permissions().mode() & 0o777, 0o600);
        }
        let agent = Agent {
            id: "a1".into(),
            name: "n".into(),
            kind: "conversational".into(),
            description: None,
            model: ModelSpec {
                model_id: "m".into(),
                model_provider: "echo".into(),
                credential: Credential(BTreeMap::from([("api_key".into(), "secret".into())])),
                model_parameters: Map::new(),
            },
            parameters: Map::new(),
            parameters_schema: Some(serde_json::json!({"properties": {"topic": {"type": "string"}}})),
            created_ms: 1,
        };
        store.put_agent(&agent).unwrap();
        assert_eq!(store.agent("a1").unwrap().unwrap(), agent);
        assert!(!format!("{agent:?}").contains("secret"));
        let first = store.append("m1", "a1", 0, &[plain("user"), plain("assistant")]).unwrap();
        assert_eq!(first, Some(1));
        assert_eq!(store.append("m1", "a1", 2, &[plain("user")]).unwrap(), Some(3));
        // A turn prepared before the last one was stored is refused, not interleaved.
        assert_eq!(store.append("m1", "a1", 2, &[plain("user")]).unwrap(), None);
        assert_eq!(store.messages("m1").unwrap().len(), 3);
        assert!(store.delete_agent("a1").unwrap());
        assert!(store.agent("a1").unwrap().is_none());
        assert_eq!(store.memory("m1").unwrap().unwrap().agent_id, "a1");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_database_and_its_wal_are_made_private() {
        use std::os::unix::fs::PermissionsExt;
        let path = temp_db("private");
        drop(Store::open(&path).unwrap());
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let wal = path.with_file_name("gateway.db-wal");
        let _ = std::fs::remove_file(path.with_file_name("gateway.db-shm"));
        std::fs::write(&wal, []).unwrap(); // an empty WAL: nothing to replay
        for file in [&path, &wal] {
            std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o644)).unwrap();
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&wal), 0o600);
        // The documented durability: synchronous = NORMAL (1) in WAL mode.
        let synchronous: i64 = store.lock().pragma_query_value(None, "synchronous", |row| row.get(0)).unwrap();
        assert_eq!(synchronous, 1);
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_version_1_database_is_migrated_in_place() {
        let path = temp_db("migrate");
        create_private(&path).unwrap();
        {
            let old = Connection::open(&path).unwrap();
            // SCHEMA is version 1; migrate() adds what came later.
            old.execute_batch(SCHEMA).unwrap();
            old.execute_batch("PRAGMA user_version = 1;").unwrap();
            old.execute(
                "INSERT INTO agents (id, name, type, description, model_id, model_provider, credential,
                    model_parameters, parameters, created_ms, updated_ms)
                 VALUES ('old', 'n', 'conversational', NULL, 'm', 'echo', '{}', '{}', '{}', 1, 1)",
                [],
            )
            .unwrap();
        }
        for _ in 0..2 {
            let store = Store::open(&path).unwrap();
            let agent = store.agent("old").unwrap().unwrap();
            assert_eq!(agent.parameters_schema, None);
            let version: i64 = store.lock().pragma_query_value(None, "user_version", |row| row.get(0)).unwrap();
            assert_eq!(version, VERSION);
        }
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    fn image_message(image: &str, text: &str) -> String {
        format!(
            r#"{{"role":"user","content":[{{"type":"text","text":"{text}"}},{{"type":"image","source":{{"type":"base64","format":"png","data":"{image}"}}}}]}}"#
        )
    }

    fn new_message(json: &str) -> NewMessage {
        let mut value: Value = serde_json::from_str(json).unwrap();
        let payloads = media::extract(&mut value);
        NewMessage { role: "user".into(), json: value.to_string(), bytes: json.len(), payloads }
    }

    fn count(store: &Store, table: &str) -> i64 {
        store.lock().query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |row| row.get(0)).unwrap()
    }

    #[test]
    fn a_version_2_database_gets_its_payloads_moved_out_and_reads_back_the_same() {
        let path = temp_db("migrate-2");
        create_private(&path).unwrap();
        let image = "iVBORw0KGgo".repeat(500);
        let (one, two) = (image_message(&image, "one"), image_message(&image, "two"));
        {
            let old = Connection::open(&path).unwrap();
            old.execute_batch(SCHEMA).unwrap();
            old.execute_batch("ALTER TABLE agents ADD COLUMN parameters_schema TEXT; PRAGMA user_version = 2;")
                .unwrap();
            for (memory, message) in [("a", &one), ("b", &two)] {
                old.execute("INSERT INTO memories VALUES (?1, 'echo', 1, 5)", [memory]).unwrap();
                old.execute("INSERT INTO messages VALUES (?1, 1, 'user', ?2, 1)", [memory, message.as_str()]).unwrap();
            }
        }
        let store = Store::open(&path).unwrap();
        assert_eq!(store.messages("a").unwrap()[0].message, one);
        assert_eq!(store.messages("b").unwrap()[0].message, two);
        assert_eq!(count(&store, "payloads"), 1, "the image both memories carry is stored once");
        assert_eq!(store.memory_size("a").unwrap(), (1, one.len()));
        let stored: String =
            store.lock().query_row("SELECT message FROM messages WHERE memory_id = 'a'", [], |r| r.get(0)).unwrap();
        assert!(stored.len() < 300, "{stored}");
        let pragma = |name: &str| -> i64 { store.lock().pragma_query_value(None, name, |row| row.get(0)).unwrap() };
        assert_eq!((pragma("user_version"), pragma("auto_vacuum")), (VERSION, 2));
        assert_eq!(store.memory("a").unwrap().unwrap().updated_ms, 5);
        drop(store);

        let newer = Connection::open(&path).unwrap();
        newer.execute_batch("PRAGMA user_version = 4;").unwrap();
        drop(newer);
        let refused = Store::open(&path).unwrap_err().0;
        assert!(refused.contains("newer agent-gateway") && refused.contains("version 4"), "{refused}");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn eviction_takes_the_least_recently_used_but_never_a_pinned_memory_and_the_file_shrinks() {
        let path = temp_db("evict");
        let store = Store::open(&path).unwrap();
        let shared = "QUJD".repeat(256 * 1024); // 1 MiB of base64
        let own = "REVG".repeat(256 * 1024);
        let turn = |memory: &str, image: &str| {
            let message = new_message(&image_message(image, memory));
            store.append(memory, "echo", 0, &[message]).unwrap().unwrap();
        };
        turn("old", &shared);
        turn("pinned", &own);
        turn("new", &shared);
        store.lock().execute("UPDATE memories SET used_ms = 1 WHERE id IN ('old', 'pinned')", []).unwrap();
        assert_eq!(count(&store, "payloads"), 2);
        let (used, file) = store.size().unwrap();
        assert!(used > 2 << 20 && file >= used, "{used} {file}");

        // Over the cap by far: all but the pinned memory go, oldest first.
        let pin = store.pin("pinned");
        let done = store.evict(None, 1).unwrap();
        assert_eq!((done.over_size, done.expired, done.pinned, done.payloads), (2, 0, 1, 1));
        assert!(store.memory("old").unwrap().is_none() && store.memory("new").unwrap().is_none());
        assert_eq!(store.evicted("old").unwrap().unwrap().reason, "size");
        assert_eq!(store.messages("pinned").unwrap()[0].message, image_message(&own, "pinned"));
        let (_, shrunk) = store.size().unwrap();
        assert!(shrunk + (1 << 20) <= file, "the file shrank by the payload: {file} -> {shrunk}");
        assert_eq!(std::fs::metadata(&path).unwrap().len(), shrunk);

        // Expiry passes over a pinned memory, and takes it once the turn is done.
        let done = store.evict(Some(now_ms()), u64::MAX).unwrap();
        assert_eq!((done.expired, done.pinned), (0, 1));
        drop(pin);
        let done = store.evict(Some(now_ms()), u64::MAX).unwrap();
        assert_eq!((done.expired, done.payloads), (1, 1));
        assert_eq!(store.evicted("pinned").unwrap().unwrap().reason, "expired");
        assert_eq!(count(&store, "payloads"), 0);
        let problems: i64 =
            store.lock().query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |row| row.get(0)).unwrap();
        assert_eq!(problems, 0);
        // A memory started again under an evicted id is a memory again.
        turn("old", &shared);
        assert!(store.evicted("old").unwrap().is_none());
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }

    #[test]
    fn a_payload_still_referred_to_cannot_be_deleted() {
        let path = temp_db("fk");
        let store = Store::open(&path).unwrap();
        let image = "QUJD".repeat(1024);
        store.append("m", "echo", 0, &[new_message(&image_message(&image, "m"))]).unwrap().unwrap();
        let refused = store.lock().execute("DELETE FROM payloads", []);
        assert!(refused.is_err(), "the foreign key keeps a referenced payload");
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
