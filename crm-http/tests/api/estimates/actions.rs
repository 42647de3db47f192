//! Status rules: publish, send-email, `PUT status`, and the derived `expired` status.

use reqwest::StatusCode;
use serde_json::{Value, json};

use super::{assert_invalid, assert_message, client, create, day, get, id_of, patch, today};
use crate::common::{Answer, Body, TestServer, form};

async fn publish(s: &TestServer, id: i64) -> Answer {
    s.put(&format!("/api/estimates/{id}/publish"), Body::None)
        .await
}

async fn send_email(s: &TestServer, id: i64) -> Answer {
    s.post(&format!("/api/estimates/{id}/send-email"), Body::None)
        .await
}

async fn set_status(s: &TestServer, id: i64, status: &str) -> Answer {
    s.put(
        &format!("/api/estimates/{id}/status"),
        form(&[("status", status)]),
    )
    .await
}

/// The queued emails of estimate `id`: (recipient, subject, template, resource type,
/// resource id, status), oldest first.
async fn emails(s: &TestServer, id: i64) -> Vec<(String, String, String, String, i64, String)> {
    s.sql()
        .await
        .query(
            "SELECT recipient, subject, template, resource_type, resource_id, status FROM email_queue \
             WHERE estimate_id = $1 ORDER BY id",
            &[&id],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5)))
        .collect()
}

/// The one email an estimate of client 0 (Acme Inc) gets.
async fn acme_email(s: &TestServer, id: i64) -> (String, String, String, String, i64, String) {
    let title = s.title("Estimate", id).await;
    (
        "billing@acme.example".into(),
        format!("{title} from CRM"),
        "estimate".into(),
        "estimate".into(),
        id,
        "pending".into(),
    )
}

#[tokio::test]
async fn publishing_moves_a_draft_to_new_and_queues_exactly_one_email() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let a = publish(&s, id).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate published successfully.");
    assert_eq!(a.data()["status"], "new");
    assert_eq!(&get(&s, id).await, a.data());
    assert_eq!(emails(&s, id).await, [acme_email(&s, id).await]);

    assert_message(
        &publish(&s, id).await,
        StatusCode::CONFLICT,
        "Estimate has already been published.",
    );
    assert_eq!(get(&s, id).await["status"], "new");
    assert_eq!(
        emails(&s, id).await.len(),
        1,
        "a refused publish queues nothing"
    );

    for status in ["declined", "revised"] {
        assert_eq!(set_status(&s, id, status).await.status, StatusCode::OK);
        assert_message(
            &publish(&s, id).await,
            StatusCode::CONFLICT,
            "Estimate has already been published.",
        );
        assert_eq!(get(&s, id).await["status"], status);
    }
    assert_eq!(emails(&s, id).await.len(), 1);

    // A stored draft again can be published again (keeping its number).
    let number = get(&s, id).await["number"].clone();
    assert_eq!(set_status(&s, id, "draft").await.status, StatusCode::OK);
    assert_eq!(publish(&s, id).await.data()["status"], "new");
    assert_eq!(get(&s, id).await["number"], number);
    assert_eq!(
        emails(&s, id).await,
        [acme_email(&s, id).await, acme_email(&s, id).await]
    );
    // Accepted, it is not published again either (nor set back: API.md §18).
    assert_eq!(set_status(&s, id, "accepted").await.status, StatusCode::OK);
    assert_message(
        &publish(&s, id).await,
        StatusCode::CONFLICT,
        "Estimate has already been published.",
    );
    assert_message(
        &publish(&s, 999_999).await,
        StatusCode::NOT_FOUND,
        "Estimate not found.",
    );
}

#[tokio::test]
async fn a_client_without_a_contact_email_gets_no_email_publish_succeeds_and_send_email_says_why() {
    let s = TestServer::start().await;
    assert!(s.ids.clients[2].contact_email.is_none());
    let id = id_of(&create(&s, &[("bill_clientid", &client(&s, 2).to_string())]).await);
    let a = publish(&s, id).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.data()["status"], "new");
    let b = send_email(&s, id).await;
    assert_eq!(b.status, StatusCode::CONFLICT, "{:?}", b.json);
    assert_eq!(b.message(), "The client has no contact email.");
    assert_eq!(
        s.scalar(
            "SELECT count(*) FROM email_queue WHERE resource_id = $1 OR estimate_id = $1",
            id
        )
        .await,
        0
    );
    assert_eq!(
        s.scalar("SELECT count(*) FROM email_queue WHERE $1::bigint > 0", 1)
            .await,
        0
    );
}

#[tokio::test]
async fn send_email_refuses_a_draft_and_queues_an_email_otherwise() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[("bill_clientid", &client(&s, 1).to_string())]).await);
    assert_message(
        &send_email(&s, id).await,
        StatusCode::CONFLICT,
        "Estimate is still in draft status.",
    );
    assert!(emails(&s, id).await.is_empty());

    // Not published, but no longer a draft: emailing is allowed and changes nothing else
    // but the client link it makes (the email carries it; a second email keeps it).
    let mut before = set_status(&s, id, "accepted").await.data().clone();
    assert_eq!(before["client_link"], Value::Null);
    let a = send_email(&s, id).await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.message(), "Estimate email queued successfully.");
    let link = a.data()["client_link"].clone();
    assert!(
        link["url"].as_str().is_some_and(|u| u.contains("/c/")),
        "{link}"
    );
    before["client_link"] = link.clone();
    assert_eq!(a.data(), &before);
    let title = s.title("Estimate", id).await;
    let globex = (
        "accounts@globex.example".to_owned(),
        format!("{title} from CRM"),
        "estimate".to_owned(),
        "estimate".to_owned(),
        id,
        "pending".to_owned(),
    );
    assert_eq!(emails(&s, id).await, std::slice::from_ref(&globex));
    // Again while that email is still pending: the same message joins it.
    let again = send_email(&s, id).await;
    assert_eq!(again.status, StatusCode::OK);
    assert_eq!(again.data()["client_link"], link, "a working link is kept");
    assert_eq!(emails(&s, id).await, std::slice::from_ref(&globex));
    // Once it is sent, the next send-email queues another.
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET status = 'sent', sent_at = now(), next_attempt_at = NULL",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(send_email(&s, id).await.status, StatusCode::OK);
    let mut sent_row = globex.clone();
    sent_row.5 = "sent".to_owned();
    assert_eq!(emails(&s, id).await, [sent_row, globex]);
    assert_message(
        &send_email(&s, 999_999).await,
        StatusCode::NOT_FOUND,
        "Estimate not found.",
    );
}

#[tokio::test]
async fn put_status_sets_each_of_the_five_statuses_from_each_but_never_expired() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    let statuses = ["draft", "new", "accepted", "declined", "revised"];
    for from in statuses {
        for to in statuses {
            // An accepted estimate keeps its status (API.md §18): each pair on its own.
            let id = id_of(&create(&s, &[]).await);
            assert_eq!(set_status(&s, id, from).await.data()["status"], from);
            let a = set_status(&s, id, to).await;
            if from == "accepted" && to != "accepted" {
                assert_message(
                    &a,
                    StatusCode::CONFLICT,
                    "An accepted estimate cannot be changed.",
                );
                continue;
            }
            assert_eq!(a.status, StatusCode::OK, "{from} → {to}: {:?}", a.json);
            assert_eq!(a.message(), "Estimate status updated successfully.");
            assert_eq!(a.data()["status"], to, "{from} → {to}");
            assert_eq!(&get(&s, id).await, a.data());
        }
    }
    assert_eq!(set_status(&s, id, "accepted").await.status, StatusCode::OK);
    assert_invalid(
        &set_status(&s, id, "expired").await,
        "status",
        &["The selected status is invalid."],
    );
    assert_invalid(
        &set_status(&s, id, "paid").await,
        "status",
        &["The selected status is invalid."],
    );
    let missing = s
        .put(&format!("/api/estimates/{id}/status"), Body::None)
        .await;
    assert_invalid(&missing, "status", &["The status field is required."]);
    assert_eq!(
        get(&s, id).await["status"],
        "accepted",
        "a refused status change writes nothing"
    );
    let id = id_of(&create(&s, &[]).await);
    let json_body = s
        .put(
            &format!("/api/estimates/{id}/status"),
            Body::Json(json!({"status": "declined"})),
        )
        .await;
    assert_eq!(json_body.data()["status"], "declined");
    assert_eq!(get(&s, id).await["status"], "declined");
    assert!(
        emails(&s, id).await.is_empty(),
        "setting the status never emails"
    );
}

#[tokio::test]
async fn a_new_estimate_past_its_expiry_date_shows_expired_until_the_expiry_moves_forward() {
    let s = TestServer::start().await;
    let now = today();
    let (past_date, yesterday) = (day(now, -10), day(now, -1));
    let e = id_of(&create(&s, &[]).await);
    let draft = id_of(&create(&s, &[]).await);
    let accepted = id_of(&create(&s, &[]).await);
    let on_the_day = id_of(&create(&s, &[]).await);
    assert_eq!(publish(&s, e).await.data()["status"], "new");
    for id in [e, draft, accepted] {
        let a = patch(
            &s,
            id,
            &[("bill_date", &past_date), ("bill_expiry_date", &yesterday)],
        )
        .await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    }
    let shown = get(&s, e).await;
    assert_eq!(shown["status"], "expired");
    assert_eq!(shown["dates"]["expiry_date"], yesterday);
    assert_eq!(
        get(&s, draft).await["status"],
        "draft",
        "only stored new estimates expire"
    );
    assert_eq!(
        set_status(&s, accepted, "accepted").await.data()["status"],
        "accepted"
    );
    // Expiring today is not expired yet.
    assert_eq!(
        patch(
            &s,
            on_the_day,
            &[
                ("bill_date", &past_date),
                ("bill_expiry_date", &now.to_string())
            ]
        )
        .await
        .status,
        StatusCode::OK
    );
    assert_eq!(publish(&s, on_the_day).await.data()["status"], "new");

    let ids = |a: Answer| -> Vec<i64> {
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
        a.data().as_array().unwrap().iter().map(id_of).collect()
    };
    assert_eq!(ids(s.get("/api/estimates?status=expired").await), [e]);
    assert_eq!(ids(s.get("/api/estimates?status=new").await), [on_the_day]);
    assert_eq!(ids(s.get("/api/estimates?status=draft").await), [draft]);

    // Still stored as new: publishing is refused, and setting `new` again shows expired.
    assert_message(
        &publish(&s, e).await,
        StatusCode::CONFLICT,
        "Estimate has already been published.",
    );
    assert_eq!(set_status(&s, e, "new").await.data()["status"], "expired");
    assert_eq!(
        send_email(&s, e).await.status,
        StatusCode::OK,
        "an expired estimate can still be emailed"
    );

    // Moving the expiry date forward brings it back.
    let a = patch(
        &s,
        e,
        &[
            ("bill_date", &past_date),
            ("bill_expiry_date", &day(now, 30)),
        ],
    )
    .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    assert_eq!(a.data()["status"], "new");
    assert_eq!(
        ids(s.get("/api/estimates?status=expired").await),
        Vec::<i64>::new()
    );
    assert_eq!(
        ids(s.get("/api/estimates?status=new").await),
        [on_the_day, e]
    );
    // And back into the past, then no expiry date at all.
    assert_eq!(
        patch(
            &s,
            e,
            &[("bill_date", &past_date), ("bill_expiry_date", &yesterday)]
        )
        .await
        .data()["status"],
        "expired"
    );
    assert_eq!(
        patch(
            &s,
            e,
            &[("bill_date", &past_date), ("bill_expiry_date", "")]
        )
        .await
        .data()["status"],
        "new"
    );
}

/// Issue 47, item 6: the second hardening round answered a send-email within 60 seconds
/// of the estimate's last email with a 409 ("An email for this estimate was queued less
/// than 60 seconds ago."), which the contract does not allow. Send-email on a published
/// estimate answers 200 whenever it comes, right after publishing too, and queues its
/// email beside publish's; repeated at once, it joins its own email still waiting, and
/// queues again once that one is sent.
#[tokio::test]
async fn send_email_answers_200_whenever_it_comes() {
    let s = TestServer::start().await;
    let id = id_of(&create(&s, &[]).await);
    assert_eq!(publish(&s, id).await.status, StatusCode::OK);
    assert_eq!(emails(&s, id).await.len(), 1);
    for _ in 0..3 {
        let a = send_email(&s, id).await;
        assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
        assert_eq!(a.message(), "Estimate email queued successfully.");
        assert!(!a.headers.contains_key("retry-after"));
    }
    let pending = acme_email(&s, id).await;
    assert_eq!(emails(&s, id).await, [pending.clone(), pending.clone()]);
    s.sql()
        .await
        .execute(
            "UPDATE email_queue SET status = 'sent', sent_at = now(), next_attempt_at = NULL",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(send_email(&s, id).await.status, StatusCode::OK);
    let mut sent = pending.clone();
    sent.5 = "sent".to_owned();
    assert_eq!(emails(&s, id).await, [sent.clone(), sent, pending]);
    // Publishing is not held back either: a draft again, published again, queues.
    let other = id_of(&create(&s, &[]).await);
    assert_eq!(publish(&s, other).await.status, StatusCode::OK);
    assert_eq!(set_status(&s, other, "draft").await.status, StatusCode::OK);
    assert_eq!(publish(&s, other).await.status, StatusCode::OK);
    assert_eq!(emails(&s, other).await.len(), 2);
}
