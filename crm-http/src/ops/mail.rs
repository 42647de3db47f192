//! Mail transports (API.md §10), configured by `--mail-url` / `CRM_MAIL_URL`:
//!
//! - `smtp://[user:pass@]host[:port]`: STARTTLS when the server offers it (API.md §10's
//!   default); `?tls=required` insists on it, `?tls=none` never uses it. With a user name
//!   and the default, a server that does not offer STARTTLS (or a man in the middle who
//!   strips the offer) receives the password in plain text: [`Mailer::warning`] says so,
//!   and the command logs it at start. Port 587 by default. `&ca=/path/ca.pem` (smtp and
//!   smtps) trusts the certificates of that PEM file besides the public roots.
//! - `smtps://[user:pass@]host[:port]`: implicit TLS, port 465 by default.
//! - `file:///absolute/dir`: one `.eml` file per message in that folder.
//!
//! Without a URL, messages are written under `.crm/outbox/` ([`DEFAULT_OUTBOX_DIR`]).
//! User name, password and `ca` are percent-decoded (`%XX`; any other `%`, and a `#` in the
//! user name or password, are taken as they are, so a password written without encoding
//! keeps working); a `#` after the host is refused (a fragment means nothing here); each
//! parameter may be given once. The password is never printed ([`MailUrl::redacted`], and
//! `Debug` hides it).

use std::path::PathBuf;
use std::time::Duration;

use crm_core::mail::{Outcome, classify};
use crm_store_pg::outbox::OutboxMessage;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart};
use lettre::transport::smtp::PoolConfig;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, percent_decode_str, utf8_percent_encode};

/// Where messages go when no mail URL is configured.
pub const DEFAULT_OUTBOX_DIR: &str = ".crm/outbox";
/// The sender when none is configured.
pub const DEFAULT_FROM: &str = "CRM <crm@localhost>";
/// How long connecting to the SMTP server may take (lettre's async transport bounds the
/// connection with it; the worker's send timeout bounds the whole attempt).
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(30);

/// TLS use over `smtp://`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SmtpTls {
    /// STARTTLS when the server offers it (the default).
    Opportunistic,
    /// STARTTLS or fail (`?tls=required`).
    Required,
    /// Plain text (`?tls=none`).
    None,
    /// Implicit TLS from the first byte (`smtps://`).
    Implicit,
}

/// A parsed `--mail-url`.
#[derive(Clone, PartialEq, Eq)]
pub enum MailUrl {
    /// An SMTP server.
    Smtp {
        /// Host name or address.
        host: String,
        /// Port.
        port: u16,
        /// TLS use.
        tls: SmtpTls,
        /// `user` and `password` for AUTH, if given.
        credentials: Option<(String, String)>,
        /// A PEM file of certificates to trust besides the public roots (`?ca=/path`), for
        /// a relay whose certificate a private authority signed.
        ca: Option<PathBuf>,
    },
    /// A folder receiving `.eml` files.
    File(PathBuf),
}

impl std::fmt::Debug for MailUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.redacted())
    }
}

/// Why a mail URL was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid --mail-url / CRM_MAIL_URL: {0}")]
pub struct MailUrlError(String);

fn bad(reason: impl Into<String>) -> MailUrlError {
    MailUrlError(reason.into())
}

/// Percent-decodes a part of the URL: `%XX` is always decoded, and a `%` that does not
/// start `%XX` stays as it is (a password written without encoding keeps working).
fn decode(text: &str, what: &str) -> Result<String, MailUrlError> {
    percent_decode_str(text)
        .decode_utf8()
        .map(|s| s.into_owned())
        .map_err(|_| {
            bad(format!(
                "the {what} is not valid UTF-8 once percent-decoded"
            ))
        })
}

impl MailUrl {
    /// Parses `smtp://…`, `smtps://…` or `file:///…` (the error never repeats the URL,
    /// which may hold a password).
    pub fn parse(url: &str) -> Result<MailUrl, MailUrlError> {
        let url = url.trim();
        let Some((scheme, rest)) = url.split_once("://") else {
            return Err(bad(
                "expected smtp://[user:pass@]host[:port], smtps://… or file:///absolute/dir",
            ));
        };
        match scheme.to_ascii_lowercase().as_str() {
            "file" => {
                let path = decode(rest, "path")?;
                if !path.starts_with('/') {
                    return Err(bad(
                        "a file URL needs an absolute folder: file:///absolute/dir",
                    ));
                }
                Ok(MailUrl::File(PathBuf::from(path)))
            }
            scheme @ ("smtp" | "smtps") => {
                let (authority, query) = match rest.split_once('?') {
                    Some((a, q)) => (a, Some(q)),
                    None => (rest, None),
                };
                let authority = authority.strip_suffix('/').unwrap_or(authority);
                if authority.contains('/') {
                    return Err(bad("an SMTP URL has no path"));
                }
                let (userinfo, hostport) = match authority.rsplit_once('@') {
                    Some((u, h)) => (Some(u), h),
                    None => (None, authority),
                };
                let credentials = match userinfo {
                    None => None,
                    Some(u) => {
                        let (user, pass) = u.split_once(':').unwrap_or((u, ""));
                        let user = decode(user, "user name")?;
                        if user.is_empty() {
                            return Err(bad("the user name is empty"));
                        }
                        Some((user, decode(pass, "password")?))
                    }
                };
                // A `#` in the user name or password is taken as it is (the last `@` ends
                // them); after it, it would start a fragment, which means nothing here.
                if hostport.contains('#') || query.is_some_and(|q| q.contains('#')) {
                    return Err(bad("a mail URL has no fragment (#)"));
                }
                let (host, port) = split_host_port(hostport)?;
                let mut tls = None;
                let mut ca = None;
                for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
                    match pair.split_once('=') {
                        Some(("tls", _)) if tls.is_some() => {
                            return Err(bad("tls is given twice"));
                        }
                        Some(("tls", value)) if scheme == "smtp" => {
                            tls = Some(match value {
                                "required" => SmtpTls::Required,
                                "none" => SmtpTls::None,
                                "opportunistic" => SmtpTls::Opportunistic,
                                _ => {
                                    return Err(bad("tls must be required, none or opportunistic"));
                                }
                            })
                        }
                        Some(("tls", _)) => {
                            return Err(bad("smtps:// always uses TLS; ?tls= is for smtp://"));
                        }
                        Some(("ca", _)) if ca.is_some() => {
                            return Err(bad("ca is given twice"));
                        }
                        Some(("ca", value)) => {
                            let path = decode(value, "ca path")?;
                            if !path.starts_with('/') {
                                return Err(bad("ca must be an absolute path to a PEM file"));
                            }
                            ca = Some(PathBuf::from(path));
                        }
                        _ => return Err(bad("the query parameters are tls and ca")),
                    }
                }
                let tls = match (scheme, tls) {
                    ("smtps", _) => SmtpTls::Implicit,
                    (_, tls) => tls.unwrap_or(SmtpTls::Opportunistic),
                };
                let port = match port {
                    Some(p) => p,
                    None if tls == SmtpTls::Implicit => 465,
                    None => 587,
                };
                if ca.is_some() && tls == SmtpTls::None {
                    return Err(bad("ca is for TLS; it cannot go with tls=none"));
                }
                Ok(MailUrl::Smtp {
                    host,
                    port,
                    tls,
                    credentials,
                    ca,
                })
            }
            _ => Err(bad(
                "the scheme must be smtp, smtps or file (smtp://host:port, smtps://host, file:///dir)",
            )),
        }
    }

    /// A description fit to print: the password becomes `***`.
    pub fn redacted(&self) -> String {
        match self {
            MailUrl::File(dir) => {
                let dir = dir.to_string_lossy();
                format!("file://{}", utf8_percent_encode(&dir, PATH))
            }
            MailUrl::Smtp {
                host,
                port,
                tls,
                credentials,
                ca,
            } => {
                let scheme = if *tls == SmtpTls::Implicit {
                    "smtps"
                } else {
                    "smtp"
                };
                // Encoded as in the URL, so that a user name holding `:` or `@` reads
                // unambiguously.
                let user = credentials
                    .as_ref()
                    .map(|(u, _)| format!("{}:***@", utf8_percent_encode(u, UNRESERVED)))
                    .unwrap_or_default();
                let host = if host.contains(':') {
                    format!("[{host}]")
                } else {
                    host.clone()
                };
                let mut query: Vec<String> = match tls {
                    SmtpTls::Required => vec!["tls=required".to_owned()],
                    SmtpTls::None => vec!["tls=none".to_owned()],
                    _ => Vec::new(),
                };
                if let Some(ca) = ca {
                    let ca = ca.to_string_lossy();
                    query.push(format!("ca={}", utf8_percent_encode(&ca, PATH)));
                }
                let query = if query.is_empty() {
                    String::new()
                } else {
                    format!("?{}", query.join("&"))
                };
                format!("{scheme}://{user}{host}:{port}{query}")
            }
        }
    }
}

/// RFC 3986's unreserved characters stay as they are; everything else is `%XX`.
const UNRESERVED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~');

/// A path: unreserved characters and `/`.
const PATH: &AsciiSet = &UNRESERVED.remove(b'/');

fn split_host_port(hostport: &str) -> Result<(String, Option<u16>), MailUrlError> {
    let (host, port) = if let Some(rest) = hostport.strip_prefix('[') {
        let (host, after) = rest
            .split_once(']')
            .ok_or_else(|| bad("an IPv6 host needs its closing ]"))?;
        let port = match after {
            "" => None,
            _ => Some(
                after
                    .strip_prefix(':')
                    .ok_or_else(|| bad("after an IPv6 host's closing ] comes nothing or :port"))?,
            ),
        };
        (host, port)
    } else {
        let (host, port) = match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        };
        if host.contains(':') {
            return Err(bad(
                "the host has a colon: an IPv6 address goes in brackets, as [::1]:25",
            ));
        }
        (host, port)
    };
    if host.is_empty() {
        return Err(bad("the host is missing"));
    }
    if host
        .chars()
        .any(|c| c.is_whitespace() || matches!(c, '/' | '@' | '?' | '#' | '%'))
    {
        // A host is written as it is: nothing in it is percent-decoded (and an IPv6 zone,
        // `%25eth0`, is not supported).
        return Err(bad("the host is not a valid host name"));
    }
    let port = match port {
        None => None,
        Some(p) => Some(
            p.parse::<u16>()
                .ok()
                .filter(|p| *p > 0)
                .ok_or_else(|| bad("the port must be a number from 1 to 65535"))?,
        ),
    };
    Ok((host.to_owned(), port))
}

/// Messages a worker sends at once by default: each SMTP exchange mostly waits on the
/// network (about 45 ms per message to a local server, docs/performance.md), so sixteen
/// connections in parallel keep a local relay busy.
pub const DEFAULT_CONCURRENCY: usize = 16;

/// A transport and a sender: sends outbox rows.
#[derive(Clone)]
pub struct Mailer {
    transport: Transport,
    from: Mailbox,
    description: String,
    /// A password over `smtp://` with opportunistic STARTTLS ([`Mailer::warning`]).
    plain_text_password: bool,
}

#[derive(Clone)]
enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    /// A folder: each message is written as `<kind>-<number>-email-<row>.eml`.
    File(std::path::PathBuf),
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mailer")
            .field("transport", &self.description)
            .field("from", &self.from.to_string())
            .finish()
    }
}

/// Why the mail configuration is unusable.
#[derive(Debug, thiserror::Error)]
pub enum MailConfigError {
    /// The URL.
    #[error(transparent)]
    Url(#[from] MailUrlError),
    /// The sender.
    #[error("invalid --mail-from / CRM_MAIL_FROM: {0}")]
    From(String),
    /// TLS set-up.
    #[error("cannot set up TLS for the mail server: {0}")]
    Tls(String),
    /// The outbox folder.
    #[error("cannot create the mail folder {0}: {1}")]
    Folder(String, std::io::Error),
}

impl Mailer {
    /// A mailer for `url` (`None`: files under [`DEFAULT_OUTBOX_DIR`]) sending as `from`,
    /// keeping up to [`DEFAULT_CONCURRENCY`] SMTP connections open. A file folder is
    /// created if missing.
    pub fn new(url: Option<&str>, from: &str) -> Result<Mailer, MailConfigError> {
        Self::with_connections(url, from, DEFAULT_CONCURRENCY)
    }

    /// [`Mailer::new`] keeping up to `connections` SMTP connections open (a worker sending
    /// that many messages at once reuses them).
    pub fn with_connections(
        url: Option<&str>,
        from: &str,
        connections: usize,
    ) -> Result<Mailer, MailConfigError> {
        let url = match url.map(str::trim).filter(|u| !u.is_empty()) {
            Some(u) => MailUrl::parse(u)?,
            None => MailUrl::File(PathBuf::from(DEFAULT_OUTBOX_DIR)),
        };
        let from: Mailbox = from.trim().parse().map_err(|e| {
            // lettre's text ("Invalid input") does not say what is expected; the value is
            // shown (debug-quoted: it holds no secret, and a control character stays
            // visible).
            MailConfigError::From(format!(
                "{from:?} is not one address ({e}); expected crm@example.com or \
                 CRM <crm@example.com>"
            ))
        })?;
        Self::from_url(&url, from, connections)
    }

    /// A mailer for a parsed URL, keeping up to `connections` SMTP connections open.
    pub fn from_url(
        url: &MailUrl,
        from: Mailbox,
        connections: usize,
    ) -> Result<Mailer, MailConfigError> {
        let transport = match url {
            MailUrl::File(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| MailConfigError::Folder(dir.display().to_string(), e))?;
                Transport::File(dir.clone())
            }
            MailUrl::Smtp {
                host,
                port,
                tls,
                credentials,
                ca,
            } => {
                let extra_roots = match ca {
                    Some(path) => {
                        let pem = std::fs::read(path).map_err(|e| {
                            MailConfigError::Tls(format!("cannot read {}: {e}", path.display()))
                        })?;
                        vec![Certificate::from_pem(&pem).map_err(|e| {
                            MailConfigError::Tls(format!("{}: {e}", path.display()))
                        })?]
                    }
                    None => Vec::new(),
                };
                let params = || {
                    let mut builder = TlsParameters::builder(host.clone());
                    for root in &extra_roots {
                        builder = builder.add_root_certificate(root.clone());
                    }
                    builder
                        .build()
                        .map_err(|e| MailConfigError::Tls(e.to_string()))
                };
                let tls = match tls {
                    SmtpTls::Opportunistic => Tls::Opportunistic(params()?),
                    SmtpTls::Required => Tls::Required(params()?),
                    SmtpTls::None => Tls::None,
                    SmtpTls::Implicit => Tls::Wrapper(params()?),
                };
                let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(host)
                    .port(*port)
                    .tls(tls)
                    .timeout(Some(SMTP_TIMEOUT))
                    .pool_config(
                        PoolConfig::new()
                            .max_size(u32::try_from(connections.max(1)).unwrap_or(u32::MAX)),
                    );
                if let Some((user, pass)) = credentials {
                    builder = builder.credentials(Credentials::new(user.clone(), pass.clone()));
                }
                Transport::Smtp(builder.build())
            }
        };
        let plain_text_password = matches!(
            url,
            MailUrl::Smtp {
                tls: SmtpTls::Opportunistic,
                credentials: Some(_),
                ..
            }
        );
        Ok(Mailer {
            transport,
            from,
            description: url.redacted(),
            plain_text_password,
        })
    }

    /// What an operator should know about this transport, fit to print: a password sent over
    /// `smtp://` with STARTTLS only when offered reaches, in plain text, a server that does
    /// not offer it (or whoever strips the offer on the way).
    pub fn warning(&self) -> Option<&'static str> {
        self.plain_text_password.then_some(
            "the mail password is sent in plain text to a server that does not offer STARTTLS \
             (or to a man in the middle who removes the offer); add ?tls=required to the mail \
             URL to insist on TLS, or ?tls=none to say plain text is intended",
        )
    }

    /// Where messages go, fit to print (no password).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Whether messages are written as files.
    pub fn is_file(&self) -> bool {
        matches!(self.transport, Transport::File(_))
    }

    /// The Message-ID of a row whose stored id is `stored` (`<uuid@crm.localhost>`, made
    /// by the database when the row was queued): the same unique part at the sender's
    /// domain (RFC 5322 §3.6.4 asks for a domain the sender may speak for), so a retry of
    /// the row keeps its id as long as `--mail-from` keeps its domain.
    pub fn message_id(&self, stored: &str) -> String {
        let unique = stored
            .trim_start_matches('<')
            .trim_end_matches('>')
            .split('@')
            .next()
            .unwrap_or_default();
        format!("<{unique}@{}>", self.from.email.domain())
    }

    /// Whether the sender is at `localhost` (the default, or a mistake): receiving servers
    /// refuse or mark such mail, and replies go nowhere.
    pub fn sender_is_local(&self) -> bool {
        let domain = self
            .from
            .email
            .domain()
            .trim_end_matches('.')
            .to_ascii_lowercase();
        domain == "localhost" || domain.ends_with(".localhost") || domain == "127.0.0.1"
    }

    /// The message of an outbox row, with From, To, Date (queuing time), Subject and the
    /// row's Message-ID (at the sender's domain: [`Mailer::message_id`]), and its two
    /// alternatives; with the files the row carries (the record's PDF, its e-invoice)
    /// attached after them (`multipart/mixed`), in order.
    pub fn message(&self, row: &OutboxMessage) -> Result<Message, String> {
        let to: Mailbox = row
            .recipient
            .parse()
            .map_err(|e| format!("invalid recipient address: {e}"))?;
        let alternatives = MultiPart::alternative_plain_html(row.text.clone(), row.html.clone());
        let body = match row.attachments.as_slice() {
            [] => alternatives,
            files => {
                let mut mixed = MultiPart::mixed().multipart(alternatives);
                for file in files {
                    let kind = ContentType::parse(&file.media_type)
                        .map_err(|e| format!("an attachment's media type: {e}"))?;
                    mixed = mixed.singlepart(
                        Attachment::new(file.name.clone()).body(file.data.clone(), kind),
                    );
                }
                mixed
            }
        };
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(row.subject.clone())
            .date(row.created.into())
            .message_id(Some(self.message_id(&row.message_id)))
            .multipart(body)
            .map_err(|e| format!("cannot build the message: {e}"))
    }

    /// Sends one row: sent, a temporary failure (connection, timeout, 4xx) or a permanent
    /// one (5xx, or a message that cannot be built).
    pub async fn send(&self, row: &OutboxMessage) -> Outcome {
        let message = match self.message(row) {
            Ok(m) => m,
            Err(e) => return Outcome::Permanent(e),
        };
        match &self.transport {
            Transport::Smtp(smtp) => match smtp.send(message).await {
                Ok(_) => Outcome::Sent,
                Err(e) => classify(e.status().map(u16::from), e.to_string()),
            },
            Transport::File(dir) => match write_eml(dir, &row.file_name(), &message).await {
                Ok(()) => Outcome::Sent,
                Err(e) => classify(None, e.to_string()),
            },
        }
    }
}

/// Writes `message` as `dir/name`, whole or not at all (a temporary file renamed into
/// place, so a reader never sees half a message and a retry overwrites the same name).
async fn write_eml(dir: &std::path::Path, name: &str, message: &Message) -> std::io::Result<()> {
    let path = dir.join(name);
    let partial = dir.join(format!(".{name}.partial"));
    tokio::fs::write(&partial, message.formatted()).await?;
    tokio::fs::rename(&partial, &path).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use crm_store_pg::messages::Attached;

    #[test]
    fn smtp_urls_give_host_port_tls_and_decoded_credentials() {
        assert_eq!(
            MailUrl::parse("smtp://mail.example:2525").unwrap(),
            MailUrl::Smtp {
                host: "mail.example".into(),
                port: 2525,
                tls: SmtpTls::Opportunistic,
                credentials: None,
                ca: None,
            }
        );
        assert_eq!(
            MailUrl::parse("smtp://me%40x.example:p%3Ass@mail.example?tls=required").unwrap(),
            MailUrl::Smtp {
                host: "mail.example".into(),
                port: 587,
                tls: SmtpTls::Required,
                credentials: Some(("me@x.example".into(), "p:ss".into())),
                ca: None,
            }
        );
        assert_eq!(
            MailUrl::parse("smtps://u:p@mail.example").unwrap(),
            MailUrl::Smtp {
                host: "mail.example".into(),
                port: 465,
                tls: SmtpTls::Implicit,
                credentials: Some(("u".into(), "p".into())),
                ca: None,
            }
        );
        assert_eq!(
            MailUrl::parse("smtp://relay.internal?tls=required&ca=/etc/ssl/private%20ca.pem")
                .unwrap(),
            MailUrl::Smtp {
                host: "relay.internal".into(),
                port: 587,
                tls: SmtpTls::Required,
                credentials: None,
                ca: Some("/etc/ssl/private ca.pem".into()),
            }
        );
        assert_eq!(
            MailUrl::parse("smtp://[::1]:2525?tls=none").unwrap(),
            MailUrl::Smtp {
                host: "::1".into(),
                port: 2525,
                tls: SmtpTls::None,
                credentials: None,
                ca: None,
            }
        );
        assert!(matches!(
            MailUrl::parse("smtp://127.0.0.1:25?tls=none").unwrap(),
            MailUrl::Smtp {
                tls: SmtpTls::None,
                ..
            }
        ));
        assert_eq!(
            MailUrl::parse("file:///var/mail/out").unwrap(),
            MailUrl::File("/var/mail/out".into())
        );
        // A password written without encoding keeps working: a `#` before the last `@`
        // and a `%` that does not start `%XX` are taken as they are.
        assert!(matches!(
            MailUrl::parse("smtp://u:50%off#1@relay:25?tls=required").unwrap(),
            MailUrl::Smtp { credentials: Some((user, password)), .. }
                if user == "u" && password == "50%off#1"
        ));
    }

    #[test]
    fn malformed_urls_are_clear_errors_that_never_repeat_the_password() {
        for bad in [
            "mail.example",
            "http://mail.example",
            "smtp://",
            "smtp://u:secret@:25",
            "smtp://u:secret@host:99999",
            "smtp://u:secret@host:x",
            "smtp://host?tls=maybe",
            "smtp://host?mode=x",
            "smtps://host?tls=none",
            "smtp://u:secret@host?ca=relative.pem",
            "smtp://u:secret@host?tls=none&ca=/ca.pem",
            "smtp://host/path",
            "file://relative/dir",
        ] {
            let e = MailUrl::parse(bad).unwrap_err().to_string();
            assert!(e.starts_with("invalid --mail-url"), "{bad}: {e}");
            assert!(!e.contains("secret"), "{bad}: {e}");
        }
    }

    /// Each refusal and the words that say why.
    #[test]
    fn ambiguous_urls_are_refused_rather_than_guessed() {
        for (bad, why) in [
            ("smtp://host:1:2", "IPv6 address goes in brackets"),
            ("smtp://::1", "IPv6 address goes in brackets"),
            ("smtp://[::1]25", "nothing or :port"),
            ("smtp://host?tls=none&tls=required", "tls is given twice"),
            ("smtp://host?ca=/a.pem&ca=/b.pem", "ca is given twice"),
            ("smtp://ex%61mple.com", "not a valid host name"),
            ("smtp://[fe80::1%25eth0]:25", "not a valid host name"),
            ("smtp://u:secret@host:25#top", "no fragment (#)"),
            ("smtp://host?tls=none#top", "no fragment (#)"),
        ] {
            let e = MailUrl::parse(bad).unwrap_err().to_string();
            assert!(e.contains(why), "{bad}: {e}");
            assert!(!e.contains("secret"), "{bad}: {e}");
        }
    }

    #[tokio::test]
    async fn a_password_that_may_travel_in_plain_text_is_warned_about() {
        let warning = |url: &str| {
            Mailer::new(Some(url), DEFAULT_FROM)
                .unwrap()
                .warning()
                .map(str::to_owned)
        };
        // The contract's default: STARTTLS only when offered.
        let said = warning("smtp://u:secret@relay").unwrap();
        assert!(said.contains("?tls=required"), "{said}");
        assert!(!said.contains("secret"), "{said}");
        assert!(warning("smtp://u@relay?tls=opportunistic").is_some());
        // TLS insisted on, plain text chosen, no password, or no SMTP: nothing to say.
        for quiet in [
            "smtp://u:p@relay?tls=required",
            "smtp://u:p@relay?tls=none",
            "smtps://u:p@relay",
            "smtp://relay",
            "file:///tmp",
        ] {
            assert_eq!(warning(quiet), None, "{quiet}");
        }
    }

    #[test]
    fn the_printed_form_hides_the_password() {
        let url = MailUrl::parse("smtps://user:hunter2@mail.example:465").unwrap();
        assert_eq!(url.redacted(), "smtps://user:***@mail.example:465");
        assert!(!format!("{url:?}").contains("hunter2"));
        let url = MailUrl::parse("smtp://u:hunter2@relay:25?tls=required&ca=/ca.pem").unwrap();
        assert_eq!(
            url.redacted(),
            "smtp://u:***@relay:25?tls=required&ca=/ca.pem"
        );
        // The user name is shown encoded, as in the URL: a decoded `@` or `:` would make
        // the printed form ambiguous. The same goes for an IPv6 host and the ca path.
        let url = MailUrl::parse("smtp://me%40x.example%3A1:pw@[::1]?ca=/a%26b%20c.pem").unwrap();
        assert_eq!(
            url.redacted(),
            "smtp://me%40x.example%3A1:***@[::1]:587?ca=/a%26b%20c.pem"
        );
        assert_eq!(
            MailUrl::parse(&url.redacted().replace("***", "pw")),
            Ok(url)
        );
        let url = MailUrl::parse("file:///var/mail/out%20box%23%251").unwrap();
        assert_eq!(url, MailUrl::File("/var/mail/out box#%1".into()));
        assert_eq!(url.redacted(), "file:///var/mail/out%20box%23%251");
        assert_eq!(MailUrl::parse(&url.redacted()), Ok(url));
    }

    #[test]
    fn a_bad_sender_is_refused_with_an_example_of_a_good_one() {
        for bad in [
            "not an address",
            "",
            "CRM <crm@>",
            "a@b.example, c@d.example",
        ] {
            let Err(e) = Mailer::new(Some("file:///tmp"), bad) else {
                panic!("{bad:?} was accepted as a sender");
            };
            let e = e.to_string();
            assert!(
                e.starts_with("invalid --mail-from / CRM_MAIL_FROM: "),
                "{e}"
            );
            assert!(e.contains(&format!("{bad:?}")), "{e}");
            assert!(e.contains("CRM <crm@example.com>"), "{e}");
        }
        let ok = Mailer::new(Some("file:///tmp"), " Sales <sales@example.com> ").unwrap();
        assert_eq!(ok.from.to_string(), "Sales <sales@example.com>");
    }

    #[test]
    fn an_unreadable_ca_file_is_a_start_up_error_naming_it() {
        let Err(e) = Mailer::new(
            Some("smtp://relay:25?ca=/nonexistent/ca.pem"),
            "CRM <crm@localhost>",
        ) else {
            panic!("an unreadable ca file was accepted");
        };
        let e = e.to_string();
        assert!(e.contains("/nonexistent/ca.pem"), "{e}");
    }

    #[test]
    fn message_ids_are_at_the_senders_domain_and_stable_for_a_row() {
        let acme = Mailer::new(Some("file:///tmp"), "Billing <billing@acme-co.example>").unwrap();
        assert_eq!(
            acme.message_id("<0b8e-41@crm.localhost>"),
            "<0b8e-41@acme-co.example>"
        );
        let formatted =
            String::from_utf8(acme.message(&row(Vec::new())).unwrap().formatted()).unwrap();
        assert!(
            formatted.contains("Message-ID: <34@acme-co.example>"),
            "{formatted}"
        );
        assert!(!acme.sender_is_local());
        let default = Mailer::new(Some("file:///tmp"), DEFAULT_FROM).unwrap();
        assert_eq!(default.message_id("<34@crm.localhost>"), "<34@localhost>");
        assert!(default.sender_is_local());
    }

    fn row(attachments: Vec<Attached>) -> OutboxMessage {
        OutboxMessage {
            id: 34,
            recipient: "billing@acme.example".into(),
            subject: "Estimate #12".into(),
            text: "Hello\r\n".into(),
            html: "<p>Hello</p>\r\n".into(),
            message_id: "<34@crm.localhost>".into(),
            created: chrono::Utc::now(),
            attempts: 0,
            resource_type: "estimate".into(),
            resource_id: 12,
            attachments,
        }
    }

    #[test]
    fn a_row_with_a_pdf_is_sent_as_mixed_with_the_pdf_named_by_the_record() {
        let mailer = Mailer::new(Some("file:///tmp"), DEFAULT_FROM).unwrap();
        let plain =
            String::from_utf8(mailer.message(&row(Vec::new())).unwrap().formatted()).unwrap();
        assert!(plain.contains("multipart/alternative"), "{plain}");
        assert!(!plain.contains("application/pdf"), "{plain}");
        let mut with_pdf = row(Vec::new());
        with_pdf.attachments.push(Attached {
            name: with_pdf.pdf_name(),
            media_type: "application/pdf".into(),
            data: b"%PDF-1.7 test".to_vec(),
        });
        let mixed = String::from_utf8(mailer.message(&with_pdf).unwrap().formatted()).unwrap();
        assert!(mixed.contains("Content-Type: multipart/mixed"), "{mixed}");
        assert!(mixed.contains("multipart/alternative"), "{mixed}");
        assert!(mixed.contains("Content-Type: application/pdf"), "{mixed}");
        assert!(mixed.contains("filename=\"estimate-12.pdf\""), "{mixed}");
        assert_eq!(row(Vec::new()).file_name(), "estimate-12-email-34.eml");
    }

    #[test]
    fn a_row_with_a_pdf_and_an_einvoice_carries_both_in_order() {
        let mailer = Mailer::new(Some("file:///tmp"), DEFAULT_FROM).unwrap();
        let files = vec![
            Attached {
                name: "invoice-7.pdf".into(),
                media_type: "application/pdf".into(),
                data: b"%PDF-1.7 test".to_vec(),
            },
            Attached {
                name: "INV-0007-xrechnung.xml".into(),
                media_type: "application/xml".into(),
                data: b"<Invoice/>".to_vec(),
            },
        ];
        let mixed = String::from_utf8(mailer.message(&row(files)).unwrap().formatted()).unwrap();
        let pdf = mixed.find("filename=\"invoice-7.pdf\"").expect(&mixed);
        let xml = mixed
            .find("filename=\"INV-0007-xrechnung.xml\"")
            .expect(&mixed);
        assert!(pdf < xml, "{mixed}");
        assert!(mixed.contains("Content-Type: application/xml"), "{mixed}");
        let mut bad = row(Vec::new());
        bad.attachments.push(Attached {
            name: "x".into(),
            media_type: "not a type".into(),
            data: Vec::new(),
        });
        assert!(mailer.message(&bad).is_err());
    }
}
