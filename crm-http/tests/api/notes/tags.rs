//! `PUT /api/notes/{id}/tags` in every body encoding, normalisation, clearing and errors.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Body, TestServer, form, json, multipart, tag_bodies};

use super::{assert_invalid, create, get, id_of, list, put_tags, raw_form, stored_tags};

#[tokio::test]
async fn tags_are_set_in_every_encoding_trimmed_deduplicated_and_in_order() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Tagged", "Note", &[]).await);
    for (name, body) in tag_bodies() {
        assert_eq!(
            put_tags(&s, id, json(json!({"tags": ["old"]})))
                .await
                .data()["tags"],
            json!(["old"])
        );
        let a = put_tags(&s, id, body).await;
        assert_eq!(a.status, StatusCode::OK, "{name}: {:?}", a.json);
        assert_eq!(a.message(), "Note tags updated successfully.", "{name}");
        assert_eq!(a.data()["tags"], json!(["b", "a", "c"]), "{name}");
        assert_eq!(
            a.data()["title"],
            "Tagged",
            "{name}: the whole note is returned"
        );
        assert_eq!(get(&s, id).await["tags"], json!(["b", "a", "c"]), "{name}");
        assert_eq!(
            stored_tags(&s, id).await,
            [("b".into(), 1), ("a".into(), 2), ("c".into(), 3)],
            "{name}"
        );
    }
    let a = put_tags(&s, id, raw_form("tags[2]=b&tags[0]=a")).await;
    assert_eq!(a.data()["tags"], json!(["a", "b"]), "{:?}", a.json);
    assert_eq!(
        list(&s, "").await.data()[0]["tags"],
        json!(["a", "b"]),
        "tags show in the list"
    );
}

#[tokio::test]
async fn an_empty_tag_set_clears_the_tags() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Tagged", "Note", &[]).await);
    let clears: Vec<(&str, Body)> = vec![
        ("tags[]=", raw_form("tags[]=")),
        ("tags%5B%5D=", raw_form("tags%5B%5D=")),
        ("tags=", raw_form("tags=")),
        ("JSON []", json(json!({"tags": []}))),
        // Laravel turns `tags=` into null before validating: JSON null is the same request.
        ("JSON null", json(json!({"tags": null}))),
        ("multipart tags[]=", multipart(&[("tags[]", "")])),
    ];
    for (name, body) in clears {
        assert_eq!(
            put_tags(&s, id, form(&[("tags[]", "x")])).await.data()["tags"],
            json!(["x"])
        );
        let a = put_tags(&s, id, body).await;
        assert_eq!(a.status, StatusCode::OK, "{name}: {:?}", a.json);
        assert_eq!(a.data()["tags"], json!([]), "{name}");
        assert_eq!(stored_tags(&s, id).await, [], "{name}");
    }
}

#[tokio::test]
async fn missing_or_invalid_tags_are_refused_and_keep_the_stored_set() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Tagged", "Note", &[]).await);
    put_tags(&s, id, form(&[("tags[]", "kept")])).await;
    for (name, body) in [
        ("no body", Body::None),
        ("another field", form(&[("note_title", "x")])),
    ] {
        let a = put_tags(&s, id, body).await;
        assert_eq!(
            a.json,
            json!({"message": "The given data was invalid.", "errors": {"tags": ["The tags field is required."]}}),
            "{name}"
        );
    }
    let a = put_tags(&s, id, json(json!({"tags": "kept"}))).await;
    assert_invalid(&a, "tags", &["The tags must be an array."]);
    let a = put_tags(
        &s,
        id,
        multipart(&[
            ("tags[]", "fine"),
            ("tags[]", &"x".repeat(101)),
            ("tags[]", "<a href=x>y</a>"),
        ]),
    )
    .await;
    assert_eq!(
        a.json["errors"],
        json!({
            "tags.1": ["The tags.1 may not be greater than 100 characters."],
            "tags.2": ["The tags.2 must not contain any HTML."]
        })
    );
    let a = put_tags(&s, id, json(json!({"tags": ["ok", 5]}))).await;
    assert_invalid(&a, "tags.1", &["The tags.1 must be a string."]);
    assert_eq!(get(&s, id).await["tags"], json!(["kept"]));
    assert_eq!(stored_tags(&s, id).await, [("kept".to_owned(), 1)]);
}
