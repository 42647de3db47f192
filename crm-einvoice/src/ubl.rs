//! UBL 2.1 Invoice and CreditNote (EN 16931's UBL syntax binding), for the `ubl`, `peppol`
//! and `xrechnung` formats. Elements are written in the order the UBL 2.1 schemas require.

use std::io;

use crm_core::money::Money;

use crate::Format;
use crate::model::{Address, Document, DocumentKind, Party, VatRateRef};
use crate::xml::{Xml, amount, decimal, iso_date};

const INVOICE_NS: &str = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const CREDIT_NOTE_NS: &str = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const CAC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2";
const CBC: &str = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";

/// Writes `doc` as a UBL 2.1 Invoice or CreditNote with `format`'s identifiers.
pub fn write(doc: &Document, format: Format) -> io::Result<Vec<u8>> {
    let mut x = Xml::new()?;
    let w = Ubl {
        doc,
        minor: doc.currency.minor_units().get(),
    };
    let credit = doc.kind == DocumentKind::CreditNote;
    let (root, ns) = if credit {
        ("CreditNote", CREDIT_NOTE_NS)
    } else {
        ("Invoice", INVOICE_NS)
    };
    x.open(
        root,
        &[("xmlns", ns), ("xmlns:cac", CAC), ("xmlns:cbc", CBC)],
    )?;
    x.leaf("cbc:CustomizationID", format.customization_id())?;
    x.opt("cbc:ProfileID", format.profile_id())?;
    x.leaf("cbc:ID", &doc.number)?;
    x.leaf("cbc:IssueDate", &iso_date(doc.issue_date))?;
    if !credit {
        x.opt("cbc:DueDate", doc.due_date.map(iso_date).as_deref())?;
    }
    x.leaf(
        if credit {
            "cbc:CreditNoteTypeCode"
        } else {
            "cbc:InvoiceTypeCode"
        },
        doc.kind.type_code(),
    )?;
    for note in &doc.notes {
        x.leaf("cbc:Note", note)?;
    }
    x.leaf("cbc:DocumentCurrencyCode", doc.currency.code())?;
    if let Some((tax_currency, _)) = doc.tax_currency {
        x.leaf("cbc:TaxCurrencyCode", tax_currency.code())?;
    }
    x.opt("cbc:BuyerReference", doc.buyer_reference.as_deref())?;
    if let Some((number, date)) = &doc.preceding {
        x.open("cac:BillingReference", &[])?;
        x.open("cac:InvoiceDocumentReference", &[])?;
        x.leaf("cbc:ID", number)?;
        x.opt("cbc:IssueDate", date.map(iso_date).as_deref())?;
        x.close("cac:InvoiceDocumentReference")?;
        x.close("cac:BillingReference")?;
    }
    x.open("cac:AccountingSupplierParty", &[])?;
    w.party(&mut x, &doc.seller, true)?;
    x.close("cac:AccountingSupplierParty")?;
    x.open("cac:AccountingCustomerParty", &[])?;
    w.party(&mut x, &doc.buyer, false)?;
    x.close("cac:AccountingCustomerParty")?;
    if let Some((date, address)) = &doc.delivery {
        x.open("cac:Delivery", &[])?;
        x.leaf("cbc:ActualDeliveryDate", &iso_date(*date))?;
        x.open("cac:DeliveryLocation", &[])?;
        postal_address(&mut x, "cac:Address", address)?;
        x.close("cac:DeliveryLocation")?;
        x.close("cac:Delivery")?;
    }
    if let Some(p) = &doc.payment {
        x.open("cac:PaymentMeans", &[])?;
        x.leaf("cbc:PaymentMeansCode", p.means_code)?;
        if credit {
            x.opt("cbc:PaymentDueDate", doc.due_date.map(iso_date).as_deref())?;
        }
        x.leaf("cbc:PaymentID", &p.remittance)?;
        x.open("cac:PayeeFinancialAccount", &[])?;
        x.leaf("cbc:ID", &p.iban)?;
        x.opt("cbc:Name", p.account_name.as_deref())?;
        if let Some(bic) = &p.bic {
            x.open("cac:FinancialInstitutionBranch", &[])?;
            x.leaf("cbc:ID", bic)?;
            x.close("cac:FinancialInstitutionBranch")?;
        }
        x.close("cac:PayeeFinancialAccount")?;
        x.close("cac:PaymentMeans")?;
    }
    if let Some(terms) = &doc.payment_terms {
        x.open("cac:PaymentTerms", &[])?;
        x.leaf("cbc:Note", terms)?;
        x.close("cac:PaymentTerms")?;
    }
    for a in &doc.allowances {
        x.open("cac:AllowanceCharge", &[])?;
        x.leaf("cbc:ChargeIndicator", "false")?;
        x.leaf("cbc:AllowanceChargeReasonCode", "95")?;
        x.leaf("cbc:AllowanceChargeReason", &a.reason)?;
        w.money(&mut x, "cbc:Amount", a.amount)?;
        w.tax_category(&mut x, "cac:TaxCategory", a.vat, None)?;
        x.close("cac:AllowanceCharge")?;
    }
    x.open("cac:TaxTotal", &[])?;
    w.money(&mut x, "cbc:TaxAmount", doc.totals.vat)?;
    for b in &doc.vat_breakdown {
        x.open("cac:TaxSubtotal", &[])?;
        w.money(&mut x, "cbc:TaxableAmount", b.base)?;
        w.money(&mut x, "cbc:TaxAmount", b.amount)?;
        w.tax_category(
            &mut x,
            "cac:TaxCategory",
            b.vat,
            Some((b.exemption_code.as_deref(), b.exemption_reason.as_deref())),
        )?;
        x.close("cac:TaxSubtotal")?;
    }
    x.close("cac:TaxTotal")?;
    if let Some((tax_currency, vat)) = doc.tax_currency {
        x.open("cac:TaxTotal", &[])?;
        x.leaf_with(
            "cbc:TaxAmount",
            &[("currencyID", tax_currency.code())],
            &amount(vat, tax_currency.minor_units().get()),
        )?;
        x.close("cac:TaxTotal")?;
    }
    let t = &doc.totals;
    x.open("cac:LegalMonetaryTotal", &[])?;
    w.money(&mut x, "cbc:LineExtensionAmount", t.line_total)?;
    w.money(&mut x, "cbc:TaxExclusiveAmount", t.without_vat)?;
    w.money(&mut x, "cbc:TaxInclusiveAmount", t.with_vat)?;
    if !doc.allowances.is_empty() {
        w.money(&mut x, "cbc:AllowanceTotalAmount", t.allowances)?;
    }
    if !t.rounding.get().is_zero() {
        w.money(&mut x, "cbc:PayableRoundingAmount", t.rounding)?;
    }
    w.money(&mut x, "cbc:PayableAmount", t.payable)?;
    x.close("cac:LegalMonetaryTotal")?;
    let (line_tag, quantity_tag) = if credit {
        ("cac:CreditNoteLine", "cbc:CreditedQuantity")
    } else {
        ("cac:InvoiceLine", "cbc:InvoicedQuantity")
    };
    for l in &doc.lines {
        x.open(line_tag, &[])?;
        x.leaf("cbc:ID", &l.id)?;
        x.leaf_with(
            quantity_tag,
            &[("unitCode", l.unit_code)],
            &decimal(l.quantity.get()),
        )?;
        w.money(&mut x, "cbc:LineExtensionAmount", l.net_amount)?;
        if let Some(allowance) = l.allowance {
            x.open("cac:AllowanceCharge", &[])?;
            x.leaf("cbc:ChargeIndicator", "false")?;
            x.leaf("cbc:AllowanceChargeReasonCode", "95")?;
            x.leaf("cbc:AllowanceChargeReason", "Discount")?;
            w.money(&mut x, "cbc:Amount", allowance)?;
            x.close("cac:AllowanceCharge")?;
        }
        x.open("cac:Item", &[])?;
        x.opt("cbc:Description", l.description.as_deref())?;
        x.leaf("cbc:Name", &l.name)?;
        w.tax_category(&mut x, "cac:ClassifiedTaxCategory", l.vat, None)?;
        x.close("cac:Item")?;
        x.open("cac:Price", &[])?;
        x.leaf_with(
            "cbc:PriceAmount",
            &[("currencyID", doc.currency.code())],
            &decimal(l.price.get()),
        )?;
        x.close("cac:Price")?;
        x.close(line_tag)?;
    }
    x.close(root)?;
    Ok(x.finish())
}

struct Ubl<'a> {
    doc: &'a Document,
    minor: u32,
}

impl Ubl<'_> {
    fn money(&self, x: &mut Xml, name: &str, value: Money) -> io::Result<()> {
        x.leaf_with(
            name,
            &[("currencyID", self.doc.currency.code())],
            &amount(value, self.minor),
        )
    }

    fn tax_category(
        &self,
        x: &mut Xml,
        name: &str,
        vat: VatRateRef,
        exemption: Option<(Option<&str>, Option<&str>)>,
    ) -> io::Result<()> {
        x.open(name, &[])?;
        x.leaf("cbc:ID", vat.category.as_str())?;
        if let Some(rate) = vat.rate {
            x.leaf("cbc:Percent", &decimal(rate.get()))?;
        }
        if let Some((code, reason)) = exemption {
            x.opt("cbc:TaxExemptionReasonCode", code)?;
            x.opt("cbc:TaxExemptionReason", reason)?;
        }
        x.open("cac:TaxScheme", &[])?;
        x.leaf("cbc:ID", "VAT")?;
        x.close("cac:TaxScheme")?;
        x.close(name)
    }

    fn party(&self, x: &mut Xml, p: &Party, seller: bool) -> io::Result<()> {
        x.open("cac:Party", &[])?;
        if let Some((scheme, id)) = &p.endpoint {
            x.leaf_with("cbc:EndpointID", &[("schemeID", scheme)], id)?;
        }
        if let Some(trading) = &p.trading_name {
            x.open("cac:PartyName", &[])?;
            x.leaf("cbc:Name", trading)?;
            x.close("cac:PartyName")?;
        }
        postal_address(x, "cac:PostalAddress", &p.address)?;
        if let Some(vat_id) = &p.vat_id {
            tax_scheme(x, vat_id, "VAT")?;
        }
        if seller && let Some(tax_id) = &p.tax_id {
            tax_scheme(x, tax_id, "FC")?;
        }
        x.open("cac:PartyLegalEntity", &[])?;
        x.leaf("cbc:RegistrationName", &p.name)?;
        x.opt("cbc:CompanyID", p.registration.as_deref())?;
        x.close("cac:PartyLegalEntity")?;
        if !p.contact.is_empty() {
            x.open("cac:Contact", &[])?;
            x.opt("cbc:Name", p.contact.name.as_deref())?;
            x.opt("cbc:Telephone", p.contact.phone.as_deref())?;
            x.opt("cbc:ElectronicMail", p.contact.email.as_deref())?;
            x.close("cac:Contact")?;
        }
        x.close("cac:Party")
    }
}

fn postal_address(x: &mut Xml, tag: &str, a: &Address) -> io::Result<()> {
    x.open(tag, &[])?;
    x.opt("cbc:StreetName", a.line1.as_deref())?;
    x.opt("cbc:AdditionalStreetName", a.line2.as_deref())?;
    x.opt("cbc:CityName", a.city.as_deref())?;
    x.opt("cbc:PostalZone", a.postcode.as_deref())?;
    x.opt("cbc:CountrySubentity", a.region.as_deref())?;
    x.open("cac:Country", &[])?;
    x.leaf("cbc:IdentificationCode", &a.country)?;
    x.close("cac:Country")?;
    x.close(tag)
}

fn tax_scheme(x: &mut Xml, id: &str, scheme: &str) -> io::Result<()> {
    x.open("cac:PartyTaxScheme", &[])?;
    x.leaf("cbc:CompanyID", id)?;
    x.open("cac:TaxScheme", &[])?;
    x.leaf("cbc:ID", scheme)?;
    x.close("cac:TaxScheme")?;
    x.close("cac:PartyTaxScheme")
}
