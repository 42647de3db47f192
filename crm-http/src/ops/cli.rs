//! The `crm` command: serve the API (`serve`), deliver emails, migrate, seed the demo
//! data, manage API keys (`keys`) and the private PostgreSQL cluster. The binary's `main`
//! is [`main`].
//!
//! Configuration by flags or environment: `DATABASE_URL` (default
//! `postgres://postgres@127.0.0.1:5432/crm`, created if missing by `serve` and `migrate`
//! only), `CRM_LISTEN` (default
//! `127.0.0.1:8080`), `CRM_POOL_SIZE` (default 16), `CRM_READERS` (default 4),
//! `CRM_BODY_TIMEOUT` (default 30 s), `CRM_MAX_CONNECTIONS` (default: the open-file limit,
//! raised to its hard limit at start, less a reserve), `CRM_MAX_IN_FLIGHT_PER_KEY` (default
//! 64), `CRM_CORS_ORIGINS`, `CRM_METRICS_LISTEN`, `CRM_MAIL_URL` and `CRM_MAIL_FROM` (where
//! emails go and their sender; see [`crate::ops::mail`]), `RUST_LOG` (default `info`; logs go
//! to standard error), `TZ` (the zone of "today"). All of them are
//! listed by `--help`; the value of `DATABASE_URL` is not shown there, since it may hold a
//! password.
//!
//! Zero configuration: without `DATABASE_URL`, when nothing answers on 127.0.0.1:5432 (or
//! with `--local-postgres`), a private cluster is started in `--data-dir` (`CRM_PGDATA`,
//! default `./.crm/pgdata`) for the duration of the command (see [`crm_store_pg::local`]);
//! `crm local-postgres status|stop` inspects or stops it.

// The doc comments of the flags below are clap's `--help` text, written for a terminal
// (`smtp://[user:pass@]host[:port]`), not rustdoc's Markdown.
#![allow(rustdoc::broken_intra_doc_links)]

mod defaults;
mod keys;
mod log;
mod serve;
mod settings;
mod users;

use std::process::ExitCode;

use clap::error::{ContextKind, ContextValue};
use clap::{CommandFactory, Parser, Subcommand};
use crm_store_pg::activity::chain::ChainCheck;
use crm_store_pg::local::{self, LocalPostgres};
use crm_store_pg::migrate::{create_database_if_missing, migrate, require_database};
use crm_store_pg::{Store, StoreConfig};
use tracing_subscriber::EnvFilter;

use crate::ops::delivery::webhooks::{self, WebhookWorker};
use crate::ops::delivery::{self, WorkerOptions};
use crate::ops::mail::{self, Mailer};
use crate::ops::webhook::{Sender, SenderOptions};
use crate::shutdown_signal;
use keys::KeysCommand;
use serve::ServeArgs;
use users::UsersCommand;

#[derive(Debug, Parser)]
#[command(
    name = "crm",
    version,
    about = "CRM business-records API: categories, contracts, estimates, invoices, payments, milestones, notes and the emails they send",
    after_help = ENVIRONMENT_HELP
)]
struct Cli {
    /// PostgreSQL URL (serve and migrate create the database if missing; the other
    /// commands refuse a database that does not exist) [default:
    /// postgres://postgres@127.0.0.1:5432/crm, or a private cluster when nothing answers there].
    // Its value is never shown in the help: it may hold a password.
    #[arg(long, env = "DATABASE_URL", hide_env_values = true, global = true)]
    database_url: Option<String>,
    /// Run a private PostgreSQL cluster in --data-dir even if a server answers on 127.0.0.1:5432.
    #[arg(long, global = true, conflicts_with = "database_url")]
    local_postgres: bool,
    /// The private cluster's data folder.
    #[arg(
        long,
        env = "CRM_PGDATA",
        hide_env_values = true,
        default_value = ".crm/pgdata",
        global = true
    )]
    data_dir: std::path::PathBuf,
    #[command(subcommand)]
    command: Command,
}

/// Where emails go and who sends them (`serve`, `deliver`).
#[derive(Debug, clap::Args)]
pub(crate) struct MailArgs {
    /// Where emails go: smtp://[user:pass@]host[:port][?tls=required|none],
    /// smtps://[user:pass@]host[:port] or file:///absolute/dir [default: .eml files under
    /// .crm/outbox/].
    // Its value is never shown in the help: it may hold a password.
    #[arg(long, env = "CRM_MAIL_URL", hide_env_values = true)]
    mail_url: Option<String>,
    /// The sender of emails.
    #[arg(long, env = "CRM_MAIL_FROM", hide_env_values = true, default_value = mail::DEFAULT_FROM)]
    mail_from: String,
    /// Emails sent at once, each on its own SMTP connection (kept open between sends), 1 to
    /// 256.
    #[arg(long, env = "CRM_MAIL_CONCURRENCY", hide_env_values = true, default_value_t = mail::DEFAULT_CONCURRENCY as u64, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub(crate) mail_concurrency: u64,
}

/// Where webhooks may go and how many are sent at once (`serve`, `deliver`).
#[derive(Debug, clap::Args)]
pub(crate) struct WebhookArgs {
    /// Accept `http://` webhook endpoints (else `https://` only).
    #[arg(long, env = "CRM_WEBHOOK_ALLOW_HTTP", hide_env_values = true)]
    pub(crate) webhook_allow_http: bool,
    /// Accept webhook endpoints on loopback, private, link-local, multicast or unspecified
    /// addresses (checked on the resolved address at every delivery).
    #[arg(long, env = "CRM_WEBHOOK_ALLOW_PRIVATE", hide_env_values = true)]
    pub(crate) webhook_allow_private: bool,
    /// Webhook deliveries sent at once, 1 to 1024.
    #[arg(long, env = "CRM_WEBHOOK_CONCURRENCY", hide_env_values = true, default_value_t = webhooks::DEFAULT_CONCURRENCY as u64, value_parser = clap::value_parser!(u64).range(1..=1024))]
    pub(crate) webhook_concurrency: u64,
    /// Webhook deliveries sent at once to one endpoint, 1 to 256.
    #[arg(long, env = "CRM_WEBHOOK_PER_ENDPOINT", hide_env_values = true, default_value_t = webhooks::DEFAULT_PER_ENDPOINT as u64, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub(crate) webhook_per_endpoint: u64,
}

/// The flags of a database behind PgBouncer (`serve` and `deliver`).
#[derive(Debug, clap::Args)]
pub(crate) struct PgBouncerArgs {
    /// The database URL leads to PgBouncer in transaction pooling mode: statements are sent
    /// unnamed (none outlives its transaction) and nothing relies on a session.
    #[arg(long, env = "CRM_PGBOUNCER", hide_env_values = true)]
    pub(crate) pgbouncer: bool,
    /// A direct connection to the primary (not through PgBouncer) for the outbox worker's
    /// LISTEN and, with --pgbouncer, the migrations at start. Without it, behind PgBouncer,
    /// the worker polls (every 5 s) and the schema is not migrated at start (run `crm
    /// migrate` directly).
    #[arg(long, hide_env_values = true, env = "CRM_LISTEN_DATABASE_URL")]
    pub(crate) listen_database_url: Option<String>,
}

impl WebhookArgs {
    /// Where endpoints may point.
    pub(crate) fn rules(&self) -> crm_core::webhook::UrlRules {
        crm_core::webhook::UrlRules {
            allow_http: self.webhook_allow_http,
            allow_private: self.webhook_allow_private,
        }
    }

    /// The webhook channel and its worker settings (`once`: `crm deliver --once`).
    pub(crate) fn worker(&self, once: bool) -> Result<(WebhookWorker, WorkerOptions), Failure> {
        let sender = Sender::new(SenderOptions {
            allow_http: self.webhook_allow_http,
            allow_private: self.webhook_allow_private,
            ..SenderOptions::default()
        })?;
        let timeout = sender.options().timeout;
        let worker = WebhookWorker {
            sender,
            per_endpoint: usize::try_from(self.webhook_per_endpoint).unwrap_or(1),
        };
        let options = WorkerOptions {
            once,
            concurrency: usize::try_from(self.webhook_concurrency).unwrap_or(1),
            send_timeout: timeout,
            ..WorkerOptions::default()
        };
        Ok((worker, options))
    }
}

impl MailArgs {
    /// The delivery worker's settings these flags give (`once`: `crm deliver --once`).
    pub(crate) fn worker(&self, once: bool) -> WorkerOptions {
        WorkerOptions {
            once,
            concurrency: usize::try_from(self.mail_concurrency).unwrap_or(1),
            ..WorkerOptions::default()
        }
    }
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
  CRM_WRITE_TIMEOUT          serve: seconds a write to a client may wait without progress [default: 30]
  CRM_MAX_CONNECTIONS        serve: connections served at once [default: from the available memory, at most 4096]
  CRM_MAX_CONNECTIONS_PER_ADDRESS  serve: connections one client address may hold at once [default: 256]
  CRM_MAX_IN_FLIGHT_PER_KEY  serve: requests one API key may have in progress
  CRM_RATE_LIMIT             serve: requests each API key may send, N/s or N/min [default: no limit]
  CRM_REDIS_URL              serve: Redis shared by every instance, as --redis-url (its value is never printed)
  CRM_TRUSTED_PROXIES        serve: proxies whose X-Forwarded-For is believed, comma-separated CIDRs [default: none]
  CRM_REPLICA_URLS           serve: streaming replicas for reads, comma-separated (values never printed) [default: none]
  CRM_REPLICA_MAX_LAG        serve: a replica further behind is skipped [default: 5s]
  CRM_PGBOUNCER              serve, deliver: the database URL leads to PgBouncer in transaction mode (true/false) [default: false]
  CRM_LISTEN_DATABASE_URL    serve, deliver: a direct connection for LISTEN (and migrations behind PgBouncer)
  CRM_CORS_ORIGINS           serve: origins browsers may call from, comma-separated (`*`: any) [default: none]
  CRM_METRICS_LISTEN         serve: a separate address for GET /metrics [default: the API's]
  CRM_PUBLIC_URL             serve: the base of client links, <url>/c/<token> [default: http://<CRM_LISTEN>]
  CRM_COMPANY_NAME           serve: the company on client pages, PDFs and emails [default: CRM]
  CRM_LINK_TTL               serve: days a client link works [default: 180]
  CRM_PAPER                  serve: the PDFs' paper, a4 or letter [default: a4]
  CRM_TOTALS_POLICY          serve: the arithmetic of new estimates and invoices, crm or exact [default: crm]
  CRM_PUBLIC_RATE_LIMIT      serve: requests one address may send to /c/ pages [default: 60/min]
  CRM_AUTH_FAILURE_LIMIT     serve: failed authentications one address may have, N/s or N/min [default: 120/min]
  CRM_MAIL_ATTACH_PDF        serve: attach the record's PDF to its emails (true/false) [default: false]
  CRM_MAIL_ATTACH_EINVOICE   serve: attach invoices' e-invoices, ubl/cii/peppol/xrechnung/xrechnung-cii/facturx [default: none]
  CRM_PDF_CACHE              serve: memory for rendered PDFs, bytes or KiB/MiB/GiB, 0: off [default: 32MiB]
  CRM_MAIL_URL               serve, deliver: where emails go, as --mail-url (its value is never printed)
  CRM_MAIL_FROM              serve, deliver: the sender of emails, as --mail-from
  CRM_MAIL_CONCURRENCY       serve, deliver: emails sent at once [default: 16]
  CRM_WEBHOOK_ALLOW_HTTP     serve, deliver: accept http:// webhook endpoints (true/false) [default: false]
  CRM_WEBHOOK_ALLOW_PRIVATE  serve, deliver: accept webhook endpoints on private addresses (true/false) [default: false]
  CRM_WEBHOOK_CONCURRENCY    serve, deliver: webhook deliveries sent at once [default: 64]
  CRM_WEBHOOK_PER_ENDPOINT   serve, deliver: webhook deliveries sent at once to one endpoint [default: 8]
  CRM_TAKE_OVER_SETTINGS     serve, deliver: store this instance's shared settings over the database's (true/false) [default: false]
  RUST_LOG                   log filter [default: info]; logs go to standard error
  TZ                         the time zone of \"today\" (estimate expiry, invoice dates) [default: the system's]";

#[derive(Debug, Subcommand)]
enum Command {
    /// Create the database if needed, migrate, and serve the API.
    #[command(after_help = ENVIRONMENT_HELP)]
    Serve(Box<ServeArgs>),
    /// Deliver queued emails (the worker `serve` also runs), until SIGINT/SIGTERM.
    Deliver {
        /// Send what is due now (each email once), print what happened, then exit (status 0
        /// whatever the emails met: a retry is normal operation).
        #[arg(long)]
        once: bool,
        /// Where emails go and who sends them.
        #[command(flatten)]
        mail: MailArgs,
        /// Where webhooks may go.
        #[command(flatten)]
        webhooks: WebhookArgs,
        /// PgBouncer, and the direct connection beside it.
        #[command(flatten)]
        pgbouncer: PgBouncerArgs,
        /// Store this worker's webhook policy in the database over the one the instances
        /// sharing it agreed on (else a difference refuses the start).
        #[arg(long, env = "CRM_TAKE_OVER_SETTINGS", hide_env_values = true)]
        take_over_settings: bool,
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
    /// Manage administrators (each can have keys of its own).
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Check the records' audit trail (API.md §21).
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// Show or stop the private PostgreSQL cluster in --data-dir (never starts one).
    LocalPostgres {
        #[command(subcommand)]
        command: LocalPostgresCommand,
    },
}

#[derive(Debug, Subcommand)]
enum AuditCommand {
    /// Walk the chain of the activity entries of issued documents and name its first
    /// broken link (exit status 1), or print its length and head hash (keep that hash
    /// elsewhere: a later verify that still finds it proves nothing before it was
    /// rewritten).
    Verify,
}

#[derive(Debug, Subcommand)]
enum LocalPostgresCommand {
    /// Whether the cluster runs and which crm process owns it.
    Status,
    /// Stop the cluster unless a running crm process owns it (that process stops it itself).
    Stop,
}

/// What a command fails with: one line on standard error, exit status 1.
type Failure = Box<dyn std::error::Error + Send + Sync>;

/// The `crm` command: logs to standard error, parses the command line (exit status 2 on a
/// refused flag), runs the command on a multi-threaded runtime (exit status 1 when it
/// fails).
pub fn main() -> ExitCode {
    // Log lines go through one shared buffer ([`log`]): every request keeps its one line,
    // no thread is woken per line, and the access log's burst leaves in one write.
    let _flush = log::Flush::start();
    tracing_subscriber::fmt()
        .with_env_filter(log_filter())
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(log::LogWriter)
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
    parse(clap_command(), std::env::args_os()).unwrap_or_else(|mut error| {
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

/// The global flags that choose a database server, which `local-postgres` (it reads only
/// `--data-dir`) hides from its help and refuses on its command line.
const DATABASE_FLAGS: [&str; 2] = ["database_url", "local_postgres"];

/// The `crm` command as clap sees it, with [`DATABASE_FLAGS`] hidden from the help of
/// `local-postgres` and its subcommands. A global flag reaches every subcommand, except one
/// that has a flag of its own with the same id: each of those gets the same flag, hidden, so
/// it parses exactly as the global one does.
fn clap_command() -> clap::Command {
    let command = Cli::command();
    let hidden: Vec<clap::Arg> = command
        .get_arguments()
        .filter(|a| DATABASE_FLAGS.contains(&a.get_id().as_str()))
        .map(|a| a.clone().hide(true))
        .collect();
    let with_hidden = |command: clap::Command| command.args(hidden.iter().cloned());
    command.mut_subcommand("local-postgres", |local| {
        with_hidden(local)
            .mut_subcommand("status", with_hidden)
            .mut_subcommand("stop", with_hidden)
    })
}

/// Parses `args` (the program's name first) with `command`; refuses [`DATABASE_FLAGS`]
/// given on the command line of `local-postgres` (from the environment they are ignored
/// there, as a `DATABASE_URL` set for other commands must not get in its way).
fn parse(
    mut command: clap::Command,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> Result<Cli, clap::Error> {
    use clap::FromArgMatches;
    let matches = command.try_get_matches_from_mut(args)?;
    if matches.subcommand_name() == Some("local-postgres") {
        for name in DATABASE_FLAGS {
            if matches.value_source(name) == Some(clap::parser::ValueSource::CommandLine) {
                let flag = format!("--{}", name.replace('_', "-"));
                return Err(command.error(
                    clap::error::ErrorKind::ArgumentConflict,
                    format!("{flag} does not apply to local-postgres, which only reads --data-dir"),
                ));
            }
        }
    }
    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut command))
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

/// The database a command uses: its URL, the private cluster started for it (if any), and
/// why this one, for `serve`'s log.
struct Chosen {
    url: String,
    cluster: Option<LocalPostgres>,
    why: String,
}

/// The database URL to use, starting a private cluster when there is nothing else.
async fn database(cli: &Cli) -> Result<Chosen, Failure> {
    // An empty DATABASE_URL= is as good as none.
    if let Some(url) = cli.database_url.as_ref().filter(|u| !u.trim().is_empty()) {
        return Ok(Chosen {
            url: url.clone(),
            cluster: None,
            why: "given by --database-url / DATABASE_URL".to_owned(),
        });
    }
    if !cli.local_postgres && local::answers(DEFAULT_ADDRESS).await {
        warn_of_a_private_cluster(&cli.data_dir).await;
        return Ok(Chosen {
            url: DEFAULT_URL.to_owned(),
            cluster: None,
            why: format!("no DATABASE_URL, and a server answers on {DEFAULT_ADDRESS}"),
        });
    }
    if let Err(missing) = local::find_binaries() {
        let nothing_answers = (!cli.local_postgres).then_some(DEFAULT_ADDRESS);
        return Err(missing.advice(nothing_answers, "DATABASE_URL").into());
    }
    let cluster = LocalPostgres::start(&cli.data_dir).await?;
    let why = if cli.local_postgres {
        format!(
            "--local-postgres: the private cluster in {}",
            cli.data_dir.display()
        )
    } else {
        format!(
            "no DATABASE_URL and nothing answers on {DEFAULT_ADDRESS}: the private cluster in {} \
             (set DATABASE_URL to use a server of your own)",
            cli.data_dir.display()
        )
    };
    Ok(Chosen {
        url: cluster.database_url(),
        cluster: Some(cluster),
        why,
    })
}

/// Says so when a private cluster runs in `data_dir` (a `crm serve --local-postgres`, most
/// likely) while this command uses the server on the default address: a key created
/// there would be unknown to that service.
async fn warn_of_a_private_cluster(data_dir: &std::path::Path) {
    if let Ok(local::ClusterState::Owned(pid)) = local::state(data_dir).await {
        tracing::warn!(
            "the private PostgreSQL cluster in {} is running (crm process {pid}, started with \
             --local-postgres?), but this command uses the server on {DEFAULT_ADDRESS}; add \
             --local-postgres to use the cluster",
            data_dir.display()
        );
    }
}

async fn prepared_store(cli: &Cli, url: &str) -> Result<(Store, StoreConfig), Failure> {
    let mut config = StoreConfig::new(url);
    if let Command::Serve(args) = &cli.command {
        config.pool_size = args.pool_size;
        config.readers = args.readers;
        config.client = crm_store_pg::client::ClientSide {
            public_url: args
                .public_url
                .clone()
                .unwrap_or_else(|| format!("http://{}", args.listen)),
            link_ttl_days: args.link_ttl,
            company_name: args.company_name.clone(),
        };
        config.webhooks = args.webhooks.rules();
        config.replica_urls = args.replica_urls.clone();
        config.replica_max_lag = args.replica_max_lag;
        config.totals_policy = args.totals_policy;
    }
    let pgbouncer = match &cli.command {
        Command::Serve(args) => Some(&args.pgbouncer),
        Command::Deliver { pgbouncer, .. } => Some(pgbouncer),
        _ => None,
    };
    if let Some(args) = pgbouncer {
        config.pgbouncer = args.pgbouncer;
        config.listen_database_url = args.listen_database_url.clone();
        for url in config
            .replica_urls
            .iter()
            .chain(&config.listen_database_url)
        {
            config
                .pg_config_of(url)
                .map_err(|e| format!("--replica-url / --listen-database-url: {e}"))?;
        }
    }
    // Behind PgBouncer the schema is migrated over the direct connection (a migration
    // holds a session's advisory lock), or not at all.
    let direct = if config.pgbouncer {
        config.listen_database_url.clone().map(|url| StoreConfig {
            database_url: url,
            ..config.clone()
        })
    } else {
        Some(config.clone())
    };
    // Only `serve` and `migrate` create a database: for the others a database that is not
    // there is a mistyped name, said so, not a new empty database.
    let creates = matches!(cli.command, Command::Serve(_) | Command::Migrate);
    match &direct {
        Some(direct) => {
            if !creates {
                require_database(direct).await?;
            } else if create_database_if_missing(direct).await? {
                tracing::info!("database created");
            }
            let applied = migrate(direct).await?;
            if !applied.is_empty() {
                tracing::info!(?applied, "migrations applied");
            }
        }
        None => tracing::info!(
            "behind PgBouncer without --listen-database-url: the schema is not migrated at \
             start (run `crm migrate` with a direct DATABASE_URL)"
        ),
    }
    Ok((Store::new(&config)?, config))
}

/// The mail transport from --mail-url / --mail-from, announced in the log (never with a
/// password).
fn mailer(args: &MailArgs) -> Result<Mailer, Failure> {
    let connections = usize::try_from(args.mail_concurrency).unwrap_or(1);
    let mailer = Mailer::with_connections(args.mail_url.as_deref(), &args.mail_from, connections)?;
    if args.mail_url.as_deref().is_none_or(|u| u.trim().is_empty()) {
        tracing::info!(
            folder = mail::DEFAULT_OUTBOX_DIR,
            "no --mail-url / CRM_MAIL_URL: emails are written as .eml files under {}/",
            mail::DEFAULT_OUTBOX_DIR
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
    let Chosen { url, cluster, why } = database(&cli).await?;
    if let Command::Serve(_) = &cli.command {
        let target = StoreConfig::new(url.as_str()).target()?;
        if cluster.is_some() && !cli.local_postgres {
            tracing::warn!(database = %target, "using {target}: {why}");
        } else {
            tracing::info!(database = %target, "using {target}: {why}");
        }
    }
    let outcome = command(&cli, &url).await;
    if let Some(cluster) = cluster {
        cluster.stop().await?;
    }
    outcome
}

async fn command(cli: &Cli, url: &str) -> Result<(), Failure> {
    // A bad mail configuration is reported before anything else happens.
    let mail = match &cli.command {
        Command::Serve(args) => Some(mailer(&args.mail)?),
        Command::Deliver { mail, .. } => Some(mailer(mail)?),
        _ => None,
    };
    let (mut store, mut config) = prepared_store(cli, url).await?;
    let mut presentation = crate::documents::Presentation::default();
    // The settings every instance sharing the database must agree on, before any work.
    match &cli.command {
        Command::Serve(args) => {
            let given = args.public_url.is_some();
            let presentation = args.presentation();
            let ours = settings::of(
                Some((&config.client, &presentation, config.totals_policy)),
                given,
                args.webhooks.rules(),
            );
            let stored = settings::agree(&store, &ours, args.take_over_settings).await?;
            // Without --public-url, the one the instances sharing the database use.
            if let Some(url) = stored.get(settings::PUBLIC_URL).filter(|_| !given) {
                tracing::info!(public_url = %url, "the public URL stored in the database");
                config.client.public_url = url.clone();
                store = Store::new(&config)?;
            }
        }
        Command::Deliver {
            webhooks,
            take_over_settings,
            ..
        } => {
            let ours = settings::of(None, false, webhooks.rules());
            let stored = settings::agree(&store, &ours, *take_over_settings).await?;
            // The scheduler makes invoices, links and emails as the instances do.
            presentation = settings::adopt(&stored, &mut config);
            store = Store::new(&config)?;
        }
        _ => {}
    }
    match &cli.command {
        Command::Serve(args) => {
            // `mailer` is built for serve (the file outbox when nothing is configured).
            let mailer = mail.ok_or("no mail transport")?;
            serve::serve_api(store, config, mailer, args).await?;
        }
        Command::Deliver {
            once,
            mail: mail_args,
            webhooks: webhook_args,
            ..
        } => {
            let Some(mailer) = mail else {
                return Ok(());
            };
            let (stop_tx, stop_rx) = delivery::stop_channel();
            let options = mail_args.worker(*once);
            let (webhook_worker, webhook_options) = webhook_args.worker(*once)?;
            let webhook_config = config.clone();
            let webhook_stop = stop_rx.clone();
            let stop_rx_scheduler = stop_rx.clone();
            let mut worker =
                tokio::spawn(
                    async move { delivery::run(&config, &mailer, options, stop_rx).await },
                );
            let mut hooks = tokio::spawn(async move {
                webhooks::run_webhooks(
                    &webhook_config,
                    webhook_worker,
                    webhook_options,
                    webhook_stop,
                    &crate::metrics::Deliveries::none(),
                )
                .await
            });
            let mut scheduler = tokio::spawn(crate::ops::scheduler::run(
                store.clone(),
                std::sync::Arc::new(crate::documents::Documents::new(presentation)),
                std::sync::Arc::new(crate::ops::scheduler::SystemClock),
                crate::ops::scheduler::SchedulerOptions {
                    once: *once,
                    ..Default::default()
                },
                stop_rx_scheduler,
            ));
            let (done, hooked, scheduled) = tokio::select! {
                (done, hooked, scheduled) = async { tokio::join!(&mut worker, &mut hooks, &mut scheduler) } => (done?, hooked?, scheduled?),
                () = shutdown_signal() => {
                    let _ = stop_tx.send(true);
                    (serve::finish(worker).await?, hooks.await?, scheduler.await?)
                }
            };
            if scheduled != crate::ops::scheduler::Scheduled::default() {
                println!(
                    "recurring invoices: {} made, {} skipped; {} reminders sent",
                    scheduled.made, scheduled.skipped, scheduled.reminded
                );
            }
            println!(
                "{} sent, {} to retry, {} failed",
                done.sent, done.retried, done.failed
            );
            if hooked != delivery::Delivered::default() {
                println!(
                    "webhooks: {} delivered, {} to retry, {} failed",
                    hooked.sent, hooked.retried, hooked.failed
                );
            }
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
        Command::Keys { command } => keys::keys(&store, command).await?,
        Command::Users { command } => users::users(&store, command).await?,
        Command::Audit {
            command: AuditCommand::Verify,
        } => match store.verify_chain().await? {
            ChainCheck::Intact { entries, head } => {
                println!("the chain is intact: {entries} entries, head {head}");
            }
            ChainCheck::Broken { seq, reason, .. } => {
                return Err(format!("the chain is broken at place {seq}: {reason}").into());
            }
        },
        Command::LocalPostgres { .. } => {}
    }
    Ok(())
}

async fn local_postgres(
    data_dir: &std::path::Path,
    command: &LocalPostgresCommand,
) -> Result<(), Failure> {
    match command {
        LocalPostgresCommand::Status => {
            println!("{}: {}", data_dir.display(), local::state(data_dir).await?);
        }
        LocalPostgresCommand::Stop => match local::stop_unowned(data_dir).await? {
            local::ClusterState::Orphaned => println!("{}: stopped", data_dir.display()),
            found => println!("{}: {found}", data_dir.display()),
        },
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

    fn help_of(path: &[&str]) -> String {
        let mut command = clap_command();
        // As clap builds it to parse: the global flags copied into the subcommands.
        command.build();
        let mut at = &mut command;
        for name in path {
            at = at.find_subcommand_mut(name).expect("subcommand");
        }
        at.render_help().to_string()
    }

    #[test]
    fn local_postgres_hides_and_refuses_the_flags_that_choose_a_server() {
        for path in [
            &["local-postgres"][..],
            &["local-postgres", "status"],
            &["local-postgres", "stop"],
        ] {
            let help = help_of(path);
            assert!(help.contains("--data-dir"), "{path:?}: {help}");
            assert!(!help.contains("--database-url"), "{path:?}: {help}");
            assert!(!help.contains("--local-postgres"), "{path:?}: {help}");
        }
        // Other commands still show them.
        let help = help_of(&["migrate"]);
        assert!(help.contains("--database-url") && help.contains("--local-postgres"));

        let args = |list: &[&str]| {
            std::iter::once("crm")
                .chain(list.iter().copied())
                .map(std::ffi::OsString::from)
                .collect::<Vec<_>>()
        };
        for list in [
            &["local-postgres", "status", "--local-postgres"][..],
            &["--local-postgres", "local-postgres", "stop"],
            &[
                "--database-url",
                "postgres://x@h/db",
                "local-postgres",
                "status",
            ],
        ] {
            let error = parse(clap_command(), args(list)).expect_err("refused");
            assert_eq!(
                error.kind(),
                clap::error::ErrorKind::ArgumentConflict,
                "{list:?}: {error}"
            );
            assert!(
                error
                    .to_string()
                    .contains("does not apply to local-postgres"),
                "{list:?}: {error}"
            );
        }
        assert!(
            parse(
                clap_command(),
                args(&["local-postgres", "status", "--data-dir", "x"])
            )
            .is_ok()
        );
        assert!(parse(clap_command(), args(&["--local-postgres", "migrate"])).is_ok());
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
