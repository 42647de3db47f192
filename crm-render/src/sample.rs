//! Sample records for tests and benchmarks (feature `sample`): an estimate or invoice whose
//! lines come from a totals calculator input, computed as the service computes them
//! (`Policy::CrmParity`), with the descriptions the caller gives. Not for production use.

use chrono::NaiveDate;
use crm_core::bill::{BillTotals, LineDiscountView, LineItem, TaxRecord};
use crm_core::currency::{Amount, Currency};
use crm_core::estimate::{Converted, Estimate, EstimateDates, ShownStatus};
use crm_core::ids::{CategoryId, ClientId, EstimateId, InvoiceId, LineItemId, Named, TaxRateId};
use crm_core::invoice::{Invoice, InvoiceDates, InvoiceStatus};
use crm_core::money::{Money, Percent, Quantity, UnitRate};
use crm_core::party::{Address, Bank, Buyer, Parties, Peppol, Seller};
use crm_core::tax_rate::{TaxRate, TaxRateStatus, VatCategory};
use crm_core::time::{RecordDates, Timestamp};
use crm_core::totals::{self, Line, LineDiscount, Policy, TaxMode, TotalsInput};

/// A line's texts: description, long description, unit.
pub type Texts = (String, Option<String>, Option<String>);

/// `n` lines of 2 × (100.50 + i), under a summary VAT of 20%.
pub fn input(n: usize) -> Result<TotalsInput, String> {
    let amount = |text: &str| {
        text.parse::<crm_core::money::Decimal>()
            .map_err(|e| e.to_string())
    };
    let lines = (0..n)
        .map(|i| {
            Ok(Line {
                vat: None,
                quantity: Quantity::new(amount("2")?).map_err(|e| e.to_string())?,
                rate: UnitRate::new(amount(&format!("{}.50", 100 + i))?)
                    .map_err(|e| e.to_string())?,
                discount: LineDiscount::None,
                tax_rate: None,
            })
        })
        .collect::<Result<_, String>>()?;
    Ok(TotalsInput {
        tax_mode: TaxMode::Summary,
        lines,
        tax_rates: vec![Percent::new(amount("20")?).map_err(|e| e.to_string())?],
        ..TotalsInput::default()
    })
}

/// Line texts in English, Greek and Cyrillic, with a long description every third line.
pub fn texts(i: usize) -> Texts {
    let description = match i % 4 {
        0 => format!("Website design, phase {}", i + 1),
        1 => format!("Σχεδιασμός ιστοσελίδας {}", i + 1),
        2 => format!("Разработка приложения {}", i + 1),
        _ => format!(
            "On-site consulting {}: workshops with the team, a review of the current system and a written report with recommendations",
            i + 1
        ),
    };
    let details = i.is_multiple_of(3).then(|| {
        "Includes two rounds of changes.\nDelivered as source files and a PDF.".to_owned()
    });
    let unit = i.is_multiple_of(2).then(|| "hours".to_owned());
    (description, details, unit)
}

/// The lines, taxes and totals of `input` in `EUR`, with `texts` for each line.
pub fn bill(
    input: &TotalsInput,
    texts: &dyn Fn(usize) -> Texts,
) -> Result<(Vec<LineItem>, Vec<TaxRecord>, BillTotals), String> {
    bill_in(input, texts, Currency::EUR)
}

/// The lines, taxes and totals of `input` in `currency` (computed to its minor unit),
/// with `texts` for each line.
pub fn bill_in(
    input: &TotalsInput,
    texts: &dyn Fn(usize) -> Texts,
    currency: Currency,
) -> Result<(Vec<LineItem>, Vec<TaxRecord>, BillTotals), String> {
    let input = &TotalsInput {
        minor_units: currency.minor_units(),
        ..input.clone()
    };
    let computed = totals::compute(input, Policy::CrmParity).map_err(|e| e.to_string())?;
    let mut lines = Vec::new();
    let mut taxes = Vec::new();
    for (i, (line, figures)) in input.lines.iter().zip(&computed.lines).enumerate() {
        let id =
            LineItemId::new(i64::try_from(i + 1).map_err(|e| e.to_string())?).ok_or("line id")?;
        let (description, long_description, unit) = texts(i);
        lines.push(LineItem {
            id,
            position: i32::try_from(i + 1).map_err(|e| e.to_string())?,
            description,
            long_description,
            unit_code: crm_core::units::unit_code(unit.as_deref()),
            unit,
            quantity: line.quantity,
            rate: line.rate,
            total: Amount::new(figures.total, currency),
            line_type: "plain",
            tax_status: "taxable",
            tax_rate_id: None,
            discount: LineDiscountView::new(line.discount, figures.discount_amount, currency),
        });
        if let (TaxMode::Inline, Some(rate)) = (input.tax_mode, line.tax_rate) {
            taxes.push(TaxRecord {
                name: "VAT".to_owned(),
                rate,
                tax_rate_id: None,
                lineitem_id: Some(id),
                vat_category: None,
            });
        }
    }
    if input.tax_mode == TaxMode::Summary {
        for (i, rate) in input.tax_rates.iter().enumerate() {
            let name = if i == 0 {
                format!("VAT {}%", rate.get().normalize())
            } else {
                format!("Tax {}", i + 1)
            };
            taxes.push(TaxRecord {
                name,
                rate: *rate,
                tax_rate_id: None,
                lineitem_id: None,
                vat_category: None,
            });
        }
    }
    let totals = BillTotals {
        figures: computed.totals,
        adjustment_description: Some("Shipping".to_owned()),
        currency,
        exchange: None,
        tax_breakdown: None,
    };
    Ok((lines, taxes, totals))
}

fn date(y: i32, m: u32, d: u32) -> Result<NaiveDate, String> {
    NaiveDate::from_ymd_opt(y, m, d).ok_or_else(|| "date".to_owned())
}

/// Parties with everything every e-invoice format asks for: a German seller (VAT id,
/// contact, IBAN, Peppol id, payment terms) and a German buyer (VAT id, Peppol id, buyer
/// reference).
pub fn issued_parties() -> Parties {
    let address = |city: &str| Address {
        line1: Some("Main Street 1".into()),
        line2: None,
        city: Some(city.into()),
        postcode: Some("10115".into()),
        region: None,
        country: Some("DE".into()),
    };
    let peppol = |id: &str| Peppol {
        scheme: Some("9930".into()),
        id: Some(id.into()),
    };
    Parties {
        seller: Seller {
            legal_name: Some("Acme Software GmbH".into()),
            trading_name: "Acme".into(),
            address: address("Berlin"),
            vat_id: Some("DE123456789".into()),
            tax_id: None,
            registration: None,
            contact_name: Some("Anna Schmidt".into()),
            email: Some("billing@acme.example".into()),
            phone: Some("+49 30 123456".into()),
            bank: Bank {
                iban: Some("DE89370400440532013000".into()),
                bic: None,
                account_name: None,
            },
            peppol: peppol("DE123456789"),
            payment_terms: Some("30 days net".into()),
        },
        buyer: Buyer {
            company_name: "Kunde GmbH".into(),
            contact_name: None,
            address: address("Hamburg"),
            vat_id: Some("DE987654321".into()),
            peppol: peppol("DE987654321"),
            buyer_reference: Some("04011000-12345-03".into()),
        },
    }
}

/// [`invoice`] of `input` issued: numbered `INV-2026-00001`, with [`issued_parties`], and
/// its tax records naming tax rates on record (each distinct percentage a rate, category S,
/// or Z at 0 %); with those rates and the system "No Tax" rate (id 1).
pub fn issued_invoice(
    input: &TotalsInput,
    texts: &dyn Fn(usize) -> Texts,
) -> Result<(Invoice, Vec<TaxRate>), String> {
    let mut invoice = invoice(input, texts)?;
    invoice.number = Some("INV-2026-00001".into());
    invoice.parties = Some(issued_parties());
    let dates = RecordDates {
        created: created(),
        updated: created(),
    };
    let rate = |id: i64, percent, category, system| -> Result<TaxRate, String> {
        Ok(TaxRate {
            id: TaxRateId::new(id).ok_or("tax rate id")?,
            name: format!("Rate {id}"),
            rate: percent,
            status: TaxRateStatus::Enabled,
            vat_category: category,
            exemption_reason: None,
            exemption_code: None,
            system,
            in_use: true,
            dates,
        })
    };
    let mut rates = vec![rate(1, Percent::ZERO, VatCategory::Z, true)?];
    let mut ids: Vec<(Percent, i64)> = Vec::new();
    for tax in &mut invoice.taxes {
        let id = match ids.iter().find(|(p, _)| *p == tax.rate) {
            Some((_, id)) => *id,
            None => {
                let id = i64::try_from(ids.len()).map_err(|e| e.to_string())? + 2;
                ids.push((tax.rate, id));
                rates.push(rate(
                    id,
                    tax.rate,
                    VatCategory::default_for(tax.rate),
                    false,
                )?);
                id
            }
        };
        tax.tax_rate_id = TaxRateId::new(id);
        tax.vat_category = Some(VatCategory::default_for(tax.rate));
    }
    Ok((invoice, rates))
}

fn created() -> Timestamp {
    Timestamp(chrono::DateTime::UNIX_EPOCH)
}

/// Estimate #12 for "Acme Ltd", dated 25 November 2026, expiring 25 December 2026, in EUR.
pub fn estimate(input: &TotalsInput, texts: &dyn Fn(usize) -> Texts) -> Result<Estimate, String> {
    estimate_in(input, texts, Currency::EUR)
}

/// [`estimate`] in `currency`.
pub fn estimate_in(
    input: &TotalsInput,
    texts: &dyn Fn(usize) -> Texts,
    currency: Currency,
) -> Result<Estimate, String> {
    let (line_items, taxes, totals) = bill_in(input, texts, currency)?;
    Ok(Estimate {
        number: None,
        id: EstimateId::new(12).ok_or("id")?,
        status: ShownStatus::New,
        client: Named {
            id: ClientId::new(1).ok_or("client")?,
            name: "Acme Ltd".to_owned(),
        },
        project_id: None,
        category: Named {
            id: CategoryId::new(1).ok_or("category")?,
            name: "Services".to_owned(),
        },
        dates: EstimateDates {
            date: date(2026, 11, 25)?,
            expiry_date: Some(date(2026, 12, 25)?),
            created: created(),
            revised: None,
        },
        notes: Some("Thank you for your business.".to_owned()),
        terms: Some("Payment within 30 days.".to_owned()),
        tax_type: input.tax_mode,
        currency,
        exchange_rate: None,
        totals,
        converted: Converted {
            is_converted: false,
            invoice_id: None,
        },
        line_items,
        taxes,
        tags: Vec::new(),
        client_link: None,
        client_response: None,
    })
}

/// Invoice #7 for "Acme Ltd", dated 25 November 2026, due 25 December 2026, in EUR.
pub fn invoice(input: &TotalsInput, texts: &dyn Fn(usize) -> Texts) -> Result<Invoice, String> {
    invoice_in(input, texts, Currency::EUR)
}

/// [`invoice`] in `currency`.
pub fn invoice_in(
    input: &TotalsInput,
    texts: &dyn Fn(usize) -> Texts,
    currency: Currency,
) -> Result<Invoice, String> {
    let (line_items, taxes, totals) = bill_in(input, texts, currency)?;
    Ok(Invoice {
        number: None,
        id: InvoiceId::new(7).ok_or("id")?,
        status: InvoiceStatus::Due,
        client: Named {
            id: ClientId::new(1).ok_or("client")?,
            name: "Acme Ltd".to_owned(),
        },
        project_id: None,
        category: Named {
            id: CategoryId::new(1).ok_or("category")?,
            name: "Services".to_owned(),
        },
        dates: InvoiceDates {
            date: date(2026, 11, 25)?,
            due_date: Some(date(2026, 12, 25)?),
            created: created(),
            issued: None,
        },
        notes: None,
        terms: Some("Payment within 30 days.".to_owned()),
        tax_type: input.tax_mode,
        currency,
        exchange_rate: None,
        totals: crm_core::invoice::InvoiceTotals::new(
            totals,
            Money::ZERO,
            Money::ZERO,
            Money::ZERO,
        )
        .map_err(|e| e.to_string())?,
        estimate_id: None,
        recurring_invoice_id: None,
        line_items,
        taxes,
        tags: Vec::new(),
        client_link: None,
        parties: None,
    })
}

/// A credit note of the sample invoice of `input` (numbered `INV-2026-00007`), crediting
/// all of it: `refund` of it beyond what was due, the rest applied.
pub fn credit_note(
    input: &TotalsInput,
    texts: &dyn Fn(usize) -> Texts,
    refund: Money,
) -> Result<crm_core::credit_note::CreditNote, String> {
    let (lines, taxes, totals) = bill(input, texts)?;
    let total = totals.figures.final_amount.get();
    let applied = Money::new(total - refund.get()).map_err(|e| e.to_string())?;
    let day = date(2026, 11, 27)?;
    Ok(crm_core::credit_note::CreditNote {
        id: crm_core::ids::CreditNoteId::new(3).ok_or("id")?,
        number: "CN-2026-00003".to_owned(),
        invoice_id: InvoiceId::new(7).ok_or("invoice")?,
        invoice_number: "INV-2026-00007".to_owned(),
        client: Named {
            id: ClientId::new(1).ok_or("client")?,
            name: "Acme Ltd".to_owned(),
        },
        project_id: None,
        category: Named {
            id: CategoryId::new(1).ok_or("category")?,
            name: "Services".to_owned(),
        },
        currency: Currency::EUR,
        date: day,
        reason: "Delivered late; <b>agreed</b> & refunded".to_owned(),
        tax_type: input.tax_mode,
        lines,
        taxes,
        totals,
        applied_amount: crm_core::currency::Amount::new(applied, Currency::EUR),
        refund_amount: crm_core::currency::Amount::new(refund, Currency::EUR),
        creator_id: None,
        dates: crm_core::credit_note::CreditNoteDates {
            date: day,
            created: created(),
        },
        client_link: None,
        parties: crm_core::party::Parties {
            seller: crm_core::party::Seller {
                legal_name: None,
                trading_name: "CRM".to_owned(),
                address: Default::default(),
                vat_id: None,
                tax_id: None,
                registration: None,
                contact_name: None,
                email: None,
                phone: None,
                bank: Default::default(),
                peppol: Default::default(),
                payment_terms: None,
            },
            buyer: crm_core::party::Buyer {
                company_name: "Acme Ltd".to_owned(),
                contact_name: None,
                address: Default::default(),
                vat_id: None,
                peppol: Default::default(),
                buyer_reference: None,
            },
        },
    })
}
