"""Check a Factur-X PDF as far as offline tools go.

usage: check_facturx.py PDF CII_XML
1. the `factur-x` package extracts `factur-x.xml` (checking it against the Factur-X XSD of
   its level, EN 16931) and it equals CII_XML byte for byte;
2. pypdf reads the structure: XMP with pdfaid:part 3 and conformance B, the Factur-X XMP
   properties and their PDF/A extension schema, an output intent, every font embedded,
   the catalog's /AF naming the file specification with /AFRelationship /Alternative, and
   the embedded file's subtype text/xml.
Prints one line per failure and, last, "N checks, F failed"; exit 1 on a failure.
"""
import re, sys
from io import BytesIO

import facturx
from lxml import etree
from pypdf import PdfReader
from pypdf.generic import IndirectObject


def resolve(o):
    return o.get_object() if isinstance(o, IndirectObject) else o


def main(pdf_path, xml_path):
    data = open(pdf_path, "rb").read()
    expected = open(xml_path, "rb").read()
    checks = []

    def check(name, ok, detail=""):
        checks.append((name, bool(ok), detail))

    name, xml = facturx.get_facturx_xml_from_pdf(data, check_xsd=True)
    check("embedded file is factur-x.xml", name == "factur-x.xml", name)
    check("embedded XML equals the CII export byte for byte", xml == expected)
    check("Factur-X level is EN 16931", facturx.get_level(etree.fromstring(xml)) == "en16931",
          facturx.get_level(etree.fromstring(xml)))

    reader = PdfReader(BytesIO(data))
    root = reader.trailer["/Root"].get_object()
    meta = root["/Metadata"].get_object().get_data().decode("utf-8")
    check("XMP pdfaid:part is 3", re.search(r"pdfaid:part(>|=\")3", meta), "")
    check("XMP pdfaid:conformance is B", re.search(r"pdfaid:conformance(>|=\")B", meta), "")
    for prop, value in [("DocumentType", "INVOICE"), ("DocumentFileName", "factur-x.xml"),
                        ("Version", "1.0"), ("ConformanceLevel", "EN 16931")]:
        check(f"XMP fx:{prop} is {value}", f"<fx:{prop}>{value}</fx:{prop}>" in meta)
    check("XMP declares the fx extension schema",
          "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>" in meta)
    intents = root.get("/OutputIntents")
    check("an output intent", intents and len(resolve(intents)) >= 1)
    if intents:
        oi = resolve(resolve(intents)[0])
        check("output intent is GTS_PDFA1 with a profile",
              oi.get("/S") == "/GTS_PDFA1" and "/DestOutputProfile" in oi, str(oi.get("/S")))
    fonts = 0
    embedded = 0
    for page in reader.pages:
        res = resolve(page.get("/Resources", {}))
        for font in resolve(res.get("/Font", {})).values():
            font = resolve(font)
            fonts += 1
            descendants = [resolve(d) for d in resolve(font.get("/DescendantFonts", []))] or [font]
            ok = True
            for d in descendants:
                fd = resolve(d.get("/FontDescriptor", {}))
                ok &= any(k in fd for k in ("/FontFile", "/FontFile2", "/FontFile3"))
            embedded += ok
    check("every font is embedded", fonts > 0 and fonts == embedded, f"{embedded} of {fonts}")
    af = [resolve(f) for f in resolve(root.get("/AF", []))]
    check("the catalog's /AF names one file", len(af) == 1, str(len(af)))
    if af:
        spec = af[0]
        check("/AFRelationship /Alternative", spec.get("/AFRelationship") == "/Alternative",
              str(spec.get("/AFRelationship")))
        check("file specification names factur-x.xml", spec.get("/F") == "factur-x.xml"
              and spec.get("/UF") == "factur-x.xml")
        ef = resolve(resolve(spec["/EF"])["/F"])
        check("embedded file subtype text/xml", ef.get("/Subtype") == "/text#2Fxml"
              or ef.get("/Subtype") == "/text/xml", str(ef.get("/Subtype")))
    failed = [c for c in checks if not c[1]]
    for name, _, detail in failed:
        print(f"FAILED: {name} {detail}")
    print(f"{len(checks)} checks, {len(failed)} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print(__doc__)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2]))
