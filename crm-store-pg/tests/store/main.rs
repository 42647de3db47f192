//! Integration tests of crm-store-pg against a real PostgreSQL server: one fresh database
//! per test (see `crm_store_pg::testing`), no mocks. One module per area.

mod common;
mod foundation;
