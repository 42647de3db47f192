//! End-to-end tests of the service: a real server on 127.0.0.1:0 over a real PostgreSQL
//! database (fresh per test), driven over HTTP with reqwest. One module per area.

#![allow(clippy::unwrap_used, clippy::expect_used, unreachable_pub)]

mod activity;
mod browser;
mod categories;
mod client;
mod clients;
mod common;
mod company;
mod conditional;
mod conformance;
mod contracts;
mod credit_notes;
mod currency;
mod documents;
mod einvoices;
mod estimates;
mod foundation;
mod invoices;
mod lists;
mod milestones;
mod notes;
mod openapi;
mod operator;
mod outbox;
mod payments;
mod pdf_cache;
mod projects;
mod receiver;
mod recurring_invoices;
mod scopes;
mod sweep;
mod tax_rates;
mod unicode;
mod users;
mod webhook_sender;
mod webhooks;
