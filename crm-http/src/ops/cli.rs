//! The `crm` command: serve the API, migrate, seed the demo data, manage API keys.
//!
//! Configuration by flags or environment: `DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/crm`, created if missing), `CRM_LISTEN` (default
//! `127.0.0.1:8080`), `CRM_POOL_SIZE` (default 16), `CRM_READERS` (default 4),
//! `CRM_BODY_TIMEOUT` (default 30 s), `CRM_MAX_CONNECTIONS` (default: the open-file limit,
//! raised to its hard limit at start, less a reserve), `CRM_MAX_IN_FLIGHT_PER_KEY` (default
//! 64), `CRM_CORS_ORIGINS`, `CRM_METRICS_LISTEN`, `CRM_MAIL_URL` and `CRM_MAIL_FROM` (where
//! emails go and their sender; see `crm_http::mail`), `RUST_LOG` (default `info`; logs go
//! to standard error), `TZ` (the zone of "today"). All of them are
//! listed by `--help`; the value of `DATABASE_URL` is not shown there, since it may hold a
//! password.
//!
//! Zero configuration: without `DATABASE_URL`, when nothing answers on 127.0.0.1:5432 (or
//! with `--local-postgres`), a private cluster is started in `--data-dir` (`CRM_PGDATA`,
//! default `./.crm/pgdata`) for the duration of the command (see `crm_http::local_pg`);
//! `crm local-postgres status|stop` inspects or stops it.

// The doc comments of the flags below are clap's `--help` text, written for a terminal
// (`smtp://[user:pass@]host[:port]`), not rustdoc's Markdown.
#![allow(rustdoc::broken_intra_doc_links)]

use std::process::ExitCode;
use std::sync::Arc;

use clap::error::{ContextKind, ContextValue};
use clap::{CommandFactory, Parser, Subcommand};
use crm_core::ids::{ApiKeyId, UserId};
use crm_http::cors::Cors;
use crm_http::delivery::{self, WorkerOptions};
use crm_http::local_pg::{self, LocalPostgres};
use crm_http::mail::Mailer;
use crm_http::{
    App, RequestLimits, ServeOptions, auth, limits, serve, serve_metrics, shutdown_signal,
};
use crm_store_pg::migrate::{create_database_if_missing, migrate};
use crm_store_pg::{Store, StoreConfig};
use tracing_subscriber::EnvFilter;

#[derive(Debug, Parser)]
#[command(
    name = "crm",
    version,
    about = "CRM business-records API: categories, contracts, estimates, milestones, notes",
    after_help = ENVIRONMENT_HELP
)]
struct Cli {
    /// PostgreSQL URL (the database is created if missing) [default:
    /// postgres://postgres@127.0.0.1:5432/crm, or a private cluster when nothing answers there].
    // Its value is never shown in the help: it may hold a password.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, global = true)]
    database_url: Option<String>,
    /// Run a private PostgreSQL cluster in --data-dir even if a server answers on 127.0.0.1:5432.
    #[arg(long, global = true, conflicts_with = "database_url")]
    local_postgres: bool,
    /// The private cluster's data folder.
    #[arg(long, env = "CRM_PGDATA", default_value = ".crm/pgdata", global = true)]
    data_dir: std::path::PathBuf,
    /// Where emails go (serve, deliver): smtp://[user:pass@]host[:port][?tls=required|none],
    /// smtps://[user:pass@]host[:port] or file:///absolute/dir [default: .eml files under
    /// .crm/outbox/].
    // Its value is never shown in the help: it may hold a password.
    #[arg(long, env = "CRM_MAIL_URL", hide_env_values = true, global = true)]
    mail_url: Option<String>,
    /// The sender of emails (serve, deliver).
    #[arg(long, env = "CRM_MAIL_FROM", default_value = crm_http::mail::DEFAULT_FROM, global = true)]
    mail_from: String,
    #[command(subcommand)]
    command: Command,
}

/// Every environment variable the command reads, for `--help`.
const ENVIRONMENT_HELP: &str = "\
Environment:
  DATABASE_URL               the database, as --database-url (its value is never printed)
  CRM_PGDATA                 the private cluster's data folder, as --data-dir
  CRM_LISTEN                 serve: the address to listen on
  CRM_POOL_SIZE              serve: pooled connections for writes
  CRM_READERS                serve: shared read connections
  CRM_BODY_TIMEOUT           serve: seconds a request body may take to arrive
  CRM_REQUEST_TIMEOUT        serve: seconds a request may take once its body has arrived
  CRM_MAX_CONNECTIONS        serve: connections served at once
  CRM_MAX_IN_FLIGHT_PER_KEY  serve: requests one API key may have in progress
  CRM_RATE_LIMIT             serve: requests each API key may send, N/s or N/min [default: no limit]
  CRM_CORS_ORIGINS           serve: origins browsers may call from, comma-separated (`*`: any) [default: none]
  CRM_METRICS_LISTEN         serve: a separate address for GET /metrics [default: the API's]
  CRM_MAIL_URL               serve, deliver: where emails go, as --mail-url (its value is never printed)
  CRM_MAIL_FROM              serve, deliver: the sender of emails, as --mail-from
  RUST_LOG                   log filter [default: info]; logs go to standard error
  TZ                         the time zone of \"today\" (estimate expiry, invoice dates) [default: the system's]";

#[derive(Debug, Subcommand)]
enum Command {
    /// Create the database if needed, migrate, and serve the API.
    #[command(after_help = ENVIRONMENT_HELP)]
    Serve(ServeArgs),
    /// Deliver queued emails (the worker `serve` also runs), until SIGINT/SIGTERM.
    Deliver {
        /// Send what is due now (each email once), print what happened, then exit (status 0
        /// whatever the emails met: a retry is normal operation).
        #[arg(long)]
        once: bool,
    },
    /// Create the database if needed and apply the migrations.
    Migrate,
    /// Create the demo data set (idempotent).
    Seed {
        /// Print the created ids by kind as JSON.
        #[arg(long)]
        json: bool,
    },
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Show or stop the private PostgreSQL cluster in --data-dir (never starts one).
    LocalPostgres {
        #[command(subcommand)]
        command: LocalPostgresCommand,
    },
}

/// `crm serve`'s flags.
#[derive(Debug, clap::Args)]
struct ServeArgs {
    /// Address to listen on.
    #[arg(long, env = "CRM_LISTEN", default_value = "127.0.0.1:8080")]
    listen: String,
    /// Pooled connections for writes (1 to 1000).
    #[arg(long, env = "CRM_POOL_SIZE", default_value_t = 16, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1000))]
    pool_size: usize,
    /// Shared read connections, pipelined (1 to 64).
    #[arg(long, env = "CRM_READERS", default_value_t = 4, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=64))]
    readers: usize,
    /// Seconds a request's whole body may take to arrive after its headers (then 408).
    #[arg(long, env = "CRM_BODY_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    body_timeout: u64,
    /// Seconds the service may take to answer a request once its body has arrived (then 503
    /// with Retry-After).
    #[arg(long, env = "CRM_REQUEST_TIMEOUT", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=3600))]
    request_timeout: u64,
    /// Connections served at once (more are answered 503 and closed) [default: the
    /// open-file limit, raised to its hard limit at start, less pool + readers + 64; at most
    /// 1000000].
    #[arg(long, env = "CRM_MAX_CONNECTIONS", value_parser = clap::value_parser!(u64).range(1..=limits::MAX_CONNECTIONS))]
    max_connections: Option<u64>,
    /// Requests one API key may have in progress at once, 1 to 100000 (more are answered 429).
    #[arg(long, env = "CRM_MAX_IN_FLIGHT_PER_KEY", default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    max_in_flight_per_key: u64,
    /// Requests each API key may send, `N/s` or `N/min` (a token bucket of N per key,
    /// refilled over the second or minute, kept by this instance); over it the answer is 429
    /// with Retry-After. No limit without it.
    #[arg(long, env = "CRM_RATE_LIMIT")]
    rate_limit: Option<limits::Rate>,
    /// An origin browser clients may call from (scheme://host[:port], or `*`); repeat
    /// the flag or separate with commas. CORS is off without one.
    #[arg(
        long = "cors-origin",
        env = "CRM_CORS_ORIGINS",
        value_delimiter = ',',
        value_parser = cors_origin
    )]
    cors_origins: Vec<String>,
    /// Serve GET /metrics on this address instead of the API's.
    #[arg(long, env = "CRM_METRICS_LISTEN")]
    metrics_listen: Option<String>,
}

#[derive(Debug, Subcommand)]
enum LocalPostgresCommand {
    /// Whether the cluster runs and which crm process owns it.
    Status,
    /// Stop the cluster unless a running crm process owns it (that process stops it itself).
    Stop,
}

#[derive(Debug, Subcommand)]
enum KeysCommand {
    /// Create a key and print it (it is shown only once).
    Create {
        /// A name to recognise the key by.
        #[arg(long)]
        name: String,
        /// The administrator the key acts as.
        #[arg(long, default_value_t = 1)]
        user: i64,
    },
    /// List keys (never their secrets).
    List,
    /// Revoke a key by id (effective within seconds).
    Revoke {
        /// The key id (the number in `crm_<id>_…`).
        id: i64,
    },
}

type Failure = Box<dyn std::error::Error + Send + Sync>;

/// One `--cors-origin`, checked when the command line is read (before any database work).
fn cors_origin(origin: &str) -> Result<String, String> {
    Cors::new([origin])
        .map(|_| origin.to_owned())
        .map_err(|e| e.to_string())
}

fn main() -> ExitCode {
    // Log lines are written by a background thread; `lossy(false)` makes a full buffer wait
    // rather than drop lines, so every request keeps its one line. The thread writes through
    // a buffer and flushes after each batch it drains, so a burst costs one write, not one
    // per line.
    let (writer, _guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .finish(std::io::BufWriter::with_capacity(
            64 * 1024,
            std::io::stderr(),
        ));
    tracing_subscriber::fmt()
        .with_env_filter(log_filter())
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(writer)
        .init();
    let cli = parse_command_line();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run(cli)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The command line and environment, parsed; a refused value is reported by clap (exit
/// status 2), with a tip naming the environment variable when a flag it names came from
/// one (clap names only the flag: a refused `CRM_POOL_SIZE` reads as `--pool-size`, and
/// `DATABASE_URL` with `--local-postgres` as a conflict with `--database-url`).
fn parse_command_line() -> Cli {
    Cli::try_parse().unwrap_or_else(|mut error| {
        let args: Vec<String> = std::env::args_os()
            .skip(1)
            .map(|a| a.to_string_lossy().into_owned())
            .collect();
        let tips: Vec<_> = environment_sources(&error, &args)
            .into_iter()
            .map(|(flag, variable)| {
                format!("{flag} came from the environment variable {variable}").into()
            })
            .collect();
        if !tips.is_empty() {
            error.insert(ContextKind::Suggested, ContextValue::StyledStrs(tips));
        }
        error.exit()
    })
}

/// The flags named by `error` (the refused one, and the one it conflicts with) that came
/// from an environment variable, with that variable: set, and the flag not on the command
/// line.
fn environment_sources(error: &clap::Error, args: &[String]) -> Vec<(String, String)> {
    let mut named = Vec::new();
    for kind in [ContextKind::InvalidArg, ContextKind::PriorArg] {
        match error.get(kind) {
            Some(ContextValue::String(arg)) => named.push(arg.clone()),
            Some(ContextValue::Strings(args)) => named.extend(args.iter().cloned()),
            _ => {}
        }
    }
    let command = Cli::command();
    named
        .iter()
        .filter_map(|arg| {
            let flag = arg.split_whitespace().next()?;
            let long = flag.strip_prefix("--")?;
            let variable = std::iter::once(&command)
                .chain(command.get_subcommands())
                .flat_map(|c| c.get_arguments())
                .find(|a| a.get_long() == Some(long))?
                .get_env()?
                .to_str()?
                .to_owned();
            let given = args
                .iter()
                .any(|a| a == flag || a.starts_with(&format!("{flag}=")));
            let from_environment = !given && std::env::var_os(&variable).is_some();
            from_environment.then(|| (flag.to_owned(), variable))
        })
        .collect()
}

/// `RUST_LOG` (default `info`), except that tokio-postgres's statement log stays off at
/// every level: it prints each statement's parameters, which are request bodies and key
/// digests, and the contract is "never the key, never bodies".
fn log_filter() -> EnvFilter {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    match "tokio_postgres::query=off".parse() {
        Ok(directive) => filter.add_directive(directive),
        Err(_) => filter,
    }
}

/// The default server's address and URL.
const DEFAULT_ADDRESS: &str = "127.0.0.1:5432";
const DEFAULT_URL: &str = "postgres://postgres@127.0.0.1:5432/crm";

/// The database URL to use, starting a private cluster when there is nothing else.
async fn database(cli: &Cli) -> Result<(String, Option<LocalPostgres>), Failure> {
    if let Some(url) = &cli.database_url {
        return Ok((url.clone(), None));
    }
    if !cli.local_postgres && local_pg::answers(DEFAULT_ADDRESS).await {
        return Ok((DEFAULT_URL.to_owned(), None));
    }
    let cluster = LocalPostgres::start(&cli.data_dir).await?;
    Ok((cluster.database_url(), Some(cluster)))
}

async fn prepared_store(cli: &Cli, url: &str) -> Result<(Store, StoreConfig), Failure> {
    let mut config = StoreConfig::new(url);
    if let Command::Serve(args) = &cli.command {
        config.pool_size = args.pool_size;
        config.readers = args.readers;
    }
    if create_database_if_missing(&config).await? {
        tracing::info!("database created");
    }
    let applied = migrate(&config).await?;
    if !applied.is_empty() {
        tracing::info!(?applied, "migrations applied");
    }
    Ok((Store::new(&config)?, config))
}

/// The mail transport from --mail-url / --mail-from, announced in the log (never with a
/// password).
fn mailer(cli: &Cli) -> Result<Mailer, Failure> {
    let mailer = Mailer::new(cli.mail_url.as_deref(), &cli.mail_from)?;
    if cli.mail_url.as_deref().is_none_or(|u| u.trim().is_empty()) {
        tracing::info!(
            folder = crm_http::mail::DEFAULT_OUTBOX_DIR,
            "no --mail-url / CRM_MAIL_URL: emails are written as .eml files under {}/",
            crm_http::mail::DEFAULT_OUTBOX_DIR
        );
    } else {
        tracing::info!(transport = mailer.description(), "emails are delivered");
    }
    if let Some(warning) = mailer.warning() {
        tracing::warn!(transport = mailer.description(), "{warning}");
    }
    Ok(mailer)
}

async fn run(cli: Cli) -> Result<(), Failure> {
    if let Command::LocalPostgres { command } = &cli.command {
        return local_postgres(&cli.data_dir, command).await;
    }
    let (url, cluster) = database(&cli).await?;
    let outcome = command(&cli, &url).await;
    if let Some(cluster) = cluster {
        cluster.stop().await?;
    }
    outcome
}

async fn command(cli: &Cli, url: &str) -> Result<(), Failure> {
    // A bad mail configuration is reported before anything else happens.
    let mail = match &cli.command {
        Command::Serve { .. } | Command::Deliver { .. } => Some(mailer(cli)?),
        _ => None,
    };
    let (store, config) = prepared_store(cli, url).await?;
    match &cli.command {
        Command::Serve(args) => {
            // `mailer` is built for serve (the file outbox when nothing is configured).
            let mailer = mail.ok_or("no mail transport")?;
            serve_api(store, config, mailer, args).await?;
        }
        Command::Deliver { once } => {
            let Some(mailer) = mail else {
                return Ok(());
            };
            let (stop_tx, stop_rx) = delivery::stop_channel();
            let options = WorkerOptions {
                once: *once,
                ..WorkerOptions::default()
            };
            let mut worker =
                tokio::spawn(
                    async move { delivery::run(&config, &mailer, options, stop_rx).await },
                );
            let done = tokio::select! {
                done = &mut worker => done?,
                () = shutdown_signal() => {
                    let _ = stop_tx.send(true);
                    finish(worker).await?
                }
            };
            println!(
                "{} sent, {} to retry, {} failed",
                done.sent, done.retried, done.failed
            );
        }
        Command::Migrate => println!("database is migrated"),
        Command::Seed { json } => {
            let ids = store.seed().await?;
            if *json {
                println!("{}", serde_json::to_string_pretty(&ids)?);
            } else {
                println!(
                    "demo data ready: {} users, {} clients, {} projects, {} tax rates",
                    ids.users.len(),
                    ids.clients.len(),
                    ids.projects.len(),
                    ids.tax_rates.len()
                );
            }
        }
        Command::Keys { command } => keys(&store, command).await?,
        Command::LocalPostgres { .. } => {}
    }
    Ok(())
}

/// `crm serve`: the open-file limit raised, the listeners bound, the delivery worker
/// started, and the service run until SIGINT or SIGTERM.
async fn serve_api(
    store: Store,
    config: StoreConfig,
    mailer: Mailer,
    args: &ServeArgs,
) -> Result<(), Failure> {
    let file_limit = limits::raise_file_limit();
    let reserved = limits::reserved_files(args.pool_size, args.readers);
    let max_connections = match args.max_connections {
        Some(n) => usize::try_from(n).unwrap_or(usize::MAX),
        None => limits::default_max_connections(file_limit, reserved),
    };
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
    tracing::info!(address = %listener.local_addr()?, max_connections, "listening");
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
    };
    let mut app = App::with_limits(store, request_limits)?.with_cors(cors);
    if metrics_listener.is_some() {
        app = app.with_metrics_elsewhere();
    }
    let app = Arc::new(app);
    let upkeep = crm_http::upkeep::Upkeep::start(&app.store);
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
    let worker = tokio::spawn(async move {
        delivery::run(&config, &mailer, WorkerOptions::default(), worker_stopped).await
    });
    let options = ServeOptions {
        max_connections,
        ..ServeOptions::default()
    };
    let shutdown = async move {
        shutdown_signal().await;
        let _ = stop_worker.send(true);
    };
    serve(listener, app, options, shutdown).await?;
    drop(upkeep);
    let _ = stop.send(true);
    let _ = finish(worker).await;
    if let Some(task) = metrics_task {
        task.await??;
    }
    Ok(())
}

/// Waits for a delivery worker that was told to stop: a send in progress finishes first,
/// bounded by the worker's send timeout, and the log says so rather than leaving a
/// stopping process silent for up to that long.
async fn finish(
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

async fn local_postgres(
    data_dir: &std::path::Path,
    command: &LocalPostgresCommand,
) -> Result<(), Failure> {
    match command {
        LocalPostgresCommand::Status => {
            println!(
                "{}: {}",
                data_dir.display(),
                local_pg::state(data_dir).await?
            );
        }
        LocalPostgresCommand::Stop => match local_pg::stop_unowned(data_dir).await? {
            local_pg::ClusterState::Orphaned => println!("{}: stopped", data_dir.display()),
            found => println!("{}: {found}", data_dir.display()),
        },
    }
    Ok(())
}

async fn keys(store: &Store, command: &KeysCommand) -> Result<(), Failure> {
    match command {
        KeysCommand::Create { name, user } => {
            let user = UserId::new(*user).ok_or("--user must be a positive id")?;
            let name = name.trim();
            // `keys list` prints one line per key: a control character would break the
            // line, or send a terminal an escape sequence.
            if name.is_empty() || name.chars().count() > 250 || name.chars().any(char::is_control) {
                let rule = "--name must have 1 to 250 characters, none of them a control character";
                return Err(rule.into());
            }
            let secret = auth::new_secret()?;
            let id = store
                .create_api_key(name, user, &auth::digest(&secret))
                .await?
                .ok_or_else(|| format!("user {user} does not exist or is not an administrator"))?;
            println!("{}", auth::key_text(id, &secret));
            eprintln!("Key {id} created for user {user}. Store it now: it is not shown again.");
        }
        KeysCommand::List => {
            for key in store.list_api_keys().await? {
                let state = match key.revoked {
                    Some(at) => format!("revoked {at}"),
                    None => "active".to_owned(),
                };
                println!(
                    "{}\t{}\tuser {}\tcreated {}\t{state}",
                    key.id, key.name, key.user_id, key.created
                );
            }
        }
        KeysCommand::Revoke { id } => {
            let id = ApiKeyId::new(*id).ok_or("the key id must be positive")?;
            if !store.revoke_api_key(id).await? {
                return Err(format!("no active key with id {id}").into());
            }
            println!("key {id} revoked");
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    /// Every variable an option reads, in `command` and its subcommands.
    fn variables(command: &clap::Command, found: &mut Vec<String>) {
        for arg in command.get_arguments() {
            if let Some(name) = arg.get_env() {
                found.push(name.to_string_lossy().into_owned());
            }
        }
        for sub in command.get_subcommands() {
            variables(sub, found);
        }
    }

    #[test]
    fn the_help_lists_every_variable_an_option_reads() {
        let mut found = Vec::new();
        variables(&Cli::command(), &mut found);
        assert!(found.len() >= 10, "{found:?}");
        for name in found {
            assert!(
                ENVIRONMENT_HELP
                    .lines()
                    .any(|line| line.split_whitespace().next() == Some(name.as_str())),
                "{name} is read but not listed in ENVIRONMENT_HELP"
            );
        }
    }
}
