//! Publish, send-email and clone.

use crm_core::bill::EstimateKind;
use crm_core::conflict::Conflict;
use crm_core::estimate::{EstimateClone, ShownStatus, StatusChange};
use crm_core::tags::TagSet;
use crm_store_pg::StoreError;

use super::{create, emails, invalid, item, items, messages, patch, rate_id};
use crate::common::{ctx, raw, seeded};

#[tokio::test]
async fn publishing_a_draft_makes_it_new_and_queues_exactly_one_email_to_the_client() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let p = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    assert_eq!(p.status, ShownStatus::New);
    let stamped = s
        .scalar(&format!(
            "SELECT count(*) FROM estimates WHERE id = {} AND published_at IS NOT NULL",
            e.id
        ))
        .await;
    assert_eq!(stamped, 1);
    let queued = emails(&s, e.id, "pending").await;
    assert_eq!(
        queued,
        // The subject is the composed message's: the caller composes it after the commit.
        [(
            "billing@acme.example".to_owned(),
            None,
            "estimate".to_owned()
        )]
    );
    let linked = s
        .scalar(&format!(
            "SELECT count(*) FROM email_queue WHERE estimate_id = {}",
            e.id
        ))
        .await;
    assert_eq!(linked, 1);
}

#[tokio::test]
async fn publishing_for_a_client_without_a_contact_email_queues_nothing_and_succeeds() {
    let s = seeded().await;
    let initech = s.ids.clients[2].id.to_string();
    let e = create(&s, &[("bill_clientid", &initech)]).await;
    assert_eq!(
        s.store
            .bills::<EstimateKind>()
            .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
            .await
            .map(|e| e.record)
            .unwrap()
            .status,
        ShownStatus::New
    );
    assert_eq!(s.scalar("SELECT count(*) FROM email_queue").await, 0);
    // Emailing it is refused: nothing would be sent.
    let sent = s
        .store
        .bills::<EstimateKind>()
        .send_email(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await;
    assert!(
        matches!(sent, Err(StoreError::Conflict(Conflict::NoContactEmail))),
        "{sent:?}"
    );
    assert_eq!(s.scalar("SELECT count(*) FROM email_queue").await, 0);
}

#[tokio::test]
async fn only_a_stored_draft_can_be_published() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    s.store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let again = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record);
    assert!(
        matches!(
            again,
            Err(StoreError::Conflict(Conflict::EstimateAlreadyPublished))
        ),
        "{again:?}"
    );
    s.store
        .bills::<EstimateKind>()
        .set_status(
            ctx(),
            e.id,
            &StatusChange::parse(&raw(&[("status", "accepted")])).unwrap(),
        )
        .await
        .unwrap();
    let accepted = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record);
    assert!(
        matches!(
            accepted,
            Err(StoreError::Conflict(Conflict::EstimateAlreadyPublished))
        ),
        "{accepted:?}"
    );
    assert_eq!(emails(&s, e.id, "pending").await.len(), 1);
}

#[tokio::test]
async fn publishing_is_atomic_when_queueing_the_email_fails() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    s.exec("CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$;
         CREATE TRIGGER boom BEFORE INSERT ON email_queue FOR EACH ROW EXECUTE FUNCTION boom();",
    )
    .await;
    let r = s
        .store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record);
    assert!(matches!(r, Err(StoreError::Database(_))), "{r:?}");
    let after = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    assert_eq!(after.status, ShownStatus::Draft);
    let stamped = s
        .scalar(&format!(
            "SELECT count(*) FROM estimates WHERE id = {} AND published_at IS NULL",
            e.id
        ))
        .await;
    assert_eq!(stamped, 1);
}

#[tokio::test]
async fn a_draft_cannot_be_emailed_and_a_published_estimate_is_emailed_without_changing() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let draft = s
        .store
        .bills::<EstimateKind>()
        .send_email(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record);
    assert!(
        matches!(
            draft,
            Err(StoreError::Conflict(Conflict::EstimateStillDraft))
        ),
        "{draft:?}"
    );
    assert_eq!(s.scalar("SELECT count(*) FROM email_queue").await, 0);
    s.store
        .bills::<EstimateKind>()
        .set_status(
            ctx(),
            e.id,
            &StatusChange::parse(&raw(&[("status", "declined")])).unwrap(),
        )
        .await
        .unwrap();
    // Emailing changes nothing but the client link it makes, which the next email keeps.
    let mut before = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    assert_eq!(before.client_link, None);
    let sent = s
        .store
        .bills::<EstimateKind>()
        .send_email(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    assert!(sent.client_link.is_some());
    before.client_link.clone_from(&sent.client_link);
    assert_eq!(sent, before);
    // A second send-email while the first one's identical email is still waiting joins
    // it (issue 47: no refusal, no second copy); once that one is sent, the next queues
    // a new one, sharing the stored message.
    let again = s
        .store
        .bills::<EstimateKind>()
        .send_email(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    assert_eq!(again.client_link, sent.client_link);
    assert_eq!(emails(&s, e.id, "pending").await.len(), 1);
    s.exec("UPDATE email_queue SET status = 'sent', sent_at = now(), next_attempt_at = NULL")
        .await;
    s.store
        .bills::<EstimateKind>()
        .send_email(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    assert_eq!(emails(&s, e.id, "pending").await.len(), 1);
    assert_eq!(emails(&s, e.id, "sent").await.len(), 1);
    assert_eq!(s.scalar("SELECT count(*) FROM email_bodies").await, 1);
    assert_eq!(
        s.scalar("SELECT count(DISTINCT body_id) FROM email_queue")
            .await,
        1
    );
    let initech = s.ids.clients[2].id.to_string();
    let silent = create(&s, &[("bill_clientid", &initech)]).await;
    s.store
        .bills::<EstimateKind>()
        .publish(
            ctx(),
            silent.id,
            &crm_store_pg::messages::Letterhead([0; 32]),
        )
        .await
        .map(|e| e.record)
        .unwrap();
    let refused = s
        .store
        .bills::<EstimateKind>()
        .send_email(
            ctx(),
            silent.id,
            &crm_store_pg::messages::Letterhead([0; 32]),
        )
        .await;
    assert!(
        matches!(refused, Err(StoreError::Conflict(Conflict::NoContactEmail))),
        "{refused:?}"
    );
    assert_eq!(emails(&s, silent.id, "pending").await.len(), 0);
}

#[tokio::test]
async fn a_clone_copies_lines_taxes_discount_adjustment_notes_and_terms_but_not_tags_or_status() {
    let s = seeded().await;
    let e = create(
        &s,
        &[
            ("bill_tax_type", "inline"),
            ("bill_notes", "N"),
            ("bill_terms", "T"),
        ],
    )
    .await;
    let ten = rate_id(&s, "10.00", "enabled");
    let lines = vec![
        item(&[
            ("description", "A"),
            ("quantity", "2"),
            ("rate", "100"),
            ("discount_type", "fixed"),
            ("discount_value", "20"),
            ("tax_rate_id", &ten),
        ]),
        item(&[
            ("description", "B"),
            ("quantity", "1"),
            ("rate", "50"),
            ("tax_rate_id", &ten),
        ]),
    ];
    s.store
        .bills::<EstimateKind>()
        .replace_items(ctx(), e.id, items(lines, None))
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .update(
            ctx(),
            e.id,
            &patch(
                &e,
                &[
                    ("bill_adjustment_amount", "-1.25"),
                    ("bill_adjustment_description", "Goodwill"),
                ],
            ),
        )
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .set_tags(ctx(), e.id, &TagSet::normalise(["vip"]))
        .await
        .unwrap();
    s.store
        .bills::<EstimateKind>()
        .publish(ctx(), e.id, &crm_store_pg::messages::Letterhead([0; 32]))
        .await
        .map(|e| e.record)
        .unwrap();
    let source = s
        .store
        .bills::<EstimateKind>()
        .get(ctx(), e.id)
        .await
        .unwrap();
    let globex = s.ids.clients[1].id.to_string();
    let project = s.ids.projects[1].to_string();
    let category = s.default_category("estimate").await.to_string();
    let cmd = EstimateClone::parse(&raw(&[
        ("bill_clientid", &globex),
        ("bill_categoryid", &category),
        ("bill_date", "2026-12-01"),
        ("bill_expiry_date", "2026-12-31"),
        ("bill_projectid", &project),
    ]))
    .unwrap();
    let c = s
        .store
        .bills::<EstimateKind>()
        .clone_bill(ctx(), e.id, &cmd)
        .await
        .unwrap();
    assert_ne!(c.id, source.id);
    assert_eq!(c.status, ShownStatus::Draft);
    assert_eq!(c.client.name, "Globex Corporation");
    assert_eq!(c.project_id.map(|p| p.get()), Some(s.ids.projects[1]));
    assert_eq!(
        (
            c.dates.date.to_string(),
            c.dates.expiry_date.map(|d| d.to_string())
        ),
        ("2026-12-01".into(), Some("2026-12-31".into()))
    );
    assert!(c.tags.is_empty() && !c.converted.is_converted);
    assert_eq!(
        (
            c.tax_type,
            c.notes.clone(),
            c.terms.clone(),
            c.totals.clone()
        ),
        (
            source.tax_type,
            source.notes.clone(),
            source.terms.clone(),
            source.totals.clone()
        )
    );
    let strip = |e: &crm_core::estimate::Estimate| {
        e.line_items
            .iter()
            .map(|l| {
                (
                    l.position,
                    l.description.clone(),
                    l.total,
                    l.discount,
                    l.tax_rate_id,
                )
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(strip(&c), strip(&source));
    assert!(
        c.line_items
            .iter()
            .all(|l| !source.line_items.iter().any(|o| o.id == l.id))
    );
    let line_of = |e: &crm_core::estimate::Estimate, id| {
        e.line_items
            .iter()
            .find(|l| Some(l.id) == id)
            .map(|l| l.position)
    };
    let taxes = |e: &crm_core::estimate::Estimate| {
        e.taxes
            .iter()
            .map(|t| (t.name.clone(), t.rate, line_of(e, t.lineitem_id)))
            .collect::<Vec<_>>()
    };
    assert_eq!(taxes(&c), taxes(&source));
    assert_eq!(c.taxes.len(), 2);
    assert_eq!(
        s.store
            .bills::<EstimateKind>()
            .get(ctx(), e.id)
            .await
            .unwrap(),
        source,
        "the source is unchanged"
    );
}

#[tokio::test]
async fn a_clone_checks_its_references() {
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let cmd = EstimateClone::parse(&raw(&[
        ("bill_clientid", "9999"),
        ("bill_categoryid", "1"),
        ("bill_date", "2026-12-01"),
    ]))
    .unwrap();
    let err = invalid(
        s.store
            .bills::<EstimateKind>()
            .clone_bill(ctx(), e.id, &cmd)
            .await,
    );
    assert_eq!(
        messages(&err, "bill_clientid"),
        ["The selected bill clientid is invalid."]
    );
    assert_eq!(
        messages(&err, "bill_categoryid"),
        ["The selected bill categoryid is invalid."]
    );
    assert_eq!(s.scalar("SELECT count(*) FROM estimates").await, 1);
}

#[tokio::test]
async fn a_queued_message_waits_for_its_composing_and_each_version_is_composed_once() {
    use crm_store_pg::messages::{Letterhead, Message, Template};
    let s = seeded().await;
    let e = create(&s, &[]).await;
    let letterhead = Letterhead([7; 32]);
    let bills = s.store.bills::<EstimateKind>();
    let published = bills.publish(ctx(), e.id, &letterhead).await.unwrap();
    let to = published
        .compose
        .expect("a new version's message is to be composed");
    assert_eq!(to.template, Template::Estimate);
    // The worker does not see a row whose message is not composed.
    let mut outbox = crm_store_pg::outbox::Outbox::new(s.db.config()).unwrap();
    let due = chrono::Utc::now() + chrono::Duration::days(1);
    let lease = std::time::Duration::from_secs(60);
    assert!(outbox.claim(due, 10, lease).await.unwrap().is_empty());
    let message = Message {
        subject: "Estimate #1 from Acme".to_owned(),
        text: "text".to_owned(),
        html: "<p>html</p>".to_owned(),
        attachment: Some(b"%PDF-1.7".to_vec()),
        einvoice: Some(crm_store_pg::messages::Attached {
            name: "EST-1-ubl.xml".to_owned(),
            media_type: "application/xml".to_owned(),
            data: b"<Invoice/>".to_vec(),
        }),
    };
    s.store.compose(&to, &message).await.unwrap();
    // Composing again (the upkeep after a slow request, say) changes nothing.
    let other = Message {
        subject: "another".to_owned(),
        ..message.clone()
    };
    s.store.compose(&to, &other).await.unwrap();
    assert_eq!(
        emails(&s, e.id, "pending").await,
        [(
            "billing@acme.example".to_owned(),
            Some(message.subject.clone()),
            "estimate".to_owned()
        )]
    );
    let claimed = outbox.claim(due, 10, lease).await.unwrap();
    assert_eq!(claimed.len(), 1);
    assert_eq!(
        (&claimed[0].subject, &claimed[0].text, &claimed[0].html),
        (&message.subject, &message.text, &message.html)
    );
    // The PDF first (named by the record), then the e-invoice (named as composed).
    let files: Vec<(&str, &str, &[u8])> = claimed[0]
        .attachments
        .iter()
        .map(|f| (f.name.as_str(), f.media_type.as_str(), f.data.as_slice()))
        .collect();
    assert_eq!(
        files,
        [
            ("estimate-1.pdf", "application/pdf", &b"%PDF-1.7"[..]),
            ("EST-1-ubl.xml", "application/xml", &b"<Invoice/>"[..])
        ]
    );
    outbox.release(&[claimed[0].id]).await.unwrap();
    // The same version emailed again reuses the composed message: nothing to compose, and
    // the new row carries the subject at once.
    let sent = bills.send_email(ctx(), e.id, &letterhead).await.unwrap();
    assert_eq!(sent.compose, None);
    assert!(
        emails(&s, e.id, "pending")
            .await
            .iter()
            .all(|(_, subject, _)| subject.as_deref() == Some("Estimate #1 from Acme"))
    );
    // Another letterhead (the company renamed, say) is another version to compose.
    let renamed = bills
        .send_email(ctx(), e.id, &Letterhead([8; 32]))
        .await
        .unwrap();
    assert!(renamed.compose.is_some());
    // Nothing left for long: the upkeep finds none older than a minute.
    assert!(
        s.store
            .uncomposed(std::time::Duration::from_secs(60), 10)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        s.store
            .uncomposed(std::time::Duration::ZERO, 10)
            .await
            .unwrap()
            .len(),
        1
    );
}
