//! Resource bounds under hostile or broken clients (issue 15): each test reproduces one
//! defect of the probe against the real `crm serve` process and asserts a bound — memory
//! from `/proc/<pid>/status`, answers, counts of log lines — never a timing. Waits are
//! bounded (`common::PATIENCE`) so a regression fails instead of hanging.

#![allow(clippy::unwrap_used, clippy::expect_used, unreachable_pub)]

mod common;
mod connections;
mod database;
mod keys;
mod memory;
mod protocol;
mod rate;
mod relay;
mod responses;
mod upkeep;
