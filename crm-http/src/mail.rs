//! Mail transports (API.md §10), configured by `--mail-url` / `CRM_MAIL_URL`:
//!
//! - `smtp://[user:pass@]host[:port]`: STARTTLS when the server offers it; `?tls=required`
//!   insists on it, `?tls=none` never uses it. Port 587 by default. `&ca=/path/ca.pem`
//!   (smtp and smtps) trusts the certificates of that PEM file besides the public roots.
//! - `smtps://[user:pass@]host[:port]`: implicit TLS, port 465 by default.
//! - `file:///absolute/dir`: one `.eml` file per message in that folder.
//!
//! Without a URL, messages are written under `.crm/outbox/` ([`DEFAULT_OUTBOX_DIR`]).
//! User name and password are percent-decoded; the password is never printed
//! ([`MailUrl::redacted`], and `Debug` hides it).

use std::path::PathBuf;
use std::time::Duration;

use crm_core::mail::{Outcome, classify};
use crm_store_pg::outbox::OutboxMessage;
use lettre::message::{Mailbox, MultiPart};
use lettre::transport::smtp::PoolConfig;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::{AsyncFileTransport, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use percent_encoding::percent_decode_str;

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
                let (host, port) = split_host_port(hostport)?;
                let mut tls = if scheme == "smtps" {
                    SmtpTls::Implicit
                } else {
                    SmtpTls::Opportunistic
                };
                let mut ca = None;
                for pair in query.unwrap_or("").split('&').filter(|p| !p.is_empty()) {
                    match pair.split_once('=') {
                        Some(("tls", value)) if scheme == "smtp" => {
                            tls = match value {
                                "required" => SmtpTls::Required,
                                "none" => SmtpTls::None,
                                "opportunistic" => SmtpTls::Opportunistic,
                                _ => {
                                    return Err(bad("tls must be required, none or opportunistic"));
                                }
                            }
                        }
                        Some(("tls", _)) => {
                            return Err(bad("smtps:// always uses TLS; ?tls= is for smtp://"));
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
            MailUrl::File(dir) => format!("file://{}", dir.display()),
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
                let user = credentials
                    .as_ref()
                    .map(|(u, _)| format!("{u}:***@"))
                    .unwrap_or_default();
                let mut query: Vec<String> = match tls {
                    SmtpTls::Required => vec!["tls=required".to_owned()],
                    SmtpTls::None => vec!["tls=none".to_owned()],
                    _ => Vec::new(),
                };
                if let Some(ca) = ca {
                    query.push(format!("ca={}", ca.display()));
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

fn split_host_port(hostport: &str) -> Result<(String, Option<u16>), MailUrlError> {
    let (host, port) = if let Some(rest) = hostport.strip_prefix('[') {
        let (host, after) = rest
            .split_once(']')
            .ok_or_else(|| bad("an IPv6 host needs its closing ]"))?;
        (host, after.strip_prefix(':'))
    } else {
        match hostport.rsplit_once(':') {
            Some((h, p)) => (h, Some(p)),
            None => (hostport, None),
        }
    };
    if host.is_empty() {
        return Err(bad("the host is missing"));
    }
    if host
        .chars()
        .any(|c| c.is_whitespace() || matches!(c, '/' | '@' | '?' | '#'))
    {
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

/// A transport and a sender: sends outbox rows.
#[derive(Clone)]
pub struct Mailer {
    transport: Transport,
    from: Mailbox,
    description: String,
}

#[derive(Clone)]
enum Transport {
    Smtp(AsyncSmtpTransport<Tokio1Executor>),
    File(AsyncFileTransport<Tokio1Executor>),
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
    /// A mailer for `url` (`None`: files under [`DEFAULT_OUTBOX_DIR`]) sending as `from`.
    /// A file folder is created if missing.
    pub fn new(url: Option<&str>, from: &str) -> Result<Mailer, MailConfigError> {
        let url = match url.map(str::trim).filter(|u| !u.is_empty()) {
            Some(u) => MailUrl::parse(u)?,
            None => MailUrl::File(PathBuf::from(DEFAULT_OUTBOX_DIR)),
        };
        let from: Mailbox = from
            .parse()
            .map_err(|e| MailConfigError::From(format!("{e}")))?;
        Self::from_url(&url, from)
    }

    /// A mailer for a parsed URL.
    pub fn from_url(url: &MailUrl, from: Mailbox) -> Result<Mailer, MailConfigError> {
        let transport = match url {
            MailUrl::File(dir) => {
                std::fs::create_dir_all(dir)
                    .map_err(|e| MailConfigError::Folder(dir.display().to_string(), e))?;
                Transport::File(AsyncFileTransport::<Tokio1Executor>::new(dir))
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
                    .pool_config(PoolConfig::new().max_size(4));
                if let Some((user, pass)) = credentials {
                    builder = builder.credentials(Credentials::new(user.clone(), pass.clone()));
                }
                Transport::Smtp(builder.build())
            }
        };
        Ok(Mailer {
            transport,
            from,
            description: url.redacted(),
        })
    }

    /// Where messages go, fit to print (no password).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Whether messages are written as files.
    pub fn is_file(&self) -> bool {
        matches!(self.transport, Transport::File(_))
    }

    /// The message of an outbox row, with From, To, Date (queuing time), Subject and the
    /// row's Message-ID, and its two alternatives.
    pub fn message(&self, row: &OutboxMessage) -> Result<Message, String> {
        let to: Mailbox = row
            .recipient
            .parse()
            .map_err(|e| format!("invalid recipient address: {e}"))?;
        Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(row.subject.clone())
            .date(row.created.into())
            .message_id(Some(row.message_id.clone()))
            .multipart(MultiPart::alternative_plain_html(
                row.text.clone(),
                row.html.clone(),
            ))
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
            Transport::File(file) => match file.send(message).await {
                Ok(_) => Outcome::Sent,
                Err(e) => classify(None, e.to_string()),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
