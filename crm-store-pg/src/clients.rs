//! Clients (`/api/clients`, API.md §17): reads (one statement each, on a shared reader),
//! the list, and the writes, each one transaction.
//!
//! **Deletion and the records that name a client.** A delete locks the client's row
//! `FOR UPDATE`, then looks for its estimates, invoices, contracts, projects and tickets
//! ([`Conflict::ClientHasRecords`]). A write that names the client (an estimate's insert,
//! say) takes a key-share lock on the row through its foreign key, which conflicts with
//! that lock: either the write commits first and the delete finds its record (409), or
//! the delete commits first and the write's foreign key fails (422 on its client field).
//! Nothing is left pointing at a deleted client. The client's notes and its client users
//! go with it (their foreign keys cascade).

use crm_core::category::CategoryType;
use crm_core::client::{
    Client, ClientFields, ClientInput, ClientListQuery, ClientSort, ClientStatus,
};
use crm_core::conflict::{Conflict, Resource};
use crm_core::ids::{CategoryId, ClientId, UserId};
use crm_core::listing::like_pattern;
use crm_core::webhook::EventType;
use tokio_postgres::Row;
use tokio_postgres::error::SqlState;
use tokio_postgres::types::ToSql;

use crate::db::Db;
use crate::party::{address, address_columns, peppol};
use crate::sql::{self, PageRequest, SortKey, Sql, micros_key};
use crate::{Ctx, Listed, Store, StoreError, refs, rows};

/// The record's columns over `clients c`.
macro_rules! client_columns {
    () => {
        "c.id, c.company_name, c.contact_name, c.contact_email, c.address_line1, c.address_line2, \
         c.address_city, c.address_postcode, c.address_region, c.address_country, c.vat_id, \
         c.peppol_scheme, c.peppol_id, c.buyer_reference, c.currency, c.category_id, c.status, \
         c.creator_id, c.created_at, c.updated_at"
    };
}

/// One client by id.
const CLIENT_SQL: &str = concat!(
    "SELECT ",
    client_columns!(),
    " FROM clients c WHERE c.id = $1"
);

/// Locks one client.
const LOCK_SQL: &str = "SELECT id FROM clients WHERE id = $1 FOR UPDATE";

/// The system-default client category (migration 0001).
const DEFAULT_CATEGORY_SQL: &str =
    "SELECT id FROM categories WHERE type = $1 AND system_default ORDER BY id LIMIT 1";

/// The written columns, in the order of [`write_params`] (`$1`…`$16`).
macro_rules! written_columns {
    () => {
        concat!(
            "company_name, contact_name, contact_email, ",
            address_columns!(),
            ", vat_id, peppol_scheme, peppol_id, buyer_reference, currency, category_id, status"
        )
    };
}

/// A new client (`$17` its creator).
const INSERT_SQL: &str = concat!(
    "INSERT INTO clients (",
    written_columns!(),
    ", creator_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) \
     RETURNING id"
);

/// Every written column of client `$17`.
const UPDATE_SQL: &str = concat!(
    "UPDATE clients SET (",
    written_columns!(),
    ", updated_at) = ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, now()) \
     WHERE id = $17"
);

/// Whether a client has records that keep it (its notes and client users do not).
const HAS_RECORDS_SQL: &str = "SELECT \
     EXISTS (SELECT 1 FROM estimates WHERE client_id = $1) \
     OR EXISTS (SELECT 1 FROM invoices WHERE client_id = $1) \
     OR EXISTS (SELECT 1 FROM contracts WHERE client_id = $1) \
     OR EXISTS (SELECT 1 FROM projects WHERE client_id = $1) \
     OR EXISTS (SELECT 1 FROM tickets WHERE client_id = $1) \
     OR EXISTS (SELECT 1 FROM recurring_invoices WHERE client_id = $1) AS has_records";

const DELETE_SQL: &str = "DELETE FROM clients WHERE id = $1";

impl Store {
    /// `GET /clients/{id}`.
    pub async fn client(&self, id: ClientId) -> Result<Client, StoreError> {
        read(&*self.reader().await?, id.get()).await
    }

    /// `GET /clients`: one page of the clients matching the query, with the exact total
    /// (counted row by row).
    pub async fn list_clients(&self, q: &ClientListQuery) -> Result<Listed<Client>, StoreError> {
        let sort = match q.params.sort {
            None => SortKey::ID,
            Some(ClientSort::Name) => {
                SortKey::new("lower(company_name)", "lower(company_name)", "{}::text")
            }
            Some(ClientSort::Created) => {
                SortKey::timestamp("created_at", micros_key!("created_at"))
            }
        };
        let request = PageRequest::of(&q.params, q.binding());
        let found = sql::page(
            &*self.reader().await?,
            filtered_sql(q),
            None,
            sort,
            &request,
            "",
        )
        .await?;
        Listed::decoded(&found, from_row)
    }

    /// `POST /clients`.
    pub async fn create_client(&self, ctx: Ctx, cmd: &ClientInput) -> Result<Client, StoreError> {
        let tx = self.begin().await?;
        refs::require(&tx, cmd.references()).await?;
        let mut fields = cmd.apply(ClientFields::default());
        if fields.category.is_none() {
            fields.category = Some(default_category(&tx, CategoryType::Client).await?);
        }
        let status = status_of(&fields);
        let mut params = write_params(&fields, &status);
        let creator = ctx.actor.get();
        params.push(&creator);
        let id: i64 = tx.row(INSERT_SQL, &params).await?.get(0);
        let client = read(&tx, id).await?;
        tx.emit(EventType::ClientCreated, id, &client)?;
        tx.commit().await?;
        Ok(client)
    }

    /// `PATCH /clients/{id}`: the fields sent, under the row's lock.
    pub async fn update_client(
        &self,
        _ctx: Ctx,
        id: ClientId,
        cmd: &ClientInput,
    ) -> Result<Client, StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        let current = read(&tx, id.get()).await?;
        tx.if_match(async { Ok(current.clone()) }).await?;
        refs::require(&tx, cmd.references()).await?;
        let fields = cmd.apply(current.fields());
        let status = status_of(&fields);
        let mut params = write_params(&fields, &status);
        let raw_id = id.get();
        params.push(&raw_id);
        tx.run(UPDATE_SQL, &params).await?;
        let client = read(&tx, raw_id).await?;
        tx.emit(EventType::ClientUpdated, raw_id, &client)?;
        tx.commit().await?;
        Ok(client)
    }

    /// `DELETE /clients/{id}`: only a client without records (see the module's notes).
    pub async fn delete_client(&self, _ctx: Ctx, id: ClientId) -> Result<(), StoreError> {
        let tx = self.begin().await?;
        lock(&tx, id.get()).await?;
        tx.if_match(read(&tx, id.get())).await?;
        let has_records: bool = tx.row(HAS_RECORDS_SQL, &[&id.get()]).await?.get(0);
        if has_records {
            return Err(Conflict::ClientHasRecords.into());
        }
        tx.run(DELETE_SQL, &[&id.get()]).await.map_err(|e| {
            // A table that names clients and that the check above does not know: the same
            // 409, not a 500.
            if e.code() == Some(&SqlState::FOREIGN_KEY_VIOLATION) {
                Conflict::ClientHasRecords.into()
            } else {
                StoreError::from(e)
            }
        })?;
        tx.emit_deleted(EventType::ClientDeleted, id.get())?;
        tx.commit().await?;
        Ok(())
    }
}

/// The stored status text of `f` (`active` unless set).
fn status_of(f: &ClientFields) -> &'static str {
    f.status.unwrap_or(ClientStatus::Active).as_str()
}

/// The values of the written columns, in order.
fn write_params<'a>(f: &'a ClientFields, status: &'a &'static str) -> Vec<&'a (dyn ToSql + Sync)> {
    let a = &f.address;
    vec![
        &f.company_name,
        &f.contact_name,
        &f.contact_email,
        &a.line1,
        &a.line2,
        &a.city,
        &a.postcode,
        &a.region,
        &a.country,
        &f.vat_id,
        &f.peppol.scheme,
        &f.peppol.id,
        &f.buyer_reference,
        &f.currency,
        &f.category,
        status,
    ]
}

/// Locks a client's row; an unknown one is `NotFound(Client)`.
async fn lock(db: &impl Db, id: i64) -> Result<(), StoreError> {
    db.row_opt(LOCK_SQL, &[&id])
        .await?
        .map(drop)
        .ok_or(StoreError::NotFound(Resource::Client))
}

/// Reads one client (in or out of a transaction).
pub(crate) async fn read(db: &impl Db, id: i64) -> Result<Client, StoreError> {
    let row = db
        .row_opt(CLIENT_SQL, &[&id])
        .await?
        .ok_or(StoreError::NotFound(Resource::Client))?;
    from_row(&row)
}

/// The system-default category of `kind` (what a new record without one gets).
pub(crate) async fn default_category(db: &impl Db, kind: CategoryType) -> Result<i64, StoreError> {
    let row = db.row(DEFAULT_CATEGORY_SQL, &[&kind.as_str()]).await?;
    rows::get(&row, "id")
}

/// The clients matching the query's filters and search (name, contact name and email,
/// VAT id).
fn filtered_sql(q: &ClientListQuery) -> Sql {
    let mut s = Sql::new(concat!(
        "SELECT ",
        client_columns!(),
        " FROM clients c WHERE TRUE"
    ));
    let f = &q.filters;
    if let Some(status) = f.status {
        s.push_with(" AND c.status = {}", status.as_str());
    }
    if let Some(category) = f.category {
        s.push_with(" AND c.category_id = {}", category.get());
    }
    if let Some(country) = &f.country {
        s.push_with(" AND c.address_country = {}", country.clone());
    }
    if let Some(search) = &q.params.search {
        let p = s.param(like_pattern(search));
        s.push(&format!(
            " AND (c.company_name ILIKE {p} OR c.contact_name ILIKE {p} \
             OR c.contact_email ILIKE {p} OR c.vat_id ILIKE {p})"
        ));
    }
    s
}

/// Decodes a row of [`CLIENT_SQL`] (or of the list).
fn from_row(row: &Row) -> Result<Client, StoreError> {
    Ok(Client {
        id: rows::id(row, "id", ClientId::new)?,
        company_name: rows::get(row, "company_name")?,
        contact_name: rows::get(row, "contact_name")?,
        contact_email: rows::get(row, "contact_email")?,
        address: address(row)?,
        vat_id: rows::get(row, "vat_id")?,
        peppol: peppol(row)?,
        buyer_reference: rows::get(row, "buyer_reference")?,
        currency: rows::get(row, "currency")?,
        category_id: rows::id(row, "category_id", CategoryId::new)?,
        status: rows::choice(row, "status")?,
        creator_id: rows::opt_id(row, "creator_id", UserId::new)?,
        dates: rows::record_dates(row)?,
    })
}
