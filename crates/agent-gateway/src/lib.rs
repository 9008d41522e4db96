//! `agent-gateway`: a local HTTP backend speaking the subset of ml-commons' agent API that the
//! playground uses — register, get, delete, execute, read memory — for the standard agent input.
//!
//! Requests are validated and converted by the `agent-input` core; models are the offline
//! [`provider::echo`] model or Bedrock Converse ([`provider::bedrock`]); agents, credentials and
//! conversation memory live in one `SQLite` file ([`store`]).

pub mod api;
pub mod app;
pub mod config;
pub mod error;
pub mod execute;
pub mod fetch;
pub mod provider;
pub mod schema;
pub mod sigv4;
pub mod state;
pub mod store;

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

/// Serves on `listener` until `shutdown` completes.
///
/// # Errors
/// The server fails.
pub async fn serve(
    state: AppState,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    axum::serve(listener, router(state)).with_graceful_shutdown(shutdown).await.map_err(|e| e.to_string())
}
