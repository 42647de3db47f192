//! The migration runner, the test harness, references, keys and the seed.

use crm_core::category::CategoryType;
use crm_core::ids::{ApiKeyId, UserId};
use crm_core::note::NoteListQuery;
use crm_core::validation::{RefKind, References};
use crm_store_pg::migrate::{MIGRATIONS, create_database_if_missing, migrate};
use crm_store_pg::testing::TestDb;
use crm_store_pg::{StoreConfig, StoreError};

use crate::common::{ctx, raw, seeded};

#[tokio::test]
async fn migrating_a_migrated_database_applies_nothing() {
    let db = TestDb::new().await.unwrap();
    assert_eq!(migrate(db.config()).await.unwrap(), Vec::<i32>::new());
}

#[tokio::test]
async fn a_fresh_database_gets_every_migration_once_even_when_two_runners_start_together() {
    let db = TestDb::new().await.unwrap();
    let client = db.client().await.unwrap();
    // Start from an empty database of our own.
    let name = format!("{}_fresh", db.name());
    client
        .batch_execute(&format!("CREATE DATABASE \"{name}\""))
        .await
        .unwrap();
    // On the same server as the test's database (a private cluster's socket, say).
    let url = db.url_for(&name).unwrap();
    let cfg = StoreConfig::new(&url);
    let (a, b) = tokio::join!(migrate(&cfg), migrate(&cfg));
    let mut applied = [a.unwrap(), b.unwrap()];
    applied.sort();
    assert_eq!(applied[0], Vec::<i32>::new(), "one runner applies nothing");
    assert_eq!(
        applied[1],
        MIGRATIONS.iter().map(|m| m.version).collect::<Vec<_>>()
    );
    let other = crm_store_pg::pool::StoreConfig::new(&url);
    let store = crm_store_pg::Store::new(&other).unwrap();
    store.ping().await.unwrap();
    drop(store);
    client
        .batch_execute(&format!("DROP DATABASE \"{name}\" WITH (FORCE)"))
        .await
        .unwrap();
}

/// Migration 0015 on a database that already holds notes (as an upgrade runs it): their
/// search text is filled in, so searches find the notes written before it.
#[tokio::test]
async fn the_search_text_migration_covers_notes_written_before_it() {
    let s = seeded().await;
    // Back to the schema before 0015, then notes written there.
    s.exec(
        "DROP INDEX notes_search_trgm_idx;
         ALTER TABLE notes DROP COLUMN search_text;
         CREATE INDEX notes_title_trgm_idx ON notes USING gin (title gin_trgm_ops);
         CREATE INDEX notes_description_trgm_idx ON notes USING gin (description gin_trgm_ops);
         DELETE FROM schema_migrations WHERE version = 15;
         INSERT INTO notes (title, description, creator_id)
         VALUES ('Upgrade WALKTHROUGH', 'd', 1), ('t', 'Before the Walkthrough', 1);",
    )
    .await;
    assert_eq!(migrate(s.db.config()).await.unwrap(), vec![15]);
    let indexes = "SELECT string_agg(indexname, ' ' ORDER BY indexname) FROM pg_indexes \
                   WHERE tablename = 'notes' AND indexname LIKE '%trgm%'";
    let row = s.sql().await.query_one(indexes, &[]).await.unwrap();
    assert_eq!(row.get::<_, String>(0), "notes_search_trgm_idx");
    let q = NoteListQuery::parse(&raw(&[("search", "walkthrough")])).unwrap();
    let found = s.store.list_notes(ctx(), &q).await.unwrap();
    assert_eq!(found.total, 2);
    assert_eq!(
        s.scalar("SELECT count(*) FROM notes WHERE search_text IS DISTINCT FROM lower(title) || chr(1) || lower(description)")
            .await,
        0
    );
}

#[tokio::test]
async fn an_edited_migration_stops_the_runner() {
    let db = TestDb::new().await.unwrap();
    let client = db.client().await.unwrap();
    client
        .execute(
            "UPDATE schema_migrations SET checksum = 'edited' WHERE version = 2",
            &[],
        )
        .await
        .unwrap();
    let err = migrate(db.config()).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Migration(m) if m.contains("0002_milestones_and_tasks was edited")),
        "{err}"
    );
}

#[tokio::test]
async fn an_unknown_applied_migration_stops_the_runner() {
    let db = TestDb::new().await.unwrap();
    let client = db.client().await.unwrap();
    client
        .execute(
            "INSERT INTO schema_migrations (version, name, checksum) VALUES (999, 'future', 'x')",
            &[],
        )
        .await
        .unwrap();
    let err = migrate(db.config()).await.unwrap_err();
    assert!(
        matches!(&err, StoreError::Migration(m) if m.contains("does not know")),
        "{err}"
    );
}

#[tokio::test]
async fn the_database_is_created_when_missing_and_left_alone_when_present() {
    let db = TestDb::new().await.unwrap();
    let client = db.client().await.unwrap();
    let name = format!("{}_created", db.name());
    let url = db.url_for(&name).unwrap();
    let cfg = StoreConfig::new(&url);
    assert!(create_database_if_missing(&cfg).await.unwrap());
    assert!(!create_database_if_missing(&cfg).await.unwrap());
    client
        .batch_execute(&format!("DROP DATABASE \"{name}\" WITH (FORCE)"))
        .await
        .unwrap();

    // Several first starts at once: one creates it, none fails.
    let created = futures_util::future::join_all((0..6).map(|_| create_database_if_missing(&cfg)))
        .await
        .into_iter()
        .map(|outcome| outcome.unwrap())
        .filter(|created| *created)
        .count();
    assert_eq!(created, 1);
    client
        .batch_execute(&format!("DROP DATABASE \"{name}\" WITH (FORCE)"))
        .await
        .unwrap();
}

#[tokio::test]
async fn the_first_migration_brings_the_system_defaults() {
    let db = TestDb::new().await.unwrap();
    let client = db.client().await.unwrap();
    let rows = client
        .query(
            "SELECT name, type FROM categories WHERE system_default ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let got: Vec<(String, String)> = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
    assert_eq!(got.len(), 9);
    assert!(got.contains(&("Support".into(), "ticket".into())));
    assert!(got.iter().filter(|(n, _)| n == "Default").count() == 8);
    let tax = client
        .query_one("SELECT name, rate::text FROM tax_rates WHERE id = 1", &[])
        .await
        .unwrap();
    assert_eq!(
        (tax.get::<_, String>(0), tax.get::<_, String>(1)),
        ("No Tax".into(), "0.00".into())
    );
    let admin = client
        .query_one("SELECT is_admin, kind FROM users WHERE id = 1", &[])
        .await
        .unwrap();
    assert!(admin.get::<_, bool>(0));
}

#[tokio::test]
async fn the_seed_is_idempotent_and_returns_the_same_ids() {
    let s = seeded().await;
    let again = s.store.seed().await.unwrap();
    assert_eq!(again, s.ids);
    assert_eq!(s.ids.users[0], 1);
    assert_eq!(s.ids.clients.len(), 3);
    assert!(s.ids.clients.iter().any(|c| c.contact_email.is_none()));
    assert!(s.ids.tax_rates.iter().any(|t| t.rate == "8.25"));
    let client = s.db.client().await.unwrap();
    let count: i64 = client
        .query_one("SELECT count(*) FROM clients", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, 3);
    for project in &s.ids.projects {
        let titles: Vec<String> = client
            .query(
                "SELECT title FROM milestones WHERE project_id = $1 ORDER BY position",
                &[project],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect();
        assert_eq!(
            titles,
            [
                "Planning",
                "Design",
                "Development",
                "Testing",
                "Uncategorised"
            ]
        );
    }
}

#[tokio::test]
async fn concurrent_seeds_create_one_data_set() {
    let db = TestDb::new().await.unwrap();
    let store = db.store().unwrap();
    let (a, b) = tokio::join!(store.seed(), store.seed());
    assert_eq!(a.unwrap(), b.unwrap());
    let client = db.client().await.unwrap();
    let count: i64 = client
        .query_one("SELECT count(*) FROM projects", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(count, 2);
}

#[tokio::test]
async fn references_report_each_invalid_id_under_its_field() {
    let s = seeded().await;
    let mut refs = References::default();
    refs.push("doc_client_id", RefKind::Client, s.ids.clients[0].id);
    refs.push("doc_lead_id", RefKind::Lead, 999_999);
    refs.push("users.0", RefKind::TeamUser, s.ids.client_users[0]);
    refs.push("users.1", RefKind::TeamUser, 3);
    refs.push(
        "tax_rate_ids.0",
        RefKind::EnabledTaxRate,
        s.ids
            .tax_rates
            .iter()
            .find(|t| t.status == "disabled")
            .unwrap()
            .id,
    );
    refs.push(
        "bill_categoryid",
        RefKind::Category(CategoryType::Estimate),
        1,
    );
    refs.push(
        "doc_categoryid",
        RefKind::Category(CategoryType::Contract),
        3,
    );
    let errors = s.store.check_references(&refs, None).await.unwrap();
    let failing: Vec<&str> = errors.iter().map(|(f, _)| f).collect();
    assert_eq!(
        failing,
        [
            "bill_categoryid",
            "doc_lead_id",
            "tax_rate_ids.0",
            "users.0"
        ]
    );
    assert_eq!(
        errors.get("doc_lead_id").unwrap(),
        ["The selected doc lead id is invalid."]
    );
}

#[tokio::test]
async fn api_keys_keep_only_digests_and_can_be_revoked() {
    let s = seeded().await;
    let digest = [7u8; 32];
    let id = s
        .store
        .create_api_key("ci", UserId::new(1).unwrap(), &digest)
        .await
        .unwrap()
        .unwrap();
    let stored = s.store.api_key(id).await.unwrap().unwrap();
    assert_eq!(stored.digest, digest.to_vec());
    assert!(!stored.revoked);
    assert!(stored.user_is_admin);
    assert!(s.store.revoke_api_key(id).await.unwrap());
    assert!(!s.store.revoke_api_key(id).await.unwrap());
    assert!(s.store.api_key(id).await.unwrap().unwrap().revoked);
    assert_eq!(
        s.store.api_key(ApiKeyId::new(999).unwrap()).await.unwrap(),
        None
    );
    let listed = s.store.list_api_keys().await.unwrap();
    assert_eq!(listed.len(), 1);
    assert!(listed[0].revoked.is_some());
}

#[tokio::test]
async fn keys_are_only_for_administrators() {
    let s = seeded().await;
    let team_member = UserId::new(s.ids.users[2]).unwrap();
    let refused = s.store.create_api_key("x", team_member, &[1u8; 32]).await;
    assert_eq!(refused.unwrap(), None);
    assert!(
        s.store.list_api_keys().await.unwrap().is_empty(),
        "nothing stored"
    );
    let admin = UserId::new(s.ids.admins[1]).unwrap();
    let created = s.store.create_api_key("x", admin, &[2u8; 32]).await;
    assert!(created.unwrap().is_some());
}

#[tokio::test]
async fn a_key_lookup_says_whether_its_user_is_still_an_administrator() {
    let s = seeded().await;
    let admin = s.ids.admins[1];
    let id = s
        .store
        .create_api_key("x", UserId::new(admin).unwrap(), &[3u8; 32])
        .await
        .unwrap()
        .unwrap();
    assert!(s.store.api_key(id).await.unwrap().unwrap().user_is_admin);
    s.db.client()
        .await
        .unwrap()
        .execute("UPDATE users SET is_admin = false WHERE id = $1", &[&admin])
        .await
        .unwrap();
    let stored = s.store.api_key(id).await.unwrap().unwrap();
    assert!(!stored.user_is_admin && !stored.revoked);
}

#[tokio::test]
async fn an_unreachable_database_is_unavailable_not_a_panic() {
    let mut config = StoreConfig::new("host=127.0.0.1 port=1 user=postgres dbname=nothing");
    config.connect_timeout = std::time::Duration::from_millis(500);
    config.wait_timeout = std::time::Duration::from_millis(500);
    let store = crm_store_pg::Store::new(&config).unwrap();
    assert!(matches!(
        store.ping().await,
        Err(StoreError::Unavailable(_))
    ));
}

#[tokio::test]
async fn a_database_error_says_what_the_server_said_for_the_log() {
    let db = TestDb::new().await.unwrap();
    let client = db.client().await.unwrap();
    let error = client.query("SELECT 1 / 0", &[]).await.unwrap_err();
    let text = StoreError::from(error).to_string();
    assert!(text.contains("22012"), "{text}");
    assert!(text.contains("division by zero"), "{text}");

    let mut config = db.config().clone();
    config.database_url = config
        .database_url
        .replace(db.name(), &format!("{}_missing", db.name()));
    let store = crm_store_pg::Store::new(&config).unwrap();
    match store.ping().await {
        Err(StoreError::Unavailable(text)) => {
            assert!(
                text.contains("3D000") && text.contains("does not exist"),
                "{text}"
            )
        }
        other => panic!("{other:?}"),
    }
}
