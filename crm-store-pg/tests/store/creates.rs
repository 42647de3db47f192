//! Creates that are one statement (issue 12): the estimate, invoice and contract creates
//! insert and read back in a single statement guarded by the reference check. What they
//! answer must be what a later read returns, and a failing reference must write nothing and
//! report every failing field, as the multi-statement creates did.

use crm_core::bill::EstimateKind;
use crm_core::bill::InvoiceKind;
use crm_core::contract::NewContract;
use crm_core::estimate::NewEstimate;
use crm_core::invoice::NewInvoice;

use crate::common::{ctx, invalid, messages, new_bill, raw, seeded};

#[tokio::test]
async fn a_created_bill_or_contract_is_what_a_later_read_returns() {
    let s = seeded().await;
    let project = s.ids.projects[0].to_string();
    for extra in [
        vec![],
        vec![
            ("bill_projectid", project.as_str()),
            ("tax_type", "inline"),
            ("bill_notes", "Notes"),
            ("bill_terms", "Terms"),
            ("bill_expiry_date", "2026-12-01"),
            ("bill_due_date", "2026-12-01"),
        ],
    ] {
        let cmd = NewEstimate::parse(&new_bill(&s, "estimate", &extra).await).unwrap();
        let created = s
            .store
            .bills::<EstimateKind>()
            .create(ctx(), &cmd)
            .await
            .unwrap();
        assert_eq!(
            created,
            s.store
                .bills::<EstimateKind>()
                .get(ctx(), created.id)
                .await
                .unwrap()
        );

        let cmd = NewInvoice::parse(&new_bill(&s, "invoice", &extra).await).unwrap();
        let created = s
            .store
            .bills::<InvoiceKind>()
            .create(ctx(), &cmd)
            .await
            .unwrap();
        assert_eq!(
            created,
            s.store
                .bills::<InvoiceKind>()
                .get(ctx(), created.id)
                .await
                .unwrap()
        );
    }
    let client = s.ids.clients[0].id.to_string();
    let category = s.default_category("contract").await.to_string();
    let template = s
        .scalar("INSERT INTO contract_templates (title, body) VALUES ('T', 'Template body') RETURNING id")
        .await
        .to_string();
    for extra in [
        vec![],
        vec![
            ("doc_value", "1200.50"),
            ("doc_date_end", "2027-06-01"),
            ("doc_project_id", project.as_str()),
            ("contract_template", template.as_str()),
        ],
    ] {
        let mut pairs = vec![
            ("doc_client_id", client.as_str()),
            ("doc_title", "One statement"),
            ("doc_date_start", "2026-06-01"),
            ("doc_categoryid", category.as_str()),
        ];
        pairs.extend_from_slice(&extra);
        let cmd = NewContract::parse(&raw(&pairs)).unwrap();
        let created = s.store.create_contract(ctx(), &cmd).await.unwrap();
        assert_eq!(created, s.store.contract(ctx(), created.id).await.unwrap());
    }
}

#[tokio::test]
async fn a_create_with_a_failing_reference_writes_nothing_and_names_every_field() {
    let s = seeded().await;
    let rows = "SELECT (SELECT count(*) FROM estimates) + (SELECT count(*) FROM invoices) \
                + (SELECT count(*) FROM contracts) + (SELECT count(*) FROM list_count_deltas)";
    let before = s.scalar(rows).await;
    let wrong_category = s.default_category("contract").await.to_string();
    let bad = [
        ("bill_clientid", "999999"),
        ("bill_projectid", "999999"),
        ("bill_categoryid", wrong_category.as_str()),
    ];
    let cmd = NewEstimate::parse(&new_bill(&s, "estimate", &bad).await).unwrap();
    let errors = invalid(s.store.bills::<EstimateKind>().create(ctx(), &cmd).await);
    for field in ["bill_clientid", "bill_projectid", "bill_categoryid"] {
        assert_eq!(
            messages(&errors, field).len(),
            1,
            "estimate {field}: {errors:?}"
        );
    }
    let cmd = NewInvoice::parse(&new_bill(&s, "invoice", &bad).await).unwrap();
    let errors = invalid(s.store.bills::<InvoiceKind>().create(ctx(), &cmd).await);
    for field in ["bill_clientid", "bill_projectid", "bill_categoryid"] {
        assert_eq!(
            messages(&errors, field).len(),
            1,
            "invoice {field}: {errors:?}"
        );
    }
    let estimate_category = s.default_category("estimate").await.to_string();
    let cmd = NewContract::parse(&raw(&[
        ("doc_client_id", "999999"),
        ("doc_title", "Bad"),
        ("doc_date_start", "2026-06-01"),
        ("doc_categoryid", estimate_category.as_str()),
        ("contract_template", "999999"),
    ]))
    .unwrap();
    let errors = invalid(s.store.create_contract(ctx(), &cmd).await);
    for field in ["doc_client_id", "doc_categoryid", "contract_template"] {
        assert_eq!(
            messages(&errors, field).len(),
            1,
            "contract {field}: {errors:?}"
        );
    }
    assert_eq!(s.scalar(rows).await, before, "nothing written");
}
