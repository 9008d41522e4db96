//! What every request shares: the store, the provider clients, the URL fetcher and the
//! configuration. Below the pipeline and the handlers; imports nothing above it.

use std::sync::Arc;

use crate::config::Config;
use crate::fetch::Fetcher;
use crate::history::HistoryCache;
use crate::provider::Clients;
use crate::store::Store;
use crate::upstream::Proxy;

/// What every request shares.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The `SQLite` file.
    pub store: Store,
    /// Provider HTTP clients.
    pub clients: Clients,
    /// Fetches allowlisted URL sources (`--fetch-allow`).
    pub fetcher: Fetcher,
    /// Conversations already validated, by memory.
    pub history: HistoryCache,
    /// The configuration.
    pub config: Arc<Config>,
    /// The cluster the agent API is forwarded to (`--upstream`), if any.
    pub upstream: Option<Arc<Proxy>>,
}

impl AppState {
    /// State for `config`, with the store opened.
    ///
    /// # Errors
    /// The store cannot be opened or the HTTP client cannot be built.
    pub fn new(config: Config) -> Result<Self, String> {
        let store = Store::open(&config.db).map_err(|e| format!("{}: {e}", config.db.display()))?;
        let http = reqwest::Client::builder()
            .connect_timeout(config.provider_timeout.min(std::time::Duration::from_secs(10)))
            .pool_idle_timeout(std::time::Duration::from_secs(60))
            // A redirect would carry the keys (x-api-key, x-goog-api-key, the session token) to
            // wherever it points, and turn an endpoint into a proxy: none is followed.
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| format!("cannot build the HTTP client: {e}"))?;
        let fetcher = Fetcher::new(config.fetch_allow.clone(), config.provider_timeout)?;
        let upstream = Proxy::new(&config)?.map(Arc::new);
        Ok(Self {
            store,
            clients: Clients {
                http,
                timeout: config.provider_timeout,
                endpoint_allow: config.endpoint_allow.clone().into(),
            },
            fetcher,
            history: HistoryCache::default(),
            config: Arc::new(config),
            upstream,
        })
    }
}

/// A fresh random id: 20 characters of `[A-Za-z0-9_-]`, like `OpenSearch` document ids.
pub fn new_id() -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut bytes = [0_u8; 20];
    if getrandom::fill(&mut bytes).is_err() {
        // No OS randomness: fall back to the clock and a counter, still unique per process.
        static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let seed =
            crate::store::now_ms().unsigned_abs() ^ COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed) << 40;
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::try_from((seed >> (i % 8 * 8)) & 0xff).unwrap_or(0) ^ u8::try_from(i).unwrap_or(0);
        }
    }
    bytes.iter().map(|b| char::from(ALPHABET[usize::from(b % 64)])).collect()
}
