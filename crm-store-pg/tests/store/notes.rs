//! Notes: visibility (private notes of others and sticky notes are not found), resources,
//! list filters, search, paging, patch semantics, delete and tags.

// Test helpers unwrap: a failing call is a failing test.
#![allow(clippy::unwrap_used)]

use crm_core::conflict::Resource;
use crm_core::ids::{NoteId, UserId};
use crm_core::note::{Note, NoteListQuery, NoteResourceType, NoteUpdate, NoteVisibility};
use crm_core::tags::TagSet;
use crm_store_pg::{Ctx, StoreError};

use crate::common::{Seeded, ctx, new_note, raw, scalar, seeded};

/// Acting as user 2 (the second administrator).
fn ctx_of_user_2(s: &Seeded) -> Ctx {
    Ctx {
        actor: UserId::new(s.ids.admins[1]).unwrap(),
        ..ctx()
    }
}

fn query(pairs: &[(&str, &str)]) -> NoteListQuery {
    NoteListQuery::parse(&raw(pairs)).unwrap()
}

fn ids(items: &[Note]) -> Vec<i64> {
    items.iter().map(|n| n.id.get()).collect()
}

fn note_id(id: i64) -> NoteId {
    NoteId::new(id).unwrap()
}

fn update(pairs: &[(&str, &str)]) -> NoteUpdate {
    let mut all = vec![
        ("note_title", "New title"),
        ("note_description", "New description"),
    ];
    all.extend_from_slice(pairs);
    NoteUpdate::parse(&raw(&all)).unwrap()
}

fn is_not_found<T: std::fmt::Debug>(r: Result<T, StoreError>) -> bool {
    matches!(r, Err(StoreError::NotFound(Resource::Note)))
}

#[tokio::test]
async fn private_notes_of_others_and_sticky_notes_are_not_found_for_every_operation() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let private = note_id(s.ids.notes.private_of_user_2);
    let sticky = note_id(s.ids.notes.sticky);
    for hidden in [private, sticky] {
        assert!(is_not_found(s.store.note(ctx(), hidden).await));
        assert!(is_not_found(
            s.store.update_note(ctx(), hidden, &update(&[])).await
        ));
        assert!(is_not_found(
            s.store
                .set_note_tags(ctx(), hidden, &TagSet::normalise(["x"]))
                .await
        ));
        assert!(is_not_found(s.store.delete_note(ctx(), hidden).await));
    }
    let listed = s.store.list_notes(ctx(), &query(&[])).await.unwrap();
    assert_eq!(
        (ids(&listed.items), listed.total),
        (vec![s.ids.notes.public], 1)
    );
    let private_only = s
        .store
        .list_notes(ctx(), &query(&[("visibility", "private")]))
        .await
        .unwrap();
    assert_eq!(private_only.total, 0);
    // Nothing was changed by the refused operations.
    assert_eq!(scalar(&c, "SELECT count(*) FROM notes").await, 3);
    assert_eq!(scalar(&c, "SELECT count(*) FROM tags").await, 0);
    let title: String = c
        .query_one("SELECT title FROM notes WHERE id = $1", &[&private.get()])
        .await
        .unwrap()
        .get(0);
    assert_eq!(title, "Jane's private note");
    // Sticky notes are not served even to their creator (user 1, above), nor to anyone else.
    assert!(is_not_found(s.store.note(ctx_of_user_2(&s), sticky).await));
}

#[tokio::test]
async fn a_private_note_is_visible_to_its_creator_for_every_operation() {
    let s = seeded().await;
    let jane = ctx_of_user_2(&s);
    let private = note_id(s.ids.notes.private_of_user_2);
    let got = s.store.note(jane, private).await.unwrap();
    assert_eq!(got.visibility, NoteVisibility::Private);
    assert_eq!(got.resource.resource_type, Some(NoteResourceType::Client));
    assert_eq!(got.resource.id, Some(s.ids.clients[0].id));
    assert_eq!(got.creator_id.get(), s.ids.admins[1]);
    let listed = s
        .store
        .list_notes(jane, &query(&[("order", "asc")]))
        .await
        .unwrap();
    assert_eq!(
        (ids(&listed.items), listed.total),
        (vec![s.ids.notes.public, s.ids.notes.private_of_user_2], 2)
    );
    let tagged = s
        .store
        .set_note_tags(jane, private, &TagSet::normalise(["mine"]))
        .await
        .unwrap();
    assert_eq!(tagged.tags, ["mine"]);
    let updated = s
        .store
        .update_note(jane, private, &update(&[]))
        .await
        .unwrap();
    assert_eq!(
        (updated.title.as_str(), updated.visibility),
        ("New title", NoteVisibility::Private)
    );
    s.store.delete_note(jane, private).await.unwrap();
    assert!(is_not_found(s.store.note(jane, private).await));
}

#[tokio::test]
async fn a_note_can_be_attached_to_each_resource_type_or_to_none() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let cases = [
        ("client", s.ids.clients[2].id, "client_id"),
        ("lead", s.ids.leads[0], "lead_id"),
        ("project", s.ids.projects[1], "project_id"),
        ("task", s.ids.tasks[3].id, "task_id"),
        ("user", s.ids.users[3], "user_id"),
    ];
    for (kind, id, column) in cases {
        let id_text = id.to_string();
        let created = s
            .store
            .create_note(
                ctx(),
                &new_note(&[("noteresource_type", kind), ("noteresource_id", &id_text)]),
            )
            .await
            .unwrap();
        assert_eq!(
            created.resource.resource_type.map(|t| t.as_str()),
            Some(kind)
        );
        assert_eq!(created.resource.id, Some(id));
        assert_eq!(created.creator_id.get(), 1);
        assert_eq!(created.visibility, NoteVisibility::Public);
        let sql = format!(
            "SELECT {column}, num_nonnulls(client_id, lead_id, project_id, task_id, user_id) FROM notes WHERE id = $1"
        );
        let row = c.query_one(&sql, &[&created.id.get()]).await.unwrap();
        assert_eq!(
            (row.get::<_, Option<i64>>(0), row.get::<_, i32>(1)),
            (Some(id), 1),
            "{kind}"
        );
        assert_eq!(s.store.note(ctx(), created.id).await.unwrap(), created);
    }
    let standalone = s
        .store
        .create_note(ctx(), &new_note(&[("note_visibility", "private")]))
        .await
        .unwrap();
    assert_eq!(
        (standalone.resource.resource_type, standalone.resource.id),
        (None, None)
    );
    assert_eq!(standalone.visibility, NoteVisibility::Private);
    assert!(is_not_found(
        s.store.note(ctx_of_user_2(&s), standalone.id).await
    ));
}

#[tokio::test]
async fn an_unknown_resource_is_invalid_under_noteresource_id_and_nothing_is_written() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    // A lead id that exists only as a client id: the id is checked in the type's own table.
    let missing_lead = (s.ids.leads.iter().max().unwrap() + 1).to_string();
    for (kind, id) in [
        ("task", "999999"),
        ("lead", missing_lead.as_str()),
        ("user", "999999"),
    ] {
        let err = s
            .store
            .create_note(
                ctx(),
                &new_note(&[("noteresource_type", kind), ("noteresource_id", id)]),
            )
            .await
            .unwrap_err();
        let StoreError::Invalid(errors) = err else {
            panic!("{err:?}")
        };
        assert_eq!(
            errors.iter().map(|(f, _)| f).collect::<Vec<_>>(),
            ["noteresource_id"]
        );
        assert_eq!(
            errors.get("noteresource_id").unwrap(),
            ["The selected noteresource id is invalid."]
        );
    }
    assert_eq!(scalar(&c, "SELECT count(*) FROM notes").await, 3);
}

#[tokio::test]
async fn lists_filter_by_resource_and_visibility() {
    let s = seeded().await;
    let client = s.ids.clients[0].id.to_string();
    let on_client = s
        .store
        .create_note(
            ctx(),
            &new_note(&[
                ("noteresource_type", "client"),
                ("noteresource_id", &client),
            ]),
        )
        .await
        .unwrap();
    let private_on_client = s
        .store
        .create_note(
            ctx(),
            &new_note(&[
                ("noteresource_type", "client"),
                ("noteresource_id", &client),
                ("note_visibility", "private"),
            ]),
        )
        .await
        .unwrap();
    // A project with the same id as the client must not match a client filter.
    let same_id_project = s
        .ids
        .projects
        .iter()
        .find(|p| **p == s.ids.clients[0].id)
        .copied();
    let on_client_q = query(&[("resource_type", "client"), ("resource_id", &client)]);
    let listed = s.store.list_notes(ctx(), &on_client_q).await.unwrap();
    assert_eq!(
        ids(&listed.items),
        [private_on_client.id.get(), on_client.id.get()]
    );
    let projects = s
        .store
        .list_notes(ctx(), &query(&[("resource_type", "project")]))
        .await
        .unwrap();
    assert_eq!(ids(&projects.items), [s.ids.notes.public]);
    if let Some(p) = same_id_project {
        let by_id = s
            .store
            .list_notes(ctx(), &query(&[("resource_id", &p.to_string())]))
            .await
            .unwrap();
        assert_eq!(by_id.total, 3);
    }
    let private = s
        .store
        .list_notes(ctx(), &query(&[("visibility", "private")]))
        .await
        .unwrap();
    assert_eq!(ids(&private.items), [private_on_client.id.get()]);
    let public = s
        .store
        .list_notes(
            ctx(),
            &query(&[("visibility", "public"), ("resource_type", "client")]),
        )
        .await
        .unwrap();
    assert_eq!(ids(&public.items), [on_client.id.get()]);
    // User 2 sees its own private client note, not user 1's.
    let jane = s
        .store
        .list_notes(ctx_of_user_2(&s), &on_client_q)
        .await
        .unwrap();
    assert_eq!(
        ids(&jane.items),
        [on_client.id.get(), s.ids.notes.private_of_user_2]
    );
}

#[tokio::test]
async fn search_matches_the_title_or_the_description_literally() {
    let s = seeded().await;
    let by_description = s
        .store
        .create_note(
            ctx(),
            &new_note(&[
                ("note_title", "Call"),
                ("note_description", "Renewal at 50% off"),
            ]),
        )
        .await
        .unwrap();
    let by_title = s
        .store
        .create_note(
            ctx(),
            &new_note(&[("note_title", "Renewal plan"), ("note_description", "x")]),
        )
        .await
        .unwrap();
    let found = s
        .store
        .list_notes(ctx(), &query(&[("search", "RENEWAL")]))
        .await
        .unwrap();
    assert_eq!(
        ids(&found.items),
        [by_title.id.get(), by_description.id.get()]
    );
    let literal = s
        .store
        .list_notes(ctx(), &query(&[("search", "50%")]))
        .await
        .unwrap();
    assert_eq!(ids(&literal.items), [by_description.id.get()]);
    let none = s
        .store
        .list_notes(ctx(), &query(&[("search", "5_%")]))
        .await
        .unwrap();
    assert_eq!(none.total, 0);
    // The private note of user 2 matches its description but is not user 1's to see.
    let hidden = s
        .store
        .list_notes(ctx(), &query(&[("search", "Only Jane")]))
        .await
        .unwrap();
    assert_eq!(hidden.total, 0);
}

/// A note search is `ILIKE` on the title or on the description (migration 0015 made it a
/// `LIKE` on one lowercased text joined from both): each search here gives the total and
/// the notes that `ILIKE` itself gives, for case, accents, a Greek final sigma, a line
/// break, and text that would match only across the title's end and the description's start.
#[tokio::test]
async fn search_is_ilike_on_either_text_and_never_across_the_two() {
    let s = seeded().await;
    s.exec(
        "INSERT INTO notes (title, description, creator_id) VALUES
           ('Été à Paris', 'Crème BRÛLÉE', 1),
           ('ΣΊΣΥΦΟΣ', 'ὀδυσσεύς', 1),
           ('alpha', 'beta', 1),
           ('Tab\there', 'line\nbreak', 1),
           ('İstanbul', 'Kelvin sign: \u{212A}', 1),
           ('50% OFF', 'under_score', 1)",
    )
    .await;
    let c = s.sql().await;
    let searches = [
        "été",
        "ÉTÉ",
        "brûlée",
        "σίσυφος",
        "ΣΊΣΥΦΟΣ",
        "σίσυφοσ",
        "alpha",
        "ab",
        "alphabeta",
        "a beta",
        "line\nbreak",
        "e\nb",
        "tab\t",
        "istanbul",
        "i̇stanbul",
        "k",
        "50%",
        "r_s",
        "_score",
        "\\",
    ];
    for search in searches {
        let search = search.to_owned();
        let mut q = query(&[("limit", "100")]);
        q.params.search = Some(search.clone());
        let found = s.store.list_notes(ctx(), &q).await.unwrap();
        let expected: Vec<i64> = c
            .query(
                "SELECT id FROM notes WHERE NOT sticky AND (visibility = 'public' OR creator_id = 1) \
                 AND (title ILIKE $1 OR description ILIKE $1) ORDER BY id DESC",
                &[&crm_core::listing::like_pattern(&search)],
            )
            .await
            .unwrap()
            .iter()
            .map(|row| row.get(0))
            .collect();
        assert_eq!(ids(&found.items), expected, "{search:?}");
        assert_eq!(found.total, expected.len() as u64, "{search:?}");
    }
    // The joint itself: a search holding it (the API refuses control characters, a
    // program linking the store may not) finds nothing, as ILIKE on either text would.
    let mut q = query(&[]);
    q.params.search = Some("alpha\u{1}beta".to_owned());
    assert_eq!(s.store.list_notes(ctx(), &q).await.unwrap().total, 0);
}

#[tokio::test]
async fn lists_sort_and_page_with_exact_totals() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let mut made = vec![s.ids.notes.public];
    for title in ["delta", "alpha", "charlie", "bravo"] {
        made.push(
            s.store
                .create_note(ctx(), &new_note(&[("note_title", title)]))
                .await
                .unwrap()
                .id
                .get(),
        );
    }
    let page = s
        .store
        .list_notes(ctx(), &query(&[("limit", "2"), ("page", "2")]))
        .await
        .unwrap();
    assert_eq!((ids(&page.items), page.total), (vec![made[2], made[1]], 5));
    let last = s
        .store
        .list_notes(ctx(), &query(&[("limit", "2"), ("page", "3")]))
        .await
        .unwrap();
    assert_eq!((ids(&last.items), last.total), (vec![made[0]], 5));
    let past = s
        .store
        .list_notes(ctx(), &query(&[("limit", "2"), ("page", "4")]))
        .await
        .unwrap();
    assert_eq!((past.items.len(), past.total), (0, 5));
    let by_title = s
        .store
        .list_notes(ctx(), &query(&[("sort", "note_title"), ("order", "asc")]))
        .await
        .unwrap();
    let titles: Vec<&str> = by_title.items.iter().map(|n| n.title.as_str()).collect();
    // Case-insensitive.
    assert_eq!(
        titles,
        ["alpha", "bravo", "charlie", "delta", "Kick-off notes"]
    );
    // Make "alpha" the most recently updated and "delta" the oldest created.
    c.execute(
        "UPDATE notes SET updated_at = now() + interval '1 day' WHERE id = $1",
        &[&made[2]],
    )
    .await
    .unwrap();
    c.execute(
        "UPDATE notes SET created_at = now() - interval '1 day' WHERE id = $1",
        &[&made[1]],
    )
    .await
    .unwrap();
    let by_updated = s
        .store
        .list_notes(ctx(), &query(&[("sort", "note_updated")]))
        .await
        .unwrap();
    assert_eq!(by_updated.items[0].id.get(), made[2]);
    let by_created = s
        .store
        .list_notes(ctx(), &query(&[("sort", "note_created"), ("order", "asc")]))
        .await
        .unwrap();
    assert_eq!(by_created.items[0].id.get(), made[1]);
}

#[tokio::test]
async fn an_update_changes_title_description_and_visibility_but_not_the_attachment() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let project = s.ids.projects[0].to_string();
    let created = s
        .store
        .create_note(
            ctx(),
            &new_note(&[
                ("noteresource_type", "project"),
                ("noteresource_id", &project),
                ("note_visibility", "private"),
            ]),
        )
        .await
        .unwrap();
    c.execute(
        "UPDATE notes SET attachment_name = 'a.pdf', attachment_path = 'files/a.pdf' WHERE id = $1",
        &[&created.id.get()],
    )
    .await
    .unwrap();
    // Attachment fields in the request are ignored by the command.
    let kept = s
        .store
        .update_note(
            ctx(),
            created.id,
            &update(&[("noteresource_type", "client"), ("noteresource_id", "1")]),
        )
        .await
        .unwrap();
    assert_eq!(
        (kept.title.as_str(), kept.description.as_str()),
        ("New title", "New description")
    );
    assert_eq!(kept.visibility, NoteVisibility::Private);
    assert_eq!(kept.resource, created.resource);
    assert!(kept.dates.updated > created.dates.updated);
    assert_eq!(kept.dates.created, created.dates.created);
    let attachment: Option<String> = c
        .query_one(
            "SELECT attachment_name FROM notes WHERE id = $1",
            &[&created.id.get()],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(attachment.as_deref(), Some("a.pdf"));
    let cleared = s
        .store
        .update_note(ctx(), created.id, &update(&[("note_visibility", "")]))
        .await
        .unwrap();
    assert_eq!(cleared.visibility, NoteVisibility::Public);
    let private = s
        .store
        .update_note(
            ctx(),
            created.id,
            &update(&[("note_visibility", "private")]),
        )
        .await
        .unwrap();
    assert_eq!(private.visibility, NoteVisibility::Private);
}

#[tokio::test]
async fn deleting_a_note_removes_it_and_its_tags_only() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let public = note_id(s.ids.notes.public);
    let doomed = s.store.create_note(ctx(), &new_note(&[])).await.unwrap();
    s.store
        .set_note_tags(ctx(), public, &TagSet::normalise(["keep"]))
        .await
        .unwrap();
    let tagged = s
        .store
        .set_note_tags(ctx(), doomed.id, &TagSet::normalise(["b", "a", "b", " "]))
        .await
        .unwrap();
    assert_eq!(tagged.tags, ["b", "a"]);
    let listed = s.store.list_notes(ctx(), &query(&[])).await.unwrap();
    assert_eq!(listed.items[0].tags, ["b", "a"]);
    s.store.delete_note(ctx(), doomed.id).await.unwrap();
    assert!(is_not_found(s.store.note(ctx(), doomed.id).await));
    assert!(is_not_found(s.store.delete_note(ctx(), doomed.id).await));
    assert_eq!(scalar(&c, "SELECT count(*) FROM tags").await, 1);
    assert_eq!(s.store.note(ctx(), public).await.unwrap().tags, ["keep"]);
    let cleared = s
        .store
        .set_note_tags(ctx(), public, &TagSet::default())
        .await
        .unwrap();
    assert!(cleared.tags.is_empty());
}

#[tokio::test]
async fn unknown_notes_are_not_found() {
    let s = seeded().await;
    let missing = note_id(999_999);
    assert!(is_not_found(s.store.note(ctx(), missing).await));
    assert!(is_not_found(
        s.store.update_note(ctx(), missing, &update(&[])).await
    ));
    assert!(is_not_found(
        s.store
            .set_note_tags(ctx(), missing, &TagSet::default())
            .await
    ));
    assert!(is_not_found(s.store.delete_note(ctx(), missing).await));
}
