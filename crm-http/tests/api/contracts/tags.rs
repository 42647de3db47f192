//! `PUT /api/contracts/{id}/tags` in every body encoding, normalisation, clearing and errors.

use reqwest::StatusCode;
use serde_json::json;

use crate::common::{Body, TestServer, form, json, multipart, tag_bodies};

use super::{assert_invalid, create, get, id_of, list, put_tags, raw_form, stored_tags};

#[tokio::test]
async fn tags_are_set_in_every_encoding_trimmed_deduplicated_and_in_order() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Tagged", &[]).await);
    for (name, body) in tag_bodies() {
        // Start from another set so that each encoding must replace it.
        assert_eq!(
            put_tags(&s, id, json(json!({"tags": ["old"]})))
                .await
                .data()["tags"],
            json!(["old"])
        );
        let a = put_tags(&s, id, body).await;
        assert_eq!(a.status, StatusCode::OK, "{name}: {:?}", a.json);
        assert_eq!(a.message(), "Contract tags updated successfully.", "{name}");
        assert_eq!(a.data()["tags"], json!(["b", "a", "c"]), "{name}");
        assert_eq!(
            a.data()["title"],
            "Tagged",
            "{name}: the whole contract is returned"
        );
        assert_eq!(get(&s, id).await["tags"], json!(["b", "a", "c"]), "{name}");
        assert_eq!(
            stored_tags(&s, id).await,
            [("b".into(), 1), ("a".into(), 2), ("c".into(), 3)],
            "{name}"
        );
    }
}

#[tokio::test]
async fn sparse_indices_order_tags_by_index_and_case_differences_are_kept() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Tagged", &[]).await);
    let a = put_tags(&s, id, raw_form("tags[2]=b&tags[0]=a")).await;
    assert_eq!(a.data()["tags"], json!(["a", "b"]), "{:?}", a.json);
    let a = put_tags(
        &s,
        id,
        json(json!({"tags": ["Urgent", "urgent", " Urgent"]})),
    )
    .await;
    assert_eq!(a.data()["tags"], json!(["Urgent", "urgent"]));
    // Tags show in the list too.
    assert_eq!(
        list(&s, "").await.data()[0]["tags"],
        json!(["Urgent", "urgent"])
    );
}

#[tokio::test]
async fn an_empty_tag_set_clears_the_tags() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, "Tagged", &[]).await);
    let clears: Vec<(&str, Body)> = vec![
        ("tags[]=", raw_form("tags[]=")),
        ("tags%5B%5D=", raw_form("tags%5B%5D=")),
        ("tags=", raw_form("tags=")),
        ("JSON []", json(json!({"tags": []}))),
        ("JSON [\"\", \" \"]", json(json!({"tags": ["", " "]}))),
        ("multipart tags[]=", multipart(&[("tags[]", "")])),
    ];
    for (name, body) in clears {
        assert_eq!(
            put_tags(&s, id, form(&[("tags[]", "x"), ("tags[]", "y")]))
                .await
                .data()["tags"],
            json!(["x", "y"])
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
    let id = id_of(&create(&s, "Tagged", &[]).await);
    put_tags(&s, id, form(&[("tags[]", "kept")])).await;

    for (name, body) in [
        ("no body", Body::None),
        ("another field", form(&[("tag", "a")])),
        ("JSON without tags", json(json!({}))),
    ] {
        let a = put_tags(&s, id, body).await;
        assert_eq!(
            a.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{name}: {:?}",
            a.json
        );
        assert_eq!(
            a.json,
            json!({"message": "The given data was invalid.", "errors": {"tags": ["The tags field is required."]}}),
            "{name}"
        );
    }
    let a = put_tags(&s, id, form(&[("tags", "solo")])).await;
    assert_invalid(&a, "tags", &["The tags must be an array."]);

    let long = "x".repeat(101);
    let a = put_tags(&s, id, json(json!({"tags": ["ok", long, "<b>bold</b>"]}))).await;
    assert_eq!(
        a.json["errors"],
        json!({
            "tags.1": ["The tags.1 may not be greater than 100 characters."],
            "tags.2": ["The tags.2 must not contain any HTML."]
        })
    );
    // Positions in messages are the request's, empty elements included.
    let a = put_tags(&s, id, raw_form("tags[]=&tags[]=%3Ci%3Ex%3C%2Fi%3E")).await;
    assert_invalid(&a, "tags.1", &["The tags.1 must not contain any HTML."]);
    assert_eq!(get(&s, id).await["tags"], json!(["kept"]));

    // Exactly 100 characters is fine.
    let hundred = "z".repeat(100);
    assert_eq!(
        put_tags(&s, id, json(json!({"tags": [hundred]})))
            .await
            .data()["tags"],
        json!([hundred])
    );
}
