//! `crm users`: administrators besides the main one (API.md §17). A new administrator
//! gets keys with `crm keys create --user <email>`; what those keys create is theirs, and
//! acceptance notices of their estimates go to their address.

use clap::Subcommand;
use crm_core::user::NewUser;
use crm_store_pg::Store;

use super::Failure;

/// The `crm users` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum UsersCommand {
    /// Create an administrator and print its id.
    Create {
        /// Its email address (unique, ignoring case).
        #[arg(long)]
        email: String,
        /// Its name: the last word is the last name.
        #[arg(long)]
        name: String,
    },
}

/// Runs a `crm users` command.
pub(crate) async fn users(store: &Store, command: &UsersCommand) -> Result<(), Failure> {
    match command {
        UsersCommand::Create { email, name } => {
            let cmd = NewUser::parse(email, name).map_err(|errors| {
                let texts: Vec<String> = errors
                    .iter()
                    .flat_map(|(_, messages)| messages.iter().cloned())
                    .collect();
                texts.join(" ")
            })?;
            let user = store.create_user(&cmd).await.map_err(|e| match e {
                crm_store_pg::StoreError::Invalid(errors) => errors
                    .iter()
                    .flat_map(|(_, messages)| messages.iter().cloned())
                    .collect::<Vec<_>>()
                    .join(" ")
                    .into(),
                other => Failure::from(other),
            })?;
            println!("{}", user.id);
            eprintln!(
                "User {} ({}) created; make a key for it with: crm keys create --user {}",
                user.id, user.email, user.email
            );
        }
    }
    Ok(())
}
