//! The accept loop: HTTP/1.1 with keep-alive, TCP_NODELAY, a header read timeout, a write
//! timeout and CRLF-only request heads ([`crate::wire`]), a header size limit that also caps each connection's read buffer, a connection limit,
//! a cap per client address (trusted proxies excepted), accept errors backed off, and a graceful shutdown that stops accepting, lets in-flight
//! requests finish (bounded), and returns.

use std::convert::Infallible;
use std::future::Future;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::Request;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use crate::app::App;
use crate::limits::{AddressSlots, PeerAddr};
use crate::wire::Wire;

/// Server timeouts and connection bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServeOptions {
    /// Time a client has to send a request's headers; it runs from the moment the
    /// connection waits for a request, so it also closes idle keep-alive connections.
    pub header_read_timeout: Duration,
    /// Time a write to the client may wait without progress (a client that stops reading);
    /// past it the connection is closed ([`crate::wire`]).
    pub write_timeout: Duration,
    /// Time in-flight requests get to finish after shutdown starts.
    pub shutdown_grace: Duration,
    /// Connections served at once; one more is answered 503 and closed at once.
    pub max_connections: usize,
    /// Connections one client address (an IPv6 address by its /64) may hold at once; one
    /// more is answered as one over `max_connections` is. A trusted proxy's connections
    /// (`--trusted-proxy`) are not capped: it speaks for many clients.
    pub max_connections_per_address: usize,
    /// Largest request head (request line and headers); a larger one is a 431 and the
    /// connection is closed. It is also each connection's read buffer cap, so a connection
    /// holds at most this much of what the client sent beyond the current body.
    pub max_header_bytes: usize,
}

/// The default header limit, as common proxies use (32 KiB).
pub const MAX_HEADER_BYTES: usize = 32 * 1024;

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            header_read_timeout: Duration::from_secs(10),
            write_timeout: Duration::from_secs(30),
            shutdown_grace: Duration::from_secs(15),
            max_connections: 10_000,
            max_connections_per_address: crate::limits::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS,
            max_header_bytes: MAX_HEADER_BYTES,
        }
    }
}

/// What a connection over the limit gets before it is closed: a complete answer, so a
/// client knows to retry rather than seeing a reset.
const TOO_MANY_CONNECTIONS: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
content-type: application/json; charset=utf-8\r\nretry-after: 1\r\nconnection: close\r\n\
content-length: 40\r\n\r\n{\"message\":\"Too many open connections.\"}";

/// Accept errors (out of file descriptors, mostly) are retried after a pause that doubles
/// from 5 ms to 1 s while they last, and logged at most once every 10 s with a count, so a
/// descriptor shortage neither spins a core nor floods the log.
#[derive(Debug)]
struct AcceptBackoff {
    pause: Duration,
    failures: u64,
    logged: Option<Instant>,
}

impl AcceptBackoff {
    const FIRST: Duration = Duration::from_millis(5);
    const LONGEST: Duration = Duration::from_secs(1);
    const LOG_EVERY: Duration = Duration::from_secs(10);

    fn new() -> Self {
        AcceptBackoff {
            pause: Self::FIRST,
            failures: 0,
            logged: None,
        }
    }

    /// Records a failure and returns how long to pause.
    fn failed(&mut self, error: &std::io::Error) -> Duration {
        self.failures += 1;
        if self.logged.is_none_or(|at| at.elapsed() >= Self::LOG_EVERY) {
            tracing::warn!(error = %error, failures = self.failures, "accept failed; backing off");
            self.logged = Some(Instant::now());
            self.failures = 0;
        }
        let pause = self.pause;
        self.pause = (self.pause * 2).min(Self::LONGEST);
        pause
    }

    fn succeeded(&mut self) {
        self.pause = Self::FIRST;
    }
}

/// Answers a connection over the limit without reading it, and closes it. `try_write`:
/// a fresh socket's send buffer is empty, and the accept loop must never wait on a client.
fn refuse(stream: TcpStream) {
    let _ = stream.try_write(TOO_MANY_CONNECTIONS);
    drop(stream);
}

/// hyper's smallest read buffer cap.
const MIN_BUFFER: usize = 8 * 1024;

/// Serves `app` on `listener` until `shutdown` completes, then drains.
pub async fn serve(
    listener: TcpListener,
    app: Arc<App>,
    options: ServeOptions,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let graceful = GracefulShutdown::new();
    let mut builder = http1::Builder::new();
    let header_bytes = options.max_header_bytes.max(MIN_BUFFER);
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(options.header_read_timeout)
        .max_header_size(header_bytes)
        .max_buf_size(header_bytes)
        .keep_alive(true);
    let permits = options.max_connections.clamp(1, Semaphore::MAX_PERMITS);
    let mut refused_logged: Option<Instant> = None;
    let refused = || {
        if refused_logged.is_none_or(|at| at.elapsed() >= AcceptBackoff::LOG_EVERY) {
            tracing::warn!(
                max_connections = options.max_connections,
                "connection limit reached; refusing new connections"
            );
            refused_logged = Some(Instant::now());
        }
    };
    let per_address = AddressSlots::new(options.max_connections_per_address);
    let mut address_refused_logged: Option<Instant> = None;
    let accepted = |stream: TcpStream, permit: OwnedSemaphorePermit| {
        let peer = stream.peer_addr().ok().map(|a| PeerAddr(a.ip()));
        // The address's place, unless it is a trusted proxy's; none left: refused as one
        // over the connection limit is, before any task or buffer is made for it.
        let slot = match peer {
            Some(PeerAddr(ip)) if !app.trusts_proxy(ip) => match per_address.enter(ip) {
                Some(slot) => Some(slot),
                None => {
                    refuse(stream);
                    drop(permit);
                    if address_refused_logged
                        .is_none_or(|at| at.elapsed() >= AcceptBackoff::LOG_EVERY)
                    {
                        tracing::warn!(
                            max_connections_per_address = options.max_connections_per_address,
                            "connection limit per address reached; refusing that address's \
                             new connections"
                        );
                        address_refused_logged = Some(Instant::now());
                    }
                    return;
                }
            },
            _ => None,
        };
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(error = %e, "cannot set TCP_NODELAY");
        }
        let app = Arc::clone(&app);
        let service = service_fn(move |mut request: Request<Incoming>| {
            let app = Arc::clone(&app);
            if let Some(peer) = peer {
                request.extensions_mut().insert(peer);
            }
            async move { Ok::<_, Infallible>(app.handle(request).await) }
        });
        let stream = TokioIo::new(Wire::new(stream, options.write_timeout));
        let connection = graceful.watch(builder.serve_connection(stream, service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "connection ended with an error");
            }
            drop(slot);
            drop(permit);
        });
    };
    accept_until(&listener, permits, shutdown, refused, accepted).await;
    drop(listener);
    tracing::info!("shutting down: draining in-flight requests");
    tokio::select! {
        () = graceful.shutdown() => tracing::info!("all connections closed"),
        () = tokio::time::sleep(options.shutdown_grace) => tracing::warn!("shutdown grace period elapsed; closing remaining connections"),
    }
    Ok(())
}

/// Connections the metrics listener serves at once (a scraper needs one or two).
const METRICS_CONNECTIONS: usize = 16;

/// Serves `GET /metrics` of `app` on `listener` (`--metrics-listen`) until `shutdown`
/// completes. Nothing else is answered there (404), so the address can be opened to a
/// scraper without opening the API. Its bounds are tighter than the API's: 8 KiB heads, 16
/// connections (more are refused like the API's), the same accept back-off.
pub async fn serve_metrics(
    listener: TcpListener,
    app: Arc<App>,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(ServeOptions::default().header_read_timeout)
        .max_header_size(MIN_BUFFER)
        .max_buf_size(MIN_BUFFER);
    let accepted = |stream: TcpStream, permit: OwnedSemaphorePermit| {
        let app = Arc::clone(&app);
        let service = service_fn(move |request| {
            let app = Arc::clone(&app);
            async move { Ok::<_, Infallible>(app.handle_metrics(request).await) }
        });
        let stream = TokioIo::new(Wire::new(stream, ServeOptions::default().write_timeout));
        let connection = builder.serve_connection(stream, service);
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::debug!(error = %e, "metrics connection ended with an error");
            }
            drop(permit);
        });
    };
    accept_until(&listener, METRICS_CONNECTIONS, shutdown, || {}, accepted).await;
    Ok(())
}

/// The accept loop of both listeners, until `shutdown` completes: each connection takes one
/// of `permits` places (held until `accepted`'s work drops it); one over the limit is
/// refused at once ([`refuse`], then `refused` is told); accept errors (out of
/// descriptors) back off ([`AcceptBackoff`]) instead of spinning.
async fn accept_until(
    listener: &TcpListener,
    permits: usize,
    shutdown: impl Future<Output = ()>,
    mut refused: impl FnMut(),
    mut accepted: impl FnMut(TcpStream, OwnedSemaphorePermit),
) {
    let connections = Arc::new(Semaphore::new(permits));
    let mut backoff = AcceptBackoff::new();
    tokio::pin!(shutdown);
    loop {
        tokio::select! {
            next = listener.accept() => {
                let stream = match next {
                    Ok((stream, _)) => stream,
                    Err(e) => {
                        let pause = backoff.failed(&e);
                        tokio::select! {
                            () = tokio::time::sleep(pause) => continue,
                            () = &mut shutdown => return,
                        }
                    }
                };
                backoff.succeeded();
                match Arc::clone(&connections).try_acquire_owned() {
                    Ok(permit) => accepted(stream, permit),
                    Err(_) => {
                        refuse(stream);
                        refused();
                    }
                }
            }
            () = &mut shutdown => return,
        }
    }
}

/// Completes on SIGINT or SIGTERM.
pub async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = interrupt => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = interrupt.await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_refusal_is_a_complete_answer() {
        let text = std::str::from_utf8(TOO_MANY_CONNECTIONS).unwrap();
        let (head, body) = text.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}", body.len())));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(json["message"], "Too many open connections.");
    }

    #[test]
    fn accept_failures_back_off_to_a_second() {
        let mut backoff = AcceptBackoff::new();
        let error = std::io::Error::other("too many open files");
        let pauses: Vec<Duration> = (0..12).map(|_| backoff.failed(&error)).collect();
        assert_eq!(pauses[0], Duration::from_millis(5));
        assert_eq!(pauses[1], Duration::from_millis(10));
        assert_eq!(pauses[11], Duration::from_secs(1));
        backoff.succeeded();
        assert_eq!(backoff.failed(&error), Duration::from_millis(5));
    }
}
