//! The `SQLite` file: agents (with their credentials) and conversation memory, one row per message
//! in the standard format.
//!
//! Schema (`PRAGMA user_version` 2):
//!
//! ```sql
//! agents   (id TEXT PRIMARY KEY, name, type, description, model_id, model_provider,
//!           credential JSON, model_parameters JSON, parameters JSON, created_ms, updated_ms,
//!           parameters_schema JSON)   -- added in version 2, NULL for none
//! memories (id TEXT PRIMARY KEY, agent_id, created_ms, updated_ms)
//! messages (memory_id, message_id INTEGER, role, message JSON, created_ms,
//!           PRIMARY KEY (memory_id, message_id))
//! ```
//!
//! `message_id` counts from 1 within a memory, as ml-commons' agentic memory does. A turn — the
//! new input messages and the model's answer — is written in one transaction after the model
//! answered, so a failed call leaves the memory as it was.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

use rusqlite::{Connection, OptionalExtension, params};
use serde_json::{Map, Value};

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

/// Brings a database of an earlier version up to date, in place: version 1 had no
/// `parameters_schema` column. Idempotent.
fn migrate(connection: &Connection) -> Result<(), rusqlite::Error> {
    let has_schema =
        connection.prepare("SELECT 1 FROM pragma_table_info('agents') WHERE name = 'parameters_schema'")?.exists([])?;
    if !has_schema {
        connection.execute_batch("ALTER TABLE agents ADD COLUMN parameters_schema TEXT")?;
    }
    connection.pragma_update(None, "user_version", 2)
}

impl Store {
    /// Opens (creating, owner read/write only) the `SQLite` file at `path`.
    ///
    /// # Errors
    /// The file cannot be created or opened, or is not a database of this gateway.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        create_private(path)?;
        let connection = Connection::open(path)?;
        connection.busy_timeout(std::time::Duration::from_secs(5))?;
        connection.pragma_update(None, "journal_mode", "WAL")?;
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
        migrate(&connection)?;
        Ok(Self { connection: Arc::new(Mutex::new(connection)) })
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
            "SELECT COUNT(*), COALESCE(SUM(LENGTH(CAST(message AS BLOB))), 0) FROM messages WHERE memory_id = ?1",
            [memory_id],
            |row| Ok((row.get(0)?, row.get(1)?)),
        )?;
        Ok((usize::try_from(count).unwrap_or(usize::MAX), usize::try_from(bytes).unwrap_or(usize::MAX)))
    }

    /// At most `limit` messages of a memory with an id above `after`, in order.
    ///
    /// # Errors
    /// Storage failures.
    pub fn messages_page(&self, memory_id: &str, after: i64, limit: usize) -> Result<Vec<StoredMessage>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(
            "SELECT message_id, role, message, created_ms FROM messages WHERE memory_id = ?1 AND message_id > ?2
             ORDER BY message_id LIMIT ?3",
        )?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = statement.query_map(params![memory_id, after, limit], |row| {
            Ok(StoredMessage {
                message_id: row.get(0)?,
                role: row.get(1)?,
                message: row.get(2)?,
                created_ms: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every message of a memory, in order.
    ///
    /// # Errors
    /// Storage failures.
    pub fn messages(&self, memory_id: &str) -> Result<Vec<StoredMessage>, StoreError> {
        let connection = self.lock();
        let mut statement = connection.prepare_cached(
            "SELECT message_id, role, message, created_ms FROM messages WHERE memory_id = ?1 ORDER BY message_id",
        )?;
        let rows = statement.query_map([memory_id], |row| {
            Ok(StoredMessage {
                message_id: row.get(0)?,
                role: row.get(1)?,
                message: row.get(2)?,
                created_ms: row.get(3)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Appends one turn's messages (`(role, standard JSON)`) to a memory, creating it if needed,
    /// in one transaction. Returns the id of the first message written.
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
        messages: &[(String, String)],
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
            "INSERT INTO memories (id, agent_id, created_ms, updated_ms) VALUES (?1, ?2, ?3, ?3)
             ON CONFLICT(id) DO UPDATE SET updated_ms = excluded.updated_ms",
            params![memory_id, agent_id, now],
        )?;
        let next: i64 = transaction.query_row(
            "SELECT COALESCE(MAX(message_id), 0) + 1 FROM messages WHERE memory_id = ?1",
            [memory_id],
            |row| row.get(0),
        )?;
        {
            let mut insert = transaction.prepare_cached(
                "INSERT INTO messages (memory_id, message_id, role, message, created_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for (offset, (role, message)) in (0_i64..).zip(messages) {
                insert.execute(params![memory_id, next + offset, role, message, now])?;
            }
        }
        transaction.commit()?;
        Ok(Some(next))
    }
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
        let first =
            store.append("m1", "a1", 0, &[("user".into(), "{}".into()), ("assistant".into(), "{}".into())]).unwrap();
        assert_eq!(first, Some(1));
        assert_eq!(store.append("m1", "a1", 2, &[("user".into(), "{}".into())]).unwrap(), Some(3));
        // A turn prepared before the last one was stored is refused, not interleaved.
        assert_eq!(store.append("m1", "a1", 2, &[("user".into(), "{}".into())]).unwrap(), None);
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
            assert_eq!(version, 2);
        }
        std::fs::remove_dir_all(path.parent().unwrap()).unwrap();
    }
}
