//! What a person sees of a record is composed by the service, not the store (issue 46):
//! emails are composed after the write's commit, off the record's lock and off the async
//! workers, from the record as committed; what a stopped process left is composed later.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crm_core::bill::EstimateKind;
use crm_http::documents::{Documents, Presentation};
use crm_store_pg::messages::Letterhead;
use reqwest::StatusCode;

use crate::common::{TestServer, client, form, json, today};
use crate::estimates::{create, patch_bill};

/// A gate the renderer passes before each rendering: closed, it holds every rendering
/// (on its blocking thread) until opened.
#[derive(Default)]
struct Gate {
    closed: Mutex<bool>,
    opened: Condvar,
    entered: AtomicUsize,
}

impl Gate {
    fn closed() -> Arc<Gate> {
        let gate = Gate::default();
        *gate.closed.lock().unwrap() = true;
        Arc::new(gate)
    }

    /// Called by the renderer: counts, then waits while closed (a minute at most, so that
    /// a failing test does not hang).
    fn pass(&self) {
        self.entered.fetch_add(1, Ordering::SeqCst);
        let closed = self.closed.lock().unwrap();
        let _ = self
            .opened
            .wait_timeout_while(closed, Duration::from_secs(60), |closed| *closed)
            .unwrap();
    }

    fn open(&self) {
        *self.closed.lock().unwrap() = false;
        self.opened.notify_all();
    }

    async fn entered(&self, n: usize) {
        for _ in 0..600 {
            if self.entered.load(Ordering::SeqCst) >= n {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("no rendering started");
    }
}

/// A server whose emails carry the PDF, each rendering passing `gate`.
async fn gated(gate: &Arc<Gate>) -> TestServer {
    let hook = Arc::clone(gate);
    TestServer::start_configured(
        |_| {},
        move |app| {
            app.with_documents(
                Documents::new(Presentation {
                    attach_pdf: true,
                    ..Presentation::default()
                })
                .with_render_hook(Arc::new(move || hook.pass())),
            )
        },
    )
    .await
}

/// The queued email of estimate `id`: its text and its attachment, once composed.
async fn message(s: &TestServer, id: i64) -> (Option<String>, Option<Vec<u8>>) {
    let row = s
        .sql()
        .await
        .query_one(
            "SELECT b.body_text, b.attachment FROM email_queue q JOIN email_bodies b \
             ON b.id = q.body_id WHERE q.estimate_id = $1",
            &[&id],
        )
        .await
        .unwrap();
    (row.get(0), row.get(1))
}

#[tokio::test]
async fn a_held_rendering_holds_no_lock_and_the_email_shows_the_record_as_committed() {
    let gate = Gate::closed();
    let s = Arc::new(gated(&gate).await);
    let id = create(&s, &[("bill_notes", "Before the email")]).await["id"]
        .as_i64()
        .unwrap();
    let publishing = {
        let s = Arc::clone(&s);
        tokio::spawn(async move {
            s.put(&format!("/api/estimates/{id}/publish"), form(&[]))
                .await
        })
    };
    // The email (and its PDF) is being rendered: the publish has committed.
    gate.entered(1).await;
    // Another write of the same estimate takes its row lock and answers meanwhile.
    let patched = patch_bill(
        &s,
        "estimates",
        "estimate",
        id,
        &[("bill_notes", "After the email")],
    )
    .await;
    assert_eq!(patched.status, StatusCode::OK, "{:?}", patched.json);
    assert!(!publishing.is_finished(), "the rendering is still held");
    assert_eq!(message(&s, id).await, (None, None), "not composed yet");
    gate.open();
    let published = publishing.await.unwrap();
    assert_eq!(published.status, StatusCode::OK, "{:?}", published.json);
    // The email shows the estimate as the publish committed it, not the later change.
    let (text, attachment) = message(&s, id).await;
    let text = text.expect("composed");
    assert!(text.contains("Before the email"), "{text}");
    assert!(!text.contains("After the email"), "{text}");
    assert!(attachment.expect("the PDF").starts_with(b"%PDF-"));
}

#[tokio::test]
async fn without_attach_pdf_the_email_carries_no_pdf() {
    let s = TestServer::start().await;
    let id = create(&s, &[]).await["id"].as_i64().unwrap();
    let a = s
        .put(&format!("/api/estimates/{id}/publish"), form(&[]))
        .await;
    assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
    let (text, attachment) = message(&s, id).await;
    assert!(text.is_some());
    assert_eq!(attachment, None);
}

#[tokio::test]
async fn a_message_a_stopped_process_left_is_composed_from_the_record_later() {
    let s = TestServer::start().await;
    let id = create(&s, &[]).await["id"].as_i64().unwrap();
    // Published by the store alone, as a process that stopped before composing would
    // leave it.
    let estimate = crm_core::ids::EstimateId::new(id).unwrap();
    let ctx = crm_store_pg::Ctx {
        actor: crm_core::ids::UserId::new(1).unwrap(),
        today: today(),
    };
    let letterhead: Letterhead = *s.app.documents.letterhead();
    let emailed = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx, estimate, &letterhead)
        .await
        .unwrap();
    assert!(emailed.compose.is_some());
    assert_eq!(message(&s, id).await.0, None);
    let composed = s
        .app
        .documents
        .compose_left(&s.store, today(), Duration::ZERO, 10)
        .await
        .unwrap();
    assert_eq!(composed, 1);
    let text = message(&s, id).await.0.expect("composed by the upkeep");
    let number = s.number(&format!("/api/estimates/{id}")).await;
    assert!(text.contains(&format!("Estimate {number}")), "{text}");
    // Nothing is left to compose.
    assert_eq!(
        s.app
            .documents
            .compose_left(&s.store, today(), Duration::ZERO, 10)
            .await
            .unwrap(),
        0
    );
}

#[tokio::test]
async fn documents_name_the_company_and_the_client_as_they_are_now() {
    let s = TestServer::start().await;
    let company = s
        .patch(
            "/api/company",
            json(serde_json::json!({
                "legal_name": "Example Consulting & Co Ltd",
                "trading_name": "Example",
                "address": {"line1": "1 High Street", "city": "London", "postcode": "EC1A 1AA", "country": "GB"},
                "vat_id": "GB123456789"
            })),
        )
        .await;
    assert_eq!(company.status, StatusCode::OK, "{:?}", company.json);
    let client_id = client(&s, 0);
    let buyer = s
        .patch(
            &format!("/api/clients/{client_id}"),
            json(serde_json::json!({
                "address": {"city": "Berlin", "postcode": "10115", "country": "DE"},
                "vat_id": "DE123456789"
            })),
        )
        .await;
    assert_eq!(buyer.status, StatusCode::OK, "{:?}", buyer.json);
    let id = create(&s, &[]).await["id"].as_i64().unwrap();
    let published = s
        .put(&format!("/api/estimates/{id}/publish"), form(&[]))
        .await;
    assert_eq!(published.status, StatusCode::OK, "{:?}", published.json);
    // The email names both, escaped where it is HTML.
    let (text, _) = message(&s, id).await;
    let text = text.expect("composed");
    for shown in [
        "From: Example Consulting & Co Ltd (trading as Example)",
        "1 High Street",
        "EC1A 1AA London",
        "VAT GB123456789",
        "10115 Berlin",
        "VAT DE123456789",
    ] {
        assert!(text.contains(shown), "{shown}: {text}");
    }
    let subject: String = s
        .sql()
        .await
        .query_one(
            "SELECT subject FROM email_queue WHERE estimate_id = $1",
            &[&id],
        )
        .await
        .unwrap()
        .get(0);
    assert!(subject.contains("Example"), "{subject}");
    // The client's page too.
    let link = s.get(&format!("/api/estimates/{id}")).await.data()["client_link"]["url"]
        .as_str()
        .unwrap()
        .to_owned();
    let token = link.rsplit_once("/c/").unwrap().1;
    let page = reqwest::get(format!("{}/c/{token}", s.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for shown in [
        "Example Consulting &#38; Co Ltd",
        "VAT GB123456789",
        "VAT DE123456789",
    ] {
        assert!(page.contains(shown), "{shown}: {page}");
    }
    // A PDF kept in memory follows a change of the company's settings.
    let before = pdf_tag(&s, id).await;
    assert_eq!(pdf_tag(&s, id).await, before, "kept");
    let moved = s
        .patch(
            "/api/company",
            json(serde_json::json!({"vat_id": "GB987654321"})),
        )
        .await;
    assert_eq!(moved.status, StatusCode::OK, "{:?}", moved.json);
    assert_ne!(
        pdf_tag(&s, id).await,
        before,
        "rendered again with the new VAT id"
    );
}

/// The `ETag` of estimate `id`'s PDF, asserted 200.
async fn pdf_tag(s: &TestServer, id: i64) -> String {
    let a = s.get(&format!("/api/estimates/{id}/pdf")).await;
    assert_eq!(a.status, StatusCode::OK);
    a.headers["etag"].to_str().unwrap().to_owned()
}

/// The text of the client's page a record's link opens.
async fn page_of(s: &TestServer, record: &serde_json::Value) -> String {
    let link = record["client_link"]["url"].as_str().expect("a link");
    let token = link.rsplit_once("/c/").unwrap().1;
    reqwest::get(format!("{}/c/{token}", s.base))
        .await
        .unwrap()
        .text()
        .await
        .unwrap()
}

#[tokio::test]
async fn an_issued_invoice_and_its_credit_note_keep_the_parties_they_were_issued_with() {
    let s = TestServer::start().await;
    let set = |body: serde_json::Value, path: String| {
        let s = &s;
        async move {
            let a = s.patch(&path, json(body)).await;
            assert_eq!(a.status, StatusCode::OK, "{:?}", a.json);
        }
    };
    let client_id = client(&s, 0);
    set(
        serde_json::json!({"legal_name": "Old Name GmbH", "vat_id": "DE111111111", "payment_terms": "Net 14."}),
        "/api/company".into(),
    )
    .await;
    set(
        serde_json::json!({"address": {"city": "Bonn", "country": "DE"}}),
        format!("/api/clients/{client_id}"),
    )
    .await;
    let issued = crate::payments::published(&s, 0, "10.00").await;
    let draft = s
        .created(
            "/api/invoices",
            serde_json::json!({"bill_clientid": client_id, "bill_categoryid": s.default_category("invoice").await, "bill_date": "2026-11-01"}),
        )
        .await;
    let a = s
        .post(&format!("/api/invoices/{draft}/link"), form(&[]))
        .await;
    assert_eq!(a.status, StatusCode::CREATED);
    let shown = s.get(&format!("/api/invoices/{issued}")).await;
    let parties = &shown.data()["parties"];
    assert_eq!(parties["seller"]["legal_name"], "Old Name GmbH");
    assert_eq!(parties["seller"]["payment_terms"], "Net 14.");
    assert_eq!(parties["buyer"]["address"]["city"], "Bonn");
    assert!(s.get(&format!("/api/invoices/{draft}")).await.data()["parties"].is_null());
    // The company and the client change; then a credit note is issued.
    set(
        serde_json::json!({"legal_name": "New Name AG", "vat_id": "DE222222222"}),
        "/api/company".into(),
    )
    .await;
    set(
        serde_json::json!({"address": {"city": "Köln", "country": "DE"}}),
        format!("/api/clients/{client_id}"),
    )
    .await;
    let note = s
        .post(
            &format!("/api/invoices/{issued}/credit-notes"),
            json(serde_json::json!({"reason": "Wrong rate", "items": [{"description": "Work", "quantity": 1, "rate": 1}]})),
        )
        .await;
    assert_eq!(note.status, StatusCode::CREATED, "{:?}", note.json);
    assert_eq!(
        note.data()["parties"]["seller"]["legal_name"],
        "New Name AG"
    );
    // The issued invoice still names the old parties, on its page and in the API; the draft
    // and the credit note the new ones.
    let shown = s.get(&format!("/api/invoices/{issued}")).await;
    assert_eq!(
        shown.data()["parties"]["seller"]["legal_name"],
        "Old Name GmbH"
    );
    let page = page_of(&s, shown.data()).await;
    assert!(
        page.contains("Old Name GmbH") && page.contains("VAT DE111111111") && page.contains("Bonn"),
        "{page}"
    );
    assert!(
        !page.contains("New Name AG") && !page.contains("Köln"),
        "{page}"
    );
    let page = page_of(&s, s.get(&format!("/api/invoices/{draft}")).await.data()).await;
    assert!(
        page.contains("New Name AG") && page.contains("Köln"),
        "{page}"
    );
    let linked = s
        .post(
            &format!("/api/credit-notes/{}/link", note.data()["id"]),
            form(&[]),
        )
        .await;
    let page = page_of(&s, linked.data()).await;
    assert!(
        page.contains("New Name AG") && page.contains("VAT DE222222222"),
        "{page}"
    );
}
