//! The adapter from crm-core's records: the only file of this crate that reads an
//! [`Estimate`] or an [`Invoice`] (the total rows, in `totals.rs`, read only the bill
//! vocabulary of `crm_core::bill`).

pub use crm_core::bill::BillKind;

use crm_core::bill::{BillTotals, LineItem, TaxRecord};
use crm_core::totals::TaxMode;

use crm_core::estimate::{Estimate, ShownStatus};
use crm_core::invoice::{Invoice, InvoiceStatus};

use crm_core::credit_note::CreditNote;
use crm_core::party::{Buyer, Seller};

use super::{
    Credits, Decision, DecisionKind, Document, DocumentLine, Due, LabelledDate, Party,
    PaymentDetails, TotalRow, non_blank, non_blank_line,
};

/// What a document needs besides the record: the company, which the service is
/// configured with, and the link's address (the record's `client_link`, or a link about
/// to be made).
#[derive(Debug, Clone, Copy, Default)]
pub struct Context<'a> {
    /// The company name (`--company-name`, default `CRM`).
    pub company: &'a str,
    /// The client link's URL, if the record has one.
    pub link: Option<&'a str>,
    /// The seller as the company's settings name it (`None`: the company name alone).
    pub seller: Option<&'a Party>,
    /// The buyer as the client's record names it (`None`: the record's client name alone).
    pub buyer: Option<&'a Party>,
    /// How invoices are paid, as the company's settings say (`None`: nothing said).
    pub payment: Option<&'a PaymentDetails>,
}

impl Party {
    /// The seller of the company's settings as they are now ([`Party::of_seller`]).
    pub fn of_company(company: &crm_core::company::Company) -> Party {
        Party::of_seller(&company.seller())
    }

    /// The seller a document names: the legal name (the trading name under it when they
    /// differ), the address, the VAT id and the other registrations.
    pub fn of_seller(seller: &Seller) -> Party {
        let trading = crate::text::one_line(&seller.trading_name);
        let (name, trading_as) = match non_blank_line(seller.legal_name.as_deref()) {
            Some(legal) => {
                let trading_as = (legal != trading).then_some(trading);
                (legal, trading_as)
            }
            None => (trading, None),
        };
        Party {
            name,
            trading_as,
            address: address_lines(&seller.address),
            vat_id: non_blank_line(seller.vat_id.as_deref()),
            registrations: registrations(seller),
        }
    }

    /// The buyer of a client's record as it is now ([`Party::of_buyer`]).
    pub fn of_client(client: &crm_core::client::Client) -> Party {
        Party::of_buyer(&client.buyer())
    }

    /// The buyer a document names: its name, billing address and VAT id.
    pub fn of_buyer(buyer: &Buyer) -> Party {
        Party {
            name: crate::text::one_line(&buyer.company_name),
            trading_as: None,
            address: address_lines(&buyer.address),
            vat_id: non_blank_line(buyer.vat_id.as_deref()),
            registrations: Vec::new(),
        }
    }
}

/// The seller's registrations besides its VAT id: its tax number and its commercial
/// register entry.
fn registrations(company: &Seller) -> Vec<String> {
    [
        non_blank_line(company.tax_id.as_deref()).map(|t| format!("Tax number {t}")),
        non_blank_line(company.registration.as_deref()).map(|r| format!("Registration {r}")),
    ]
    .into_iter()
    .flatten()
    .collect()
}

impl PaymentDetails {
    /// How the company's settings say invoices are paid now ([`PaymentDetails::of_seller`]).
    pub fn of_company(company: &crm_core::company::Company) -> PaymentDetails {
        PaymentDetails::of_seller(&company.seller())
    }

    /// How the seller says invoices are paid: its payment terms and bank account (the IBAN
    /// in groups of four, as it is written on paper).
    pub fn of_seller(company: &Seller) -> PaymentDetails {
        let b = &company.bank;
        let iban = non_blank_line(b.iban.as_deref()).map(|iban| {
            let grouped: Vec<String> = iban
                .chars()
                .collect::<Vec<_>>()
                .chunks(4)
                .map(|c| c.iter().collect())
                .collect();
            format!("IBAN {}", grouped.join(" "))
        });
        PaymentDetails {
            terms: non_blank(company.payment_terms.as_deref()),
            bank: [
                iban,
                non_blank_line(b.bic.as_deref()).map(|bic| format!("BIC {bic}")),
                non_blank_line(b.account_name.as_deref()).map(|n| format!("Account {n}")),
            ]
            .into_iter()
            .flatten()
            .collect(),
        }
    }
}

/// The lines of an address that are set: the street lines, "postcode city", the region,
/// the country code.
fn address_lines(a: &crm_core::party::Address) -> Vec<String> {
    let town = [a.postcode.as_deref(), a.city.as_deref()]
        .into_iter()
        .filter_map(|part| non_blank_line(part))
        .collect::<Vec<_>>()
        .join(" ");
    [
        non_blank_line(a.line1.as_deref()),
        non_blank_line(a.line2.as_deref()),
        Some(town).filter(|t| !t.is_empty()),
        non_blank_line(a.region.as_deref()),
        non_blank_line(a.country.as_deref()),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The parts estimates and invoices share, borrowed from either.
struct Parts<'a> {
    kind: BillKind,
    id: i64,
    number: Option<&'a str>,
    client: &'a str,
    dates: Vec<LabelledDate>,
    status: &'static str,
    tax_type: TaxMode,
    lines: &'a [LineItem],
    taxes: &'a [TaxRecord],
    totals: &'a BillTotals,
    notes: Option<&'a str>,
    terms: Option<&'a str>,
}

impl Document {
    /// The document of an estimate.
    pub fn estimate(e: &Estimate, context: Context<'_>) -> Document {
        let mut dates = vec![LabelledDate {
            label: "Date",
            date: e.dates.date,
        }];
        if let Some(date) = e.dates.expiry_date {
            dates.push(LabelledDate {
                label: "Expiry date",
                date,
            });
        }
        let mut doc = Document::from_parts(
            Parts {
                kind: BillKind::Estimate,
                id: e.id.get(),
                number: e.number.as_deref(),
                client: &e.client.name,
                dates,
                status: estimate_status(e.status),
                tax_type: e.tax_type,
                lines: &e.line_items,
                taxes: &e.taxes,
                totals: &e.totals,
                notes: e.notes.as_deref(),
                terms: e.terms.as_deref(),
            },
            context,
        );
        doc.revised = e.dates.revised.map(|t| t.0.date_naive());
        doc.decision = e.client_response.as_ref().map(|r| Decision {
            kind: match r.decision {
                crm_core::estimate::Decision::Accepted => DecisionKind::Accepted,
                crm_core::estimate::Decision::Declined => DecisionKind::Declined,
            },
            at: r.at.0,
            reason: non_blank(r.reason.as_deref()),
        });
        doc
    }

    /// The document of an invoice.
    pub fn invoice(i: &Invoice, context: Context<'_>) -> Document {
        let t = &i.totals;
        let currency = t.bill.currency;
        let row = |label: &str, amount: &crm_core::money::Money| TotalRow {
            label: label.to_owned(),
            amount: crate::money::amount(currency, *amount),
        };
        let paid = !t.amount_paid.get().is_zero();
        let credited = !t.amount_credited.get().is_zero();
        let balance = [
            paid.then(|| row("Paid", &t.amount_paid)),
            credited.then(|| row("Credited", &t.amount_credited)),
            (paid || credited).then(|| row("Amount due", &t.amount_due)),
        ]
        .into_iter()
        .flatten()
        .collect();
        let payment = context.payment.filter(|p| !p.is_empty()).cloned();
        let open = matches!(
            i.status,
            InvoiceStatus::Due | InvoiceStatus::Overdue | InvoiceStatus::PartPaid
        );
        let due = (open
            && i.totals.amount_due.get().is_sign_positive()
            && !i.totals.amount_due.get().is_zero())
        .then(|| Due {
            amount: crate::money::amount(currency, i.totals.amount_due),
            by: i.dates.due_date,
        });
        let mut dates = vec![LabelledDate {
            label: "Date",
            date: i.dates.date,
        }];
        if let Some(date) = i.dates.due_date {
            dates.push(LabelledDate {
                label: "Due date",
                date,
            });
        }
        let mut doc = Document::from_parts(
            Parts {
                kind: BillKind::Invoice,
                id: i.id.get(),
                number: i.number.as_deref(),
                client: &i.client.name,
                dates,
                status: invoice_status(i.status),
                tax_type: i.tax_type,
                lines: &i.line_items,
                taxes: &i.taxes,
                totals: &i.totals.bill,
                notes: i.notes.as_deref(),
                terms: i.terms.as_deref(),
            },
            context,
        );
        doc.balance = balance;
        doc.payment = payment;
        doc.due = due;
        doc
    }

    /// The document of a credit note: its lines and totals, what it credits and why, and,
    /// when it credits more than was due, the part applied and the part refunded.
    pub fn credit_note(c: &CreditNote, context: Context<'_>) -> Document {
        let mut doc = Document::from_parts(
            Parts {
                kind: BillKind::CreditNote,
                id: c.id.get(),
                number: Some(&c.number),
                client: &c.client.name,
                dates: vec![LabelledDate {
                    label: "Date",
                    date: c.date,
                }],
                status: "Issued",
                tax_type: c.tax_type,
                lines: &c.lines,
                taxes: &c.taxes,
                totals: &c.totals,
                notes: None,
                terms: None,
            },
            context,
        );
        if !c.refund_amount.money.get().is_zero() {
            doc.balance = vec![
                TotalRow {
                    label: "Applied to the invoice".to_owned(),
                    amount: crate::money::amount(c.currency, c.applied_amount.money),
                },
                TotalRow {
                    label: "Refund".to_owned(),
                    amount: crate::money::amount(c.currency, c.refund_amount.money),
                },
            ];
        }
        doc.credits = Some(Credits {
            invoice: crate::text::one_line(&c.invoice_number),
            reason: crate::text::clean(&c.reason),
        });
        doc
    }

    fn from_parts(p: Parts<'_>, context: Context<'_>) -> Document {
        Document {
            kind: p.kind,
            id: p.id,
            number: p.number.map(crate::text::one_line),
            revised: None,
            company: crate::text::one_line(context.company),
            client: crate::text::one_line(p.client),
            seller: context
                .seller
                .cloned()
                .unwrap_or_else(|| Party::named(context.company)),
            buyer: context
                .buyer
                .cloned()
                .unwrap_or_else(|| Party::named(p.client)),
            dates: p.dates,
            status: p.status,
            currency: p.totals.currency,
            lines: p.lines.iter().map(line).collect(),
            totals: super::totals::rows(p.tax_type, p.lines, p.taxes, p.totals),
            final_amount: crate::money::amount(p.totals.currency, p.totals.figures.final_amount),
            notes: non_blank(p.notes),
            terms: non_blank(p.terms),
            link: non_blank_line(context.link),
            decision: None,
            balance: Vec::new(),
            payment: None,
            due: None,
            credits: None,
        }
    }
}

fn line(l: &LineItem) -> DocumentLine {
    DocumentLine {
        position: l.position,
        description: crate::text::one_line(&l.description),
        details: non_blank(l.long_description.as_deref()),
        quantity: l.quantity.to_string(),
        unit: non_blank_line(l.unit.as_deref()),
        rate: l.rate.to_string(),
        total: crate::money::amount(l.total.currency, l.total.money),
    }
}

/// An estimate's shown status in words.
pub fn estimate_status(status: ShownStatus) -> &'static str {
    match status {
        ShownStatus::Draft => "Draft",
        ShownStatus::New => "Awaiting acceptance",
        ShownStatus::Accepted => "Accepted",
        ShownStatus::Declined => "Declined",
        ShownStatus::Revised => "Revised",
        ShownStatus::Expired => "Expired",
    }
}

/// An invoice's shown status in words (its title: `Part Paid`, `Overdue`).
pub fn invoice_status(status: InvoiceStatus) -> &'static str {
    status.title()
}
