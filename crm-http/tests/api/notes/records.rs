//! Creating, reading and deleting notes: the record, attachment to each resource type and
//! its validation, and what deletion removes.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::common::{Body, TestServer, form, json};

use super::{
    assert_hidden_from, assert_invalid, assert_not_found, create, get, id_of, ids, is_timestamp,
    list, pairs, put_tags, stored_tags,
};

#[tokio::test]
async fn creating_a_standalone_note_answers_201_with_the_whole_public_record() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/notes",
            form(&[
                ("note_title", " Follow-up call "),
                ("note_description", "Discuss the renewal terms."),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(a.message(), "Note created successfully.");
    let keys: Vec<&String> = a.json.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["data", "message"]);
    let mut data = a.data().clone();
    let id = id_of(&data);
    assert!(is_timestamp(&data["dates"]["created"]), "{data}");
    assert!(is_timestamp(&data["dates"]["updated"]), "{data}");
    data["dates"] = Value::Null;
    assert_eq!(
        data,
        json!({
            "id": id, "title": "Follow-up call", "description": "Discuss the renewal terms.",
            "visibility": "public", "resource": {"type": null, "id": null}, "creator_id": 1,
            "tags": [], "dates": null
        })
    );
    assert_eq!(&get(&s, id).await, a.data());
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT creator_id, sticky, resource_type FROM notes WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(row.get::<_, i64>(0), 1);
    assert!(!row.get::<_, bool>(1));
    assert_eq!(row.get::<_, Option<String>>(2), None);

    // A key of another administrator creates as that user; descriptions keep their HTML.
    let key = s.key_for(s.ids.admins[1]).await;
    let b = s
        .call_as(
            &key,
            Method::POST,
            "/api/notes",
            json(json!({"note_title": "Jane's", "note_description": "<p>Rich <b>text</b></p>", "note_visibility": "private"})),
        )
        .await;
    assert_eq!(b.status, StatusCode::CREATED, "{:?}", b.json);
    assert_eq!(b.data()["creator_id"], s.ids.admins[1]);
    assert_eq!(b.data()["visibility"], "private");
    assert_eq!(b.data()["description"], "<p>Rich <b>text</b></p>");
}

#[tokio::test]
async fn a_note_can_be_attached_to_each_resource_type() {
    let s = TestServer::start().await;
    let cases = [
        ("client", s.ids.clients[2].id, "client_id"),
        ("lead", s.ids.leads[1], "lead_id"),
        ("project", s.ids.projects[1], "project_id"),
        ("task", s.ids.tasks[3].id, "task_id"),
        ("user", s.ids.users[2], "user_id"),
    ];
    for (kind, id, column) in cases {
        let note = create(
            &s,
            &format!("On a {kind}"),
            "Attached.",
            &[
                ("noteresource_type", kind),
                ("noteresource_id", &id.to_string()),
            ],
        )
        .await;
        assert_eq!(note["resource"], json!({"type": kind, "id": id}), "{kind}");
        assert_eq!(
            get(&s, id_of(&note)).await["resource"],
            json!({"type": kind, "id": id}),
            "{kind}"
        );
        let sql = format!("SELECT {column} FROM notes WHERE id = $1");
        let stored: Option<i64> = s
            .sql()
            .await
            .query_one(&sql, &[&id_of(&note)])
            .await
            .unwrap()
            .get(0);
        assert_eq!(stored, Some(id), "{kind}");
    }
    // JSON with a numeric id; empty type and id together mean a standalone note.
    let a = s
        .post(
            "/api/notes",
            json(json!({"note_title": "J", "note_description": "D", "noteresource_type": "lead", "noteresource_id": s.ids.leads[0]})),
        )
        .await;
    assert_eq!(a.status, StatusCode::CREATED, "{:?}", a.json);
    assert_eq!(
        a.data()["resource"],
        json!({"type": "lead", "id": s.ids.leads[0]})
    );
    let standalone = create(
        &s,
        "S",
        "D",
        &[("noteresource_type", ""), ("noteresource_id", "")],
    )
    .await;
    assert_eq!(standalone["resource"], json!({"type": null, "id": null}));
}

#[tokio::test]
async fn the_attachment_is_validated_with_the_laravel_messages() {
    let s = TestServer::start().await;
    let before = s
        .scalar("SELECT count(*) FROM notes WHERE id > $1", 0)
        .await;
    // A task id that is not a lead id.
    let task_not_lead = s
        .ids
        .tasks
        .iter()
        .map(|t| t.id)
        .find(|id| !s.ids.leads.contains(id))
        .unwrap();
    let cases: Vec<(Vec<(&str, String)>, Value)> = vec![
        (
            vec![("noteresource_type", "client".into())],
            json!({"noteresource_id": ["The noteresource id field is required when noteresource type is present."]}),
        ),
        (
            vec![("noteresource_id", "1".into())],
            json!({"noteresource_type": ["The noteresource type field is required when noteresource id is present."]}),
        ),
        (
            vec![
                ("noteresource_type", "client".into()),
                ("noteresource_id", "999999".into()),
            ],
            json!({"noteresource_id": ["The selected noteresource id is invalid."]}),
        ),
        (
            vec![
                ("noteresource_type", "lead".into()),
                ("noteresource_id", task_not_lead.to_string()),
            ],
            json!({"noteresource_id": ["The selected noteresource id is invalid."]}),
        ),
        (
            vec![
                ("noteresource_type", "invoice".into()),
                ("noteresource_id", "1".into()),
            ],
            json!({"noteresource_type": ["The selected noteresource type is invalid."]}),
        ),
        (
            vec![
                ("noteresource_type", "project".into()),
                ("noteresource_id", "first".into()),
            ],
            json!({"noteresource_id": ["The noteresource id must be an integer."]}),
        ),
    ];
    for (extra, errors) in cases {
        let mut body = pairs(&[("note_title", "T"), ("note_description", "D")]);
        body.extend(extra.iter().map(|(k, v)| ((*k).to_owned(), v.clone())));
        let a = s.post("/api/notes", Body::Form(body)).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{extra:?}: {:?}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": "The given data was invalid.", "errors": errors}),
            "{extra:?}"
        );
    }
    assert_eq!(
        s.scalar("SELECT count(*) FROM notes WHERE id > $1", 0)
            .await,
        before
    );
}

#[tokio::test]
async fn titles_descriptions_and_visibility_are_validated() {
    let s = TestServer::start().await;
    let a = s
        .post(
            "/api/notes",
            form(&[("note_title", " "), ("noteresource_id", "999999")]),
        )
        .await;
    assert_eq!(
        a.json,
        json!({
            "message": "The given data was invalid.",
            "errors": {
                "note_title": ["The note title field is required."],
                "note_description": ["The note description field is required."],
                "noteresource_type": ["The noteresource type field is required when noteresource id is present."]
            }
        })
    );
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "note_title",
            "n".repeat(251),
            "The note title may not be greater than 250 characters.",
        ),
        (
            "note_title",
            "<b>Bold</b>".into(),
            "The note title must not contain any HTML.",
        ),
        (
            "note_title",
            "Hi <img src=x onerror=alert(1)>".into(),
            "The note title must not contain any HTML.",
        ),
        (
            "note_description",
            "d".repeat(65_536),
            "The note description may not be greater than 65535 characters.",
        ),
        (
            "note_visibility",
            "secret".into(),
            "The selected note visibility is invalid.",
        ),
    ];
    for (field, value, message) in cases {
        let mut body = pairs(&[("note_title", "T"), ("note_description", "D")]);
        body.retain(|(k, _)| k != field);
        body.push((field.to_owned(), value));
        let a = s.post("/api/notes", Body::Form(body)).await;
        assert_invalid(&a, field, &[message]);
        assert_eq!(
            a.json["errors"].as_object().unwrap().len(),
            1,
            "{:?}",
            a.json
        );
    }
    let a = s
        .post(
            "/api/notes",
            json(json!({"note_title": 12, "note_description": ["x"]})),
        )
        .await;
    assert_invalid(&a, "note_title", &["The note title must be a string."]);
    assert_invalid(
        &a,
        "note_description",
        &["The note description must be a string."],
    );
    assert_eq!(
        ids(&list(&s, "").await),
        [s.ids.notes.public],
        "nothing was written"
    );

    // The limits themselves are accepted.
    let long = "t".repeat(250);
    assert_eq!(
        create(&s, &long, &"d".repeat(65_535), &[]).await["title"],
        long.as_str()
    );
}

#[tokio::test]
async fn an_unknown_note_is_404_on_every_endpoint() {
    let s = TestServer::start().await;
    let key = s.key.clone();
    assert_hidden_from(&s, &key, 999_999).await;
}

#[tokio::test]
async fn deleting_removes_the_note_and_its_tags_only() {
    let s = TestServer::start().await;
    let kept = id_of(&create(&s, "Kept", "K", &[]).await);
    put_tags(&s, kept, form(&[("tags[]", "keep")])).await;
    let gone = id_of(&create(&s, "Gone", "G", &[]).await);
    assert_eq!(
        put_tags(&s, gone, form(&[("tags[]", "a"), ("tags[]", "b")]))
            .await
            .status,
        StatusCode::OK
    );

    let a = s.delete(&format!("/api/notes/{gone}")).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(
        a.json,
        json!({"data": {"id": gone}, "message": "Note deleted successfully."})
    );
    assert_not_found(&s.get(&format!("/api/notes/{gone}")).await);
    assert_not_found(&s.delete(&format!("/api/notes/{gone}")).await);
    assert_eq!(
        s.scalar("SELECT count(*) FROM notes WHERE id = $1", gone)
            .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM tags WHERE note_id = $1", gone)
            .await,
        0
    );
    assert_eq!(ids(&list(&s, "").await), [kept, s.ids.notes.public]);
    assert_eq!(stored_tags(&s, kept).await, [("keep".to_owned(), 1)]);
}
