//! The TOML configuration file (`--config`): the long flag names with underscores.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// The TOML file's keys; every one optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct File {
    pub(super) listen: Option<SocketAddr>,
    pub(super) db: Option<PathBuf>,
    pub(super) site: Option<PathBuf>,
    pub(super) cors_origins: Option<Vec<String>>,
    pub(super) basic_auth: Option<String>,
    pub(super) bearer_token: Option<String>,
    pub(super) max_body_bytes: Option<usize>,
    pub(super) request_timeout_secs: Option<u64>,
    pub(super) provider_timeout_secs: Option<u64>,
    pub(super) fetch_allow: Option<Vec<String>>,
    pub(super) endpoint_allow: Option<Vec<String>>,
    pub(super) allowed_hosts: Option<Vec<String>>,
    pub(super) header_timeout_secs: Option<u64>,
    pub(super) idle_timeout_secs: Option<u64>,
    pub(super) max_connections: Option<usize>,
    pub(super) max_memory_bytes: Option<usize>,
    pub(super) max_memory_messages: Option<usize>,
    pub(super) memory_ttl: Option<String>,
    pub(super) max_db_bytes: Option<u64>,
    pub(super) echo_agent: Option<bool>,
    pub(super) quiet: Option<bool>,
    pub(super) upstream: Option<Urls>,
    pub(super) upstream_user: Option<String>,
    pub(super) upstream_password: Option<String>,
    pub(super) upstream_token: Option<String>,
    pub(super) upstream_ca: Option<PathBuf>,
}

/// `upstream`: one URL, or a list of the cluster's nodes.
#[derive(Debug, Deserialize)]
#[serde(untagged)]
pub(super) enum Urls {
    /// `upstream = "https://node:9200"`.
    One(String),
    /// `upstream = ["https://node-1:9200", "https://node-2:9200"]`.
    Many(Vec<String>),
}

impl Urls {
    pub(super) fn into_vec(self) -> Vec<String> {
        match self {
            Self::One(url) => vec![url],
            Self::Many(urls) => urls,
        }
    }
}

pub(super) fn read_file(path: &Path) -> Result<File, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}
