//! What estimates and invoices share in the store: one implementation for both kinds of
//! bill, parameterised by the kind's tables ([`BillSql`], built by [`bill_sql!`]).
//!
//! - [`lock`]: the row lock every write takes first (`FOR UPDATE` / `FOR SHARE`), giving the
//!   stored header the write decides on;
//! - [`items::replace_items`]: `PUT …/items` (lines, tax records, totals in one go);
//! - [`recompute`]: totals recomputed from the stored lines after a header change;
//! - [`header`]: create's totals, PATCH, clone's copies, delete, tags, the email's rows;
//! - [`kind`]: the kind of bill as the store knows it ([`kind::StoredBill`]);
//! - [`handle`]: the operations written once for every kind ([`handle::Bills`]: read,
//!   list, create, update, items, tags, status, clone, delete, publish, email, links);
//! - [`link`]: the client link on the bill's row (made, replaced, revoked, read);
//! - [`list`]: the filtered select of `GET /estimates` and `GET /invoices`;
//! - [`decode`]: lines, taxes and totals read back (the JSON aggregates below).
//!
//! The kind-specific modules (`estimates`, `invoices`) keep only what differs: the record's
//! read statement and shape, the status column and its rules, the insert and clone headers.

/// The SQL expression (a JSON array, `[]` when empty) of the line items of the bill whose
/// id is `$id`, in `position` order: `$lines` is the lines table, `$owner` its bill column.
/// Decoded by [`decode::line_items`].
macro_rules! lines_json {
    ($lines:literal, $owner:literal, $id:literal) => {
        concat!(
            "COALESCE((SELECT json_agg(json_build_object(",
            "'id', l.id, 'position', l.position, 'description', l.description, ",
            "'long_description', l.long_description, 'unit', l.unit, 'quantity', l.quantity::text, ",
            "'rate', l.rate::text, 'total', l.total::text, 'discount_type', l.discount_type, ",
            "'discount_value', l.discount_value::text, 'discount_amount', l.discount_amount::text, ",
            "'tax_rate_id', l.tax_rate_id) ORDER BY l.position) FROM ",
            $lines,
            " l WHERE l.",
            $owner,
            " = ",
            $id,
            "), '[]')"
        )
    };
}

/// The SQL expression (text) that names the version of every line of the bill whose id is
/// `$id`: each line's id and the transaction that wrote it (`xmin`), in order. A line whose
/// content changes is a new row version with a new `xmin`, so the text changes with any of
/// the lines' columns, without reading them ([`BillSql::version`]).
macro_rules! lines_versions {
    ($lines:literal, $owner:literal, $id:literal) => {
        concat!(
            "(SELECT string_agg(l.id::text || ':' || l.xmin::text, ',' ORDER BY l.position) FROM ",
            $lines,
            " l WHERE l.",
            $owner,
            " = ",
            $id,
            ")"
        )
    };
}

/// The SQL expression (a JSON array) of the tax records of the bill whose id is `$id`, in
/// id order. Decoded by [`decode::taxes`].
macro_rules! taxes_json {
    ($taxes:literal, $owner:literal, $id:literal) => {
        concat!(
            "COALESCE((SELECT json_agg(json_build_object(",
            "'name', t.name, 'rate', t.rate::text, 'tax_rate_id', t.tax_rate_id, 'lineitem_id', t.line_id, ",
            "'vat_category', (SELECT r.vat_category FROM tax_rates r WHERE r.id = t.tax_rate_id)",
            ") ORDER BY t.id) FROM ",
            $taxes,
            " t WHERE t.",
            $owner,
            " = ",
            $id,
            "), '[]')"
        )
    };
}

/// The totals columns, shared by `estimates` and `invoices`, of the table aliased `$t`
/// (decoded by [`decode::totals`]).
#[rustfmt::skip]
macro_rules! totals_columns {
    ($t:literal) => {
        concat!(
            $t, ".subtotal, ", $t, ".subtotal_before_discount, ", $t, ".discount_type, ",
            $t, ".discount_percentage, ", $t, ".discount_amount, ", $t, ".amount_before_tax, ",
            $t, ".tax_total_percentage, ", $t, ".tax_total_amount, ", $t, ".adjustment_description, ",
            $t, ".adjustment_amount, ", $t, ".final_amount"
        )
    };
}

/// The statement of whole bills for the ids in `$1`: the columns every kind shows
/// (decoded by [`decode::common`]), then the kind's `$extra` columns of the header table
/// `$t` aliased `b`, with the lines (`$l`), tax records (`$x`) and tags (`$tag`: the tags
/// column) of each, unlisted rows left out by `$listed` (on `b`).
macro_rules! records_sql {
    ($t:literal, $l:literal, $x:literal, $o:literal, $tag:literal, $extra:literal, $listed:literal) => {
        records_sql!(@from concat!($t, " b"), concat!("WHERE b.id = ANY($1)", $listed), $l, $x, $o, $tag, $extra)
    };
    // The same columns over any source aliased `b` (a new row's CTE), with any condition.
    (@from $from:expr, $where:expr, $l:literal, $x:literal, $o:literal, $tag:literal, $extra:literal) => {
        records_sql!(@lines lines_json!($l, $o, "b.id"), $from, $where, $x, $o, $tag, $extra)
    };
    // The same columns with `$lines` as the lines' column.
    (@lines $lines:expr, $from:expr, $where:expr, $x:literal, $o:literal, $tag:literal, $extra:literal) => {
        concat!(
            "SELECT b.id, b.client_id, c.company_name AS client_name, b.project_id, b.category_id, ",
            "g.name AS category_name, b.date, b.created_at, b.notes, b.terms, b.tax_type, ",
            "b.currency, b.exchange_rate, b.exchange_currency, ",
            "CASE WHEN b.client_token_expires_at > now() THEN b.client_token END AS client_token, ",
            "b.client_token_expires_at, ",
            totals_columns!("b"),
            ", ",
            $extra,
            ", ",
            $lines,
            " AS lines, ",
            taxes_json!($x, $o, "b.id"),
            " AS taxes, ARRAY(SELECT t.title FROM tags t WHERE t.",
            $tag,
            " = b.id ORDER BY t.position) AS tags FROM ",
            $from,
            " JOIN clients c ON c.id = b.client_id JOIN categories g ON g.id = b.category_id ",
            $where
        )
    };
}

/// The extra column of a list page's ids (`p.id`): the record's size as JSON, estimated
/// from its stored text: the header's long texts and 1.5 KB for the rest, each line's texts
/// and 384 bytes for its numbers and member names (measured on this service's output: a
/// page of estimates of 1,000 lines of 900 characters is 1.14 MB per estimate, about 240
/// bytes per line besides its text; the margin covers the characters JSON escapes).
macro_rules! list_bytes_sql {
    ($t:literal, $l:literal, $o:literal) => {
        concat!(
            ", (SELECT 1536 + octet_length(coalesce(x.notes, '')) + octet_length(coalesce(x.terms, '')) ",
            "+ coalesce((SELECT sum(384 + octet_length(l.description) + octet_length(coalesce(l.long_description, '')) ",
            "+ octet_length(coalesce(l.unit, ''))) FROM ",
            $l,
            " l WHERE l.",
            $o,
            " = p.id), 0) FROM ",
            $t,
            " x WHERE x.id = p.id)::bigint AS list_bytes"
        )
    };
}

/// Every line of the document `$1` in one statement, positions 1..n from the arrays' order,
/// into lines table `$l` whose owner column is `$o` ([`items::insert`] binds it).
macro_rules! insert_lines_sql {
    ($l:literal, $o:literal) => {
        concat!(
            "INSERT INTO ", $l, " (", $o, ", position, description, long_description, ",
            "unit, quantity, rate, total, discount_type, discount_value, discount_amount, tax_rate_id) ",
            "SELECT $1, x.position::int, x.description, x.long_description, x.unit, x.quantity, x.rate, x.total, ",
            "x.discount_type, x.discount_value, x.discount_amount, x.tax_rate_id ",
            "FROM unnest($2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[], $8::text[], ",
            "$9::numeric[], $10::numeric[], $11::bigint[]) WITH ORDINALITY AS x(description, long_description, unit, ",
            "quantity, rate, total, discount_type, discount_value, discount_amount, tax_rate_id, position) ",
            "ORDER BY x.position RETURNING id, position"
        )
    };
}

/// Every tax record of the document `$1` in one statement, in the arrays' order (name and
/// rate copied), into tax records table `$x` whose owner column is `$o`.
macro_rules! insert_taxes_sql {
    ($x:literal, $o:literal) => {
        concat!(
            "INSERT INTO ", $x, " (", $o, ", line_id, tax_rate_id, name, rate) ",
            "SELECT $1, x.line_id, x.tax_rate_id, x.name, x.rate ",
            "FROM unnest($2::bigint[], $3::bigint[], $4::text[], $5::numeric[]) WITH ORDINALITY AS x(line_id, tax_rate_id, name, rate, n) ",
            "ORDER BY x.n"
        )
    };
}

/// The statements of one kind of bill, from its header table `$t`, lines table `$l`, tax
/// records table `$x`, their owner column `$o`, the second date's column `$end`, the status
/// column `$st` and the extra condition `$listed` that hides unlisted rows (`$listed_b`: the
/// same on the alias `b`).
macro_rules! bill_sql {
    (
        resource: $resource:expr, table: $t:literal, lines: $l:literal,
        taxes: $x:literal, owner: $o:literal, end: $end:literal, status: $st:literal,
        draft: $draft:literal,
        listed: $listed:literal, listed_b: $listed_b:literal, extra: $extra:literal, tag_owner: $tag:expr,
        queue_email: $queue:expr, delete_pending_emails: $pending:expr, publish: $publish:expr $(,)?
    ) => {
        $crate::bills::BillSql {
            resource: $resource,
            table: $t,
            tag_owner: $tag,
            records: records_sql!($t, $l, $x, $o, $o, $extra, $listed),
            version: concat!(
                "SELECT encode(sha256(convert_to(v::text || '/' || ",
                "coalesce((SELECT updated_at::text FROM company), '') || '/' || ",
                "coalesce((SELECT c.updated_at::text FROM clients c WHERE c.id = v.client_id), ''), ",
                "'UTF8')), 'hex') AS version FROM (",
                records_sql!(@lines lines_versions!($l, $o, "b.id"), concat!($t, " b"),
                    concat!("WHERE b.id = $1", $listed), $x, $o, $o, $extra),
                ") v"
            ),
            list_bytes: list_bytes_sql!($t, $l, $o),
            create: concat!(
                "WITH bad AS (", $crate::refs::invalid_refs_sql!(), "), ",
                "new_bill AS (INSERT INTO ", $t, " (client_id, category_id, date, ", $end, ", project_id, ",
                "tax_type, notes, terms, ", $st, ", creator_id, totals_policy, currency, exchange_rate, exchange_currency, ",
                "discount_type, discount_percentage, ",
                "discount_amount, subtotal, subtotal_before_discount, amount_before_tax, tax_total_percentage, ",
                "tax_total_amount, adjustment_amount, final_amount) ",
                "SELECT $3, $4, $5, $6, $7, $8, $9, $10, ", $draft, ", $11, $12, $13, $14, $15, $16, $17, $18, ",
                "$19, $20, $21, $22, $23, $24, $25 WHERE NOT EXISTS (SELECT 1 FROM bad) RETURNING *) ",
                records_sql!(@from "new_bill b", "", $l, $x, $o, $o, $extra)
            ),
            clone_header: concat!(
                "INSERT INTO ", $t, " (client_id, category_id, date, ", $end, ", project_id, ", $st, ", ",
                "tax_type, discount_type, discount_percentage, discount_amount, subtotal, subtotal_before_discount, ",
                "amount_before_tax, tax_total_percentage, tax_total_amount, adjustment_description, adjustment_amount, ",
                "final_amount, notes, terms, creator_id, totals_policy, currency, exchange_rate, exchange_currency) ",
                "SELECT $2, COALESCE($3, s.category_id), $4, $5, $6, ", $draft, ", s.tax_type, s.discount_type, ",
                "s.discount_percentage, s.discount_amount, s.subtotal, s.subtotal_before_discount, s.amount_before_tax, ",
                "s.tax_total_percentage, s.tax_total_amount, s.adjustment_description, s.adjustment_amount, ",
                "s.final_amount, s.notes, s.terms, $7, s.totals_policy, s.currency, s.exchange_rate, ",
                "s.exchange_currency FROM ", $t, " s WHERE s.id = $1 RETURNING id"
            ),
            lock_update: concat!(
                "SELECT ", $st, " AS status, number, date, ", $end, " AS end_date, tax_type, discount_type, ",
                "discount_percentage, discount_amount, adjustment_amount, adjustment_description, totals_policy, ",
                "currency, exchange_rate, exchange_currency FROM ", $t,
                " WHERE id = $1", $listed, " FOR UPDATE"
            ),
            lock_share: concat!(
                "SELECT ", $st, " AS status, number, date, ", $end, " AS end_date, tax_type, discount_type, ",
                "discount_percentage, discount_amount, adjustment_amount, adjustment_description, totals_policy, ",
                "currency, exchange_rate, exchange_currency FROM ", $t,
                " WHERE id = $1", $listed, " FOR SHARE"
            ),
            stored_lines: concat!(
                "SELECT l.id, l.quantity, l.rate, l.discount_type, l.discount_value, ",
                "(SELECT t.rate FROM ", $x, " t WHERE t.line_id = l.id ORDER BY t.id LIMIT 1) AS tax_rate, ",
                "l.tax_rate_id, (SELECT r.vat_category FROM tax_rates r WHERE r.id = l.tax_rate_id) AS vat_category ",
                "FROM ", $l, " l WHERE l.", $o, " = $1 ORDER BY l.position"
            ),
            summary_rates: concat!(
                "SELECT rate FROM ", $x, " WHERE ", $o, " = $1 AND line_id IS NULL ORDER BY id"
            ),
            write_lines: concat!(
                "UPDATE ", $l, " l SET total = x.total, discount_amount = x.discount_amount ",
                "FROM unnest($1::bigint[], $2::numeric[], $3::numeric[]) AS x(id, total, discount_amount) ",
                "WHERE l.id = x.id"
            ),
            write_totals: concat!(
                "UPDATE ", $t, " SET discount_type = $2, discount_percentage = $3, ",
                "discount_amount = $4, subtotal = $5, subtotal_before_discount = $6, amount_before_tax = $7, ",
                "tax_total_percentage = $8, tax_total_amount = $9, adjustment_amount = $10, final_amount = $11, ",
                "updated_at = now() WHERE id = $1"
            ),
            delete_taxes: concat!("DELETE FROM ", $x, " WHERE ", $o, " = $1"),
            delete_lines: concat!("DELETE FROM ", $l, " WHERE ", $o, " = $1"),
            insert_lines: insert_lines_sql!($l, $o),
            insert_taxes: insert_taxes_sql!($x, $o),
            update_header: concat!(
                "UPDATE ", $t, " SET category_id = $2, date = $3, ", $end, " = $4, ",
                "project_id = CASE WHEN $5 THEN project_id ELSE $6 END, notes = CASE WHEN $7 THEN notes ELSE $8 END, ",
                "terms = CASE WHEN $9 THEN terms ELSE $10 END, ",
                "adjustment_description = CASE WHEN $11 THEN adjustment_description ELSE $12 END, ",
                "tax_type = $13, discount_type = $14, currency = $15, exchange_rate = $16, exchange_currency = $17, ",
                "updated_at = now() WHERE id = $1"
            ),
            clear_line_fields: concat!(
                "UPDATE ", $l, " SET tax_rate_id = NULL, discount_type = 'none', ",
                "discount_value = 0, discount_amount = 0 WHERE ", $o, " = $1"
            ),
            clone_lines: concat!(
                "INSERT INTO ", $l, " (", $o, ", position, description, long_description, ",
                "unit, quantity, rate, total, type, tax_status, discount_type, discount_value, discount_amount, tax_rate_id) ",
                "SELECT $2, position, description, long_description, unit, quantity, rate, total, type, tax_status, ",
                "discount_type, discount_value, discount_amount, tax_rate_id ",
                "FROM ", $l, " WHERE ", $o, " = $1 ORDER BY position"
            ),
            clone_taxes: concat!(
                "INSERT INTO ", $x, " (", $o, ", line_id, tax_rate_id, name, rate) ",
                "SELECT $2, n.id, t.tax_rate_id, t.name, t.rate FROM ", $x, " t ",
                "LEFT JOIN ", $l, " o ON o.id = t.line_id ",
                "LEFT JOIN ", $l, " n ON n.", $o, " = $2 AND n.position = o.position ",
                "WHERE t.", $o, " = $1 ORDER BY t.id"
            ),
            contact: concat!(
                "SELECT c.contact_email, concat((SELECT updated_at::text FROM company), '/', ",
                "c.updated_at::text) AS parties FROM ", $t, " b JOIN clients c ON c.id = b.client_id WHERE b.id = $1"
            ),
            queue_email: $queue,
            delete_pending_emails: $pending,
            delete: concat!("DELETE FROM ", $t, " WHERE id = $1"),
            publish: $publish,
            set_link: concat!(
                "UPDATE ", $t, " SET client_token = $2, ",
                "client_token_expires_at = now() + make_interval(days => $3) WHERE id = $1"
            ),
            ensure_link: concat!(
                "UPDATE ", $t, " SET client_token = $2, ",
                "client_token_expires_at = now() + make_interval(days => $3) ",
                "WHERE id = $1 AND (client_token IS NULL OR client_token_expires_at <= now())"
            ),
            clear_link: concat!(
                "UPDATE ", $t, " SET client_token = NULL, client_token_expires_at = NULL WHERE id = $1"
            ),
            list_select: concat!(
                "SELECT b.id, b.date, b.", $end, " AS end_date, b.final_amount, b.created_at FROM ", $t, " b"
            ),
            list_where: concat!(" WHERE ", $listed_b),
        }
    };
}

pub(crate) mod decode;
pub(crate) mod handle;
pub(crate) mod header;
pub(crate) mod items;
pub(crate) mod kind;
pub(crate) mod link;
pub(crate) mod list;
pub(crate) mod recompute;

use chrono::NaiveDate;
use crm_core::bill::{Terms, TotalsHeader};
use crm_core::conflict::Resource;
use crm_core::totals::{DiscountKind, HeaderDiscount, Policy};
use tokio_postgres::Row;

use crate::db::Db;
use crate::error::StoreError;
use crate::rows;

/// The statements of one kind of bill (see [`bill_sql!`]); every text is built at compile
/// time from the kind's table and column names, never from input.
#[derive(Debug)]
pub(crate) struct BillSql {
    /// The header table (`estimates`, `invoices`): also the name of its maintained counts.
    pub(crate) table: &'static str,
    /// What a missing row is ("Estimate not found.").
    pub resource: Resource,
    /// The kind's owner in `tags`.
    pub tag_owner: fn(i64) -> crate::tags::TagOwner,
    /// Whole records (the kind's [`records_sql!`]) for the ids in `$1`.
    pub records: &'static str,
    /// The version of bill `$1` (no row: no such listed bill): a digest of the row
    /// [`BillSql::records`] reads, every column as read, but each line's id and row version
    /// instead of its content ([`lines_versions!`]). It changes whenever the record's
    /// representation can (a header, client, payment, tax or tag change, any line written)
    /// and costs a fraction of the read, with the versions of the company's settings and
    /// the client's record the documents name: rendered PDFs are kept by it.
    pub version: &'static str,
    /// The extra column of a list page's ids ([`crate::sql::page`]'s `extra_columns`): each
    /// record's estimated size as JSON, `list_bytes` ([`list::LIST_BYTE_BUDGET`]).
    pub list_bytes: &'static str,
    /// A new draft, read back whole in the same statement (no row: a reference does not
    /// hold, nothing written): `$1`, `$2` the references ([`crate::refs::invalid_refs_sql`]),
    /// then client, category, date, second date, project, tax type, notes, terms, creator,
    /// totals policy, currency, exchange rate and its currency, and the empty bill's totals (discount type, percentage and amount, subtotal,
    /// subtotal before discount, amount before tax, tax percentage and amount, adjustment,
    /// final amount).
    pub create: &'static str,
    /// Clone: a new draft with client, category (NULL: the source's), dates and project
    /// given, the rest copied from `$1` (its totals policy, currency and exchange rate too).
    pub clone_header: &'static str,
    /// The header the writes decide on, locked `FOR UPDATE`.
    pub lock_update: &'static str,
    /// The same, locked `FOR SHARE`.
    pub lock_share: &'static str,
    /// The stored lines as the calculator needs them (an inline line's rate is the one
    /// copied into its tax record when the items were set).
    pub stored_lines: &'static str,
    /// The bill-level (summary) tax rates, as copied when the items were set.
    pub summary_rates: &'static str,
    /// Each line's computed total and discount amount.
    pub write_lines: &'static str,
    /// The header's computed totals.
    pub write_totals: &'static str,
    /// Every tax record of the bill.
    pub delete_taxes: &'static str,
    /// Every line of the bill.
    pub delete_lines: &'static str,
    /// Every line in one statement, positions 1..n from the arrays' order.
    pub insert_lines: &'static str,
    /// Every tax record in one statement, in the arrays' order (name and rate copied).
    pub insert_taxes: &'static str,
    /// PATCH: `CASE WHEN <keep> THEN <column> ELSE <new value> END` for optional fields.
    pub update_header: &'static str,
    /// A changed tax mode: every line's mode-specific fields (tax rate, discount) cleared.
    pub clear_line_fields: &'static str,
    /// Clone: the lines of `$1` copied to `$2`.
    pub clone_lines: &'static str,
    /// Clone: the tax records copied in order, a line's record pointing at the copy of
    /// its line (the line at the same position).
    pub clone_taxes: &'static str,
    /// The client's contact address, and the versions of the parties the bill's documents
    /// name (`parties`: the company's and the client's `updated_at`).
    pub contact: &'static str,
    /// The outbox row: `$1` recipient, `$2` subject, `$3` template, `$4` the bill's id,
    /// `$5` its stored message (`email_bodies.id`), `$6` what queued it (`queued_by`).
    pub queue_email: &'static str,
    /// A new link: `$2` the token, `$3` its lifetime in days (rotation: the old token is
    /// gone).
    pub set_link: &'static str,
    /// The same, only when the bill has no working link (publish and email make one).
    pub ensure_link: &'static str,
    /// No link (revoked).
    pub clear_link: &'static str,
    /// The bill's pending emails (sent and failed ones stay as history).
    pub delete_pending_emails: &'static str,
    /// The bill itself (lines, taxes and tags cascade).
    pub delete: &'static str,
    /// Publishing: `$2` the new stored status, and the kind's stamps.
    pub publish: &'static str,
    /// The list's narrow select: `id`, `date`, `end_date`, `final_amount`, `created_at`
    /// of the alias `b`.
    pub list_select: &'static str,
    /// The list's first condition (listed rows only).
    pub list_where: &'static str,
}

/// How an operation locks the bill row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum LockMode {
    /// `FOR UPDATE`: the operation changes the bill.
    Update,
    /// `FOR SHARE`: the operation reads it (or adds records beside it) and must not see
    /// it change before commit.
    Share,
}

/// The stored header fields the writing operations decide on.
#[derive(Debug)]
pub(crate) struct Locked {
    /// The locked row: its `status` column is the kind's to decode.
    pub row: Row,
    /// The number, once issued (API.md §18).
    pub number: Option<String>,
    /// `bill_date`.
    pub date: NaiveDate,
    /// The second date (expiry or due date).
    pub end_date: Option<NaiveDate>,
    /// Tax mode, header discount, adjustment, currency and exchange rate.
    pub totals: TotalsHeader,
    /// The adjustment's description.
    pub adjustment_description: Option<String>,
    /// The arithmetic its totals are computed with, chosen when it was created.
    pub policy: Policy,
}

impl Locked {
    /// The header fields an issued or accepted bill keeps, as stored.
    pub(crate) fn terms(&self) -> Terms {
        Terms {
            date: self.date,
            end_date: self.end_date,
            totals: self.totals,
            adjustment_description: self.adjustment_description.clone(),
        }
    }
}

/// Locks bill `id` (call inside a transaction) and returns its header; a missing (or
/// unlisted) one is the kind's `NotFound`. The row returned is the latest committed
/// version, as PostgreSQL re-reads a row it had to wait for.
pub(crate) async fn lock(
    db: &impl Db,
    sql: &BillSql,
    id: i64,
    mode: LockMode,
) -> Result<Locked, StoreError> {
    let text = match mode {
        LockMode::Update => sql.lock_update,
        LockMode::Share => sql.lock_share,
    };
    let row = db
        .row_opt(text, &[&id])
        .await?
        .ok_or(StoreError::NotFound(sql.resource))?;
    Ok(Locked {
        number: rows::get(&row, "number")?,
        date: rows::get(&row, "date")?,
        adjustment_description: rows::get(&row, "adjustment_description")?,
        policy: stored_policy(&row)?,
        end_date: rows::get(&row, "end_date")?,
        totals: TotalsHeader {
            tax_type: rows::choice(&row, "tax_type")?,
            discount: header_discount(&row)?,
            adjustment: rows::money(&row, "adjustment_amount")?,
            currency: rows::currency(&row, "currency")?,
            exchange: rows::exchange(&row)?,
        },
        row,
    })
}

/// The totals policy a bill was created with.
pub(crate) fn stored_policy(row: &Row) -> Result<Policy, StoreError> {
    let name: String = rows::get(row, "totals_policy")?;
    Policy::from_name(&name).ok_or_else(|| crate::error::corrupt("totals policy", name))
}

/// The stored header discount: `fixed` keeps its amount in `discount_amount`, `percentage`
/// its percentage in `discount_percentage` (the amount there is computed).
fn header_discount(row: &Row) -> Result<HeaderDiscount, StoreError> {
    Ok(match rows::choice::<DiscountKind>(row, "discount_type")? {
        DiscountKind::None => HeaderDiscount::None,
        DiscountKind::Fixed => HeaderDiscount::Fixed(rows::money(row, "discount_amount")?),
        DiscountKind::Percentage => {
            HeaderDiscount::Percentage(rows::percent(row, "discount_percentage")?)
        }
    })
}
