//! The write sweep itself, and the conditional-request check over the same targets.

use std::collections::BTreeSet;
use std::time::Instant;

use reqwest::Method;

use super::checksum::{changed_tables, checksum};
use super::document::Api;
use super::exchange::{Tally, run};
use super::target::Target;
use super::targets::targets;
use super::world::world;
use crate::common::{Answer, Body, TestServer, json};

/// Asserts that the targets are exactly the route table's keyed write endpoints (every
/// POST, PUT, PATCH and DELETE of the API; the client's pages answer HTML for a person and
/// have their own hostile-input tests in `client.rs`), one each.
pub fn assert_covered(targets: &[Target]) {
    let covered: Vec<(String, String)> = targets
        .iter()
        .map(|t| (t.method.to_string(), t.template.to_owned()))
        .collect();
    let writes: BTreeSet<(String, String)> = crm_http::router::ROUTES
        .iter()
        .filter(|r| [Method::POST, Method::PUT, Method::PATCH, Method::DELETE].contains(&r.method))
        .filter(|r| r.access == crm_http::router::Access::Key)
        .map(|r| (r.method.to_string(), r.path.to_owned()))
        .collect();
    assert_eq!(
        covered.iter().cloned().collect::<BTreeSet<_>>(),
        writes,
        "the sweep covers exactly the route table's write endpoints"
    );
    assert_eq!(covered.len(), writes.len(), "one target per write route");
}

#[tokio::test]
async fn every_write_endpoint_answers_every_malformed_input_with_a_clean_4xx_and_writes_nothing() {
    let started = Instant::now();
    let s = TestServer::start().await;
    let w = world(&s).await;
    let targets = targets(&w, &Api::fetch(&s).await);
    assert_covered(&targets);

    let db = s.sql().await;
    let mut before = checksum(&db).await;
    let mut tally = Tally::default();
    for target in &targets {
        let group = format!("{} {}", target.method, target.template);
        run(&s, &group, target.cases(), &mut tally).await;
        let after = checksum(&db).await;
        let changed = changed_tables(&before, &after);
        if !changed.is_empty() {
            tally
                .failures
                .insert(0, format!("{group}: bad requests WROTE to {changed:?}"));
            before = after;
        }
    }
    println!(
        "malformed-input sweep: {} in {:.1?}",
        tally.summary(),
        started.elapsed()
    );
    tally.assert_clean();
    assert!(!tally.statuses.keys().any(|s| *s < 400 || *s >= 500));

    // Control: each base body, sent as is, is accepted (so every case above was refused for its
    // one defect, not for something in the base), and makes exactly one activity entry
    // (API.md §21), by the key, about a record of the route's area.
    let mut entries = Entries::new(&db).await;
    for target in targets.iter().filter(|t| t.method != Method::DELETE) {
        let a = s
            .call(
                target.method.clone(),
                &target.path,
                json(target.base.clone()),
            )
            .await;
        assert!(
            a.status.is_success(),
            "control {} {}: {} {}",
            target.method,
            target.path,
            a.status,
            a.json
        );
        entries.one_more(&s, target).await;
    }
    for target in targets.iter().filter(|t| t.method == Method::DELETE) {
        let a = s.delete(&target.path).await;
        assert_eq!(
            a.status.as_u16(),
            200,
            "control DELETE {}: {}",
            target.path,
            a.json
        );
        entries.one_more(&s, target).await;
    }
    assert!(entries.failures.is_empty(), "{:#?}", entries.failures);
}

/// The activity entries the sweep's control requests make.
struct Entries<'a> {
    db: &'a tokio_postgres::Client,
    last: i64,
    failures: Vec<String>,
}

impl<'a> Entries<'a> {
    async fn new(db: &'a tokio_postgres::Client) -> Entries<'a> {
        let last = Self::newest(db).await;
        Entries {
            db,
            last,
            failures: Vec::new(),
        }
    }

    async fn newest(db: &tokio_postgres::Client) -> i64 {
        db.query_one("SELECT COALESCE(max(id), 0) FROM activity", &[])
            .await
            .unwrap()
            .get(0)
    }

    /// Asserts that `target`'s request made exactly one entry, with the sweep's key as its
    /// actor and a record of the route's area (`/api/credit-notes/…` → `credit_note`; a
    /// conversion makes an invoice, an issue a credit note, a reorder moves milestones).
    async fn one_more(&mut self, s: &TestServer, target: &Target) {
        let rows = self
            .db
            .query(
                "SELECT resource_type, actor_key_id FROM activity WHERE id > $1 ORDER BY id",
                &[&self.last],
            )
            .await
            .unwrap();
        let route = format!("{} {}", target.method, target.template);
        if rows.len() != 1 {
            self.failures
                .push(format!("{route}: {} activity entries, not one", rows.len()));
            self.last = Self::newest(self.db).await;
            return;
        }
        let resource: String = rows[0].get(0);
        let key: Option<i64> = rows[0].get(1);
        let expected = match target.template {
            "/api/estimates/{id}/convert-to-invoice" => "invoice".to_owned(),
            "/api/invoices/{id}/credit-notes" => "credit_note".to_owned(),
            template => match template.split('/').nth(2).unwrap() {
                "categories" => "category".to_owned(),
                "company" => "company".to_owned(),
                area => area.strip_suffix('s').unwrap_or(area).replace('-', "_"),
            },
        };
        if resource != expected {
            self.failures.push(format!(
                "{route}: an entry about a {resource}, not a {expected}"
            ));
        }
        let sweep_key: i64 = s.key.split('_').nth(1).unwrap().parse().unwrap();
        if key != Some(sweep_key) {
            self.failures
                .push(format!("{route}: made by {key:?}, not the request's key"));
        }
        self.last = Self::newest(self.db).await;
    }
}

/// The path of the record a `{id}` route writes (`/api/estimates/7/items` → `/api/estimates/7`).
fn record_path(path: &str) -> String {
    path.split('/').take(4).collect::<Vec<_>>().join("/")
}

/// The `ETag` of an answer.
fn etag_of(a: &Answer) -> String {
    a.headers
        .get("etag")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_else(|| panic!("an ETag on {} {}", a.status, a.json))
        .to_owned()
}

/// API.md §11 on every write route, from the same targets as the sweep: each PATCH, PUT and
/// DELETE refuses a stale `If-Match` with 412 and writes nothing, and accepts the `ETag` its
/// record's GET gave (or, for the milestone reorder, its own previous answer's); each POST
/// sent twice with one `Idempotency-Key` has one effect and gets its first answer again.
#[tokio::test]
async fn every_write_endpoint_honours_if_match_and_idempotency_keys() {
    const CHANGED: &str = "The record was changed by someone else. Read it again and retry.";
    let s = TestServer::start().await;
    let api = Api::fetch(&s).await;
    let w = world(&s).await;
    let targets = targets(&w, &api);
    assert_covered(&targets);
    let db = s.sql().await;
    let body = |t: &Target| {
        if t.method == Method::DELETE {
            Body::None
        } else {
            json(t.base.clone())
        }
    };

    // A stale tag: 412, nothing written.
    let before = checksum(&db).await;
    for t in targets.iter().filter(|t| t.method != Method::POST) {
        let a = s
            .call_with(
                &s.key,
                t.method.clone(),
                &t.path,
                body(t),
                &[("if-match", "\"0000\"")],
            )
            .await;
        assert_eq!(
            a.status.as_u16(),
            412,
            "{} {}: {}",
            t.method,
            t.path,
            a.json
        );
        assert_eq!(a.message(), CHANGED);
    }
    assert_eq!(
        changed_tables(&before, &checksum(&db).await),
        Vec::<String>::new()
    );

    // The current tag: the write happens (DELETEs last: other targets use their records).
    let mut writes: Vec<&Target> = targets
        .iter()
        .filter(|t| t.method != Method::POST && t.method != Method::DELETE)
        .collect();
    writes.extend(targets.iter().filter(|t| t.method == Method::DELETE));
    for t in writes {
        let current = if t.template.contains("{id}") {
            etag_of(&s.get(&record_path(&t.path)).await)
        } else {
            // The reorder: the project's milestones, as its own answer shows them.
            etag_of(&s.call(t.method.clone(), &t.path, body(t)).await)
        };
        let a = s
            .call_with(
                &s.key,
                t.method.clone(),
                &t.path,
                body(t),
                &[("if-match", &current)],
            )
            .await;
        assert!(
            a.status.is_success(),
            "{} {} with its ETag: {} {}",
            t.method,
            t.path,
            a.status,
            a.json
        );
        if t.method != Method::DELETE {
            assert_ne!(etag_of(&a), "", "{} {}", t.method, t.path);
        }
    }

    // POSTs: one effect, the same answer again.
    let s = TestServer::start().await;
    let w = world(&s).await;
    let db = s.sql().await;
    let posts = super::targets::targets(&w, &api)
        .into_iter()
        .filter(|t| t.method == Method::POST);
    for (n, t) in posts.enumerate() {
        let t = &t;
        let key = format!("sweep-{n}");
        let headers = [("idempotency-key", key.as_str())];
        let first = s
            .call_with(&s.key, Method::POST, &t.path, body(t), &headers)
            .await;
        assert!(
            first.status.is_success(),
            "POST {}: {} {}",
            t.path,
            first.status,
            first.json
        );
        assert!(first.headers.get("idempotent-replayed").is_none());
        let after_first = checksum(&db).await;
        let again = s
            .call_with(&s.key, Method::POST, &t.path, body(t), &headers)
            .await;
        assert_eq!(
            (again.status, &again.json),
            (first.status, &first.json),
            "POST {} replayed",
            t.path
        );
        assert_eq!(again.headers["idempotent-replayed"], "true");
        assert_eq!(etag_of(&again), etag_of(&first));
        assert_eq!(
            changed_tables(&after_first, &checksum(&db).await),
            Vec::<String>::new(),
            "POST {} replayed without a new effect",
            t.path
        );
    }
}
