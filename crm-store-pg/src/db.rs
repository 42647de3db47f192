//! One interface over the three ways this crate talks to PostgreSQL: a pooled connection,
//! a transaction, and a shared read connection. Every statement is prepared once per
//! connection and cached, so a query is one round trip.

use std::future::Future;

use deadpool_postgres::ClientWrapper;
use tokio_postgres::types::ToSql;
use tokio_postgres::{Error, Row};

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
    ) -> impl Future<Output = Result<Row, crate::StoreError>> + Send + 'a {
        async move {
            self.rows(sql, params)
                .await?
                .into_iter()
                .next()
                .ok_or_else(|| crate::StoreError::Internal(format!("no row returned by: {sql}")))
        }
    }
}

macro_rules! impl_db {
    ($t:ty) => {
        impl Db for $t {
            fn rows<'a>(
                &'a self,
                sql: &'a str,
                params: &'a [&'a (dyn ToSql + Sync)],
            ) -> impl Future<Output = Result<Vec<Row>, Error>> + Send + 'a {
                async move {
                    let statement = self.prepare_cached(sql).await?;
                    self.query(&statement, params).await
                }
            }

            fn run<'a>(
                &'a self,
                sql: &'a str,
                params: &'a [&'a (dyn ToSql + Sync)],
            ) -> impl Future<Output = Result<u64, Error>> + Send + 'a {
                async move {
                    let statement = self.prepare_cached(sql).await?;
                    self.execute(&statement, params).await
                }
            }
        }
    };
}

impl_db!(deadpool_postgres::Client);
impl_db!(deadpool_postgres::Transaction<'_>);
impl_db!(ClientWrapper);
