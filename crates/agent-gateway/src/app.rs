//! The HTTP application: routes and the layers around them (auth, CORS, limits, logging,
//! panics). The top of the crate: it imports the handlers ([`crate::api`]); nothing imports it.

use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, Method, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::cors::{AllowOrigin, CorsLayer};
use tower_http::services::{ServeDir, ServeFile};

use crate::api;
use crate::config::{ApiAuth, Config};
use crate::error::{ApiError, ErrorKind};
use crate::state::AppState;

/// The router: the API under `/_plugins/_ml`, the playground (or a short page) at `/`.
pub fn router(state: AppState) -> Router {
    let config = Arc::clone(&state.config);
    let api = Router::new()
        .route("/_plugins/_ml/agents/_register", post(api::register))
        .route("/_plugins/_ml/agents/{agent_id}", get(api::get_agent).delete(api::delete_agent))
        .route("/_plugins/_ml/agents/{agent_id}/_execute", post(api::execute))
        .route("/_plugins/_ml/agents/{agent_id}/_execute/stream", post(api::execute_stream))
        .route("/_plugins/_ml/memory/{memory_id}/messages", get(api::memory_messages))
        .route("/_plugins/{*rest}", axum::routing::any(api::unknown))
        .method_not_allowed_fallback(api::method_not_allowed)
        .route_layer(middleware::from_fn(json_only))
        .route_layer(middleware::from_fn_with_state(Arc::clone(&config), authenticate))
        .with_state(state);
    let mut app = match &config.site {
        Some(site) => {
            let index = site.join("index.html");
            let files = ServeDir::new(site).append_index_html_on_directories(true).fallback(ServeFile::new(index));
            if matches!(config.auth, ApiAuth::Basic { .. }) {
                // A browser asks for basic credentials on the page and then sends them with every
                // API call, so the playground can be protected too. A bearer token cannot be
                // attached to a page load: then the files (which hold no data) stay open.
                let protected = Router::new()
                    .fallback_service(files)
                    .layer(middleware::from_fn_with_state(Arc::clone(&config), authenticate));
                api.fallback_service(protected)
            } else {
                api.fallback_service(files)
            }
        }
        None => api.route("/", get(no_site)).fallback(api::unknown),
    };
    app = app
        .layer(middleware::from_fn_with_state(Arc::clone(&config), time_limit))
        .layer(CatchPanicLayer::custom(panicked))
        .layer(middleware::from_fn_with_state(Arc::clone(&config), browser_guard))
        .layer(middleware::from_fn(frame_guard));
    if let Some(cors) = cors(&config.cors_origins) {
        app = app.layer(cors);
    }
    if config.log_requests {
        app = app.layer(middleware::from_fn(log));
    }
    app
}

fn cors(origins: &[String]) -> Option<CorsLayer> {
    if origins.is_empty() {
        return None;
    }
    let allow = if origins.iter().any(|o| o == "*") {
        AllowOrigin::any()
    } else {
        AllowOrigin::list(origins.iter().filter_map(|o| HeaderValue::from_str(o.trim_end_matches('/')).ok()))
    };
    Some(
        CorsLayer::new()
            .allow_origin(allow)
            .allow_methods([Method::GET, Method::POST, Method::DELETE, Method::OPTIONS])
            .allow_headers([header::CONTENT_TYPE, header::AUTHORIZATION]),
    )
}

async fn no_site() -> Html<&'static str> {
    Html(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>agent-gateway</title>\
         <link rel=\"icon\" href=\"data:,\"></head><body><h1>agent-gateway</h1><p>No playground is served: \
         start the gateway with <code>--site DIR</code>. The API is at <code>/_plugins/_ml/agents</code>; \
         try <code>POST /_plugins/_ml/agents/echo/_execute</code> with <code>{\"input\": \"Hello\"}</code>.</p>\
         </body></html>",
    )
}

/// Basic or bearer protection of the API (and of the playground's files under basic auth).
async fn authenticate(State(config): State<Arc<Config>>, request: Request, next: Next) -> Response {
    let given = request.headers().get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).unwrap_or_default();
    // RFC 7235: the scheme is case-insensitive.
    let (scheme, credentials) = given.split_once(' ').unwrap_or((given, ""));
    let allowed = match &config.auth {
        ApiAuth::None => true,
        ApiAuth::Bearer(token) => scheme.eq_ignore_ascii_case("bearer") && same(credentials.trim(), token),
        ApiAuth::Basic { user, password } => {
            scheme.eq_ignore_ascii_case("basic")
                && same(credentials.trim(), &agent_input::base64::encode(format!("{user}:{password}").as_bytes()))
        }
    };
    if allowed {
        return next.run(request).await;
    }
    let mut response =
        ApiError::new(ErrorKind::Security, "missing or wrong credentials for the gateway's API").into_response();
    let challenge = match config.auth {
        ApiAuth::Basic { .. } => "Basic realm=\"agent-gateway\"",
        _ => "Bearer",
    };
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(challenge));
    response
}

/// What keeps web pages from reading the gateway: the `Host` must be the gateway's own (a
/// DNS-rebinding page sends its own name), and an `Origin` must be the gateway's or on the CORS
/// list. [`json_only`] keeps them from writing to it.
async fn browser_guard(State(config): State<Arc<Config>>, request: Request, next: Next) -> Response {
    let headers = request.headers();
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok()).unwrap_or_default();
    if !host_allowed(&config, host) {
        return ApiError::new(
            ErrorKind::HostNotAllowed,
            format!(
                "the Host header {host:?} is not this gateway's; start it with --allowed-host NAME to accept \
                 another name"
            ),
        )
        .into_response();
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or_default().trim_end_matches('/');
        let same = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://")) == Some(host);
        let listed = config.cors_origins.iter().any(|o| o == "*" || o.trim_end_matches('/') == origin);
        if !same && !listed {
            return ApiError::new(
                ErrorKind::OriginNotAllowed,
                format!("requests from the page at {origin:?} are refused; allow it with --cors-origin {origin}"),
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// A POST must declare a JSON body: an HTML form or a `text/plain` fetch cannot, without a
/// preflight that CORS then refuses.
async fn json_only(request: Request, next: Next) -> Response {
    if request.method() == Method::POST {
        let headers = request.headers();
        let content_type = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        let media = content_type.split(';').next().unwrap_or_default().trim();
        if !media.eq_ignore_ascii_case("application/json") {
            return ApiError::new(
                ErrorKind::UnsupportedMediaType,
                format!(
                    "the body must be sent with Content-Type: application/json (got {:?})",
                    if content_type.is_empty() { "none" } else { content_type }
                ),
            )
            .into_response();
        }
    }
    next.run(request).await
}

/// Whether `host` (a `Host` header: name or address, optional port) names this gateway: a
/// loopback address, `localhost` or a `*.localhost` name, the address it listens on, or an
/// `--allowed-host` entry.
fn host_allowed(config: &Config, host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(v6) => v6.split(']').next().unwrap_or_default(),
        None => host
            .rsplit_once(':')
            .map_or(host, |(name, port)| if port.bytes().all(|b| b.is_ascii_digit()) { name } else { host }),
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name.is_empty() {
        return false;
    }
    if name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    if let Ok(ip) = name.parse::<std::net::IpAddr>()
        && (ip.is_loopback() || (ip == config.listen.ip() && !ip.is_unspecified()))
    {
        return true;
    }
    config.allowed_hosts.iter().any(|allowed| allowed == "*" || *allowed == name)
}

/// No page may frame the gateway's (Execute could be clickjacked).
async fn frame_guard(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static("frame-ancestors 'none'"));
    response
}

/// Compares secrets in time independent of where they differ.
fn same(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0_u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// The time limit of one request, provider call included.
async fn time_limit(State(config): State<Arc<Config>>, request: Request, next: Next) -> Response {
    match tokio::time::timeout(config.request_timeout, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::new(
            ErrorKind::RequestTimeout,
            format!("the request took longer than {} s", config.request_timeout.as_secs()),
        )
        .into_response(),
    }
}

#[allow(clippy::needless_pass_by_value)] // the signature CatchPanicLayer requires
fn panicked(_: Box<dyn std::any::Any + Send + 'static>) -> Response {
    ApiError::internal("the gateway failed while handling this request (a bug; please report it)").into_response()
}

/// One line per request on standard error: method, path, status, milliseconds. Never bodies or
/// headers, so credentials cannot leak here.
async fn log(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = request.uri().path().to_string();
    let response = next.run(request).await;
    eprintln!("{method} {path} {} {} ms", response.status().as_u16(), started.elapsed().as_millis());
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::new_id;

    #[test]
    fn ids_are_random_and_url_safe() {
        let (a, b) = (new_id(), new_id());
        assert_ne!(a, b);
        assert_eq!(a.len(), 20);
        assert!(a.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_'));
        assert!(same("abc", "abc") && !same("abc", "abd") && !same("abc", "ab"));
    }

    #[test]
    fn hosts_are_the_gateways_own() {
        let config = Config { allowed_hosts: vec!["gw.example.com".into()], ..Config::default() };
        for ok in ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "app.localhost:1", "[::1]:8080", "gw.example.com"] {
            assert!(host_allowed(&config, ok), "{ok}");
        }
        for bad in ["", "evil.example:8080", "10.0.0.1:8080", "localhost.evil.com", "gw.example.com.evil"] {
            assert!(!host_allowed(&config, bad), "{bad}");
        }
    }
}
