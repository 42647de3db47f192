//! The store tests' harness: [`Seeded`] (a fresh migrated, seeded database and a store on
//! it, as zero-to-production's `TestApp`) and the helpers every module shares.

use chrono::NaiveDate;
use crm_core::bill::ItemsRequest;
use crm_core::ids::UserId;
use crm_core::input::{RawMap, RawValue};
use crm_core::note::NewNote;
use crm_core::validation::FieldErrors;
use crm_store_pg::seed::SeedIds;
use crm_store_pg::testing::TestDb;
use crm_store_pg::{Ctx, Store, StoreError};
use tokio_postgres::Client;

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

impl Seeded {
    /// A plain connection to the test database (setting up states the API cannot reach,
    /// inspecting rows).
    pub async fn sql(&self) -> Client {
        self.db.client().await.expect("database connection")
    }

    /// The single `i64` a query returns.
    pub async fn scalar(&self, sql: &str) -> i64 {
        scalar(&self.sql().await, sql).await
    }

    /// Runs SQL statements on the test database.
    pub async fn exec(&self, sql: &str) {
        self.sql()
            .await
            .batch_execute(sql)
            .await
            .expect("statements ran");
    }

    /// The system-default category of `kind` (`"estimate"`, `"contract"`, …).
    pub async fn default_category(&self, kind: &str) -> i64 {
        default_category(&self.sql().await, kind).await
    }
}

/// The single `i64` a query returns, on a connection.
pub async fn scalar(c: &Client, sql: &str) -> i64 {
    c.query_one(sql, &[]).await.expect("one row").get(0)
}

/// The system-default category of `kind`, on a connection.
pub async fn default_category(c: &Client, kind: &str) -> i64 {
    let sql = "SELECT id FROM categories WHERE type = $1 AND system_default";
    c.query_one(sql, &[&kind])
        .await
        .expect("one system-default category of the type")
        .get(0)
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

/// A note titled "Title" with the description "Description", and `pairs` (sent after those,
/// so they may override them).
pub fn new_note(pairs: &[(&str, &str)]) -> NewNote {
    let mut all = vec![("note_title", "Title"), ("note_description", "Description")];
    all.extend_from_slice(pairs);
    NewNote::parse(&raw(&all)).unwrap()
}

/// A list of texts.
pub fn list(values: &[&str]) -> RawValue {
    RawValue::List(values.iter().map(|v| RawValue::text(*v)).collect())
}

/// The field errors of a result that must be a validation failure (a 422).
#[track_caller]
pub fn invalid<T: std::fmt::Debug>(result: Result<T, StoreError>) -> FieldErrors {
    match result {
        Err(StoreError::Invalid(errors)) => errors,
        other => panic!("expected a 422, got {other:?}"),
    }
}

/// The messages of one field (none when it did not fail).
pub fn messages(errors: &FieldErrors, field: &str) -> Vec<String> {
    errors
        .get(field)
        .map(<[String]>::to_vec)
        .unwrap_or_default()
}

/// One request item from pairs of text.
pub fn item(pairs: &[(&str, &str)]) -> RawValue {
    RawValue::Map(raw(pairs))
}

/// An items request: `items` and, when given, `tax_rate_ids`.
pub fn items(lines: Vec<RawValue>, tax_rate_ids: Option<&[String]>) -> ItemsRequest {
    let mut map = RawMap::new();
    map.insert("items", RawValue::List(lines));
    if let Some(ids) = tax_rate_ids {
        map.insert(
            "tax_rate_ids",
            RawValue::List(ids.iter().map(|i| RawValue::text(i.as_str())).collect()),
        );
    }
    ItemsRequest::parse(&map).unwrap()
}

/// The id of the seeded tax rate with `rate` and `status` (as text).
pub fn rate_id(s: &Seeded, rate: &str, status: &str) -> String {
    s.ids
        .tax_rates
        .iter()
        .find(|t| t.rate == rate && t.status == status)
        .unwrap()
        .id
        .to_string()
}

/// The fields of a new bill (estimate or invoice) for the first seeded client (Acme Inc,
/// with a contact email), dated 2026-11-01, in the default category of `category_type`;
/// `extra` adds or overrides fields.
pub async fn new_bill(s: &Seeded, category_type: &str, extra: &[(&str, &str)]) -> RawMap {
    let client = s.ids.clients[0].id.to_string();
    let category = s.default_category(category_type).await.to_string();
    let pairs = [
        ("bill_clientid", client.as_str()),
        ("bill_categoryid", category.as_str()),
        ("bill_date", "2026-11-01"),
    ];
    overridden(&pairs, extra)
}

/// A bill PATCH: the required category and date (the bill's own) plus `extra`.
pub fn bill_patch(category: i64, date: NaiveDate, extra: &[(&str, &str)]) -> RawMap {
    let (category, date) = (category.to_string(), date.to_string());
    overridden(
        &[
            ("bill_categoryid", category.as_str()),
            ("bill_date", date.as_str()),
        ],
        extra,
    )
}

/// `pairs` with `extra` added, replacing the pairs of the same names.
fn overridden(pairs: &[(&str, &str)], extra: &[(&str, &str)]) -> RawMap {
    let mut all: Vec<(&str, &str)> = pairs
        .iter()
        .filter(|(k, _)| !extra.iter().any(|(e, _)| e == k))
        .copied()
        .collect();
    all.extend_from_slice(extra);
    raw(&all)
}

/// Queued emails of the `resource_type` record `id` with `status`, in order:
/// (recipient, subject, template).
pub async fn queued_emails(
    s: &Seeded,
    resource_type: &str,
    id: i64,
    status: &str,
) -> Vec<(String, Option<String>, String)> {
    let client = s.db.client().await.unwrap();
    let rows = client
        .query(
            "SELECT recipient, subject, template FROM email_queue WHERE resource_type = $1 AND resource_id = $2 AND status = $3 ORDER BY id",
            &[&resource_type, &id, &status],
        )
        .await
        .unwrap();
    rows.iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect()
}
