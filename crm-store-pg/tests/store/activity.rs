//! Activity (API.md §21) in the store: a write's entry names the actor the task acts for
//! (`Store::acting`; the service's own when none), a failed write leaves none, and the
//! list reads them back newest first.

use crm_core::activity::{ActivityListQuery, Actor, SystemPart};
use crm_store_pg::activity::ShownActor;

use crate::common::{ctx, new_note, raw, seeded};

#[tokio::test]
async fn a_writes_entry_names_the_actor_of_its_task_and_a_failed_write_leaves_none() {
    let s = seeded().await;
    let before = s.scalar("SELECT count(*) FROM activity").await;
    s.store
        .create_note(ctx(), &new_note(&[("note_title", "By the service")]))
        .await
        .unwrap();
    s.store
        .acting(
            Actor::System(SystemPart::Scheduler),
            s.store
                .create_note(ctx(), &new_note(&[("note_title", "By the scheduler")])),
        )
        .await
        .unwrap();
    // A note attached to a client that does not exist: refused, nothing written.
    let refused = s
        .store
        .create_note(
            ctx(),
            &new_note(&[
                ("noteresource_type", "client"),
                ("noteresource_id", "999999"),
            ]),
        )
        .await;
    assert!(refused.is_err());
    assert_eq!(s.scalar("SELECT count(*) FROM activity").await - before, 2);

    let q = ActivityListQuery::parse(&raw(&[("resource_type", "note")])).unwrap();
    let listed = s.store.activity(ctx(), &q).await.unwrap();
    let actors: Vec<&ShownActor> = listed.items.iter().map(|e| &e.actor).collect();
    assert_eq!(
        actors,
        [
            &ShownActor::System {
                system: "scheduler".to_owned()
            },
            &ShownActor::System {
                system: "service".to_owned()
            },
        ]
    );
    assert_eq!(listed.items[0].kind, "note.created");
    assert_eq!(
        listed.items[0].changes["title"],
        serde_json::json!([null, "By the scheduler"])
    );
}
