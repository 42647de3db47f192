//! The delivery worker (API.md §10): runs inside `crm serve`, or alone as `crm deliver`.
//!
//! It claims due rows ([`crm_store_pg::outbox::Outbox::claim`]: leased, nothing locked) on
//! connections of its own and sends up to [`WorkerOptions::concurrency`] at once with the
//! [`Mailer`] (whose SMTP transport keeps a pool of connections), then records each outcome:
//! `sent`; a temporary failure (no connection, timeout, 4xx) → retried with exponential
//! backoff and jitter ([`crm_core::mail::retry_after`]) for up to a day, then `failed`; a
//! permanent one (5xx) → `failed`. Every outcome counts one attempt and keeps the last
//! error.
//!
//! It wakes on the queuing transaction's `NOTIFY`, when a send ends, when the next retry is
//! due (also while other sends are in flight: a retry goes at its time, not when a slow
//! send elsewhere ends), and at least every [`WorkerOptions::poll`] (the fallback when
//! notifications are lost).
//!
//! Shutdown: once asked to stop, it claims nothing more; sends in progress finish (each is
//! bounded by [`WorkerOptions::send_timeout`]) and their outcomes are recorded. Everything
//! else stays pending for the next run. A crash between the server's acceptance and the
//! outcome's record sends the row again, once its lease has passed, with the same
//! Message-ID: delivery is at least once.

use std::sync::Arc;
use std::time::Duration;

use std::future::Future;

use chrono::{DateTime, Utc};
use crm_core::mail::{Outcome, Retry, retry_after};
use crm_store_pg::outbox::{Outbox, OutboxMessage, listen};
use crm_store_pg::{StoreConfig, StoreError};
use tokio::sync::{Notify, watch};
use tokio::task::JoinSet;

pub mod webhooks;

use crate::metrics::Deliveries;
use crate::ops::mail::{DEFAULT_CONCURRENCY, Mailer};

/// Worker settings.
#[derive(Debug, Clone, Copy)]
pub struct WorkerOptions {
    /// Longest sleep without a notification.
    pub poll: Duration,
    /// Longest time one send may take (then it is a temporary failure).
    pub send_timeout: Duration,
    /// Send what is due when called, each row once, then return (`crm deliver --once`).
    pub once: bool,
    /// Messages sent at once (at least 1).
    pub concurrency: usize,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            poll: Duration::from_secs(5),
            send_timeout: Duration::from_secs(60),
            once: false,
            concurrency: DEFAULT_CONCURRENCY,
        }
    }
}

impl WorkerOptions {
    /// How long a claimed row stays taken: the send timeout and as long again for the
    /// outcome's write, so that a live worker's row is never claimed twice.
    pub fn lease(&self) -> Duration {
        self.send_timeout * 2 + Duration::from_secs(5)
    }
}

/// What a worker did, one count per attempt (with `once`, per row).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Delivered {
    /// Rows sent.
    pub sent: u64,
    /// Rows left for a retry.
    pub retried: u64,
    /// Rows marked failed.
    pub failed: u64,
}

/// A number in `[0, 1)` for the backoff's jitter.
pub(crate) fn jitter() -> f64 {
    let mut bytes = [0u8; 4];
    match getrandom::fill(&mut bytes) {
        Ok(()) => f64::from(u32::from_le_bytes(bytes)) / (f64::from(u32::MAX) + 1.0),
        Err(_) => 0.5,
    }
}

/// A stop signal shared by the server and the worker.
pub fn stop_channel() -> (watch::Sender<bool>, watch::Receiver<bool>) {
    watch::channel(false)
}

async fn stopped(stop: &mut watch::Receiver<bool>) {
    // A dropped sender counts as a stop.
    let _ = stop.wait_for(|s| *s).await;
}

/// Runs the worker until `stop` turns true (or, with `once`, until nothing is due).
pub async fn run(
    config: &StoreConfig,
    mailer: &Mailer,
    options: WorkerOptions,
    stop: watch::Receiver<bool>,
) -> Delivered {
    run_counted(config, mailer, options, stop, &Deliveries::none()).await
}

/// [`run`], counting each attempt's outcome in `counted` (the service's metrics).
pub async fn run_counted(
    config: &StoreConfig,
    mailer: &Mailer,
    options: WorkerOptions,
    stop: watch::Receiver<bool>,
    counted: &Deliveries,
) -> Delivered {
    let channel = Emails {
        mailer: mailer.clone(),
        timeout: options.send_timeout,
    };
    drive(config, channel, options, stop, counted).await
}

/// One kind of row the worker delivers: what it claims, how it sends one, and how it
/// records what came of it. The loop around them ([`drive`]) is the same for every
/// channel: leases, concurrency, wake-ups and shutdown.
pub(crate) trait Channel: Send {
    /// A claimed row.
    type Job: Send + 'static;
    /// What a send came to.
    type Done: Send + 'static;

    /// Claims up to `max` rows due by `due_by`, each leased for `lease`, for a worker that
    /// sends `slots` at once.
    fn claim(
        &mut self,
        outbox: &mut Outbox,
        due_by: DateTime<Utc>,
        max: usize,
        slots: usize,
        lease: Duration,
    ) -> impl Future<Output = Result<Vec<Self::Job>, StoreError>> + Send;

    /// Sends one row (bounded in time).
    fn send(&self, job: Self::Job) -> impl Future<Output = Self::Done> + Send + 'static;

    /// Records what a batch of sends came to (the sends that had ended when the loop
    /// looked: one, or many under load, so that a busy worker writes one transaction for
    /// many outcomes).
    fn record(
        &mut self,
        outbox: &mut Outbox,
        done: Vec<Self::Done>,
        tally: &mut Delivered,
        counted: &Deliveries,
    ) -> impl Future<Output = ()> + Send;

    /// When the next row is due (or its lease ends); with `after`, the next one that falls
    /// due after then (a row due already that the last claim left is waiting for a send
    /// to end, not for a time).
    fn next_due(
        &self,
        outbox: &mut Outbox,
        after: Option<DateTime<Utc>>,
    ) -> impl Future<Output = Result<Option<DateTime<Utc>>, StoreError>> + Send;
}

/// Runs `channel`'s deliveries until `stop` turns true (or, with `once`, until nothing is
/// due).
pub(crate) async fn drive<C: Channel>(
    config: &StoreConfig,
    mut channel: C,
    options: WorkerOptions,
    mut stop: watch::Receiver<bool>,
    counted: &Deliveries,
) -> Delivered {
    let mut outbox = match Outbox::new(config) {
        Ok(o) => o,
        Err(e) => {
            tracing::error!(error = %e, "outbox worker cannot start");
            return Delivered::default();
        }
    };
    let concurrency = options.concurrency.max(1);
    let wake = Arc::new(Notify::new());
    let mut listener: Option<tokio::task::JoinHandle<()>> = None;
    let mut done = Delivered::default();
    let mut sending: JoinSet<C::Done> = JoinSet::new();
    // With `once`, send what is due when the run starts: a row retried meanwhile waits for
    // the next run, so `--once` tries each row at most once and ends even when every
    // attempt takes longer than the retry delays. Otherwise each claim takes what is due
    // when it is made.
    let mut due_by = Utc::now();
    let mut drained = false;
    // With places free and sends in flight: when the next row falls due.
    let mut timer: Option<tokio::time::Instant> = None;
    loop {
        if !options.once && listener.as_ref().is_none_or(|l| l.is_finished()) {
            listener = match listen(config, wake.clone()).await {
                Ok(l) => Some(l),
                Err(e) => {
                    tracing::warn!(error = %e, "outbox worker cannot listen; polling");
                    None
                }
            };
        }
        let stopping = *stop.borrow();
        // Fill the free places with due rows.
        let mut db_failed = false;
        if !stopping && !drained && sending.len() < concurrency {
            if !options.once {
                due_by = Utc::now();
            }
            let free = concurrency - sending.len();
            match channel
                .claim(&mut outbox, due_by, free, concurrency, options.lease())
                .await
            {
                Ok(claimed) => {
                    // Fewer than asked: nothing more may go now (a channel with a share per
                    // destination may leave places free); look again when something
                    // changes.
                    drained = claimed.len() < free;
                    for job in claimed {
                        sending.spawn(channel.send(job));
                    }
                    timer = None;
                    if drained && !options.once && !sending.is_empty() {
                        // A retry due in 5 s goes then, whatever the sends in flight wait
                        // for.
                        match channel.next_due(&mut outbox, Some(due_by)).await {
                            Ok(Some(due)) => {
                                let until = (due - Utc::now()).to_std().unwrap_or(Duration::ZERO);
                                timer = Some(tokio::time::Instant::now() + until);
                            }
                            Ok(None) => {}
                            Err(_) => outbox.reset(),
                        }
                    }
                }
                Err(e) => {
                    tracing::warn!(error = %e, "outbox worker: database error");
                    outbox.reset();
                    db_failed = true;
                }
            }
        }
        if sending.is_empty() && (stopping || (drained && options.once)) {
            break;
        }
        if !sending.is_empty() {
            // A send ended: record it, and look for more (unless stopping).
            tokio::select! {
                Some(ended) = sending.join_next() => {
                    // Every send that has ended by now is recorded together.
                    let mut batch: Vec<C::Done> = ended.into_iter().collect();
                    while let Some(ended) = sending.try_join_next() {
                        batch.extend(ended);
                    }
                    channel.record(&mut outbox, batch, &mut done, counted).await;
                    // Places are free again, and a channel with a cap per destination
                    // (webhooks) may have rows it could not take before: look again.
                    drained = false;
                }
                () = wake.notified(), if !stopping => {
                    drained = false;
                    due_by = Utc::now();
                }
                () = tokio::time::sleep_until(timer.unwrap_or_else(tokio::time::Instant::now)),
                    if timer.is_some() && !stopping => {
                    timer = None;
                    drained = false;
                }
                () = stopped(&mut stop), if !stopping => {}
            }
            continue;
        }
        // Nothing in flight and nothing due: sleep until notified, the next retry is due,
        // the poll interval passes, or stop.
        let mut wait = options.poll;
        if !db_failed {
            match channel.next_due(&mut outbox, None).await {
                Ok(Some(due)) => {
                    let until = (due - Utc::now()).to_std().unwrap_or(Duration::ZERO);
                    wait = wait.min(until.max(Duration::from_millis(10)));
                }
                Ok(None) => {}
                Err(_) => outbox.reset(),
            }
        }
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
            () = stopped(&mut stop) => {}
        }
        drained = false;
        due_by = Utc::now();
    }
    if let Some(l) = listener {
        l.abort();
    }
    done
}

/// The email channel: rows of `email_queue`, sent by the [`Mailer`].
struct Emails {
    mailer: Mailer,
    timeout: Duration,
}

impl Channel for Emails {
    type Job = OutboxMessage;
    type Done = Sent;

    async fn claim(
        &mut self,
        outbox: &mut Outbox,
        due_by: DateTime<Utc>,
        max: usize,
        _slots: usize,
        lease: Duration,
    ) -> Result<Vec<OutboxMessage>, StoreError> {
        outbox.claim(due_by, max, lease).await
    }

    fn send(&self, job: OutboxMessage) -> impl Future<Output = Sent> + Send + 'static {
        send(self.mailer.clone(), job, self.timeout)
    }

    async fn record(
        &mut self,
        outbox: &mut Outbox,
        done: Vec<Sent>,
        tally: &mut Delivered,
        counted: &Deliveries,
    ) {
        // Each email's outcome is its own transaction, with its `email.sent|failed` event.
        for sent in done {
            record(outbox, sent, tally, counted).await;
        }
    }

    async fn next_due(
        &self,
        outbox: &mut Outbox,
        after: Option<DateTime<Utc>>,
    ) -> Result<Option<DateTime<Utc>>, StoreError> {
        let due = outbox.next_due().await?;
        // A row due already (leased by another worker, or just claimed elsewhere) is not a
        // time to wake at while sends are in flight.
        Ok(due.filter(|due| after.is_none_or(|after| *due > after)))
    }
}

/// One finished send: the row and what the server said.
struct Sent {
    id: i64,
    attempts: i32,
    created: chrono::DateTime<Utc>,
    outcome: Outcome,
}

/// Sends one claimed row, bounded by `timeout`.
async fn send(mailer: Mailer, message: OutboxMessage, timeout: Duration) -> Sent {
    let outcome = match tokio::time::timeout(timeout, mailer.send(&message)).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Temporary(format!("timed out after {} s", timeout.as_secs())),
    };
    Sent {
        id: message.id,
        attempts: message.attempts + 1,
        created: message.created,
        outcome,
    }
}

/// Records a send's outcome on the row (a database error is logged; the row stays pending
/// and is sent again when its lease has passed: at least once).
async fn record(outbox: &mut Outbox, sent: Sent, done: &mut Delivered, counted: &Deliveries) {
    let Sent {
        id,
        attempts,
        created,
        outcome,
    } = sent;
    let written = match &outcome {
        Outcome::Sent => {
            done.sent += 1;
            counted.count("email", "sent");
            tracing::info!(email = id, attempts, "email sent");
            outbox.sent(id, Utc::now()).await
        }
        Outcome::Permanent(error) => {
            done.failed += 1;
            counted.count("email", "failed");
            tracing::warn!(email = id, attempts, %error, "email refused; marked failed");
            outbox.failed(id, error).await
        }
        Outcome::Temporary(error) => match retry_after(attempts, created, Utc::now(), jitter()) {
            Retry::At(at) => {
                done.retried += 1;
                counted.count("email", "retried");
                tracing::info!(email = id, attempts, %error, retry_at = %at, "email delayed");
                outbox.retry(id, error, at).await
            }
            Retry::GiveUp => {
                done.failed += 1;
                counted.count("email", "failed");
                tracing::warn!(email = id, attempts, %error, "email undeliverable for a day; marked failed");
                outbox.failed(id, error).await
            }
        },
    };
    if let Err(e) = written {
        tracing::warn!(email = id, error = %e, "outbox worker: the outcome was not recorded");
        outbox.reset();
    }
}
