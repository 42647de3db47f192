//! `GET /invoices`: the shared bill list ([`crate::bills::list`]) with the invoice's sort
//! columns and shown-status filter.

use chrono::NaiveDate;
use crm_core::invoice::{Invoice, InvoiceListQuery, InvoiceSort, InvoiceStatus};

use super::{SQL, read};
use crate::bills::list::{CountedStatus, count_keys, filtered, page, push_day};
use crate::sql::{self, SortKey, Sql, micros_key};
use crate::{Ctx, Listed, Store, StoreError};

impl Store {
    /// `GET /invoices`: the page of invoices matching `q` (filters combine with AND;
    /// `status` is the shown status on `ctx.today`), whole, with the exact total.
    pub async fn list_invoices(
        &self,
        ctx: Ctx,
        q: &InvoiceListQuery,
    ) -> Result<Listed<Invoice>, StoreError> {
        let mut select = filtered(&SQL, q, |s, status| push_status(s, *status, ctx.today));
        let status = q.filters.status.map(|status| {
            let c = status.conditions();
            CountedStatus {
                stored: c.stored.iter().map(|s| s.id().to_string()).collect(),
                before_today: c.overdue,
            }
        });
        let total = count_keys(q, status, ctx.today)
            .map(|keys| sql::counted(&mut select, "invoices", keys));
        let reader = self.reader().await?;
        let db = &*reader;
        let load = |ids: Vec<i64>| async move { read::load_many(db, &ids, ctx.today).await };
        page(db, select, total, sort_key(q.params.sort), q, load, |i| {
            i.id.get()
        })
        .await
    }
}

/// The whitelisted sort key (over the filtered select's columns); no key sorts by id.
fn sort_key(sort: Option<InvoiceSort>) -> SortKey {
    match sort {
        None => SortKey::ID,
        Some(InvoiceSort::Date) => SortKey::new("date", "date::text", "{}::date"),
        Some(InvoiceSort::DueDate) => {
            SortKey::new("end_date", "end_date::text", "{}::date").nullable()
        }
        Some(InvoiceSort::FinalAmount) => {
            SortKey::new("final_amount", "final_amount::text", "{}::numeric")
        }
        Some(InvoiceSort::Created) => SortKey::timestamp("created_at", micros_key!("created_at")),
    }
}

/// The shown-status filter, rendered from crm-core's conditions (the one rule).
fn push_status(s: &mut Sql, status: InvoiceStatus, today: NaiveDate) {
    let conditions = status.conditions();
    // One stored status as `=`, so that its index gives the rows in id order.
    match conditions.stored {
        [one] => s.push_with(" AND b.status_id = {}", one.id()),
        several => s.push_with(
            " AND b.status_id = ANY({})",
            several
                .iter()
                .map(|stored| stored.id())
                .collect::<Vec<i16>>(),
        ),
    };
    push_day(s, "b.due_date", today, conditions.overdue);
}
