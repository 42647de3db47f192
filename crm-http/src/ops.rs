//! Operator code, beside the request path rather than in it: the `crm` command ([`cli`]),
//! the mail transports ([`mail`]), the outbox delivery worker ([`delivery`]), the webhook
//! sender ([`webhook`]), the scheduler of recurring invoices ([`scheduler`]) and the periodic
//! upkeep of `crm serve` ([`upkeep`]). The private
//! PostgreSQL cluster is the store's (`crm_store_pg::local`), so the test harnesses can
//! start it too.

pub mod cli;
pub mod delivery;
pub mod mail;
pub mod scheduler;
pub mod upkeep;
pub mod webhook;
