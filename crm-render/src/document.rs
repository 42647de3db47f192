//! The [`Document`]: one estimate or invoice as a person reads it, the one source of the
//! email, the page and the PDF.
//!
//! Every figure is the text the API returns for it (the document currency's figure,
//! `1234.50`; `Quantity` and `UnitRate` display), formatted once here, so the four places
//! cannot disagree; every amount carries its currency's symbol and code, written by the
//! one formatter [`crate::money`] (`€1234.50 EUR`). Record text is cleaned once ([`crate::text::clean`]); escaping is each
//! output's business (the templates escape HTML by default, the PDF draws text as text).
//! [`from_core`] builds documents from crm-core's records; `totals` chooses and labels
//! the total rows.

pub mod from_core;
mod totals;

use chrono::{DateTime, NaiveDate, Utc};

pub use from_core::{BillKind, Context};

/// Who issues a document, or receives it, as the document names them: the name, the
/// address lines and the VAT identifier (API.md §17: documents show the company's legal
/// name, address and VAT id, and the client's when they are set).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Party {
    /// The name: the legal name when there is one, else the trading or company name.
    pub name: String,
    /// The trading name under a different legal name (`Example` of "Example Consulting
    /// Ltd"), if any.
    pub trading_as: Option<String>,
    /// The address, one line per part that is set, in order: the street lines, "postcode
    /// city", the region, the country code.
    pub address: Vec<String>,
    /// The VAT identifier, with its country prefix.
    pub vat_id: Option<String>,
    /// Its other registrations, each a line (`Tax number 12/345/67890`, `Registration HRB
    /// 12345 Berlin`): the seller's legal identity besides its VAT id.
    pub registrations: Vec<String>,
}

impl Party {
    /// A party known by its name alone.
    pub fn named(name: &str) -> Party {
        Party {
            name: crate::text::one_line(name),
            ..Party::default()
        }
    }

    /// Whether it shows anything besides its name.
    pub fn has_details(&self) -> bool {
        self.trading_as.is_some()
            || !self.address.is_empty()
            || self.vat_id.is_some()
            || !self.registrations.is_empty()
    }
}

/// How an invoice is paid (API.md §18): the company's payment terms and bank account, as
/// its settings name them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PaymentDetails {
    /// The payment terms (`Payable within 14 days.`).
    pub terms: Option<String>,
    /// The bank account, a line per part that is set (`IBAN DE89 3704 0044 0532 0130 00`,
    /// `BIC COBADEFFXXX`, `Account Acme GmbH`).
    pub bank: Vec<String>,
}

impl PaymentDetails {
    /// Whether there is nothing to show.
    pub fn is_empty(&self) -> bool {
        self.terms.is_none() && self.bank.is_empty()
    }
}

/// One estimate or invoice, ready to render.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Document {
    /// Estimate or invoice.
    pub kind: BillKind,
    /// The record's id (`12` in "Estimate #12": the title of a document without a number).
    pub id: i64,
    /// Its number (`INV-2026-00042`), once issued (API.md §18).
    pub number: Option<String>,
    /// The day its offer was last revised after it was published (an estimate's page says
    /// "Revised on …").
    pub revised: Option<NaiveDate>,
    /// The company the document comes from: its trading name (`--company-name` until the
    /// company sets one).
    pub company: String,
    /// The client's name.
    pub client: String,
    /// The seller: the company's legal name, address and VAT id.
    pub seller: Party,
    /// The buyer: the client's name, address and VAT id.
    pub buyer: Party,
    /// The dates, labelled, in order (`Date`, then `Expiry date` or `Due date`).
    pub dates: Vec<LabelledDate>,
    /// The status in words (`Awaiting acceptance`, `Overdue`).
    pub status: &'static str,
    /// The currency of every amount (API.md §18).
    pub currency: crm_core::currency::Currency,
    /// The lines, in order.
    pub lines: Vec<DocumentLine>,
    /// The totals that are not zero, in order (subtotal, discount, taxes, adjustment).
    pub totals: Vec<TotalRow>,
    /// The final amount, what the client pays (`€1234.50 EUR`).
    pub final_amount: String,
    /// Below the final amount, for an invoice that was paid in part or in full: what was
    /// paid and what is still due (`Paid`, `Amount due`), the API's `totals` figures with
    /// the currency.
    pub balance: Vec<TotalRow>,
    /// How an invoice is paid (`None`: an estimate, or nothing set).
    pub payment: Option<PaymentDetails>,
    /// What an open invoice still asks for, and by when (`None`: an estimate, a draft, a
    /// paid or cancelled invoice, nothing left to pay).
    pub due: Option<Due>,
    /// Notes (`None` when empty).
    pub notes: Option<String>,
    /// Terms (`None` when empty).
    pub terms: Option<String>,
    /// The client link (`<public url>/c/<token>`), when there is one.
    pub link: Option<String>,
    /// An estimate's decision by the client, once made.
    pub decision: Option<Decision>,
    /// What a credit note credits, and why (`None`: an estimate or an invoice).
    pub credits: Option<Credits>,
}

/// What a credit note credits (API.md §18): the invoice's number and the reason given.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Credits {
    /// The credited invoice's number.
    pub invoice: String,
    /// Why the credit note was issued.
    pub reason: String,
}

impl Credits {
    /// `Credit for invoice INV-2026-00042`: the heading of the reason.
    pub fn heading(&self) -> String {
        format!("Credit for invoice {}", self.invoice)
    }
}

impl Document {
    /// `Invoice INV-2026-00042` once numbered, `Estimate #12` before: the heading, the
    /// email's subject, the PDF's title.
    pub fn title(&self) -> String {
        match &self.number {
            Some(number) => format!("{} {number}", self.kind.title()),
            None => format!("{} #{}", self.kind.title(), self.id),
        }
    }

    /// `an estimate`, `an invoice`, `a credit note`, for sentences ("has sent you an
    /// invoice").
    pub fn noun_with_article(&self) -> &'static str {
        match self.kind {
            BillKind::Estimate => "an estimate",
            BillKind::Invoice => "an invoice",
            BillKind::CreditNote => "a credit note",
        }
    }

    /// `invoice-INV-2026-00042.pdf` once numbered, `estimate-12.pdf` before (API.md §12's
    /// `Content-Disposition`): a number's characters other than letters, digits, `-`, `_`
    /// and `.` are written `-`.
    pub fn pdf_file_name(&self) -> String {
        match &self.number {
            Some(number) => {
                let safe: String = number
                    .chars()
                    .map(|c| {
                        if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                            c
                        } else {
                            '-'
                        }
                    })
                    .collect();
                format!("{}-{safe}.pdf", self.kind.template())
            }
            None => format!("{}-{}.pdf", self.kind.template(), self.id),
        }
    }

    /// `Revised on 28 November 2026`, for an estimate revised after it was published.
    pub fn revised_text(&self) -> Option<String> {
        self.revised.map(|d| format!("Revised on {}", date_text(d)))
    }

    /// The call to action of the email: what following the link lets the client do.
    pub fn call_to_action(&self) -> &'static str {
        match self.kind {
            BillKind::Estimate => "View and accept the estimate",
            BillKind::Invoice => "View the invoice",
            BillKind::CreditNote => "View the credit note",
        }
    }
}

/// What is due on an invoice and by when (API.md §18: the invoice email says so).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Due {
    /// The amount due: the API's `amount_due` with the currency (`€2537.34 EUR`).
    pub amount: String,
    /// The due date, if the invoice has one.
    pub by: Option<NaiveDate>,
}

impl Due {
    /// `Amount due: €2537.34 EUR, by 25 December 2026.`
    pub fn sentence(&self) -> String {
        match self.by {
            Some(by) => format!("Amount due: {}, by {}.", self.amount, date_text(by)),
            None => format!("Amount due: {}.", self.amount),
        }
    }
}

/// A date with its label.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LabelledDate {
    /// `Date`, `Expiry date`, `Due date`.
    pub label: &'static str,
    /// The date.
    pub date: NaiveDate,
}

impl LabelledDate {
    /// `25 November 2026`: [`date_text`].
    pub fn text(&self) -> String {
        date_text(self.date)
    }

    /// `2026-11-25`, the API's form (the page's `<time datetime>`).
    pub fn iso(&self) -> String {
        self.date.to_string()
    }
}

/// `25 November 2026`: the day, the month in words and the year, which no reader can take
/// for another date (unlike 11/12/2026), in the documents' language (English).
pub fn date_text(date: NaiveDate) -> String {
    date.format("%-d %B %Y").to_string()
}

/// One line of the document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DocumentLine {
    /// 1-based position.
    pub position: i32,
    /// The description, on one line.
    pub description: String,
    /// The long description, with its line breaks (`None` when empty).
    pub details: Option<String>,
    /// The quantity as the API writes it (`2.00`).
    pub quantity: String,
    /// The unit (`hours`), when there is one.
    pub unit: Option<String>,
    /// The unit rate (a price, up to 4 decimals) as the API writes it.
    pub rate: String,
    /// The line total: the API's figure with the currency (`€1234.50 EUR`).
    pub total: String,
}

impl DocumentLine {
    /// `2.00 hours`, or `2.00` without a unit.
    pub fn quantity_with_unit(&self) -> String {
        match &self.unit {
            Some(unit) => format!("{} {unit}", self.quantity),
            None => self.quantity.clone(),
        }
    }
}

/// A total row: its label and amount.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TotalRow {
    /// `Subtotal`, `Discount`, `VAT 20%`, `Adjustment (Shipping)`.
    pub label: String,
    /// The amount: the API's figure with the currency (a discount is negative:
    /// `-€25.00 EUR`).
    pub amount: String,
}

/// The client's answer to an estimate (API.md §12's `client_response`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// Accepted or declined.
    pub kind: DecisionKind,
    /// When.
    pub at: DateTime<Utc>,
    /// The reason given with a decline, if any.
    pub reason: Option<String>,
}

impl Decision {
    /// `Accepted on 25 November 2026` (the date in UTC, as the API's timestamps are).
    pub fn sentence(&self) -> String {
        format!("{} on {}", self.kind.word(), self.day())
    }

    /// `25 November 2026`: the decision's date (UTC).
    pub fn day(&self) -> String {
        date_text(self.at.date_naive())
    }

    /// The decision's date, as the API writes dates (the page's `<time datetime>`).
    pub fn iso_date(&self) -> String {
        self.at.date_naive().to_string()
    }
}

/// Accepted or declined.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DecisionKind {
    /// The client accepted the estimate.
    Accepted,
    /// The client declined it.
    Declined,
}

impl DecisionKind {
    /// `Accepted` / `Declined`.
    pub fn word(self) -> &'static str {
        match self {
            DecisionKind::Accepted => "Accepted",
            DecisionKind::Declined => "Declined",
        }
    }
}

/// `text` cleaned, or `None` when nothing but blanks is left.
fn non_blank(text: Option<&str>) -> Option<String> {
    let text = crate::text::clean(text?);
    let trimmed = text.trim_matches(|c: char| c.is_whitespace());
    (!trimmed.is_empty()).then(|| trimmed.to_owned())
}

/// `text` on one line, or `None` when blank.
fn non_blank_line(text: Option<&str>) -> Option<String> {
    Some(crate::text::one_line(text?)).filter(|t| !t.is_empty())
}

#[cfg(test)]
mod tests;
