//! The shared connection: the file opened private and set up, and work run on a blocking thread.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use rusqlite::Connection;

use super::records::StoreError;
use super::schema::{SCHEMA, migrate};

/// The database, shared by all requests. Calls block: run them off the async threads.
#[derive(Debug, Clone)]
pub struct Store {
    connection: Arc<Mutex<Connection>>,
    /// Memories a running turn uses, with how many turns use each: never evicted.
    pub(super) pins: Arc<Mutex<HashMap<String, usize>>>,
    /// Told when a stored turn leaves more than `cap` bytes in use, for whoever keeps the file
    /// under its size cap.
    pub(super) stored: Arc<tokio::sync::Notify>,
    pub(super) cap: Arc<std::sync::atomic::AtomicU64>,
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
        // docs/decisions/gateway.md, "Storage": a committed turn survives the process being
        // killed; the last turns may be lost (never corrupted) if the machine loses power.
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

    pub(super) fn lock(&self) -> MutexGuard<'_, Connection> {
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
}

/// Creates the file with mode 0600 if it does not exist, or takes away others' access to an
/// existing one, so secrets are never readable by others (`SQLite` gives new `-wal` and `-shm`
/// files the database's mode; [`Store::open`] tightens existing ones).
pub(super) fn create_private(path: &Path) -> Result<(), StoreError> {
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
