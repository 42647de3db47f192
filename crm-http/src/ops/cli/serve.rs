//! `crm serve`: its flags, and the service run with the delivery worker and the periodic
//! upkeep until SIGINT or SIGTERM.

use std::sync::Arc;

use crm_store_pg::{Store, StoreConfig};

use super::Failure;
use crate::cors::Cors;
use crate::limits;
use crate::ops::delivery::{self, WorkerOptions};
use crate::ops::mail::Mailer;
use crate::{App, RequestLimits, ServeOptions, serve, serve_metrics, shutdown_signal};

/// `crm serve`'s flags.
#[derive(Debug, clap::Args)]
pub(crate) struct ServeArgs {
    /// Address to listen on.
    #[arg(
        long,
        hide_env_values = true,
        env = "CRM_LISTEN",
        default_value = "127.0.0.1:8080"
    )]
    pub(crate) listen: String,
    /// Pooled connections for writes (1 to 1000).
    #[arg(long, hide_env_values = true, env = "CRM_POOL_SIZE", default_value_t = 16, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pub(crate) pool_size: usize,
    /// Shared read connections, pipelined (1 to 64).
    #[arg(long, hide_env_values = true, env = "CRM_READERS", default_value_t = 4, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    pub(crate) readers: usize,
    /// Seconds a request's whole body may take to arrive after its headers (then 408).
    #[arg(long, hide_env_values = true, env = "CRM_BODY_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) body_timeout: u64,
    /// Seconds the service may take to answer a request once its body has arrived (then 503
    /// with Retry-After).
    #[arg(long, hide_env_values = true, env = "CRM_REQUEST_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) request_timeout: u64,
    /// Seconds a write to a client may wait without progress (a client that stops reading);
    /// then the connection is closed.
    #[arg(long, hide_env_values = true, env = "CRM_WRITE_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub(crate) write_timeout: u64,
    /// Connections served at once (more are answered 503 and closed) [default: a quarter
    /// of the available memory (the cgroup's headroom or MemAvailable) at 64 KiB each, at
    /// most 4096 (256 MiB), and no more than the open-file limit, raised to its hard limit
    /// at start, less pool + readers + 64; at most 1000000].
    #[arg(long, hide_env_values = true, env = "CRM_MAX_CONNECTIONS", value_parser = clap::value_parser!(u64).range(1..=limits::MAX_CONNECTIONS))]
    pub(crate) max_connections: Option<u64>,
    /// Connections one client address (an IPv6 address by its /64) may hold at once; more
    /// are answered 503 and closed. A --trusted-proxy's connections are not capped.
    #[arg(long, hide_env_values = true, env = "CRM_MAX_CONNECTIONS_PER_ADDRESS", default_value_t = limits::DEFAULT_MAX_CONNECTIONS_PER_ADDRESS as u64, value_parser = clap::value_parser!(u64).range(1..=limits::MAX_CONNECTIONS))]
    pub(crate) max_connections_per_address: u64,
    /// Requests one API key may have in progress at once, 1 to 100000 (more are answered 429).
    #[arg(long, hide_env_values = true, env = "CRM_MAX_IN_FLIGHT_PER_KEY", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub(crate) max_in_flight_per_key: u64,
    /// Requests each API key may send, `N/s` or `N/min` (a token bucket of N per key,
    /// refilled over the second or minute, kept by this instance); over it the answer is 429
    /// with Retry-After. No limit without it.
    #[arg(long, hide_env_values = true, env = "CRM_RATE_LIMIT")]
    pub(crate) rate_limit: Option<limits::Rate>,
    /// An origin browser clients may call from (scheme://host[:port], or `*`); repeat
    /// the flag or separate with commas. CORS is off without one.
    #[arg(
        long = "cors-origin",
        env = "CRM_CORS_ORIGINS",
        hide_env_values = true,
        value_delimiter = ',',
        value_parser = cors_origin
    )]
    pub(crate) cors_origins: Vec<String>,
    /// The service's public address, the base of client links (`<url>/c/<token>`): an
    /// http:// or https:// URL, optionally with a path [default: http://<--listen>].
    #[arg(long, hide_env_values = true, env = "CRM_PUBLIC_URL", value_parser = public_url)]
    pub(crate) public_url: Option<String>,
    /// The company name on the client's pages, PDFs and emails (one line, at most 200
    /// characters).
    #[arg(long, hide_env_values = true, env = "CRM_COMPANY_NAME", default_value = super::defaults::DEFAULT_COMPANY, value_parser = company_name)]
    pub(crate) company_name: String,
    /// Days a client link works after it is made (1 to 3650).
    #[arg(long, hide_env_values = true, env = "CRM_LINK_TTL", default_value_t = crm_core::bill::link::DEFAULT_TTL_DAYS, value_parser = clap::value_parser!(u32).range(1..=3650))]
    pub(crate) link_ttl: u32,
    /// The PDFs' paper: `a4` or `letter`.
    #[arg(long, hide_env_values = true, env = "CRM_PAPER", default_value = "a4", value_parser = paper)]
    pub(crate) paper: crm_render::Paper,
    /// The arithmetic of new estimates and invoices: `crm` (the CRM's own figures, which
    /// the reference vectors fix) or `exact` (decimal, half away from zero). Each document
    /// keeps the one it was created with (a clone or a conversion, its source's).
    #[arg(long, hide_env_values = true, env = "CRM_TOTALS_POLICY", default_value = "crm", value_parser = totals_policy)]
    pub(crate) totals_policy: crm_core::totals::Policy,
    /// Requests one client address may send to the client's pages (`/c/…`), `N/s` or
    /// `N/min`; over it the answer is a 429 page with Retry-After. An IPv6 address counts
    /// by its /64.
    #[arg(
        long,
        hide_env_values = true,
        env = "CRM_PUBLIC_RATE_LIMIT",
        default_value = "60/min"
    )]
    pub(crate) public_rate_limit: limits::Rate,
    /// Failed authentications (401s) one client address may have, `N/s` or `N/min`; past
    /// it the address's API requests are answered 429 before any key is looked up. An IPv6
    /// address counts by its /64.
    #[arg(
        long,
        hide_env_values = true,
        env = "CRM_AUTH_FAILURE_LIMIT",
        default_value = "120/min"
    )]
    pub(crate) auth_failure_limit: limits::Rate,
    /// Memory for rendered PDFs, kept by record version and settings and served again
    /// without rendering: bytes, or with KiB, MiB or GiB (`64MiB`); 0 turns the cache off
    /// (every request renders). At most 16GiB.
    #[arg(long, hide_env_values = true, env = "CRM_PDF_CACHE", default_value = "32MiB", value_parser = byte_size)]
    pub(crate) pdf_cache: usize,
    /// Attach the record's PDF to every estimate and invoice email.
    #[arg(long, env = "CRM_MAIL_ATTACH_PDF", hide_env_values = true)]
    pub(crate) mail_attach_pdf: bool,
    /// Attach the e-invoice in this format (ubl, cii, peppol, xrechnung, xrechnung-cii,
    /// facturx) to every invoice and credit-note email whose document is ready for it, and
    /// offer it for download on the client's page. Factur-X replaces the plain PDF.
    #[arg(long, value_name = "FORMAT", env = "CRM_MAIL_ATTACH_EINVOICE", hide_env_values = true,
          value_parser = einvoice_format)]
    pub(crate) mail_attach_einvoice: Option<crm_einvoice::Format>,
    /// Serve GET /metrics on this address instead of the API's.
    #[arg(long, hide_env_values = true, env = "CRM_METRICS_LISTEN")]
    pub(crate) metrics_listen: Option<String>,
    /// Share the rate limits (and the keys' write positions, for --replica-url) with every
    /// instance through this Redis: redis://[:password@]host[:port][/db]. Without it each
    /// instance limits on its own; while it cannot be reached, too.
    #[arg(long, hide_env_values = true, env = "CRM_REDIS_URL", value_parser = crate::shared::check_url)]
    pub(crate) redis_url: Option<String>,
    /// A proxy whose X-Forwarded-For names the client, for the per-address limits: a
    /// network (CIDR, 10.0.0.0/8) or one address; repeat the flag or separate with commas.
    /// The client is the rightmost address that is not a trusted proxy.
    #[arg(
        long = "trusted-proxy",
        env = "CRM_TRUSTED_PROXIES",
        hide_env_values = true,
        value_delimiter = ',',
        value_parser = crate::forwarded::parse_network
    )]
    pub(crate) trusted_proxies: Vec<ipnet::IpNet>,
    /// A streaming replica single-statement reads may go to (a postgres:// URL); repeat the
    /// flag or separate with commas. A key's reads still see its own writes.
    #[arg(
        long = "replica-url",
        env = "CRM_REPLICA_URLS",
        hide_env_values = true,
        value_delimiter = ','
    )]
    pub(crate) replica_urls: Vec<String>,
    /// A replica further behind the primary than this is skipped: seconds (`5`, `2.5s`) or
    /// milliseconds (`500ms`), 0.1 s to 1 hour.
    #[arg(long, hide_env_values = true, env = "CRM_REPLICA_MAX_LAG", default_value = "5s", value_parser = max_lag)]
    pub(crate) replica_max_lag: std::time::Duration,
    /// PgBouncer, and the direct connection beside it.
    #[command(flatten)]
    pub(crate) pgbouncer: super::PgBouncerArgs,
    /// Where emails go and who sends them.
    #[command(flatten)]
    pub(crate) mail: super::MailArgs,
    /// Where webhooks may go and how many are sent at once.
    #[command(flatten)]
    pub(crate) webhooks: super::WebhookArgs,
    /// Store this instance's shared settings (--webhook-allow-http, --webhook-allow-private,
    /// --public-url, --company-name, --link-ttl, --paper, --mail-attach-pdf,
    /// --mail-attach-einvoice) in the
    /// database over the ones the instances sharing it agreed on; without it, an instance
    /// whose values differ refuses to start, naming them.
    #[arg(long, env = "CRM_TAKE_OVER_SETTINGS", hide_env_values = true)]
    pub(crate) take_over_settings: bool,
}

/// `--mail-attach-einvoice`: one of the e-invoice formats of API.md §19.
pub(crate) fn einvoice_format(name: &str) -> Result<crm_einvoice::Format, String> {
    crm_einvoice::Format::from_name(name.trim()).ok_or_else(|| {
        let names: Vec<&str> = crm_einvoice::Format::ALL.iter().map(|f| f.name()).collect();
        format!("not an e-invoice format: one of {}", names.join(", "))
    })
}

/// `--public-url`: an absolute http(s) URL without query or fragment; a trailing `/` is
/// dropped.
pub(crate) fn public_url(url: &str) -> Result<String, String> {
    let url = url.trim();
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .ok_or("an http:// or https:// URL, such as https://crm.example.com")?;
    let host = rest.split('/').next().unwrap_or("");
    if host.is_empty() || url.contains(['?', '#', ' ']) || url.chars().any(char::is_control) {
        return Err("an http:// or https:// URL with a host and no query or fragment".into());
    }
    Ok(url.trim_end_matches('/').to_owned())
}

/// `--replica-max-lag`: `5`, `2.5s` or `500ms`; from 100 ms to an hour.
pub(crate) fn max_lag(text: &str) -> Result<std::time::Duration, String> {
    let text = text.trim();
    let (number, scale) = match text.strip_suffix("ms") {
        Some(ms) => (ms, 1),
        None => (text.strip_suffix('s').unwrap_or(text), 1000),
    };
    let bad = || "seconds (5, 2.5s) or milliseconds (500ms), from 100 ms to 3600 s".to_owned();
    let (whole, fraction) = number.trim().split_once('.').unwrap_or((number.trim(), ""));
    if whole.is_empty()
        || !whole.bytes().all(|b| b.is_ascii_digit())
        || fraction.len() > 3
        || !fraction.bytes().all(|b| b.is_ascii_digit())
        || (scale == 1 && !fraction.is_empty())
    {
        return Err(bad());
    }
    let whole: u64 = whole.parse().map_err(|_| bad())?;
    let fraction: u64 = format!("{fraction:0<3}").parse().map_err(|_| bad())?;
    let millis = if scale == 1 {
        whole
    } else {
        whole.checked_mul(1000).ok_or_else(bad)? + fraction
    };
    if !(100..=3_600_000).contains(&millis) {
        return Err(bad());
    }
    Ok(std::time::Duration::from_millis(millis))
}

/// `--company-name`: one line of at most 200 characters.
pub(crate) fn company_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() || name.chars().count() > 200 || name.chars().any(char::is_control) {
        return Err("one line of 1 to 200 characters".into());
    }
    Ok(name.to_owned())
}

/// `--pdf-cache`: bytes, or a whole number of KiB, MiB or GiB (`64MiB`, `512KiB`), at
/// most 16 GiB.
pub(crate) fn byte_size(text: &str) -> Result<usize, String> {
    const LIMIT: u64 = 16 << 30;
    let bad = || "bytes, or a whole number with KiB, MiB or GiB (64MiB), at most 16GiB".to_owned();
    let text = text.trim();
    let (number, scale) = [("KiB", 1u64 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30)]
        .into_iter()
        .find_map(|(unit, scale)| text.strip_suffix(unit).map(|n| (n.trim(), scale)))
        .unwrap_or((text, 1));
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let bytes = number
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(scale))
        .filter(|&n| n <= LIMIT)
        .ok_or_else(bad)?;
    usize::try_from(bytes).map_err(|_| bad())
}

/// `--totals-policy`: `crm` or `exact`.
pub(crate) fn totals_policy(name: &str) -> Result<crm_core::totals::Policy, String> {
    crm_core::totals::Policy::from_name(name).ok_or_else(|| "crm or exact".to_owned())
}

/// `--paper`: `a4` or `letter`.
pub(crate) fn paper(name: &str) -> Result<crm_render::Paper, String> {
    crm_render::Paper::from_name(name).ok_or_else(|| "a4 or letter".to_owned())
}

/// One `--cors-origin`, checked when the command line is read (before any database work).
pub(crate) fn cors_origin(origin: &str) -> Result<String, String> {
    Cors::new([origin])
        .map(|_| origin.to_owned())
        .map_err(|e| e.to_string())
}

impl ServeArgs {
    /// How records are presented (`--company-name`, `--paper`, `--mail-attach-pdf`,
    /// `--mail-attach-einvoice`, `--pdf-cache`).
    pub(crate) fn presentation(&self) -> crate::documents::Presentation {
        crate::documents::Presentation {
            company: self.company_name.clone(),
            paper: self.paper,
            attach_pdf: self.mail_attach_pdf,
            einvoice: self.mail_attach_einvoice,
            pdf_cache_bytes: self.pdf_cache,
        }
    }
}

/// `crm serve`: the open-file limit raised, the listeners bound, the delivery worker
/// started, and the service run until SIGINT or SIGTERM.
pub(crate) async fn serve_api(
    store: Store,
    config: StoreConfig,
    mailer: Mailer,
    args: &ServeArgs,
) -> Result<(), Failure> {
    for warning in super::defaults::warnings(
        &config.client.public_url,
        &config.client.company_name,
        &mailer,
    ) {
        tracing::warn!("{warning}");
    }
    let file_limit = limits::raise_file_limit();
    let reserved = limits::reserved_files(args.pool_size, args.readers);
    let available_memory = limits::available_memory();
    let max_connections = match args.max_connections {
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
        None => limits::default_max_connections(file_limit, reserved, available_memory),
    };
    let max_connections_per_address =
        usize::try_from(args.max_connections_per_address).unwrap_or(usize::MAX);
    if let Some(files) = file_limit
        && max_connections as u64 + reserved > files
    {
        // The reserve is the database connections (--pool-size + --readers) and 64 more
        // files; the sum, not --max-connections alone, is what may not fit.
        tracing::warn!(
            max_connections,
            reserved,
            open_file_limit = files,
            "connections served at once plus the database connections and a reserve of 64 \
             exceed the open-file limit; accepts may fail (lower --max-connections, \
             --pool-size or --readers, or raise the limit)"
        );
    }
    let cors = Cors::new(&args.cors_origins)?;
    let listen = &args.listen;
    let listener = tokio::net::TcpListener::bind(listen)
        .await
        .map_err(|e| format!("cannot listen on {listen}: {e}"))?;
    let metrics_listener = match &args.metrics_listen {
        Some(address) => Some(
            tokio::net::TcpListener::bind(address)
                .await
                .map_err(|e| format!("cannot listen on {address} for metrics: {e}"))?,
        ),
        None => None,
    };
    let address = listener.local_addr()?;
    tracing::info!(
        %address,
        max_connections,
        max_connections_per_address,
        available_memory_mib = available_memory.map(|b| b >> 20),
        "listening"
    );
    tracing::info!("the API reference: http://{address}/docs");
    if store
        .list_api_keys()
        .await
        .is_ok_and(|keys| keys.iter().all(|key| key.revoked.is_some()))
    {
        tracing::warn!(
            "no API key yet: every /api request will be refused until one is made with \
             `crm keys create --name NAME`"
        );
    }
    if let Some(rate) = args.rate_limit {
        tracing::info!(rate_limit = %rate, "rate limit per API key");
    }
    if cors.enabled() {
        tracing::info!(origins = ?args.cors_origins, "CORS enabled");
    }
    let request_limits = RequestLimits {
        body_timeout: std::time::Duration::from_secs(args.body_timeout),
        handler_timeout: std::time::Duration::from_secs(args.request_timeout),
        max_in_flight_per_key: usize::try_from(args.max_in_flight_per_key).unwrap_or(usize::MAX),
        rate_limit: args.rate_limit,
        public_rate_limit: Some(args.public_rate_limit),
        auth_failure_limit: Some(args.auth_failure_limit),
    };
    let mut app = App::with_limits(store, request_limits)?
        .with_documents(crate::documents::Documents::new(args.presentation()))
        .with_cors(cors)
        .with_trusted_proxies(crate::forwarded::TrustedProxies::new(
            args.trusted_proxies.clone(),
        ));
    if !args.trusted_proxies.is_empty() {
        tracing::info!(proxies = ?args.trusted_proxies, "X-Forwarded-For believed from these proxies");
    }
    if let Some(url) = &args.redis_url {
        let counts = app.metrics().shared_counts()?;
        let shared = crate::shared::Shared::start(url, counts).map_err(|e| e.to_string())?;
        tracing::info!(
            redis = %crm_store_pg::pool::redact_password(url),
            "rate limits shared through Redis"
        );
        // Positions are trusted again once Redis has answered for longer than a replica
        // may lag (and one watcher round more).
        let trust_after = args.replica_max_lag + crm_store_pg::replicas::WATCH_EVERY * 2;
        app = app.with_shared(&shared, trust_after);
    }
    if app.store.has_replicas() {
        tracing::info!(
            replicas = args.replica_urls.len(),
            max_lag_s = args.replica_max_lag.as_secs_f64(),
            shared_positions = args.redis_url.is_some(),
            "single-statement reads go to replicas that have replayed the key's last write"
        );
    }
    if metrics_listener.is_some() {
        app = app.with_metrics_elsewhere();
    }
    let app = Arc::new(app);
    let upkeep = crate::ops::upkeep::Upkeep::start(&app);
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let metrics_task = metrics_listener.map(|metrics_listener| {
        let address = metrics_listener.local_addr().ok();
        tracing::info!(address = ?address, "serving /metrics");
        let mut stopped = stopped.clone();
        tokio::spawn(serve_metrics(
            metrics_listener,
            Arc::clone(&app),
            async move {
                let _ = stopped.wait_for(|stop| *stop).await;
            },
        ))
    });
    let (stop_worker, worker_stopped) = delivery::stop_channel();
    let worker_options = args.mail.worker(false);
    let deliveries = app.metrics().deliveries();
    let (webhook_worker, webhook_options) = args.webhooks.worker(false)?;
    let webhook_config = config.clone();
    let webhook_stopped = worker_stopped.clone();
    let worker_stopped_scheduler = worker_stopped.clone();
    let webhook_deliveries = deliveries.clone();
    let hooks = tokio::spawn(async move {
        delivery::webhooks::run_webhooks(
            &webhook_config,
            webhook_worker,
            webhook_options,
            webhook_stopped,
            &webhook_deliveries,
        )
        .await
    });
    let worker = tokio::spawn(async move {
        delivery::run_counted(
            &config,
            &mailer,
            worker_options,
            worker_stopped,
            &deliveries,
        )
        .await
    });
    // The scheduler composes the emails of the invoices it issues with documents of its
    // own (the same presentation, so the same messages; no PDF cache of its own).
    let scheduler = tokio::spawn(crate::ops::scheduler::run(
        app.store.clone(),
        Arc::new(crate::documents::Documents::new(
            crate::documents::Presentation {
                pdf_cache_bytes: 0,
                ..args.presentation()
            },
        )),
        Arc::new(crate::ops::scheduler::SystemClock),
        crate::ops::scheduler::SchedulerOptions::default(),
        worker_stopped_scheduler,
    ));
    let options = ServeOptions {
        max_connections,
        max_connections_per_address,
        write_timeout: std::time::Duration::from_secs(args.write_timeout),
        ..ServeOptions::default()
    };
    let shutdown = async move {
        shutdown_signal().await;
        let _ = stop_worker.send(true);
    };
    serve(listener, Arc::clone(&app), options, shutdown).await?;
    drop(upkeep);
    // The minutes keys were used since the last batch, so that a stop loses none.
    if let Err(e) = app.record_key_use().await {
        tracing::warn!(error = %e, "could not record when keys were last used");
    }
    let _ = stop.send(true);
    let _ = finish(worker).await;
    let _ = hooks.await;
    let _ = scheduler.await;
    if let Some(task) = metrics_task {
        task.await??;
    }
    Ok(())
}

/// Waits for a delivery worker that was told to stop: a send in progress finishes first,
/// bounded by the worker's send timeout, and the log says so rather than leaving a
/// stopping process silent for up to that long.
pub(crate) async fn finish(
    mut worker: tokio::task::JoinHandle<delivery::Delivered>,
) -> Result<delivery::Delivered, tokio::task::JoinError> {
    match tokio::time::timeout(std::time::Duration::from_millis(200), &mut worker).await {
        Ok(done) => done,
        Err(_) => {
            tracing::info!(
                "waiting for the email being sent (at most {} s)",
                WorkerOptions::default().send_timeout.as_secs()
            );
            worker.await
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byte_sizes_are_bytes_or_binary_units_up_to_16_gib() {
        assert_eq!(byte_size("0"), Ok(0));
        assert_eq!(byte_size("4096"), Ok(4096));
        assert_eq!(byte_size("512KiB"), Ok(512 * 1024));
        assert_eq!(byte_size(" 32MiB "), Ok(32 * 1024 * 1024));
        assert_eq!(byte_size("16GiB"), Ok(16 << 30));
        for bad in [
            "",
            "MiB",
            "-1",
            "1.5MiB",
            "32MB",
            "32 mb",
            "17GiB",
            "1e9",
            "99999999999999999999",
        ] {
            assert!(byte_size(bad).is_err(), "{bad:?}");
        }
    }
}
