//! Milestones: reads, create/update/delete, reordering, lists, and the races the project
//! lock and the unique index must settle.

// Test helpers unwrap: a failing call is a failing test.
#![allow(clippy::unwrap_used)]

use crm_core::conflict::{Conflict, Resource};
use crm_core::ids::MilestoneId;
use crm_core::input::RawMap;
use crm_core::milestone::{
    Milestone, MilestoneDeletion, MilestoneListQuery, MilestoneReorder, MilestoneUpdate,
    NewMilestone,
};
use crm_store_pg::{Store, StoreError};
use futures_util::future::join_all;

use crate::common::{Seeded, ctx, invalid, list, messages, raw, seeded};

fn new_milestone(project: i64, title: &str) -> NewMilestone {
    let project = project.to_string();
    let pairs = [
        ("milestone_projectid", project.as_str()),
        ("milestone_title", title),
        ("milestone_color", "success"),
    ];
    NewMilestone::parse(&raw(&pairs)).unwrap()
}

fn update(title: &str, color: &str) -> MilestoneUpdate {
    MilestoneUpdate::parse(&raw(&[
        ("milestone_title", title),
        ("milestone_color", color),
    ]))
    .unwrap()
}

fn reorder(ids: &[i64]) -> MilestoneReorder {
    let texts: Vec<String> = ids.iter().map(i64::to_string).collect();
    let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
    let mut r = RawMap::new();
    r.insert("milestones", list(&refs));
    MilestoneReorder::parse(&r).unwrap()
}

fn query(project: i64, pairs: &[(&str, &str)]) -> MilestoneListQuery {
    let project = project.to_string();
    let mut all = vec![("project_id", project.as_str())];
    all.extend_from_slice(pairs);
    MilestoneListQuery::parse(&raw(&all)).unwrap()
}

fn mid(id: i64) -> MilestoneId {
    MilestoneId::new(id).unwrap()
}

fn is_not_found(result: Result<impl std::fmt::Debug, StoreError>) -> bool {
    matches!(result, Err(StoreError::NotFound(Resource::Milestone)))
}

fn is_duplicate(result: &Result<Milestone, StoreError>) -> bool {
    matches!(
        result,
        Err(StoreError::Conflict(Conflict::DuplicateMilestoneTitle))
    )
}

/// The seeded milestone of the first project titled `title`.
fn seeded_milestone(s: &Seeded, project: usize, title: &str) -> i64 {
    let project = s.ids.projects[project];
    s.ids
        .milestones
        .iter()
        .find(|m| m.project_id == project && m.title == title)
        .map(|m| m.id)
        .unwrap()
}

/// `(id, milestone_id)` of the project's tasks, sorted by id.
async fn tasks_of(s: &Seeded, project: i64) -> Vec<(i64, i64)> {
    let client = s.db.client().await.unwrap();
    let rows = client
        .query(
            "SELECT id, milestone_id FROM tasks WHERE project_id = $1 ORDER BY id",
            &[&project],
        )
        .await
        .unwrap();
    rows.iter().map(|r| (r.get(0), r.get(1))).collect()
}

/// Titles of a list page, and the total.
async fn titles(store: &Store, q: &MilestoneListQuery) -> (Vec<String>, u64) {
    let listed = store.list_milestones(q).await.unwrap();
    (
        listed.items.into_iter().map(|m| m.title).collect(),
        listed.total,
    )
}

fn owned(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

#[tokio::test]
async fn a_new_milestone_is_categorised_and_goes_after_the_highest_position() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    let created = s
        .store
        .create_milestone(ctx(), &new_milestone(project, "Launch"))
        .await
        .unwrap();
    assert_eq!(created.title, "Launch");
    assert_eq!(created.project_id.get(), project);
    assert_eq!(created.milestone_type.as_str(), "categorised");
    assert_eq!(created.color.as_str(), "success");
    assert_eq!(
        created.position, 6,
        "after the five seeded ones, the uncategorised one included"
    );
    assert_eq!(created.creator_id.map(|u| u.get()), Some(1));
    assert_eq!(created.tasks_count, 0);
    assert_eq!(s.store.milestone(created.id).await.unwrap(), created);
}

#[tokio::test]
async fn a_milestone_of_an_unknown_project_is_invalid() {
    let s = seeded().await;
    let e = invalid(
        s.store
            .create_milestone(ctx(), &new_milestone(999_999, "Launch"))
            .await,
    );
    assert_eq!(
        messages(&e, "milestone_projectid"),
        ["The selected milestone projectid is invalid."]
    );
}

#[tokio::test]
async fn unknown_milestones_are_not_found_by_every_operation() {
    let s = seeded().await;
    let missing = mid(999_999);
    assert!(is_not_found(s.store.milestone(missing).await));
    assert!(is_not_found(
        s.store
            .update_milestone(missing, &update("X", "info"))
            .await
    ));
    assert!(is_not_found(
        s.store
            .delete_milestone(missing, MilestoneDeletion::default())
            .await
    ));
    assert!(is_not_found(
        s.store
            .delete_milestone(missing, MilestoneDeletion { delete_tasks: true })
            .await
    ));
}

#[tokio::test]
async fn twenty_parallel_creates_of_one_title_give_one_milestone_and_nineteen_conflicts() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    let titles = ["Release", "RELEASE", "release", "ReLeAsE"];
    let attempts = (0..20).map(|i| {
        let store = s.store.clone();
        let cmd = new_milestone(project, titles[i % titles.len()]);
        async move { store.create_milestone(ctx(), &cmd).await }
    });
    let results = join_all(attempts).await;
    let created = results.iter().filter(|r| r.is_ok()).count();
    let conflicts = results.iter().filter(|r| is_duplicate(r)).count();
    assert_eq!((created, conflicts), (1, 19), "{results:?}");
    assert_eq!(
        s.scalar("SELECT count(*) FROM milestones WHERE lower(title) = 'release'")
            .await,
        1
    );
}

#[tokio::test]
async fn ten_parallel_creates_get_distinct_consecutive_positions() {
    let s = seeded().await;
    let project = s.ids.projects[1];
    let attempts = (0..10).map(|i| {
        let store = s.store.clone();
        let cmd = new_milestone(project, &format!("Sprint {i}"));
        async move { store.create_milestone(ctx(), &cmd).await }
    });
    let mut positions: Vec<i32> = join_all(attempts)
        .await
        .into_iter()
        .map(|r| r.unwrap().position)
        .collect();
    positions.sort_unstable();
    assert_eq!(positions, (6..=15).collect::<Vec<_>>());
}

#[tokio::test]
async fn a_title_is_unique_within_its_project_only() {
    let s = seeded().await;
    let (p1, p2) = (s.ids.projects[0], s.ids.projects[1]);
    assert!(is_duplicate(
        &s.store
            .create_milestone(ctx(), &new_milestone(p1, "PLANNING"))
            .await
    ));
    let other = s
        .store
        .create_milestone(ctx(), &new_milestone(p2, "Launch"))
        .await
        .unwrap();
    let same = s
        .store
        .create_milestone(ctx(), &new_milestone(p1, "Launch"))
        .await
        .unwrap();
    assert_ne!(other.id, same.id);
}

#[tokio::test]
async fn an_update_changes_title_and_colour_and_a_taken_title_is_a_conflict() {
    let s = seeded().await;
    let planning = mid(seeded_milestone(&s, 0, "Planning"));
    let before = s.store.milestone(planning).await.unwrap();
    let updated = s
        .store
        .update_milestone(planning, &update("Discovery", "danger"))
        .await
        .unwrap();
    assert_eq!(
        (updated.title.as_str(), updated.color.as_str()),
        ("Discovery", "danger")
    );
    assert_eq!(
        (updated.position, updated.tasks_count),
        (before.position, before.tasks_count)
    );
    assert_eq!(updated.milestone_type, before.milestone_type);
    assert!(updated.dates.updated > before.dates.updated);
    assert!(is_duplicate(
        &s.store
            .update_milestone(planning, &update("design", "info"))
            .await
    ));
    let recased = s
        .store
        .update_milestone(planning, &update("DISCOVERY", "info"))
        .await
        .unwrap();
    assert_eq!(recased.title, "DISCOVERY");
    assert_eq!(s.store.milestone(planning).await.unwrap(), recased);
}

#[tokio::test]
async fn the_default_milestone_cannot_be_deleted() {
    let s = seeded().await;
    let default = mid(seeded_milestone(&s, 0, "Uncategorised"));
    for delete_tasks in [false, true] {
        let result = s
            .store
            .delete_milestone(default, MilestoneDeletion { delete_tasks })
            .await;
        assert!(
            matches!(
                result,
                Err(StoreError::Conflict(Conflict::DefaultMilestone))
            ),
            "{result:?}"
        );
    }
    assert!(s.store.milestone(default).await.is_ok());
}

#[tokio::test]
async fn deleting_moves_the_tasks_to_the_uncategorised_milestone() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    let (planning, default) = (
        seeded_milestone(&s, 0, "Planning"),
        seeded_milestone(&s, 0, "Uncategorised"),
    );
    let before = tasks_of(&s, project).await;
    let attachments = s.scalar("SELECT count(*) FROM task_attachments").await;
    s.store
        .delete_milestone(mid(planning), MilestoneDeletion::default())
        .await
        .unwrap();
    assert!(is_not_found(s.store.milestone(mid(planning)).await));
    let after = tasks_of(&s, project).await;
    let expected: Vec<(i64, i64)> = before
        .iter()
        .map(|(t, m)| (*t, if *m == planning { default } else { *m }))
        .collect();
    assert_eq!(after, expected);
    assert_eq!(
        s.store.milestone(mid(default)).await.unwrap().tasks_count,
        2
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM task_attachments").await,
        attachments,
        "tasks keep their files"
    );
}

#[tokio::test]
async fn deleting_with_its_tasks_removes_them_with_attachments_comments_timers_and_notes() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    let planning = seeded_milestone(&s, 0, "Planning");
    let doomed: Vec<i64> = s
        .ids
        .tasks
        .iter()
        .filter(|t| t.milestone_id == planning)
        .map(|t| t.id)
        .collect();
    assert_eq!(doomed.len(), 2);
    let client = s.db.client().await.unwrap();
    client
        .execute(
            "INSERT INTO notes (title, description, resource_type, task_id, creator_id) VALUES ('On task', 'x', 'task', $1, 1)",
            &[&doomed[0]],
        )
        .await
        .unwrap();
    let others = tasks_of(&s, project)
        .await
        .into_iter()
        .filter(|(_, m)| *m != planning)
        .collect::<Vec<_>>();
    s.store
        .delete_milestone(mid(planning), MilestoneDeletion { delete_tasks: true })
        .await
        .unwrap();
    assert_eq!(
        tasks_of(&s, project).await,
        others,
        "the other tasks stay where they were"
    );
    for table in ["task_attachments", "task_comments", "task_timers", "notes"] {
        let left: i64 = client
            .query_one(
                &format!("SELECT count(*) FROM {table} WHERE task_id = ANY ($1)"),
                &[&doomed],
            )
            .await
            .unwrap()
            .get(0);
        assert_eq!(left, 0, "{table}");
    }
    assert!(is_not_found(s.store.milestone(mid(planning)).await));
}

#[tokio::test]
async fn a_delete_that_fails_at_the_end_leaves_the_tasks_where_they_were() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    let planning = seeded_milestone(&s, 0, "Planning");
    let client = s.db.client().await.unwrap();
    client
        .batch_execute(
            "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$;
             CREATE TRIGGER boom BEFORE DELETE ON milestones FOR EACH ROW EXECUTE FUNCTION boom();",
        )
        .await
        .unwrap();
    let before = tasks_of(&s, project).await;
    let attachments = s.scalar("SELECT count(*) FROM task_attachments").await;
    for delete_tasks in [false, true] {
        assert!(
            s.store
                .delete_milestone(mid(planning), MilestoneDeletion { delete_tasks })
                .await
                .is_err()
        );
        assert_eq!(
            tasks_of(&s, project).await,
            before,
            "delete_tasks = {delete_tasks}"
        );
        assert_eq!(
            s.scalar("SELECT count(*) FROM task_attachments").await,
            attachments
        );
        assert_eq!(
            s.store.milestone(mid(planning)).await.unwrap().tasks_count,
            2
        );
    }
}

#[tokio::test]
async fn reordering_puts_the_listed_milestones_first_and_the_others_after_in_their_order() {
    let s = seeded().await;
    let m = |t: &str| seeded_milestone(&s, 0, t);
    let (planning, design, development, testing, default) = (
        m("Planning"),
        m("Design"),
        m("Development"),
        m("Testing"),
        m("Uncategorised"),
    );
    let reordered = s
        .store
        .reorder_milestones(&reorder(&[testing, planning]))
        .await
        .unwrap();
    let got: Vec<(i64, i32)> = reordered.iter().map(|m| (m.id.get(), m.position)).collect();
    assert_eq!(
        got,
        vec![
            (testing, 1),
            (planning, 2),
            (design, 3),
            (development, 4),
            (default, 5)
        ]
    );
    assert_eq!(reordered[1].tasks_count, 2);
    let listed = s
        .store
        .list_milestones(&query(s.ids.projects[0], &[]))
        .await
        .unwrap();
    assert_eq!(
        listed.items, reordered,
        "the default list is the board order"
    );
    let other = s
        .store
        .list_milestones(&query(s.ids.projects[1], &[]))
        .await
        .unwrap();
    assert_eq!(
        other.items.iter().map(|m| m.position).collect::<Vec<_>>(),
        vec![1, 2, 3, 4, 5]
    );
}

#[tokio::test]
async fn reordering_milestones_of_two_projects_names_the_offending_positions() {
    let s = seeded().await;
    let ids = [
        seeded_milestone(&s, 0, "Planning"),
        seeded_milestone(&s, 1, "Design"),
        seeded_milestone(&s, 0, "Testing"),
    ];
    let e = invalid(s.store.reorder_milestones(&reorder(&ids)).await);
    assert!(!e.has("milestones.0") && !e.has("milestones.2"));
    assert_eq!(
        messages(&e, "milestones.1"),
        ["The selected milestones.1 is invalid."]
    );
    let positions: Vec<i32> = s
        .store
        .list_milestones(&query(s.ids.projects[0], &[]))
        .await
        .unwrap()
        .items
        .iter()
        .map(|m| m.position)
        .collect();
    assert_eq!(positions, vec![1, 2, 3, 4, 5], "nothing moved");
}

#[tokio::test]
async fn reordering_an_unknown_milestone_is_invalid() {
    let s = seeded().await;
    let e = invalid(
        s.store
            .reorder_milestones(&reorder(&[seeded_milestone(&s, 0, "Design"), 999_999]))
            .await,
    );
    assert_eq!(
        messages(&e, "milestones.1"),
        ["The selected milestones.1 is invalid."]
    );
    assert!(!e.has("milestones.0"));
    let e = invalid(
        s.store
            .reorder_milestones(&reorder(&[999_998, 999_999]))
            .await,
    );
    assert!(e.has("milestones.0") && e.has("milestones.1"));
}

#[tokio::test]
async fn listing_needs_an_existing_project() {
    let s = seeded().await;
    let e = invalid(s.store.list_milestones(&query(999_999, &[])).await);
    assert_eq!(
        messages(&e, "project_id"),
        ["The selected project id is invalid."]
    );
    let empty = s
        .store
        .list_milestones(&query(s.ids.projects[0], &[("search", "nothing like it")]))
        .await
        .unwrap();
    assert_eq!(
        (empty.items.len(), empty.total),
        (0, 0),
        "an empty page of an existing project is fine"
    );
}

#[tokio::test]
async fn listing_shows_the_board_order_with_task_counts_and_filters_by_type() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    let listed = s.store.list_milestones(&query(project, &[])).await.unwrap();
    let got: Vec<(&str, i32, i64)> = listed
        .items
        .iter()
        .map(|m| (m.title.as_str(), m.position, m.tasks_count))
        .collect();
    let expected = vec![
        ("Planning", 1, 2),
        ("Design", 2, 2),
        ("Development", 3, 2),
        ("Testing", 4, 0),
        ("Uncategorised", 5, 0),
    ];
    assert_eq!((got, listed.total), (expected, 5));
    let default = titles(&s.store, &query(project, &[("type", "uncategorised")])).await;
    assert_eq!(default, (owned(&["Uncategorised"]), 1));
    let categorised = titles(
        &s.store,
        &query(project, &[("type", "categorised"), ("order", "desc")]),
    )
    .await;
    assert_eq!(
        categorised,
        (owned(&["Testing", "Development", "Design", "Planning"]), 4)
    );
}

#[tokio::test]
async fn lists_page_with_exact_totals_and_creation_ties_broken_by_id() {
    let s = seeded().await;
    let project = s.ids.projects[0];
    // The seed created the project's five milestones in one transaction: one created_at.
    let mut seen = Vec::new();
    for page in ["1", "2"] {
        let q = query(
            project,
            &[
                ("sort", "milestone_created"),
                ("order", "asc"),
                ("limit", "3"),
                ("page", page),
            ],
        );
        let listed = s.store.list_milestones(&q).await.unwrap();
        assert_eq!(listed.total, 5);
        seen.extend(listed.items.iter().map(|m| m.id.get()));
    }
    let mut ids: Vec<i64> = s
        .ids
        .milestones
        .iter()
        .filter(|m| m.project_id == project)
        .map(|m| m.id)
        .collect();
    ids.sort_unstable();
    assert_eq!(seen, ids);
    let desc = s
        .store
        .list_milestones(&query(
            project,
            &[("sort", "milestone_created"), ("limit", "100")],
        ))
        .await
        .unwrap();
    ids.reverse();
    assert_eq!(
        desc.items.iter().map(|m| m.id.get()).collect::<Vec<_>>(),
        ids
    );
    let past = s
        .store
        .list_milestones(&query(project, &[("limit", "3"), ("page", "3")]))
        .await
        .unwrap();
    assert_eq!((past.items.len(), past.total), (0, 5));
}

#[tokio::test]
async fn lists_sort_by_title_and_search_titles_with_literal_percent_and_underscore() {
    let s = seeded().await;
    let project = s.ids.projects[1];
    for title in ["50% done", "50 done", "a_b", "axb"] {
        s.store
            .create_milestone(ctx(), &new_milestone(project, title))
            .await
            .unwrap();
    }
    assert_eq!(
        titles(&s.store, &query(project, &[("search", "50%")])).await,
        (owned(&["50% done"]), 1)
    );
    assert_eq!(
        titles(&s.store, &query(project, &[("search", "A_B")])).await,
        (owned(&["a_b"]), 1)
    );
    assert_eq!(
        titles(&s.store, &query(project, &[("search", "_")])).await,
        (owned(&["a_b"]), 1)
    );
    let (found, total) = titles(&s.store, &query(project, &[("search", "DONE")])).await;
    assert_eq!(
        (found, total),
        (owned(&["50% done", "50 done"]), 2),
        "board order by default"
    );
    let by_title = [
        ("sort", "milestone_title"),
        ("order", "asc"),
        ("search", "DE"),
    ];
    assert_eq!(
        titles(&s.store, &query(project, &by_title)).await,
        (owned(&["Design", "Development"]), 2)
    );
    let by_title = [
        ("sort", "milestone_title"),
        ("order", "desc"),
        ("search", "de"),
    ];
    assert_eq!(
        titles(&s.store, &query(project, &by_title)).await,
        (owned(&["Development", "Design"]), 2)
    );
    let by_position = [
        ("sort", "milestone_position"),
        ("order", "desc"),
        ("limit", "2"),
    ];
    assert_eq!(
        titles(&s.store, &query(project, &by_position)).await,
        (owned(&["axb", "a_b"]), 9)
    );
}

#[tokio::test]
async fn sorting_by_title_ignores_case() {
    let s = seeded().await;
    let project = s.ids.projects[1];
    for title in ["zeta", "Alpha", "beta"] {
        s.store
            .create_milestone(ctx(), &new_milestone(project, title))
            .await
            .unwrap();
    }
    let q = query(
        project,
        &[
            ("sort", "milestone_title"),
            ("order", "asc"),
            ("type", "categorised"),
        ],
    );
    let listed = s.store.list_milestones(&q).await.unwrap();
    let titles: Vec<&str> = listed.items.iter().map(|m| m.title.as_str()).collect();
    assert_eq!(
        titles,
        [
            "Alpha",
            "beta",
            "Design",
            "Development",
            "Planning",
            "Testing",
            "zeta"
        ]
    );
}
