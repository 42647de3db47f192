//! Pure domain library of the CRM business-records API.
//!
//! No I/O, no async, no clock, no environment: today's date is always a parameter. The
//! store (`crm-store-pg`) and the service (`crm-http`) call into this crate for every rule.
//!
//! - [`money`]: decimal amounts with the API's input limits; the one rounding rule.
//! - [`totals`]: the estimate totals calculator with its two arithmetic policies.
//! - `vectors` (feature `vectors`): the embedded totals reference vectors and their JSON
//!   estimate format.
//! - [`validation`]: field errors with Laravel-style messages; references to check.
//! - [`references`]: the kinds of database references (what an id must be, where a name
//!   must be free, the category types they name).
//! - [`choice`]: closed sets of text values (`choice_enum!`).
//! - [`input`]: raw request input and the typed field readers.
//! - [`ids`], [`time`]: identifiers, timestamps.
//! - [`listing`]: page, limit, order, sort whitelists, search.
//! - [`mail`]: the outbox: recipients, the email list, and the delivery retry rules.
//! - [`tags`], [`slug`]: tag sets, category slugs.
//! - [`numbering`]: document number formats and their series (API.md §18).
//! - [`recurring`]: when a recurring invoice falls due: a schedule's dates and what a run
//!   on a day makes (API.md §20).
//! - [`reminder`]: payment reminders: the company's steps, and which is due on a day and
//!   at an hour (API.md §20).
//! - [`activity`]: who changed what (API.md §21): actors, entry types, which entries
//!   are chained, the activity list's filters.
//! - [`scope`]: what an API key may do: its scopes, its expiry, and the decision on a
//!   request (the clock is a parameter).
//! - [`replica`]: write-ahead log positions, a replica's lag, and which replica may answer
//!   a read that must see a key's last write (read-your-writes).
//! - [`conflict`]: the business conflicts (409s) and the resources served by id (404s).
//! - [`codes`]: the code lists of the standards (ISO 3166, ISO 4217, VATEX, IANA zones);
//!   [`party`]: what identifies a seller or a buyer (address, VAT id, Peppol, bank).
//! - [`company`], [`client`], [`tax_rate`], [`project`], [`user`]: the records around the
//!   areas (API.md §17): the seller, the buyers, the rates, the projects, the people.
//! - [`category`], [`contract`], [`estimate`], [`milestone`], [`note`], [`invoice`],
//!   [`payment`], [`credit_note`]: per area, the records, the commands built from valid input, and the
//!   area's rules (an invoice's balance, which its payments drive: [`invoice::balance`]).

pub mod activity;
pub mod bill;
pub mod category;
pub mod choice;
pub mod client;
pub mod codes;
pub mod company;
pub mod conflict;
pub mod contract;
pub mod credit_note;
pub mod currency;
pub mod estimate;
pub mod ids;
pub mod input;
pub mod invoice;
pub mod listing;
pub mod mail;
pub mod milestone;
pub mod money;
pub mod note;
pub mod numbering;
pub mod party;
pub mod payment;
pub mod project;
pub mod recurring;
pub mod references;
pub mod reminder;
pub mod replica;
pub mod scope;
pub mod slug;
pub mod tags;
pub mod tax_rate;
pub mod time;
pub mod totals;
pub mod units;
pub mod user;
pub mod validation;
#[cfg(feature = "vectors")]
pub mod vectors;
pub mod webhook;

/// What [`choice_enum!`] expands to needs, reachable from a crate that declares a choice
/// enum without depending on serde itself. Not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use serde;
}

/// Serialises a flag as the API's `"yes"` / `"no"`.
pub fn serde_yes_no<S: serde::Serializer>(flag: &bool, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(if *flag { "yes" } else { "no" })
}
