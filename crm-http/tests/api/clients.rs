//! `/api/clients` (API.md §17): CRUD in the three encodings, the list's filters, search
//! and exact totals, every bad field at once, the 409 of a client with records, two
//! editors with `If-Match`, and a delete racing an estimate for the same client.

use futures_util::future::join_all;
use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::common::{
    TestServer, assert_errors, assert_page, client, form, ids, json as body, multipart, today,
};

#[tokio::test]
async fn every_encoding_creates_reads_updates_and_deletes_a_client() {
    let s = TestServer::start().await;
    let bodies = [
        (
            "json",
            body(
                json!({"company_name": "Globex GmbH", "contact_email": "ap@globex.example", "address": {"city": "München", "country": "DE"}, "vat_id": "DE987654321", "peppol": {"scheme": "0204", "id": "04011000-1"}, "buyer_reference": "04011000-1", "currency": "EUR"}),
            ),
        ),
        (
            "form",
            form(&[
                ("company_name", "Globex GmbH"),
                ("contact_email", "ap@globex.example"),
                ("address[city]", "München"),
                ("address[country]", "DE"),
                ("vat_id", "DE987654321"),
                ("peppol[scheme]", "0204"),
                ("peppol[id]", "04011000-1"),
                ("buyer_reference", "04011000-1"),
                ("currency", "EUR"),
            ]),
        ),
        (
            "multipart",
            multipart(&[
                ("company_name", "Globex GmbH"),
                ("contact_email", "ap@globex.example"),
                ("address[city]", "München"),
                ("address[country]", "DE"),
                ("vat_id", "DE987654321"),
                ("peppol[scheme]", "0204"),
                ("peppol[id]", "04011000-1"),
                ("buyer_reference", "04011000-1"),
                ("currency", "EUR"),
            ]),
        ),
    ];
    let default_category = s.default_category("client").await;
    for (encoding, b) in bodies {
        let a = s.post("/api/clients", b).await;
        assert_eq!(a.status, StatusCode::CREATED, "{encoding}: {}", a.json);
        assert_eq!(a.message(), "Client created successfully.");
        let d = a.data().clone();
        let id = d["id"].as_i64().unwrap();
        assert_eq!(d["address"]["country"], "DE", "{encoding}");
        assert_eq!(d["peppol"], json!({"scheme": "0204", "id": "04011000-1"}));
        assert_eq!(d["category_id"], default_category);
        assert_eq!(
            (d["status"].as_str(), d["creator_id"].as_i64()),
            (Some("active"), Some(1))
        );
        let path = format!("/api/clients/{id}");
        assert_eq!(s.get(&path).await.json["data"], d);

        let a = s
            .patch(&path, form(&[("status", "suspended"), ("vat_id", "")]))
            .await;
        assert_eq!(a.status, StatusCode::OK, "{encoding}: {}", a.json);
        assert_eq!(a.message(), "Client updated successfully.");
        assert_eq!(a.data()["status"], "suspended");
        assert_eq!(a.data()["vat_id"], serde_json::Value::Null);
        assert_eq!(a.data()["company_name"], "Globex GmbH", "kept");
        assert_eq!(a.data()["address"]["city"], "München", "kept");

        let a = s.delete(&path).await;
        assert_eq!(a.status, StatusCode::OK, "{}", a.json);
        assert_eq!(
            a.json,
            json!({"data": {"id": id}, "message": "Client deleted successfully."})
        );
        assert_eq!(s.get(&path).await.status, StatusCode::NOT_FOUND);
    }
}

#[tokio::test]
async fn a_bad_client_names_every_failing_field_and_writes_nothing() {
    let s = TestServer::start().await;
    let before = s
        .scalar("SELECT count(*) FROM clients WHERE $1::bigint > 0", 1)
        .await;
    let a = s
        .post(
            "/api/clients",
            body(json!({"contact_email": "nobody", "address": {"country": "XX"}, "vat_id": "987654321", "currency": "eur", "category_id": 999999, "status": "gone"})),
        )
        .await;
    assert_errors(
        &a,
        json!({
            "company_name": ["The company name field is required."],
            "contact_email": ["The contact email must be a valid email address."],
            "address.country": ["The selected address.country is invalid."],
            "vat_id": ["The vat id must be a valid VAT identifier with its country prefix."],
            "currency": ["The selected currency is invalid."],
            "category_id": ["The selected category id is invalid."],
            "status": ["The selected status is invalid."]
        }),
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM clients WHERE $1::bigint > 0", 1)
            .await,
        before
    );
    let a = s
        .patch(
            &format!("/api/clients/{}", client(&s, 0)),
            form(&[("company_name", "")]),
        )
        .await;
    assert_errors(
        &a,
        json!({"company_name": ["The company name field is required."]}),
    );
    assert_eq!(
        s.patch("/api/clients/999999", form(&[])).await.status,
        StatusCode::NOT_FOUND
    );
}

#[tokio::test]
async fn a_client_with_records_is_not_deleted_but_can_be_suspended() {
    let s = TestServer::start().await;
    let path = format!("/api/clients/{}", client(&s, 0));
    let a = s.delete(&path).await;
    assert_eq!(a.status, StatusCode::CONFLICT);
    assert_eq!(a.json, json!({"message": "Client has records."}));
    let a = s.patch(&path, body(json!({"status": "suspended"}))).await;
    assert_eq!(a.data()["status"], "suspended");
}

#[tokio::test]
async fn the_list_filters_searches_and_counts_exactly() {
    let s = TestServer::start().await;
    for (name, country, vat) in [
        ("Zeta AG", "CH", "CHE123456789"),
        ("Alpha SARL", "FR", "FR12345678901"),
        ("Beta GmbH", "DE", "DE111111111"),
    ] {
        s.created(
            "/api/clients",
            json!({"company_name": name, "address": {"country": country}, "vat_id": vat, "contact_name": "Pat"}),
        )
        .await;
    }
    let a = s.get("/api/clients?country=DE").await;
    assert_page(&a, "Clients retrieved successfully.", 1, 35, 1);
    assert_eq!(a.data()[0]["company_name"], "Beta GmbH");
    let a = s.get("/api/clients?search=fr123&limit=1").await;
    assert_page(&a, "Clients retrieved successfully.", 1, 1, 1);
    let a = s
        .get("/api/clients?search=pat&sort=company_name&order=asc&limit=2")
        .await;
    assert_page(&a, "Clients retrieved successfully.", 1, 2, 3);
    let names: Vec<&str> = a
        .data()
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["company_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Alpha SARL", "Beta GmbH"]);
    let all = s.get("/api/clients?limit=100").await;
    let total = all.json["meta"]["total"].as_i64().unwrap();
    assert_eq!(ids(&all).len() as i64, total, "the total is exact");
    let a = s.get("/api/clients?status=suspended").await;
    assert_page(&a, "Clients retrieved successfully.", 1, 35, 0);
    let a = s.get("/api/clients?country=Germany&status=x").await;
    assert_errors(
        &a,
        json!({"country": ["The selected country is invalid."], "status": ["The selected status is invalid."]}),
    );
}

#[tokio::test]
async fn two_editors_from_one_version_cannot_both_win() {
    let s = TestServer::start().await;
    let id = s
        .created("/api/clients", json!({"company_name": "Initial"}))
        .await;
    let path = format!("/api/clients/{id}");
    let etag = s.get(&path).await.headers["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    let edits = (0..8).map(|n| {
        let b = body(json!({"company_name": format!("Editor {n}")}));
        let (path, etag) = (path.clone(), etag.clone());
        let s = &s;
        async move {
            s.call_with(&s.key, Method::PATCH, &path, b, &[("if-match", &etag)])
                .await
                .status
        }
    });
    let statuses = join_all(edits).await;
    let won = statuses.iter().filter(|st| **st == StatusCode::OK).count();
    let refused = statuses
        .iter()
        .filter(|st| **st == StatusCode::PRECONDITION_FAILED)
        .count();
    assert_eq!((won, refused), (1, 7), "{statuses:?}");
}

#[tokio::test]
async fn a_delete_racing_an_estimate_for_the_client_leaves_nothing_dangling() {
    let s = TestServer::start().await;
    let category = s.default_category("estimate").await;
    for round in 0..6 {
        let id = s
            .created(
                "/api/clients",
                json!({"company_name": format!("Racer {round}")}),
            )
            .await;
        let estimate = body(
            json!({"bill_clientid": id, "bill_categoryid": category, "bill_date": today().to_string()}),
        );
        let path = format!("/api/clients/{id}");
        let (created, deleted) = tokio::join!(s.post("/api/estimates", estimate), s.delete(&path));
        match (created.status, deleted.status) {
            (StatusCode::CREATED, StatusCode::CONFLICT) => {
                assert_eq!(deleted.message(), "Client has records.");
                assert_eq!(s.get(&path).await.status, StatusCode::OK);
            }
            (StatusCode::UNPROCESSABLE_ENTITY, StatusCode::OK) => {
                assert_eq!(
                    created.errors("bill_clientid"),
                    ["The selected bill clientid is invalid."]
                );
            }
            other => panic!("round {round}: {other:?} {} {}", created.json, deleted.json),
        }
        let dangling = s
            .scalar("SELECT count(*) FROM estimates e WHERE e.client_id = $1 AND NOT EXISTS (SELECT 1 FROM clients c WHERE c.id = e.client_id)", id)
            .await;
        assert_eq!(dangling, 0);
    }
}
