//! Shared helpers of the store tests.

use chrono::NaiveDate;
use crm_core::ids::UserId;
use crm_core::input::{RawMap, RawValue};
use crm_store_pg::seed::SeedIds;
use crm_store_pg::testing::TestDb;
use crm_store_pg::{Ctx, Store};

/// A fresh database with the demo data set, and a store on it.
pub struct Seeded {
    /// Dropping it drops the database.
    pub db: TestDb,
    /// The store.
    pub store: Store,
    /// The seeded ids.
    pub ids: SeedIds,
}

/// A fresh, migrated, seeded database.
pub async fn seeded() -> Seeded {
    let db = TestDb::new().await.expect("test database");
    let store = db.store().expect("store");
    let ids = store.seed().await.expect("seed");
    Seeded { db, store, ids }
}

/// Acting as the main administrator on 2026-11-22.
pub fn ctx() -> Ctx {
    Ctx {
        actor: UserId::new(1).unwrap(),
        today: day("2026-11-22"),
    }
}

/// A date.
pub fn day(s: &str) -> NaiveDate {
    s.parse().unwrap()
}

/// A form-like input from pairs of text.
pub fn raw(pairs: &[(&str, &str)]) -> RawMap {
    pairs
        .iter()
        .map(|(k, v)| (*k, RawValue::text(*v)))
        .collect()
}

/// A list of texts.
pub fn list(values: &[&str]) -> RawValue {
    RawValue::List(values.iter().map(|v| RawValue::text(*v)).collect())
}
