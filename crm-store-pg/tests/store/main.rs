//! Integration tests of crm-store-pg against a real PostgreSQL server: one fresh database
//! per test (see `crm_store_pg::testing`), no mocks. One module per area.

#![allow(clippy::unwrap_used, clippy::expect_used, unreachable_pub)]

mod activity;
mod categories;
mod client;
mod common;
mod conditions;
mod contracts;
mod creates;
mod credit_notes;
mod currency;
mod estimates;
mod foundation;
mod harness;
mod invoices;
mod keys;
mod lists;
mod milestones;
mod notes;
mod numbers;
mod payments;
mod pgbouncer;
mod recurring;
mod reminders;
mod unicode;
mod webhooks;
