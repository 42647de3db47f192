//! The README's walkthrough through the Rust client, against a running service:
//!
//! ```sh
//! CRM_BASE=http://127.0.0.1:8080 CRM_KEY=crm_… cargo run -p crm-client --example walkthrough
//! ```
//!
//! It sets the company, adds a client and a tax rate, makes an estimate with its items,
//! publishes it, converts it to an invoice with a safe retry (the same Idempotency-Key twice),
//! publishes the invoice, records its payment, shows a conditional update refused (412), a
//! typed 422 with its field errors, and pages through the notes with cursors. The
//! `clients` tests of crm-http run [`run`] against a fresh service.

use std::error::Error as StdError;

use crm_client::requests::{
    CompanyUpdate, Item, Items, NewBill, NewCategory, NewClient, NewNote, NewPayment, NewTaxRate,
};
use crm_client::{Client, Error, Options};
use crm_core::category::CategoryType;
use crm_core::estimate::ShownStatus;
use crm_core::money::Money;
use crm_core::party::Address;
use http::StatusCode;

/// What the walkthrough saw, for its test to hold against the README's figures.
#[derive(Debug)]
pub struct Walked {
    /// The estimate's subtotal, tax and final amount after its items.
    pub totals: [Money; 3],
    /// The estimate's status once published.
    pub published: ShownStatus,
    /// Whether each of the two conversions was a replay, and the invoices they answered.
    pub conversions: [(bool, i64); 2],
    /// The issued invoice's number.
    pub number: String,
    /// The refusal of a change to the issued invoice's lines.
    pub refused: (StatusCode, String),
    /// The invoice's status title and amount due after its payment.
    pub paid: (String, Money),
    /// The statuses of the two updates from one ETag.
    pub conditional: [Option<StatusCode>; 2],
    /// The messages of each field of the 422.
    pub invalid: Vec<(String, Vec<String>)>,
    /// How many notes the pages held, and how many pages.
    pub paged: (usize, usize),
}

/// Runs the walkthrough against the service at `base` with `key`, printing what it does.
pub async fn run(base: &str, key: &str) -> Result<Walked, Box<dyn StdError>> {
    let api = Client::new(base, key)?;
    let none = Options::default();
    let today = chrono::Utc::now().date_naive();

    // The company that issues the documents, its first client and the VAT rate it charges.
    let company = api
        .update_company(&CompanyUpdate {
            legal_name: Some("Example Consulting Ltd".into()),
            trading_name: Some("Example".into()),
            address: Some(Address {
                line1: Some("1 High Street".into()),
                city: Some("London".into()),
                postcode: Some("EC1A 1AA".into()),
                country: Some("GB".into()),
                ..Address::default()
            }),
            vat_id: Some("GB123456789".into()),
            currency: Some("GBP".into()),
        })
        .await?;
    println!("company: {}", company.status.as_u16());
    let client = api
        .create_client(
            &NewClient {
                company_name: "Acme Inc".into(),
                contact_email: Some("billing@acme.example".into()),
                address: Some(Address {
                    city: Some("Berlin".into()),
                    country: Some("DE".into()),
                    ..Address::default()
                }),
                vat_id: Some("DE123456789".into()),
            },
            &none,
        )
        .await?
        .body
        .data;
    let vat20 = api
        .create_tax_rate(
            &NewTaxRate {
                name: "VAT 20%".into(),
                rate: "20".parse()?,
            },
            &none,
        )
        .await?
        .body
        .data;
    println!(
        "client {}, tax rate {} ({}%)",
        client.id, vat20.id, vat20.rate
    );

    let stamp = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH)?;
    let category = api
        .create_category(
            &NewCategory {
                category_name: format!("Web projects {}", stamp.as_nanos()),
                category_type: CategoryType::Estimate,
            },
            &none,
        )
        .await?
        .body
        .data;
    let estimate = api
        .create_estimate(
            &NewBill {
                bill_clientid: client.id,
                bill_categoryid: category.id,
                bill_date: today,
                bill_expiry_date: Some(today + chrono::Days::new(30)),
            },
            &none,
        )
        .await?
        .body
        .data;
    println!("estimate {}", estimate.id);

    // Its lines: the totals are the server's, to the cent (1.5 × 1385.27 is 2077.90 here).
    let items = Items {
        items: vec![
            Item {
                description: "Design".into(),
                unit: Some("hours".into()),
                quantity: "1.5".parse()?,
                rate: "1385.27".parse()?,
            },
            Item {
                description: "Hosting".into(),
                unit: None,
                quantity: "12".parse()?,
                rate: "9.99".parse()?,
            },
        ],
        tax_rate_ids: vec![vat20.id],
    };
    let totals = api
        .set_estimate_items(estimate.id, &items, &none)
        .await?
        .body
        .data
        .totals;
    println!(
        "totals: subtotal {}, tax {}, final {}",
        totals.subtotal, totals.tax_total_amount, totals.final_amount
    );
    let published = api.publish_estimate(estimate.id, &none).await?.body.data;
    println!("estimate published: {}", published.status);

    // A safe retry: the same Idempotency-Key gives the first answer again, with no new effect.
    let retry = Options::idempotency_key(format!("convert-{}-{}", estimate.id, stamp.as_nanos()));
    let mut conversions = [(false, 0); 2];
    for conversion in &mut conversions {
        let answer = api.convert_estimate(estimate.id, &retry).await?;
        *conversion = (answer.replayed(), answer.body.data.id.get());
        println!(
            "convert: {} replayed: {} invoice {}",
            answer.status.as_u16(),
            answer.replayed(),
            answer.body.data.id
        );
    }
    let invoice = api
        .get_invoice(crm_core::ids::InvoiceId::new(conversions[0].1).ok_or("no invoice id")?)
        .await?
        .body
        .data;
    println!(
        "invoice: {} {} {}",
        invoice.status.title,
        invoice
            .dates
            .due_date
            .map(|d| d.to_string())
            .unwrap_or_default(),
        invoice.totals.final_amount
    );
    let issued = api.publish_invoice(invoice.id, &none).await?.body.data;
    let number = issued.number.clone().unwrap_or_default();
    println!("invoice issued: {} {number}", issued.status.title);

    // Issued, it keeps what it states: a change of its lines is refused.
    let refused = match api.set_invoice_items(invoice.id, &items, &none).await {
        Err(Error::Refused { status, message }) => (status, message),
        other => return Err(format!("a change of an issued invoice: {other:?}").into()),
    };
    println!(
        "change of an issued invoice: {} {}",
        refused.0.as_u16(),
        refused.1
    );

    // The client pays what is due: the payment makes the invoice Paid.
    let payment = api
        .record_payment(
            &NewPayment {
                payment_invoiceid: invoice.id,
                payment_amount: issued.totals.amount_due,
                payment_date: today,
                payment_method: Some("Bank transfer".into()),
            },
            &none,
        )
        .await?;
    println!(
        "payment of {}: {}",
        payment.body.data.amount,
        payment.status.as_u16()
    );
    let paid = api.get_invoice(invoice.id).await?.body.data;
    println!(
        "invoice: {} {} {}",
        paid.status.title, paid.totals.amount_paid, paid.totals.amount_due
    );

    // A conditional update: two people edit from one version; the second is told, not
    // overwritten.
    let note = api
        .create_note(&NewNote::new("Call", "Renewal"), &none)
        .await?
        .body
        .data;
    let version = Options::if_match(api.get_note(note.id).await?.etag()?);
    let mut conditional = [None; 2];
    for (title, status) in ["Mine", "Theirs"].into_iter().zip(&mut conditional) {
        *status = match api
            .update_note(note.id, &NewNote::new(title, "Agreed"), &version)
            .await
        {
            Ok(answer) => Some(answer.status),
            Err(Error::Refused { status, .. }) => Some(status),
            Err(other) => return Err(other.into()),
        };
        println!("PATCH as {title}: {status:?}");
    }

    // A typed 422: the field errors by field name, with Laravel's messages.
    let invalid = match api.create_note(&NewNote::new("", "Renewal"), &none).await {
        Err(Error::Invalid { message, errors }) => {
            println!("422: {message}");
            errors
                .iter()
                .map(|(field, messages)| (field.to_owned(), messages.to_vec()))
                .collect()
        }
        other => return Err(format!("an empty title: {other:?}").into()),
    };
    println!("its errors: {invalid:?}");

    // Two more notes, then every note two at a time, following the cursors.
    for follow_up in ["Send the contract", "Book the kick-off"] {
        api.create_note(&NewNote::new(follow_up, "Renewal"), &none)
            .await?;
    }
    let (mut notes, mut pages, mut cursor) = (0, 0, None::<String>);
    loop {
        let page = api.list_notes(2, cursor.as_deref()).await?.body;
        notes += page.data.len();
        pages += 1;
        match page.meta.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    println!("notes: {notes} in {pages} pages");

    Ok(Walked {
        totals: [
            totals.subtotal,
            totals.tax_total_amount,
            totals.final_amount,
        ],
        published: published.status,
        conversions,
        number,
        refused,
        paid: (paid.status.title, paid.totals.amount_due),
        conditional,
        invalid,
        paged: (notes, pages),
    })
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn StdError>> {
    let base = std::env::var("CRM_BASE").map_err(|_| "set CRM_BASE (http://127.0.0.1:8080)")?;
    let key = std::env::var("CRM_KEY").map_err(|_| "set CRM_KEY (crm keys create)")?;
    run(&base, &key).await?;
    Ok(())
}
