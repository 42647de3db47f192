//! A thin layer over `quick-xml`'s writer: elements with text (escaped by quick-xml),
//! attributes, and the amount and date forms EN 16931 uses.

use std::io;

use chrono::NaiveDate;
use crm_core::money::Money;
use quick_xml::Writer;
use quick_xml::events::{BytesDecl, BytesEnd, BytesStart, BytesText, Event};

/// An XML document being written.
pub(crate) struct Xml {
    w: Writer<Vec<u8>>,
}

impl Xml {
    /// A document with its declaration written.
    pub(crate) fn new() -> io::Result<Xml> {
        let mut w = Writer::new_with_indent(Vec::with_capacity(16 * 1024), b' ', 2);
        w.write_event(Event::Decl(BytesDecl::new("1.0", Some("UTF-8"), None)))?;
        Ok(Xml { w })
    }

    /// Opens `name` with `attrs`.
    pub(crate) fn open(&mut self, name: &str, attrs: &[(&str, &str)]) -> io::Result<()> {
        let mut start = BytesStart::new(name);
        for (k, v) in attrs {
            start.push_attribute((*k, *v));
        }
        self.w.write_event(Event::Start(start))
    }

    /// Closes `name`.
    pub(crate) fn close(&mut self, name: &str) -> io::Result<()> {
        self.w.write_event(Event::End(BytesEnd::new(name)))
    }

    /// `<name attrs>text</name>`.
    pub(crate) fn leaf_with(
        &mut self,
        name: &str,
        attrs: &[(&str, &str)],
        text: &str,
    ) -> io::Result<()> {
        self.open(name, attrs)?;
        self.w.write_event(Event::Text(BytesText::new(text)))?;
        self.close(name)
    }

    /// `<name>text</name>`.
    pub(crate) fn leaf(&mut self, name: &str, text: &str) -> io::Result<()> {
        self.leaf_with(name, &[], text)
    }

    /// `<name>text</name>` when there is a text.
    pub(crate) fn opt(&mut self, name: &str, text: Option<&str>) -> io::Result<()> {
        match text {
            Some(t) => self.leaf(name, t),
            None => Ok(()),
        }
    }

    /// The bytes written.
    pub(crate) fn finish(self) -> Vec<u8> {
        let mut bytes = self.w.into_inner();
        bytes.push(b'\n');
        bytes
    }
}

/// An amount as EN 16931 writes it: its decimals as stored (at most 2, checked when the
/// model was built), at least the 2 of a cent for currencies that have them.
pub(crate) fn amount(money: Money, minor: u32) -> String {
    let mut d = money.get().normalize();
    let scale = minor.min(2);
    if d.scale() < scale {
        d.rescale(scale);
    }
    d.to_string()
}

/// A decimal (quantity, price, percentage) without trailing zeros.
pub(crate) fn decimal(value: rust_decimal::Decimal) -> String {
    value.normalize().to_string()
}

/// `YYYY-MM-DD` (UBL).
pub(crate) fn iso_date(date: NaiveDate) -> String {
    date.format("%Y-%m-%d").to_string()
}

/// `YYYYMMDD` (CII format 102).
pub(crate) fn cii_date(date: NaiveDate) -> String {
    date.format("%Y%m%d").to_string()
}
