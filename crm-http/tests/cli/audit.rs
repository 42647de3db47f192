//! `crm audit verify` (API.md §21): the chain of issued documents, intact, then edited and
//! deleted with SQL: the command names the first broken link and exits with status 1.

use std::time::Duration;

use crm_store_pg::testing::TestDb;

use super::{crm, free_port, http, serve, stdout, terminate, url};

/// The id in a JSON answer's `data`.
fn id_of(body: &str) -> i64 {
    let v: serde_json::Value = serde_json::from_str(body).unwrap();
    v["data"]["id"].as_i64().unwrap()
}

#[tokio::test]
async fn audit_verify_names_the_first_broken_link_and_fails() {
    let db = TestDb::new().await.unwrap();
    let env = [("DATABASE_URL", url(&db))];
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert!(crm(&["seed"], &env).status.success());
    let key = stdout(&crm(&["keys", "create", "--name", "audit"], &env));
    let sql = db.client().await.unwrap();
    let client: i64 = sql
        .query_one("SELECT min(id) FROM clients", &[])
        .await
        .unwrap()
        .get(0);
    let category: i64 = sql
        .query_one(
            "SELECT id FROM categories WHERE type = 'invoice' AND system_default",
            &[],
        )
        .await
        .unwrap()
        .get(0);

    let port = free_port();
    let server = serve(&[], &env, port, Duration::from_secs(30));
    let issue = |n: usize| {
        let (status, body) = http(
            port,
            "POST",
            "/api/invoices",
            Some(&key),
            &format!("bill_clientid={client}&bill_categoryid={category}&bill_date=2026-11-0{n}"),
        );
        assert_eq!(status, 201, "{body}");
        let invoice = id_of(&body);
        let path = format!("/api/invoices/{invoice}/items");
        let (status, body) = http(
            port,
            "PUT",
            &path,
            Some(&key),
            "items[0][description]=Work&items[0][quantity]=1&items[0][rate]=100",
        );
        assert_eq!(status, 200, "{body}");
        let path = format!("/api/invoices/{invoice}/publish");
        let (status, body) = http(port, "PUT", &path, Some(&key), "");
        assert_eq!(status, 200, "{body}");
        let (status, body) = http(
            port,
            "POST",
            "/api/payments",
            Some(&key),
            &format!("payment_invoiceid={invoice}&payment_amount=25&payment_date=2026-11-20"),
        );
        assert_eq!(status, 201, "{body}");
    };
    issue(1);
    issue(2);
    assert_eq!(terminate(server), Some(0));

    let intact = crm(&["audit", "verify"], &env);
    assert!(intact.status.success(), "{intact:?}");
    assert!(
        stdout(&intact).starts_with("the chain is intact: 4 entries, head "),
        "{}",
        stdout(&intact)
    );

    // The second entry (the first payment) edited: the link from the third names it.
    let edited: i64 = sql
        .query_one("SELECT id FROM activity WHERE chain_seq = 2", &[])
        .await
        .unwrap()
        .get(0);
    sql.execute(
        "UPDATE activity SET changes = '{}' WHERE chain_seq = 2",
        &[],
    )
    .await
    .unwrap();
    let broken = crm(&["audit", "verify"], &env);
    assert_eq!(broken.status.code(), Some(1));
    let said = String::from_utf8_lossy(&broken.stderr);
    assert!(
        said.contains("the chain is broken at place 3")
            && said.contains(&format!("activity entry {edited}")),
        "{said}"
    );

    // The first entry deleted as well: its place is the first broken link now.
    sql.execute("DELETE FROM activity WHERE chain_seq = 1", &[])
        .await
        .unwrap();
    let broken = crm(&["audit", "verify"], &env);
    assert_eq!(broken.status.code(), Some(1));
    let said = String::from_utf8_lossy(&broken.stderr);
    assert!(
        said.contains("the chain is broken at place 1: the entry at place 1 is missing"),
        "{said}"
    );
}
