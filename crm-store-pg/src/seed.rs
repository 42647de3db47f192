//! The demo data set (`crm seed`): the records around the five areas that the API does not
//! manage, so that a new installation (and every test) has clients, projects, tax rates
//! and so on to point at.
//!
//! Idempotent: the first run creates everything in one transaction and records the ids in
//! `demo_seed`; later runs return the same ids without writing.
//!
//! | kind | what |
//! |---|---|
//! | users | 1 the main administrator (from the first migration), 2 a second administrator, 3–4 team members, 5 a client user of client 1 |
//! | clients | Acme Inc and Globex Corporation (with contact emails), Initech (without) |
//! | leads | two leads |
//! | projects | Acme Website and Globex CRM Rollout, each with Planning, Design, Development, Testing and the `uncategorised` default (last), and tasks with attachments, comments and timers |
//! | tax rates | No Tax 0.00 (id 1, from the migration), 5.00 … 25.00 enabled, one disabled |
//! | contract templates | a service agreement and an NDA |
//! | notes | a public project note, a private note of user 2, a sticky note of user 1 |
//! | invoices | Acme Inc: a Paid summary invoice (two lines, VAT 20%) and a Draft; Globex: a Due inline invoice (GST 10% on its line), due 2026-02-15, so it shows Overdue after that day. Made with the invoice area's own code (totals by the calculator), no email queued |
//! | payments | the Paid invoice's: its whole final amount by bank transfer on 2026-01-20, recorded by the payment area's own code (which makes the invoice Paid) |
//! | others | one catalogue item, expense and ticket in the default categories |

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio_postgres::types::ToSql;

use crate::db::Db;
use crate::error::StoreError;
use crate::store::Store;

/// A client with its name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeededClient {
    /// Client id.
    pub id: i64,
    /// Company name.
    pub name: String,
    /// Contact email, if any.
    pub contact_email: Option<String>,
}

/// A task with where it lives.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeededTask {
    /// Task id.
    pub id: i64,
    /// Its project.
    pub project_id: i64,
    /// Its milestone.
    pub milestone_id: i64,
}

/// A milestone with its project, title and type.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeededMilestone {
    /// Milestone id.
    pub id: i64,
    /// Its project.
    pub project_id: i64,
    /// Title.
    pub title: String,
    /// `categorised` or `uncategorised`.
    #[serde(rename = "type")]
    pub milestone_type: String,
}

/// A tax rate with its name and rate.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeededTaxRate {
    /// Tax rate id.
    pub id: i64,
    /// Name.
    pub name: String,
    /// Rate, two decimals.
    pub rate: String,
    /// `enabled` or `disabled`.
    pub status: String,
}

/// The seeded notes by role.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeededNotes {
    /// A public note on the first project, by user 1.
    pub public: i64,
    /// A private note of user 2 (invisible to user 1).
    pub private_of_user_2: i64,
    /// A sticky note of user 1 (never served by the API).
    pub sticky: i64,
}

/// The ids the seed created, by kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedIds {
    /// Team users (1 is the main administrator, 2 another administrator).
    pub users: Vec<i64>,
    /// Administrators among `users`.
    pub admins: Vec<i64>,
    /// Client users.
    pub client_users: Vec<i64>,
    /// Clients with names.
    pub clients: Vec<SeededClient>,
    /// Leads.
    pub leads: Vec<i64>,
    /// Projects.
    pub projects: Vec<i64>,
    /// Milestones of the projects.
    pub milestones: Vec<SeededMilestone>,
    /// Tasks with project and milestone.
    pub tasks: Vec<SeededTask>,
    /// Tax rates with name and rate (including the system No Tax rate, id 1).
    pub tax_rates: Vec<SeededTaxRate>,
    /// Contract templates.
    pub contract_templates: Vec<i64>,
    /// Notes by role.
    pub notes: SeededNotes,
    /// Demo invoices (absent from a seed recorded before invoices were seeded).
    #[serde(default)]
    pub invoices: Vec<i64>,
    /// Demo payments (absent from a seed recorded before payments were seeded: the
    /// migration that added payments gave the Paid invoice its payment then).
    #[serde(default)]
    pub payments: Vec<i64>,
}

/// The lock that makes concurrent seeds wait for each other ("crm-seed").
const SEED_LOCK: i64 = i64::from_be_bytes(*b"crm-seed");

const ENABLED_RATES: &[(&str, &str)] = &[
    ("Reduced 5%", "5.00"),
    ("Sales Tax 7.5%", "7.50"),
    ("Sales Tax 8.25%", "8.25"),
    ("GST 10%", "10.00"),
    ("VAT 12.5%", "12.50"),
    ("GST 15%", "15.00"),
    ("VAT 16%", "16.00"),
    ("VAT 17.5%", "17.50"),
    ("GST 18%", "18.00"),
    ("VAT 20%", "20.00"),
    ("VAT 21%", "21.00"),
    ("VAT 23%", "23.00"),
    ("VAT 25%", "25.00"),
];

const MILESTONES: &[&str] = &["Planning", "Design", "Development", "Testing"];

async fn insert_id(
    db: &impl Db,
    sql: &str,
    params: &[&(dyn ToSql + Sync)],
) -> Result<i64, StoreError> {
    let row = db.row(sql, params).await?;
    Ok(row.try_get(0)?)
}

impl Store {
    /// Creates the demo data set if it is not there yet; returns its ids either way.
    pub async fn seed(&self) -> Result<SeedIds, StoreError> {
        let mut client = self.writer().await?;
        let tx = client.transaction().await?;
        tx.run("SELECT pg_advisory_xact_lock($1)", &[&SEED_LOCK])
            .await?;
        if let Some(row) = tx.row_opt("SELECT ids FROM demo_seed", &[]).await? {
            let ids: serde_json::Value = row.try_get(0)?;
            return serde_json::from_value(ids)
                .map_err(|e| StoreError::Internal(format!("demo_seed: {e}")));
        }
        let ids = create(&tx, self.policy()).await?;
        for invoice in &ids.invoices {
            crate::issued::freeze_invoice(&tx, self.company_name(), *invoice).await?;
        }
        let json = serde_json::to_value(&ids).map_err(|e| StoreError::Internal(e.to_string()))?;
        tx.run("INSERT INTO demo_seed (ids) VALUES ($1)", &[&json])
            .await?;
        tx.commit().await?;
        Ok(ids)
    }
}

async fn default_category(db: &impl Db, kind: &str) -> Result<i64, StoreError> {
    insert_id(
        db,
        "SELECT id FROM categories WHERE type = $1 AND system_default ORDER BY id LIMIT 1",
        &[&kind],
    )
    .await
}

async fn create(db: &impl Db, policy: crm_core::totals::Policy) -> Result<SeedIds, StoreError> {
    const USER: &str = "INSERT INTO users (kind, is_admin, first_name, last_name, email, client_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id";
    let none: Option<i64> = None;
    let mut users = vec![1_i64];
    let mut admins = vec![1_i64];
    let second_admin = insert_id(
        db,
        USER,
        &[
            &"team",
            &true,
            &"Jane",
            &"Doe",
            &"jane.doe@example.com",
            &none,
        ],
    )
    .await?;
    users.push(second_admin);
    admins.push(second_admin);
    for (first, last, email) in [
        ("John", "Smith", "john.smith@example.com"),
        ("Ana", "Lopez", "ana.lopez@example.com"),
    ] {
        users.push(insert_id(db, USER, &[&"team", &false, &first, &last, &email, &none]).await?);
    }

    let client_category = default_category(db, "client").await?;
    let mut clients = Vec::new();
    for (name, email) in [
        ("Acme Inc", Some("billing@acme.example")),
        ("Globex Corporation", Some("accounts@globex.example")),
        ("Initech", None),
    ] {
        let id = insert_id(
            db,
            "INSERT INTO clients (company_name, contact_email, category_id, creator_id) VALUES ($1, $2, $3, 1) RETURNING id",
            &[&name, &email, &client_category],
        )
        .await?;
        clients.push(SeededClient {
            id,
            name: name.to_owned(),
            contact_email: email.map(str::to_owned),
        });
    }
    let acme = clients[0].id;
    let client_users = vec![
        insert_id(
            db,
            USER,
            &[
                &"client",
                &false,
                &"Wile",
                &"Coyote",
                &"wile@acme.example",
                &Some(acme),
            ],
        )
        .await?,
    ];

    let lead_category = default_category(db, "lead").await?;
    let mut leads = Vec::new();
    for (title, first, last) in [
        ("Website redesign enquiry", "Peter", "Gibbons"),
        ("Mobile app enquiry", "Samir", "Nagheenanajar"),
    ] {
        leads.push(
            insert_id(
                db,
                "INSERT INTO leads (title, first_name, last_name, category_id, creator_id) VALUES ($1, $2, $3, $4, 1) RETURNING id",
                &[&title, &first, &last, &lead_category],
            )
            .await?,
        );
    }

    let project_category = default_category(db, "project").await?;
    let mut projects = Vec::new();
    let mut milestones = Vec::new();
    let mut tasks = Vec::new();
    for (title, client) in [
        ("Acme Website", acme),
        ("Globex CRM Rollout", clients[1].id),
    ] {
        let project = insert_id(
            db,
            "INSERT INTO projects (title, client_id, category_id, creator_id) VALUES ($1, $2, $3, 1) RETURNING id",
            &[&title, &client, &project_category],
        )
        .await?;
        projects.push(project);
        let mut titles: Vec<(&str, &str)> =
            MILESTONES.iter().map(|t| (*t, "categorised")).collect();
        titles.push(("Uncategorised", "uncategorised"));
        for (position, (m_title, m_type)) in (1_i32..).zip(titles) {
            let id = insert_id(
                db,
                "INSERT INTO milestones (project_id, title, type, position, creator_id) VALUES ($1, $2, $3, $4, 1) RETURNING id",
                &[&project, &m_title, &m_type, &position],
            )
            .await?;
            milestones.push(SeededMilestone {
                id,
                project_id: project,
                title: m_title.to_owned(),
                milestone_type: m_type.to_owned(),
            });
        }
        let project_milestones: Vec<i64> = milestones
            .iter()
            .filter(|m| m.project_id == project)
            .map(|m| m.id)
            .collect();
        for (n, milestone) in project_milestones.iter().take(3).enumerate() {
            for k in 1..=2 {
                let task_title = format!("{title}: task {}.{k}", n + 1);
                let task = insert_id(
                    db,
                    "INSERT INTO tasks (project_id, milestone_id, title, creator_id) VALUES ($1, $2, $3, 1) RETURNING id",
                    &[&project, milestone, &task_title],
                )
                .await?;
                tasks.push(SeededTask {
                    id: task,
                    project_id: project,
                    milestone_id: *milestone,
                });
                db.run("INSERT INTO task_attachments (task_id, filename, path, creator_id) VALUES ($1, 'brief.pdf', 'files/brief.pdf', 1)", &[&task]).await?;
                db.run("INSERT INTO task_comments (task_id, body, creator_id) VALUES ($1, 'Looks good.', 1)", &[&task]).await?;
                db.run("INSERT INTO task_timers (task_id, user_id, started_at, stopped_at, seconds) VALUES ($1, 1, now() - interval '1 hour', now(), 3600)", &[&task]).await?;
            }
        }
    }

    let mut tax_rates = vec![SeededTaxRate {
        id: 1,
        name: "No Tax".into(),
        rate: "0.00".into(),
        status: "enabled".into(),
    }];
    let rates = ENABLED_RATES
        .iter()
        .map(|(n, r)| (*n, *r, "enabled"))
        .chain([("Old VAT 19%", "19.00", "disabled")]);
    for (name, rate, status) in rates {
        let value: Decimal = rate
            .parse()
            .map_err(|e| StoreError::Internal(format!("seed rate {rate}: {e}")))?;
        let id = insert_id(
            db,
            "INSERT INTO tax_rates (name, rate, status) VALUES ($1, $2, $3) RETURNING id",
            &[&name, &value, &status],
        )
        .await?;
        tax_rates.push(SeededTaxRate {
            id,
            name: name.to_owned(),
            rate: rate.to_owned(),
            status: status.to_owned(),
        });
    }

    let mut contract_templates = Vec::new();
    for (title, body) in [
        (
            "Standard Service Agreement",
            "<h1>Service Agreement</h1><p>The provider agrees to deliver the services described below.</p>",
        ),
        (
            "Non-Disclosure Agreement",
            "<h1>Non-Disclosure Agreement</h1><p>Both parties keep confidential information confidential.</p>",
        ),
    ] {
        contract_templates.push(
            insert_id(db, "INSERT INTO contract_templates (title, body, creator_id) VALUES ($1, $2, 1) RETURNING id", &[&title, &body]).await?,
        );
    }

    const NOTE: &str = "INSERT INTO notes (title, description, visibility, sticky, resource_type, client_id, project_id, creator_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id";
    let no_id: Option<i64> = None;
    let no_type: Option<&str> = None;
    let public = insert_id(
        db,
        NOTE,
        &[
            &"Kick-off notes",
            &"Agreed scope and timeline.",
            &"public",
            &false,
            &Some("project"),
            &no_id,
            &Some(projects[0]),
            &1_i64,
        ],
    )
    .await?;
    let private_of_user_2 = insert_id(
        db,
        NOTE,
        &[
            &"Jane's private note",
            &"Only Jane can read this.",
            &"private",
            &false,
            &Some("client"),
            &Some(acme),
            &no_id,
            &second_admin,
        ],
    )
    .await?;
    let sticky = insert_id(
        db,
        NOTE,
        &[
            &"Sticky reminder",
            &"Call the accountant.",
            &"public",
            &true,
            &no_type,
            &no_id,
            &no_id,
            &1_i64,
        ],
    )
    .await?;

    let item_category = default_category(db, "item").await?;
    db.run("INSERT INTO items (description, unit, rate, category_id) VALUES ('Web design (hour)', 'hours', 85, $1)", &[&item_category]).await?;
    let expense_category = default_category(db, "expense").await?;
    db.run("INSERT INTO expenses (description, amount, date, category_id, client_id) VALUES ('Stock photos', 49.00, DATE '2026-01-15', $1, $2)", &[&expense_category, &acme]).await?;
    let ticket_category = default_category(db, "ticket").await?;
    db.run(
        "INSERT INTO tickets (subject, client_id, category_id) VALUES ('Login problem', $1, $2)",
        &[&acme, &ticket_category],
    )
    .await?;

    let (invoices, payments) = seed_invoices(db, policy, &clients, &tax_rates).await?;

    Ok(SeedIds {
        users,
        admins,
        client_users,
        clients,
        leads,
        projects,
        milestones,
        tasks,
        tax_rates,
        contract_templates,
        notes: SeededNotes {
            public,
            private_of_user_2,
            sticky,
        },
        invoices,
        payments,
    })
}

/// The demo invoices and the Paid one's payment (see the module's table).
async fn seed_invoices(
    db: &impl Db,
    policy: crm_core::totals::Policy,
    clients: &[SeededClient],
    tax_rates: &[SeededTaxRate],
) -> Result<(Vec<i64>, Vec<i64>), StoreError> {
    use crm_core::input::{RawMap, RawValue};
    use crm_core::invoice::InvoiceStatus;
    let rate = |r: &str| {
        tax_rates
            .iter()
            .find(|t| t.rate == r && t.status == "enabled")
            .map(|t| t.id.to_string())
            .ok_or_else(|| StoreError::Internal(format!("seed rate {r}")))
    };
    let (vat20, gst10) = (rate("20.00")?, rate("10.00")?);
    let text = |pairs: &[(&str, &str)]| -> RawMap {
        pairs
            .iter()
            .map(|(k, v)| (*k, RawValue::text(*v)))
            .collect()
    };
    let line = |pairs: &[(&str, &str)]| RawValue::Map(text(pairs));
    let items = |lines: Vec<RawValue>, summary: &[&str]| -> RawMap {
        let mut map = RawMap::new();
        map.insert("items", RawValue::List(lines));
        if !summary.is_empty() {
            let ids = summary.iter().map(|t| RawValue::text(*t)).collect();
            map.insert("tax_rate_ids", RawValue::List(ids));
        }
        map
    };
    let category = default_category(db, "invoice").await?.to_string();
    let (acme, globex) = (clients[0].id.to_string(), clients[1].id.to_string());
    let mut ids = Vec::new();
    let paid = text(&[
        ("bill_clientid", &acme),
        ("bill_categoryid", &category),
        ("bill_date", "2026-01-05"),
        ("bill_notes", "Website launch, phase 1."),
    ]);
    let paid_items = items(
        vec![
            line(&[
                ("description", "Design"),
                ("unit", "hours"),
                ("quantity", "1.5"),
                ("rate", "1385.27"),
            ]),
            line(&[
                ("description", "Hosting"),
                ("unit", "months"),
                ("quantity", "12"),
                ("rate", "9.99"),
            ]),
        ],
        &[&vat20],
    );
    // Published (Due), then paid in full: the payment makes it Paid.
    let paid_id =
        crate::invoices::create_in(db, policy, &paid, &paid_items, InvoiceStatus::Due).await?;
    ids.push(paid_id);
    let payments = vec![seed_payment(db, paid_id).await?];
    let due = text(&[
        ("bill_clientid", &globex),
        ("bill_categoryid", &category),
        ("bill_date", "2026-01-16"),
        ("bill_due_date", "2026-02-15"),
        ("bill_tax_type", "inline"),
        ("bill_terms", "Net 30."),
    ]);
    let due_items = items(
        vec![line(&[
            ("description", "CRM rollout workshop"),
            ("unit", "days"),
            ("quantity", "2"),
            ("rate", "950"),
            ("tax_rate_id", &gst10),
            ("discount_type", "percentage"),
            ("discount_value", "5"),
        ])],
        &[],
    );
    ids.push(crate::invoices::create_in(db, policy, &due, &due_items, InvoiceStatus::Due).await?);
    let draft = text(&[
        ("bill_clientid", &acme),
        ("bill_categoryid", &category),
        ("bill_date", "2026-11-02"),
    ]);
    let draft_items = items(
        vec![line(&[
            ("description", "Maintenance"),
            ("unit", "hours"),
            ("quantity", "3"),
            ("rate", "85"),
        ])],
        &[],
    );
    ids.push(
        crate::invoices::create_in(db, policy, &draft, &draft_items, InvoiceStatus::Draft).await?,
    );
    Ok((ids, payments))
}

/// The payment of invoice `invoice`'s whole final amount, recorded by user 1 as the API
/// records one. Returns its id.
async fn seed_payment(db: &impl Db, invoice: i64) -> Result<i64, StoreError> {
    use crm_core::input::{RawMap, RawValue};
    let total: Decimal = db
        .row(
            "SELECT final_amount FROM invoices WHERE id = $1",
            &[&invoice],
        )
        .await?
        .try_get(0)?;
    let (invoice, total) = (invoice.to_string(), total.to_string());
    let raw: RawMap = [
        ("payment_invoiceid", invoice.as_str()),
        ("payment_amount", total.as_str()),
        ("payment_date", "2026-01-20"),
        ("payment_method", "Bank transfer"),
        ("payment_transaction_id", "ACME-2026-0142"),
    ]
    .into_iter()
    .map(|(k, v)| (k, RawValue::text(v)))
    .collect();
    let cmd = crm_core::payment::NewPayment::parse(&raw)
        .map_err(|r| StoreError::Internal(format!("seed payment: {:?}", r.errors)))?;
    let actor =
        crm_core::ids::UserId::new(1).ok_or_else(|| StoreError::Internal("user 1".into()))?;
    crate::payments::record_in(db, actor, &cmd).await
}
