//! The scope sweep (API.md §15): every keyed route of the table, called with a key of each
//! scope there is (`read`, `write`, `<area>:read`, `<area>:write` for every area). Where
//! the key's scope grants the route's need (read from the table, [`Route::need`]) the
//! request behaves as today: a read answers exactly what the all-powerful key gets, and
//! every write target's valid body succeeds with the narrowest key that may send it.
//! Where it does not, the answer is 403 `{"message": "This API key is not allowed to do
//! this."}` and nothing is written (a checksum of every table, as the malformed-input
//! sweep takes, before and after each route's refusals).
//!
//! The routes come from the table and the write requests from the write sweep's targets
//! (which must cover every write route), so a new route is swept here without a line of
//! its own; a read of an area without a record here is made with an unknown id (its 404
//! is then what both keys must agree on).

use std::collections::BTreeMap;

use crm_core::scope::{Need, Scope};
use crm_http::router::{Access, ROUTES, Route};
use reqwest::Method;
use serde_json::json;

use super::checksum::{changed_tables, checksum};
use super::document::Api;
use super::target::Target;
use super::targets::targets;
use super::world::{World, world};
use super::writes::assert_covered;
use crate::common::{Answer, Body, TestServer, json};

/// The answer to a request outside the key's scopes, naming the scope it `need`s.
fn refused(need: Need) -> String {
    format!(
        "This API key is not allowed to do this: it needs the {need} scope (or {}).",
        need.level
    )
}

/// A key for every scope there is.
async fn keys(s: &TestServer) -> Vec<(Scope, String)> {
    let mut keys = Vec::new();
    for scope in Scope::all() {
        let text = scope.to_string();
        keys.push((scope, s.key_with(&[text.as_str()], None).await));
    }
    keys
}

/// The path a read of `route` is sent to: a record of the world for an `{id}` route of
/// its area (an unknown id for an area without one here), and what a list requires.
fn read_path(route: &Route, records: &BTreeMap<&str, i64>) -> String {
    let area = route.need.map(|n| n.area.as_str()).unwrap_or_default();
    let path = match records.get(area) {
        Some(id) => route.path.replace("{id}", &id.to_string()),
        None => route.path.replace("{id}", "999999"),
    };
    match (area, route.path.contains("{id}")) {
        ("milestones", false) => format!("{path}?project_id={}", records["projects"]),
        _ => path,
    }
}

/// The world's records by area, for the reads.
async fn records(s: &TestServer, w: &World) -> BTreeMap<&'static str, i64> {
    let email = s
        .scalar("SELECT min(id) FROM email_queue WHERE $1::bigint > 0", 1)
        .await;
    BTreeMap::from([
        ("categories", w.category),
        ("contracts", w.contract),
        ("estimates", w.published),
        ("invoices", w.published_invoice),
        ("milestones", w.milestone),
        ("notes", w.note),
        ("emails", email),
        ("projects", w.project),
    ])
}

/// What a read answered that two keys must agree on: the status, and the body when it is
/// JSON (a PDF's bytes carry the moment they were made).
fn gist(a: &Answer) -> (u16, serde_json::Value) {
    (a.status.as_u16(), a.json.clone())
}

/// The body a write target sends (none for a DELETE).
fn body(t: &Target) -> Body {
    if t.method == Method::DELETE {
        Body::None
    } else {
        json(t.base.clone())
    }
}

/// The keyed route a write target is aimed at.
fn route_of(t: &Target) -> &'static Route {
    ROUTES
        .iter()
        .find(|r| r.method == t.method && r.path == t.template)
        .unwrap_or_else(|| panic!("no route {} {}", t.method, t.template))
}

#[tokio::test]
async fn every_route_answers_a_key_of_each_scope_as_its_row_says() {
    let s = TestServer::start().await;
    let api = Api::fetch(&s).await;
    let w = world(&s).await;
    let targets = targets(&w, &api);
    assert_covered(&targets);
    let keys = keys(&s).await;
    let records = records(&s, &w).await;
    let db = s.sql().await;
    let mut failures = Vec::new();
    let mut counts = (0, 0);

    // Reads: an allowed key gets exactly today's answer, a refused one the 403.
    let reads = ROUTES
        .iter()
        .filter(|r| r.access == Access::Key && r.method == Method::GET);
    for route in reads {
        let need = route.need.expect("a keyed route's scope");
        let path = read_path(route, &records);
        let today = gist(&s.get(&path).await);
        assert!(today.0 < 500, "GET {path}: {today:?}");
        for (scope, key) in &keys {
            let a = s.call_as(key, Method::GET, &path, Body::None).await;
            check(
                &mut failures,
                &mut counts,
                *scope,
                need,
                &path,
                &a,
                Some(&today),
            );
        }
    }

    // Writes refused: every target's valid body, with each key that may not send it.
    for t in &targets {
        let need = route_of(t).need.expect("a keyed route's scope");
        let before = checksum(&db).await;
        for (scope, key) in keys.iter().filter(|(scope, _)| !scope.grants(need)) {
            let headers = [("idempotency-key", "scope-sweep")];
            let a = s
                .call_with(key, t.method.clone(), &t.path, body(t), &headers)
                .await;
            check(&mut failures, &mut counts, *scope, need, &t.path, &a, None);
        }
        let changed = changed_tables(&before, &checksum(&db).await);
        if !changed.is_empty() {
            failures.push(format!(
                "{} {}: refused requests WROTE to {changed:?}",
                t.method, t.path
            ));
        }
    }

    // Writes allowed: each valid body succeeds with the narrowest key that may send it
    // (`<area>:write`; `write` is the key every other test uses), deletions last.
    let narrowest = |need: Need| {
        keys.iter()
            .find(|(scope, _)| *scope == need.scope())
            .map(|(_, key)| key.clone())
            .expect("a key of every scope")
    };
    let mut writes: Vec<&Target> = targets
        .iter()
        .filter(|t| t.method != Method::DELETE)
        .collect();
    writes.extend(targets.iter().filter(|t| t.method == Method::DELETE));
    for t in writes {
        let need = route_of(t).need.expect("a keyed route's scope");
        let a = s
            .call_as(&narrowest(need), t.method.clone(), &t.path, body(t))
            .await;
        counts.0 += 1;
        if !a.status.is_success() {
            failures.push(format!(
                "{} {} as {need}: {} {}",
                t.method, t.path, a.status, a.json
            ));
        }
    }

    println!(
        "scope sweep: {} allowed and {} refused requests over {} keys",
        counts.0,
        counts.1,
        keys.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Holds one answer to what the key's `scope` and the route's `need` call for: `today`'s
/// answer (for a read) or at least no 403 when the scope grants the need, else the 403.
fn check(
    failures: &mut Vec<String>,
    counts: &mut (usize, usize),
    scope: Scope,
    need: Need,
    path: &str,
    a: &Answer,
    today: Option<&(u16, serde_json::Value)>,
) {
    let got = gist(a);
    if scope.grants(need) {
        counts.0 += 1;
        let wrong = match today {
            Some(today) => got != *today,
            None => got.0 == 403,
        };
        if wrong {
            failures.push(format!(
                "{path} ({need}) with {scope}: {got:?}, today {today:?}"
            ));
        }
    } else {
        counts.1 += 1;
        if got != (403, json!({"message": refused(need)})) {
            failures.push(format!(
                "{path} ({need}) with {scope}: {got:?}, not the 403"
            ));
        }
    }
}
