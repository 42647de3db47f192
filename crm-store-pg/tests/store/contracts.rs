//! Contracts: derived status, list filters and sorts, create with its backing estimate,
//! patch semantics, delete, tags, clone, references and atomicity.

// Test helpers unwrap: a failing call is a failing test.
#![allow(clippy::unwrap_used)]

use crm_core::conflict::Resource;
use crm_core::contract::{
    Contract, ContractClone, ContractListQuery, ContractStatus, ContractUpdate, NewContract,
    SigningStatus,
};
use crm_core::ids::ContractId;
use crm_core::tags::TagSet;
use crm_store_pg::StoreError;
use tokio_postgres::Client;

use crate::common::{Seeded, ctx, day, default_category, raw, scalar, seeded};

/// A valid create request for client `client` with extra pairs.
fn new_contract(client: i64, category: i64, title: &str, extra: &[(&str, &str)]) -> NewContract {
    let client = client.to_string();
    let category = category.to_string();
    let mut pairs = vec![
        ("doc_client_id", client.as_str()),
        ("doc_title", title),
        ("doc_date_start", "2026-06-01"),
        ("doc_categoryid", category.as_str()),
    ];
    pairs.extend_from_slice(extra);
    NewContract::parse(&raw(&pairs)).unwrap()
}

/// Creates a contract of the first client in the default contract category.
async fn create(s: &Seeded, c: &Client, title: &str, extra: &[(&str, &str)]) -> Contract {
    let cmd = new_contract(
        s.ids.clients[0].id,
        default_category(c, "contract").await,
        title,
        extra,
    );
    s.store.create_contract(ctx(), &cmd).await.unwrap()
}

fn list_query(pairs: &[(&str, &str)]) -> ContractListQuery {
    ContractListQuery::parse(&raw(pairs)).unwrap()
}

fn ids(items: &[Contract]) -> Vec<i64> {
    items.iter().map(|c| c.id.get()).collect()
}

async fn backing_estimate(c: &Client, id: ContractId) -> i64 {
    c.query_one(
        "SELECT estimate_id FROM contracts WHERE id = $1",
        &[&id.get()],
    )
    .await
    .unwrap()
    .get(0)
}

/// Puts the contract in `status` by writing the columns the app writes when publishing
/// and signing (2026-11-22 is "today" in these tests).
async fn put_in_state(c: &Client, id: ContractId, status: ContractStatus) {
    let (published, client_signed, provider_signed, end) = match status {
        ContractStatus::Draft => (false, true, true, Some(day("2020-01-01"))),
        ContractStatus::AwaitingSignatures => (true, true, false, Some(day("2026-11-22"))),
        ContractStatus::Active => (true, true, true, None),
        ContractStatus::Expired => (true, true, true, Some(day("2026-11-21"))),
    };
    c.execute(
        "UPDATE contracts SET date_start = LEAST(date_start, $5::date), \
             published_at = CASE WHEN $2 THEN now() END, \
             client_signed_at = CASE WHEN $3 THEN now() END, \
             provider_signed_at = CASE WHEN $4 THEN now() END, date_end = $5 WHERE id = $1",
        &[
            &id.get(),
            &published,
            &client_signed,
            &provider_signed,
            &end,
        ],
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_new_contract_is_a_draft_backed_by_a_document_estimate() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let project = s.ids.projects[0].to_string();
    let lead = s.ids.leads[0].to_string();
    let created = create(
        &s,
        &c,
        "Service Agreement",
        &[
            ("doc_date_end", "2026-12-31"),
            ("doc_value", "5000"),
            ("doc_project_id", &project),
            ("doc_lead_id", &lead),
        ],
    )
    .await;
    assert_eq!(created.status, ContractStatus::Draft);
    assert_eq!(created.title, "Service Agreement");
    assert_eq!(created.client.name, "Acme Inc");
    assert_eq!(created.category.name, "Default");
    assert_eq!(created.value.unwrap().to_string(), "5000.00");
    assert_eq!(
        (created.dates.start, created.dates.end),
        (day("2026-06-01"), Some(day("2026-12-31")))
    );
    assert_eq!(created.dates.published, None);
    assert_eq!(created.project_id.map(|p| p.get()), Some(s.ids.projects[0]));
    assert_eq!(created.lead_id.map(|l| l.get()), Some(s.ids.leads[0]));
    assert_eq!(created.signing.client_status, SigningStatus::Unsigned);
    assert_eq!(created.body, None);
    assert!(created.tags.is_empty());
    assert_eq!(s.store.contract(ctx(), created.id).await.unwrap(), created);

    let estimate = backing_estimate(&c, created.id).await;
    let row = c
        .query_one(
            "SELECT is_document, category_id, client_id, project_id, date, status, creator_id FROM estimates WHERE id = $1",
            &[&estimate],
        )
        .await
        .unwrap();
    assert!(row.get::<_, bool>(0));
    assert_eq!(row.get::<_, Option<i64>>(1), None);
    assert_eq!(row.get::<_, i64>(2), s.ids.clients[0].id);
    assert_eq!(row.get::<_, Option<i64>>(3), Some(s.ids.projects[0]));
    assert_eq!(row.get::<_, chrono::NaiveDate>(4), day("2026-06-01"));
    assert_eq!(row.get::<_, String>(5), "draft");
    assert_eq!(row.get::<_, Option<i64>>(6), Some(1));
    let creator: Option<i64> = c
        .query_one(
            "SELECT creator_id FROM contracts WHERE id = $1",
            &[&created.id.get()],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(creator, Some(1));
}

#[tokio::test]
async fn the_template_seeds_the_body_unless_a_body_is_given() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let template = s.ids.contract_templates[0].to_string();
    let from_template = create(&s, &c, "From template", &[("contract_template", &template)]).await;
    assert!(
        from_template
            .body
            .as_deref()
            .unwrap()
            .starts_with("<h1>Service Agreement</h1>")
    );
    let explicit = create(
        &s,
        &c,
        "Explicit",
        &[
            ("contract_template", &template),
            ("doc_body", "<p>Mine</p>"),
        ],
    )
    .await;
    assert_eq!(explicit.body.as_deref(), Some("<p>Mine</p>"));
    let template_id: Option<i64> = c
        .query_one(
            "SELECT template_id FROM contracts WHERE id = $1",
            &[&explicit.id.get()],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(template_id, Some(s.ids.contract_templates[0]));
}

#[tokio::test]
async fn every_invalid_reference_is_named_and_nothing_is_written() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let project_category: i64 = c
        .query_one(
            "SELECT id FROM categories WHERE type = 'project' LIMIT 1",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let cmd = new_contract(
        999_999,
        project_category,
        "Bad",
        &[
            ("doc_project_id", "999999"),
            ("doc_lead_id", "999999"),
            ("contract_template", "999999"),
        ],
    );
    let err = s.store.create_contract(ctx(), &cmd).await.unwrap_err();
    let StoreError::Invalid(errors) = err else {
        panic!("{err:?}")
    };
    let fields: Vec<&str> = errors.iter().map(|(f, _)| f).collect();
    assert_eq!(
        fields,
        [
            "contract_template",
            "doc_categoryid",
            "doc_client_id",
            "doc_lead_id",
            "doc_project_id"
        ]
    );
    assert_eq!(
        errors.get("doc_client_id").unwrap(),
        ["The selected doc client id is invalid."]
    );
    assert_eq!(
        errors.get("doc_categoryid").unwrap(),
        ["The selected doc categoryid is invalid."]
    );
    assert_eq!(scalar(&c, "SELECT count(*) FROM contracts").await, 0);
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimates").await, 0);
}

#[tokio::test]
async fn the_status_is_derived_for_each_state_with_the_signing_state() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    for status in ContractStatus::ALL {
        let created = create(&s, &c, status.as_str(), &[]).await;
        put_in_state(&c, created.id, status).await;
        let got = s.store.contract(ctx(), created.id).await.unwrap();
        assert_eq!(got.status, status);
        assert_eq!(
            got.dates.published.is_some(),
            status != ContractStatus::Draft
        );
        let provider = if status == ContractStatus::AwaitingSignatures {
            SigningStatus::Unsigned
        } else {
            SigningStatus::Signed
        };
        assert_eq!(
            (got.signing.client_status, got.signing.provider_status),
            (SigningStatus::Signed, provider)
        );
    }
    // The same contract is expired tomorrow once its end date is past.
    let awaiting = s
        .store
        .list_contracts(ctx(), &list_query(&[("status", "awaiting_signatures")]))
        .await
        .unwrap();
    let mut tomorrow = ctx();
    tomorrow.today = day("2026-11-23");
    assert_eq!(
        s.store
            .contract(tomorrow, awaiting.items[0].id)
            .await
            .unwrap()
            .status,
        ContractStatus::Expired
    );
}

#[tokio::test]
async fn the_status_filter_and_sort_follow_the_derivation_rule() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let mut made = Vec::new();
    // Two contracts per state, created in an order unrelated to the status order.
    for status in [
        ContractStatus::Expired,
        ContractStatus::Draft,
        ContractStatus::Active,
        ContractStatus::AwaitingSignatures,
    ]
    .into_iter()
    .cycle()
    .take(8)
    {
        let created = create(&s, &c, "c", &[]).await;
        put_in_state(&c, created.id, status).await;
        made.push((created.id.get(), status));
    }
    for status in ContractStatus::ALL {
        let listed = s
            .store
            .list_contracts(ctx(), &list_query(&[("status", status.as_str())]))
            .await
            .unwrap();
        let mut expected: Vec<i64> = made
            .iter()
            .filter(|(_, st)| *st == status)
            .map(|(id, _)| *id)
            .collect();
        expected.reverse();
        assert_eq!(ids(&listed.items), expected, "{status}");
        assert_eq!(listed.total, 2);
        assert!(listed.items.iter().all(|i| i.status == status));
    }
    let sorted = s
        .store
        .list_contracts(
            ctx(),
            &list_query(&[("sort", "doc_status"), ("order", "asc")]),
        )
        .await
        .unwrap();
    let statuses: Vec<&str> = sorted.items.iter().map(|i| i.status.as_str()).collect();
    let mut by_text = statuses.clone();
    by_text.sort();
    assert_eq!(statuses, by_text);
    assert_eq!(statuses.first(), Some(&"active"));
    // Ties are broken by id in the same direction.
    assert!(sorted.items[0].id < sorted.items[1].id);
}

#[tokio::test]
async fn lists_filter_search_sort_and_page() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let category = default_category(&c, "contract").await;
    let other_category: i64 = c
        .query_one(
            "INSERT INTO categories (name, type) VALUES ('Retainers', 'contract') RETURNING id",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    let a = create(&s, &c, "Banana 100% deal", &[("doc_value", "10")]).await;
    let b = s
        .store
        .create_contract(
            ctx(),
            &new_contract(s.ids.clients[1].id, other_category, "apple", &[]),
        )
        .await
        .unwrap();
    let d = create(
        &s,
        &c,
        "cherry 100 deal",
        &[("doc_value", "30"), ("doc_date_start", "2026-01-01")],
    )
    .await;

    let all = s
        .store
        .list_contracts(ctx(), &list_query(&[]))
        .await
        .unwrap();
    assert_eq!(
        (ids(&all.items), all.total),
        (vec![d.id.get(), b.id.get(), a.id.get()], 3)
    );
    let client = s.ids.clients[1].id.to_string();
    assert_eq!(
        ids(&s
            .store
            .list_contracts(ctx(), &list_query(&[("client_id", &client)]))
            .await
            .unwrap()
            .items),
        [b.id.get()]
    );
    let cat = category.to_string();
    assert_eq!(
        ids(&s
            .store
            .list_contracts(ctx(), &list_query(&[("category_id", &cat)]))
            .await
            .unwrap()
            .items),
        [d.id.get(), a.id.get()]
    );
    // `%` is literal.
    assert_eq!(
        ids(&s
            .store
            .list_contracts(ctx(), &list_query(&[("search", "100%")]))
            .await
            .unwrap()
            .items),
        [a.id.get()]
    );
    assert_eq!(
        ids(&s
            .store
            .list_contracts(ctx(), &list_query(&[("search", "DEAL")]))
            .await
            .unwrap()
            .items),
        [d.id.get(), a.id.get()]
    );
    let by_title = s
        .store
        .list_contracts(
            ctx(),
            &list_query(&[("sort", "doc_title"), ("order", "asc")]),
        )
        .await
        .unwrap();
    assert_eq!(ids(&by_title.items), [b.id.get(), a.id.get(), d.id.get()]);
    let by_start = s
        .store
        .list_contracts(
            ctx(),
            &list_query(&[("sort", "doc_date_start"), ("order", "asc")]),
        )
        .await
        .unwrap();
    assert_eq!(ids(&by_start.items), [d.id.get(), a.id.get(), b.id.get()]);
    let by_value = s
        .store
        .list_contracts(
            ctx(),
            &list_query(&[("sort", "doc_value"), ("order", "asc")]),
        )
        .await
        .unwrap();
    assert_eq!(ids(&by_value.items)[..2], [a.id.get(), d.id.get()]);
    let by_created = s
        .store
        .list_contracts(ctx(), &list_query(&[("sort", "doc_created")]))
        .await
        .unwrap();
    assert_eq!(ids(&by_created.items), [d.id.get(), b.id.get(), a.id.get()]);
    let page2 = s
        .store
        .list_contracts(ctx(), &list_query(&[("limit", "2"), ("page", "2")]))
        .await
        .unwrap();
    assert_eq!((ids(&page2.items), page2.total), (vec![a.id.get()], 3));
    let past_end = s
        .store
        .list_contracts(ctx(), &list_query(&[("limit", "2"), ("page", "5")]))
        .await
        .unwrap();
    assert_eq!((past_end.items.len(), past_end.total), (0, 3));
}

#[tokio::test]
async fn an_update_keeps_absent_fields_and_clears_empty_ones() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let created = create(
        &s,
        &c,
        "Original",
        &[
            ("doc_date_end", "2026-12-31"),
            ("doc_value", "5000"),
            ("doc_body", "<p>b</p>"),
        ],
    )
    .await;
    let category = default_category(&c, "contract").await.to_string();
    let update = ContractUpdate::parse(&raw(&[
        ("doc_title", "Renamed"),
        ("doc_date_start", "2026-07-01"),
        ("doc_categoryid", &category),
        ("doc_value", ""),
    ]))
    .unwrap();
    let updated = s
        .store
        .update_contract(ctx(), created.id, &update)
        .await
        .unwrap();
    assert_eq!(updated.title, "Renamed");
    assert_eq!(updated.dates.start, day("2026-07-01"));
    assert_eq!(updated.dates.end, Some(day("2026-12-31")));
    assert_eq!(updated.value, None);
    assert_eq!(updated.body.as_deref(), Some("<p>b</p>"));
    let changed: bool = c
        .query_one(
            "SELECT updated_at > created_at FROM contracts WHERE id = $1",
            &[&created.id.get()],
        )
        .await
        .unwrap()
        .get(0);
    assert!(changed);
    let cleared = ContractUpdate::parse(&raw(&[
        ("doc_title", "Renamed"),
        ("doc_date_start", "2026-07-01"),
        ("doc_categoryid", &category),
        ("doc_date_end", ""),
        ("doc_body", ""),
        ("doc_value", "12.50"),
    ]))
    .unwrap();
    let updated = s
        .store
        .update_contract(ctx(), created.id, &cleared)
        .await
        .unwrap();
    assert_eq!(
        (
            updated.dates.end,
            updated.body,
            updated.value.map(|v| v.to_string())
        ),
        (None, None, Some("12.50".into()))
    );
}

#[tokio::test]
async fn moving_the_start_after_a_kept_end_date_is_invalid_and_changes_nothing() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let created = create(&s, &c, "Original", &[("doc_date_end", "2026-06-30")]).await;
    let update = ContractUpdate::parse(&raw(&[
        ("doc_title", "Renamed"),
        ("doc_date_start", "2026-07-01"),
        ("doc_categoryid", "1"),
    ]))
    .unwrap();
    let err = s
        .store
        .update_contract(ctx(), created.id, &update)
        .await
        .unwrap_err();
    let StoreError::Invalid(errors) = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        errors.get("doc_date_end").unwrap(),
        ["The doc date end must be a date after or equal to doc date start."]
    );
    // The wrong category type is reported with it.
    assert_eq!(
        errors.get("doc_categoryid").unwrap(),
        ["The selected doc categoryid is invalid."]
    );
    assert_eq!(s.store.contract(ctx(), created.id).await.unwrap(), created);
}

#[tokio::test]
async fn unknown_contracts_are_not_found_for_every_operation() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let category = default_category(&c, "contract").await.to_string();
    let client = s.ids.clients[0].id.to_string();
    let missing = ContractId::new(999_999).unwrap();
    let not_found = |r: Result<Contract, StoreError>| {
        matches!(r, Err(StoreError::NotFound(Resource::Contract)))
    };
    assert!(not_found(s.store.contract(ctx(), missing).await));
    let update = ContractUpdate::parse(&raw(&[
        ("doc_title", "T"),
        ("doc_date_start", "2026-07-01"),
        ("doc_categoryid", &category),
    ]))
    .unwrap();
    assert!(not_found(
        s.store.update_contract(ctx(), missing, &update).await
    ));
    assert!(not_found(
        s.store
            .set_contract_tags(ctx(), missing, &TagSet::normalise(["a"]))
            .await
    ));
    let clone = ContractClone::parse(&raw(&[
        ("doc_title", "T"),
        ("doc_client_id", &client),
        ("doc_categoryid", &category),
        ("doc_date_start", "2026-07-01"),
    ]))
    .unwrap();
    assert!(not_found(
        s.store.clone_contract(ctx(), missing, &clone).await
    ));
    assert!(matches!(
        s.store.delete_contract(ctx(), missing).await,
        Err(StoreError::NotFound(Resource::Contract))
    ));
}

#[tokio::test]
async fn tags_replace_the_whole_set_in_order() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let created = create(&s, &c, "Tagged", &[]).await;
    let tagged = s
        .store
        .set_contract_tags(ctx(), created.id, &TagSet::normalise(["b", "a", "b"]))
        .await
        .unwrap();
    assert_eq!(tagged.tags, ["b", "a"]);
    let listed = s
        .store
        .list_contracts(ctx(), &list_query(&[]))
        .await
        .unwrap();
    assert_eq!(listed.items[0].tags, ["b", "a"]);
    let cleared = s
        .store
        .set_contract_tags(ctx(), created.id, &TagSet::default())
        .await
        .unwrap();
    assert!(cleared.tags.is_empty());
}

#[tokio::test]
async fn concurrent_tag_updates_leave_one_whole_set() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let created = create(&s, &c, "Tagged", &[]).await;
    let sets: Vec<TagSet> = (0..8)
        .map(|i| TagSet::normalise([format!("x{i}"), format!("y{i}"), format!("z{i}")]))
        .collect();
    let results = futures_util::future::join_all(sets.iter().map(|t| {
        let store = s.store.clone();
        async move { store.set_contract_tags(ctx(), created.id, t).await }
    }))
    .await;
    assert!(results.iter().all(Result::is_ok));
    let tags = s.store.contract(ctx(), created.id).await.unwrap().tags;
    assert!(
        sets.iter().any(|t| t.titles() == tags.as_slice()),
        "{tags:?}"
    );
}

#[tokio::test]
async fn deleting_a_contract_removes_its_tags_and_backing_estimate_with_its_lines() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let kept = create(&s, &c, "Kept", &[]).await;
    let created = create(&s, &c, "Doomed", &[]).await;
    s.store
        .set_contract_tags(ctx(), created.id, &TagSet::normalise(["a"]))
        .await
        .unwrap();
    s.store
        .set_contract_tags(ctx(), kept.id, &TagSet::normalise(["k"]))
        .await
        .unwrap();
    let estimate = backing_estimate(&c, created.id).await;
    insert_lines(&c, estimate).await;
    s.store.delete_contract(ctx(), created.id).await.unwrap();
    assert!(matches!(
        s.store.contract(ctx(), created.id).await,
        Err(StoreError::NotFound(Resource::Contract))
    ));
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimates").await, 1);
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimate_lines").await, 0);
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimate_taxes").await, 0);
    assert_eq!(scalar(&c, "SELECT count(*) FROM tags").await, 1);
    assert_eq!(s.store.contract(ctx(), kept.id).await.unwrap().tags, ["k"]);
}

/// Two lines (positions 1 and 2), a line tax on the second and a summary tax, with totals.
async fn insert_lines(c: &Client, estimate: i64) {
    c.batch_execute(&format!(
        "INSERT INTO estimate_lines (estimate_id, position, description, quantity, rate, total, tax_rate_id) VALUES \
             ({estimate}, 1, 'Design', 2, 100, 200.00, NULL), ({estimate}, 2, 'Build', 3, 50.5, 151.50, 2); \
         INSERT INTO estimate_taxes (estimate_id, line_id, tax_rate_id, name, rate) \
             SELECT {estimate}, id, 2, 'Reduced 5%', 5.00 FROM estimate_lines WHERE estimate_id = {estimate} AND position = 2; \
         INSERT INTO estimate_taxes (estimate_id, line_id, tax_rate_id, name, rate) VALUES ({estimate}, NULL, 3, 'Sales Tax 7.5%', 7.50); \
         UPDATE estimates SET subtotal = 351.50, amount_before_tax = 351.50, tax_total_amount = 26.36, final_amount = 377.86 \
             WHERE id = {estimate};"
    ))
    .await
    .unwrap();
}

/// The lines of an estimate as (position, description, quantity, rate, total) texts.
async fn lines_of(c: &Client, estimate: i64) -> Vec<(i32, String, String, String, String)> {
    c.query(
        "SELECT position, description, quantity::text, rate::text, total::text FROM estimate_lines WHERE estimate_id = $1 ORDER BY position",
        &[&estimate],
    )
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
    .collect()
}

/// The taxes of an estimate as (position of its line or NULL, name, rate).
async fn taxes_of(c: &Client, estimate: i64) -> Vec<(Option<i32>, String, String)> {
    c.query(
        "SELECT l.position, t.name, t.rate::text FROM estimate_taxes t LEFT JOIN estimate_lines l ON l.id = t.line_id \
         WHERE t.estimate_id = $1 ORDER BY t.id",
        &[&estimate],
    )
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2)))
    .collect()
}

fn clone_cmd(client: i64, category: i64, extra: &[(&str, &str)]) -> ContractClone {
    let client = client.to_string();
    let category = category.to_string();
    let mut pairs = vec![
        ("doc_title", "Copy"),
        ("doc_client_id", client.as_str()),
        ("doc_categoryid", category.as_str()),
        ("doc_date_start", "2027-01-01"),
    ];
    pairs.extend_from_slice(extra);
    ContractClone::parse(&raw(&pairs)).unwrap()
}

#[tokio::test]
async fn a_clone_copies_body_lead_value_and_line_items_but_not_tags_or_signatures() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let lead = s.ids.leads[1].to_string();
    let source = create(
        &s,
        &c,
        "Source",
        &[
            ("doc_body", "<p>terms</p>"),
            ("doc_lead_id", &lead),
            ("doc_value", "750"),
        ],
    )
    .await;
    s.store
        .set_contract_tags(ctx(), source.id, &TagSet::normalise(["vip"]))
        .await
        .unwrap();
    put_in_state(&c, source.id, ContractStatus::Active).await;
    let source_estimate = backing_estimate(&c, source.id).await;
    insert_lines(&c, source_estimate).await;

    let project = s.ids.projects[1].to_string();
    let cmd = clone_cmd(
        s.ids.clients[1].id,
        default_category(&c, "contract").await,
        &[("doc_date_end", "2027-12-31"), ("doc_project_id", &project)],
    );
    let copy = s
        .store
        .clone_contract(ctx(), source.id, &cmd)
        .await
        .unwrap();
    assert_ne!(copy.id, source.id);
    assert_eq!(copy.title, "Copy");
    assert_eq!(copy.client.name, "Globex Corporation");
    assert_eq!(
        (copy.dates.start, copy.dates.end),
        (day("2027-01-01"), Some(day("2027-12-31")))
    );
    assert_eq!(copy.project_id.map(|p| p.get()), Some(s.ids.projects[1]));
    assert_eq!(copy.body.as_deref(), Some("<p>terms</p>"));
    assert_eq!(copy.lead_id.map(|l| l.get()), Some(s.ids.leads[1]));
    assert_eq!(copy.value.unwrap().to_string(), "750.00");
    assert!(copy.tags.is_empty());
    assert_eq!(copy.status, ContractStatus::Draft);
    assert_eq!(copy.dates.published, None);
    assert_eq!(
        (copy.signing.client_status, copy.signing.provider_status),
        (SigningStatus::Unsigned, SigningStatus::Unsigned)
    );
    let signature: Option<String> = c
        .query_one(
            "SELECT client_signature_name FROM contracts WHERE id = $1",
            &[&copy.id.get()],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(signature, None);

    let copy_estimate = backing_estimate(&c, copy.id).await;
    assert_ne!(copy_estimate, source_estimate);
    assert_eq!(
        lines_of(&c, copy_estimate).await,
        lines_of(&c, source_estimate).await
    );
    assert_eq!(lines_of(&c, copy_estimate).await.len(), 2);
    assert_eq!(
        taxes_of(&c, copy_estimate).await,
        taxes_of(&c, source_estimate).await
    );
    assert_eq!(taxes_of(&c, copy_estimate).await[0].0, Some(2));
    // The copied line tax points at the copy's own line.
    let foreign: i64 = c
        .query_one(
            "SELECT count(*) FROM estimate_taxes t JOIN estimate_lines l ON l.id = t.line_id \
             WHERE t.estimate_id = $1 AND l.estimate_id <> $1",
            &[&copy_estimate],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(foreign, 0);
    let row = c
        .query_one("SELECT final_amount::text, client_id, project_id, date, is_document FROM estimates WHERE id = $1", &[&copy_estimate])
        .await
        .unwrap();
    // Amounts are stored with three places since migration 0033 (API.md §18).
    assert_eq!(row.get::<_, String>(0), "377.860");
    assert_eq!(row.get::<_, i64>(1), s.ids.clients[1].id);
    assert_eq!(row.get::<_, Option<i64>>(2), Some(s.ids.projects[1]));
    assert_eq!(row.get::<_, chrono::NaiveDate>(3), day("2027-01-01"));
    assert!(row.get::<_, bool>(4));
    // The source is untouched.
    assert_eq!(
        s.store.contract(ctx(), source.id).await.unwrap().tags,
        ["vip"]
    );
}

#[tokio::test]
async fn a_clone_takes_the_requested_value_and_checks_its_references() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let source = create(&s, &c, "Source", &[("doc_value", "750")]).await;
    let category = default_category(&c, "contract").await;
    let copy = s
        .store
        .clone_contract(
            ctx(),
            source.id,
            &clone_cmd(s.ids.clients[0].id, category, &[("doc_value", "99.90")]),
        )
        .await
        .unwrap();
    assert_eq!(copy.value.unwrap().to_string(), "99.90");
    let bad = clone_cmd(999_999, category, &[("doc_project_id", "999999")]);
    let err = s
        .store
        .clone_contract(ctx(), source.id, &bad)
        .await
        .unwrap_err();
    let StoreError::Invalid(errors) = err else {
        panic!("{err:?}")
    };
    assert_eq!(
        errors.iter().map(|(f, _)| f).collect::<Vec<_>>(),
        ["doc_client_id", "doc_project_id"]
    );
    assert_eq!(scalar(&c, "SELECT count(*) FROM contracts").await, 2);
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimates").await, 2);
}

/// Makes every INSERT into contracts fail.
async fn break_contract_inserts(c: &Client) {
    c.batch_execute(
        "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'boom'; END $$; \
         CREATE TRIGGER boom BEFORE INSERT ON contracts FOR EACH ROW EXECUTE FUNCTION boom();",
    )
    .await
    .unwrap();
}

#[tokio::test]
async fn a_failing_contract_insert_leaves_no_orphan_backing_estimate() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    break_contract_inserts(&c).await;
    let cmd = new_contract(
        s.ids.clients[0].id,
        default_category(&c, "contract").await,
        "Doomed",
        &[],
    );
    assert!(matches!(
        s.store.create_contract(ctx(), &cmd).await,
        Err(StoreError::Database(_))
    ));
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimates").await, 0);
    assert_eq!(scalar(&c, "SELECT count(*) FROM contracts").await, 0);
}

#[tokio::test]
async fn a_failing_clone_leaves_no_estimate_lines_or_taxes() {
    let s = seeded().await;
    let c = s.db.client().await.unwrap();
    let source = create(&s, &c, "Source", &[]).await;
    insert_lines(&c, backing_estimate(&c, source.id).await).await;
    break_contract_inserts(&c).await;
    let cmd = clone_cmd(
        s.ids.clients[0].id,
        default_category(&c, "contract").await,
        &[],
    );
    assert!(
        s.store
            .clone_contract(ctx(), source.id, &cmd)
            .await
            .is_err()
    );
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimates").await, 1);
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimate_lines").await, 2);
    assert_eq!(scalar(&c, "SELECT count(*) FROM estimate_taxes").await, 2);
}
