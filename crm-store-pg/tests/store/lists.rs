//! Lists at scale (issue 12): totals read from the maintained counts are exact after every
//! kind of write (also concurrent ones) and never count what the actor may not see; cursor
//! paging walks the same rows as page numbers, forward and back, and a cursor is bound to
//! its query.

// Test helpers unwrap: a failing call is a failing test.
#![allow(clippy::unwrap_used)]

use crm_core::bill::EstimateKind;
use crm_core::bill::InvoiceKind;
use crm_core::contract::ContractListQuery;
use crm_core::estimate::EstimateListQuery;
use crm_core::ids::UserId;
use crm_core::invoice::InvoiceListQuery;
use crm_core::listing::Cursor;
use crm_core::note::{NoteListQuery, NoteUpdate};
use crm_core::validation::Rejected;
use crm_store_pg::Ctx;

use crate::common::{Seeded, ctx, day, new_note, raw, seeded};

fn as_user(id: i64) -> Ctx {
    Ctx {
        actor: UserId::new(id).unwrap(),
        ..ctx()
    }
}

fn note_query(pairs: &[(&str, &str)]) -> NoteListQuery {
    NoteListQuery::parse(&raw(pairs)).unwrap()
}

/// The filters every note total is checked under, with the SQL condition each means.
fn note_filters(s: &Seeded) -> Vec<(Vec<(String, String)>, String)> {
    let client = s.ids.clients[0].id;
    let project = s.ids.projects[0];
    let pair = |k: &str, v: &str| (k.to_owned(), v.to_owned());
    vec![
        (vec![], "TRUE".to_owned()),
        (
            vec![pair("visibility", "public")],
            "visibility = 'public'".to_owned(),
        ),
        (
            vec![pair("visibility", "private")],
            "visibility = 'private'".to_owned(),
        ),
        (
            vec![pair("resource_type", "client")],
            "resource_type = 'client'".to_owned(),
        ),
        (
            vec![
                pair("resource_type", "client"),
                pair("resource_id", &client.to_string()),
            ],
            format!("resource_type = 'client' AND resource_id = {client}"),
        ),
        (
            vec![pair("resource_id", &project.to_string())],
            format!("resource_id = {project}"),
        ),
        (
            vec![
                pair("visibility", "private"),
                pair("resource_type", "project"),
            ],
            "visibility = 'private' AND resource_type = 'project'".to_owned(),
        ),
    ]
}

/// Every note total, for both administrators and under every filter, equals a count of
/// the rows themselves.
async fn assert_note_totals_exact(s: &Seeded, when: &str) {
    for user in [s.ids.admins[0], s.ids.admins[1]] {
        for (pairs, condition) in note_filters(s) {
            let pairs: Vec<(&str, &str)> = pairs
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_str()))
                .collect();
            let listed = s
                .store
                .list_notes(as_user(user), &note_query(&pairs))
                .await
                .unwrap();
            let expected = s
                .scalar(&format!(
                    "SELECT count(*) FROM notes WHERE NOT sticky \
                     AND (visibility = 'public' OR creator_id = {user}) AND {condition}"
                ))
                .await;
            assert_eq!(
                listed.total,
                u64::try_from(expected).unwrap(),
                "{when}: user {user}, {pairs:?}"
            );
        }
    }
}

#[tokio::test]
async fn note_totals_stay_exact_through_inserts_updates_deletes_and_visibility_changes() {
    let s = seeded().await;
    let (one, two) = (s.ids.admins[0], s.ids.admins[1]);
    let client = s.ids.clients[0].id.to_string();
    let project = s.ids.projects[0].to_string();
    assert_note_totals_exact(&s, "seeded").await;

    let mut made = Vec::new();
    for (user, pairs) in [
        (one, vec![("note_visibility", "private")]),
        (two, vec![("note_visibility", "private")]),
        (
            two,
            vec![
                ("noteresource_type", "client"),
                ("noteresource_id", client.as_str()),
            ],
        ),
        (
            two,
            vec![
                ("noteresource_type", "project"),
                ("noteresource_id", project.as_str()),
                ("note_visibility", "private"),
            ],
        ),
        (
            one,
            vec![
                ("noteresource_type", "client"),
                ("noteresource_id", client.as_str()),
            ],
        ),
    ] {
        let note = s
            .store
            .create_note(as_user(user), &new_note(&pairs))
            .await
            .unwrap();
        made.push((user, note.id));
    }
    assert_note_totals_exact(&s, "after creates").await;

    // Set-based writes count too: a bulk insert, a bulk visibility flip, sticky notes.
    s.exec(&format!(
        "INSERT INTO notes (title, description, visibility, creator_id, resource_type, client_id) \
         SELECT 'Bulk ' || g, 'd', CASE WHEN g % 3 = 0 THEN 'private' ELSE 'public' END, \
                CASE WHEN g % 2 = 0 THEN {one} ELSE {two} END, 'client', {client} \
         FROM generate_series(1, 40) g;
         INSERT INTO notes (title, description, sticky, creator_id) VALUES ('Sticky', 'd', TRUE, {one});
         UPDATE notes SET visibility = 'private' WHERE title LIKE 'Bulk 1%';"
    ))
    .await;
    assert_note_totals_exact(&s, "after bulk writes").await;

    // A note that becomes sticky leaves the lists, one that stops being sticky joins them,
    // and a sticky note deleted changes nothing (sticky rows fire no insert or delete
    // trigger: migration 0013's conditions).
    s.exec(&format!(
        "INSERT INTO notes (title, description, sticky, creator_id, resource_type, client_id) \
         VALUES ('Sticky 2', 'd', TRUE, {one}, 'client', {client}), ('Sticky 3', 'd', TRUE, {two}, NULL, NULL);
         UPDATE notes SET sticky = FALSE WHERE title = 'Sticky 2';
         UPDATE notes SET sticky = TRUE WHERE title IN ('Bulk 3', 'Bulk 4');
         DELETE FROM notes WHERE title = 'Sticky 3';"
    ))
    .await;
    assert_note_totals_exact(&s, "after sticky flips").await;

    let private = NoteUpdate::parse(&raw(&[
        ("note_title", "Now private"),
        ("note_description", "d"),
        ("note_visibility", "private"),
    ]))
    .unwrap();
    let public = NoteUpdate::parse(&raw(&[
        ("note_title", "Now public"),
        ("note_description", "d"),
        ("note_visibility", "public"),
    ]))
    .unwrap();
    s.store
        .update_note(as_user(two), made[2].1, &private)
        .await
        .unwrap();
    s.store
        .update_note(as_user(one), made[0].1, &public)
        .await
        .unwrap();
    assert_note_totals_exact(&s, "after visibility changes").await;

    // Folding moves the deltas into the counts without changing any total.
    assert!(s.store.fold_list_counts().await.unwrap() > 0);
    assert_eq!(s.scalar("SELECT count(*) FROM list_count_deltas").await, 0);
    assert_note_totals_exact(&s, "after a fold").await;

    s.store.delete_note(as_user(two), made[3].1).await.unwrap();
    s.exec("DELETE FROM notes WHERE title LIKE 'Bulk 2%'").await;
    assert_note_totals_exact(&s, "after deletes").await;

    // A client that goes takes its notes with it (cascade).
    s.exec(&format!(
        "DELETE FROM projects WHERE id = {project}; DELETE FROM notes WHERE client_id = {client}"
    ))
    .await;
    assert_note_totals_exact(&s, "after cascades").await;

    s.exec("TRUNCATE notes CASCADE").await;
    assert_note_totals_exact(&s, "after truncate").await;
    assert_eq!(
        s.scalar(
            "SELECT (SELECT count(*) FROM list_counts WHERE list = 'notes' AND n <> 0) \
                  + (SELECT count(*) FROM list_count_deltas WHERE list = 'notes')"
        )
        .await,
        0
    );
}

#[tokio::test]
async fn concurrent_writers_and_folds_keep_totals_exact() {
    let s = seeded().await;
    let store = s.store.clone();
    let users = [s.ids.admins[0], s.ids.admins[1]];
    // Two folders run all along, as two `crm serve` processes would.
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let folders: Vec<_> = (0..2)
        .map(|_| {
            let store = store.clone();
            let stopped = stopped.clone();
            tokio::spawn(async move {
                let mut folded = 0;
                while !*stopped.borrow() {
                    folded += store.fold_list_counts().await.unwrap();
                    tokio::task::yield_now().await;
                }
                folded
            })
        })
        .collect();
    let mut tasks = Vec::new();
    for worker in 0..8 {
        let store = store.clone();
        let user = users[worker % 2];
        tasks.push(tokio::spawn(async move {
            let mut ids = Vec::new();
            for n in 0..25 {
                let visibility = if n % 4 == 0 { "private" } else { "public" };
                let note = store
                    .create_note(as_user(user), &new_note(&[("note_visibility", visibility)]))
                    .await
                    .unwrap();
                ids.push(note.id);
            }
            for id in ids.iter().step_by(5) {
                store.delete_note(as_user(user), *id).await.unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    assert_note_totals_exact(&s, "after concurrent writers, folds running").await;
    stop.send(true).unwrap();
    let mut folded = 0;
    for folder in folders {
        folded += folder.await.unwrap();
    }
    assert!(folded > 0, "the folders folded the writers' deltas");
    s.store.fold_list_counts().await.unwrap();
    assert_eq!(s.scalar("SELECT count(*) FROM list_count_deltas").await, 0);
    assert_note_totals_exact(&s, "after the last fold").await;
    assert_eq!(counts_drift(&s).await, 0, "no delta folded twice or lost");
}

/// How many (list, key) pairs' maintained counts (folded plus deltas) differ from a count of
/// the rows by the same keys, over the five counted tables.
async fn counts_drift(s: &Seeded) -> i64 {
    s.scalar(
        "WITH kept AS (
             SELECT list, key, sum(n) AS n FROM (
                 SELECT list, key, n FROM list_counts
                 UNION ALL SELECT list, key, n FROM list_count_pending) k
             GROUP BY list, key HAVING sum(n) <> 0),
         fresh AS (
             SELECT 'notes' AS list, k AS key, count(*) AS n FROM notes r, unnest(list_count_keys(r)) k GROUP BY k
             UNION ALL SELECT 'estimates', k, count(*) FROM estimates r, unnest(list_count_keys(r)) k GROUP BY k
             UNION ALL SELECT 'invoices', k, count(*) FROM invoices r, unnest(list_count_keys(r)) k GROUP BY k
             UNION ALL SELECT 'contracts', k, count(*) FROM contracts r, unnest(list_count_keys(r)) k GROUP BY k
             UNION ALL SELECT 'payments', k, count(*) FROM payments r, unnest(list_count_keys(r)) k GROUP BY k)
         SELECT count(*) FROM kept FULL JOIN fresh USING (list, key) WHERE kept.n IS DISTINCT FROM fresh.n",
    )
    .await
}

#[tokio::test]
async fn the_migration_backfills_counts_of_rows_written_before_it() {
    // The counts of the seeded rows were written by the migration's backfill (the seed
    // runs after it) and the triggers; recompute them all from the rows and compare.
    let s = seeded().await;
    s.exec(
        "INSERT INTO notes (title, description, creator_id) SELECT 'n' || g, 'd', 1 FROM generate_series(1, 30) g",
    )
    .await;
    assert_eq!(counts_drift(&s).await, 0);
    // Rebuilt as the migrations do, from the rows alone (each backfill of the counts'
    // layout since 0010 in turn, as an upgraded database ran them): the same counts.
    let backfills: Vec<&str> = crm_store_pg::migrate::MIGRATIONS
        .iter()
        .filter(|m| m.version >= 10)
        .filter_map(|m| m.sql.find("-- Backfill").map(|at| &m.sql[at..]))
        .collect();
    assert_eq!(backfills.len(), 2, "0010 and 0011 each rebuild counts");
    // Payments (0020) came with their triggers before any row, so their counts have no
    // backfill: every payment was counted by its insert, which this rebuilds.
    s.exec(&format!(
        "DELETE FROM list_counts; DELETE FROM list_count_deltas; {}
         INSERT INTO list_counts (list, key, n)
         SELECT 'payments', k, count(*) FROM payments r, unnest(list_count_keys(r)) k GROUP BY k;",
        backfills.join("\n")
    ))
    .await;
    assert_eq!(counts_drift(&s).await, 0);
    assert!(
        s.scalar("SELECT count(*) FROM list_counts WHERE list = 'invoices'")
            .await
            > 0
    );
}

#[tokio::test]
async fn bill_and_contract_totals_by_status_follow_the_day() {
    let s = seeded().await;
    let client = s.ids.clients[0].id;
    let estimate_category = s.default_category("estimate").await;
    let contract_category = s.default_category("contract").await;
    s.exec(&format!(
        "INSERT INTO estimates (client_id, category_id, date, expiry_date, status, creator_id)
         SELECT {client}, {estimate_category}, DATE '2026-10-01', DATE '2026-10-01' + (g % 90),
                (ARRAY['draft', 'new', 'new', 'accepted'])[1 + g % 4], 1
         FROM generate_series(1, 60) g;
         UPDATE estimates SET expiry_date = NULL WHERE id % 7 = 0 AND status = 'new';
         WITH docs AS (INSERT INTO estimates (is_document, client_id, date, creator_id)
                       SELECT TRUE, {client}, DATE '2026-10-01', 1 FROM generate_series(1, 40) RETURNING id)
         INSERT INTO contracts (title, client_id, category_id, estimate_id, date_start, date_end,
                                published_at, client_signed_at, provider_signed_at)
         SELECT 'C' || id, {client}, {contract_category}, id, DATE '2026-10-01',
                CASE WHEN id % 5 = 0 THEN NULL ELSE DATE '2026-10-01' + (id % 80)::int END,
                CASE WHEN id % 4 <> 0 THEN now() END, CASE WHEN id % 3 <> 0 THEN now() END,
                CASE WHEN id % 2 = 0 THEN now() END
         FROM docs;
         INSERT INTO invoices (client_id, category_id, date, due_date, status_id, creator_id)
         SELECT {client}, {estimate_category}, DATE '2026-10-01',
                CASE WHEN g % 6 = 0 THEN NULL ELSE DATE '2026-10-01' + (g % 90) END,
                (ARRAY[1, 2, 2, 4, 4, 5, 20])[1 + g % 7], 1
         FROM generate_series(1, 70) g;"
    ))
    .await;
    for today in ["2026-10-15", "2026-11-22", "2027-02-01"] {
        let at = Ctx {
            today: day(today),
            ..ctx()
        };
        for status in ["draft", "new", "expired", "accepted", "declined", "revised"] {
            let q = EstimateListQuery::parse(&raw(&[("status", status)])).unwrap();
            let total = s
                .store
                .bills::<EstimateKind>()
                .list(at, &q)
                .await
                .unwrap()
                .total;
            assert_status_total(&s, "estimates", "NOT is_document", status, today, total).await;
        }
        // Invoices: 1 Draft, 2 Due, 3 Overdue (Due or Part Paid past the due date), 4 Part
        // Paid, 5 Paid, 20 Cancelled.
        for status in ["1", "2", "3", "4", "5", "20"] {
            let q = InvoiceListQuery::parse(&raw(&[("status", status)])).unwrap();
            let total = s
                .store
                .bills::<InvoiceKind>()
                .list(at, &q)
                .await
                .unwrap()
                .total;
            assert_status_total(&s, "invoices", "TRUE", status, today, total).await;
        }
        for status in ["draft", "awaiting_signatures", "active", "expired"] {
            let q = ContractListQuery::parse(&raw(&[("status", status)])).unwrap();
            let total = s.store.list_contracts(at, &q).await.unwrap().total;
            assert_status_total(&s, "contracts", "TRUE", status, today, total).await;
        }
    }
}

/// A shown status's SQL condition over its table's columns on `today`, as the API
/// defines it (the expected side of the totals below).
fn status_condition(list: &str, status: &str, today: &str) -> String {
    let current = |column: &str| format!("({column} IS NULL OR {column} >= '{today}')");
    match (list, status) {
        ("estimates", "new") => format!("status = 'new' AND {}", current("expiry_date")),
        ("estimates", "expired") => format!("status = 'new' AND expiry_date < '{today}'"),
        ("estimates", other) => format!("status = '{other}'"),
        ("invoices", "2" | "4") => format!("status_id = {status} AND {}", current("due_date")),
        ("invoices", "3") => format!("status_id IN (2, 4) AND due_date < '{today}'"),
        ("invoices", other) => format!("status_id = {other}"),
        (_, "draft") => "published_at IS NULL".to_owned(),
        (_, "expired") => format!("published_at IS NOT NULL AND date_end < '{today}'"),
        (_, other) => {
            let signed = "(client_signed_at IS NOT NULL AND provider_signed_at IS NOT NULL)";
            let not = if other == "active" { "" } else { "NOT " };
            format!(
                "published_at IS NOT NULL AND {} AND {not}{signed}",
                current("date_end")
            )
        }
    }
}

/// Asserts that a list's `total` of `status` among the rows meeting `owned` equals a count
/// of the rows on `today`; gives that count.
async fn assert_status_total(
    s: &Seeded,
    list: &str,
    owned: &str,
    status: &str,
    today: &str,
    total: u64,
) -> i64 {
    let condition = status_condition(list, status, today);
    let expected = s
        .scalar(&format!(
            "SELECT count(*) FROM {list} WHERE {owned} AND {condition}"
        ))
        .await;
    assert_eq!(
        total,
        u64::try_from(expected).unwrap(),
        "{today} {list} {owned} {status}"
    );
    expected
}

#[tokio::test]
async fn totals_of_a_status_within_a_client_project_or_category_are_exact() {
    // A status beside one owner filter is totalled from the maintained counts (migration
    // 0011); after inserts, moves between owners, status changes and deletes, folded or
    // not, each total equals a count of the rows.
    let s = seeded().await;
    let (a, b) = (s.ids.clients[0].id, s.ids.clients[1].id);
    let project = s.ids.projects[0];
    let e1 = s.default_category("estimate").await;
    let c1 = s.default_category("contract").await;
    let e2 = s
        .scalar("INSERT INTO categories (name, type) VALUES ('Second', 'estimate') RETURNING id")
        .await;
    let c2 = s
        .scalar("INSERT INTO categories (name, type) VALUES ('Second', 'contract') RETURNING id")
        .await;
    let insert = |n: i64| {
        format!(
            "INSERT INTO estimates (client_id, project_id, category_id, date, expiry_date, status, creator_id)
             SELECT CASE WHEN g % 3 = 0 THEN {b} ELSE {a} END, CASE WHEN g % 2 = 0 THEN {project} END,
                    CASE WHEN g % 5 < 2 THEN {e2} ELSE {e1} END, DATE '2026-10-01',
                    CASE WHEN g % 7 <> 0 THEN DATE '2026-10-01' + (g % 90) END,
                    (ARRAY['draft', 'new', 'new', 'accepted', 'declined'])[1 + g % 5], 1
             FROM generate_series(1, {n}) g;
             INSERT INTO invoices (client_id, project_id, category_id, date, due_date, status_id, creator_id)
             SELECT CASE WHEN g % 3 = 0 THEN {b} ELSE {a} END, CASE WHEN g % 2 = 0 THEN {project} END,
                    CASE WHEN g % 5 < 2 THEN {e2} ELSE {e1} END, DATE '2026-10-01',
                    CASE WHEN g % 6 <> 0 THEN DATE '2026-10-01' + (g % 90) END,
                    (ARRAY[1, 2, 2, 4, 4, 5, 20])[1 + g % 7], 1
             FROM generate_series(1, {n}) g;
             WITH docs AS (INSERT INTO estimates (is_document, client_id, date, creator_id)
                           SELECT TRUE, {a}, DATE '2026-10-01', 1 FROM generate_series(1, {n}) RETURNING id)
             INSERT INTO contracts (title, client_id, category_id, estimate_id, date_start, date_end,
                                    published_at, client_signed_at, provider_signed_at)
             SELECT 'C' || id, CASE WHEN id % 3 = 0 THEN {b} ELSE {a} END,
                    CASE WHEN id % 5 < 2 THEN {c2} ELSE {c1} END, id, DATE '2026-10-01',
                    CASE WHEN id % 5 = 0 THEN NULL ELSE DATE '2026-10-01' + (id % 80)::int END,
                    CASE WHEN id % 4 <> 0 THEN now() END, CASE WHEN id % 3 <> 0 THEN now() END,
                    CASE WHEN id % 2 = 0 THEN now() END
             FROM docs;"
        )
    };
    s.exec(&insert(60)).await;
    s.store.fold_list_counts().await.unwrap();
    // Unfolded changes on top of folded counts: more rows, moves, status changes, deletes.
    s.exec(&insert(25)).await;
    s.exec(&format!(
        "UPDATE estimates SET client_id = {b}, status = 'accepted' WHERE id % 4 = 1 AND NOT is_document;
         UPDATE estimates SET category_id = {e2}, expiry_date = NULL WHERE id % 9 = 2 AND NOT is_document;
         UPDATE invoices SET project_id = NULL, status_id = 5 WHERE id % 4 = 1;
         UPDATE invoices SET client_id = {a}, due_date = DATE '2026-12-30' WHERE id % 9 = 2;
         UPDATE contracts SET client_id = {a}, category_id = {c2}, published_at = now() WHERE id % 4 = 1;
         UPDATE contracts SET date_end = NULL, client_signed_at = NULL WHERE id % 9 = 2;
         DELETE FROM estimates WHERE id % 11 = 3 AND NOT is_document;
         UPDATE estimates SET is_document = TRUE WHERE id % 13 = 4 AND NOT is_document;
         DELETE FROM invoices WHERE id % 11 = 3;
         DELETE FROM contracts WHERE id % 11 = 3;"
    ))
    .await;
    let bill_owners = [
        ("client_id", a),
        ("client_id", b),
        ("project_id", project),
        ("category_id", e1),
        ("category_id", e2),
    ];
    let contract_owners = [
        ("client_id", a),
        ("client_id", b),
        ("category_id", c1),
        ("category_id", c2),
    ];
    for today in ["2026-10-15", "2026-11-22", "2027-02-01"] {
        let at = Ctx {
            today: day(today),
            ..ctx()
        };
        let mut checked = 0;
        for (field, id) in bill_owners {
            let id_text = id.to_string();
            for status in ["draft", "new", "expired", "accepted", "declined", "revised"] {
                let q = EstimateListQuery::parse(&raw(&[("status", status), (field, &id_text)]))
                    .unwrap();
                let total = s
                    .store
                    .bills::<EstimateKind>()
                    .list(at, &q)
                    .await
                    .unwrap()
                    .total;
                let owned = format!("NOT is_document AND {field} = {id}");
                checked += assert_status_total(&s, "estimates", &owned, status, today, total).await;
            }
            for status in ["1", "2", "3", "4", "5", "20"] {
                let q = InvoiceListQuery::parse(&raw(&[("status", status), (field, &id_text)]))
                    .unwrap();
                let total = s
                    .store
                    .bills::<InvoiceKind>()
                    .list(at, &q)
                    .await
                    .unwrap()
                    .total;
                let owned = format!("{field} = {id}");
                checked += assert_status_total(&s, "invoices", &owned, status, today, total).await;
            }
        }
        for (field, id) in contract_owners {
            let id_text = id.to_string();
            for status in ["draft", "awaiting_signatures", "active", "expired"] {
                let q = ContractListQuery::parse(&raw(&[("status", status), (field, &id_text)]))
                    .unwrap();
                let total = s.store.list_contracts(at, &q).await.unwrap().total;
                let owned = format!("{field} = {id}");
                checked += assert_status_total(&s, "contracts", &owned, status, today, total).await;
            }
        }
        assert!(
            checked > 200,
            "the owners hold rows of every list ({checked})"
        );
    }
    assert_eq!(counts_drift(&s).await, 0);
}

/// Walks a notes list by page numbers, by cursors forward from page 1, and by cursors
/// backward from the last page; the three must list the same ids.
async fn walk_notes(s: &Seeded, pairs: &[(&str, &str)]) -> Vec<i64> {
    let base: Vec<(&str, &str)> = [("limit", "3")]
        .into_iter()
        .chain(pairs.iter().copied())
        .collect();
    let first = s.store.list_notes(ctx(), &note_query(&base)).await.unwrap();
    let last_page = first.total.div_ceil(3).max(1);
    let mut by_number = Vec::new();
    for page in 1..=last_page {
        let page = page.to_string();
        let mut q = base.clone();
        q.push(("page", &page));
        let listed = s.store.list_notes(ctx(), &note_query(&q)).await.unwrap();
        by_number.extend(listed.items.iter().map(|n| n.id.get()));
    }
    assert_eq!(by_number.len() as u64, first.total, "{pairs:?}");

    let mut forward: Vec<i64> = first.items.iter().map(|n| n.id.get()).collect();
    let mut next = first.cursors.next.clone();
    let mut pages = 1;
    while let Some(cursor) = next {
        let mut q = base.clone();
        q.push(("cursor", &cursor));
        let listed = s.store.list_notes(ctx(), &note_query(&q)).await.unwrap();
        pages += 1;
        assert_eq!(listed.cursors.page, Some(pages), "{pairs:?}");
        assert_eq!(listed.total, first.total);
        forward.extend(listed.items.iter().map(|n| n.id.get()));
        next = listed.cursors.next;
    }
    assert_eq!(forward, by_number, "forward by cursor, {pairs:?}");

    let last = last_page.to_string();
    let mut q = base.clone();
    q.push(("page", &last));
    let listed = s.store.list_notes(ctx(), &note_query(&q)).await.unwrap();
    let mut backward: Vec<i64> = listed.items.iter().map(|n| n.id.get()).collect();
    let mut prev = listed.cursors.prev;
    while let Some(cursor) = prev {
        let mut q = base.clone();
        q.push(("cursor", &cursor));
        let listed = s.store.list_notes(ctx(), &note_query(&q)).await.unwrap();
        let mut ids: Vec<i64> = listed.items.iter().map(|n| n.id.get()).collect();
        ids.extend(backward);
        backward = ids;
        prev = listed.cursors.prev;
    }
    assert_eq!(backward, by_number, "backward by cursor, {pairs:?}");
    by_number
}

#[tokio::test]
async fn cursor_walks_list_the_same_rows_as_page_numbers_in_every_sort_and_order() {
    let s = seeded().await;
    let two = s.ids.admins[1];
    // Equal titles and timestamps, so that the id tie-break decides; private notes of
    // another user, which no walk may show.
    s.exec(&format!(
        "INSERT INTO notes (title, description, visibility, creator_id, created_at, updated_at)
         SELECT CASE WHEN g % 3 = 0 THEN 'same' ELSE 'Title ' || (g % 7) END, 'd',
                CASE WHEN g % 5 = 0 THEN 'private' ELSE 'public' END,
                CASE WHEN g % 2 = 0 THEN 1 ELSE {two} END,
                TIMESTAMPTZ '2026-01-01' + (g % 4) * interval '1 day', now()
         FROM generate_series(1, 23) g"
    ))
    .await;
    let hidden = s
        .scalar(&format!(
            "SELECT count(*) FROM notes WHERE visibility = 'private' AND creator_id = {two}"
        ))
        .await;
    assert!(hidden > 0);
    for sort in ["", "note_title", "note_created", "note_updated"] {
        for order in ["asc", "desc"] {
            let mut pairs = vec![("order", order)];
            if !sort.is_empty() {
                pairs.push(("sort", sort));
            }
            let ids = walk_notes(&s, &pairs).await;
            assert_eq!(
                ids.len() as u64,
                s.store
                    .list_notes(ctx(), &note_query(&[]))
                    .await
                    .unwrap()
                    .total
            );
            pairs.push(("visibility", "public"));
            walk_notes(&s, &pairs).await;
        }
    }
}

fn rejected_on_cursor(result: Result<NoteListQuery, Rejected>) {
    let rejected = result.expect_err("the cursor is refused");
    assert_eq!(
        rejected.errors.get("cursor"),
        Some(&["The selected cursor is invalid.".to_owned()][..])
    );
}

#[tokio::test]
async fn a_cursor_is_bound_to_its_sort_order_filters_and_search_and_forgeries_are_refused() {
    let s = seeded().await;
    s.exec("INSERT INTO notes (title, description, creator_id) SELECT 'n' || g, 'd', 1 FROM generate_series(1, 9) g")
        .await;
    let q = note_query(&[("limit", "2"), ("sort", "note_title")]);
    let listed = s.store.list_notes(ctx(), &q).await.unwrap();
    let cursor = listed.cursors.next.clone().unwrap();
    // The same query with a cursor (and another limit) is fine.
    NoteListQuery::parse(&raw(&[
        ("limit", "5"),
        ("sort", "note_title"),
        ("cursor", &cursor),
    ]))
    .unwrap();
    for other in [
        vec![("sort", "note_created")],
        vec![("sort", "note_title"), ("order", "asc")],
        vec![("sort", "note_title"), ("visibility", "public")],
        vec![("sort", "note_title"), ("search", "n")],
        vec![("sort", "note_title"), ("resource_type", "client")],
    ] {
        let mut pairs = other.clone();
        pairs.push(("cursor", &cursor));
        rejected_on_cursor(NoteListQuery::parse(&raw(&pairs)));
    }
    // Corrupt or forged: not hex, truncated, a changed byte, a key of the wrong kind for
    // the sort with the right binding.
    let mut decoded = Cursor::decode(&cursor).unwrap();
    let truncated = &cursor[..cursor.len() - 1];
    let mut flipped = cursor.clone().into_bytes();
    flipped[4] = if flipped[4] == b'a' { b'b' } else { b'a' };
    let flipped = String::from_utf8(flipped).unwrap();
    for bad in [
        "zz",
        "not a cursor",
        truncated,
        flipped.as_str(),
        "3132",
        &cursor.to_uppercase(),
    ] {
        rejected_on_cursor(NoteListQuery::parse(&raw(&[
            ("sort", "note_title"),
            ("cursor", bad),
        ])));
    }
    let created = note_query(&[("sort", "note_created"), ("order", "asc")]);
    decoded.binding = created.binding();
    decoded.key = Some("yesterday".to_owned());
    rejected_on_cursor(NoteListQuery::parse(&raw(&[
        ("sort", "note_created"),
        ("order", "asc"),
        ("cursor", &decoded.encode()),
    ])));
    // A forged position of the right kind is only a position: from before the first row,
    // the list is its first page, only what the actor may see.
    decoded.key = Some("0".to_owned());
    decoded.id = 0;
    decoded.forward = true;
    let forged = NoteListQuery::parse(&raw(&[
        ("sort", "note_created"),
        ("order", "asc"),
        ("cursor", &decoded.encode()),
    ]))
    .unwrap();
    let from_forged = s.store.list_notes(ctx(), &forged).await.unwrap();
    let first = s.store.list_notes(ctx(), &created).await.unwrap();
    assert_eq!(from_forged.items, first.items);
    assert_eq!(from_forged.total, first.total);
}

/// Contracts listed by `doc_status` (read as one part per status, each in id order): page
/// numbers, cursors forward and cursors backward give the order a plain sort gives, on
/// every day the statuses change with.
#[tokio::test]
async fn contracts_by_status_page_and_walk_in_the_order_of_a_plain_sort() {
    let s = seeded().await;
    let client = s.ids.clients[0].id;
    let category = s.default_category("contract").await;
    s.exec(&format!(
        "WITH docs AS (INSERT INTO estimates (is_document, client_id, date, creator_id)
                       SELECT TRUE, {client}, DATE '2026-10-01', 1 FROM generate_series(1, 37) RETURNING id)
         INSERT INTO contracts (title, client_id, category_id, estimate_id, date_start, date_end,
                                published_at, client_signed_at, provider_signed_at)
         SELECT 'C' || id, {client}, {category}, id, DATE '2026-10-01',
                CASE WHEN id % 5 = 0 THEN NULL ELSE DATE '2026-10-01' + (id % 80)::int END,
                CASE WHEN id % 4 <> 0 THEN now() END, CASE WHEN id % 3 <> 0 THEN now() END,
                CASE WHEN id % 2 = 0 THEN now() END
         FROM docs"
    ))
    .await;
    for today in ["2026-10-15", "2026-11-22"] {
        let at = Ctx {
            today: day(today),
            ..ctx()
        };
        let client_id = client.to_string();
        for (filter, condition) in [
            (vec![], "TRUE".to_owned()),
            (
                vec![("client_id", client_id.as_str())],
                format!("client_id = {client}"),
            ),
            (
                vec![("status", "awaiting_signatures")],
                format!(
                    "published_at IS NOT NULL AND (date_end IS NULL OR date_end >= '{today}') \
                     AND NOT (client_signed_at IS NOT NULL AND provider_signed_at IS NOT NULL)"
                ),
            ),
        ] {
            for order in ["asc", "desc"] {
                let status = format!(
                    "CASE WHEN published_at IS NULL THEN 'draft' \
                      WHEN date_end < '{today}' THEN 'expired' \
                      WHEN client_signed_at IS NOT NULL AND provider_signed_at IS NOT NULL THEN 'active' \
                      ELSE 'awaiting_signatures' END"
                );
                let expected: Vec<i64> = s
                .sql()
                .await
                .query(
                    &format!(
                        "SELECT id FROM contracts WHERE {condition} ORDER BY {status} {order}, id {order}"
                    ),
                    &[],
                )
                .await
                .unwrap()
                .iter()
                .map(|r| r.get(0))
                .collect();
                let query = |extra: &[(&str, &str)]| {
                    let mut pairs = vec![("limit", "4"), ("sort", "doc_status"), ("order", order)];
                    pairs.extend_from_slice(&filter);
                    pairs.extend_from_slice(extra);
                    ContractListQuery::parse(&raw(&pairs)).unwrap()
                };
                let first = s.store.list_contracts(at, &query(&[])).await.unwrap();
                assert_eq!(first.total, expected.len() as u64);
                let pages = first.total.div_ceil(4);
                let mut by_number = Vec::new();
                for page in 1..=pages {
                    let page = page.to_string();
                    let listed = s
                        .store
                        .list_contracts(at, &query(&[("page", &page)]))
                        .await
                        .unwrap();
                    by_number.extend(listed.items.iter().map(|c| c.id.get()));
                }
                assert_eq!(
                    by_number, expected,
                    "{today} {order} {filter:?} by page number"
                );

                let mut forward: Vec<i64> = first.items.iter().map(|c| c.id.get()).collect();
                let mut next = first.cursors.next.clone();
                while let Some(cursor) = next {
                    let listed = s
                        .store
                        .list_contracts(at, &query(&[("cursor", &cursor)]))
                        .await
                        .unwrap();
                    forward.extend(listed.items.iter().map(|c| c.id.get()));
                    next = listed.cursors.next;
                }
                assert_eq!(
                    forward, expected,
                    "{today} {order} {filter:?} by cursor forward"
                );

                let last = pages.to_string();
                let listed = s
                    .store
                    .list_contracts(at, &query(&[("page", &last)]))
                    .await
                    .unwrap();
                let mut backward: Vec<i64> = listed.items.iter().map(|c| c.id.get()).collect();
                let mut prev = listed.cursors.prev;
                while let Some(cursor) = prev {
                    let listed = s
                        .store
                        .list_contracts(at, &query(&[("cursor", &cursor)]))
                        .await
                        .unwrap();
                    let mut ids: Vec<i64> = listed.items.iter().map(|c| c.id.get()).collect();
                    ids.extend(backward);
                    backward = ids;
                    prev = listed.cursors.prev;
                }
                assert_eq!(
                    backward, expected,
                    "{today} {order} {filter:?} by cursor backward"
                );
            }
        }
    }
}

#[tokio::test]
async fn a_search_page_is_the_same_below_and_past_the_matches_kept() {
    // Page 1 of a search keeps up to 2,000 matches and pages from them when they are all;
    // past that it counts and walks the rows. Both give the total and the first page a
    // plain SQL count and sort give, in each order.
    let s = seeded().await;
    s.exec(
        "INSERT INTO notes (title, description, creator_id, visibility)
         SELECT CASE WHEN g % 2 = 0 THEN 'Haystack ' ELSE 'haystack ' END || (g * 7919 % 10061),
                CASE WHEN g % 1000 = 0 THEN 'with a needle' ELSE 'straw' END, 1 + g % 2,
                CASE WHEN g % 5 = 0 THEN 'private' ELSE 'public' END
         FROM generate_series(1, 3000) g",
    )
    .await;
    let visible = "NOT sticky AND (visibility = 'public' OR creator_id = 1)";
    for (search, condition) in [
        ("needle", "description ILIKE '%needle%'"),
        ("haystack", "title ILIKE '%haystack%'"),
    ] {
        let matches = s
            .scalar(&format!(
                "SELECT count(*) FROM notes WHERE {visible} AND {condition}"
            ))
            .await;
        for (sort, order, sql_order) in [
            ("", "desc", "id DESC"),
            ("note_title", "asc", "lower(title) ASC, id ASC"),
            ("note_title", "desc", "lower(title) DESC, id DESC"),
        ] {
            let q = note_query(&[
                ("search", search),
                ("sort", sort),
                ("order", order),
                ("limit", "25"),
            ]);
            let listed = s.store.list_notes(ctx(), &q).await.unwrap();
            assert_eq!(
                listed.total,
                u64::try_from(matches).unwrap(),
                "{search} {sort}"
            );
            let ids: Vec<i64> = listed.items.iter().map(|n| n.id.get()).collect();
            let expected = s
                .sql()
                .await
                .query(
                    &format!(
                        "SELECT id FROM notes WHERE {visible} AND {condition} ORDER BY {sql_order} LIMIT 25"
                    ),
                    &[],
                )
                .await
                .unwrap()
                .iter()
                .map(|row| row.get::<_, i64>(0))
                .collect::<Vec<_>>();
            assert_eq!(ids, expected, "{search} {sort} {order}");
        }
        assert!(
            (search == "needle" && matches < 2_000) || (search == "haystack" && matches > 2_000),
            "{search}: {matches} matches fall on the intended side of the cap"
        );
    }
}

/// The deltas table's vacuum (`Store::vacuum_list_count_deltas`): without giving back, the
/// folded deltas' pages stay in the table and later deltas reuse them; giving back returns
/// the empty ones, so a total scans only what is pending. Totals are unchanged throughout.
#[tokio::test]
async fn vacuuming_the_deltas_reuses_their_pages_and_gives_them_back_when_asked() {
    let s = seeded().await;
    let writer = s.ids.admins[0];
    let pages = "SELECT pg_relation_size('list_count_deltas') \
                 / current_setting('block_size')::BIGINT";
    let insert = format!(
        "INSERT INTO notes (title, description, creator_id) \
         SELECT 'Vacuumed ' || g, 'd', {writer} FROM generate_series(1, 3000) g"
    );
    let total = |s: &Seeded| {
        let store = s.store.clone();
        async move {
            store
                .list_notes(as_user(writer), &note_query(&[]))
                .await
                .unwrap()
                .total
        }
    };
    // Only this test vacuums the table, wherever it runs.
    s.exec("ALTER TABLE list_count_deltas SET (autovacuum_enabled = false)")
        .await;
    s.exec(&insert).await;
    let filled = s.scalar(pages).await;
    assert!(filled >= 10, "3,000 deltas fill {filled} pages");
    let before = total(&s).await;

    assert!(s.store.fold_list_counts().await.unwrap() >= 3000);
    s.store.vacuum_list_count_deltas(false).await.unwrap();
    assert_eq!(s.scalar(pages).await, filled, "kept without give_back");
    assert_eq!(total(&s).await, before);
    s.exec(&insert).await;
    assert_eq!(
        s.scalar(pages).await,
        filled,
        "3,000 more deltas reused the vacuumed pages"
    );
    assert_eq!(total(&s).await, before + 3000);

    assert!(s.store.fold_list_counts().await.unwrap() >= 3000);
    s.store.vacuum_list_count_deltas(true).await.unwrap();
    assert!(s.scalar(pages).await <= 1, "the empty pages given back");
    assert_eq!(total(&s).await, before + 3000);
}
