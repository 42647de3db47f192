//! UN/CEFACT Cross Industry Invoice D16B (EN 16931's CII syntax binding), for the `cii` and
//! `xrechnung-cii` formats and the XML a Factur-X PDF carries. Elements are written in the
//! order the CII schemas require.

use std::io;

use crm_core::money::Money;

use crate::Format;
use crate::model::{Address, Document, Party, VatRateRef};
use crate::xml::{Xml, amount, cii_date, decimal};

const RSM: &str = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const RAM: &str =
    "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";
const UDT: &str = "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100";
const QDT: &str = "urn:un:unece:uncefact:data:standard:QualifiedDataType:100";

/// Writes `doc` as a CII CrossIndustryInvoice with `format`'s identifiers.
pub fn write(doc: &Document, format: Format) -> io::Result<Vec<u8>> {
    let mut x = Xml::new()?;
    let w = Cii {
        minor: doc.currency.minor_units().get(),
    };
    x.open(
        "rsm:CrossIndustryInvoice",
        &[
            ("xmlns:rsm", RSM),
            ("xmlns:qdt", QDT),
            ("xmlns:ram", RAM),
            ("xmlns:udt", UDT),
        ],
    )?;
    x.open("rsm:ExchangedDocumentContext", &[])?;
    if let Some(profile) = format.profile_id() {
        x.open("ram:BusinessProcessSpecifiedDocumentContextParameter", &[])?;
        x.leaf("ram:ID", profile)?;
        x.close("ram:BusinessProcessSpecifiedDocumentContextParameter")?;
    }
    x.open("ram:GuidelineSpecifiedDocumentContextParameter", &[])?;
    x.leaf("ram:ID", format.customization_id())?;
    x.close("ram:GuidelineSpecifiedDocumentContextParameter")?;
    x.close("rsm:ExchangedDocumentContext")?;

    x.open("rsm:ExchangedDocument", &[])?;
    x.leaf("ram:ID", &doc.number)?;
    x.leaf("ram:TypeCode", doc.kind.type_code())?;
    date(&mut x, "ram:IssueDateTime", doc.issue_date)?;
    for note in &doc.notes {
        x.open("ram:IncludedNote", &[])?;
        x.leaf("ram:Content", note)?;
        x.close("ram:IncludedNote")?;
    }
    x.close("rsm:ExchangedDocument")?;

    x.open("rsm:SupplyChainTradeTransaction", &[])?;
    for l in &doc.lines {
        x.open("ram:IncludedSupplyChainTradeLineItem", &[])?;
        x.open("ram:AssociatedDocumentLineDocument", &[])?;
        x.leaf("ram:LineID", &l.id)?;
        x.close("ram:AssociatedDocumentLineDocument")?;
        x.open("ram:SpecifiedTradeProduct", &[])?;
        x.leaf("ram:Name", &l.name)?;
        x.opt("ram:Description", l.description.as_deref())?;
        x.close("ram:SpecifiedTradeProduct")?;
        x.open("ram:SpecifiedLineTradeAgreement", &[])?;
        x.open("ram:NetPriceProductTradePrice", &[])?;
        x.leaf("ram:ChargeAmount", &decimal(l.price.get()))?;
        x.close("ram:NetPriceProductTradePrice")?;
        x.close("ram:SpecifiedLineTradeAgreement")?;
        x.open("ram:SpecifiedLineTradeDelivery", &[])?;
        x.leaf_with(
            "ram:BilledQuantity",
            &[("unitCode", l.unit_code)],
            &decimal(l.quantity.get()),
        )?;
        x.close("ram:SpecifiedLineTradeDelivery")?;
        x.open("ram:SpecifiedLineTradeSettlement", &[])?;
        w.trade_tax(&mut x, l.vat, None)?;
        if let Some(allowance) = l.allowance {
            w.allowance(&mut x, allowance, "Discount", None)?;
        }
        x.open("ram:SpecifiedTradeSettlementLineMonetarySummation", &[])?;
        w.money(&mut x, "ram:LineTotalAmount", l.net_amount)?;
        x.close("ram:SpecifiedTradeSettlementLineMonetarySummation")?;
        x.close("ram:SpecifiedLineTradeSettlement")?;
        x.close("ram:IncludedSupplyChainTradeLineItem")?;
    }

    x.open("ram:ApplicableHeaderTradeAgreement", &[])?;
    x.opt("ram:BuyerReference", doc.buyer_reference.as_deref())?;
    party(&mut x, "ram:SellerTradeParty", &doc.seller, true)?;
    party(&mut x, "ram:BuyerTradeParty", &doc.buyer, false)?;
    x.close("ram:ApplicableHeaderTradeAgreement")?;

    x.open("ram:ApplicableHeaderTradeDelivery", &[])?;
    if let Some((day, address)) = &doc.delivery {
        x.open("ram:ShipToTradeParty", &[])?;
        x.leaf("ram:Name", &doc.buyer.name)?;
        postal_address(&mut x, address)?;
        x.close("ram:ShipToTradeParty")?;
        x.open("ram:ActualDeliverySupplyChainEvent", &[])?;
        date(&mut x, "ram:OccurrenceDateTime", *day)?;
        x.close("ram:ActualDeliverySupplyChainEvent")?;
    }
    x.close("ram:ApplicableHeaderTradeDelivery")?;

    x.open("ram:ApplicableHeaderTradeSettlement", &[])?;
    if let Some(p) = &doc.payment {
        x.leaf("ram:PaymentReference", &p.remittance)?;
    }
    if let Some((tax_currency, _)) = doc.tax_currency {
        x.leaf("ram:TaxCurrencyCode", tax_currency.code())?;
    }
    x.leaf("ram:InvoiceCurrencyCode", doc.currency.code())?;
    if let Some(p) = &doc.payment {
        x.open("ram:SpecifiedTradeSettlementPaymentMeans", &[])?;
        x.leaf("ram:TypeCode", p.means_code)?;
        x.open("ram:PayeePartyCreditorFinancialAccount", &[])?;
        x.leaf("ram:IBANID", &p.iban)?;
        x.opt("ram:AccountName", p.account_name.as_deref())?;
        x.close("ram:PayeePartyCreditorFinancialAccount")?;
        if let Some(bic) = &p.bic {
            x.open("ram:PayeeSpecifiedCreditorFinancialInstitution", &[])?;
            x.leaf("ram:BICID", bic)?;
            x.close("ram:PayeeSpecifiedCreditorFinancialInstitution")?;
        }
        x.close("ram:SpecifiedTradeSettlementPaymentMeans")?;
    }
    for b in &doc.vat_breakdown {
        x.open("ram:ApplicableTradeTax", &[])?;
        w.money(&mut x, "ram:CalculatedAmount", b.amount)?;
        x.leaf("ram:TypeCode", "VAT")?;
        x.opt("ram:ExemptionReason", b.exemption_reason.as_deref())?;
        w.money(&mut x, "ram:BasisAmount", b.base)?;
        x.leaf("ram:CategoryCode", b.vat.category.as_str())?;
        x.opt("ram:ExemptionReasonCode", b.exemption_code.as_deref())?;
        if let Some(rate) = b.vat.rate {
            x.leaf("ram:RateApplicablePercent", &decimal(rate.get()))?;
        }
        x.close("ram:ApplicableTradeTax")?;
    }
    for a in &doc.allowances {
        w.allowance(&mut x, a.amount, &a.reason, Some(a.vat))?;
    }
    if doc.payment_terms.is_some() || doc.due_date.is_some() {
        x.open("ram:SpecifiedTradePaymentTerms", &[])?;
        x.opt("ram:Description", doc.payment_terms.as_deref())?;
        if let Some(due) = doc.due_date {
            date(&mut x, "ram:DueDateDateTime", due)?;
        }
        x.close("ram:SpecifiedTradePaymentTerms")?;
    }
    let t = &doc.totals;
    x.open("ram:SpecifiedTradeSettlementHeaderMonetarySummation", &[])?;
    w.money(&mut x, "ram:LineTotalAmount", t.line_total)?;
    if !doc.allowances.is_empty() {
        w.money(&mut x, "ram:AllowanceTotalAmount", t.allowances)?;
    }
    w.money(&mut x, "ram:TaxBasisTotalAmount", t.without_vat)?;
    x.leaf_with(
        "ram:TaxTotalAmount",
        &[("currencyID", doc.currency.code())],
        &amount(t.vat, w.minor),
    )?;
    if let Some((tax_currency, vat)) = doc.tax_currency {
        x.leaf_with(
            "ram:TaxTotalAmount",
            &[("currencyID", tax_currency.code())],
            &amount(vat, tax_currency.minor_units().get()),
        )?;
    }
    if !t.rounding.get().is_zero() {
        w.money(&mut x, "ram:RoundingAmount", t.rounding)?;
    }
    w.money(&mut x, "ram:GrandTotalAmount", t.with_vat)?;
    w.money(&mut x, "ram:DuePayableAmount", t.payable)?;
    x.close("ram:SpecifiedTradeSettlementHeaderMonetarySummation")?;
    if let Some((number, day)) = &doc.preceding {
        x.open("ram:InvoiceReferencedDocument", &[])?;
        x.leaf("ram:IssuerAssignedID", number)?;
        if let Some(day) = day {
            x.open("ram:FormattedIssueDateTime", &[])?;
            x.leaf_with("qdt:DateTimeString", &[("format", "102")], &cii_date(*day))?;
            x.close("ram:FormattedIssueDateTime")?;
        }
        x.close("ram:InvoiceReferencedDocument")?;
    }
    x.close("ram:ApplicableHeaderTradeSettlement")?;
    x.close("rsm:SupplyChainTradeTransaction")?;
    x.close("rsm:CrossIndustryInvoice")?;
    Ok(x.finish())
}

struct Cii {
    minor: u32,
}

impl Cii {
    fn money(&self, x: &mut Xml, name: &str, value: Money) -> io::Result<()> {
        x.leaf(name, &amount(value, self.minor))
    }

    fn trade_tax(&self, x: &mut Xml, vat: VatRateRef, tag: Option<&str>) -> io::Result<()> {
        let tag = tag.unwrap_or("ram:ApplicableTradeTax");
        x.open(tag, &[])?;
        x.leaf("ram:TypeCode", "VAT")?;
        x.leaf("ram:CategoryCode", vat.category.as_str())?;
        if let Some(rate) = vat.rate {
            x.leaf("ram:RateApplicablePercent", &decimal(rate.get()))?;
        }
        x.close(tag)
    }

    fn allowance(
        &self,
        x: &mut Xml,
        value: Money,
        reason: &str,
        vat: Option<VatRateRef>,
    ) -> io::Result<()> {
        x.open("ram:SpecifiedTradeAllowanceCharge", &[])?;
        x.open("ram:ChargeIndicator", &[])?;
        x.leaf("udt:Indicator", "false")?;
        x.close("ram:ChargeIndicator")?;
        self.money(x, "ram:ActualAmount", value)?;
        x.leaf("ram:ReasonCode", "95")?;
        x.leaf("ram:Reason", reason)?;
        if let Some(vat) = vat {
            self.trade_tax(x, vat, Some("ram:CategoryTradeTax"))?;
        }
        x.close("ram:SpecifiedTradeAllowanceCharge")
    }
}

fn date(x: &mut Xml, name: &str, day: chrono::NaiveDate) -> io::Result<()> {
    x.open(name, &[])?;
    x.leaf_with("udt:DateTimeString", &[("format", "102")], &cii_date(day))?;
    x.close(name)
}

fn postal_address(x: &mut Xml, a: &Address) -> io::Result<()> {
    x.open("ram:PostalTradeAddress", &[])?;
    x.opt("ram:PostcodeCode", a.postcode.as_deref())?;
    x.opt("ram:LineOne", a.line1.as_deref())?;
    x.opt("ram:LineTwo", a.line2.as_deref())?;
    x.opt("ram:CityName", a.city.as_deref())?;
    x.leaf("ram:CountryID", &a.country)?;
    x.opt("ram:CountrySubDivisionName", a.region.as_deref())?;
    x.close("ram:PostalTradeAddress")
}

fn party(x: &mut Xml, tag: &str, p: &Party, seller: bool) -> io::Result<()> {
    x.open(tag, &[])?;
    x.leaf("ram:Name", &p.name)?;
    if p.registration.is_some() || p.trading_name.is_some() {
        x.open("ram:SpecifiedLegalOrganization", &[])?;
        x.opt("ram:ID", p.registration.as_deref())?;
        x.opt("ram:TradingBusinessName", p.trading_name.as_deref())?;
        x.close("ram:SpecifiedLegalOrganization")?;
    }
    if !p.contact.is_empty() {
        x.open("ram:DefinedTradeContact", &[])?;
        x.opt("ram:PersonName", p.contact.name.as_deref())?;
        if let Some(phone) = &p.contact.phone {
            x.open("ram:TelephoneUniversalCommunication", &[])?;
            x.leaf("ram:CompleteNumber", phone)?;
            x.close("ram:TelephoneUniversalCommunication")?;
        }
        if let Some(email) = &p.contact.email {
            x.open("ram:EmailURIUniversalCommunication", &[])?;
            x.leaf("ram:URIID", email)?;
            x.close("ram:EmailURIUniversalCommunication")?;
        }
        x.close("ram:DefinedTradeContact")?;
    }
    postal_address(x, &p.address)?;
    if let Some((scheme, id)) = &p.endpoint {
        x.open("ram:URIUniversalCommunication", &[])?;
        x.leaf_with("ram:URIID", &[("schemeID", scheme)], id)?;
        x.close("ram:URIUniversalCommunication")?;
    }
    if let Some(vat_id) = &p.vat_id {
        x.open("ram:SpecifiedTaxRegistration", &[])?;
        x.leaf_with("ram:ID", &[("schemeID", "VA")], vat_id)?;
        x.close("ram:SpecifiedTaxRegistration")?;
    }
    if seller && let Some(tax_id) = &p.tax_id {
        x.open("ram:SpecifiedTaxRegistration", &[])?;
        x.leaf_with("ram:ID", &[("schemeID", "FC")], tax_id)?;
        x.close("ram:SpecifiedTaxRegistration")?;
    }
    x.close(tag)
}
