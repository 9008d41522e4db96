//! One HTTP/1 connection: hyper with a timer (header-read timeout), an idle watchdog, and a
//! graceful end when the server stops.

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::sync::{OwnedSemaphorePermit, watch};
use tower::ServiceExt as _;

use crate::config::Config;

/// What the idle watchdog watches: requests running, and when a byte last moved.
#[derive(Debug)]
struct Activity {
    started: Instant,
    /// Milliseconds since `started` of the last read or write.
    last_ms: AtomicU64,
    /// Requests being answered.
    running: AtomicUsize,
}

impl Activity {
    fn touch(&self) {
        let ms = u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(ms, Ordering::Relaxed);
    }

    fn idle_for(&self) -> Duration {
        let last = Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
        self.started.elapsed().saturating_sub(last)
    }
}

/// Counts a request as running until dropped (also when its future is cancelled).
struct Running(Arc<Activity>);

impl Running {
    fn new(activity: &Arc<Activity>) -> Self {
        activity.running.fetch_add(1, Ordering::Relaxed);
        Self(Arc::clone(activity))
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        self.0.touch();
        self.0.running.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The socket, noting every byte that moves.
struct Watched {
    stream: TcpStream,
    activity: Arc<Activity>,
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.stream).poll_write_vectored(cx, data);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.activity.touch();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }
}

/// An accepted connection, ready to serve.
pub(crate) struct Connection {
    stream: TcpStream,
    router: Router,
    header_timeout: Duration,
    idle_timeout: Duration,
}

impl Connection {
    pub(crate) fn new(stream: TcpStream, router: Router, config: &Config) -> Self {
        Self { stream, router, header_timeout: config.header_timeout, idle_timeout: config.idle_timeout }
    }

    /// Serves until the client leaves, a timeout closes it, or the server stops (then the
    /// running request finishes first). `slot` is the connection's place under the cap.
    pub(crate) async fn run(self, mut stopping: watch::Receiver<bool>, slot: OwnedSemaphorePermit) {
        let activity =
            Arc::new(Activity { started: Instant::now(), last_ms: AtomicU64::new(0), running: AtomicUsize::new(0) });
        let io = TokioIo::new(Watched { stream: self.stream, activity: Arc::clone(&activity) });
        let router = self.router;
        let counted = Arc::clone(&activity);
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let running = Running::new(&counted);
            let answer = router.clone().oneshot(request.map(Body::new));
            async move {
                let response = answer.await;
                drop(running);
                response
            }
        });
        let mut builder = hyper::server::conn::http1::Builder::new();
        builder.timer(TokioTimer::new()).header_read_timeout(self.header_timeout);
        let connection = builder.serve_connection(io, service);
        let mut connection = std::pin::pin!(connection);
        let idle = self.idle_timeout;
        let mut stopped = *stopping.borrow();
        if stopped {
            connection.as_mut().graceful_shutdown();
        }
        loop {
            let check = idle.saturating_sub(activity.idle_for()).max(Duration::from_millis(100));
            tokio::select! {
                _ = connection.as_mut() => break,
                changed = stopping.changed(), if !stopped => {
                    stopped = changed.is_err() || *stopping.borrow();
                    if stopped {
                        connection.as_mut().graceful_shutdown();
                    }
                }
                () = tokio::time::sleep(check) => {
                    if activity.running.load(Ordering::Relaxed) == 0 && activity.idle_for() >= idle {
                        break; // dropping the connection closes the socket
                    }
                }
            }
        }
        drop(slot);
    }
}
