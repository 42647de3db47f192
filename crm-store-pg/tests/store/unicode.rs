//! Look-alike names and normalised text (issue 33, item 6; migration 0018): names are
//! unique on their `name_key` (NFKC, default-ignorable characters removed, case folded),
//! held by the unique indexes also for writes that bypass crm-core and for concurrent
//! creates; text is stored in NFC, so a decomposed search finds composed records; the
//! migration normalises what was stored before it and stops on names that would collide.

use crm_core::category::{CategoryListQuery, NewCategory};
use crm_core::conflict::Conflict;
use crm_core::input::is_default_ignorable;
use crm_core::milestone::NewMilestone;
use crm_core::note::NoteListQuery;
use crm_store_pg::StoreError;
use crm_store_pg::migrate::migrate;
use futures_util::future::join_all;

use crate::common::{Seeded, ctx, invalid, messages, new_note, raw, seeded};

const TAKEN: &str = "A category with this name already exists.";

fn new_category(name: &str, category_type: &str) -> NewCategory {
    NewCategory::parse(&raw(&[
        ("category_name", name),
        ("category_type", category_type),
    ]))
    .unwrap()
}

fn new_milestone(project: i64, title: &str) -> NewMilestone {
    let project = project.to_string();
    NewMilestone::parse(&raw(&[
        ("milestone_projectid", project.as_str()),
        ("milestone_title", title),
        ("milestone_color", "info"),
    ]))
    .unwrap()
}

/// The SQLSTATE and constraint of a statement's failure.
async fn sql_failure(s: &Seeded, sql: &str) -> (String, String) {
    let e = s.sql().await.batch_execute(sql).await.unwrap_err();
    let db = e.as_db_error().unwrap();
    (
        db.code().code().to_owned(),
        db.constraint().unwrap_or_default().to_owned(),
    )
}

#[tokio::test]
async fn fullwidth_and_case_variants_of_a_category_name_are_duplicates() {
    let s = seeded().await;
    s.store
        .create_category(ctx(), &new_category("Retainers", "invoice"))
        .await
        .unwrap();
    // `Default` is the seeded system default of every type.
    for (name, kind) in [
        ("Ｄefault", "project"),
        ("ＤＥＦＡＵＬＴ", "project"),
        ("default", "estimate"),
        ("ｒｅｔａｉｎｅｒｓ", "invoice"),
        ("RETAINERS", "invoice"),
    ] {
        let e = invalid(
            s.store
                .create_category(ctx(), &new_category(name, kind))
                .await,
        );
        assert_eq!(messages(&e, "category_name"), [TAKEN], "{name}");
    }
    s.store
        .create_category(ctx(), &new_category("Second Stage", "invoice"))
        .await
        .unwrap();
    // Runs of spaces and a no-break space are one space.
    for name in [
        "Second  Stage",
        "SECOND\u{A0}stage",
        "ｓｅｃｏｎｄ ｓｔａｇｅ",
    ] {
        let e = invalid(
            s.store
                .create_category(ctx(), &new_category(name, "invoice"))
                .await,
        );
        assert_eq!(messages(&e, "category_name"), [TAKEN], "{name:?}");
    }
    // A rename to a look-alike of another name is refused too.
    let other = s
        .store
        .create_category(ctx(), &new_category("Other", "invoice"))
        .await
        .unwrap();
    let rename = crm_core::category::CategoryUpdate::parse(
        &raw(&[("category_name", "ＲＥＴＡＩＮＥＲＳ")]),
        other.id,
    )
    .unwrap();
    let e = invalid(s.store.update_category(other.id, &rename).await);
    assert_eq!(messages(&e, "category_name"), [TAKEN]);
    assert_eq!(
        s.scalar("SELECT count(*) FROM categories WHERE type = 'invoice'")
            .await,
        4,
        "Default, Retainers, Second Stage and Other"
    );
}

#[tokio::test]
async fn the_database_refuses_invisible_look_alikes_that_bypass_the_input_rules() {
    let s = seeded().await;
    // Written as SQL, past crm-core's refusal of these characters: the index still holds.
    for name in [
        "Default\\200B",
        "\\202EDefault",
        "Def\\00ADault",
        "\\FEFFDEFAULT",
        "Default\\FE0F",
    ] {
        let sql = format!("INSERT INTO categories (name, type) VALUES (U&'{name}', 'project')");
        assert_eq!(
            sql_failure(&s, &sql).await,
            ("23505".to_owned(), "categories_type_name_key".to_owned()),
            "{name}"
        );
    }
}

#[tokio::test]
async fn twenty_parallel_creates_of_look_alike_spellings_give_one_category() {
    let s = seeded().await;
    let spellings = [
        "Parallel",
        "PARALLEL",
        "Ｐａｒａｌｌｅｌ",
        "parallel",
        "ＰＡＲＡＬＬＥＬ",
    ];
    let commands: Vec<NewCategory> = (0..20)
        .map(|i| new_category(spellings[i % spellings.len()], "lead"))
        .collect();
    let results = join_all(
        commands
            .iter()
            .map(|cmd| s.store.create_category(ctx(), cmd)),
    )
    .await;
    let created = results.iter().filter(|r| r.is_ok()).count();
    let duplicates = results
        .iter()
        .filter(
            |r| matches!(r, Err(StoreError::Invalid(e)) if messages(e, "category_name") == [TAKEN]),
        )
        .count();
    assert_eq!((created, duplicates), (1, 19), "{results:?}");
    assert_eq!(
        s.scalar("SELECT count(*) FROM categories WHERE name_key(name) = 'parallel'")
            .await,
        1
    );
}

#[tokio::test]
async fn a_look_alike_milestone_title_is_a_duplicate_also_in_sql() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    s.store
        .create_milestone(ctx(), &new_milestone(project, "Launch"))
        .await
        .unwrap();
    for title in ["ＬＡＵＮＣＨ", "launch", "Ｌaunch"] {
        let result = s
            .store
            .create_milestone(ctx(), &new_milestone(project, title))
            .await;
        assert!(
            matches!(
                result,
                Err(StoreError::Conflict(Conflict::DuplicateMilestoneTitle))
            ),
            "{title}: {result:?}"
        );
    }
    let sql = format!(
        "INSERT INTO milestones (project_id, title, position) VALUES ({project}, U&'Launch\\200B', 99)"
    );
    assert_eq!(
        sql_failure(&s, &sql).await,
        (
            "23505".to_owned(),
            "milestones_project_title_key".to_owned()
        )
    );
}

/// The migration's list of characters the key removes is crm-core's
/// `is_default_ignorable`: the same code points, over the planes that have assigned
/// characters (0–3) and the tags plane's block.
#[tokio::test]
async fn the_key_removes_exactly_the_characters_crm_core_calls_default_ignorable() {
    let s = seeded().await;
    let rows = s
        .sql()
        .await
        .query(
            "SELECT cp FROM generate_series(1, 212991) cp \
             WHERE (cp < 55296 OR cp > 57343) AND name_key('a' || chr(cp) || 'b') = 'ab' \
             UNION ALL \
             SELECT cp FROM generate_series(917504, 921599) cp \
             WHERE name_key('a' || chr(cp) || 'b') = 'ab' ORDER BY 1",
            &[],
        )
        .await
        .unwrap();
    let removed: Vec<u32> = rows
        .iter()
        .map(|r| u32::try_from(r.get::<_, i32>(0)).unwrap())
        .collect();
    let ignorable: Vec<u32> = (1..=212_991u32)
        .chain(917_504..=921_599)
        .filter(|&cp| char::from_u32(cp).is_some_and(is_default_ignorable))
        .collect();
    assert_eq!(removed, ignorable);
}

#[tokio::test]
async fn a_decomposed_search_finds_composed_records_and_the_reverse() {
    let s = seeded().await;
    let composed = s
        .store
        .create_note(
            ctx(),
            &new_note(&[("note_title", "Café order"), ("note_description", "x")]),
        )
        .await
        .unwrap();
    // Sent decomposed, stored composed.
    let decomposed = s
        .store
        .create_note(
            ctx(),
            &new_note(&[
                ("note_title", "Second cafe\u{301}"),
                ("note_description", "x"),
            ]),
        )
        .await
        .unwrap();
    assert_eq!(decomposed.title, "Second café");
    for search in ["cafe\u{301}", "CAFE\u{301}", "café"] {
        let q = NoteListQuery::parse(&raw(&[("search", search)])).unwrap();
        let found = s.store.list_notes(ctx(), &q).await.unwrap();
        let mut ids: Vec<i64> = found.items.iter().map(|n| n.id.get()).collect();
        ids.sort_unstable();
        assert_eq!(ids, [composed.id.get(), decomposed.id.get()], "{search:?}");
    }
    s.store
        .create_category(ctx(), &new_category("Cafe\u{301} Crème", "lead"))
        .await
        .unwrap();
    let q = CategoryListQuery::parse(&raw(&[("search", "cafe\u{301} cre\u{300}me")])).unwrap();
    let found = s.store.list_categories(&q).await.unwrap();
    assert_eq!(
        found
            .items
            .iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>(),
        ["Café Crème"]
    );
}

/// Back to the schema before 0018 (the old indexes, no key function), as an upgrade finds
/// it.
const BEFORE_0018: &str = "
    DROP INDEX categories_type_name_key;
    DROP INDEX milestones_project_title_key;
    DROP FUNCTION name_key(TEXT);
    CREATE UNIQUE INDEX categories_type_name_key ON categories (type, lower(name));
    CREATE UNIQUE INDEX milestones_project_title_key ON milestones (project_id, lower(title));
    DELETE FROM schema_migrations WHERE version = 18;";

#[tokio::test]
async fn the_migration_normalises_text_stored_before_it() {
    let s = seeded().await;
    s.exec(BEFORE_0018).await;
    let note = s.ids.notes.public;
    s.exec(&format!(
        "INSERT INTO categories (name, type) VALUES (U&'Cafe\\0301 Cre\\0300me', 'lead');
         UPDATE notes SET title = U&'Decomposed cafe\\0301', description = U&'Ame\\0301lie'
             WHERE id = {note};
         DELETE FROM tags WHERE note_id = {note};
         INSERT INTO tags (title, position, note_id)
             VALUES ('café', 1, {note}), (U&'cafe\\0301', 2, {note}), ('tea', 3, {note});
         UPDATE clients SET company_name = U&'Socie\\0301te\\0301 Ge\\0301ne\\0301rale'
             WHERE id = (SELECT min(id) FROM clients);"
    ))
    .await;
    assert_eq!(migrate(s.db.config()).await.unwrap(), vec![18]);
    assert_eq!(
        s.scalar("SELECT count(*) FROM categories WHERE name = 'Café Crème'")
            .await,
        1
    );
    assert_eq!(
        s.scalar(&format!(
            "SELECT count(*) FROM notes WHERE id = {note} \
             AND title = 'Decomposed café' AND description = 'Amélie' \
             AND search_text = lower(title) || chr(1) || lower(description)"
        ))
        .await,
        1
    );
    let tags = s
        .sql()
        .await
        .query(
            &format!("SELECT title FROM tags WHERE note_id = {note} ORDER BY position"),
            &[],
        )
        .await
        .unwrap();
    let tags: Vec<String> = tags.iter().map(|r| r.get(0)).collect();
    assert_eq!(tags, ["café", "tea"]);
    assert_eq!(
        s.scalar("SELECT count(*) FROM clients WHERE company_name = 'Société Générale'")
            .await,
        1
    );
    let q = NoteListQuery::parse(&raw(&[("search", "cafe\u{301}")])).unwrap();
    let found = s.store.list_notes(ctx(), &q).await.unwrap();
    assert!(found.items.iter().any(|n| n.id.get() == note));
}

#[tokio::test]
async fn the_migration_stops_on_names_that_would_collide_and_changes_nothing() {
    let s = seeded().await;
    s.exec(BEFORE_0018).await;
    s.exec(
        "INSERT INTO categories (name, type) VALUES
             (U&'\\FF24efault', 'project'), (U&'Default\\200B', 'project'), ('Unique', 'project');
         UPDATE categories SET name = U&'Cafe\\0301' WHERE name = 'Unique';",
    )
    .await;
    let err = migrate(s.db.config()).await.unwrap_err();
    let StoreError::Migration(message) = &err else {
        panic!("{err}");
    };
    for part in [
        "0018_unicode_names failed",
        "names that differ only in case, width, spacing or invisible characters",
        "categories of type project:",
        "\"Ｄefault\"",
        "Rename all but one name of each group",
    ] {
        assert!(message.contains(part), "{part:?} in {message}");
    }
    // Rolled back whole: still without 0018 (the later migrations, applied before the test
    // took 0018 back, stay recorded), the old index, the text as it was.
    assert_eq!(
        s.scalar("SELECT count(*) FROM schema_migrations WHERE version = 18")
            .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM pg_proc WHERE proname = 'name_key'")
            .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM categories WHERE name = U&'Cafe\\0301'")
            .await,
        1
    );
}
