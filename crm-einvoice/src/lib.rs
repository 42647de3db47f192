//! EN 16931 e-invoices of issued invoices and credit notes (API.md §19).
//!
//! - [`model`]: the semantic model, by business term (BT-) and group (BG-);
//! - [`build()`]: from an issued document (and the tax rates it names) to the model, or
//!   every business term it lacks and every figure EN 16931 cannot state exactly, as
//!   [`Missing`] entries (the readiness check and the 422 of an export are this list);
//! - [`ubl`] and [`cii`]: the two syntaxes, written with `quick-xml`, for the formats of
//!   [`Format`] (CEN EN 16931, Peppol BIS Billing 3.0, XRechnung 3.0).
//!
//! Pure: it depends on crm-core only, reads no clock and does no I/O. Every amount in the
//! XML is a figure the API computed and stored: [`build()`] checks them against the VAT-mode
//! arithmetic with zero tolerance and refuses, naming the figure, when they differ.
//!
//! ```
//! use crm_einvoice::Format;
//! assert_eq!(Format::from_name("xrechnung"), Some(Format::Xrechnung));
//! assert_eq!(Format::Peppol.media_type(), "application/xml");
//! assert_eq!(Format::Peppol.file_name("INV 7"), "INV_7-peppol.xml");
//! // Factur-X is a PDF that carries the CII XML.
//! assert_eq!(Format::Facturx.media_type(), "application/pdf");
//! assert_eq!(Format::Facturx.file_name("INV-0007"), "INV-0007-facturx.pdf");
//! ```

pub mod build;
pub mod cii;
pub mod facturx;
pub mod model;
pub mod ubl;
pub mod units;
mod xml;

use serde::Serialize;

pub use build::{Rates, Source, build};
pub use model::Document;

/// An e-invoice format of API.md §19.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    /// EN 16931 in UBL 2.1 (Invoice / CreditNote).
    Ubl,
    /// EN 16931 in UN/CEFACT CII D16B.
    Cii,
    /// Peppol BIS Billing 3.0 (UBL).
    Peppol,
    /// XRechnung 3.0 in UBL.
    Xrechnung,
    /// XRechnung 3.0 in CII.
    XrechnungCii,
    /// Factur-X 1.0 (ZUGFeRD 2), profile EN 16931: a PDF/A-3 of the document carrying the
    /// CII XML as `factur-x.xml` ([`facturx`]).
    Facturx,
}

/// The two syntaxes of EN 16931.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Syntax {
    /// UBL 2.1.
    Ubl,
    /// UN/CEFACT Cross Industry Invoice.
    Cii,
}

impl Format {
    /// Every format, in the order the API documents them.
    pub const ALL: [Format; 6] = [
        Format::Ubl,
        Format::Cii,
        Format::Peppol,
        Format::Xrechnung,
        Format::XrechnungCii,
        Format::Facturx,
    ];

    /// Its name in `?format=`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Ubl => "ubl",
            Format::Cii => "cii",
            Format::Peppol => "peppol",
            Format::Xrechnung => "xrechnung",
            Format::XrechnungCii => "xrechnung-cii",
            Format::Facturx => "facturx",
        }
    }

    /// What a person calls it (the client's page offers the download under this name).
    pub fn label(self) -> &'static str {
        match self {
            Format::Ubl => "EN 16931 UBL XML",
            Format::Cii => "EN 16931 CII XML",
            Format::Peppol => "Peppol BIS Billing 3.0 XML",
            Format::Xrechnung => "XRechnung XML (UBL)",
            Format::XrechnungCii => "XRechnung XML (CII)",
            Format::Facturx => "Factur-X PDF",
        }
    }

    /// The format named `name`.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Its syntax.
    pub fn syntax(self) -> Syntax {
        match self {
            Format::Ubl | Format::Peppol | Format::Xrechnung => Syntax::Ubl,
            Format::Cii | Format::XrechnungCii | Format::Facturx => Syntax::Cii,
        }
    }

    /// The specification identifier (BT-24).
    pub fn customization_id(self) -> &'static str {
        match self {
            Format::Ubl | Format::Cii | Format::Facturx => "urn:cen.eu:en16931:2017",
            Format::Peppol => {
                "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0"
            }
            Format::Xrechnung | Format::XrechnungCii => {
                "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0"
            }
        }
    }

    /// The business process (BT-23), where the format states one.
    pub fn profile_id(self) -> Option<&'static str> {
        match self {
            Format::Ubl | Format::Cii | Format::Facturx => None,
            Format::Peppol | Format::Xrechnung | Format::XrechnungCii => {
                Some("urn:fdc:peppol.eu:2017:poacc:billing:01:1.0")
            }
        }
    }

    /// The media type of the export: XML, or for Factur-X the PDF that carries it.
    pub fn media_type(self) -> &'static str {
        match self {
            Format::Facturx => "application/pdf",
            _ => "application/xml",
        }
    }

    /// The file name of `number`'s export.
    pub fn file_name(self, number: &str) -> String {
        let safe: String = number
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        let extension = match self {
            Format::Facturx => "pdf",
            _ => "xml",
        };
        format!("{safe}-{}.{extension}", self.name())
    }

    /// Whether both parties need an electronic address (BT-34, BT-49).
    pub fn needs_endpoints(self) -> bool {
        matches!(
            self,
            Format::Peppol | Format::Xrechnung | Format::XrechnungCii
        )
    }

    /// Whether the buyer reference (BT-10) is required.
    pub fn needs_buyer_reference(self) -> bool {
        matches!(
            self,
            Format::Peppol | Format::Xrechnung | Format::XrechnungCii
        )
    }

    /// Whether the German rules (BR-DE-*) apply.
    pub fn is_xrechnung(self) -> bool {
        matches!(self, Format::Xrechnung | Format::XrechnungCii)
    }
}

/// One thing that keeps a document from being exported: a business term the records lack,
/// or a figure EN 16931 cannot state as the API computed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Missing {
    /// The business term (`BT-48`) or group (`BG-16`).
    pub term: &'static str,
    /// Where in the API the value lives (`client.vat_id`, `line_items[2].total`).
    pub field: String,
    /// What is wrong and how to mend it.
    pub message: String,
}

/// Writes `document` in `format` (its syntax and specification identifier): for
/// [`Format::Facturx`], the CII XML that its PDF carries.
pub fn write(document: &Document, format: Format) -> Result<Vec<u8>, std::io::Error> {
    match format.syntax() {
        Syntax::Ubl => ubl::write(document, format),
        Syntax::Cii => cii::write(document, format),
    }
}
