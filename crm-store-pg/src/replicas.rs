//! Reads from streaming replicas, with read-your-writes (API.md §16, `--replica-url`).
//!
//! The store's single-statement reads ([`crate::Store`]'s shared readers) go to a replica
//! when one may answer them ([`crm_core::replica::may_serve`]): reachable when last
//! checked, at most `--replica-max-lag` behind, and past the position of the reader's last
//! write. Transactions and writes always use the primary's pool.
//!
//! What a request must see is its session: the service runs each keyed request inside
//! [`in_session`] with the key's last write position ([`Needed`]), kept where every
//! instance reads it (crm-http). A request that writes turns to the primary for the rest of
//! its reads, and [`in_session`] tells the caller that it wrote, so that the key's new
//! position can be read ([`crate::Store::primary_position`]) and kept before the answer
//! leaves.
//!
//! A watcher task samples the primary's position and each replica's replayed position
//! every [`WATCH_EVERY`] (each check bounded by [`CHECK_WITHIN`]); a replica's lag is
//! measured against those samples ([`crm_core::replica::lag_seconds`]).

use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crm_core::replica::{Lsn, Sample, lag_seconds, may_serve, prune};
use deadpool_postgres::ClientWrapper;

use crate::db::Db;
use crate::error::StoreError;
use crate::pool::Readers;
use crate::pool::StoreConfig;

/// How often the watcher samples the primary and the replicas.
pub const WATCH_EVERY: Duration = Duration::from_millis(250);

/// The time one check of a replica (or of the primary's position) may take; a replica that
/// does not answer within it counts as unreachable until it does.
pub const CHECK_WITHIN: Duration = Duration::from_secs(1);

/// What the reads of a request must see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needed {
    /// Nothing in particular: any replica that does not lag too much may answer.
    Anything,
    /// The write that ended at this position (the key's last write).
    After(Lsn),
    /// Only the primary may answer (the key's last write is not known for sure).
    Primary,
}

/// One request's reading state.
#[derive(Debug)]
struct Session {
    needed: Needed,
    wrote: AtomicBool,
}

tokio::task_local! {
    static SESSION: Arc<Session>;
}

/// Runs `work` as one request whose reads must see `needed`; returns its output and
/// whether it used the primary's pool (it wrote, or may have).
pub async fn in_session<F: Future>(needed: Needed, work: F) -> (F::Output, bool) {
    let session = Arc::new(Session {
        needed,
        wrote: AtomicBool::new(false),
    });
    let output = SESSION.scope(Arc::clone(&session), work).await;
    (output, session.wrote.load(Ordering::Acquire))
}

/// What the current task's reads must see: its session's need, the primary once it
/// wrote; outside a session (the service's own upkeep), anything.
fn needed_now() -> Needed {
    SESSION
        .try_with(|s| {
            if s.wrote.load(Ordering::Acquire) {
                Needed::Primary
            } else {
                s.needed
            }
        })
        .unwrap_or(Needed::Anything)
}

/// Notes that the current task's request uses the primary's pool.
pub(crate) fn note_write() {
    let _ = SESSION.try_with(|s| s.wrote.store(true, Ordering::Release));
}

/// A replica's standing and counts, for `/metrics`.
#[derive(Debug, Clone, PartialEq)]
pub struct ReplicaStatus {
    /// `host:port` of the replica (never its user or password).
    pub name: String,
    /// Seconds behind the primary, when known (reachable and sampled).
    pub lag_seconds: Option<f64>,
    /// Whether it answered its last check.
    pub reachable: bool,
    /// Reads it served since the start.
    pub reads: u64,
}

#[derive(Debug, Default)]
struct Standing {
    replayed: Option<Lsn>,
    lag: Option<f64>,
}

#[derive(Debug)]
struct Replica {
    name: String,
    readers: Readers,
    standing: Mutex<Standing>,
    reads: AtomicU64,
    /// Whether it was a replica at its last check (a primary named by mistake is not).
    said_not_replica: AtomicBool,
}

/// The replicas of a store.
#[derive(Debug)]
pub(crate) struct Replicas {
    replicas: Vec<Replica>,
    max_lag: f64,
    samples: Mutex<Vec<Sample>>,
    epoch: Instant,
    next: AtomicUsize,
    primary_reads: AtomicU64,
}

/// `host:port` of a configuration's first host.
fn name_of(config: &tokio_postgres::Config) -> String {
    use tokio_postgres::config::Host;
    let port = config.get_ports().first().copied().unwrap_or(5432);
    match config.get_hosts().first() {
        Some(Host::Tcp(host)) if host.contains(':') => format!("[{host}]:{port}"),
        Some(Host::Tcp(host)) => format!("{host}:{port}"),
        Some(Host::Unix(folder)) => format!("{}:{port}", folder.display()),
        None => format!("localhost:{port}"),
    }
}

impl Replicas {
    /// The replicas `config` names (`None` when it names none).
    pub(crate) fn new(config: &StoreConfig) -> Result<Option<Replicas>, StoreError> {
        if config.replica_urls.is_empty() {
            return Ok(None);
        }
        let replicas = config
            .replica_urls
            .iter()
            .map(|url| {
                let mut pg = config.pg_config_of(url)?;
                pg.application_name("crm-replica-read");
                Ok(Replica {
                    name: name_of(&pg),
                    readers: Readers::new(pg, config.readers),
                    standing: Mutex::new(Standing::default()),
                    reads: AtomicU64::new(0),
                    said_not_replica: AtomicBool::new(false),
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        Ok(Some(Replicas {
            replicas,
            max_lag: config.replica_max_lag.as_secs_f64(),
            samples: Mutex::new(Vec::new()),
            epoch: Instant::now(),
            next: AtomicUsize::new(0),
            primary_reads: AtomicU64::new(0),
        }))
    }

    /// A read connection to a replica that may answer the current task's reads, or `None`
    /// (the primary answers: the caller counts it with [`Replicas::count_primary`]).
    pub(crate) async fn reader(&self) -> Option<Arc<ClientWrapper>> {
        let needed = match needed_now() {
            Needed::Primary => return None,
            Needed::Anything => None,
            Needed::After(lsn) => Some(lsn),
        };
        let start = self.next.fetch_add(1, Ordering::Relaxed);
        for i in 0..self.replicas.len() {
            let replica = &self.replicas[(start + i) % self.replicas.len()];
            let usable = {
                let s = replica
                    .standing
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner);
                may_serve(s.replayed, s.lag, self.max_lag, needed)
            };
            if !usable {
                continue;
            }
            match replica.readers.get().await {
                Ok(client) => {
                    replica.reads.fetch_add(1, Ordering::Relaxed);
                    return Some(client);
                }
                Err(_) => replica.mark_unreachable(),
            }
        }
        None
    }

    /// Counts a read the primary answered.
    pub(crate) fn count_primary(&self) {
        self.primary_reads.fetch_add(1, Ordering::Relaxed);
    }

    /// Reads the primary answered since the start.
    pub(crate) fn primary_reads(&self) -> u64 {
        self.primary_reads.load(Ordering::Relaxed)
    }

    /// Each replica's standing.
    pub(crate) fn status(&self) -> Vec<ReplicaStatus> {
        self.replicas
            .iter()
            .map(|r| {
                let s = r.standing.lock().unwrap_or_else(PoisonError::into_inner);
                ReplicaStatus {
                    name: r.name.clone(),
                    lag_seconds: s.lag,
                    reachable: s.replayed.is_some(),
                    reads: r.reads.load(Ordering::Relaxed),
                }
            })
            .collect()
    }

    fn now(&self) -> f64 {
        self.epoch.elapsed().as_secs_f64()
    }

    /// One round of the watcher: the primary's position (through `primary`), then each
    /// replica's.
    pub(crate) async fn check(&self, primary: &Readers) {
        let written = tokio::time::timeout(CHECK_WITHIN, position(primary, PRIMARY_SQL)).await;
        if let Ok(Ok(Some(lsn))) = written {
            let now = self.now();
            let mut samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner);
            samples.push(Sample { at: now, lsn });
            // Twice the largest lag that matters is enough to tell a usable replica.
            prune(&mut samples, now, (2.0 * self.max_lag).max(10.0));
        }
        for replica in &self.replicas {
            let replayed =
                tokio::time::timeout(CHECK_WITHIN, position(&replica.readers, REPLICA_SQL)).await;
            match replayed {
                Ok(Ok(Some(lsn))) => {
                    let now = self.now();
                    let lag = {
                        let samples = self.samples.lock().unwrap_or_else(PoisonError::into_inner);
                        lag_seconds(&samples, lsn, now)
                    };
                    *replica
                        .standing
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner) = Standing {
                        replayed: Some(lsn),
                        lag,
                    };
                }
                Ok(Ok(None)) => {
                    if !replica.said_not_replica.swap(true, Ordering::Relaxed) {
                        tracing::warn!(replica = %replica.name, "a --replica-url is not a replica (it replays no log); it is skipped");
                    }
                    replica.mark_unreachable();
                }
                Ok(Err(_)) | Err(_) => replica.mark_unreachable(),
            }
        }
    }
}

impl Replica {
    fn mark_unreachable(&self) {
        *self.standing.lock().unwrap_or_else(PoisonError::into_inner) = Standing::default();
    }
}

/// The primary's position: what it has written.
pub(crate) const PRIMARY_SQL: &str = "SELECT pg_current_wal_lsn()::text AS lsn";

/// A replica's position: what it has replayed (NULL on a server that is not a replica).
const REPLICA_SQL: &str = "SELECT pg_last_wal_replay_lsn()::text AS lsn";

/// The position `sql` reads over one of `readers`.
pub(crate) async fn position(readers: &Readers, sql: &str) -> Result<Option<Lsn>, StoreError> {
    let reader = readers.get().await?;
    let row = reader.row(sql, &[]).await?;
    let text: Option<String> = row.try_get("lsn")?;
    text.map(|t| {
        t.parse::<Lsn>()
            .map_err(|e| StoreError::Internal(e.to_string()))
    })
    .transpose()
}
