//! "Nothing written": a checksum of every table of the test database, compared before and
//! after the bad requests.

use std::collections::BTreeMap;

/// A checksum of every table: row count and md5 of all rows, by table.
pub async fn checksum(db: &tokio_postgres::Client) -> BTreeMap<String, String> {
    let tables: Vec<String> = db
        .query(
            "SELECT tablename::text FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1",
            &[],
        )
        .await
        .expect("tables")
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(
        tables.len() > 20,
        "the schema's tables are found: {tables:?}"
    );
    let mut out = BTreeMap::new();
    for t in tables {
        let sql = format!(
            "SELECT count(*)::text || ' ' || coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '-') FROM \"{t}\" t"
        );
        let row = db.query_one(&sql, &[]).await.expect("checksum");
        out.insert(t, row.get::<_, String>(0));
    }
    out
}

/// The tables whose checksum differs, with both sums.
pub fn changed_tables(
    before: &BTreeMap<String, String>,
    after: &BTreeMap<String, String>,
) -> Vec<String> {
    before
        .iter()
        .filter(|(t, sum)| after.get(*t) != Some(sum))
        .map(|(t, sum)| format!("{t} ({sum} → {:?})", after.get(t)))
        .collect()
}
