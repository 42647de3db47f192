//! The delivery worker (API.md §10): runs inside `crm serve`, or alone as `crm deliver`.
//!
//! It claims due rows one at a time ([`crm_store_pg::outbox::Outbox::claim`], `FOR UPDATE
//! SKIP LOCKED`) on connections of its own, sends each with the [`Mailer`], and records the
//! outcome in the same transaction: `sent`; a temporary failure (no connection, timeout,
//! 4xx) → retried with exponential backoff and jitter ([`crm_core::mail::retry_after`]) for
//! up to a day, then `failed`; a permanent one (5xx) → `failed`. Every outcome counts one
//! attempt and keeps the last error.
//!
//! It wakes on the queuing transaction's `NOTIFY`, when the next retry is due, and at least
//! every [`WorkerOptions::poll`] (the fallback when notifications are lost).
//!
//! Shutdown: once asked to stop, it starts no new send; a send in progress finishes (it is
//! bounded by [`WorkerOptions::send_timeout`]) and its outcome is recorded. Everything else
//! stays pending for the next run. A crash between the server's acceptance and the status
//! update sends the row again with the same Message-ID: delivery is at least once.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use crm_core::mail::{Outcome, Retry, retry_after};
use crm_store_pg::StoreConfig;
use crm_store_pg::outbox::{Outbox, listen};
use tokio::sync::{Notify, watch};

use crate::ops::mail::Mailer;

/// Worker settings.
#[derive(Debug, Clone, Copy)]
pub struct WorkerOptions {
    /// Longest sleep without a notification.
    pub poll: Duration,
    /// Longest time one send may take (then it is a temporary failure).
    pub send_timeout: Duration,
    /// Send what is due when called, each row once, then return (`crm deliver --once`).
    pub once: bool,
}

impl Default for WorkerOptions {
    fn default() -> Self {
        WorkerOptions {
            poll: Duration::from_secs(5),
            send_timeout: Duration::from_secs(60),
            once: false,
        }
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
fn jitter() -> f64 {
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
    mut stop: watch::Receiver<bool>,
) -> Delivered {
    let mut outbox = match Outbox::new(config) {
        Ok(o) => o,
        Err(e) => {
            tracing::error!(error = %e, "outbox worker cannot start");
            return Delivered::default();
        }
    };
    let wake = Arc::new(Notify::new());
    let mut listener: Option<tokio::task::JoinHandle<()>> = None;
    let mut done = Delivered::default();
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
        // Send everything due when the pass starts: a row retried during the pass waits
        // for the next one, so a pass (all of `--once`) tries each row at most once and
        // ends even when every attempt takes longer than the retry delays.
        let due_by = Utc::now();
        let mut db_failed = false;
        while !*stop.borrow() {
            match deliver_one(&mut outbox, mailer, options, due_by).await {
                Ok(Some(outcome)) => match outcome {
                    Outcome::Sent => done.sent += 1,
                    Outcome::Temporary(_) => done.retried += 1,
                    Outcome::Permanent(_) => done.failed += 1,
                },
                Ok(None) => break,
                Err(e) => {
                    tracing::warn!(error = %e, "outbox worker: database error");
                    outbox.reset();
                    db_failed = true;
                    break;
                }
            }
        }
        if options.once || *stop.borrow() {
            break;
        }
        // Sleep until notified, the next retry is due, the poll interval passes, or stop.
        let mut wait = options.poll;
        if !db_failed {
            match outbox.next_due().await {
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
            () = stopped(&mut stop) => break,
        }
    }
    if let Some(l) = listener {
        l.abort();
    }
    done
}

/// Claims one row due by `due_by` and delivers it; `None` when nothing is due.
async fn deliver_one(
    outbox: &mut Outbox,
    mailer: &Mailer,
    options: WorkerOptions,
    due_by: chrono::DateTime<Utc>,
) -> Result<Option<Outcome>, crm_store_pg::StoreError> {
    let Some(claim) = outbox.claim(due_by).await? else {
        return Ok(None);
    };
    let row = &claim.message;
    let outcome = match tokio::time::timeout(options.send_timeout, mailer.send(row)).await {
        Ok(outcome) => outcome,
        Err(_) => Outcome::Temporary(format!(
            "timed out after {} s",
            options.send_timeout.as_secs()
        )),
    };
    let id = row.id;
    let attempts = row.attempts + 1;
    let created = row.created;
    match &outcome {
        Outcome::Sent => {
            tracing::info!(email = id, attempts, "email sent");
            claim.sent(Utc::now()).await?;
        }
        Outcome::Permanent(error) => {
            tracing::warn!(email = id, attempts, %error, "email refused; marked failed");
            claim.failed(error).await?;
        }
        Outcome::Temporary(error) => {
            let now = Utc::now();
            match retry_after(attempts, created, now, jitter()) {
                Retry::At(at) => {
                    tracing::info!(email = id, attempts, %error, retry_at = %at, "email delayed");
                    claim.retry(error, at).await?;
                }
                Retry::GiveUp => {
                    tracing::warn!(email = id, attempts, %error, "email undeliverable for a day; marked failed");
                    claim.failed(error).await?;
                }
            }
        }
    }
    Ok(Some(outcome))
}
