//! The `--fetch-allow` list: which URL sources the gateway may fetch (read by the configuration,
//! applied by the fetcher).

/// Hosts (https) and origins (http) whose URL sources may be fetched (`--fetch-allow`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Allowlist {
    hosts: Vec<String>,
    http_origins: Vec<(String, u16)>,
}

impl Allowlist {
    /// Reads `--fetch-allow` entries.
    ///
    /// # Errors
    /// An entry that is neither a host name nor an `http://host:port` origin.
    pub fn parse(entries: &[String]) -> Result<Self, String> {
        let mut allow = Self::default();
        for entry in entries.iter().map(|e| e.trim()).filter(|e| !e.is_empty()) {
            if let Some(origin) = entry.strip_prefix("http://") {
                let url = reqwest::Url::parse(entry).map_err(|e| format!("--fetch-allow {entry}: {e}"))?;
                let (Some(host), Some(port)) = (url.host_str(), url.port_or_known_default()) else {
                    return Err(format!("--fetch-allow {entry}: an http entry must be http://host:port"));
                };
                if origin.trim_end_matches('/').contains('/') {
                    return Err(format!("--fetch-allow {entry}: an http entry is an origin, without a path"));
                }
                allow.http_origins.push((host.to_ascii_lowercase(), port));
            } else if entry.contains(['/', ':', '@', ' ', '*']) {
                return Err(format!(
                    "--fetch-allow {entry}: give a host name (images.example.com) or an http://host:port origin"
                ));
            } else {
                allow.hosts.push(entry.trim_end_matches('.').to_ascii_lowercase());
            }
        }
        Ok(allow)
    }

    /// Whether nothing is allowed.
    pub fn is_empty(&self) -> bool {
        self.hosts.is_empty() && self.http_origins.is_empty()
    }

    /// Whether `url` may be fetched.
    pub fn allows(&self, url: &reqwest::Url) -> bool {
        let Some(host) = url.host_str().map(|h| h.trim_end_matches('.').to_ascii_lowercase()) else {
            return false;
        };
        if !url.username().is_empty() || url.password().is_some() {
            return false;
        }
        match url.scheme() {
            "https" => self.hosts.contains(&host),
            "http" => url.port_or_known_default().is_some_and(|port| self.http_origins.contains(&(host, port))),
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allowlist_entries_are_hosts_or_http_origins() {
        let allow = Allowlist::parse(&["Images.Example.com".into(), "http://127.0.0.1:9000".into()]).unwrap();
        let url = |u: &str| reqwest::Url::parse(u).unwrap();
        assert!(allow.allows(&url("https://images.example.com/a.png")));
        assert!(allow.allows(&url("https://IMAGES.example.com:8443/a.png")));
        assert!(!allow.allows(&url("http://images.example.com/a.png")));
        assert!(!allow.allows(&url("https://evil.example.com/a.png")));
        assert!(!allow.allows(&url("https://images.example.com.evil.net/a.png")));
        assert!(!allow.allows(&url("https://user:pw@images.example.com/a.png")));
        assert!(allow.allows(&url("http://127.0.0.1:9000/a.png")));
        assert!(!allow.allows(&url("http://127.0.0.1:9001/a.png")));
        assert!(!allow.allows(&url("https://127.0.0.1:9000/a.png")));
        for bad in ["*.example.com", "https://x.com/a", "http://h:1/path", "a b"] {
            assert!(Allowlist::parse(&[bad.into()]).is_err(), "{bad}");
        }
        assert!(Allowlist::parse(&[]).unwrap().is_empty());
    }
}
