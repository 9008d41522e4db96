//! `agent-gateway`: a local HTTP backend speaking the subset of ml-commons' agent API that the
//! playground uses — register, get, delete, execute, read memory — for the standard agent input.
//!
//! Requests are validated and converted by the `agent-input` core; models are the offline
//! [`provider::echo`] model or Bedrock Converse ([`provider::bedrock`]); agents, credentials and
//! conversation memory live in one `SQLite` file ([`store`]).
//!
//! With `--upstream URL` the agent API is validated here and forwarded to an `OpenSearch` cluster
//! ([`upstream`]) instead.
//!
//! Layers, each importing only those below it: [`allowlist`], [`error`] and [`media`];
//! [`config`], [`store`], [`sigv4`], [`schema`] and [`history`]; [`expiry`]; [`provider`] (whose clients share only its
//! `client` module, never each other); [`fetch`] and [`upstream`]; [`state`]; the pipeline
//! ([`execute`], and [`streaming`] for `_execute/stream`); the HTTP handlers ([`api`]); the router
//! ([`app`]) and the server (here). `tests/module_graph.rs` fails on any import circle.

pub mod allowlist;
pub mod api;
pub mod app;
pub mod config;
mod conn;
pub mod error;
pub mod execute;
pub mod expiry;
pub mod fetch;
pub mod history;
pub mod media;
pub mod provider;
pub mod schema;
pub mod sigv4;
pub mod state;
pub mod store;
pub mod streaming;
pub mod upstream;

use std::future::Future;

pub use app::router;
pub use config::{Args, Config};
pub use state::AppState;

/// Opens the store and registers the `echo` agent if configured: everything that can fail
/// before the server listens.
///
/// # Errors
/// The store cannot be opened or written.
pub fn prepare(config: Config) -> Result<AppState, String> {
    let echo = config.echo_agent;
    let state = AppState::new(config)?;
    if echo {
        api::ensure_echo_agent(&state.store).map_err(|e| format!("{}: {e}", state.config.db.display()))?;
    }
    Ok(state)
}

/// Serves on `listener` until `shutdown` completes, then lets the open requests finish (within
/// the request and header time limits).
///
/// Connections are served by hyper directly rather than `axum::serve`, which gives hyper no timer
/// and so no header-read timeout: here a client has `--header-timeout-secs` to send its headers
/// (and to start its next request on a kept-alive connection), a connection with no request
/// running and no byte moving is closed after `--idle-timeout-secs`, and at most
/// `--max-connections` are open (the rest wait in the listen queue).
///
/// # Errors
/// The server fails.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let config = std::sync::Arc::clone(&state.config);
    let expiry = tokio::spawn(expiry::run(state.store.clone(), config.memory_ttl, config.max_db_bytes));
    let router = router(state);
    let slots = std::sync::Arc::new(tokio::sync::Semaphore::new(config.max_connections));
    let (stop, stopping) = tokio::sync::watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let slot = tokio::select! {
            () = &mut shutdown => break,
            slot = std::sync::Arc::clone(&slots).acquire_owned() => slot.map_err(|e| e.to_string())?,
        };
        let stream = tokio::select! {
            () = &mut shutdown => break,
            accepted = listener.accept() => {
                if let Ok((stream, _)) = accepted {
                    // Streamed events are small writes: without this, Nagle holds each one back
                    // until the client's (delayed) ack of the one before — 40 ms measured.
                    let _ = stream.set_nodelay(true);
                    stream
                } else {
                    // Out of file descriptors, or a connection reset before it was accepted:
                    // the listener is fine; wait a little rather than spin.
                    tokio::time::sleep(std::time::Duration::from_millis(50)).await;
                    continue;
                }
            }
        };
        while connections.try_join_next().is_some() {}
        let connection = conn::Connection::new(stream, router.clone(), &config);
        connections.spawn(connection.run(stopping.clone(), slot));
    }
    let _ = stop.send(true);
    // Running requests end within their time limit; a client still sending headers within the
    // header timeout. Whatever is left after both is cut, so a stop never hangs.
    let grace = config.request_timeout + config.header_timeout;
    let drained = tokio::time::timeout(grace, async { while connections.join_next().await.is_some() {} }).await;
    if drained.is_err() {
        connections.shutdown().await;
    }
    expiry.abort();
    Ok(())
}
