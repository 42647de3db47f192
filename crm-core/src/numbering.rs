//! Document numbers (API.md §18): the format of each numbered kind's series, and how a
//! number is written from it.
//!
//! A format is text with placeholders: `{YYYY}` (the year of the day of issue), `{YY}` (its
//! last two digits), `{MM}` (the month, two digits) and exactly one `{SEQ:n}` (the sequence
//! number, at least `n` digits, 1 ≤ n ≤ 9). Everything else is written as it is (letters,
//! digits, `-`, `/`, `.`, `_`, `#` and spaces; at most [`FORMAT_MAX_CHARS`] characters).
//!
//! The numbers of one kind whose formats render the same **prefix** for their day (the
//! number with its sequence left out, [`NumberFormat::prefix`]) are one series: one
//! count, without gaps, that the store keeps. With `INV-{YYYY}-{SEQ:5}` the series
//! restarts each year (`INV-2026-00001` … then `INV-2027-00001`); a change of the width
//! alone continues the same count.

use chrono::{Datelike, NaiveDate};
use serde::Serialize;

use crate::input::{Form, Patch, RawValue};
use crate::validation::{FieldErrors, attribute};

/// The longest format, in characters.
pub const FORMAT_MAX_CHARS: usize = 40;

/// The kinds of numbered document, each with its own series.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Series {
    /// Invoices, numbered when issued.
    Invoice,
    /// Estimates, numbered when published.
    Estimate,
    /// Credit notes, numbered when issued.
    CreditNote,
}

impl Series {
    /// Every series.
    pub const ALL: [Series; 3] = [Series::Invoice, Series::Estimate, Series::CreditNote];

    /// `invoice`, `estimate`, `credit_note`: the member of `number_formats`, and the kind
    /// the store keeps the count under.
    pub fn as_str(self) -> &'static str {
        match self {
            Series::Invoice => "invoice",
            Series::Estimate => "estimate",
            Series::CreditNote => "credit_note",
        }
    }

    /// The format of a company that never set one.
    pub fn default_format(self) -> NumberFormat {
        let text = match self {
            Series::Invoice => "INV-{YYYY}-{SEQ:5}",
            Series::Estimate => "EST-{YYYY}-{SEQ:5}",
            Series::CreditNote => "CN-{YYYY}-{SEQ:5}",
        };
        NumberFormat::parse(text).unwrap_or_else(|| unreachable!("the default formats parse"))
    }
}

/// One piece of a format.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Part {
    Text(String),
    Year,
    ShortYear,
    Month,
    Seq(usize),
}

/// A valid number format ([`NumberFormat::parse`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NumberFormat {
    text: String,
    parts: Vec<Part>,
}

impl Serialize for NumberFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// Whether `c` may appear as written in a format.
fn is_literal(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '/' | '.' | '_' | '#' | ' ')
}

impl NumberFormat {
    /// The format `text` writes, or `None` when it is not one (an unknown placeholder, no
    /// or two `{SEQ:n}`, a character outside the allowed ones, too long, blank).
    pub fn parse(text: &str) -> Option<NumberFormat> {
        if text.trim().is_empty() || text.chars().count() > FORMAT_MAX_CHARS {
            return None;
        }
        let mut parts = Vec::new();
        let mut rest = text;
        let mut seqs = 0;
        while !rest.is_empty() {
            if let Some(after) = rest.strip_prefix('{') {
                let end = after.find('}')?;
                let part = match &after[..end] {
                    "YYYY" => Part::Year,
                    "YY" => Part::ShortYear,
                    "MM" => Part::Month,
                    seq => {
                        let width = seq.strip_prefix("SEQ:")?;
                        if width.len() != 1 {
                            return None;
                        }
                        let width: usize = width.parse().ok()?;
                        if width == 0 {
                            return None;
                        }
                        seqs += 1;
                        Part::Seq(width)
                    }
                };
                parts.push(part);
                rest = &after[end + 1..];
            } else {
                let end = rest.find('{').unwrap_or(rest.len());
                let literal = &rest[..end];
                if !literal.chars().all(is_literal) {
                    return None;
                }
                parts.push(Part::Text(literal.to_owned()));
                rest = &rest[end..];
            }
        }
        (seqs == 1).then(|| NumberFormat {
            text: text.to_owned(),
            parts,
        })
    }

    /// The format as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The series a number issued on `day` belongs to: the format rendered for `day` with
    /// `{SEQ}` in place of the sequence (`INV-2026-{SEQ}`).
    pub fn prefix(&self, day: NaiveDate) -> String {
        self.write(day, |out, _| out.push_str("{SEQ}"))
    }

    /// Number `seq` of the series of `day` (`INV-2026-00042`): the sequence zero-padded to
    /// the format's width (longer when it has more digits).
    pub fn render(&self, day: NaiveDate, seq: u64) -> String {
        self.write(day, |out, width| out.push_str(&format!("{seq:0width$}")))
    }

    fn write(&self, day: NaiveDate, seq: impl Fn(&mut String, usize)) -> String {
        let mut out = String::with_capacity(self.text.len() + 8);
        for part in &self.parts {
            match part {
                Part::Text(t) => out.push_str(t),
                Part::Year => out.push_str(&format!("{:04}", day.year())),
                Part::ShortYear => out.push_str(&format!("{:02}", day.year().rem_euclid(100))),
                Part::Month => out.push_str(&format!("{:02}", day.month())),
                Part::Seq(width) => seq(&mut out, *width),
            }
        }
        out
    }
}

/// Reads a number format: "The number formats.invoice must contain one {SEQ:n} (n from 1 to
/// 9), and only {YYYY}, {YY}, {MM}, letters, digits, spaces and - / . _ # besides."
pub fn read_number_format(
    field: &str,
    value: &RawValue,
    errors: &mut FieldErrors,
) -> Option<NumberFormat> {
    let parsed = match value {
        RawValue::Text(s) => NumberFormat::parse(s.trim()),
        _ => None,
    };
    if parsed.is_none() {
        errors.add(field, format_message(field));
    }
    parsed
}

/// The message of a bad format.
fn format_message(field: &str) -> String {
    format!(
        "The {} must contain one {{SEQ:n}} (n from 1 to 9), and only {{YYYY}}, {{YY}}, {{MM}}, \
         letters, digits, spaces and - / . _ # besides, in at most {FORMAT_MAX_CHARS} characters.",
        attribute(field)
    )
}

/// The company's `number_formats`, as the API shows them: each kind's format, its default
/// where none was set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct NumberFormats {
    /// Invoices.
    pub invoice: NumberFormat,
    /// Estimates.
    pub estimate: NumberFormat,
    /// Credit notes.
    pub credit_note: NumberFormat,
}

impl NumberFormats {
    /// The formats set (`None`: the default).
    pub fn shown(set: &StoredFormats) -> NumberFormats {
        NumberFormats {
            invoice: set.of(Series::Invoice),
            estimate: set.of(Series::Estimate),
            credit_note: set.of(Series::CreditNote),
        }
    }
}

/// The formats a company set, each `None` when never set (or cleared).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StoredFormats {
    /// Invoices.
    pub invoice: Option<NumberFormat>,
    /// Estimates.
    pub estimate: Option<NumberFormat>,
    /// Credit notes.
    pub credit_note: Option<NumberFormat>,
}

impl StoredFormats {
    /// The format `series` uses: the one set, else the default.
    pub fn of(&self, series: Series) -> NumberFormat {
        let set = match series {
            Series::Invoice => &self.invoice,
            Series::Estimate => &self.estimate,
            Series::CreditNote => &self.credit_note,
        };
        set.clone().unwrap_or_else(|| series.default_format())
    }
}

/// `number_formats` in `PATCH /company`: the members sent change, `null` or empty sets the
/// default again.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NumberFormatsPatch {
    invoice: Patch<NumberFormat>,
    estimate: Patch<NumberFormat>,
    credit_note: Patch<NumberFormat>,
}

impl NumberFormatsPatch {
    /// Reads `number_formats` from a request (a group: `null` clears every member).
    pub fn read(form: &mut Form<'_>) -> NumberFormatsPatch {
        let mut out = NumberFormatsPatch::default();
        crate::party::group(form, "number_formats", |sub, cleared| {
            if cleared {
                out = NumberFormatsPatch {
                    invoice: Patch::Clear,
                    estimate: Patch::Clear,
                    credit_note: Patch::Clear,
                };
                return;
            }
            out.invoice = sub.patch("invoice", read_number_format);
            out.estimate = sub.patch("estimate", read_number_format);
            out.credit_note = sub.patch("credit_note", read_number_format);
        });
        out
    }

    /// The formats after this patch.
    pub fn apply(&self, s: StoredFormats) -> StoredFormats {
        StoredFormats {
            invoice: self.invoice.apply_ref(s.invoice),
            estimate: self.estimate.apply_ref(s.estimate),
            credit_note: self.credit_note.apply_ref(s.credit_note),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{msg, raw_values};

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn the_defaults_number_by_year_with_five_digits() {
        let f = Series::Invoice.default_format();
        assert_eq!(f.render(day(2026, 11, 28), 42), "INV-2026-00042");
        assert_eq!(f.prefix(day(2026, 11, 28)), "INV-2026-{SEQ}");
        assert_eq!(f.prefix(day(2027, 1, 1)), "INV-2027-{SEQ}");
        assert_eq!(f.render(day(2026, 1, 1), 123_456), "INV-2026-123456");
        assert_eq!(
            Series::CreditNote
                .default_format()
                .render(day(2026, 3, 1), 1),
            "CN-2026-00001"
        );
        assert_eq!(
            Series::Estimate.default_format().render(day(2026, 3, 1), 7),
            "EST-2026-00007"
        );
    }

    #[test]
    fn placeholders_render_the_day_and_a_width_change_keeps_the_series() {
        let f = NumberFormat::parse("R{YY}{MM}/{SEQ:3}").unwrap();
        assert_eq!(f.render(day(2009, 2, 3), 5), "R0902/005");
        assert_eq!(f.prefix(day(2009, 2, 3)), "R0902/{SEQ}");
        let wider = NumberFormat::parse("R{YY}{MM}/{SEQ:6}").unwrap();
        assert_eq!(wider.prefix(day(2009, 2, 3)), f.prefix(day(2009, 2, 3)));
        let plain = NumberFormat::parse("{SEQ:1}").unwrap();
        assert_eq!(plain.render(day(2026, 1, 1), 10), "10");
    }

    #[test]
    fn bad_formats_are_refused() {
        for bad in [
            "",
            "   ",
            "INV-{YYYY}",
            "{SEQ:2}-{SEQ:3}",
            "{SEQ:0}",
            "{SEQ:10}",
            "{SEQ}",
            "{DD}-{SEQ:2}",
            "INV-{SEQ:2",
            "INV}{SEQ:2}",
            "<b>{SEQ:2}</b>",
            "ÄÖ-{SEQ:2}",
            "INV-{SEQ:4}-012345678901234567890123456789",
        ] {
            assert_eq!(NumberFormat::parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn a_patch_sets_the_members_sent_and_null_restores_the_default() {
        let raw = raw_values(&[(
            "number_formats",
            RawValue::Map(
                [
                    ("invoice", RawValue::text("F{YYYY}{SEQ:4}")),
                    ("estimate", RawValue::Null),
                ]
                .into_iter()
                .collect(),
            ),
        )]);
        let mut form = Form::new(&raw);
        let patch = NumberFormatsPatch::read(&mut form);
        assert!(form.finish().is_ok());
        let before = StoredFormats {
            estimate: NumberFormat::parse("E{SEQ:2}"),
            credit_note: NumberFormat::parse("C{SEQ:2}"),
            ..StoredFormats::default()
        };
        let after = patch.apply(before);
        let shown = NumberFormats::shown(&after);
        assert_eq!(shown.invoice.as_str(), "F{YYYY}{SEQ:4}");
        assert_eq!(shown.estimate.as_str(), "EST-{YYYY}-{SEQ:5}");
        assert_eq!(shown.credit_note.as_str(), "C{SEQ:2}");

        let raw = raw_values(&[(
            "number_formats",
            RawValue::Map([("invoice", RawValue::text("INV"))].into_iter().collect()),
        )]);
        let mut form = Form::new(&raw);
        NumberFormatsPatch::read(&mut form);
        let errors = form.finish().unwrap_err().errors;
        assert_eq!(
            msg(&errors, "number_formats.invoice"),
            [
                "The number formats.invoice must contain one {SEQ:n} (n from 1 to 9), and only \
                 {YYYY}, {YY}, {MM}, letters, digits, spaces and - / . _ # besides, in at most 40 \
                 characters."
            ]
        );
    }
}
