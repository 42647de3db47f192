//! The client's side (API.md §12): links made on publish and email or on demand, rotated
//! and revoked; what a token opens; the client's decision in one transaction with the
//! notice to the estimate's creator.

use crm_core::bill::EstimateKind;
use crm_core::bill::InvoiceKind;
use crm_core::estimate::decision::{DecisionRequest, Refusal};
use crm_core::estimate::{Decision, ShownStatus, StatusChange};
use crm_store_pg::client::{DecisionOutcome, Opened};
use crm_store_pg::messages::{Letterhead, Template};

/// The letterhead of the messages these tests queue (what it digests is the caller's).
const LETTERHEAD: Letterhead = Letterhead([0; 32]);

use crate::common::{Seeded, ctx, day, queued_emails, raw, seeded};
use crate::estimates::create;

/// The token of a link's URL.
fn token_of(url: &str) -> String {
    url.rsplit_once("/c/").unwrap().1.to_owned()
}

async fn published(s: &Seeded) -> (crm_core::ids::EstimateId, String) {
    let e = create(s, &[("bill_expiry_date", "2099-01-01")]).await;
    let p = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let link = p.client_link.expect("publishing makes a link");
    (e.id, token_of(&link.url))
}

/// A decision as the page's form sends it, with the `version` of the offer it showed.
fn request(decision: Decision, reason: Option<&str>, version: &str) -> DecisionRequest {
    let mut pairs: Vec<(&str, &str)> = reason.map(|r| ("reason", r)).into_iter().collect();
    pairs.push(("version", version));
    DecisionRequest::parse(decision, &raw(&pairs)).unwrap()
}

/// The version of the offer a live link's page shows now (empty when it opens no
/// estimate).
async fn version(store: &crm_store_pg::Store, token: &str) -> String {
    match store.open_link(token, ctx().today).await.unwrap() {
        Some(Opened::Estimate(_, version)) => version,
        _ => String::new(),
    }
}

#[tokio::test]
async fn publishing_makes_a_link_that_opens_the_estimate() {
    let s = seeded().await;
    let (id, token) = published(&s).await;
    assert_eq!(token.len(), 64);
    let e = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), id)
        .await
        .unwrap();
    let link = e.client_link.clone().unwrap();
    assert_eq!(link.url, format!("http://127.0.0.1:8080/c/{token}"));
    let days = (link.expires.0 - chrono::Utc::now()).num_days();
    assert!((179..=180).contains(&days), "{days}");
    match s.store.open_link(&token, ctx().today).await.unwrap() {
        Some(Opened::Estimate(opened, _)) => assert_eq!(*opened, e),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn a_new_link_replaces_the_old_one_and_a_revoked_or_expired_link_opens_nothing() {
    let s = seeded().await;
    let (id, first) = published(&s).await;
    let rotated = s
        .store
        .bills::<EstimateKind>()
        .make_link(ctx(), id)
        .await
        .unwrap();
    let second = token_of(&rotated.client_link.unwrap().url);
    assert_ne!(first, second);
    assert!(
        s.store
            .open_link(&first, ctx().today)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        s.store
            .open_link(&second, ctx().today)
            .await
            .unwrap()
            .is_some()
    );

    s.exec(&format!(
        "UPDATE estimates SET client_token_expires_at = now() - interval '1 second' WHERE id = {}",
        id.get()
    ))
    .await;
    assert!(
        s.store
            .open_link(&second, ctx().today)
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        s.store
            .bills::<EstimateKind>()
            .get(ctx(), id)
            .await
            .unwrap()
            .client_link,
        None
    );
    // Emailing again gives an expired link's record a new one.
    let emailed = s
        .store
        .bills::<EstimateKind>()
        .send_email(ctx(), id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let third = token_of(&emailed.client_link.unwrap().url);
    assert!(
        s.store
            .open_link(&third, ctx().today)
            .await
            .unwrap()
            .is_some()
    );

    let revoked = s
        .store
        .bills::<EstimateKind>()
        .revoke_link(ctx(), id)
        .await
        .unwrap();
    assert_eq!(revoked.client_link, None);
    assert!(
        s.store
            .open_link(&third, ctx().today)
            .await
            .unwrap()
            .is_none()
    );
    for bad in ["", "abc", &third.to_uppercase(), &"0".repeat(64)] {
        assert!(s.store.open_link(bad, ctx().today).await.unwrap().is_none());
    }
}

#[tokio::test]
async fn a_deleted_record_takes_its_link_with_it() {
    let s = seeded().await;
    let (id, token) = published(&s).await;
    s.store
        .bills::<EstimateKind>()
        .delete(ctx(), id)
        .await
        .unwrap();
    assert!(
        s.store
            .open_link(&token, ctx().today)
            .await
            .unwrap()
            .is_none()
    );
}

#[tokio::test]
async fn declining_records_the_status_the_response_and_the_notice_in_one_go() {
    let s = seeded().await;
    let (id, token) = published(&s).await;
    let outcome = s
        .store
        .decide_by_link(
            &token,
            &request(
                Decision::Declined,
                Some(" Too dear "),
                &version(&s.store, &token).await,
            ),
            ctx().today,
            &LETTERHEAD,
        )
        .await
        .unwrap();
    let DecisionOutcome::Recorded(Some(notice)) = outcome else {
        panic!("a new decision queues its notice: {outcome:?}");
    };
    assert_eq!(notice.estimate.id, id);
    assert_eq!(notice.compose.template, Template::EstimateDecision);
    let e = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), id)
        .await
        .unwrap();
    assert_eq!(e.status, ShownStatus::Declined);
    let response = e.client_response.unwrap();
    assert_eq!(response.decision, Decision::Declined);
    assert_eq!(response.reason.as_deref(), Some("Too dear"));
    let notices = queued_emails(&s, "estimate", id.get(), "pending").await;
    assert_eq!(
        notices.last().unwrap(),
        &(
            "admin@example.com".to_owned(),
            None,
            "estimate_decision".to_owned()
        )
    );

    // The same decision again is harmless: nothing changes, no second notice.
    let again = s
        .store
        .decide_by_link(
            &token,
            &request(
                Decision::Declined,
                Some("other"),
                &version(&s.store, &token).await,
            ),
            ctx().today,
            &LETTERHEAD,
        )
        .await
        .unwrap();
    assert!(matches!(again, DecisionOutcome::Recorded(None)));
    let after = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), id)
        .await
        .unwrap();
    assert_eq!(
        after.client_response.unwrap().reason.as_deref(),
        Some("Too dear")
    );
    assert_eq!(
        queued_emails(&s, "estimate", id.get(), "pending")
            .await
            .len(),
        notices.len()
    );
    // The other decision is refused.
    let other = s
        .store
        .decide_by_link(
            &token,
            &request(Decision::Accepted, None, &version(&s.store, &token).await),
            ctx().today,
            &LETTERHEAD,
        )
        .await
        .unwrap();
    assert!(matches!(
        other,
        DecisionOutcome::Refused(Refusal::AlreadyDecided)
    ));
}

#[tokio::test]
async fn expired_revised_and_draft_estimates_refuse_and_change_nothing() {
    let s = seeded().await;
    let (id, token) = published(&s).await;
    let accept = request(Decision::Accepted, None, &version(&s.store, &token).await);
    let after_expiry = day("2099-01-02");
    let refused = s
        .store
        .decide_by_link(&token, &accept, after_expiry, &LETTERHEAD)
        .await
        .unwrap();
    assert!(
        matches!(refused, DecisionOutcome::Refused(Refusal::Expired)),
        "{refused:?}"
    );
    for (status, refusal) in [("revised", Refusal::Revised), ("draft", Refusal::Draft)] {
        let change = StatusChange::parse(&raw(&[("status", status)])).unwrap();
        s.store
            .bills::<EstimateKind>()
            .set_status(ctx(), id, &change)
            .await
            .unwrap();
        let outcome = s
            .store
            .decide_by_link(&token, &accept, ctx().today, &LETTERHEAD)
            .await
            .unwrap();
        match outcome {
            DecisionOutcome::Refused(r) => assert_eq!(r, refusal),
            other => panic!("{other:?}"),
        }
    }
    let e = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), id)
        .await
        .unwrap();
    assert_eq!(e.status, ShownStatus::Draft);
    assert_eq!(e.client_response, None);
}

#[tokio::test]
async fn an_invoice_link_opens_the_invoice_and_takes_no_decision() {
    let s = seeded().await;
    let (id, _) = published(&s).await;
    let invoice = s.store.convert_estimate(ctx(), id).await.unwrap();
    let published = s
        .store
        .bills::<InvoiceKind>()
        .publish(
            ctx(),
            invoice.id,
            &crm_store_pg::messages::Letterhead([0; 32]),
        )
        .await
        .map(|e| e.record)
        .unwrap();
    let token = token_of(&published.client_link.unwrap().url);
    assert!(matches!(
        s.store.open_link(&token, ctx().today).await.unwrap(),
        Some(Opened::Invoice(_))
    ));
    let outcome = s
        .store
        .decide_by_link(
            &token,
            &request(Decision::Accepted, None, &version(&s.store, &token).await),
            ctx().today,
            &LETTERHEAD,
        )
        .await
        .unwrap();
    assert!(matches!(outcome, DecisionOutcome::NotFound));
}

#[tokio::test]
async fn concurrent_decisions_record_exactly_one() {
    let s = seeded().await;
    let (id, token) = published(&s).await;
    let mut tasks = Vec::new();
    for i in 0..8 {
        let store = s.store.clone();
        let token = token.clone();
        let decision = if i % 2 == 0 {
            Decision::Accepted
        } else {
            Decision::Declined
        };
        tasks.push(tokio::spawn(async move {
            store
                .decide_by_link(
                    &token,
                    &request(decision, None, &version(&store, &token).await),
                    ctx().today,
                    &LETTERHEAD,
                )
                .await
                .unwrap()
        }));
    }
    let mut refused = 0;
    for task in tasks {
        if matches!(
            task.await.unwrap(),
            DecisionOutcome::Refused(Refusal::AlreadyDecided)
        ) {
            refused += 1;
        }
    }
    assert_eq!(refused, 4, "the other decision's four are refused");
    let notices = s
        .scalar(&format!(
            "SELECT count(*) FROM email_queue WHERE estimate_id = {} AND template = 'estimate_decision'",
            id.get()
        ))
        .await;
    assert_eq!(notices, 1);
}
