//! A real webhook receiver for the tests: a hyper server on 127.0.0.1 that records every
//! request and answers as the test says (given the request's number, from 0, and the
//! request). The sender's tests and the service's webhook tests share it.

use std::convert::Infallible;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response};
use hyper_util::rt::TokioIo;
use serde_json::Value;
use tokio::net::TcpListener;
use tokio::task::JoinSet;

/// What the receiver answers.
#[derive(Clone, Debug)]
pub enum Reply {
    /// This status, with these headers and a short body.
    Status(u16, Vec<(&'static str, String)>),
    /// Nothing, ever (the request is recorded).
    Hang,
}

/// One request the receiver got.
#[derive(Clone, Debug)]
pub struct Got {
    /// The method.
    pub method: String,
    /// The path.
    pub path: String,
    /// The headers.
    pub headers: hyper::HeaderMap,
    /// The body, as received.
    pub body: Vec<u8>,
}

impl Got {
    /// A header's value, or `""` without one.
    pub fn header(&self, name: &str) -> String {
        self.headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default()
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap()
    }
}

type Respond = Arc<dyn Fn(usize, &Got) -> Reply + Send + Sync>;

/// A receiver on 127.0.0.1; stops when dropped.
pub struct Receiver {
    /// Where it listens.
    pub addr: SocketAddr,
    got: Arc<Mutex<Vec<Got>>>,
    connections: Arc<AtomicUsize>,
    task: tokio::task::JoinHandle<()>,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        // Aborting the accept loop drops its JoinSet, which aborts every connection.
        self.task.abort();
    }
}

impl Receiver {
    /// A receiver that answers as `respond` says.
    pub async fn start(respond: impl Fn(usize, &Got) -> Reply + Send + Sync + 'static) -> Receiver {
        let respond: Respond = Arc::new(respond);
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let got = Arc::new(Mutex::new(Vec::new()));
        let connections = Arc::new(AtomicUsize::new(0));
        let count = Arc::new(AtomicUsize::new(0));
        let task = tokio::spawn({
            let (got, connections) = (Arc::clone(&got), Arc::clone(&connections));
            async move {
                let mut tasks = JoinSet::new();
                loop {
                    let Ok((stream, _)) = listener.accept().await else {
                        continue;
                    };
                    connections.fetch_add(1, Ordering::SeqCst);
                    let (got, respond, count) =
                        (Arc::clone(&got), Arc::clone(&respond), Arc::clone(&count));
                    let service = service_fn(move |request: Request<hyper::body::Incoming>| {
                        let (got, respond, count) =
                            (Arc::clone(&got), Arc::clone(&respond), Arc::clone(&count));
                        async move {
                            let (parts, body) = request.into_parts();
                            let body = body.collect().await.unwrap().to_bytes().to_vec();
                            let request = Got {
                                method: parts.method.to_string(),
                                path: parts.uri.path().to_owned(),
                                headers: parts.headers,
                                body,
                            };
                            let n = count.fetch_add(1, Ordering::SeqCst);
                            let reply = respond(n, &request);
                            got.lock().unwrap().push(request);
                            match reply {
                                Reply::Status(status, headers) => {
                                    let mut response = Response::builder().status(status);
                                    for (name, value) in headers {
                                        response = response.header(name, value);
                                    }
                                    Ok::<_, Infallible>(
                                        response
                                            .body(Full::new(Bytes::from_static(b"thanks")))
                                            .unwrap(),
                                    )
                                }
                                Reply::Hang => std::future::pending().await,
                            }
                        }
                    });
                    tasks.spawn(async move {
                        let _ = http1::Builder::new()
                            .serve_connection(TokioIo::new(stream), service)
                            .await;
                    });
                }
            }
        });
        Receiver {
            addr,
            got,
            connections,
            task,
        }
    }

    /// A receiver that gives every request the same answer.
    pub async fn answering(reply: Reply) -> Receiver {
        Receiver::start(move |_, _| reply.clone()).await
    }

    /// A receiver that takes everything (204).
    pub async fn ok() -> Receiver {
        Receiver::answering(Reply::Status(204, vec![])).await
    }

    /// Its URL (`http://127.0.0.1:<port>/hooks/crm`).
    pub fn url(&self) -> String {
        format!("http://{}/hooks/crm", self.addr)
    }

    /// What it got so far.
    pub fn got(&self) -> Vec<Got> {
        self.got.lock().unwrap().clone()
    }

    /// The connections it accepted so far.
    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }

    /// Waits until `n` requests arrived.
    pub async fn wait_for(&self, n: usize) -> Vec<Got> {
        eventually(&format!("{n} requests at the receiver"), || async {
            let got = self.got();
            (got.len() >= n).then_some(got)
        })
        .await
    }
}

/// Polls `check` until it gives a value (at most 60 s, then the test fails).
pub async fn eventually<T, F, Fut>(what: &str, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    for _ in 0..600 {
        if let Some(found) = check().await {
            return found;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("never saw {what}");
}
