//! A small URL check for media sources.
//!
//! Only three schemes are accepted, so a full WHATWG parser (and its Unicode tables in the wasm
//! build) would buy nothing: this checks RFC 3986's scheme syntax, an authority with a host for
//! http(s), and S3's bucket naming rules for `s3://`.

/// A URL scheme accepted for media sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// `https://`
    Https,
    /// `http://`
    Http,
    /// `s3://bucket/key`
    S3,
}

impl Scheme {
    /// The scheme's name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Https => "https",
            Self::Http => "http",
            Self::S3 => "s3",
        }
    }

    /// Whether this is a web (http or https) URL.
    pub const fn is_web(self) -> bool {
        matches!(self, Self::Https | Self::Http)
    }
}

/// Longest S3 URI Bedrock accepts.
pub const MAX_S3_URI_LEN: usize = 1024;

/// `url` with its scheme in lowercase (schemes are case-insensitive; Bedrock's S3 pattern is not).
pub fn normalize_scheme(url: &str) -> std::borrow::Cow<'_, str> {
    match url.split_once(':') {
        Some((scheme, rest)) if scheme.bytes().any(|b| b.is_ascii_uppercase()) => {
            std::borrow::Cow::Owned(format!("{}:{rest}", scheme.to_ascii_lowercase()))
        }
        _ => std::borrow::Cow::Borrowed(url),
    }
}

/// Accepted schemes, in the order messages list them.
pub const SCHEMES: [&str; 3] = ["https", "http", "s3"];

/// Why a URL was rejected.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UrlError {
    /// Not an absolute URL; the reason is a sentence fragment.
    Invalid(&'static str),
    /// A well-formed URL with another scheme (lowercased).
    Scheme(String),
}

/// Checks a media source URL and returns its scheme.
pub fn check(url: &str) -> Result<Scheme, UrlError> {
    let Some((scheme, rest)) = url.split_once(':') else {
        return Err(UrlError::Invalid("it has no scheme (such as https:// or s3://)"));
    };
    let valid_scheme = scheme.bytes().next().is_some_and(|b| b.is_ascii_alphabetic())
        && scheme.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    if !valid_scheme {
        return Err(UrlError::Invalid("it does not start with a valid scheme"));
    }
    let scheme = scheme.to_ascii_lowercase();
    let parsed = match scheme.as_str() {
        "https" => Scheme::Https,
        "http" => Scheme::Http,
        "s3" => Scheme::S3,
        _ => return Err(UrlError::Scheme(scheme)),
    };
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(UrlError::Invalid("it contains spaces or control characters"));
    }
    let Some(rest) = rest.strip_prefix("//") else {
        return Err(UrlError::Invalid("the scheme must be followed by //"));
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    if parsed == Scheme::S3 {
        check_bucket(authority)?;
        // Bedrock's S3Location.uri: at most 1024 characters, `s3://bucket` then nothing or `/...`.
        if !matches!(rest.as_bytes().get(authority_end), None | Some(b'/')) {
            return Err(UrlError::Invalid("an S3 URI continues after the bucket only with /key"));
        }
        if url.len() > MAX_S3_URI_LEN {
            return Err(UrlError::Invalid("it is longer than the 1024 characters an S3 URI may have"));
        }
        return Ok(parsed);
    }
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        let Some((inner, after)) = v6.split_once(']') else {
            return Err(UrlError::Invalid("its IPv6 host is missing the closing ]"));
        };
        if inner.is_empty() || !inner.bytes().all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.') {
            return Err(UrlError::Invalid("its IPv6 host is not valid"));
        }
        check_port(after)?;
        inner
    } else {
        let (host, port) = host_port.split_once(':').map_or((host_port, ""), |(h, p)| (h, p));
        if !port.is_empty() || host_port.ends_with(':') {
            check_port(&format!(":{port}"))?;
        }
        if host.bytes().any(|b| matches!(b, b'<' | b'>' | b'"' | b'\\' | b'^' | b'`' | b'{' | b'|' | b'}')) {
            return Err(UrlError::Invalid("its host contains characters a host name cannot have"));
        }
        host
    };
    if host.is_empty() {
        return Err(UrlError::Invalid("it has no host"));
    }
    Ok(parsed)
}

fn check_port(after_host: &str) -> Result<(), UrlError> {
    if after_host.is_empty() {
        return Ok(());
    }
    match after_host.strip_prefix(':') {
        Some(port) if !port.is_empty() && port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit()) => {
            if port.parse::<u32>().is_ok_and(|p| p <= 65535) {
                Ok(())
            } else {
                Err(UrlError::Invalid("its port is out of range"))
            }
        }
        _ => Err(UrlError::Invalid("its port is not a number")),
    }
}

/// S3 general purpose bucket naming rules, which Bedrock's `S3Location.uri` pattern also encodes.
fn check_bucket(bucket: &str) -> Result<(), UrlError> {
    let bytes = bucket.as_bytes();
    if bytes.is_empty() {
        return Err(UrlError::Invalid("it has no bucket name (expected s3://bucket/key)"));
    }
    let lower_alnum = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit();
    let ok = (3..=63).contains(&bytes.len())
        && bytes.iter().all(|&b| lower_alnum(b) || b == b'.' || b == b'-')
        && lower_alnum(bytes[0])
        && lower_alnum(bytes[bytes.len() - 1])
        && !bucket.contains("..");
    if ok {
        Ok(())
    } else {
        Err(UrlError::Invalid(
            "its bucket name is not valid (3-63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit)",
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_the_three_schemes() {
        assert_eq!(check("https://example.com/cat.jpg"), Ok(Scheme::Https));
        assert_eq!(check("HTTP://example.com:8080/a?b#c"), Ok(Scheme::Http));
        assert_eq!(check("https://[::1]:443/x"), Ok(Scheme::Https));
        assert_eq!(check("s3://my-bucket/path/to/cat.jpg"), Ok(Scheme::S3));
        assert_eq!(check("s3://my.bucket.01"), Ok(Scheme::S3));
    }

    #[test]
    fn rejects_other_schemes_and_junk() {
        assert_eq!(check("ftp://example.com/x"), Err(UrlError::Scheme("ftp".into())));
        assert_eq!(check("data:image/png;base64,AAAA"), Err(UrlError::Scheme("data".into())));
        assert!(matches!(check("example.com/cat.jpg"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("https://"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("https:/example.com"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("https://exa mple.com"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("https://example.com:99999/"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("s3://My_Bucket/key"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("s3:///key"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("1http://x"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("s3://bucket?versionId=1"), Err(UrlError::Invalid(_))));
        assert!(matches!(check("s3://bucket#x"), Err(UrlError::Invalid(_))));
        assert_eq!(check("s3://bucket/key?versionId=1"), Ok(Scheme::S3));
        let long = format!("s3://bucket/{}", "k".repeat(1100));
        assert!(matches!(check(&long), Err(UrlError::Invalid(_))));
        assert_eq!(normalize_scheme("S3://Bucket/Key"), "s3://Bucket/Key");
    }
}
