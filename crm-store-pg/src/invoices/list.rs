//! `GET /invoices`: the shared bill list ([`crate::bills::list`]) with the invoice's sort
//! columns and shown-status filter.

use chrono::NaiveDate;
use crm_core::invoice::{InvoiceSort, InvoiceStatus};

use crate::bills::list::push_day;
use crate::sql::{SortKey, Sql, micros_key};

/// The whitelisted sort key (over the filtered select's columns); no key sorts by id.
pub(super) fn sort_key(sort: Option<InvoiceSort>) -> SortKey {
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
pub(super) fn push_status(s: &mut Sql, status: InvoiceStatus, today: NaiveDate) {
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
