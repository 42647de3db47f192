//! Using the store (`crm-store-pg`) directly, without the HTTP service: connect, migrate,
//! seed, then create a note and an estimate with line items. Commands are built the way the
//! service builds them: crm-core's `parse` over a [`RawMap`] (the decoded request shape),
//! which checks every field and reports every failure; the store checks the references
//! (client, category, tax rates) in its transaction.
//!
//! ```text
//! cargo run --example store_direct -- postgres://postgres@127.0.0.1:5432/crm_example
//! DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_example cargo run --example store_direct
//! ```
//!
//! It writes, so it needs its database named: an argument, else `DATABASE_URL`; without
//! either it stops before connecting. The database is created if missing; the seed is
//! idempotent.

use crm_core::bill::EstimateKind;
use std::error::Error;

use crm_core::bill::ItemsRequest;
use crm_core::category::CategoryListQuery;
use crm_core::estimate::NewEstimate;
use crm_core::ids::UserId;
use crm_core::input::{RawMap, RawValue};
use crm_core::note::NewNote;
use crm_store_pg::migrate::{create_database_if_missing, migrate};
use crm_store_pg::{Ctx, Store, StoreConfig};

type Failure = Box<dyn Error>;

/// A request-like input from `(field, text)` pairs.
fn raw(pairs: &[(&str, RawValue)]) -> RawMap {
    pairs.iter().cloned().collect()
}

fn text(s: impl Into<String>) -> RawValue {
    RawValue::text(s)
}

/// One line item as a nested map, as `items[n][…]` decodes.
fn item(description: &str, quantity: &str, rate: &str, unit: Option<&str>) -> RawValue {
    let mut fields = vec![
        ("description", text(description)),
        ("quantity", text(quantity)),
        ("rate", text(rate)),
    ];
    if let Some(unit) = unit {
        fields.push(("unit", text(unit)));
    }
    RawValue::Map(raw(&fields))
}

const USAGE: &str = "\
store_direct: the store without the service: migrate, seed, create a note and an estimate

usage: store_direct DATABASE_URL     (or the DATABASE_URL environment variable)

It writes to that database (created if missing): the demo data, a note and an estimate.
There is no default, so it never writes to a database nobody named.";

#[tokio::main]
async fn main() -> std::process::ExitCode {
    if crm_workspace::example_cli::help_requested(USAGE) {
        return std::process::ExitCode::SUCCESS;
    }
    crm_workspace::example_cli::finish("store_direct", run().await)
}

async fn run() -> Result<(), Failure> {
    let url = std::env::args()
        .nth(1)
        .or_else(|| std::env::var("DATABASE_URL").ok())
        .filter(|url| !url.trim().is_empty())
        .ok_or(
            "name the database to write to: store_direct DATABASE_URL, or set DATABASE_URL \
             (--help for usage)",
        )?;
    let config = StoreConfig::new(url.clone());
    if create_database_if_missing(&config).await? {
        println!("created the database");
    }
    let applied = migrate(&config).await?;
    println!(
        "migrated {} (newly applied: {applied:?})",
        crm_store_pg::pool::redact_password(&url)
    );
    let store = Store::new(&config)?;
    store.ping().await?;
    let seed = store.seed().await?;
    let client = seed.clients.first().ok_or("the seed has no client")?;
    println!(
        "seeded: {} clients, {} projects, {} tax rates",
        seed.clients.len(),
        seed.projects.len(),
        seed.tax_rates.len()
    );

    // Who acts and what day it is: the store has no clock and no session of its own.
    let ctx = Ctx {
        actor: UserId::new(1).ok_or("user 1")?,
        today: chrono::Utc::now().date_naive(),
    };

    // A note attached to the first client. An invalid input would come back as `Rejected`
    // with every failing field and its Laravel-style message.
    let new_note = NewNote::parse(&raw(&[
        ("note_title", text("Kick-off call")),
        (
            "note_description",
            text("Agreed on the scope; estimate to follow."),
        ),
        ("noteresource_type", text("client")),
        ("noteresource_id", RawValue::Number(client.id.to_string())),
    ]))?;
    let note = store.create_note(ctx, &new_note).await?;
    println!(
        "\nnote {} on {} {}:\n{}",
        note.id,
        client.name,
        client.id,
        serde_json::to_string_pretty(&note)?
    );

    // The estimate category: the system default of type `estimate`.
    let query = CategoryListQuery::parse(&raw(&[
        ("type", text("estimate")),
        ("sort", text("category_created")),
        ("order", text("asc")),
    ]))?;
    let category = store
        .list_categories(&query)
        .await?
        .items
        .into_iter()
        .next()
        .ok_or("no estimate category")?;

    // An estimate header, then its complete bill: two lines and a summary tax rate.
    let new_estimate = NewEstimate::parse(&raw(&[
        ("bill_clientid", RawValue::Number(client.id.to_string())),
        ("bill_categoryid", text(category.id.to_string())),
        ("bill_date", text(ctx.today.to_string())),
        ("bill_tax_type", text("summary")),
        ("bill_notes", text("Created with crm-store-pg directly.")),
    ]))?;
    let estimate = store
        .bills::<EstimateKind>()
        .create(ctx, &new_estimate)
        .await?;
    let rate = seed
        .tax_rates
        .iter()
        .find(|r| r.status == "enabled" && r.rate != "0.00")
        .ok_or("no enabled tax rate")?;
    let items = ItemsRequest::parse(&raw(&[
        (
            "items",
            RawValue::List(vec![
                item("Design", "12", "85.50", Some("hours")),
                item("Hosting (first year)", "1", "240", None),
            ]),
        ),
        (
            "tax_rate_ids",
            RawValue::List(vec![text(rate.id.to_string())]),
        ),
    ]))?;
    let estimate = store
        .bills::<EstimateKind>()
        .replace_items(ctx, estimate.id, items)
        .await?;
    println!(
        "\nestimate {} in category \"{}\" with tax {} ({}%): final amount {}",
        estimate.id, category.name, rate.name, rate.rate, estimate.totals.figures.final_amount
    );
    println!("{}", serde_json::to_string_pretty(&estimate)?);
    Ok(())
}
