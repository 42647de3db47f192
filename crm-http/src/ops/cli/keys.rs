//! `crm keys`: create, list and revoke API keys. A key is printed once, at creation; the
//! store keeps only its digest. A key is made with its scopes (API.md §15: `read`,
//! `write`, `<area>:read`, `<area>:write`; `write`, everything, when none is given) and
//! optionally a lifetime; the list shows them with the minute each key was last used.

use chrono::{DateTime, Utc};
use clap::Subcommand;
use crm_core::ids::{ApiKeyId, UserId};
use crm_core::scope::{Grant, Lifetime, Scope, Scopes};
use crm_core::time::Timestamp;
use crm_store_pg::Store;
use crm_store_pg::keys::ApiKeyInfo;

use super::Failure;
use crate::auth;

/// The `crm keys` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum KeysCommand {
    /// Create a key and print it (it is shown only once).
    Create {
        /// A name to recognise the key by [default: the user's email address, or `key`].
        #[arg(long)]
        name: Option<String>,
        /// The administrator the key acts as: a user id, or the email address of one
        /// (`crm users create` makes administrators) [default: 1, the main administrator].
        #[arg(long, default_value = "1")]
        user: String,
        /// What the key may do: `read` (every GET), `write` (everything), or per area
        /// `<area>:read` / `<area>:write` (categories, contracts, estimates, invoices,
        /// milestones, notes, payments, emails, webhooks, company, clients, tax-rates,
        /// projects, users); `write` implies `read`. Repeat
        /// the flag or separate with commas [default: write].
        #[arg(long = "scope", value_name = "SCOPE", value_delimiter = ',')]
        scopes: Vec<Scope>,
        /// How long the key works: days or hours, such as `90d` or `12h` (1h to 3650d);
        /// after that it is refused with 401 [default: it never expires].
        #[arg(long, value_name = "DURATION")]
        expires_in: Option<Lifetime>,
    },
    /// List keys (never their secrets): scopes, expiry, and the minute each was last used.
    List,
    /// Revoke a key by id (effective within seconds).
    Revoke {
        /// The key id (the number in `crm_<id>_…`).
        id: i64,
    },
}

/// Runs a `crm keys` command.
pub(crate) async fn keys(store: &Store, command: &KeysCommand) -> Result<(), Failure> {
    match command {
        KeysCommand::Create {
            name,
            user,
            scopes,
            expires_in,
        } => {
            let user_id = match user.trim().parse::<i64>() {
                Ok(id) => UserId::new(id).ok_or("--user must be a positive id or an email")?,
                Err(_) => store
                    .admin_by_email(user.trim())
                    .await?
                    .ok_or_else(|| format!("no administrator has the email address {user}"))?,
            };
            let fallback = if user.contains('@') {
                user.trim()
            } else {
                "key"
            };
            let name = name.as_deref().unwrap_or(fallback).trim();
            // `keys list` prints one line per key: a control character would break the
            // line, or send a terminal an escape sequence.
            if name.is_empty() || name.chars().count() > 250 || name.chars().any(char::is_control) {
                let rule = "--name must have 1 to 250 characters, none of them a control character";
                return Err(rule.into());
            }
            let grant = grant(scopes, *expires_in, Utc::now())?;
            let secret = auth::new_secret()?;
            let id = store
                .create_api_key_with(name, user_id, &auth::digest(&secret), &grant)
                .await?
                .ok_or_else(|| {
                    format!("user {user_id} does not exist or is not an administrator")
                })?;
            println!("{}", auth::key_text(id, &secret));
            let expires = match grant.expires {
                Some(at) => format!("until {}", Timestamp(at)),
                None => "without expiry".to_owned(),
            };
            eprintln!(
                "Key {id} created for user {user_id} with scopes {}, {expires}. Store it now: it \
                 is not shown again.",
                grant.scopes
            );
        }
        KeysCommand::List => {
            let now = Utc::now();
            for key in store.list_api_keys().await? {
                println!("{}", line(&key, now));
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

/// What a new key is granted: the scopes given (`write` when none), and an expiry
/// `lifetime` after `now`.
fn grant(
    scopes: &[Scope],
    lifetime: Option<Lifetime>,
    now: DateTime<Utc>,
) -> Result<Grant, Failure> {
    let scopes = if scopes.is_empty() {
        Scopes::everything()
    } else {
        Scopes::of(scopes.iter().copied())
    };
    let expires = match lifetime {
        Some(lifetime) => Some(
            lifetime
                .expiry(now)
                .ok_or("--expires-in reaches past the last representable date")?,
        ),
        None => None,
    };
    Ok(Grant { scopes, expires })
}

/// One line of `crm keys list`: id, name, user, creation, state (active, revoked or
/// expired at `now`), scopes, expiry and last use (to the minute), tab-separated.
fn line(key: &ApiKeyInfo, now: DateTime<Utc>) -> String {
    let state = match (key.revoked, key.expires) {
        (Some(at), _) => format!("revoked {at}"),
        (None, Some(at)) if now >= at.0 => format!("expired {at}"),
        (None, _) => "active".to_owned(),
    };
    let expires = key
        .expires
        .map_or_else(|| "never".to_owned(), |at| at.to_string());
    let last_used = key.last_used.map_or_else(
        || "never".to_owned(),
        |at| at.0.format("%Y-%m-%dT%H:%MZ").to_string(),
    );
    format!(
        "{}\t{}\tuser {}\tcreated {}\t{state}\tscopes {}\texpires {expires}\tlast used {last_used}",
        key.id, key.name, key.user_id, key.created, key.scopes
    )
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;

    use super::*;

    fn at(day: u32, hour: u32, minute: u32, second: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, day, hour, minute, second)
            .unwrap()
    }

    fn key(revoked: Option<DateTime<Utc>>, expires: Option<DateTime<Utc>>) -> ApiKeyInfo {
        ApiKeyInfo {
            id: ApiKeyId::new(7).unwrap(),
            name: "dashboard".into(),
            user_id: UserId::new(1).unwrap(),
            created: Timestamp(at(1, 8, 0, 0)),
            revoked: revoked.map(Timestamp),
            scopes: Scopes::parse(["read", "notes:write"]).unwrap(),
            expires: expires.map(Timestamp),
            last_used: Some(Timestamp(at(20, 9, 31, 0))),
        }
    }

    #[test]
    fn a_new_key_may_do_everything_unless_scopes_are_given() {
        let now = at(25, 9, 30, 0);
        assert_eq!(grant(&[], None, now).unwrap(), Grant::everything());
        let scopes: Vec<Scope> = ["notes:read", "notes:write", "read"]
            .iter()
            .map(|s| s.parse().unwrap())
            .collect();
        let limited = grant(&scopes, Some("30d".parse().unwrap()), now).unwrap();
        assert_eq!(limited.scopes.to_string(), "read,notes:write");
        assert_eq!(
            limited.expires,
            Some(at(25, 9, 30, 0) + chrono::TimeDelta::days(30))
        );
    }

    #[test]
    fn the_list_shows_scopes_expiry_and_the_minute_of_last_use() {
        let expires = at(30, 0, 0, 0);
        assert_eq!(
            line(&key(None, Some(expires)), at(25, 0, 0, 0)),
            "7\tdashboard\tuser 1\tcreated 2026-11-01T08:00:00.000000Z\tactive\tscopes \
             read,notes:write\texpires 2026-11-30T00:00:00.000000Z\tlast used 2026-11-20T09:31Z"
        );
        let expired = line(&key(None, Some(expires)), expires);
        assert!(
            expired.contains("\texpired 2026-11-30T00:00:00.000000Z\t"),
            "{expired}"
        );
        let revoked = line(&key(Some(at(2, 0, 0, 0)), Some(expires)), expires);
        assert!(revoked.contains("\trevoked 2026-11-02T"), "{revoked}");
        let mut never = key(None, None);
        never.last_used = None;
        let never = line(&never, at(25, 0, 0, 0));
        assert!(
            never.ends_with("\texpires never\tlast used never"),
            "{never}"
        );
    }
}
