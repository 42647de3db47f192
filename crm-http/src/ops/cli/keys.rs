//! `crm keys`: create, list and revoke API keys. A key is printed once, at creation; the
//! store keeps only its digest.

use clap::Subcommand;
use crm_core::ids::{ApiKeyId, UserId};
use crm_store_pg::Store;

use super::Failure;
use crate::auth;

/// The `crm keys` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum KeysCommand {
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

/// Runs a `crm keys` command.
pub(crate) async fn keys(store: &Store, command: &KeysCommand) -> Result<(), Failure> {
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
