//! The store's one error type, and the mapping from PostgreSQL errors to domain outcomes.
//!
//! Unique-constraint violations are mapped by constraint name (the names are part of the
//! schema, see `migrations/`), so that a duplicate found by the database under concurrency
//! gives the same answer as one found by a read. A database that cannot be reached is
//! [`StoreError::Unavailable`], never a panic.

use crm_core::category::duplicate_name_error;
use crm_core::conflict::{Conflict, Resource};
use crm_core::validation::{FieldErrors, Rejected, message};

/// What can go wrong in a store operation.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The record addressed by id does not exist (or is not visible to the caller).
    #[error("{} not found", .0.not_found_message())]
    NotFound(Resource),
    /// The request names fields that are invalid given the database's content.
    #[error("invalid: {0}")]
    Invalid(FieldErrors),
    /// The records' state does not allow the operation.
    #[error("conflict: {0}")]
    Conflict(Conflict),
    /// The database cannot be reached or refuses connections for now.
    #[error("database unavailable: {0}")]
    Unavailable(String),
    /// An unexpected database error (a bug or a broken invariant). Its text carries the
    /// server's message and SQLSTATE, for the log.
    #[error("database error: {}", describe(.0))]
    Database(#[source] tokio_postgres::Error),
    /// Stored data that breaks an invariant of the domain types, or another internal fault.
    #[error("internal: {0}")]
    Internal(String),
    /// A configuration the store cannot use (a malformed database URL). Its text names the
    /// setting at fault, never any of the URL's text (which may hold a password).
    #[error("{0}")]
    Config(String),
    /// A migration problem (edited or unknown migration).
    #[error("migration: {0}")]
    Migration(String),
    /// `If-Match` does not name the record's current representation.
    #[error("precondition failed")]
    PreconditionFailed,
}

impl From<FieldErrors> for StoreError {
    fn from(errors: FieldErrors) -> Self {
        StoreError::Invalid(errors)
    }
}

impl From<Rejected> for StoreError {
    fn from(rejected: Rejected) -> Self {
        StoreError::Invalid(rejected.errors)
    }
}

impl From<Conflict> for StoreError {
    fn from(conflict: Conflict) -> Self {
        StoreError::Conflict(conflict)
    }
}

/// SQLSTATE classes and codes that mean "try again later" rather than "bug".
fn is_transient(code: &str) -> bool {
    code.starts_with("08") // connection exceptions
        || code.starts_with("57P") // admin/crash shutdown, cannot connect now
        || code == "53300" // too many connections
        || code == "40001" // serialization failure
        || code == "40P01" // deadlock detected
}

impl From<tokio_postgres::Error> for StoreError {
    fn from(error: tokio_postgres::Error) -> Self {
        if let Some(db) = error.as_db_error() {
            let code = db.code().code();
            if code == "23505" {
                match db.constraint() {
                    Some("categories_type_name_key") => {
                        return StoreError::Invalid(duplicate_name_error());
                    }
                    Some("milestones_project_title_key") => {
                        return StoreError::Conflict(Conflict::DuplicateMilestoneTitle);
                    }
                    Some("invoices_estimate_key") => {
                        return StoreError::Conflict(Conflict::EstimateAlreadyConverted);
                    }
                    // Two number formats of one kind whose numbers meet.
                    Some(
                        "invoices_number_key" | "estimates_number_key" | "credit_notes_number_key",
                    ) => {
                        return StoreError::Conflict(Conflict::NumberTaken);
                    }
                    _ => {}
                }
            }
            // An invoice deleted while it has payments. (The constraint is never broken by
            // an insert of a payment: that follows the lock of its invoice, which then
            // exists.)
            if code == "23503" && db.constraint() == Some("payments_invoice_id_fkey") {
                return StoreError::Conflict(Conflict::InvoiceHasPayments);
            }
            // A category deleted between a write's reference check and its insert or
            // update: the same 422 as when the check itself finds it missing.
            if code == "23503" {
                let field = match db.constraint() {
                    Some("estimates_category_id_fkey") => Some("bill_categoryid"),
                    // A client or project deleted between a write's reference check and
                    // its insert (their deletes lock the row and check for records first,
                    // so this is the write that lost the race).
                    Some("estimates_client_id_fkey" | "invoices_client_id_fkey") => {
                        Some("bill_clientid")
                    }
                    Some("estimates_project_id_fkey" | "invoices_project_id_fkey") => {
                        Some("bill_projectid")
                    }
                    Some("contracts_client_id_fkey") => Some("doc_client_id"),
                    Some("projects_client_id_fkey") => Some("client_id"),
                    Some("contracts_category_id_fkey") => Some("doc_categoryid"),
                    // A note's resource: its create is one statement, and the foreign key
                    // of the resource's column is the reference check.
                    Some(
                        "notes_client_id_fkey"
                        | "notes_lead_id_fkey"
                        | "notes_project_id_fkey"
                        | "notes_task_id_fkey"
                        | "notes_user_id_fkey",
                    ) => Some("noteresource_id"),
                    _ => None,
                };
                if let Some(field) = field {
                    return StoreError::Invalid(FieldErrors::single(
                        field,
                        message::invalid(field),
                    ));
                }
            }
            if is_transient(code) {
                return StoreError::Unavailable(describe(&error));
            }
            return StoreError::Database(error);
        }
        if error.is_closed()
            || std::error::Error::source(&error).is_some_and(|s| s.is::<std::io::Error>())
        {
            return StoreError::Unavailable(describe(&error));
        }
        StoreError::Database(error)
    }
}

/// The whole text of a driver error, for logs: the server's severity, SQLSTATE, message,
/// detail, hint and constraint, or else the error and each of its causes. (The driver's own
/// `Display` says only "db error".)
pub(crate) fn describe(error: &tokio_postgres::Error) -> String {
    if let Some(db) = error.as_db_error() {
        let mut text = format!("{} {}: {}", db.severity(), db.code().code(), db.message());
        if let Some(detail) = db.detail() {
            text.push_str(&format!(" (detail: {detail})"));
        }
        if let Some(hint) = db.hint() {
            text.push_str(&format!(" (hint: {hint})"));
        }
        if let Some(constraint) = db.constraint() {
            text.push_str(&format!(" (constraint: {constraint})"));
        }
        return text;
    }
    let mut text = error.to_string();
    let mut cause = std::error::Error::source(error);
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

impl From<deadpool_postgres::PoolError> for StoreError {
    fn from(error: deadpool_postgres::PoolError) -> Self {
        match error {
            deadpool_postgres::PoolError::Backend(e) => e.into(),
            other => StoreError::Unavailable(other.to_string()),
        }
    }
}

/// A stored value that does not fit its domain type (a broken invariant).
pub(crate) fn corrupt(what: &str, detail: impl std::fmt::Display) -> StoreError {
    StoreError::Internal(format!("stored {what} is invalid: {detail}"))
}
