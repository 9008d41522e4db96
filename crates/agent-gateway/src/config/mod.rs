//! Configuration: command-line flags, then `AGENT_GATEWAY_*` environment variables, then a TOML
//! file, then defaults — the first that sets a value wins.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::allowlist::Allowlist;

mod file;
#[cfg(test)]
mod tests;
mod upstream;
mod values;

use file::{File, read_file};
pub use upstream::{Upstream, UpstreamAuth};
use values::{absolute, hosts, ttl};
/// The command line. Every option can also come from the environment or the TOML file.
#[derive(Debug, Default, Parser)]
#[command(
    name = "agent-gateway",
    version,
    about = "A local HTTP backend speaking ml-commons' agent API (register, execute, memory) for the \
             standard agent input: offline with the `echo` provider, Bedrock Converse when configured.",
    after_help = "Precedence: flags, then environment variables, then the TOML file (--config), then \
                  defaults. The TOML file uses the long flag names with underscores, e.g.\n\n  \
                  listen = \"127.0.0.1:8080\"\n  db = \"agent-gateway.db\"\n  site = \"www\"\n  \
                  cors_origins = [\"http://localhost:5173\"]\n  bearer_token = \"s3cret\"\n  \
                  max_body_bytes = 67108864\n  request_timeout_secs = 120\n  provider_timeout_secs = 60\n  \
                  fetch_allow = [\"images.example.com\"]\n  endpoint_allow = [\"bedrock.internal.example.com\"]\n  \
                  allowed_hosts = [\"gateway.example.com\"]\n  header_timeout_secs = 10\n  idle_timeout_secs = 60\n  \
                  max_connections = 512\n  max_memory_bytes = 16777216\n  max_memory_messages = 1000\n  \
                  memory_ttl = \"30d\"\n  max_db_bytes = 1073741824\n  \
                  upstream = [\"https://node-1.example.com:9200\", \"https://node-2.example.com:9200\"]\n  \
                  upstream_user = \"admin\"\n  upstream_password = \"...\"\n  upstream_ca = \"root-ca.pem\"\n\n\
                  With --upstream, the agent API (register, agents, _execute and _execute/stream, memory) is \
                  validated here and forwarded to the cluster with its credentials; the browser never sees them. \
                  With several nodes, a request is sent to another node only when it certainly never reached the \
                  first (no connection, TLS handshake failed) or when it is a read (GET); a register, _execute or \
                  delete that may have reached a node is answered with 502 or 504, never sent twice.\n\
                  An agent with id `echo` (provider echo) is registered at start unless --no-echo-agent.\n\
                  Agents and credentials are kept in the `SQLite` file (created mode 0600); credentials are \
                  never returned by the API nor logged."
)]
pub struct Args {
    /// TOML configuration file.
    #[arg(long, env = "AGENT_GATEWAY_CONFIG", value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Address to listen on [default: 127.0.0.1:8080].
    #[arg(long, env = "AGENT_GATEWAY_LISTEN", value_name = "ADDR")]
    pub listen: Option<SocketAddr>,
    /// `SQLite` file holding agents, credentials and conversation memory [default: agent-gateway.db].
    #[arg(long, env = "AGENT_GATEWAY_DB", value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Directory of the built playground, served at `/`.
    #[arg(long, env = "AGENT_GATEWAY_SITE", value_name = "DIR")]
    pub site: Option<PathBuf>,
    /// Origin allowed to call the API from a browser (repeatable; `*` for any). None by default.
    #[arg(long = "cors-origin", env = "AGENT_GATEWAY_CORS_ORIGINS", value_delimiter = ',', value_name = "ORIGIN")]
    pub cors_origins: Vec<String>,
    /// Protect the API with HTTP basic auth.
    #[arg(long, env = "AGENT_GATEWAY_BASIC_AUTH", value_name = "USER:PASSWORD")]
    pub basic_auth: Option<String>,
    /// Protect the API with `Authorization: Bearer TOKEN`.
    #[arg(long, env = "AGENT_GATEWAY_BEARER_TOKEN", value_name = "TOKEN")]
    pub bearer_token: Option<String>,
    /// Largest request body in bytes [default: 67108864 (64 MiB)].
    #[arg(long, env = "AGENT_GATEWAY_MAX_BODY_BYTES", value_name = "BYTES")]
    pub max_body_bytes: Option<usize>,
    /// Time limit for one API request, provider call included [default: 120].
    #[arg(long, env = "AGENT_GATEWAY_REQUEST_TIMEOUT_SECS", value_name = "SECS")]
    pub request_timeout_secs: Option<u64>,
    /// Time limit for one provider call [default: 60].
    #[arg(long, env = "AGENT_GATEWAY_PROVIDER_TIMEOUT_SECS", value_name = "SECS")]
    pub provider_timeout_secs: Option<u64>,
    /// Host whose https URL sources are fetched and inlined for providers that take no web URLs
    /// (Bedrock); repeatable. `http://HOST:PORT` allows plain http to that origin. None by default:
    /// then no URL is ever fetched.
    #[arg(long = "fetch-allow", env = "AGENT_GATEWAY_FETCH_ALLOW", value_delimiter = ',', value_name = "HOST")]
    pub fetch_allow: Vec<String>,
    /// Host a `model_parameters.endpoint` may name besides loopback (repeatable): https only.
    /// An endpoint on this list is trusted like the provider's own host (its error bodies are
    /// passed on). None by default: endpoints may name only loopback or the provider's own host.
    #[arg(long = "endpoint-allow", env = "AGENT_GATEWAY_ENDPOINT_ALLOW", value_delimiter = ',', value_name = "HOST")]
    pub endpoint_allow: Vec<String>,
    /// Name the `Host` header may carry besides the listen address and localhost names
    /// (repeatable; `*` for any): a DNS-rebinding page sends its own name and is refused.
    #[arg(long = "allowed-host", env = "AGENT_GATEWAY_ALLOWED_HOSTS", value_delimiter = ',', value_name = "HOST")]
    pub allowed_hosts: Vec<String>,
    /// Time a client has to send a request's headers, and the longest wait for the next request on
    /// a kept-alive connection [default: 10].
    #[arg(long, env = "AGENT_GATEWAY_HEADER_TIMEOUT_SECS", value_name = "SECS")]
    pub header_timeout_secs: Option<u64>,
    /// A connection with no request running and no byte moving for this long is closed
    /// [default: 60].
    #[arg(long, env = "AGENT_GATEWAY_IDLE_TIMEOUT_SECS", value_name = "SECS")]
    pub idle_timeout_secs: Option<u64>,
    /// Most connections open at once; further clients wait in the listen queue [default: 512].
    #[arg(long, env = "AGENT_GATEWAY_MAX_CONNECTIONS", value_name = "N")]
    pub max_connections: Option<usize>,
    /// Largest conversation memory, in bytes of stored messages [default: 16777216 (16 MiB)].
    #[arg(long, env = "AGENT_GATEWAY_MAX_MEMORY_BYTES", value_name = "BYTES")]
    pub max_memory_bytes: Option<usize>,
    /// Most messages in one conversation memory [default: 1000].
    #[arg(long, env = "AGENT_GATEWAY_MAX_MEMORY_MESSAGES", value_name = "N")]
    pub max_memory_messages: Option<usize>,
    /// A memory neither continued nor read for this long is evicted (its later use is a 404
    /// that says so): seconds, or a number with s, m, h or d; `never` keeps memories until the
    /// size cap needs the room [default: 30d].
    #[arg(long, env = "AGENT_GATEWAY_MEMORY_TTL", value_name = "DURATION")]
    pub memory_ttl: Option<String>,
    /// Largest database: over it, the least recently used memories are evicted (never one a
    /// running turn uses) and the file shrinks [default: 1073741824 (1 GiB)].
    #[arg(long, env = "AGENT_GATEWAY_MAX_DB_BYTES", value_name = "BYTES")]
    pub max_db_bytes: Option<u64>,
    /// Do not register the `echo` agent at start.
    #[arg(long, env = "AGENT_GATEWAY_NO_ECHO_AGENT")]
    pub no_echo_agent: bool,
    /// Do not log one line per request to standard error.
    #[arg(long, env = "AGENT_GATEWAY_QUIET")]
    pub quiet: bool,
    /// An `OpenSearch` node (`https://host:9200`) to forward the agent API to, after the input
    /// is validated here: agents, `_execute` (and `/stream`) and memory reads run on the cluster,
    /// and bad input is answered here without reaching it. Repeatable (or comma-separated), one
    /// per node of the cluster: requests go round-robin over the nodes in service, a node whose
    /// connection fails is taken out and probed until it answers again, and a request that
    /// certainly never reached a node is sent to the next one.
    #[arg(long, env = "AGENT_GATEWAY_UPSTREAM", value_delimiter = ',', value_name = "URL")]
    pub upstream: Vec<String>,
    /// User for HTTP basic auth to the cluster (with --upstream-password).
    #[arg(long, env = "AGENT_GATEWAY_UPSTREAM_USER", value_name = "USER")]
    pub upstream_user: Option<String>,
    /// Password for HTTP basic auth to the cluster.
    #[arg(long, env = "AGENT_GATEWAY_UPSTREAM_PASSWORD", value_name = "PASSWORD", hide_env_values = true)]
    pub upstream_password: Option<String>,
    /// `Authorization: Bearer TOKEN` for the cluster (instead of basic auth).
    #[arg(long, env = "AGENT_GATEWAY_UPSTREAM_TOKEN", value_name = "TOKEN", hide_env_values = true)]
    pub upstream_token: Option<String>,
    /// A PEM file of CA certificates to trust for the cluster (a self-signed cluster). The
    /// cluster's certificate is always verified.
    #[arg(long, env = "AGENT_GATEWAY_UPSTREAM_CA", value_name = "FILE")]
    pub upstream_ca: Option<PathBuf>,
}

/// How callers must authenticate to the gateway's own API.
#[derive(Clone, PartialEq, Eq)]
pub enum ApiAuth {
    /// Open (the default: the gateway binds to loopback).
    None,
    /// HTTP basic auth with this user and password.
    Basic {
        /// User name.
        user: String,
        /// Password.
        password: String,
    },
    /// `Authorization: Bearer <token>`.
    Bearer(String),
}

impl std::fmt::Debug for ApiAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Secrets never reach logs, not even through Debug.
        match self {
            Self::None => f.write_str("None"),
            Self::Basic { user, .. } => write!(f, "Basic({user}:***)"),
            Self::Bearer(_) => f.write_str("Bearer(***)"),
        }
    }
}

/// The effective configuration.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address to listen on.
    pub listen: SocketAddr,
    /// The `SQLite` file.
    pub db: PathBuf,
    /// The built playground, if any.
    pub site: Option<PathBuf>,
    /// Origins allowed by CORS (`*` for any); empty means no CORS headers.
    pub cors_origins: Vec<String>,
    /// Protection of the API.
    pub auth: ApiAuth,
    /// Largest request body.
    pub max_body_bytes: usize,
    /// Time limit for one API request.
    pub request_timeout: Duration,
    /// Time limit for one provider call.
    pub provider_timeout: Duration,
    /// Hosts whose URL sources may be fetched (`--fetch-allow`); empty: nothing is fetched.
    pub fetch_allow: Allowlist,
    /// Hosts `model_parameters.endpoint` may name besides loopback, lowercase (`--endpoint-allow`).
    pub endpoint_allow: Vec<String>,
    /// `Host` names accepted besides the listen address and localhost names, lowercase.
    pub allowed_hosts: Vec<String>,
    /// Time to send a request's headers (and to start the next one on a kept-alive connection).
    pub header_timeout: Duration,
    /// A connection with no request running and no byte moving for this long is closed.
    pub idle_timeout: Duration,
    /// Most connections open at once.
    pub max_connections: usize,
    /// Largest memory, in bytes of stored messages.
    pub max_memory_bytes: usize,
    /// Most messages in one memory.
    pub max_memory_messages: usize,
    /// A memory unused for this long is evicted; `None`: never for its age.
    pub memory_ttl: Option<Duration>,
    /// Over this many bytes in use, the database evicts its least recently used memories.
    pub max_db_bytes: u64,
    /// Register the `echo` agent at start.
    pub echo_agent: bool,
    /// Log one line per request.
    pub log_requests: bool,
    /// The cluster the agent API is forwarded to, if any (`--upstream`).
    pub upstream: Option<Upstream>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            listen: SocketAddr::from(([127, 0, 0, 1], 8080)),
            db: PathBuf::from("agent-gateway.db"),
            site: None,
            cors_origins: Vec::new(),
            auth: ApiAuth::None,
            max_body_bytes: 64 * 1024 * 1024,
            request_timeout: Duration::from_secs(120),
            provider_timeout: Duration::from_secs(60),
            fetch_allow: Allowlist::default(),
            endpoint_allow: Vec::new(),
            allowed_hosts: Vec::new(),
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            max_connections: 512,
            max_memory_bytes: 16 * 1024 * 1024,
            max_memory_messages: 1000,
            memory_ttl: Some(Duration::from_secs(30 * 24 * 3600)),
            max_db_bytes: 1024 * 1024 * 1024,
            echo_agent: true,
            log_requests: true,
            upstream: None,
        }
    }
}

impl Config {
    /// Merges flags and environment (already in `args`, by clap) over the TOML file over defaults.
    ///
    /// # Errors
    /// The file cannot be read or parsed, or an option is contradictory.
    pub fn from_args(args: Args) -> Result<Self, String> {
        let file = match &args.config {
            Some(path) => read_file(path)?,
            None => File::default(),
        };
        let defaults = Self::default();
        let basic = args.basic_auth.or(file.basic_auth);
        let bearer = args.bearer_token.or(file.bearer_token);
        let auth = match (basic, bearer) {
            (Some(_), Some(_)) => return Err("choose one of --basic-auth and --bearer-token".into()),
            (Some(pair), None) => match pair.split_once(':') {
                Some((user, password)) if !user.is_empty() && !password.is_empty() => {
                    ApiAuth::Basic { user: user.into(), password: password.into() }
                }
                _ => return Err("--basic-auth must be USER:PASSWORD, both non-empty".into()),
            },
            (None, Some(token)) if token.trim().is_empty() => return Err("--bearer-token must not be empty".into()),
            (None, Some(token)) => ApiAuth::Bearer(token),
            (None, None) => ApiAuth::None,
        };
        let secs = |value: Option<u64>, default: Duration, name: &str| match value {
            Some(0) => Err(format!("{name} must be at least 1 second")),
            Some(n) => Ok(Duration::from_secs(n)),
            None => Ok(default),
        };
        let cors_origins =
            if args.cors_origins.is_empty() { file.cors_origins.unwrap_or_default() } else { args.cors_origins };
        let fetch_allow = Allowlist::parse(&if args.fetch_allow.is_empty() {
            file.fetch_allow.unwrap_or_default()
        } else {
            args.fetch_allow
        })?;
        let endpoint_allow = hosts(
            if args.endpoint_allow.is_empty() { file.endpoint_allow.unwrap_or_default() } else { args.endpoint_allow },
            "--endpoint-allow",
        )?;
        let allowed_hosts = hosts(
            if args.allowed_hosts.is_empty() { file.allowed_hosts.unwrap_or_default() } else { args.allowed_hosts },
            "--allowed-host",
        )?;
        let flags = upstream::Sources {
            urls: args.upstream,
            user: args.upstream_user,
            password: args.upstream_password,
            token: args.upstream_token,
            ca: args.upstream_ca,
        };
        let from_file = upstream::Sources {
            urls: file.upstream.map(file::Urls::into_vec).unwrap_or_default(),
            user: file.upstream_user,
            password: file.upstream_password,
            token: file.upstream_token,
            ca: file.upstream_ca,
        };
        let upstream = Upstream::from_sources(flags, from_file)?;
        let count = |value: Option<usize>, default: usize, name: &str| match value {
            Some(0) => Err(format!("{name} must be at least 1")),
            Some(n) => Ok(n),
            None => Ok(default),
        };
        let config = Self {
            listen: args.listen.or(file.listen).unwrap_or(defaults.listen),
            db: args.db.or(file.db).unwrap_or(defaults.db),
            site: args.site.or(file.site),
            cors_origins,
            auth,
            max_body_bytes: args.max_body_bytes.or(file.max_body_bytes).unwrap_or(defaults.max_body_bytes),
            request_timeout: secs(
                args.request_timeout_secs.or(file.request_timeout_secs),
                defaults.request_timeout,
                "request_timeout_secs",
            )?,
            provider_timeout: secs(
                args.provider_timeout_secs.or(file.provider_timeout_secs),
                defaults.provider_timeout,
                "provider_timeout_secs",
            )?,
            fetch_allow,
            endpoint_allow,
            allowed_hosts,
            header_timeout: secs(
                args.header_timeout_secs.or(file.header_timeout_secs),
                defaults.header_timeout,
                "header_timeout_secs",
            )?,
            idle_timeout: secs(
                args.idle_timeout_secs.or(file.idle_timeout_secs),
                defaults.idle_timeout,
                "idle_timeout_secs",
            )?,
            max_connections: count(
                args.max_connections.or(file.max_connections),
                defaults.max_connections,
                "max_connections",
            )?,
            max_memory_bytes: count(
                args.max_memory_bytes.or(file.max_memory_bytes),
                defaults.max_memory_bytes,
                "max_memory_bytes",
            )?,
            max_memory_messages: count(
                args.max_memory_messages.or(file.max_memory_messages),
                defaults.max_memory_messages,
                "max_memory_messages",
            )?,
            memory_ttl: match args.memory_ttl.or(file.memory_ttl) {
                Some(text) => ttl(&text)?,
                None => defaults.memory_ttl,
            },
            max_db_bytes: match args.max_db_bytes.or(file.max_db_bytes) {
                Some(0) => return Err("max_db_bytes must be at least 1".into()),
                Some(n) => n,
                None => defaults.max_db_bytes,
            },
            echo_agent: !args.no_echo_agent && file.echo_agent.unwrap_or(true),
            log_requests: !args.quiet && !file.quiet.unwrap_or(false),
            upstream,
        };
        config.check_exposure()?;
        Ok(config)
    }

    /// Refuses the settings that would expose secrets: an open API on a non-loopback address,
    /// and a database the playground's file server would hand out (its WAL holds credentials).
    fn check_exposure(&self) -> Result<(), String> {
        if !self.listen.ip().is_loopback() && self.auth == ApiAuth::None {
            return Err(format!(
                "refusing to listen on {} without authentication: anyone who can reach it could use the \
                 stored credentials; add --bearer-token or --basic-auth, or listen on 127.0.0.1",
                self.listen
            ));
        }
        if let Some(site) = &self.site
            && let Ok(site) = std::fs::canonicalize(site)
            && absolute(&self.db).is_some_and(|db| db.starts_with(&site))
        {
            return Err(format!(
                "refusing to start: the database {} is inside --site {}, which serves every file in it; \
                 put the database elsewhere",
                self.db.display(),
                site.display()
            ));
        }
        Ok(())
    }
}
