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
pub mod provider;
pub mod sigv4;
pub mod store;

use std::future::Future;

pub use app::{AppState, router};
pub use config::{Args, Config};

/// Opens the store, registers the `echo` agent if configured, and serves on `listener` until
/// `shutdown` completes.
///
/// # Errors
/// The store cannot be opened or the server fails.
pub async fn serve(
    config: Config,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> Result<(), String> {
    let echo = config.echo_agent;
    let state = AppState::new(config)?;
    if echo {
        api::ensure_echo_agent(&state.store).map_err(|e| e.to_string())?;
    }
    axum::serve(listener, router(state)).with_graceful_shutdown(shutdown).await.map_err(|e| e.to_string())
}
