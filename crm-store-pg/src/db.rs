//! One interface over the three ways this crate talks to PostgreSQL: a pooled connection,
//! a transaction, and a shared read connection, and the one switch that decides how a
//! statement is sent.
//!
//! Directly connected (the default), every statement is prepared once per connection and
//! cached (a named statement), so a query is one round trip. Behind PgBouncer in
//! transaction pooling mode (`--pgbouncer`, [`use_unnamed_statements`]) a connection is
//! a different server connection from one transaction to the next, and PgBouncer before
//! 1.21 (Debian 12 ships 1.18) keeps no prepared statement across them: a named statement
//! prepared on one server connection and executed on another is "does not exist", and
//! two clients' `s1` on one server connection is "already exists". In that mode no named
//! statement outlives its transaction: every statement is sent unnamed, parse, bind and
//! execute in one message group (`query_typed`), with its parameter types learnt once per
//! process by preparing it inside a transaction of its own that also closes it.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, LazyLock, Mutex, PoisonError};

use deadpool_postgres::ClientWrapper;
use tokio_postgres::types::{ToSql, Type};
use tokio_postgres::{Client, Error, Row};

/// Whether statements are sent unnamed (PgBouncer's transaction pooling). Set, never
/// cleared: one store of the process in that mode puts the whole process in it, which
/// direct connections serve as well (one more message per statement).
static UNNAMED: AtomicBool = AtomicBool::new(false);

/// Sends every statement of this process unnamed from now on (`--pgbouncer`).
pub fn use_unnamed_statements() {
    UNNAMED.store(true, Ordering::Release);
}

/// Whether statements are sent unnamed ([`use_unnamed_statements`]).
pub fn unnamed_statements() -> bool {
    UNNAMED.load(Ordering::Acquire)
}

/// The parameter types of each statement sent unnamed, learnt once per process.
static PARAM_TYPES: LazyLock<Mutex<HashMap<String, Arc<[Type]>>>> =
    LazyLock::new(|| Mutex::new(HashMap::new()));

/// One statement described at a time: on a shared read connection, two descriptions'
/// `BEGIN`s and `COMMIT`s must not interleave (a `PREPARE` after another's `COMMIT` would
/// outlive its transaction).
static DESCRIBING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The parameter types of `sql`, prepared (named, then closed) inside a transaction: its
/// own (`BEGIN` … `COMMIT`) unless `in_tx`, when the caller's is open on `client`.
async fn param_types(client: &Client, sql: &str, in_tx: bool) -> Result<Arc<[Type]>, Error> {
    let known = |sql: &str| {
        PARAM_TYPES
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(sql)
            .cloned()
    };
    if let Some(types) = known(sql) {
        return Ok(types);
    }
    let _one_at_a_time = DESCRIBING.lock().await;
    if let Some(types) = known(sql) {
        return Ok(types);
    }
    if !in_tx {
        client.batch_execute("BEGIN").await?;
    }
    // Dropping the statement queues its Close ahead of the COMMIT: on the same server
    // connection, inside the transaction.
    let described = client
        .prepare(sql)
        .await
        .map(|statement| Arc::<[Type]>::from(statement.params()));
    if !in_tx {
        // After a failed PREPARE this ends the aborted transaction.
        client.batch_execute("COMMIT").await?;
    }
    let types = described?;
    PARAM_TYPES
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .insert(sql.to_owned(), Arc::clone(&types));
    Ok(types)
}

/// `params` beside their types.
fn typed<'a>(
    params: &'a [&'a (dyn ToSql + Sync)],
    types: &[Type],
) -> Vec<(&'a (dyn ToSql + Sync), Type)> {
    params
        .iter()
        .zip(types.iter())
        .map(|(value, ty)| (*value, ty.clone()))
        .collect()
}

/// Runs `sql` on `client` as the switch says ([`use_unnamed_statements`]): prepared and
/// cached by deadpool, or unnamed. `in_tx`: a transaction is open on `client`.
pub(crate) async fn rows_on(
    client: &ClientWrapper,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    in_tx: bool,
) -> Result<Vec<Row>, Error> {
    if unnamed_statements() {
        let types = param_types(client, sql, in_tx).await?;
        return client.query_typed(sql, &typed(params, &types)).await;
    }
    let statement = client.prepare_cached(sql).await?;
    client.query(&statement, params).await
}

/// [`rows_on`], returning the number of rows affected.
pub(crate) async fn run_on(
    client: &ClientWrapper,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
    in_tx: bool,
) -> Result<u64, Error> {
    if unnamed_statements() {
        let types = param_types(client, sql, in_tx).await?;
        return client.execute_typed(sql, &typed(params, &types)).await;
    }
    let statement = client.prepare_cached(sql).await?;
    client.execute(&statement, params).await
}

/// [`rows_on`] on a plain client (the delivery worker's own connection), which caches
/// nothing: prepared for the call (named, closed after it) or unnamed.
pub(crate) async fn plain_rows(
    client: &Client,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, Error> {
    if unnamed_statements() {
        let types = param_types(client, sql, false).await?;
        return client.query_typed(sql, &typed(params, &types)).await;
    }
    client.query(sql, params).await
}

/// [`plain_rows`], returning the number of rows affected.
pub(crate) async fn plain_run(
    client: &Client,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<u64, Error> {
    if unnamed_statements() {
        let types = param_types(client, sql, false).await?;
        return client.execute_typed(sql, &typed(params, &types)).await;
    }
    client.execute(sql, params).await
}

/// Something that runs SQL: `&impl Db` works in or out of a transaction.
pub(crate) trait Db: Sync {
    /// Runs `sql` (prepared and cached) and returns every row.
    fn rows<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Vec<Row>, Error>> + Send + 'a;

    /// Runs `sql` (prepared and cached) and returns the number of rows affected.
    fn run<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<u64, Error>> + Send + 'a;

    /// Runs `sql` and returns its only row, or `None`.
    fn row_opt<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Option<Row>, Error>> + Send + 'a {
        async move { Ok(self.rows(sql, params).await?.into_iter().next()) }
    }

    /// Runs `sql` and returns its first row; an empty result is an error of the caller's
    /// SQL (used for statements that always return one row, such as `INSERT … RETURNING`).
    fn row<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Row, crate::error::StoreError>> + Send + 'a {
        async move {
            self.rows(sql, params)
                .await?
                .into_iter()
                .next()
                .ok_or_else(|| {
                    crate::error::StoreError::Internal(format!("no row returned by: {sql}"))
                })
        }
    }
}

macro_rules! impl_db {
    ($t:ty, $in_tx:expr) => {
        impl Db for $t {
            fn rows<'a>(
                &'a self,
                sql: &'a str,
                params: &'a [&'a (dyn ToSql + Sync)],
            ) -> impl Future<Output = Result<Vec<Row>, Error>> + Send + 'a {
                rows_on(self, sql, params, $in_tx)
            }

            fn run<'a>(
                &'a self,
                sql: &'a str,
                params: &'a [&'a (dyn ToSql + Sync)],
            ) -> impl Future<Output = Result<u64, Error>> + Send + 'a {
                run_on(self, sql, params, $in_tx)
            }
        }
    };
}

impl_db!(deadpool_postgres::Client, false);
impl_db!(ClientWrapper, false);

impl Db for deadpool_postgres::Transaction<'_> {
    fn rows<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<Vec<Row>, Error>> + Send + 'a {
        tx_rows(self, sql, params)
    }

    fn run<'a>(
        &'a self,
        sql: &'a str,
        params: &'a [&'a (dyn ToSql + Sync)],
    ) -> impl Future<Output = Result<u64, Error>> + Send + 'a {
        tx_run(self, sql, params)
    }
}

/// [`Db::rows`] in a deadpool transaction (its statements prepared inside it).
async fn tx_rows(
    tx: &deadpool_postgres::Transaction<'_>,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<Vec<Row>, Error> {
    if unnamed_statements() {
        let types = param_types(tx.client(), sql, true).await?;
        return tx.query_typed(sql, &typed(params, &types)).await;
    }
    let statement = tx.prepare_cached(sql).await?;
    tx.query(&statement, params).await
}

/// [`Db::run`] in a deadpool transaction.
async fn tx_run(
    tx: &deadpool_postgres::Transaction<'_>,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<u64, Error> {
    if unnamed_statements() {
        let types = param_types(tx.client(), sql, true).await?;
        return tx.execute_typed(sql, &typed(params, &types)).await;
    }
    let statement = tx.prepare_cached(sql).await?;
    tx.execute(&statement, params).await
}
