//! The webhook channel of the delivery worker (API.md §13): claims due deliveries
//! ([`Outbox::claim_webhooks_fairly`]: leased, in order per record, at most
//! [`WebhookWorker::per_endpoint`] in flight per endpoint, and each endpoint at most its
//! fair share of the worker's slots, one at a time while its breaker is open: issue 47,
//! [`crm_core::webhook::fairness`]), sends each with the [`Sender`] (Standard Webhooks
//! headers and signatures, the address rules, 15 s), and records what came of them (the
//! attempts that ended together, in one transaction) by crm-core's rules
//! ([`crm_core::webhook::next_step`]): delivered; retried on the schedule or after the
//! `Retry-After` asked for; failed after the eighth attempt; a `410` fails it and disables
//! the endpoint, as do five days of failures. Attempts that got no answer in time count
//! toward the endpoint's breaker.

use std::collections::HashMap;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::time::Duration;

use chrono::{DateTime, Utc};
use crm_core::time::Timestamp;
use crm_core::webhook::fairness::Slots;
use crm_core::webhook::{Attempt, Next, next_step};
use crm_store_pg::outbox::Outbox;
use crm_store_pg::{StoreConfig, StoreError, WebhookAttempt, WebhookJob};
use futures_util::FutureExt as _;
use tokio::sync::watch;

use super::{Channel, Delivered, WorkerOptions, drive, jitter};
use crate::metrics::Deliveries;
use crate::ops::webhook::{Message, Outcome, Sender};

/// Deliveries sent at once to one endpoint by default.
pub const DEFAULT_PER_ENDPOINT: usize = 8;
/// Deliveries a worker sends at once by default (across endpoints).
pub const DEFAULT_CONCURRENCY: usize = 64;

/// The webhook channel's settings.
#[derive(Debug, Clone)]
pub struct WebhookWorker {
    /// The HTTP sender.
    pub sender: Sender,
    /// The most deliveries in flight to one endpoint.
    pub per_endpoint: usize,
}

/// One finished attempt.
pub(crate) struct Attempted {
    job: WebhookJob,
    outcome: Outcome,
}

/// The channel: the settings, and this worker's sends in flight per endpoint (what its
/// share of the slots is counted on).
struct Fair {
    worker: WebhookWorker,
    in_flight: HashMap<i64, usize>,
}

impl Channel for Fair {
    type Job = WebhookJob;
    type Done = Attempted;

    async fn claim(
        &mut self,
        outbox: &mut Outbox,
        due_by: DateTime<Utc>,
        max: usize,
        slots: usize,
        lease: Duration,
    ) -> Result<Vec<WebhookJob>, StoreError> {
        let slots = Slots {
            total: slots,
            free: max,
            per_endpoint: self.worker.per_endpoint,
        };
        let claimed = outbox
            .claim_webhooks_fairly(due_by, slots, &self.in_flight, lease)
            .await?;
        for job in &claimed {
            *self.in_flight.entry(job.endpoint_id).or_default() += 1;
        }
        Ok(claimed)
    }

    fn send(&self, job: WebhookJob) -> impl Future<Output = Attempted> + Send + 'static {
        let sender = self.worker.sender.clone();
        async move {
            let secrets: Vec<&str> = job.secrets.iter().map(String::as_str).collect();
            let message = Message {
                url: &job.url,
                id: &job.message_id,
                body: job.body.as_bytes(),
                secrets: &secrets,
            };
            // A send that panics still ends as an attempt, so that it is recorded and the
            // endpoint's count of sends in flight (its share of the slots) comes down.
            let outcome = AssertUnwindSafe(sender.send(&message, Utc::now().timestamp()))
                .catch_unwind()
                .await
                .unwrap_or_else(|_| Outcome::Failed {
                    status: None,
                    error: "the send stopped unexpectedly".to_owned(),
                    retry_after: None,
                });
            Attempted { job, outcome }
        }
    }

    async fn record(
        &mut self,
        outbox: &mut Outbox,
        done: Vec<Attempted>,
        tally: &mut Delivered,
        counted: &Deliveries,
    ) {
        for Attempted { job, .. } in &done {
            if let Some(n) = self.in_flight.get_mut(&job.endpoint_id) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.in_flight.remove(&job.endpoint_id);
                }
            }
        }
        let now = Utc::now();
        let judged: Vec<(WebhookJob, WebhookAttempt)> = done
            .into_iter()
            .map(|Attempted { job, outcome }| {
                let attempt = judge(&job, outcome, now, tally, counted);
                (job, attempt)
            })
            .collect();
        let batch: Vec<(&WebhookJob, &WebhookAttempt)> =
            judged.iter().map(|(job, attempt)| (job, attempt)).collect();
        match outbox.record_webhooks(&batch, now).await {
            Ok(disabled) => {
                for (endpoint, reason) in disabled {
                    tracing::warn!(endpoint, reason, "webhook endpoint disabled");
                }
            }
            Err(e) => {
                let deliveries: Vec<i64> = judged.iter().map(|(job, _)| job.id).collect();
                tracing::warn!(?deliveries, error = %e, "outbox worker: the outcomes were not recorded");
                outbox.reset();
            }
        }
    }

    async fn next_due(
        &self,
        outbox: &mut Outbox,
        after: Option<DateTime<Utc>>,
    ) -> Result<Option<DateTime<Utc>>, StoreError> {
        outbox.next_webhook_due_after(after).await
    }
}

/// Runs the webhook channel until `stop` turns true (or, with `once`, until nothing is
/// due), counting each attempt in `counted`.
pub async fn run_webhooks(
    config: &StoreConfig,
    worker: WebhookWorker,
    options: WorkerOptions,
    stop: watch::Receiver<bool>,
    counted: &Deliveries,
) -> Delivered {
    let channel = Fair {
        worker,
        in_flight: HashMap::new(),
    };
    drive(config, channel, options, stop, counted).await
}

/// What one attempt comes to by crm-core's rules ([`next_step`]), counted in `tally` and
/// `counted` and logged (ids, status and error only: never the URL or a secret).
fn judge(
    job: &WebhookJob,
    outcome: Outcome,
    now: DateTime<Utc>,
    tally: &mut Delivered,
    counted: &Deliveries,
) -> WebhookAttempt {
    let attempts = u32::try_from(job.attempts).unwrap_or(0).saturating_add(1);
    let timed_out = matches!(outcome, Outcome::TimedOut { .. });
    let (attempt, status_code, error) = match outcome {
        Outcome::Delivered { status } => (Attempt::Delivered, Some(status), None),
        Outcome::Gone => (
            Attempt::Gone,
            Some(410),
            Some("410 Gone: the endpoint is disabled".to_owned()),
        ),
        Outcome::Failed {
            status,
            error,
            retry_after,
        } => {
            let retry_after = retry_after.and_then(|d| chrono::Duration::from_std(d).ok());
            (Attempt::Failed { retry_after }, status, Some(error))
        }
        Outcome::Refused { error } | Outcome::TimedOut { error } => {
            (Attempt::Failed { retry_after: None }, None, Some(error))
        }
    };
    let next = next_step(attempts, attempt, Timestamp(now), jitter() * 2.0 - 1.0);
    let outcome_name = match next {
        Next::Delivered => {
            tally.sent += 1;
            "delivered"
        }
        Next::RetryAt(_) => {
            tally.retried += 1;
            "retried"
        }
        Next::Failed => {
            tally.failed += 1;
            "failed"
        }
    };
    counted.count("webhook", outcome_name);
    tracing::info!(
        delivery = job.id,
        endpoint = job.endpoint_id,
        event = %job.event_type,
        attempts,
        status = status_code,
        error = error.as_deref().unwrap_or(""),
        outcome = outcome_name,
        "webhook attempt"
    );
    WebhookAttempt {
        status_code,
        error,
        next,
        gone: attempt == Attempt::Gone,
        timed_out,
    }
}
