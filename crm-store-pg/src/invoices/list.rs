//! `GET /invoices`: the shared bill list ([`crate::bills::list`]) with the invoice's sort
//! columns and shown-status filter.

use chrono::NaiveDate;
use crm_core::invoice::{Invoice, InvoiceListQuery, InvoiceSort, InvoiceStatus};

use super::{SQL, read};
use crate::bills::list::{filtered, page};
use crate::sql::Sql;
use crate::{Ctx, Listed, Store, StoreError};

impl Store {
    /// `GET /invoices`: the page of invoices matching `q` (filters combine with AND;
    /// `status` is the shown status on `ctx.today`), whole, with the exact total.
    pub async fn list_invoices(
        &self,
        ctx: Ctx,
        q: &InvoiceListQuery,
    ) -> Result<Listed<Invoice>, StoreError> {
        let select = filtered(&SQL, q, |s, status| push_status(s, *status, ctx.today));
        let reader = self.reader().await?;
        let db = &*reader;
        let load = |ids: Vec<i64>| async move { read::load_many(db, &ids, ctx.today).await };
        page(db, select, sort_column(q.params.sort), q, load, |i| {
            i.id.get()
        })
        .await
    }
}

/// The whitelisted sort key's column (of the filtered select); no key sorts by id.
fn sort_column(sort: Option<InvoiceSort>) -> &'static str {
    match sort {
        None => "id",
        Some(InvoiceSort::Date) => "date",
        Some(InvoiceSort::DueDate) => "end_date",
        Some(InvoiceSort::FinalAmount) => "final_amount",
        Some(InvoiceSort::Created) => "created_at",
    }
}

/// The shown-status filter, rendered from crm-core's conditions (the one rule).
fn push_status(s: &mut Sql, status: InvoiceStatus, today: NaiveDate) {
    let conditions = status.conditions();
    let stored: Vec<i16> = conditions.stored.iter().map(|s| s.id()).collect();
    s.push_with(" AND b.status_id = ANY({})", stored);
    match conditions.overdue {
        Some(true) => s.push_with(" AND b.due_date < {}", today),
        Some(false) => s.push_with(" AND (b.due_date IS NULL OR b.due_date >= {})", today),
        None => s,
    };
}
