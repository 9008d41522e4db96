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

mod agents;
mod connection;
mod evict;
mod messages;
mod records;
mod schema;

pub use self::connection::Store;
pub use self::evict::{Evicted, Evictions, Pin, Reason};
pub use self::records::{Agent, Credential, Memory, ModelSpec, StoreError, StoredMessage, now_ms};

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use rusqlite::Connection;
    use serde_json::{Map, Value};

    use super::connection::create_private;
    use super::schema::{SCHEMA, VERSION};
    use super::*;
    use crate::media::{self, NewMessage};

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
