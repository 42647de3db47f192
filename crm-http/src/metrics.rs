//! Operational metrics in the Prometheus text format (`GET /metrics`), from the `prometheus`
//! crate with a registry per [`App`](crate::App):
//!
//! - `crm_http_requests_total{method, route, status}` and
//!   `crm_http_request_duration_seconds{method, route, status}` (a histogram). `route` is the
//!   route template (`/api/notes/{id}`), `-` for unknown paths, so the label set stays
//!   bounded whatever clients send; no key, query or body is ever a label.
//! - `crm_db_pool_connections{state="in_use"|"idle"}`, `crm_db_pool_max_connections` and
//!   `crm_db_pool_waiting`: the write pool, read when scraped.
//! - `crm_outbox_emails{status="pending"|"failed"}`, `crm_outbox_due` (pending emails
//!   whose time has come: growing means the delivery workers do not keep up) and
//!   `crm_outbox_oldest_pending_seconds`, read when scraped; left out of a scrape when the
//!   database does not answer.
//! - `crm_outbox_backlog{channel="email"|"webhook", status="pending"|"due"|"failed"}` and
//!   `crm_outbox_channel_oldest_pending_seconds{channel}`: the same for both channels of the
//!   outbox (the email-only gauges above stay as they were).
//! - `crm_outbox_deliveries_total{channel, outcome}`: attempts by this process's delivery
//!   worker (email: `sent`, `retried`, `failed`; webhook: `delivered`, `retried`, `failed`).
//! - `crm_webhook_breakers_open` and `crm_webhook_breaker_open{endpoint}`: the enabled
//!   webhook endpoints whose circuit breaker is open (their attempts kept timing out: one at
//!   a time until one is delivered, issue 47), read when scraped; an endpoint is listed
//!   while its breaker is open.
//! - `crm_auth_failures_total{outcome="refused"|"limited"}`: requests refused for their API
//!   key (401), and those refused without a lookup because their address failed too often
//!   (429, `--auth-failure-limit`).
//! - `crm_redis_up` (1 while Redis answers, 0 while this instance limits on its own) and
//!   `crm_rate_limit_fallback_total`: requests this instance limited by itself because
//!   Redis (`--redis-url`) could not be reached (API.md §16).
//! - `crm_replica_lag_seconds{replica}`, `crm_replica_reachable{replica}` and
//!   `crm_db_reads{server}` (`primary`, or a replica's `host:port`): the streaming
//!   replicas' lag and the single-statement reads each server answered (`--replica-url`).
//! - `crm_pdf_renders_total`, `crm_pdf_cache_hits_total`, `crm_pdf_cache_misses_total`,
//!   `crm_pdf_cache_bytes`, `crm_pdf_cache_entries` and `crm_pdf_cache_budget_bytes`: the
//!   PDFs rendered, those served from memory and not, and what the cache keeps
//!   (`crate::documents::pdfs`), read when scraped.
//! - `process_*`: resident memory, open file descriptors, CPU time (Linux).

use prometheus::{
    Encoder, Gauge, HistogramOpts, HistogramVec, IntCounterVec, IntGauge, IntGaugeVec, Opts,
    Registry, TextEncoder,
};

use crate::documents::pdfs::PdfCacheStatus;
use crm_store_pg::PoolStatus;
use crm_store_pg::outbox::OutboxBacklog;

/// Latency buckets, in seconds: half a millisecond to ten seconds.
const BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];

/// The media type of the text exposition format.
pub const CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// A failure to set up or render the metrics.
#[derive(Debug, thiserror::Error)]
#[error("metrics: {0}")]
pub struct MetricsError(#[from] prometheus::Error);

/// The service's metrics.
#[derive(Debug, Clone)]
pub struct Metrics {
    registry: Registry,
    requests: IntCounterVec,
    latency: HistogramVec,
    pool: IntGaugeVec,
    pool_max: IntGauge,
    pool_waiting: IntGauge,
    outbox: IntGaugeVec,
    outbox_due: IntGauge,
    outbox_oldest: Gauge,
    backlog: IntGaugeVec,
    oldest: prometheus::GaugeVec,
    deliveries: IntCounterVec,
    breakers_open: IntGauge,
    breaker_open: IntGaugeVec,
    auth_failures: IntCounterVec,
    redis_up: IntGauge,
    fallback: prometheus::IntCounter,
    replica_lag: prometheus::GaugeVec,
    replica_reachable: IntGaugeVec,
    reads: IntGaugeVec,
    pdfs: PdfMetrics,
}

/// The PDF cache's figures, copied from the store's own counts when scraped.
#[derive(Debug, Clone)]
struct PdfMetrics {
    renders: prometheus::IntCounter,
    hits: prometheus::IntCounter,
    misses: prometheus::IntCounter,
    bytes: IntGauge,
    entries: IntGauge,
    budget: IntGauge,
    /// Two scrapes at once must not both add the same increase.
    copying: std::sync::Arc<std::sync::Mutex<()>>,
}

impl PdfMetrics {
    fn new(registry: &Registry) -> Result<PdfMetrics, MetricsError> {
        let counter = |name: &str, help: &str| -> Result<_, MetricsError> {
            let counter = prometheus::IntCounter::new(name, help)?;
            registry.register(Box::new(counter.clone()))?;
            Ok(counter)
        };
        let gauge = |name: &str, help: &str| -> Result<_, MetricsError> {
            let gauge = IntGauge::new(name, help)?;
            registry.register(Box::new(gauge.clone()))?;
            Ok(gauge)
        };
        Ok(PdfMetrics {
            renders: counter(
                "crm_pdf_renders_total",
                "PDFs rendered (estimates and invoices, by key or by client link).",
            )?,
            hits: counter(
                "crm_pdf_cache_hits_total",
                "PDF requests served from the cache of rendered PDFs.",
            )?,
            misses: counter(
                "crm_pdf_cache_misses_total",
                "PDF requests that found no rendered PDF of their version (they rendered it, \
                 or waited for its rendering in progress).",
            )?,
            bytes: gauge(
                "crm_pdf_cache_bytes",
                "Bytes the cache of rendered PDFs keeps now.",
            )?,
            entries: gauge("crm_pdf_cache_entries", "PDFs the cache keeps now.")?,
            budget: gauge(
                "crm_pdf_cache_budget_bytes",
                "The cache's byte budget (--pdf-cache; 0: off).",
            )?,
            copying: std::sync::Arc::default(),
        })
    }

    /// Brings the metrics to the store's figures `now`.
    fn copy(&self, now: PdfCacheStatus) {
        let _one_at_a_time = self.copying.lock().unwrap_or_else(|p| p.into_inner());
        for (counter, total) in [
            (&self.renders, now.renders),
            (&self.hits, now.hits),
            (&self.misses, now.misses),
        ] {
            counter.inc_by(total.saturating_sub(counter.get()));
        }
        self.bytes.set(gauge(now.bytes));
        self.entries.set(gauge(now.entries));
        self.budget.set(gauge(now.budget));
    }
}

/// What the shared limiter counts: whether Redis answers, and the requests limited by
/// this instance alone meanwhile.
#[derive(Debug, Clone)]
pub struct SharedCounts {
    /// `crm_redis_up`.
    pub redis_up: IntGauge,
    /// `crm_rate_limit_fallback_total`.
    pub fallback: prometheus::IntCounter,
}

impl Metrics {
    /// A fresh registry with every metric registered.
    pub fn new() -> Result<Metrics, MetricsError> {
        let registry = Registry::new();
        let labels = &["method", "route", "status"];
        let requests = IntCounterVec::new(
            Opts::new("crm_http_requests_total", "HTTP requests answered."),
            labels,
        )?;
        let latency = HistogramVec::new(
            HistogramOpts::new(
                "crm_http_request_duration_seconds",
                "Time from a request's headers to its answer.",
            )
            .buckets(BUCKETS.to_vec()),
            labels,
        )?;
        let pool = IntGaugeVec::new(
            Opts::new(
                "crm_db_pool_connections",
                "Write-pool connections by state.",
            ),
            &["state"],
        )?;
        let pool_max = IntGauge::new(
            "crm_db_pool_max_connections",
            "The write pool's size limit.",
        )?;
        let pool_waiting = IntGauge::new(
            "crm_db_pool_waiting",
            "Requests waiting for a write-pool connection.",
        )?;
        registry.register(Box::new(requests.clone()))?;
        registry.register(Box::new(latency.clone()))?;
        registry.register(Box::new(pool.clone()))?;
        registry.register(Box::new(pool_max.clone()))?;
        registry.register(Box::new(pool_waiting.clone()))?;
        let outbox = IntGaugeVec::new(
            Opts::new("crm_outbox_emails", "Outbox emails by delivery status."),
            &["status"],
        )?;
        let outbox_due = IntGauge::new(
            "crm_outbox_due",
            "Pending outbox emails whose delivery time has come.",
        )?;
        registry.register(Box::new(outbox.clone()))?;
        registry.register(Box::new(outbox_due.clone()))?;
        let outbox_oldest = Gauge::new(
            "crm_outbox_oldest_pending_seconds",
            "Age of the oldest pending outbox email (0 with none pending).",
        )?;
        registry.register(Box::new(outbox_oldest.clone()))?;
        let backlog = IntGaugeVec::new(
            Opts::new(
                "crm_outbox_backlog",
                "Outbox rows by channel (email, webhook) and status (pending, due: pending and \
                 whose time has come, failed); a webhook event not yet fanned out into its \
                 deliveries counts as one pending row.",
            ),
            &["channel", "status"],
        )?;
        registry.register(Box::new(backlog.clone()))?;
        let oldest = prometheus::GaugeVec::new(
            Opts::new(
                "crm_outbox_channel_oldest_pending_seconds",
                "Age of the oldest pending row of each outbox channel (0 with none pending).",
            ),
            &["channel"],
        )?;
        registry.register(Box::new(oldest.clone()))?;
        let deliveries = IntCounterVec::new(
            Opts::new(
                "crm_outbox_deliveries_total",
                "Delivery attempts by this process's worker, by channel and outcome (sent, \
                 retried, failed).",
            ),
            &["channel", "outcome"],
        )?;
        registry.register(Box::new(deliveries.clone()))?;
        let breakers_open = IntGauge::new(
            "crm_webhook_breakers_open",
            "Enabled webhook endpoints whose circuit breaker is open: their attempts timed out \
             3 times in a row, and they get one attempt at a time until one is delivered.",
        )?;
        let breaker_open = IntGaugeVec::new(
            Opts::new(
                "crm_webhook_breaker_open",
                "1 for each enabled webhook endpoint (by id) whose circuit breaker is open; an \
                 endpoint is absent while its breaker is closed.",
            ),
            &["endpoint"],
        )?;
        registry.register(Box::new(breakers_open.clone()))?;
        registry.register(Box::new(breaker_open.clone()))?;
        let auth_failures = IntCounterVec::new(
            Opts::new(
                "crm_auth_failures_total",
                "Requests refused for their API key: `refused` (no valid key: a 401) and \
                 `limited` (a 429 to an address past --auth-failure-limit, no key looked up).",
            ),
            &["outcome"],
        )?;
        registry.register(Box::new(auth_failures.clone()))?;
        let redis_up = IntGauge::new(
            "crm_redis_up",
            "1 while Redis (--redis-url) answers, 0 while this instance limits on its own; \
             absent without --redis-url.",
        )?;
        let fallback = prometheus::IntCounter::new(
            "crm_rate_limit_fallback_total",
            "Rate-limit decisions this instance made alone because Redis could not be reached.",
        )?;
        let replica_lag = prometheus::GaugeVec::new(
            Opts::new(
                "crm_replica_lag_seconds",
                "How far each streaming replica is behind the primary (absent while unknown).",
            ),
            &["replica"],
        )?;
        let replica_reachable = IntGaugeVec::new(
            Opts::new(
                "crm_replica_reachable",
                "1 when the replica answered its last check, else 0.",
            ),
            &["replica"],
        )?;
        let reads = IntGaugeVec::new(
            Opts::new(
                "crm_db_reads",
                "Single-statement reads answered by each server (primary, or a replica's \
                 host:port) since the start; counted only with --replica-url.",
            ),
            &["server"],
        )?;
        registry.register(Box::new(replica_lag.clone()))?;
        registry.register(Box::new(replica_reachable.clone()))?;
        registry.register(Box::new(reads.clone()))?;
        let pdfs = PdfMetrics::new(&registry)?;
        #[cfg(target_os = "linux")]
        registry.register(Box::new(
            prometheus::process_collector::ProcessCollector::for_self(),
        ))?;
        Ok(Metrics {
            registry,
            requests,
            latency,
            pool,
            pool_max,
            pool_waiting,
            outbox,
            outbox_due,
            outbox_oldest,
            backlog,
            oldest,
            deliveries,
            breakers_open,
            breaker_open,
            auth_failures,
            redis_up,
            fallback,
            replica_lag,
            replica_reachable,
            reads,
            pdfs,
        })
    }

    /// The shared limiter's counters, registered on first use (only a service with
    /// `--redis-url` shows them).
    pub fn shared_counts(&self) -> Result<SharedCounts, MetricsError> {
        for metric in [
            Box::new(self.redis_up.clone()) as Box<dyn prometheus::core::Collector>,
            Box::new(self.fallback.clone()),
        ] {
            match self.registry.register(metric) {
                Ok(()) | Err(prometheus::Error::AlreadyReg) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Ok(SharedCounts {
            redis_up: self.redis_up.clone(),
            fallback: self.fallback.clone(),
        })
    }

    /// Sets the replicas' gauges from their standing now, and the reads each server
    /// answered.
    pub fn replicas(&self, replicas: &[crm_store_pg::ReplicaStatus], primary_reads: u64) {
        let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
        self.reads
            .with_label_values(&["primary"])
            .set(count(primary_reads));
        for replica in replicas {
            let name = replica.name.as_str();
            match replica.lag_seconds {
                Some(lag) => self.replica_lag.with_label_values(&[name]).set(lag),
                None => {
                    let _ = self.replica_lag.remove_label_values(&[name]);
                }
            }
            self.replica_reachable
                .with_label_values(&[name])
                .set(i64::from(replica.reachable));
            self.reads
                .with_label_values(&[name])
                .set(count(replica.reads));
        }
    }

    /// Records one answered request.
    pub fn observe(
        &self,
        method: &http::Method,
        route: &str,
        status: http::StatusCode,
        seconds: f64,
    ) {
        let labels = [known_method(method), route, status.as_str()];
        self.requests.with_label_values(&labels).inc();
        self.latency.with_label_values(&labels).observe(seconds);
    }

    /// The counter of delivery attempts, for a delivery worker in this process to count its
    /// outcomes on ([`crate::ops::delivery::run_counted`]).
    pub fn deliveries(&self) -> Deliveries {
        Deliveries(Some(self.deliveries.clone()))
    }

    /// Records a request refused for its key: `limited` when its address was past the
    /// failure limit (no key looked up), else `refused` (401).
    pub fn auth_failed(&self, limited: bool) {
        let outcome = if limited { "limited" } else { "refused" };
        self.auth_failures.with_label_values(&[outcome]).inc();
    }

    /// The text exposition of every metric, with the pool, the outbox and the PDF cache as
    /// read now (`outbox` is `None` when the database did not answer: those gauges are left
    /// out).
    pub fn render(
        &self,
        pool: PoolStatus,
        outbox: Option<Backlogs>,
        pdfs: PdfCacheStatus,
    ) -> Result<String, MetricsError> {
        self.pdfs.copy(pdfs);
        let in_use = pool.size.saturating_sub(pool.available);
        self.pool.with_label_values(&["in_use"]).set(gauge(in_use));
        self.pool
            .with_label_values(&["idle"])
            .set(gauge(pool.available));
        self.pool_max.set(gauge(pool.max_size));
        self.pool_waiting.set(gauge(pool.waiting));
        let mut families = self.registry.gather();
        match outbox {
            Some(Backlogs {
                email,
                webhook,
                open_breakers,
            }) => {
                self.breakers_open
                    .set(i64::try_from(open_breakers.len()).unwrap_or(i64::MAX));
                self.breaker_open.reset();
                for endpoint in &open_breakers {
                    self.breaker_open
                        .with_label_values(&[&endpoint.to_string()])
                        .set(1);
                }
                let count = |n: u64| i64::try_from(n).unwrap_or(i64::MAX);
                for (channel, backlog) in [("email", &email), ("webhook", &webhook)] {
                    for (status, n) in [
                        ("pending", backlog.pending),
                        ("due", backlog.due),
                        ("failed", backlog.failed),
                    ] {
                        self.backlog
                            .with_label_values(&[channel, status])
                            .set(count(n));
                    }
                    self.oldest
                        .with_label_values(&[channel])
                        .set(backlog.oldest_pending_seconds.unwrap_or(0.0));
                }
                let outbox = email;
                self.outbox
                    .with_label_values(&["pending"])
                    .set(count(outbox.pending));
                self.outbox
                    .with_label_values(&["failed"])
                    .set(count(outbox.failed));
                self.outbox_due.set(count(outbox.due));
                self.outbox_oldest
                    .set(outbox.oldest_pending_seconds.unwrap_or(0.0));
                families = self.registry.gather();
            }
            None => families.retain(|f| {
                !f.name().starts_with("crm_outbox") && !f.name().starts_with("crm_webhook")
            }),
        }
        let mut out = Vec::new();
        TextEncoder::new().encode(&families, &mut out)?;
        Ok(String::from_utf8_lossy(&out).into_owned())
    }
}

/// The backlog of both outbox channels, as read when scraped.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Backlogs {
    /// `email_queue`.
    pub email: OutboxBacklog,
    /// `webhook_deliveries`.
    pub webhook: OutboxBacklog,
    /// The enabled webhook endpoints whose breaker is open, by id.
    pub open_breakers: Vec<i64>,
}

/// Where a delivery worker counts its attempts: `crm_outbox_deliveries_total` of the
/// service's metrics, or nowhere ([`Deliveries::none`]: `crm deliver`, tests).
#[derive(Debug, Clone, Default)]
pub struct Deliveries(Option<IntCounterVec>);

impl Deliveries {
    /// Counts nothing.
    pub fn none() -> Deliveries {
        Deliveries(None)
    }

    /// One attempt on `channel` (`email`) ended with `outcome` (`sent`, `retried`,
    /// `failed`).
    pub fn count(&self, channel: &str, outcome: &str) {
        if let Some(counter) = &self.0 {
            counter.with_label_values(&[channel, outcome]).inc();
        }
    }

    /// The attempts on `channel` counted so far, whatever their outcome (0 when counting
    /// nothing).
    pub fn ended(&self, channel: &str) -> u64 {
        let Some(counter) = &self.0 else {
            return 0;
        };
        use prometheus::core::Collector as _;
        counter
            .collect()
            .iter()
            .flat_map(|family| family.get_metric())
            .filter(|metric| {
                metric
                    .get_label()
                    .iter()
                    .any(|l| l.name() == "channel" && l.value() == channel)
            })
            .map(|metric| metric.get_counter().get_value() as u64)
            .sum()
    }
}

fn gauge(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// The method as a label: one of the methods HTTP defines, else `other` (a client cannot
/// grow the label set).
fn known_method(method: &http::Method) -> &'static str {
    match *method {
        http::Method::GET => "GET",
        http::Method::HEAD => "HEAD",
        http::Method::POST => "POST",
        http::Method::PUT => "PUT",
        http::Method::PATCH => "PATCH",
        http::Method::DELETE => "DELETE",
        http::Method::OPTIONS => "OPTIONS",
        _ => "other",
    }
}
