//! `PATCH /api/notes/{id}`: what it changes, what it ignores (the attachment), validation.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{TestServer, form, json};

use super::{assert_invalid, create, get, id_of, row_text};

#[tokio::test]
async fn an_update_changes_title_description_and_visibility_but_never_the_attachment() {
    let s = TestServer::start().await;
    let lead = s.ids.leads[0];
    let note = create(
        &s,
        "Call",
        "Ring them.",
        &[
            ("noteresource_type", "lead"),
            ("noteresource_id", &lead.to_string()),
        ],
    )
    .await;
    let id = id_of(&note);
    let path = format!("/api/notes/{id}");
    let sql = "UPDATE notes SET attachment_name = 'brief.pdf', attachment_path = 'files/brief.pdf', \
               created_at = '2026-01-01T00:00:00Z', updated_at = '2026-01-01T00:00:00Z' WHERE id = $1";
    s.sql().await.execute(sql, &[&id]).await.unwrap();

    let a = s
        .patch(
            &path,
            form(&[
                ("note_title", "Call back"),
                ("note_description", "Ring them on Monday."),
                ("note_visibility", "private"),
                ("noteresource_type", "client"),
                ("noteresource_id", &s.ids.clients[0].id.to_string()),
                ("attachment_name", "other.pdf"),
                ("attachment_path", "files/other.pdf"),
            ]),
        )
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Note updated successfully.");
    let data = a.data();
    assert_eq!(
        (&data["title"], &data["description"], &data["visibility"]),
        (
            &json!("Call back"),
            &json!("Ring them on Monday."),
            &json!("private")
        )
    );
    assert_eq!(data["resource"], json!({"type": "lead", "id": lead}));
    assert_eq!(data["creator_id"], 1);
    assert_eq!(data["dates"]["created"], "2026-01-01T00:00:00.000000Z");
    assert!(
        data["dates"]["updated"].as_str().unwrap() > "2026-01-02",
        "{data}"
    );
    assert_eq!(&get(&s, id).await, data);
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT attachment_name, attachment_path, lead_id, client_id FROM notes WHERE id = $1",
            &[&id],
        )
        .await
        .unwrap();
    assert_eq!(
        row.get::<_, Option<String>>(0).as_deref(),
        Some("brief.pdf")
    );
    assert_eq!(
        row.get::<_, Option<String>>(1).as_deref(),
        Some("files/brief.pdf")
    );
    assert_eq!(row.get::<_, Option<i64>>(2), Some(lead));
    assert_eq!(row.get::<_, Option<i64>>(3), None);

    // Absent visibility is kept; an empty one is the default, public.
    let a = s
        .patch(
            &path,
            form(&[("note_title", "T"), ("note_description", "D")]),
        )
        .await;
    assert_eq!(a.data()["visibility"], "private");
    let a = s
        .patch(
            &path,
            form(&[
                ("note_title", "T"),
                ("note_description", "D"),
                ("note_visibility", ""),
            ]),
        )
        .await;
    assert_eq!(a.data()["visibility"], "public");
    let a = s
        .patch(
            &path,
            json(json!({"note_title": "T", "note_description": "D", "note_visibility": "private"})),
        )
        .await;
    assert_eq!(a.data()["visibility"], "private");
}

#[tokio::test]
async fn an_update_validates_its_fields_and_writes_nothing_when_refused() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Original", "Text", &[]).await);
    let before = row_text(&s, id).await;
    let path = format!("/api/notes/{id}");
    let a = s
        .patch(&path, form(&[("note_visibility", "private")]))
        .await;
    assert_eq!(
        a.json,
        json!({
            "message": "The given data was invalid.",
            "errors": {
                "note_title": ["The note title field is required."],
                "note_description": ["The note description field is required."]
            }
        })
    );
    let a = s
        .patch(
            &path,
            form(&[
                ("note_title", "<em>x</em>"),
                ("note_description", "D"),
                ("note_visibility", "hidden"),
            ]),
        )
        .await;
    assert_invalid(
        &a,
        "note_title",
        &["The note title must not contain any HTML."],
    );
    assert_invalid(
        &a,
        "note_visibility",
        &["The selected note visibility is invalid."],
    );
    let a = s
        .patch(
            &path,
            form(&[("note_title", &"n".repeat(251)), ("note_description", "D")]),
        )
        .await;
    assert_invalid(
        &a,
        "note_title",
        &["The note title may not be greater than 250 characters."],
    );
    assert_eq!(row_text(&s, id).await, before);
}
