//! Private notes (visible to their creator only) and sticky notes (never served).

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{Body, TestServer, form};

use super::{assert_hidden_from, create, get, id_of, ids, list, list_as, row_text, stored_tags};

#[tokio::test]
async fn a_private_note_of_another_user_does_not_exist_for_user_one() {
    let s = TestServer::start().await;
    let private = s.ids.notes.private_of_user_2;
    let before = row_text(&s, private).await;
    let key = s.key.clone();
    assert_hidden_from(&s, &key, private).await;
    assert_eq!(row_text(&s, private).await, before, "nothing was changed");
    assert_eq!(stored_tags(&s, private).await, []);

    let acme = s.ids.clients[0].id;
    for query in [
        "",
        "visibility=private",
        &format!("resource_type=client&resource_id={acme}"),
        "search=Jane",
        "limit=100",
    ] {
        let a = list(&s, query).await;
        assert!(!ids(&a).contains(&private), "{query}: {:?}", a.json);
    }
    assert_eq!(
        list(&s, "visibility=private").await.json["meta"]["total"],
        0
    );
}

#[tokio::test]
async fn a_private_note_is_visible_to_its_creator_and_only_to_them() {
    let s = TestServer::start().await;
    let private = s.ids.notes.private_of_user_2;
    let jane = s.key_for(s.ids.admins[1]).await;
    let a = s
        .call_as(
            &jane,
            Method::GET,
            &format!("/api/notes/{private}"),
            Body::None,
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.data()["title"], "Jane's private note");
    assert_eq!(a.data()["visibility"], "private");
    assert_eq!(a.data()["creator_id"], s.ids.admins[1]);
    assert_eq!(
        a.data()["resource"],
        json!({"type": "client", "id": s.ids.clients[0].id})
    );
    let listed = list_as(&s, &jane, "visibility=private").await;
    assert_eq!(ids(&listed), [private]);
    // Jane also sees user 1's public notes.
    assert_eq!(
        ids(&list_as(&s, &jane, "").await),
        [private, s.ids.notes.public]
    );

    let path = format!("/api/notes/{private}");
    let a = s
        .call_as(
            &jane,
            Method::PATCH,
            &path,
            form(&[("note_title", "Still mine"), ("note_description", "Yes.")]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        a.data()["visibility"],
        "private",
        "absent visibility is kept"
    );
    let a = s
        .call_as(
            &jane,
            Method::PUT,
            &format!("{path}/tags"),
            form(&[("tags[]", "mine")]),
        )
        .await;
    assert_eq!(a.data()["tags"], json!(["mine"]), "{:?}", a.json);

    // User 1's own private note is hidden from Jane in the same way.
    let own = id_of(
        &create(
            &s,
            "Mine",
            "Only for me.",
            &[("note_visibility", "private")],
        )
        .await,
    );
    assert_eq!(get(&s, own).await["visibility"], "private");
    assert_eq!(ids(&list(&s, "visibility=private").await), [own]);
    assert_hidden_from(&s, &jane, own).await;
    assert!(!ids(&list_as(&s, &jane, "").await).contains(&own));
    assert_eq!(get(&s, own).await["title"], "Mine");

    let a = s.call_as(&jane, Method::DELETE, &path, Body::None).await;
    assert_eq!(
        a.json,
        json!({"data": {"id": private}, "message": "Note deleted successfully."})
    );
}

#[tokio::test]
async fn a_sticky_note_is_never_served_listed_or_changed() {
    let s = TestServer::start().await;
    let sticky = s.ids.notes.sticky;
    let before = row_text(&s, sticky).await;
    // Not even to its creator (user 1).
    let key = s.key.clone();
    assert_hidden_from(&s, &key, sticky).await;
    assert_eq!(row_text(&s, sticky).await, before);
    assert_eq!(stored_tags(&s, sticky).await, []);
    for query in [
        "",
        "search=sticky",
        "search=accountant",
        "visibility=public",
        "limit=100&order=asc",
    ] {
        assert!(!ids(&list(&s, query).await).contains(&sticky), "{query}");
    }
    assert_eq!(
        list(&s, "").await.json["meta"]["total"],
        1,
        "only the seeded public note"
    );
}

#[tokio::test]
async fn another_user_making_a_public_note_private_gets_the_note_they_wrote_and_then_loses_it() {
    let s = TestServer::start().await;
    let public = s.ids.notes.public;
    let jane = s.key_for(s.ids.admins[1]).await;
    let path = format!("/api/notes/{public}");
    let a = s
        .call_as(
            &jane,
            Method::PATCH,
            &path,
            form(&[
                ("note_title", "For user 1 only"),
                ("note_description", "Jane hid it."),
                ("note_visibility", "private"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Note updated successfully.");
    assert_eq!(a.data()["title"], "For user 1 only");
    assert_eq!(a.data()["visibility"], "private");
    assert_eq!(
        a.data()["creator_id"],
        s.ids.admins[0],
        "the creator is kept"
    );

    // Now private to user 1, its creator: hidden from Jane, shown to user 1.
    assert_hidden_from(&s, &jane, public).await;
    let own = get(&s, public).await;
    assert_eq!(own["title"], "For user 1 only");
    assert_eq!(own["visibility"], "private");
}
