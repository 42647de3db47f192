//! The three body encodings (and both bracket spellings) on `PUT items` and `PUT tags`,
//! and sparse, unordered item indices.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{
    Encoding, Item, bracket_body, create, get, id_of, indexed_items_body, item, items_body, pairs,
    put_items, tax_rate, without_id,
};
use crate::common::{Body, TestServer};

const ALL: [Encoding; 6] = [
    Encoding::Form,
    Encoding::RawBrackets,
    Encoding::LowerPercent,
    Encoding::Json,
    Encoding::JsonStrings,
    Encoding::Multipart,
];

/// What `PUT items` answered, without the fresh line ids: lines, taxes (line ids replaced
/// by positions) and totals.
fn bill(data: &Value) -> Value {
    let lines = data["line_items"].as_array().unwrap();
    let taxes: Vec<Value> = data["taxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            let mut t = t.clone();
            if let Some(line) = t["lineitem_id"].as_i64() {
                t["lineitem_id"] =
                    json!(lines.iter().position(|l| id_of(l) == line).map(|p| p + 1));
            }
            t
        })
        .collect();
    json!({"lines": lines.iter().map(without_id).collect::<Vec<_>>(), "taxes": taxes, "totals": data["totals"]})
}

/// Puts the same bill in every encoding; all answers must be the same bill.
async fn same_bill_in_every_encoding(
    s: &TestServer,
    id: i64,
    items: &[Item],
    tax_rate_ids: &[i64],
) -> Value {
    let mut first: Option<Value> = None;
    for enc in ALL {
        // Something else in between, so that each request visibly replaces the bill.
        let other = put_items(
            s,
            id,
            items_body(
                Encoding::Form,
                &[item(&[
                    ("description", "Other"),
                    ("quantity", "1"),
                    ("rate", "1"),
                ])],
                &[],
            ),
        )
        .await;
        assert_eq!(other.status, StatusCode::OK, "{:?}", other.json);
        let a = put_items(s, id, items_body(enc, items, tax_rate_ids)).await;
        assert_eq!(a.status, StatusCode::OK, "{enc:?}: {:?}", a.json);
        assert_eq!(&get(s, id).await, a.data(), "{enc:?}");
        let b = bill(a.data());
        match &first {
            None => first = Some(b),
            Some(f) => assert_eq!(&b, f, "{enc:?} differs from {:?}", ALL[0]),
        }
    }
    first.unwrap()
}

#[tokio::test]
async fn put_items_reads_every_encoding_and_bracket_spelling_alike_in_summary_mode() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let items = [
        item(&[
            ("description", "Design & build"),
            ("unit", "hours"),
            ("quantity", "1.5"),
            ("rate", "1385.27"),
            ("long_description", "Line one\nline two"),
        ]),
        item(&[
            ("description", "Hosting [annual]"),
            ("quantity", "12"),
            ("rate", "9.99"),
        ]),
        item(&[
            ("description", "Ünïcode 100%"),
            ("quantity", "0.3333"),
            ("rate", "1.005"),
        ]),
    ];
    let rates = [tax_rate(&s, "GST 10%"), tax_rate(&s, "Sales Tax 8.25%")];
    let b = same_bill_in_every_encoding(&s, id, &items, &rates).await;
    let descriptions: Vec<&Value> = b["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["description"])
        .collect();
    assert_eq!(
        descriptions,
        [
            &json!("Design & build"),
            &json!("Hosting [annual]"),
            &json!("Ünïcode 100%")
        ]
    );
    assert_eq!(b["lines"][0]["long_description"], "Line one\nline two");
    assert_eq!(b["lines"][2]["quantity"], "0.3333");
    assert_eq!(b["lines"][2]["rate"], "1.005");
    let totals: Vec<&Value> = b["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["total"])
        .collect();
    assert_eq!(
        totals,
        [&json!("2077.90"), &json!("119.88"), &json!("0.33")]
    );
    assert_eq!(b["taxes"].as_array().unwrap().len(), 2);
    assert_eq!(b["totals"]["tax_total_percentage"], "18.25");
    assert_eq!(b["totals"]["subtotal"], "2198.11");
}

#[tokio::test]
async fn put_items_reads_every_encoding_alike_in_inline_mode() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[("bill_tax_type", "inline")]).await);
    let (gst, vat) = (
        tax_rate(&s, "GST 10%").to_string(),
        tax_rate(&s, "VAT 12.5%").to_string(),
    );
    let items = [
        item(&[
            ("description", "A"),
            ("quantity", "2"),
            ("rate", "100"),
            ("discount_type", "fixed"),
            ("discount_value", "20"),
            ("tax_rate_id", &gst),
        ]),
        item(&[
            ("description", "B"),
            ("quantity", "1"),
            ("rate", "2.675"),
            ("discount_type", "percentage"),
            ("discount_value", "50"),
        ]),
        item(&[
            ("description", "C"),
            ("quantity", "3"),
            ("rate", "10"),
            ("discount_type", "none"),
            ("tax_rate_id", &vat),
        ]),
    ];
    let b = same_bill_in_every_encoding(&s, id, &items, &[]).await;
    assert_eq!(
        b["lines"][0]["discount"],
        json!({"type": "fixed", "value": "20.00", "amount": "20.00"})
    );
    assert_eq!(b["lines"][1]["discount"]["type"], "percentage");
    assert_eq!(b["lines"][1]["discount"]["value"], "50.00");
    assert_eq!(b["lines"][2]["total"], "33.75");
    let taxed: Vec<&Value> = b["taxes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| &t["lineitem_id"])
        .collect();
    assert_eq!(
        taxed,
        [&json!(1), &json!(3)],
        "per-line taxes of lines 1 and 3"
    );
}

#[tokio::test]
async fn sparse_unordered_indices_give_request_order_by_index_and_positions_one_to_n() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let line = |d: &str, r: &str| item(&[("rate", r), ("description", d), ("quantity", "1")]);
    let items = vec![
        (5, line("Third", "3")),
        (0, line("First", "1")),
        (12, line("Fourth", "4")),
        (2, line("Second", "2")),
    ];
    for enc in [
        Encoding::RawBrackets,
        Encoding::Form,
        Encoding::LowerPercent,
        Encoding::Multipart,
    ] {
        let a = put_items(&s, id, indexed_items_body(enc, &items, &[])).await;
        assert_eq!(a.status, StatusCode::OK, "{enc:?}: {:?}", a.json);
        let got: Vec<(Value, Value, Value)> = a.data()["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| {
                (
                    l["position"].clone(),
                    l["description"].clone(),
                    l["rate"].clone(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                (json!(1), json!("First"), json!("1.00")),
                (json!(2), json!("Second"), json!("2.00")),
                (json!(3), json!("Third"), json!("3.00")),
                (json!(4), json!("Fourth"), json!("4.00")),
            ],
            "{enc:?}"
        );
        assert_eq!(a.data()["totals"]["subtotal"], "10.00");
        let stored: Vec<(i32, String)> = s
            .sql()
            .await
            .query("SELECT position, description FROM estimate_lines WHERE estimate_id = $1 ORDER BY id", &[&id])
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        assert_eq!(
            stored,
            [
                (1, "First".into()),
                (2, "Second".into()),
                (3, "Third".into()),
                (4, "Fourth".into())
            ]
        );
    }
}

#[tokio::test]
async fn put_tags_reads_every_encoding_and_normalises_the_set() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let path = format!("/api/estimates/{id}/tags");
    let sent = [" urgent ", "vip", "urgent", "", "Later"];
    let expected = json!(["urgent", "vip", "Later"]);
    let bracketed = || {
        sent.iter()
            .map(|t| ("tags[]".to_owned(), (*t).to_owned()))
            .collect::<Vec<_>>()
    };
    let bodies = vec![
        (Encoding::Form, bracket_body(Encoding::Form, bracketed())),
        (
            Encoding::RawBrackets,
            bracket_body(Encoding::RawBrackets, bracketed()),
        ),
        (
            Encoding::LowerPercent,
            bracket_body(Encoding::LowerPercent, bracketed()),
        ),
        (
            Encoding::Multipart,
            bracket_body(Encoding::Multipart, bracketed()),
        ),
        (Encoding::Json, Body::Json(json!({ "tags": sent }))),
    ];
    for (enc, body) in bodies {
        assert_eq!(
            s.put(&path, Body::Json(json!({"tags": ["reset"]})))
                .await
                .data()["tags"],
            json!(["reset"])
        );
        let a = s.put(&path, body).await;
        assert_eq!(a.status, StatusCode::OK, "{enc:?}: {:?}", a.json);
        assert_eq!(a.message(), "Estimate tags updated successfully.");
        assert_eq!(a.data()["tags"], expected, "{enc:?}");
        assert_eq!(a.data()["id"], id);
        assert_eq!(&get(&s, id).await, a.data());
        assert_eq!(
            s.scalar("SELECT count(*) FROM tags WHERE estimate_id = $1", id)
                .await,
            3
        );
    }
    // Indices given explicitly keep their order too.
    let a = s
        .put(
            &path,
            Body::Form(pairs(&[("tags[1]", "second"), ("tags[0]", "first")])),
        )
        .await;
    assert_eq!(a.data()["tags"], json!(["first", "second"]));

    // The empty set clears; no `tags` at all is a 422 that keeps the tags.
    for clear in [
        Body::Form(pairs(&[("tags", "")])),
        Body::Form(pairs(&[("tags[]", "")])),
        Body::Json(json!({"tags": []})),
    ] {
        assert_eq!(
            s.put(&path, Body::Json(json!({"tags": ["x"]})))
                .await
                .status,
            StatusCode::OK
        );
        let a = s.put(&path, clear).await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
        assert_eq!(a.data()["tags"], json!([]));
        assert_eq!(
            s.scalar("SELECT count(*) FROM tags WHERE estimate_id = $1", id)
                .await,
            0
        );
    }
    assert_eq!(
        s.put(&path, Body::Json(json!({"tags": ["kept"]})))
            .await
            .status,
        StatusCode::OK
    );
    let a = s.put(&path, Body::None).await;
    super::assert_invalid(&a, "tags", &["The tags field is required."]);
    let a = s
        .put(&path, Body::Json(json!({"tags": ["ok", "<b>bold</b>"]})))
        .await;
    super::assert_invalid(&a, "tags.1", &["The tags.1 must not contain any HTML."]);
    assert_eq!(get(&s, id).await["tags"], json!(["kept"]));
}
