//! Categories: reads and counts, create/update/delete, teams with project permissions,
//! migration, lists, and the races the database must settle.

// Test helpers unwrap: a failing call is a failing test.
#![allow(clippy::unwrap_used)]

use crm_core::category::{
    Category, CategoryListQuery, CategoryMigration, CategoryTeam, CategoryUpdate, NewCategory,
};
use crm_core::conflict::{Conflict, Resource};
use crm_core::ids::CategoryId;
use crm_core::input::RawMap;
use crm_store_pg::{Store, StoreError};
use futures_util::future::join_all;

use crate::common::{Seeded, ctx, invalid, list, messages, raw, seeded};

fn new_category(name: &str, category_type: &str) -> NewCategory {
    NewCategory::parse(&raw(&[
        ("category_name", name),
        ("category_type", category_type),
    ]))
    .unwrap()
}

fn update(id: CategoryId, pairs: &[(&str, &str)]) -> CategoryUpdate {
    CategoryUpdate::parse(&raw(pairs), id).unwrap()
}

fn team(users: &[&str]) -> CategoryTeam {
    let mut r = RawMap::new();
    r.insert("users", list(users));
    CategoryTeam::parse(&r).unwrap()
}

fn migration(source: CategoryId, target: i64) -> CategoryMigration {
    CategoryMigration::parse(&raw(&[("target_id", &target.to_string())]), source).unwrap()
}

fn query(pairs: &[(&str, &str)]) -> CategoryListQuery {
    CategoryListQuery::parse(&raw(pairs)).unwrap()
}

fn cid(id: i64) -> CategoryId {
    CategoryId::new(id).unwrap()
}

fn is_not_found(result: Result<impl std::fmt::Debug, StoreError>) -> bool {
    matches!(result, Err(StoreError::NotFound(Resource::Category)))
}

/// The system default category of `category_type`.
async fn default_of(s: &Seeded, category_type: &str) -> CategoryId {
    cid(s.default_category(category_type).await)
}

async fn create(store: &Store, name: &str, category_type: &str) -> Category {
    store
        .create_category(ctx(), &new_category(name, category_type))
        .await
        .unwrap()
}

/// `(user_id, source)` of the project's assignments, sorted.
async fn assignments(s: &Seeded, project: i64) -> Vec<(i64, String)> {
    let client = s.db.client().await.unwrap();
    let rows = client
        .query(
            "SELECT user_id, source FROM project_assignments WHERE project_id = $1 ORDER BY source, user_id",
            &[&project],
        )
        .await
        .unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

async fn fail_inserts_into(s: &Seeded, table: &str) {
    let client = s.db.client().await.unwrap();
    client
        .batch_execute(&format!(
            "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$;
             CREATE TRIGGER boom BEFORE INSERT ON {table} FOR EACH ROW EXECUTE FUNCTION boom();"
        ))
        .await
        .unwrap();
}

#[tokio::test]
async fn a_new_category_comes_back_with_its_slug_and_empty_counts() {
    let s = seeded().await;
    let cmd = NewCategory::parse(&raw(&[
        ("category_name", "Dev & Engineering"),
        ("category_type", "project"),
        ("category_visibility", "team"),
        ("category_description", "Software work."),
        ("category_icon", "ti ti-folder"),
    ]))
    .unwrap();
    let created = s.store.create_category(ctx(), &cmd).await.unwrap();
    assert_eq!(created.slug, format!("{}-dev-engineering", created.id));
    assert_eq!(created.name, "Dev & Engineering");
    assert_eq!(created.category_type.as_str(), "project");
    assert_eq!(created.visibility.map(|v| v.as_str()), Some("team"));
    assert_eq!(created.description.as_deref(), Some("Software work."));
    assert_eq!(created.icon.as_deref(), Some("ti ti-folder"));
    assert!(!created.system_default);
    assert_eq!((created.count, created.users_count), (0, 0));
    assert_eq!(s.store.category(created.id).await.unwrap(), created);
}

#[tokio::test]
async fn unknown_categories_are_not_found_by_every_operation() {
    let s = seeded().await;
    let missing = cid(999_999);
    assert!(is_not_found(s.store.category(missing).await));
    assert!(is_not_found(
        s.store
            .update_category(missing, &update(missing, &[("category_name", "X")]))
            .await
    ));
    assert!(is_not_found(s.store.delete_category(missing).await));
    assert!(is_not_found(
        s.store.set_category_team(missing, &team(&["3"])).await
    ));
    let target = default_of(&s, "project").await.get();
    assert!(is_not_found(
        s.store
            .migrate_category(missing, &migration(missing, target))
            .await
    ));
}

#[tokio::test]
async fn count_is_the_records_of_the_category_type_and_document_estimates_never_count() {
    let s = seeded().await;
    assert_eq!(
        s.store
            .category(default_of(&s, "project").await)
            .await
            .unwrap()
            .count,
        2
    );
    assert_eq!(
        s.store
            .category(default_of(&s, "client").await)
            .await
            .unwrap()
            .count,
        3
    );
    assert_eq!(
        s.store
            .category(default_of(&s, "lead").await)
            .await
            .unwrap()
            .count,
        2
    );
    assert_eq!(
        s.store
            .category(default_of(&s, "ticket").await)
            .await
            .unwrap()
            .count,
        1
    );
    let estimates = default_of(&s, "estimate").await;
    let client = s.db.client().await.unwrap();
    let acme = s.ids.clients[0].id;
    client
        .execute(
            "INSERT INTO estimates (client_id, category_id, date) VALUES ($1, $2, '2026-01-01')",
            &[&acme, &estimates.get()],
        )
        .await
        .unwrap();
    client
        .execute(
            "INSERT INTO estimates (is_document, client_id, date) VALUES (TRUE, $1, '2026-01-01')",
            &[&acme],
        )
        .await
        .unwrap();
    assert_eq!(s.store.category(estimates).await.unwrap().count, 1);
    let proposals = create(&s.store, "Proposals", "proposal").await;
    assert_eq!(proposals.count, 0);
}

#[tokio::test]
async fn twenty_parallel_creates_of_one_name_give_one_category_and_nineteen_duplicate_errors() {
    let s = seeded().await;
    let names = ["Parallel", "PARALLEL", "parallel", "PaRaLlEl"];
    let attempts = (0..20).map(|i| {
        let store = s.store.clone();
        let cmd = new_category(names[i % names.len()], "project");
        async move { store.create_category(ctx(), &cmd).await }
    });
    let results = join_all(attempts).await;
    let created = results.iter().filter(|r| r.is_ok()).count();
    let duplicates = results
        .iter()
        .filter(|r| {
            matches!(r, Err(StoreError::Invalid(e))
                if messages(e, "category_name") == ["A category with this name already exists."])
        })
        .count();
    assert_eq!((created, duplicates), (1, 19), "{results:?}");
    let client = s.db.client().await.unwrap();
    let rows: i64 = client
        .query_one(
            "SELECT count(*) FROM categories WHERE lower(name) = 'parallel'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(rows, 1);
}

#[tokio::test]
async fn a_name_is_unique_within_its_type_only() {
    let s = seeded().await;
    create(&s.store, "Retainers", "invoice").await;
    let e = invalid(
        s.store
            .create_category(ctx(), &new_category("RETAINERS", "invoice"))
            .await,
    );
    assert_eq!(
        messages(&e, "category_name"),
        ["A category with this name already exists."]
    );
    let other_type = create(&s.store, "Retainers", "estimate").await;
    assert_eq!(other_type.name, "Retainers");
}

#[tokio::test]
async fn renaming_regenerates_the_slug_and_a_taken_name_is_a_duplicate() {
    let s = seeded().await;
    let dev = create(&s.store, "Development", "project").await;
    create(&s.store, "Design", "project").await;
    let renamed = s
        .store
        .update_category(
            dev.id,
            &update(dev.id, &[("category_name", "Dev & Engineering")]),
        )
        .await
        .unwrap();
    assert_eq!(renamed.slug, format!("{}-dev-engineering", dev.id));
    assert!(renamed.dates.updated >= dev.dates.updated);
    let e = invalid(
        s.store
            .update_category(dev.id, &update(dev.id, &[("category_name", "design")]))
            .await,
    );
    assert_eq!(
        messages(&e, "category_name"),
        ["A category with this name already exists."]
    );
    let own = s
        .store
        .update_category(
            dev.id,
            &update(dev.id, &[("category_name", "DEV & ENGINEERING")]),
        )
        .await
        .unwrap();
    assert_eq!(own.name, "DEV & ENGINEERING");
    assert_eq!(
        s.store.category(dev.id).await.unwrap().name,
        "DEV & ENGINEERING"
    );
}

#[tokio::test]
async fn an_update_keeps_absent_fields_and_clears_empty_ones() {
    let s = seeded().await;
    let cmd = NewCategory::parse(&raw(&[
        ("category_name", "Support"),
        ("category_type", "lead"),
        ("category_visibility", "client"),
        ("category_description", "Inbound."),
        ("category_icon", "ti ti-help"),
    ]))
    .unwrap();
    let created = s.store.create_category(ctx(), &cmd).await.unwrap();
    let kept = s
        .store
        .update_category(
            created.id,
            &update(created.id, &[("category_name", "Help")]),
        )
        .await
        .unwrap();
    assert_eq!(kept.visibility, created.visibility);
    assert_eq!(kept.description, created.description);
    assert_eq!(kept.icon, created.icon);
    let cleared = s
        .store
        .update_category(
            created.id,
            &update(
                created.id,
                &[
                    ("category_name", "Help"),
                    ("category_description", ""),
                    ("category_visibility", "everyone"),
                ],
            ),
        )
        .await
        .unwrap();
    assert_eq!(cleared.description, None);
    assert_eq!(cleared.visibility.map(|v| v.as_str()), Some("everyone"));
    assert_eq!(cleared.icon.as_deref(), Some("ti ti-help"));
    assert_eq!(cleared.category_type, created.category_type);
}

#[tokio::test]
async fn system_defaults_and_non_empty_categories_cannot_be_deleted() {
    let s = seeded().await;
    let default = default_of(&s, "expense").await;
    assert!(matches!(
        s.store.delete_category(default).await,
        Err(StoreError::Conflict(Conflict::SystemDefaultCategory))
    ));
    let full = create(&s.store, "Travel", "expense").await;
    let client = s.db.client().await.unwrap();
    client
        .execute("UPDATE expenses SET category_id = $1", &[&full.id.get()])
        .await
        .unwrap();
    assert!(matches!(
        s.store.delete_category(full.id).await,
        Err(StoreError::Conflict(Conflict::CategoryNotEmpty))
    ));
    assert_eq!(s.store.category(full.id).await.unwrap().count, 1);
}

#[tokio::test]
async fn deleting_an_empty_category_removes_it_and_its_team() {
    let s = seeded().await;
    let empty = create(&s.store, "Old", "project").await;
    s.store
        .set_category_team(empty.id, &team(&["3", "4"]))
        .await
        .unwrap();
    s.store.delete_category(empty.id).await.unwrap();
    assert!(is_not_found(s.store.category(empty.id).await));
    let client = s.db.client().await.unwrap();
    let team_rows: i64 = client
        .query_one(
            "SELECT count(*) FROM category_users WHERE category_id = $1",
            &[&empty.id.get()],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(team_rows, 0);
    assert!(is_not_found(s.store.delete_category(empty.id).await));
}

#[tokio::test]
async fn setting_the_team_replaces_it_and_syncs_category_permissions_leaving_manual_ones() {
    let s = seeded().await;
    let (p1, p2) = (s.ids.projects[0], s.ids.projects[1]);
    let dev = create(&s.store, "Development", "project").await;
    let client = s.db.client().await.unwrap();
    client
        .execute(
            "UPDATE projects SET category_id = $1 WHERE id = $2",
            &[&dev.id.get(), &p1],
        )
        .await
        .unwrap();
    client
        .batch_execute(&format!(
            "INSERT INTO project_assignments (project_id, user_id, source) VALUES
             ({p1}, 4, 'manual'), ({p1}, 2, 'category'), ({p2}, 2, 'category')"
        ))
        .await
        .unwrap();

    let with_team = s
        .store
        .set_category_team(dev.id, &team(&["3", "4", "3"]))
        .await
        .unwrap();
    assert_eq!(with_team.users_count, 2);
    let category = |u: i64| (u, "category".to_owned());
    let manual = |u: i64| (u, "manual".to_owned());
    assert_eq!(
        assignments(&s, p1).await,
        vec![category(3), category(4), manual(4)]
    );
    assert_eq!(
        assignments(&s, p2).await,
        vec![category(2)],
        "other categories' projects are untouched"
    );

    let smaller = s
        .store
        .set_category_team(dev.id, &team(&["4"]))
        .await
        .unwrap();
    assert_eq!(smaller.users_count, 1);
    assert_eq!(assignments(&s, p1).await, vec![category(4), manual(4)]);

    let cleared = s.store.set_category_team(dev.id, &team(&[])).await.unwrap();
    assert_eq!(cleared.users_count, 0);
    assert_eq!(assignments(&s, p1).await, vec![manual(4)]);
}

#[tokio::test]
async fn a_team_of_client_users_or_unknown_users_is_invalid_per_element() {
    let s = seeded().await;
    let dev = create(&s.store, "Development", "project").await;
    s.store
        .set_category_team(dev.id, &team(&["3"]))
        .await
        .unwrap();
    let client_user = s.ids.client_users[0].to_string();
    let e = invalid(
        s.store
            .set_category_team(dev.id, &team(&["4", &client_user, "999999"]))
            .await,
    );
    assert!(!e.has("users.0"));
    assert_eq!(
        messages(&e, "users.1"),
        ["The selected users.1 is invalid."]
    );
    assert_eq!(
        messages(&e, "users.2"),
        ["The selected users.2 is invalid."]
    );
    assert_eq!(
        s.store.category(dev.id).await.unwrap().users_count,
        1,
        "the team is unchanged"
    );
}

#[tokio::test]
async fn a_failed_permission_sync_leaves_the_team_as_it_was() {
    let s = seeded().await;
    let dev = create(&s.store, "Development", "project").await;
    let client = s.db.client().await.unwrap();
    client
        .execute("UPDATE projects SET category_id = $1", &[&dev.id.get()])
        .await
        .unwrap();
    s.store
        .set_category_team(dev.id, &team(&["3"]))
        .await
        .unwrap();
    fail_inserts_into(&s, "project_assignments").await;
    assert!(
        s.store
            .set_category_team(dev.id, &team(&["4"]))
            .await
            .is_err()
    );
    let members: Vec<i64> = client
        .query(
            "SELECT user_id FROM category_users WHERE category_id = $1",
            &[&dev.id.get()],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(members, vec![3]);
    assert_eq!(
        assignments(&s, s.ids.projects[0]).await,
        vec![(3, "category".to_owned())]
    );
}

/// Puts records into a new `Source <type>` category for every type with records, and
/// creates an empty `Target <type>`; returns `(type, source, target, records)`.
async fn fill_one_source_per_type(s: &Seeded) -> Vec<(&'static str, CategoryId, CategoryId, i64)> {
    let client = s.db.client().await.unwrap();
    let acme = s.ids.clients[0].id;
    let mut out = Vec::new();
    for (category_type, table) in [
        ("project", "projects"),
        ("client", "clients"),
        ("contract", "contracts"),
        ("estimate", "estimates"),
        ("invoice", "invoices"),
        ("lead", "leads"),
        ("ticket", "tickets"),
        ("item", "items"),
        ("expense", "expenses"),
    ] {
        let source = create(&s.store, &format!("Source {category_type}"), category_type)
            .await
            .id;
        let target = create(&s.store, &format!("Target {category_type}"), category_type)
            .await
            .id;
        let (src, default) = (source.get(), default_of(s, category_type).await.get());
        match category_type {
            "estimate" => {
                let sql = "INSERT INTO estimates (client_id, category_id, date) VALUES ($1, $2, '2026-01-01')";
                client.execute(sql, &[&acme, &src]).await.unwrap();
            }
            "invoice" => {
                let sql = "INSERT INTO invoices (client_id, category_id, date) VALUES ($1, $2, '2026-01-01')";
                client.execute(sql, &[&acme, &src]).await.unwrap();
            }
            "contract" => {
                let doc = "INSERT INTO estimates (is_document, client_id, date) VALUES (TRUE, $1, '2026-01-01') RETURNING id";
                let estimate: i64 = client.query_one(doc, &[&acme]).await.unwrap().get(0);
                let sql = "INSERT INTO contracts (title, client_id, category_id, estimate_id, date_start) \
                           VALUES ('Support', $1, $2, $3, '2026-01-01')";
                client
                    .execute(sql, &[&acme, &src, &estimate])
                    .await
                    .unwrap();
            }
            _ => {
                let sql = format!("UPDATE {table} SET category_id = $1 WHERE category_id = $2");
                client.execute(&sql, &[&src, &default]).await.unwrap();
            }
        }
        let records = s.store.category(source).await.unwrap().count;
        assert!(records > 0, "{category_type}");
        out.push((category_type, source, target, records));
    }
    out
}

#[tokio::test]
async fn migrating_moves_every_record_of_every_type_to_the_target() {
    let s = seeded().await;
    for (category_type, source, target, records) in fill_one_source_per_type(&s).await {
        let emptied = s
            .store
            .migrate_category(source, &migration(source, target.get()))
            .await
            .unwrap();
        assert_eq!((emptied.id, emptied.count), (source, 0), "{category_type}");
        assert_eq!(
            s.store.category(target).await.unwrap().count,
            records,
            "{category_type}"
        );
        s.store.delete_category(source).await.unwrap();
    }
}

#[tokio::test]
async fn every_table_referencing_categories_is_known_to_migration_and_count() {
    let s = seeded().await;
    let client = s.db.client().await.unwrap();
    let rows = client
        .query(
            "SELECT conrelid::regclass::text FROM pg_constraint
             WHERE contype = 'f' AND confrelid = 'categories'::regclass ORDER BY 1",
            &[],
        )
        .await
        .unwrap();
    let tables: Vec<String> = rows.iter().map(|r| r.get(0)).collect();
    let expected = [
        "category_users",
        "clients",
        "contracts",
        "estimates",
        "expenses",
        "invoices",
        "items",
        "leads",
        "projects",
        "tickets",
    ];
    assert_eq!(
        tables, expected,
        "a new table points at categories: migrate_category and the count must move/count it"
    );
}

#[tokio::test]
async fn migrating_resyncs_the_moved_projects_to_the_target_team() {
    let s = seeded().await;
    let p1 = s.ids.projects[0];
    let source = create(&s.store, "Source", "project").await.id;
    let target = create(&s.store, "Target", "project").await.id;
    let client = s.db.client().await.unwrap();
    client
        .execute(
            "UPDATE projects SET category_id = $1 WHERE id = $2",
            &[&source.get(), &p1],
        )
        .await
        .unwrap();
    client
        .execute("INSERT INTO project_assignments (project_id, user_id, source) VALUES ($1, 2, 'manual')", &[&p1])
        .await
        .unwrap();
    s.store
        .set_category_team(source, &team(&["3"]))
        .await
        .unwrap();
    s.store
        .set_category_team(target, &team(&["4", "2"]))
        .await
        .unwrap();
    let emptied = s
        .store
        .migrate_category(source, &migration(source, target.get()))
        .await
        .unwrap();
    assert_eq!((emptied.count, emptied.users_count), (0, 1));
    let expected = vec![
        (2, "category".to_owned()),
        (4, "category".to_owned()),
        (2, "manual".to_owned()),
    ];
    assert_eq!(assignments(&s, p1).await, expected);
    assert_eq!(
        assignments(&s, s.ids.projects[1]).await,
        vec![],
        "projects not moved are untouched"
    );
}

#[tokio::test]
async fn migrating_to_a_missing_or_other_type_category_is_invalid() {
    let s = seeded().await;
    let source = default_of(&s, "project").await;
    let e = invalid(
        s.store
            .migrate_category(source, &migration(source, 999_999))
            .await,
    );
    assert_eq!(
        messages(&e, "target_id"),
        ["The selected target id is invalid."]
    );
    let clients = default_of(&s, "client").await;
    let e = invalid(
        s.store
            .migrate_category(source, &migration(source, clients.get()))
            .await,
    );
    assert_eq!(
        messages(&e, "target_id"),
        ["The selected target id is invalid."]
    );
    assert_eq!(
        s.store.category(source).await.unwrap().count,
        2,
        "nothing moved"
    );
}

#[tokio::test]
async fn a_failed_migration_moves_nothing() {
    let s = seeded().await;
    let source = default_of(&s, "project").await;
    let target = create(&s.store, "Target", "project").await.id;
    s.store
        .set_category_team(target, &team(&["3"]))
        .await
        .unwrap();
    fail_inserts_into(&s, "project_assignments").await;
    assert!(
        s.store
            .migrate_category(source, &migration(source, target.get()))
            .await
            .is_err()
    );
    assert_eq!(s.store.category(source).await.unwrap().count, 2);
    assert_eq!(s.store.category(target).await.unwrap().count, 0);
}

#[tokio::test]
async fn opposite_migrations_running_together_do_not_deadlock() {
    let s = seeded().await;
    let a = default_of(&s, "client").await;
    let b = create(&s.store, "Other clients", "client").await.id;
    let (to_b, to_a) = (migration(a, b.get()), migration(b, a.get()));
    for _ in 0..5 {
        let (ab, ba) = tokio::join!(
            s.store.migrate_category(a, &to_b),
            s.store.migrate_category(b, &to_a)
        );
        ab.unwrap();
        ba.unwrap();
        let counts = (
            s.store.category(a).await.unwrap().count,
            s.store.category(b).await.unwrap().count,
        );
        assert!(counts == (3, 0) || counts == (0, 3), "{counts:?}");
    }
}

/// Names of a list page.
async fn names(store: &Store, pairs: &[(&str, &str)]) -> (Vec<String>, u64) {
    let listed = store.list_categories(&query(pairs)).await.unwrap();
    (
        listed.items.into_iter().map(|c| c.name).collect(),
        listed.total,
    )
}

#[tokio::test]
async fn lists_page_with_exact_totals_and_ties_broken_by_id() {
    let s = seeded().await;
    let mut ids = Vec::new();
    for name in ["Alpha", "Bravo", "Charlie", "Delta", "Echo"] {
        ids.push(create(&s.store, name, "knowledgebase").await.id);
    }
    // All of one type: sorting by type ties everywhere, so the order is the id's.
    let mut seen = Vec::new();
    for page in ["1", "2", "3"] {
        let q = query(&[
            ("type", "knowledgebase"),
            ("sort", "category_type"),
            ("order", "asc"),
            ("limit", "2"),
            ("page", page),
        ]);
        let listed = s.store.list_categories(&q).await.unwrap();
        assert_eq!(listed.total, 5);
        seen.extend(listed.items.iter().map(|c| c.id));
    }
    assert_eq!(seen, ids);
    let past = s
        .store
        .list_categories(&query(&[
            ("type", "knowledgebase"),
            ("limit", "2"),
            ("page", "4"),
        ]))
        .await
        .unwrap();
    assert_eq!((past.items.len(), past.total), (0, 5));
    let newest_first = s
        .store
        .list_categories(&query(&[("type", "knowledgebase")]))
        .await
        .unwrap();
    let mut expected = ids.clone();
    expected.reverse();
    assert_eq!(
        newest_first.items.iter().map(|c| c.id).collect::<Vec<_>>(),
        expected
    );
    let all = s
        .store
        .list_categories(&query(&[("limit", "100")]))
        .await
        .unwrap();
    assert_eq!((all.items.len() as u64, all.total), (14, 14));
}

#[tokio::test]
async fn system_defaults_created_together_sort_by_creation_then_id() {
    let s = seeded().await;
    let listed = s
        .store
        .list_categories(&query(&[
            ("sort", "category_created"),
            ("order", "desc"),
            ("limit", "100"),
        ]))
        .await
        .unwrap();
    let keys: Vec<_> = listed
        .items
        .iter()
        .map(|c| (c.dates.created, c.id))
        .collect();
    let mut sorted = keys.clone();
    sorted.sort_by(|a, b| b.cmp(a));
    assert_eq!(keys, sorted);
    assert_eq!(keys.len(), 9);
    assert!(
        keys.windows(2).all(|w| w[0].0 == w[1].0),
        "the migration created them in one transaction"
    );
}

#[tokio::test]
async fn lists_filter_by_type_and_visibility_and_sort_by_name() {
    let s = seeded().await;
    for (name, visibility) in [("Charlie", "team"), ("Alpha", "team"), ("Bravo", "client")] {
        let cmd = NewCategory::parse(&raw(&[
            ("category_name", name),
            ("category_type", "subscription"),
            ("category_visibility", visibility),
        ]))
        .unwrap();
        s.store.create_category(ctx(), &cmd).await.unwrap();
    }
    let by_name = [
        ("type", "subscription"),
        ("sort", "category_name"),
        ("order", "asc"),
    ];
    assert_eq!(
        names(&s.store, &by_name).await,
        (vec!["Alpha".into(), "Bravo".into(), "Charlie".into()], 3)
    );
    let team_only = [
        ("type", "subscription"),
        ("visibility", "team"),
        ("sort", "category_name"),
        ("order", "desc"),
    ];
    assert_eq!(
        names(&s.store, &team_only).await,
        (vec!["Charlie".into(), "Alpha".into()], 2)
    );
    let everyone = s
        .store
        .list_categories(&query(&[("visibility", "everyone"), ("limit", "100")]))
        .await
        .unwrap();
    assert_eq!(everyone.total, 9);
    let by_type = s
        .store
        .list_categories(&query(&[
            ("sort", "category_type"),
            ("order", "asc"),
            ("limit", "100"),
        ]))
        .await
        .unwrap();
    let types: Vec<&str> = by_type
        .items
        .iter()
        .map(|c| c.category_type.as_str())
        .collect();
    let mut sorted = types.clone();
    sorted.sort();
    assert_eq!(types, sorted);
}

#[tokio::test]
async fn search_matches_names_case_insensitively_with_literal_percent_and_underscore() {
    let s = seeded().await;
    for name in ["50% off", "50 percent", "a_b", "axb"] {
        create(&s.store, name, "proposal").await;
    }
    assert_eq!(
        names(&s.store, &[("search", "50%")]).await,
        (vec!["50% off".into()], 1)
    );
    assert_eq!(
        names(&s.store, &[("search", "a_b")]).await,
        (vec!["a_b".into()], 1)
    );
    assert_eq!(
        names(&s.store, &[("search", "OFF")]).await,
        (vec!["50% off".into()], 1)
    );
    let (mut found, total) = names(&s.store, &[("search", "50")]).await;
    found.sort();
    assert_eq!(
        (found, total),
        (vec!["50 percent".to_owned(), "50% off".to_owned()], 2)
    );
    assert_eq!(
        names(&s.store, &[("search", "%")]).await,
        (vec!["50% off".into()], 1)
    );
}

#[tokio::test]
async fn sorting_by_name_ignores_case() {
    let s = seeded().await;
    for name in ["banana", "Apple", "cherry"] {
        create(&s.store, name, "proposal").await;
    }
    let listed = s
        .store
        .list_categories(&query(&[
            ("type", "proposal"),
            ("sort", "category_name"),
            ("order", "asc"),
        ]))
        .await
        .unwrap();
    let names: Vec<&str> = listed.items.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["Apple", "banana", "cherry"]);
}
