//! Waking the delivery workers after a commit that queued emails, wrote webhook events
//! (which the worker fans out into deliveries) or queued deliveries itself.
//!
//! A `NOTIFY` inside a transaction takes a lock that PostgreSQL holds until that
//! transaction's commit is flushed, for every notifying transaction of the database: the
//! commits that notify run one after the other, each waiting for its own flush, and group
//! commit is lost. Measured on note creates with one endpoint subscribed, that cost about
//! half of the throughput. So a write that queues work for the workers does not notify in its
//! transaction: after its commit it asks the [`Waker`], whose one task sends
//! `NOTIFY crm_outbox` on a pooled connection, outside any write's transaction. Requests
//! that arrive while a notification is on its way, or within 50 ms of the last one, are
//! folded into the next one, so a burst of writes costs a few notifications, not one
//! each. Every worker of every instance listening on the channel wakes, as before; a lost
//! notification only delays a delivery until the worker's poll.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Weak};

use tokio::sync::Notify;

/// Wakes the workers, sent after the commit that queued emails or wrote webhook events
/// (not inside it: see the module's notes).
pub(crate) const NOTIFY_AFTER_COMMIT: &str = "NOTIFY crm_outbox";

/// The least time between two notifications (what a delivery may wait for its wake-up,
/// beyond the commit).
const GAP: std::time::Duration = std::time::Duration::from_millis(50);

/// Sends `NOTIFY crm_outbox` after commits, folding requests that come while one is sent.
#[derive(Debug)]
pub(crate) struct Waker {
    pool: deadpool_postgres::Pool,
    /// The task's wake-up: stores one permit, so requests fold together.
    notify: Arc<Notify>,
    /// The task was started (on the first request, inside the runtime).
    started: AtomicBool,
}

impl Waker {
    /// A waker that notifies on connections of `pool`.
    pub(crate) fn new(pool: deadpool_postgres::Pool) -> Arc<Waker> {
        Arc::new(Waker {
            pool,
            notify: Arc::new(Notify::new()),
            started: AtomicBool::new(false),
        })
    }

    /// Asks for a notification (call after the commit that queued emails, wrote events or
    /// queued deliveries).
    pub(crate) fn wake(self: &Arc<Self>) {
        if !self.started.swap(true, Ordering::AcqRel) {
            tokio::spawn(run(Arc::downgrade(self), Arc::clone(&self.notify)));
        }
        self.notify.notify_one();
    }
}

impl Drop for Waker {
    fn drop(&mut self) {
        // Lets the task see that the store is gone, and end.
        self.notify.notify_one();
    }
}

/// The task: waits for a request, sends one `NOTIFY`; ends when the store is dropped. It
/// holds the pool only while it notifies, so a dropped store closes its connections.
async fn run(waker: Weak<Waker>, notify: Arc<Notify>) {
    loop {
        notify.notified().await;
        let Some(pool) = waker.upgrade().map(|w| w.pool.clone()) else {
            return;
        };
        let sent = match pool.get().await {
            Ok(conn) => conn
                .batch_execute(NOTIFY_AFTER_COMMIT)
                .await
                .map_err(|e| e.to_string()),
            Err(e) => Err(e.to_string()),
        };
        if let Err(error) = sent {
            // The workers' poll picks the deliveries up instead.
            tracing::debug!(%error, "the delivery workers were not notified");
        }
        drop(pool);
        // A notification is a transaction with a flushed commit of its own: under a steady
        // stream of writes, one per `GAP` is enough, and the requests of the gap fold into
        // the next.
        tokio::time::sleep(GAP).await;
    }
}
