//! Contracts: reads (one statement each, on a shared reader) and the record decoding; the
//! writes are in [`write`] and [`clone`].
//!
//! The status is never stored: each record's status is derived by crm-core
//! ([`ContractStatus::derive`]) from `published_at`, the two `*_signed_at` columns and
//! `date_end`, and the list's `status` filter and `doc_status` sort are SQL rendered from
//! [`ContractStatus::conditions`], so that the rule is written once.
//!
//! Locks taken by the writes:
//! - create: none beyond the rows it inserts (backing estimate, then contract);
//! - update, set tags, delete: the contract row `FOR UPDATE`;
//! - clone: the source contract row `FOR SHARE` (it cannot be deleted or edited while its
//!   pricing table is copied).

mod clone;
mod write;

use chrono::NaiveDate;
use crm_core::conflict::Resource;
use crm_core::contract::{
    Contract, ContractDates, ContractFacts, ContractListQuery, ContractSort, ContractStatus,
    Signing, SigningStatus, StatusConditions,
};
use crm_core::ids::{CategoryId, ClientId, ContractId, LeadId, Named, ProjectId};
use crm_core::listing::like_pattern;
use tokio_postgres::Row;

use crate::db::Db;
use crate::error::StoreError;
use crate::listed::Listed;
use crate::rows;
use crate::sql::{self, CountKeys, PageRequest, Part, SortKey, Sql, micros_key};
use crate::store::{Ctx, Store};

/// The record's columns except the body and the tags, over `contracts c`; the client's and
/// the category's names are read by id (never missing: NOT NULL foreign keys) rather than
/// joined, so that a read of ids only involves the contracts table alone (a join, even one
/// the planner drops, makes it read its key columns and rules out an index-only scan).
macro_rules! contract_columns {
    () => {
        "c.id, c.title, c.value, c.client_id, \
         (SELECT cl.company_name FROM clients cl WHERE cl.id = c.client_id) AS client_name, c.category_id, \
         (SELECT cat.name FROM categories cat WHERE cat.id = c.category_id) AS category_name, c.project_id, c.lead_id, c.date_start, c.date_end, c.created_at, \
         c.published_at, c.client_signed_at IS NOT NULL AS client_signed, \
         c.provider_signed_at IS NOT NULL AS provider_signed"
    };
}
pub(crate) use contract_columns;

/// The table the record is read from.
macro_rules! contract_from {
    () => {
        "contracts c"
    };
}

/// One contract with its body and tags, by id.
const CONTRACT_SQL: &str = concat!(
    "SELECT ",
    contract_columns!(),
    ", c.body, ARRAY(SELECT t.title FROM tags t WHERE t.contract_id = c.id ORDER BY t.position) AS tags FROM ",
    contract_from!(),
    " WHERE c.id = $1"
);

/// Body and tags of a page's rows (`p`), added after paging so that the filtered set
/// stays narrow.
const PAGE_EXTRA_COLUMNS: &str = ", (SELECT b.body FROM contracts b WHERE b.id = p.id) AS body, \
     ARRAY(SELECT t.title FROM tags t WHERE t.contract_id = p.id ORDER BY t.position) AS tags";

impl Store {
    /// One page of contracts matching the query, and how many match in all.
    pub async fn list_contracts(
        &self,
        ctx: Ctx,
        q: &ContractListQuery,
    ) -> Result<Listed<Contract>, StoreError> {
        let (mut filtered, today) = filtered_sql(ctx.today, q);
        let total =
            count_keys(ctx.today, q).map(|keys| sql::counted(&mut filtered, "contracts", keys));
        // By status: one part per status, each read in id order (no index orders by a
        // status that depends on the day).
        let parts = if q.params.sort == Some(ContractSort::Status) {
            status_parts(&mut filtered, &today, ctx.today, q)
        } else {
            Vec::new()
        };
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page_with(
            &*self.reader().await?,
            filtered,
            total,
            sort_key(q.params.sort),
            &parts,
            &request,
            PAGE_EXTRA_COLUMNS,
        )
        .await?;
        Listed::decoded(&found, |row| contract_from_row(row, ctx.today))
    }

    /// One contract.
    pub async fn contract(&self, ctx: Ctx, id: ContractId) -> Result<Contract, StoreError> {
        read_contract(&*self.reader().await?, ctx.today, id.get()).await
    }
}

/// The contracts matching the query's filters, with the columns the list shows and sorts
/// on (`status_key`: the derived status text, for the `doc_status` sort), and the
/// placeholder of today's date in it.
fn filtered_sql(today: NaiveDate, q: &ContractListQuery) -> (Sql, String) {
    let mut filtered = Sql::default();
    let today = filtered.param(today);
    filtered.push(&format!(
        "SELECT {}, {} AS status_key FROM {} WHERE TRUE",
        contract_columns!(),
        status_case(&today),
        contract_from!()
    ));
    if let Some(status) = q.filters.status {
        filtered.push(&format!(
            " AND {}",
            conditions_sql(status.conditions(), &today, Over::Table)
        ));
    }
    if let Some(client) = q.filters.client {
        filtered.push_with(" AND c.client_id = {}", client.get());
    }
    if let Some(category) = q.filters.category {
        filtered.push_with(" AND c.category_id = {}", category.get());
    }
    if let Some(search) = &q.params.search {
        filtered.push_with(" AND c.title ILIKE {}", like_pattern(search));
    }
    (filtered, today)
}

/// The key a sort orders by; no key → by id. Titles sort case-insensitively (the
/// `contracts_title_idx` index is on lower(title); upstream sorts with MySQL's
/// case-insensitive collation).
fn sort_key(sort: Option<ContractSort>) -> SortKey {
    match sort {
        None => SortKey::ID,
        Some(ContractSort::Title) => SortKey::new("lower(title)", "lower(title)", "{}::text"),
        Some(ContractSort::Status) => SortKey::new("status_key", "status_key", "{}::text"),
        Some(ContractSort::DateStart) => SortKey::new("date_start", "date_start::text", "{}::date"),
        Some(ContractSort::Created) => SortKey::timestamp("created_at", micros_key!("created_at")),
        Some(ContractSort::Value) => SortKey::new("value", "value::text", "{}::numeric").nullable(),
    }
}

/// The key of the owner filter (client or category) of `q`: `Some(None)` without one,
/// `None` with both or with a search (then counted row by row).
fn counted_owner(q: &ContractListQuery) -> Option<Option<String>> {
    if q.params.search.is_some() {
        return None;
    }
    match (q.filters.client, q.filters.category) {
        (None, None) => Some(None),
        (Some(client), None) => Some(Some(format!("c={}", client.get()))),
        (None, Some(category)) => Some(Some(format!("cat={}", category.get()))),
        (Some(_), Some(_)) => None,
    }
}

/// The maintained counts that total the contracts matching `q` (migration 0011's
/// `list_count_keys(contracts)`), when no search is given and one owner filter at most,
/// with or without a status: the status is read from its facts, the end date compared
/// with `today` as a range of keys. `None` otherwise (counted row by row).
fn count_keys(today: NaiveDate, q: &ContractListQuery) -> Option<CountKeys> {
    let owner = counted_owner(q)?;
    Some(match q.filters.status {
        None => CountKeys::key(owner.unwrap_or_else(|| "all".to_owned())),
        Some(status) => status_count_keys(today, status, owner.as_deref()),
    })
}

/// The maintained counts of the contracts showing `status` on `today` (within `owner`'s
/// keys when given): the status is read from its facts, the end date compared with
/// `today` as a range of keys.
fn status_count_keys(today: NaiveDate, status: ContractStatus, owner: Option<&str>) -> CountKeys {
    let within = owner.map(|owner| format!("{owner}|")).unwrap_or_default();
    let c = status.conditions();
    if !c.published {
        return CountKeys::key(format!("{within}st=draft"));
    }
    let signed: &[u8] = match c.fully_signed {
        Some(true) => &[1],
        Some(false) => &[0],
        None => &[0, 1],
    };
    let ranges = signed
        .iter()
        .map(|s| sql::dated_range(&format!("{within}st=pub|s={s}|end="), today, c.expired))
        .collect();
    CountKeys {
        exact: Vec::new(),
        ranges,
    }
}

/// The parts of the `doc_status` sort: one per status the query can show (the filtered
/// one only, with a status filter), each with its condition and its size (maintained
/// counts where [`count_keys`] has them, else counted among the filtered rows).
fn status_parts(
    filtered: &mut Sql,
    today_p: &str,
    today: NaiveDate,
    q: &ContractListQuery,
) -> Vec<Part> {
    let owner = counted_owner(q);
    ContractStatus::ALL
        .into_iter()
        .filter(|s| q.filters.status.is_none_or(|wanted| wanted == *s))
        .map(|s| {
            let condition = conditions_sql(s.conditions(), today_p, Over::Filtered);
            let size = match &owner {
                Some(owner) => sql::counted(
                    filtered,
                    "contracts",
                    status_count_keys(today, s, owner.as_deref()),
                ),
                None => format!("(SELECT count(*) FROM f WHERE {condition})"),
            };
            Part {
                value: s.as_str(),
                condition,
                size,
            }
        })
        .collect()
}

/// Reads one contract (in or out of a transaction); absent → `NotFound(Contract)`.
pub(crate) async fn read_contract(
    db: &impl Db,
    today: NaiveDate,
    id: i64,
) -> Result<Contract, StoreError> {
    match db.row_opt(CONTRACT_SQL, &[&id]).await? {
        Some(row) => contract_from_row(&row, today),
        None => Err(StoreError::NotFound(Resource::Contract)),
    }
}

/// The columns a status condition reads: the table's (`contracts c`) or the filtered
/// select's (whose signatures are the booleans `client_signed` and `provider_signed`).
#[derive(Clone, Copy)]
enum Over {
    Table,
    Filtered,
}

/// The SQL condition selecting contracts that show the status with these conditions, over
/// `over`'s columns, with `today` the placeholder of today's date. The end date is compared
/// as the expression `contracts_published_end_idx` holds beside the id (migration 0011), so
/// that a status read in id order skips rows in the index (and is estimated from the
/// expression's statistics).
fn conditions_sql(c: StatusConditions, today: &str, over: Over) -> String {
    let (p, both) = match over {
        Over::Table => (
            "c.",
            "(c.client_signed_at IS NOT NULL AND c.provider_signed_at IS NOT NULL)",
        ),
        Over::Filtered => ("", "(client_signed AND provider_signed)"),
    };
    let mut parts = vec![if c.published {
        format!("{p}published_at IS NOT NULL")
    } else {
        format!("{p}published_at IS NULL")
    }];
    if let Some(expired) = c.expired {
        parts.push(sql::date_before(&format!("{p}date_end"), today, expired));
    }
    if let Some(fully_signed) = c.fully_signed {
        parts.push(if fully_signed {
            both.to_owned()
        } else {
            format!("NOT {both}")
        });
    }
    format!("({})", parts.join(" AND "))
}

/// A `CASE` giving each contract's status text, from the same conditions (they are
/// exclusive and cover every contract, so no `ELSE` is needed).
fn status_case(today: &str) -> String {
    let arms: String = ContractStatus::ALL
        .into_iter()
        .map(|s| {
            format!(
                " WHEN {} THEN '{}'",
                conditions_sql(s.conditions(), today, Over::Table),
                s.as_str()
            )
        })
        .collect();
    format!("CASE{arms} END")
}

fn signing_status(signed: bool) -> SigningStatus {
    if signed {
        SigningStatus::Signed
    } else {
        SigningStatus::Unsigned
    }
}

/// Decodes a row of [`CONTRACT_SQL`] (or of the list), deriving the status on `today`.
fn contract_from_row(row: &Row, today: NaiveDate) -> Result<Contract, StoreError> {
    let published = rows::opt_timestamp(row, "published_at")?;
    let client_signed: bool = rows::get(row, "client_signed")?;
    let provider_signed: bool = rows::get(row, "provider_signed")?;
    let date_end: Option<NaiveDate> = rows::get(row, "date_end")?;
    let facts = ContractFacts {
        published: published.is_some(),
        client_signed,
        provider_signed,
        date_end,
    };
    Ok(Contract {
        id: rows::id(row, "id", ContractId::new)?,
        title: rows::get(row, "title")?,
        status: ContractStatus::derive(&facts, today),
        value: rows::opt_money(row, "value")?,
        body: rows::get(row, "body")?,
        client: Named {
            id: rows::id(row, "client_id", ClientId::new)?,
            name: rows::get(row, "client_name")?,
        },
        category: Named {
            id: rows::id(row, "category_id", CategoryId::new)?,
            name: rows::get(row, "category_name")?,
        },
        project_id: rows::opt_id(row, "project_id", ProjectId::new)?,
        lead_id: rows::opt_id(row, "lead_id", LeadId::new)?,
        dates: ContractDates {
            start: rows::get(row, "date_start")?,
            end: date_end,
            created: rows::timestamp(row, "created_at")?,
            published,
        },
        signing: Signing {
            client_status: signing_status(client_signed),
            provider_status: signing_status(provider_signed),
        },
        tags: rows::get(row, "tags")?,
    })
}
