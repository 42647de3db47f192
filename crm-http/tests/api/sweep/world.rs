//! The records the write sweep aims at, created on the seeded database before it starts: a
//! target row's path names one of them, and its base body refers to others.

use reqwest::Method;
use serde_json::json;

use crate::common::{Answer, Body, TestServer, json};

/// The records the sweep aims at.
pub struct World {
    /// The seeded client 0.
    pub client: i64,
    /// The seeded project 0.
    pub project: i64,
    /// A seeded lead.
    pub lead: i64,
    /// A seeded contract template.
    pub template: i64,
    /// A seeded client user (not a team member).
    pub client_user: i64,
    /// An enabled tax rate (not the first).
    pub enabled_rate: i64,
    /// Another enabled tax rate.
    pub other_rate: i64,
    /// A disabled tax rate.
    pub disabled_rate: i64,
    /// Contract category holding the contract.
    pub category: i64,
    /// Another contract category (migration target).
    pub category2: i64,
    /// An empty project category (the delete target).
    pub category3: i64,
    /// The system-default contract category.
    pub default_contract_category: i64,
    /// The system-default estimate category.
    pub default_estimate_category: i64,
    /// The system-default invoice category.
    pub default_invoice_category: i64,
    /// The system-default project category.
    pub default_project_category: i64,
    /// A contract in `category`.
    pub contract: i64,
    /// A draft estimate with one line.
    pub estimate: i64,
    /// A published, converted estimate.
    pub published: i64,
    /// A draft invoice with one line.
    pub invoice: i64,
    /// Another draft invoice, the one `PUT …/publish` issues (an issued invoice is locked:
    /// `invoice` stays a draft for the other targets).
    pub publishable_invoice: i64,
    /// A published invoice (the conversion of `published`).
    pub published_invoice: i64,
    /// A published invoice of 21.00 that takes payments (only the payment targets use it).
    pub payable_invoice: i64,
    /// A payment of 1.00 on `payable_invoice`.
    pub payment: i64,
    /// A published invoice of 1,000,000.00 that takes credit notes (only the credit note
    /// targets use it).
    pub creditable_invoice: i64,
    /// A credit note of `creditable_invoice`.
    pub credit_note: i64,
    /// A recurring invoice of `client` (starting in 2099: nothing is made of it).
    pub recurring_invoice: i64,
    /// A webhook endpoint (https, every event).
    pub webhook: i64,
    /// A delivery of `webhook` (its test event).
    pub delivery: i64,
    /// A milestone of `project`.
    pub milestone: i64,
    /// The seeded "Planning" milestone of `project`.
    pub planning: i64,
    /// The title of another milestone of `project` ("Design").
    pub design_title: String,
    /// The default (uncategorised) milestone of `project`.
    pub uncategorised: i64,
    /// A milestone of another project.
    pub other_project_milestone: i64,
    /// A note on `project`.
    pub note: i64,
    /// A private note of user 2 (hidden from user 1).
    pub private_note: i64,
    /// A sticky note (never served).
    pub sticky_note: i64,
    /// A client without records (the delete target).
    pub empty_client: i64,
    /// A tax rate no document uses (the delete target).
    pub unused_rate: i64,
    /// A project of `client` without bills (the delete target).
    pub empty_project: i64,
}

/// Creates the records of the sweep.
pub async fn world(s: &TestServer) -> World {
    let ids = &s.ids;
    let project = ids.projects[0];
    let client = ids.clients[0].id;
    let category = s
        .created(
            "/api/categories",
            json!({"category_name": "Sweep Contracts", "category_type": "contract"}),
        )
        .await;
    let category2 = s
        .created(
            "/api/categories",
            json!({"category_name": "Sweep Target", "category_type": "contract"}),
        )
        .await;
    let category3 = s
        .created(
            "/api/categories",
            json!({"category_name": "Sweep Empty", "category_type": "project"}),
        )
        .await;
    let contract = s
        .created(
            "/api/contracts",
            json!({"doc_client_id": client, "doc_title": "Sweep Contract", "doc_date_start": "2026-01-10", "doc_categoryid": category}),
        )
        .await;
    let bills = Bills::create(s, client).await;
    let payable_invoice = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": client, "bill_categoryid": bills.invoice_category, "bill_date": "2026-01-10"}),
        )
        .await;
    one_line(s, &format!("/api/invoices/{payable_invoice}/items")).await;
    setup(
        s,
        Method::PUT,
        &format!("/api/invoices/{payable_invoice}/publish"),
        200,
    )
    .await;
    let payment = s
        .created(
            "/api/payments",
            json!({"payment_invoiceid": payable_invoice, "payment_amount": "1.00", "payment_date": "2026-01-20"}),
        )
        .await;
    let creditable_invoice = s
        .created(
            "/api/invoices",
            json!({"bill_clientid": client, "bill_categoryid": bills.invoice_category, "bill_date": "2026-01-10"}),
        )
        .await;
    let a = s
        .put(
            &format!("/api/invoices/{creditable_invoice}/items"),
            crate::common::json(
                json!({"items": [{"description": "Retainer", "quantity": "1", "rate": "1000000"}]}),
            ),
        )
        .await;
    assert_eq!(a.status, reqwest::StatusCode::OK, "{}", a.json);
    setup(
        s,
        Method::PUT,
        &format!("/api/invoices/{creditable_invoice}/publish"),
        200,
    )
    .await;
    let credit_note = s
        .created(
            &format!("/api/invoices/{creditable_invoice}/credit-notes"),
            json!({"reason": "Sweep", "items": [{"description": "Credited", "quantity": "1", "rate": "1.00"}]}),
        )
        .await;
    let recurring_invoice = s
        .created(
            "/api/recurring-invoices",
            json!({"client_id": client, "category_id": bills.invoice_category, "frequency": "monthly", "start_date": "2099-01-31",
                "items": [{"description": "Retainer", "quantity": "1", "rate": "100"}]}),
        )
        .await;
    let webhook = s
        .created(
            "/api/webhooks",
            json!({"url": "https://hooks.example.com/sweep", "events": ["*"]}),
        )
        .await;
    let delivery = s
        .created(&format!("/api/webhooks/{webhook}/test"), json!({}))
        .await;
    let milestone = s
        .created(
            "/api/milestones",
            json!({"milestone_projectid": project, "milestone_title": "Sweep Milestone", "milestone_color": "info"}),
        )
        .await;
    let note = s
        .created(
            "/api/notes",
            json!({"note_title": "Sweep Note", "note_description": "Body", "noteresource_type": "project", "noteresource_id": project}),
        )
        .await;
    let empty_client = s
        .created(
            "/api/clients",
            json!({"company_name": "Sweep Empty Client"}),
        )
        .await;
    let unused_rate = s
        .created("/api/tax-rates", json!({"name": "Sweep Rate", "rate": "7"}))
        .await;
    let empty_project = s
        .created(
            "/api/projects",
            json!({"title": "Sweep Empty Project", "client_id": client}),
        )
        .await;
    let enabled: Vec<i64> = ids
        .tax_rates
        .iter()
        .filter(|t| t.status == "enabled" && t.id != 1)
        .map(|t| t.id)
        .collect();
    World {
        client,
        project,
        lead: ids.leads[0],
        template: ids.contract_templates[0],
        client_user: ids.client_users[0],
        enabled_rate: enabled[0],
        other_rate: enabled[1],
        disabled_rate: ids
            .tax_rates
            .iter()
            .find(|t| t.status == "disabled")
            .map(|t| t.id)
            .expect("a disabled tax rate"),
        category,
        category2,
        category3,
        default_contract_category: s.default_category("contract").await,
        default_estimate_category: bills.estimate_category,
        default_invoice_category: bills.invoice_category,
        default_project_category: s.default_category("project").await,
        contract,
        estimate: bills.estimate,
        published: bills.published,
        invoice: bills.invoice,
        publishable_invoice: bills.publishable_invoice,
        published_invoice: bills.published_invoice,
        payable_invoice,
        payment,
        creditable_invoice,
        credit_note,
        recurring_invoice,
        webhook,
        delivery,
        milestone,
        planning: milestone_of(s, project, "Planning"),
        design_title: "Design".to_owned(),
        uncategorised: ids
            .milestones
            .iter()
            .find(|m| m.project_id == project && m.milestone_type == "uncategorised")
            .map(|m| m.id)
            .expect("uncategorised milestone"),
        other_project_milestone: milestone_of(s, ids.projects[1], "Planning"),
        note,
        empty_client,
        unused_rate,
        empty_project,
        private_note: ids.notes.private_of_user_2,
        sticky_note: ids.notes.sticky,
    }
}

/// The seeded milestone of `project` titled `title`.
fn milestone_of(s: &TestServer, project: i64, title: &str) -> i64 {
    s.ids
        .milestones
        .iter()
        .find(|m| m.project_id == project && m.title == title)
        .map(|m| m.id)
        .unwrap_or_else(|| panic!("the seeded milestone {title} of project {project}"))
}

/// The bills of the sweep and their categories.
struct Bills {
    estimate_category: i64,
    invoice_category: i64,
    estimate: i64,
    published: i64,
    published_invoice: i64,
    invoice: i64,
    publishable_invoice: i64,
}

impl Bills {
    /// A draft estimate with one line; a second one published and converted, its invoice
    /// published; two draft invoices with one line.
    async fn create(s: &TestServer, client: i64) -> Bills {
        let estimate_category = s.default_category("estimate").await;
        let body = json!({"bill_clientid": client, "bill_categoryid": estimate_category, "bill_date": "2026-01-10"});
        let estimate = s.created("/api/estimates", body.clone()).await;
        let published = s.created("/api/estimates", body).await;
        for id in [estimate, published] {
            one_line(s, &format!("/api/estimates/{id}/items")).await;
        }
        setup(
            s,
            Method::PUT,
            &format!("/api/estimates/{published}/publish"),
            200,
        )
        .await;
        let converted = setup(
            s,
            Method::POST,
            &format!("/api/estimates/{published}/convert-to-invoice"),
            201,
        )
        .await;
        let published_invoice = converted.data()["id"].as_i64().expect("id");
        let publish = format!("/api/invoices/{published_invoice}/publish");
        setup(s, Method::PUT, &publish, 200).await;
        let invoice_category = s.default_category("invoice").await;
        let body = json!({"bill_clientid": client, "bill_categoryid": invoice_category, "bill_date": "2026-01-10"});
        let invoice = s.created("/api/invoices", body.clone()).await;
        let publishable_invoice = s.created("/api/invoices", body).await;
        for id in [invoice, publishable_invoice] {
            one_line(s, &format!("/api/invoices/{id}/items")).await;
        }
        Bills {
            estimate_category,
            invoice_category,
            estimate,
            published,
            published_invoice,
            invoice,
            publishable_invoice,
        }
    }
}

/// Gives the bill of an items `path` its one line.
async fn one_line(s: &TestServer, path: &str) {
    let items = json!({"items": [{"description": "Design", "quantity": "2", "rate": "10.50"}]});
    let a = s.put(path, json(items)).await;
    assert_eq!(a.status.as_u16(), 200, "setup {path}: {}", a.json);
}

/// A bodiless setup request that must answer `status`.
async fn setup(s: &TestServer, method: Method, path: &str, status: u16) -> Answer {
    let a = s.call(method.clone(), path, Body::None).await;
    assert_eq!(
        a.status.as_u16(),
        status,
        "setup {method} {path}: {}",
        a.json
    );
    a
}
