//! The `agent-gateway` binary: configuration in, server out.

use std::io::Write as _;
use std::process::ExitCode;

use agent_gateway::{Args, Config};
use clap::Parser as _;

fn main() -> ExitCode {
    let config = match Config::from_args(Args::parse()) {
        Ok(config) => config,
        Err(message) => {
            eprintln!("agent-gateway: {message}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("agent-gateway: cannot start the runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(config)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("agent-gateway: {message}");
            ExitCode::FAILURE
        }
    }
}

async fn run(config: Config) -> Result<(), String> {
    let state = agent_gateway::prepare(config)?;
    let config = std::sync::Arc::clone(&state.config);
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.listen))?;
    let address = listener.local_addr().map_err(|e| e.to_string())?;
    let site = if config.site.is_some() { "the playground" } else { "no playground (--site DIR)" };
    // The first line of standard output is the URL (scripts and tests read it).
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "agent-gateway listening on http://{address}/ — {site}; database {}", config.db.display());
    let _ = out.flush();
    drop(out);
    agent_gateway::serve(state, listener, shutdown()).await
}

async fn shutdown() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let terminate = async {
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(mut signal) => {
                    signal.recv().await;
                }
                Err(_) => std::future::pending().await,
            }
        };
        tokio::select! {
            _ = interrupt => {}
            () = terminate => {}
        }
    }
    #[cfg(not(unix))]
    let _ = interrupt.await;
}
