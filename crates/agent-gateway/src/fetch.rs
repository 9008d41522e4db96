//! Fetching URL sources for providers that take no web URLs (Bedrock), only from allowlisted
//! hosts (`--fetch-allow`). Nothing is fetched when the allowlist is empty (the default), and a
//! URL whose host is not on it is never contacted: it reaches the converter unchanged and is
//! refused there (`url_not_supported_by_provider`).
//!
//! An entry is a host name (`images.example.com`): `https` URLs of that host, any port. An entry
//! `http://host:port` also allows plain http to exactly that origin (an intranet server, or a
//! test's local one). Redirects are followed only to allowlisted URLs (at most 5). The sources
//! are counted against Bedrock's limits before anything is fetched; each distinct URL is fetched
//! once, all concurrently, within one provider time limit, each up to the provider's size limit
//! for its block's kind and all together within the room the body limit leaves. The fetched bytes
//! replace the URL as a base64 source with the block's own format, so the validator's format
//! sniffing then checks them like any other base64 data.

use std::time::Duration;

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use agent_input::convert::bedrock_converse::{
    MAX_DOCUMENT_BYTES, MAX_DOCUMENTS, MAX_IMAGE_BYTES, MAX_IMAGES, MAX_VIDEO_BASE64_CHARS,
};
use agent_input::{Code, Diagnostic, Path, format};
use serde_json::{Map, Value};

use crate::allowlist::Allowlist;
use crate::error::{ApiError, ErrorKind};

/// Most redirects followed for one URL.
const MAX_REDIRECTS: usize = 5;

/// The allowlist and the client that fetches from it.
#[derive(Debug, Clone)]
pub struct Fetcher {
    allow: Allowlist,
    http: reqwest::Client,
    timeout: Duration,
}

/// What an inlining pass did.
#[derive(Debug, Default)]
pub struct Inlined {
    /// The rewritten body, when anything was fetched.
    pub body: Option<Vec<u8>>,
    /// Bytes the body grew by.
    pub added: usize,
}

impl Fetcher {
    /// A fetcher for `allow`, each fetch limited to `timeout`.
    ///
    /// # Errors
    /// The HTTP client cannot be built.
    pub fn new(allow: Allowlist, timeout: Duration) -> Result<Self, String> {
        let policy_allow = allow.clone();
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::custom(move |attempt| {
                if attempt.previous().len() > MAX_REDIRECTS || !policy_allow.allows(attempt.url()) {
                    attempt.stop()
                } else {
                    attempt.follow()
                }
            }))
            .connect_timeout(timeout.min(Duration::from_secs(10)))
            .build()
            .map_err(|e| format!("cannot build the HTTP client for --fetch-allow: {e}"))?;
        Ok(Self { allow, http, timeout })
    }

    /// Whether any host is allowlisted.
    pub fn is_enabled(&self) -> bool {
        !self.allow.is_empty()
    }

    /// Replaces every allowlisted URL source in the request `body` with the fetched bytes as
    /// base64. A body that is not JSON, or has no such source, is left for the validator.
    ///
    /// Before anything is fetched the sources are counted against Bedrock's limits; each distinct
    /// URL is then fetched once, all at the same time, within one provider time limit and one
    /// byte `budget` shared by all of them.
    ///
    /// # Errors
    /// A 400 when there are more sources than the provider takes, when an allowlisted URL cannot
    /// be fetched or is redirected off the allowlist, or when a file or all of them together are
    /// larger than allowed (`provider_limit`, `too_large`).
    pub async fn inline(&self, body: &[u8], budget: usize) -> Result<Inlined, ApiError> {
        if !self.is_enabled() || !contains(body, b"http") {
            return Ok(Inlined::default());
        }
        let Ok(mut value) = serde_json::from_slice::<Value>(body) else { return Ok(Inlined::default()) };
        let mut sources = Vec::new();
        if let Some(Value::Array(items)) = value.get_mut("input") {
            let root = Path::root().key("input");
            for (i, item) in items.iter_mut().enumerate() {
                let path = root.index(i);
                let Some(item) = item.as_object_mut() else { continue };
                if item.contains_key("role") {
                    if let Some(Value::Array(blocks)) = item.get_mut("content") {
                        for (j, block) in blocks.iter_mut().enumerate() {
                            sources.extend(self.source_of(block, &path.key("content").index(j)));
                        }
                    }
                } else {
                    sources.extend(self.source_of_object(item, &path));
                }
            }
        }
        if sources.is_empty() {
            return Ok(Inlined::default());
        }
        for (kind, most) in [("image", MAX_IMAGES), ("document", MAX_DOCUMENTS)] {
            let mut of_kind = sources.iter().filter(|(_, wanted, _)| wanted.kind == kind);
            if let Some((_, _, path)) = of_kind.nth(usize::try_from(most).unwrap_or(usize::MAX)) {
                let count = sources.iter().filter(|(_, wanted, _)| wanted.kind == kind).count();
                return Err(ApiError::invalid_one(
                    Diagnostic::new(
                        Code::ProviderLimit,
                        path.clone(),
                        format!("{count} {kind} URLs; Bedrock takes at most {most} {kind}s in a request"),
                    )
                    .limit(most, count as u64),
                ));
            }
        }

        // Each distinct URL once, with the largest cap any of its blocks allows.
        let mut distinct: Vec<(String, u64, Path)> = Vec::new();
        for (source, wanted, path) in &sources {
            let Some(Value::String(url)) = source.get("data") else { continue };
            let url = url.trim();
            match distinct.iter_mut().find(|(seen, _, _)| seen == url) {
                Some(entry) => entry.1 = entry.1.max(wanted.cap),
                None => distinct.push((url.to_string(), wanted.cap, path.clone())),
            }
        }
        let budget = Arc::new(Budget { total: budget, left: AtomicUsize::new(budget) });
        let mut fetches = tokio::task::JoinSet::new();
        for (index, (url, cap, path)) in distinct.iter().cloned().enumerate() {
            let (http, budget) = (self.http.clone(), Arc::clone(&budget));
            fetches.spawn(async move { (index, fetch(&http, &url, cap, &path, &budget).await) });
        }
        let mut files: Vec<Option<Fetched>> = distinct.iter().map(|_| None).collect();
        let collect = async {
            while let Some(joined) = fetches.join_next().await {
                let (index, result) = joined.map_err(|e| ApiError::internal(format!("a fetch failed: {e}")))?;
                files[index] = Some(result?);
            }
            Ok::<(), ApiError>(())
        };
        let Ok(result) = tokio::time::timeout(self.timeout, collect).await else {
            let (url, _, path) = &distinct[0];
            return Err(ApiError::new(
                ErrorKind::UrlFetchFailed,
                format!(
                    "{path}: could not fetch {url} and the other URL sources: no complete answers within {} s",
                    self.timeout.as_secs()
                ),
            ));
        };
        result?;

        let mut added = 0;
        for (source, wanted, path) in sources {
            let Some(Value::String(url)) = source.get("data") else { continue };
            let url = url.trim();
            let Some(Some(file)) = distinct.iter().position(|(seen, _, _)| seen == url).map(|i| files[i].as_ref())
            else {
                continue;
            };
            if file.bytes.len() as u64 > wanted.cap {
                return Err(too_large(&path, wanted.cap, file.bytes.len() as u64));
            }
            check_type(&wanted, file.mime.as_deref(), &file.bytes, &path)?;
            let data = agent_input::base64::encode(&file.bytes);
            added += data.len();
            source.insert("type".into(), Value::String("base64".into()));
            source.insert("data".into(), Value::String(data));
        }
        let text =
            serde_json::to_vec(&value).map_err(|e| ApiError::internal(format!("cannot rewrite the body: {e}")))?;
        Ok(Inlined { body: Some(text), added })
    }

    fn source_of<'v>(&self, block: &'v mut Value, path: &Path) -> Option<(&'v mut Map<String, Value>, Wanted, Path)> {
        self.source_of_object(block.as_object_mut()?, path)
    }

    /// The block's source and size cap when it is an allowlisted URL source.
    fn source_of_object<'v>(
        &self,
        block: &'v mut Map<String, Value>,
        path: &Path,
    ) -> Option<(&'v mut Map<String, Value>, Wanted, Path)> {
        let source = block.get("source")?.as_object()?;
        let declared = source.get("format").and_then(Value::as_str).unwrap_or("").trim();
        let wanted = match block.get("type").and_then(Value::as_str)?.trim().to_ascii_lowercase().as_str() {
            "image" => Wanted {
                kind: "image",
                cap: MAX_IMAGE_BYTES,
                format: format::ImageFormat::parse(declared).map(|p| unparsed(p).as_str()),
                media: true,
            },
            "document" => Wanted {
                kind: "document",
                cap: MAX_DOCUMENT_BYTES,
                format: format::DocumentFormat::parse(declared).map(|p| unparsed(p).as_str()),
                media: false,
            },
            "video" => Wanted {
                kind: "video",
                cap: MAX_VIDEO_BASE64_CHARS / 4 * 3,
                format: format::VideoFormat::parse(declared).map(|p| unparsed(p).as_str()),
                media: true,
            },
            _ => return None,
        };
        let source = block.get_mut("source")?.as_object_mut()?;
        if !source.get("type").and_then(Value::as_str).is_some_and(|t| t.trim().eq_ignore_ascii_case("url")) {
            return None;
        }
        let url = reqwest::Url::parse(source.get("data")?.as_str()?.trim()).ok()?;
        self.allow.allows(&url).then_some((source, wanted, path.key("source").key("data")))
    }
}

/// Bytes every fetch of one request may still read.
#[derive(Debug)]
struct Budget {
    total: usize,
    left: AtomicUsize,
}

impl Budget {
    /// Takes `n` bytes; false when that is more than is left.
    fn take(&self, n: usize) -> bool {
        self.left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| left.checked_sub(n)).is_ok()
    }
}

/// A fetched file and the type its server declared.
#[derive(Debug)]
struct Fetched {
    bytes: Vec<u8>,
    mime: Option<String>,
}

/// Fetches `url`, reading at most `cap` bytes and no more than the shared budget.
async fn fetch(http: &reqwest::Client, url: &str, cap: u64, path: &Path, budget: &Budget) -> Result<Fetched, ApiError> {
    let failed =
        |why: String| ApiError::new(ErrorKind::UrlFetchFailed, format!("{path}: could not fetch {url}: {why}"));
    let over_budget = |actual: u64| {
        ApiError::invalid_one(
            Diagnostic::new(
                Code::TooLarge,
                path.clone(),
                format!(
                    "the URL sources of this request add up to more than {} bytes, what the request size limit \
                     leaves for them",
                    budget.total
                ),
            )
            .limit(budget.total as u64, actual),
        )
    };
    let mut response = http.get(url).send().await.map_err(|e| failed(without_url(&e)))?;
    let status = response.status();
    if status.is_redirection() {
        return Err(failed(format!("redirected ({status}) to a URL not on the --fetch-allow list")));
    }
    if !status.is_success() {
        return Err(failed(format!("the server answered {status}")));
    }
    if let Some(length) = response.content_length() {
        if length > cap {
            return Err(too_large(path, cap, length));
        }
        if length > budget.left.load(Ordering::Relaxed) as u64 {
            return Err(over_budget(length));
        }
    }
    let mime = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .map(|v| v.split(';').next().unwrap_or("").trim().to_ascii_lowercase());
    let mut bytes = Vec::new();
    while let Some(chunk) = response.chunk().await.map_err(|e| failed(without_url(&e)))? {
        if !budget.take(chunk.len()) {
            return Err(over_budget((bytes.len() + chunk.len()) as u64));
        }
        bytes.extend_from_slice(&chunk);
        if bytes.len() as u64 > cap {
            return Err(too_large(path, cap, bytes.len() as u64));
        }
    }
    if bytes.is_empty() {
        return Err(failed("the body is empty".into()));
    }
    Ok(Fetched { bytes, mime })
}

/// What a block's URL must deliver.
#[derive(Debug, Clone, Copy)]
struct Wanted {
    /// `image`, `document` or `video`.
    kind: &'static str,
    /// The provider's size limit for the block's kind.
    cap: u64,
    /// The declared format, canonical, when it is a known one.
    format: Option<&'static str>,
    /// An image or a video (which a text type never is).
    media: bool,
}

fn unparsed<F>(parsed: format::Parsed<F>) -> F {
    match parsed {
        format::Parsed::Exact(f) | format::Parsed::Normalized(f) => f,
    }
}

/// Bytes with a known signature are left to the validator, which compares it with the declared
/// format. Others are judged by the server's `Content-Type`: one that names other formats, or
/// text where an image or video was declared (a login or error page), is a `format_mismatch`.
fn check_type(wanted: &Wanted, mime: Option<&str>, bytes: &[u8], path: &Path) -> Result<(), ApiError> {
    let (Some(declared), Some(mime)) = (wanted.format, mime) else { return Ok(()) };
    if format::Signature::sniff(bytes).is_some() {
        return Ok(());
    }
    let named = format::formats_for_mime(mime);
    let wrong = if named.is_empty() { wanted.media && mime.starts_with("text/") } else { !named.contains(&declared) };
    if !wrong {
        return Ok(());
    }
    Err(ApiError::invalid_one(
        Diagnostic::new(
            Code::FormatMismatch,
            path.clone(),
            format!("the URL served {mime}, not the {declared} this block declares"),
        )
        .expected(vec![declared.to_string()])
        .received(mime),
    ))
}

/// Whether agents of `model_provider` need URL sources inlined: those whose provider does not
/// fetch web URLs itself (the core's `convert::takes_web_urls`).
pub fn needs_inlining(model_provider: &str) -> bool {
    matches!(
        crate::provider::Backend::parse(model_provider),
        Some(crate::provider::Backend::Core(provider)) if !agent_input::convert::takes_web_urls(provider)
    )
}

fn too_large(path: &Path, cap: u64, actual: u64) -> ApiError {
    ApiError::invalid_one(
        Diagnostic::new(
            Code::ProviderLimit,
            path.clone(),
            format!("the file at this URL has {actual} bytes or more; Bedrock takes at most {cap} for this block"),
        )
        .limit(cap, actual),
    )
}

/// reqwest's error text without the URL (the caller's message names it once).
fn without_url(error: &reqwest::Error) -> String {
    let mut text = error.to_string();
    if let Some(url) = error.url() {
        text = text.replace(&format!(" ({url})"), "");
    }
    if error.is_connect() { format!("cannot connect ({text})") } else { text }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}
