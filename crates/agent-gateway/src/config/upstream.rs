//! The cluster the agent API is forwarded to (`--upstream`, once per node) and its credentials.

use std::path::PathBuf;

/// How the gateway authenticates to the cluster it forwards to.
#[derive(Clone, PartialEq, Eq)]
pub enum UpstreamAuth {
    /// No credentials.
    None,
    /// HTTP basic auth.
    Basic {
        /// User name.
        user: String,
        /// Password.
        password: String,
    },
    /// `Authorization: Bearer <token>`.
    Bearer(String),
}

impl std::fmt::Debug for UpstreamAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::None => f.write_str("None"),
            Self::Basic { user, .. } => write!(f, "Basic({user}:***)"),
            Self::Bearer(_) => f.write_str("Bearer(***)"),
        }
    }
}

/// The cluster the agent API is forwarded to (`--upstream`, once per node).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Upstream {
    /// The nodes' base URLs, each ending in `/` (a path prefix is kept), in the order given.
    pub urls: Vec<reqwest::Url>,
    /// Credentials sent to every node.
    pub auth: UpstreamAuth,
    /// Extra CA certificates (PEM) trusted for the nodes.
    pub ca: Option<PathBuf>,
}

/// One source's (the flags' and environment's, or the file's) upstream settings.
#[derive(Debug, Default)]
pub struct Sources {
    /// `--upstream`, once per node.
    pub urls: Vec<String>,
    /// `--upstream-user`.
    pub user: Option<String>,
    /// `--upstream-password`.
    pub password: Option<String>,
    /// `--upstream-token`.
    pub token: Option<String>,
    /// `--upstream-ca`.
    pub ca: Option<PathBuf>,
}

impl Upstream {
    /// The upstream of the flags (and environment) over the file's: the flags' node list, when it
    /// has one, replaces the file's whole; each credential setting is taken from the first source
    /// that sets it.
    ///
    /// # Errors
    /// As [`Upstream::parse`]; credentials or a CA without any node.
    pub fn from_sources(flags: Sources, file: Sources) -> Result<Option<Self>, String> {
        let urls = if flags.urls.is_empty() { file.urls } else { flags.urls };
        let (user, password) = (flags.user.or(file.user), flags.password.or(file.password));
        let (token, ca) = (flags.token.or(file.token), flags.ca.or(file.ca));
        if urls.is_empty() {
            if user.is_some() || password.is_some() || token.is_some() || ca.is_some() {
                return Err(
                    "--upstream-user, --upstream-password, --upstream-token and --upstream-ca need --upstream URL"
                        .into(),
                );
            }
            return Ok(None);
        }
        Self::parse(&urls, user, password, token, ca).map(Some)
    }

    /// Reads the nodes' URLs (`--upstream`, once per node) and the credentials they share.
    ///
    /// # Errors
    /// No URL, or the same node twice; a URL that is not http(s), carries credentials, a query or
    /// a fragment; plain http to a host other than loopback with credentials; half a basic pair,
    /// or both kinds.
    pub fn parse(
        urls: &[impl AsRef<str>],
        user: Option<String>,
        password: Option<String>,
        token: Option<String>,
        ca: Option<PathBuf>,
    ) -> Result<Self, String> {
        let auth = match (user, password, token) {
            (None, None, None) => UpstreamAuth::None,
            (Some(user), Some(password), None) if !user.is_empty() && !password.is_empty() => {
                UpstreamAuth::Basic { user, password }
            }
            (None, None, Some(token)) if !token.trim().is_empty() => UpstreamAuth::Bearer(token.trim().to_string()),
            (_, _, Some(_)) => {
                return Err("choose one of --upstream-token and --upstream-user/--upstream-password".into());
            }
            _ => return Err("--upstream-user and --upstream-password go together, both non-empty".into()),
        };
        let mut parsed = Vec::new();
        for url in urls {
            let url = node_url(url.as_ref(), &auth)?;
            if parsed.contains(&url) {
                return Err(format!("--upstream {url}: the same node is given twice"));
            }
            parsed.push(url);
        }
        if parsed.is_empty() {
            return Err("--upstream: give at least one node's URL".into());
        }
        Ok(Self { urls: parsed, auth, ca })
    }
}

/// One node's base URL, checked.
fn node_url(url: &str, auth: &UpstreamAuth) -> Result<reqwest::Url, String> {
    let mut parsed = reqwest::Url::parse(url.trim()).map_err(|e| format!("--upstream {url}: not a URL ({e})"))?;
    if !matches!(parsed.scheme(), "https" | "http") || parsed.host_str().is_none() {
        return Err(format!("--upstream {url}: give the cluster's https:// (or http://) URL"));
    }
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(format!(
            "--upstream {url}: put the credentials in --upstream-user/--upstream-password, not in the URL"
        ));
    }
    if parsed.query().is_some() || parsed.fragment().is_some() {
        return Err(format!("--upstream {url}: the URL takes no query or fragment"));
    }
    if !parsed.path().ends_with('/') {
        let path = format!("{}/", parsed.path());
        parsed.set_path(&path);
    }
    let loopback = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        Some(url::Host::Domain(name)) => name.eq_ignore_ascii_case("localhost"),
        None => false,
    };
    if parsed.scheme() == "http" && *auth != UpstreamAuth::None && !loopback {
        return Err(format!("--upstream {url}: refusing to send the cluster's credentials over plain http; use https"));
    }
    Ok(parsed)
}
