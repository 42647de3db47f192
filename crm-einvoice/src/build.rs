//! From an issued document to the [`Document`] model, or the list of what is missing.
//!
//! One mechanism for every tax mode: the figures EN 16931 would state are computed from the
//! document's own lines, discount and rates by the VAT-mode arithmetic of crm-core
//! ([`crm_core::bill::breakdown::stated`]), and compared with the figures the API computed and stored. When every
//! one is equal, the model carries them (they are the API's figures); when one differs, the
//! document is not ready, and the difference is named. Nothing is ever approximated.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use crm_core::bill::breakdown::{AMOUNT_DECIMALS, Unstated, stated};
use crm_core::bill::{BillTotals, LineItem, TaxRecord};
use crm_core::credit_note::CreditNote;
use crm_core::currency::Currency;
use crm_core::ids::TaxRateId;
use crm_core::invoice::Invoice;
use crm_core::money::Money;
use crm_core::party::{Buyer, Parties, Seller};
use crm_core::tax_rate::{TaxRate, VatCategory};
use crm_core::totals::TaxMode;
use crm_core::totals::vat::{MAX_ROUNDING, NO_TAX, VatRate};

use crate::model::{
    Address, Allowance, Contact, Document, DocumentKind, DocumentTotals, Line, Party, Payment,
    VatBreakdown, VatRateRef,
};
use crate::{Format, Missing};

/// What an e-invoice is made from: an issued invoice or a credit note, as the API shows it.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    kind: DocumentKind,
    number: Option<&'a str>,
    date: NaiveDate,
    due_date: Option<NaiveDate>,
    tax_type: TaxMode,
    lines: &'a [LineItem],
    taxes: &'a [TaxRecord],
    totals: &'a BillTotals,
    notes: Option<&'a str>,
    reason: Option<&'a str>,
    preceding: Option<&'a str>,
    parties: Option<&'a Parties>,
}

impl<'a> Source<'a> {
    /// An invoice (its number is BT-1: a draft has none and is not ready).
    pub fn invoice(invoice: &'a Invoice) -> Source<'a> {
        Source {
            kind: DocumentKind::Invoice,
            number: invoice.number.as_deref(),
            date: invoice.dates.date,
            due_date: invoice.dates.due_date,
            tax_type: invoice.tax_type,
            lines: &invoice.line_items,
            taxes: &invoice.taxes,
            totals: &invoice.totals.bill,
            notes: invoice.notes.as_deref(),
            reason: None,
            preceding: None,
            parties: invoice.parties.as_ref(),
        }
    }

    /// A credit note (it corrects its invoice: BT-25).
    pub fn credit_note(note: &'a CreditNote) -> Source<'a> {
        Source {
            kind: DocumentKind::CreditNote,
            number: Some(&note.number),
            date: note.date,
            due_date: None,
            tax_type: note.tax_type,
            lines: &note.lines,
            taxes: &note.taxes,
            totals: &note.totals,
            notes: None,
            reason: Some(&note.reason),
            preceding: Some(&note.invoice_number),
            parties: Some(&note.parties),
        }
    }
}

impl Source<'_> {
    /// The tax rates the document names (its lines' and its taxes'), each once, in order:
    /// what [`Rates`] needs besides the system rate.
    pub fn tax_rate_ids(&self) -> Vec<TaxRateId> {
        let mut ids: Vec<TaxRateId> = self
            .lines
            .iter()
            .filter_map(|l| l.tax_rate_id)
            .chain(self.taxes.iter().filter_map(|t| t.tax_rate_id))
            .collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    }
}

/// The tax rates a document names, by id, and the system "No Tax" rate (what a line
/// without a rate is taxed at).
#[derive(Debug, Clone)]
pub struct Rates<'a> {
    by_id: BTreeMap<TaxRateId, &'a TaxRate>,
    none: Option<&'a TaxRate>,
}

impl<'a> Rates<'a> {
    /// The rates of `rates` (the system rate among them is "No Tax").
    pub fn new(rates: &'a [TaxRate]) -> Rates<'a> {
        Rates {
            by_id: rates.iter().map(|r| (r.id, r)).collect(),
            none: rates.iter().find(|r| r.system),
        }
    }

    /// The rate `id` ([`NO_TAX`]'s id 0 is the system "No Tax" rate).
    fn get(&self, id: i64) -> Option<&'a TaxRate> {
        if id == NO_TAX.id {
            return self.none;
        }
        TaxRateId::new(id).and_then(|id| self.by_id.get(&id).copied())
    }
}

/// Collects what is missing, once per term and field.
#[derive(Default)]
struct Gaps(Vec<Missing>);

impl Gaps {
    fn add(&mut self, term: &'static str, field: impl Into<String>, message: impl Into<String>) {
        let field = field.into();
        if !self.0.iter().any(|m| m.term == term && m.field == field) {
            self.0.push(Missing {
                term,
                field,
                message: message.into(),
            });
        }
    }
}

/// The EN 16931 model of `source` in `format`, or every business term it lacks and every
/// figure EN 16931 cannot state as the API computed it.
pub fn build(
    source: Source<'_>,
    rates: &Rates<'_>,
    format: Format,
) -> Result<Document, Vec<Missing>> {
    let mut gaps = Gaps::default();
    let currency = source.totals.currency;
    let number = match source.number {
        Some(n) => n.to_owned(),
        None => {
            gaps.add(
                "BT-1",
                "number",
                "A draft has no number: publish the invoice first (an e-invoice is an issued document).",
            );
            String::new()
        }
    };
    let Some(parties) = source.parties else {
        gaps.add(
            "BG-4",
            "parties",
            "The invoice was issued before its parties were kept with it; its seller and buyer as issued are unknown.",
        );
        return Err(gaps.0);
    };

    let figures = match stated(
        source.tax_type,
        source.lines,
        source.taxes,
        &source.totals.figures,
        currency,
    ) {
        Ok(stated) => Some(stated),
        Err(unstated) => {
            for u in unstated {
                unstated_gap(u, currency, &mut gaps);
            }
            None
        }
    };
    let vat: Vec<&TaxRate> = match &figures {
        Some(f) => {
            let mut used: Vec<&TaxRate> = Vec::new();
            for r in &f.rates {
                match rates.get(r.id) {
                    Some(rate) if !used.iter().any(|u| u.id == rate.id) => used.push(rate),
                    Some(_) => {}
                    None => gaps.add(
                        "BT-151",
                        "taxes",
                        "A tax rate of the document is no longer on record.",
                    ),
                }
            }
            used
        }
        None => Vec::new(),
    };
    let categories: Vec<VatCategory> = vat.iter().map(|r| r.vat_category).collect();
    let only_outside_scope =
        !categories.is_empty() && categories.iter().all(|c| *c == VatCategory::O);

    let seller = seller(
        &parties.seller,
        &categories,
        only_outside_scope,
        format,
        &mut gaps,
    );
    let buyer = buyer(
        &parties.buyer,
        &categories,
        only_outside_scope,
        format,
        &mut gaps,
    );
    let payment = payment(&parties.seller, &number, format, &mut gaps);
    let buyer_reference = parties.buyer.buyer_reference.clone();
    if format.needs_buyer_reference() && buyer_reference.is_none() {
        gaps.add(
            "BT-10",
            "client.buyer_reference",
            match format {
                Format::Peppol => "Peppol BIS 3.0 needs a buyer reference (PEPPOL-EN16931-R003): set the client's buyer_reference.",
                _ => "XRechnung needs the buyer reference, the Leitweg-ID of German public buyers (BR-DE-15): set the client's buyer_reference.",
            },
        );
    }
    for rate in &vat {
        if rate.vat_category.needs_exemption()
            && rate.exemption_reason.is_none()
            && rate.exemption_code.is_none()
        {
            gaps.add(
                "BT-120",
                format!("tax_rates.{}.exemption_reason", rate.id),
                format!(
                    "The tax rate \"{}\" (category {}) needs an exemption reason or VATEX code.",
                    rate.name,
                    rate.vat_category.as_str()
                ),
            );
        }
    }
    let payment_terms = parties.seller.payment_terms.clone().or_else(|| {
        (source.kind == DocumentKind::CreditNote).then(|| {
            format!(
                "Refunded or set off against invoice {}.",
                source.preceding.unwrap_or_default()
            )
        })
    });
    if source.due_date.is_none() && payment_terms.is_none() {
        gaps.add(
            "BT-9",
            "due_date",
            "An amount due needs a due date or payment terms (BR-CO-25): set the invoice's due date or the company's payment_terms.",
        );
    }

    let Some(stated) = figures else {
        return Err(gaps.0);
    };
    let figures = &stated.totals;
    if !gaps.0.is_empty() {
        return Err(gaps.0);
    }

    let breakdown_rate = |group: &VatRate| VatRateRef {
        category: group.category,
        rate: (group.category != VatCategory::O).then_some(group.rate),
    };
    let rate_of_group = |group: &VatRate| rates.get(group.id);
    let discount_reason = "Discount".to_owned();
    let allowances = figures
        .groups
        .iter()
        .filter(|g| !g.allowance.get().is_zero())
        .map(|g| Allowance {
            amount: g.allowance,
            vat: breakdown_rate(&g.vat),
            reason: discount_reason.clone(),
        })
        .collect();
    let vat_breakdown = figures
        .groups
        .iter()
        .map(|g| {
            let rate = rate_of_group(&g.vat);
            let exempt = g.vat.category.needs_exemption();
            VatBreakdown {
                base: g.base,
                amount: g.amount,
                vat: breakdown_rate(&g.vat),
                exemption_reason: rate
                    .filter(|_| exempt)
                    .and_then(|r| r.exemption_reason.clone()),
                exemption_code: rate
                    .filter(|_| exempt)
                    .and_then(|r| r.exemption_code.clone()),
            }
        })
        .collect();
    let doc_lines = source
        .lines
        .iter()
        .zip(&stated.rates)
        .zip(&figures.line_nets)
        .map(|((item, rate), net)| Line {
            id: item.position.to_string(),
            quantity: item.quantity,
            unit_code: item.unit_code,
            net_amount: *net,
            allowance: (!item.discount.amount.get().is_zero()).then_some(item.discount.amount),
            price: item.rate,
            name: item.description.clone(),
            description: item.long_description.clone(),
            vat: breakdown_rate(rate),
        })
        .collect();
    let mut notes = Vec::new();
    if let Some(reason) = source.reason {
        notes.push(reason.to_owned());
    }
    if let Some(n) = source.notes.filter(|n| !n.trim().is_empty()) {
        notes.push(n.to_owned());
    }
    let with_vat = Money::new(figures.amount_before_tax.get() + figures.tax_total.get())
        .map_err(|_| overflow())?;
    Ok(Document {
        kind: source.kind,
        number,
        issue_date: source.date,
        due_date: source.due_date,
        delivery: categories
            .contains(&VatCategory::K)
            .then(|| (source.date, buyer.address.clone())),
        currency,
        tax_currency: source
            .totals
            .tax_total_in_company_currency()
            .filter(|(to, _)| *to != currency),
        buyer_reference,
        notes,
        preceding: source.preceding.map(|n| (n.to_owned(), None)),
        seller,
        buyer,
        payment,
        payment_terms,
        allowances,
        totals: DocumentTotals {
            line_total: figures.subtotal,
            allowances: figures.discount_amount,
            without_vat: figures.amount_before_tax,
            vat: figures.tax_total,
            with_vat,
            rounding: figures.adjustment,
            payable: figures.final_amount,
        },
        vat_breakdown,
        lines: doc_lines,
    })
}

fn overflow() -> Vec<Missing> {
    vec![Missing {
        term: "BT-112",
        field: "totals.final_amount".into(),
        message: "A total is out of range.".into(),
    }]
}

/// The gap of one figure EN 16931 cannot state as the API has it.
fn unstated_gap(u: Unstated, currency: Currency, gaps: &mut Gaps) {
    match u {
        Unstated::TwoTaxes { count } => gaps.add(
            "BT-151",
            "taxes",
            format!(
                "EN 16931 gives each line one VAT rate; this document applies {count} tax rates to every line (summary mode). Issue it with one rate, or in VAT mode (bill_tax_type=vat)."
            ),
        ),
        Unstated::InlineTax => gaps.add(
            "BT-131",
            "tax_type",
            "In inline mode each line includes its tax, rounded per line; EN 16931 states net lines and rounds VAT once per rate. Issue e-invoices in VAT mode (bill_tax_type=vat).",
        ),
        Unstated::UnknownRate { line } => gaps.add(
            "BT-151",
            format!("line_items.{line}.tax_rate_id"),
            "The line's tax rate is no longer on record.",
        ),
        Unstated::NotRounding { adjustment } => gaps.add(
            "BT-114",
            "adjustment_amount",
            format!(
                "EN 16931 has no place for an adjustment of {}: only a rounding amount below {MAX_ROUNDING} is stated (BT-114). Add it as a line instead.",
                currency.figure(adjustment)
            ),
        ),
        Unstated::Overflow => gaps.add("BT-112", "totals.final_amount", "A total is out of range."),
        Unstated::Differs {
            term,
            field,
            what,
            ours,
            theirs,
        } => gaps.add(
            term,
            field,
            format!(
                "The {what} is {} here; EN 16931 states {} for the same document (the CRM's arithmetic rounds differently). Issue it in VAT mode (bill_tax_type=vat) for an e-invoice.",
                currency.figure(ours),
                currency.figure(theirs)
            ),
        ),
        Unstated::TooPrecise {
            term,
            field,
            amount,
        } => gaps.add(
            term,
            field,
            format!(
                "EN 16931 states amounts with at most {AMOUNT_DECIMALS} decimals; {} has more.",
                currency.figure(amount)
            ),
        ),
    }
}

fn text(value: &Option<String>) -> Option<String> {
    value
        .as_ref()
        .map(|s| s.trim().to_owned())
        .filter(|s| !s.is_empty())
}

fn address(a: &crm_core::party::Address) -> Address {
    Address {
        line1: text(&a.line1),
        line2: text(&a.line2),
        city: text(&a.city),
        postcode: text(&a.postcode),
        region: text(&a.region),
        country: a.country.clone().unwrap_or_default(),
    }
}

fn endpoint(p: &crm_core::party::Peppol) -> Option<(String, String)> {
    Some((p.scheme.clone()?, p.id.clone()?))
}

fn seller(
    s: &Seller,
    categories: &[VatCategory],
    outside_scope: bool,
    format: Format,
    gaps: &mut Gaps,
) -> Party {
    let name = s
        .legal_name
        .clone()
        .unwrap_or_else(|| s.trading_name.clone());
    if s.address.country.is_none() {
        gaps.add(
            "BT-40",
            "company.address.country",
            "The company's country is needed (BR-09).",
        );
    }
    let vat_id = if outside_scope { None } else { text(&s.vat_id) };
    let needs_vat_id = categories
        .iter()
        .any(|c| matches!(c, VatCategory::K | VatCategory::G));
    let needs_vat_or_tax_id = categories.iter().any(|c| *c != VatCategory::O);
    if vat_id.is_none() && (needs_vat_id || (needs_vat_or_tax_id && s.tax_id.is_none())) {
        gaps.add(
            "BT-31",
            "company.vat_id",
            "The company's VAT identifier is needed for the VAT categories of this document (BR-S-02, BR-K-02, BR-G-02, …).",
        );
    }
    let mut endpoint = endpoint(&s.peppol);
    if format.is_xrechnung() {
        endpoint = endpoint.or_else(|| s.email.clone().map(|e| ("EM".to_owned(), e)));
    }
    if endpoint.is_none() && format.needs_endpoints() {
        gaps.add(
            "BT-34",
            "company.peppol",
            "The company's electronic address (its Peppol scheme and id) is needed by this format.",
        );
    }
    let contact = Contact {
        name: text(&s.contact_name),
        phone: text(&s.phone),
        email: text(&s.email),
    };
    if format.is_xrechnung() {
        if s.address.city.is_none() {
            gaps.add(
                "BT-37",
                "company.address.city",
                "XRechnung needs the company's city (BR-DE-3).",
            );
        }
        if s.address.postcode.is_none() {
            gaps.add(
                "BT-38",
                "company.address.postcode",
                "XRechnung needs the company's postcode (BR-DE-4).",
            );
        }
        if contact.name.is_none() {
            gaps.add(
                "BT-41",
                "company.contact_name",
                "XRechnung needs the seller's contact name (BR-DE-5).",
            );
        }
        if contact.phone.is_none() {
            gaps.add(
                "BT-42",
                "company.phone",
                "XRechnung needs the seller's contact telephone (BR-DE-6).",
            );
        }
        if contact.email.is_none() {
            gaps.add(
                "BT-43",
                "company.email",
                "XRechnung needs the seller's contact email (BR-DE-7).",
            );
        }
    }
    Party {
        trading_name: Some(s.trading_name.clone()).filter(|t| *t != name),
        name,
        registration: text(&s.registration),
        vat_id,
        tax_id: text(&s.tax_id),
        endpoint,
        address: address(&s.address),
        contact,
    }
}

fn buyer(
    b: &Buyer,
    categories: &[VatCategory],
    outside_scope: bool,
    format: Format,
    gaps: &mut Gaps,
) -> Party {
    if b.address.country.is_none() {
        gaps.add(
            "BT-55",
            "client.address.country",
            "The client's country is needed (BR-11).",
        );
    }
    let vat_id = if outside_scope { None } else { text(&b.vat_id) };
    if vat_id.is_none()
        && categories
            .iter()
            .any(|c| matches!(c, VatCategory::AE | VatCategory::K))
    {
        gaps.add(
            "BT-48",
            "client.vat_id",
            "The client's VAT identifier is needed for reverse charge and intra-community supplies (BR-AE-02, BR-K-02).",
        );
    }
    let endpoint = endpoint(&b.peppol);
    if endpoint.is_none() && format.needs_endpoints() {
        gaps.add(
            "BT-49",
            "client.peppol",
            "The client's electronic address (its Peppol scheme and id) is needed by this format.",
        );
    }
    if format.is_xrechnung() {
        if b.address.city.is_none() {
            gaps.add(
                "BT-52",
                "client.address.city",
                "XRechnung needs the client's city (BR-DE-8).",
            );
        }
        if b.address.postcode.is_none() {
            gaps.add(
                "BT-53",
                "client.address.postcode",
                "XRechnung needs the client's postcode (BR-DE-9).",
            );
        }
    }
    Party {
        name: b.company_name.clone(),
        trading_name: None,
        registration: None,
        vat_id,
        tax_id: None,
        endpoint,
        address: address(&b.address),
        contact: Contact {
            name: text(&b.contact_name),
            phone: None,
            email: None,
        },
    }
}

fn payment(s: &Seller, number: &str, format: Format, gaps: &mut Gaps) -> Option<Payment> {
    let Some(iban) = text(&s.bank.iban) else {
        if format.is_xrechnung() {
            gaps.add(
                "BG-16",
                "company.bank.iban",
                "XRechnung needs payment instructions (BR-DE-1): set the company's bank IBAN.",
            );
        }
        return None;
    };
    Some(Payment {
        means_code: "58",
        remittance: number.to_owned(),
        iban: iban.replace(' ', ""),
        account_name: text(&s.bank.account_name),
        bic: text(&s.bank.bic),
    })
}
