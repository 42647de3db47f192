//! The total rows of a document: those that are not zero (subtotal, discount, each tax,
//! adjustment), labelled; the final amount is separate.
//!
//! In summary mode the discount (shown negative) and the taxes apply to the subtotal. In
//! inline mode the lines' totals, and so the subtotal, already include their discounts and
//! taxes (TOTALS.md), so those rows say "included", the discount is the positive amount it
//! was, and the rows still add up to the total (docs/decisions.md, "The outbox").
//!
//! A tax is labelled by its name and rate once: `VAT 20%`, never `VAT 20% (20.00%)`; a
//! name that already states the rate is used as it is.

use super::TotalRow;
use crm_core::bill::{BillTotals, LineItem, TaxRecord};
use crm_core::money::{Decimal, Money, Percent};
use crm_core::totals::{DiscountKind, TaxMode};

/// The rows to show, in order.
pub(super) fn rows(
    mode: TaxMode,
    lines: &[LineItem],
    taxes: &[TaxRecord],
    t: &BillTotals,
) -> Vec<TotalRow> {
    let mut rows = Vec::new();
    let mut push = |label: String, amount: Money| {
        if !amount.get().is_zero() {
            rows.push(TotalRow {
                label,
                amount: crate::money::amount(t.currency, amount),
            });
        }
    };
    push("Subtotal".to_owned(), t.figures.subtotal);
    match mode {
        TaxMode::Summary => {
            let label = match t.figures.discount_type {
                DiscountKind::Percentage => {
                    format!("Discount {}%", rate_text(t.figures.discount_percentage))
                }
                DiscountKind::None | DiscountKind::Fixed => "Discount".to_owned(),
            };
            let negative =
                Money::new(-t.figures.discount_amount.get()).unwrap_or(t.figures.discount_amount);
            push(label, negative);
        }
        TaxMode::Inline => push("Discounts included".to_owned(), t.figures.discount_amount),
        TaxMode::Vat => {
            let negative =
                Money::new(-t.figures.discount_amount.get()).unwrap_or(t.figures.discount_amount);
            push("Discount".to_owned(), negative);
        }
    }
    for (label, amount) in tax_rows(mode, lines, taxes, t) {
        push(label, amount);
    }
    let adjustment = match t
        .adjustment_description
        .as_deref()
        .map(crate::text::one_line)
    {
        Some(d) if !d.is_empty() => format!("Adjustment ({d})"),
        _ => "Adjustment".to_owned(),
    };
    push(adjustment, t.figures.adjustment_amount);
    rows
}

/// One row per tax. A summary tax applies to the amount before tax (rounded half away
/// from zero to the currency's minor unit, so a row may differ from the stored exact total
/// by one unit); an
/// inline tax is the tax part of the lines carrying it, `total × rate / (100 + rate)`,
/// grouped by label in order of first appearance.
fn tax_rows(
    mode: TaxMode,
    lines: &[LineItem],
    taxes: &[TaxRecord],
    t: &BillTotals,
) -> Vec<(String, Money)> {
    let hundred = Decimal::ONE_HUNDRED;
    match mode {
        TaxMode::Summary => taxes
            .iter()
            .filter(|tax| tax.lineitem_id.is_none())
            .map(|tax| {
                let amount = Money::round_to(
                    t.figures.amount_before_tax.get() * tax.rate.get() / hundred,
                    t.currency.minor_units(),
                );
                (
                    tax_label(&tax.name, tax.rate),
                    amount.unwrap_or(Money::ZERO),
                )
            })
            .collect(),
        // The API's own breakdown: VAT per category and rate on its taxable amount.
        TaxMode::Vat => t
            .tax_breakdown
            .iter()
            .flatten()
            .map(|row| {
                let base = crate::money::amount(t.currency, row.base);
                let label = match row.category {
                    crm_core::tax_rate::VatCategory::S => {
                        format!("VAT {}% on {base}", rate_text(row.rate))
                    }
                    other => format!("VAT {} {}% on {base}", other.as_str(), rate_text(row.rate)),
                };
                (label, row.amount)
            })
            .collect(),
        TaxMode::Inline => {
            let mut grouped: Vec<(String, Decimal)> = Vec::new();
            for tax in taxes {
                let Some(line) = lines.iter().find(|l| Some(l.id) == tax.lineitem_id) else {
                    continue;
                };
                let rate = tax.rate.get();
                let part = line.total.money.get() * rate / (hundred + rate);
                let label = format!("{} included", tax_label(&tax.name, tax.rate));
                match grouped.iter_mut().find(|(l, _)| *l == label) {
                    Some((_, sum)) => *sum += part,
                    None => grouped.push((label, part)),
                }
            }
            grouped
                .into_iter()
                .map(|(label, sum)| {
                    let amount =
                        Money::round_to(sum, t.currency.minor_units()).unwrap_or(Money::ZERO);
                    (label, amount)
                })
                .collect()
        }
    }
}

/// `VAT 20%` from a tax named `VAT` or `VAT 20%` at 20.00; `VAT 19% (20%)` when the name
/// states another rate; `Tax 20%` for a blank name.
pub(super) fn tax_label(name: &str, rate: Percent) -> String {
    let name = crate::text::one_line(name);
    let stated = stated_rates(&name);
    let rate_text = rate_text(rate);
    if stated.contains(&rate.get()) {
        name
    } else if !stated.is_empty() {
        format!("{name} ({rate_text}%)")
    } else if name.is_empty() {
        format!("Tax {rate_text}%")
    } else {
        format!("{name} {rate_text}%")
    }
}

/// `20`, `12.5`: a rate without its trailing zeros, as people write it in a label (the
/// rate is a label's part here, not a figure of the totals).
fn rate_text(rate: Percent) -> String {
    rate.get().normalize().to_string()
}

/// The percentages a name states: each number (`20`, `12.5`, `12,5`) followed by `%`,
/// spaces allowed between.
fn stated_rates(name: &str) -> Vec<Decimal> {
    let chars: Vec<char> = name.chars().collect();
    let mut rates = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < chars.len() && (chars[i].is_ascii_digit() || matches!(chars[i], '.' | ',')) {
            i += 1;
        }
        let number: String = chars[start..i]
            .iter()
            .map(|c| if *c == ',' { '.' } else { *c })
            .collect();
        let mut j = i;
        while j < chars.len() && chars[j] == ' ' {
            j += 1;
        }
        if chars.get(j) == Some(&'%')
            && let Ok(rate) = number.trim_end_matches('.').parse::<Decimal>()
        {
            rates.push(rate);
        }
    }
    rates
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pct(s: &str) -> Percent {
        s.parse().unwrap()
    }

    #[test]
    fn a_tax_label_states_the_rate_once() {
        assert_eq!(tax_label("VAT 20%", pct("20.00")), "VAT 20%");
        assert_eq!(tax_label("VAT", pct("20.00")), "VAT 20%");
        assert_eq!(tax_label("GST 12,5 %", pct("12.50")), "GST 12,5 %");
        assert_eq!(tax_label("Sales tax", pct("7.25")), "Sales tax 7.25%");
    }

    #[test]
    fn a_name_stating_another_rate_keeps_both() {
        assert_eq!(tax_label("VAT 19%", pct("20.00")), "VAT 19% (20%)");
    }

    #[test]
    fn a_blank_tax_name_reads_tax() {
        assert_eq!(tax_label("  ", pct("5.00")), "Tax 5%");
    }

    #[test]
    fn numbers_not_followed_by_percent_are_not_rates() {
        assert!(stated_rates("Zone 20 tax").is_empty());
        assert_eq!(
            stated_rates("A 5% and 7.5 %"),
            vec![
                "5".parse::<Decimal>().unwrap(),
                "7.5".parse::<Decimal>().unwrap()
            ]
        );
    }
}
