//! Bad decimal values: money amounts, percentages, quantities and rates — texts that are not
//! numbers, too many decimals, values out of range, and numbers too long to read cheaply.

use super::{Bads, text};
use crate::sweep::body::{ALL, Expect, JSON, raw};
use crate::sweep::msg;

/// A money amount (2 decimals, below 10^13); `non_negative` when it must not be below 0.
pub fn money(b: &mut Bads<'_>, non_negative: bool) {
    let f = b.f;
    let low = if non_negative {
        "0"
    } else {
        "-9999999999999.99"
    };
    let range = msg::between(f, low, "9999999999999.99");
    for t in [
        "abc",
        "NaN",
        "Infinity",
        "-Infinity",
        "0x10",
        "1,5",
        "--1",
        "1.2.3",
        "١٢",
        "1e",
        "e5",
        ".",
    ] {
        b.one(format!("money {t}"), text(t), ALL, msg::numeric(f));
    }
    b.one("3 decimals", text("1.005"), ALL, msg::decimals(f, 2));
    b.one("3 decimals number", raw("1.005"), JSON, msg::decimals(f, 2));
    b.one("1e-400", text("1e-400"), ALL, msg::decimals(f, 2));
    for t in ["1e9999", "10000000000000", "99999999999999999999999"] {
        b.one(format!("money {t}"), text(t), ALL, range.clone());
    }
    for n in ["1e400", "99999999999999999999999", "-1e20"] {
        b.one(format!("number {n}"), raw(n), JSON, range.clone());
    }
    huge(b, 2, &range);
    let huge_exponent = text("1e99999999999999999999");
    b.one("huge exponent", huge_exponent, ALL, range.clone());
    if non_negative {
        b.one("negative", text("-1"), ALL, msg::at_least(f, "0"));
        b.one("negative cent", raw("-0.01"), JSON, msg::at_least(f, "0"));
    } else {
        b.one("money -1e20", text("-1e20"), ALL, range);
    }
}

/// A money amount that must be more than 0 (a payment): 2 decimals, below 10^13.
pub fn positive_money(b: &mut Bads<'_>) {
    let f = b.f;
    for t in ["0", "-1", "0.00", "-0", "-0.01", "-1e20"] {
        b.one(
            format!("amount {t}"),
            text(t),
            ALL,
            msg::greater_than_zero(f),
        );
    }
    for n in ["0", "-2.5"] {
        b.one(
            format!("number {n}"),
            raw(n),
            JSON,
            msg::greater_than_zero(f),
        );
    }
    b.one("3 decimals", text("1.005"), ALL, msg::decimals(f, 2));
    b.one("3 decimals number", raw("1.005"), JSON, msg::decimals(f, 2));
    let too_big = msg::at_most(f, "9999999999999.99");
    for t in ["10000000000000", "1e9999", "99999999999999999999999"] {
        b.one(format!("amount {t}"), text(t), ALL, too_big.clone());
    }
    for n in ["1e400", "99999999999999999999999"] {
        b.one(format!("number {n}"), raw(n), JSON, too_big.clone());
    }
    huge(b, 2, &too_big);
    for t in ["abc", "NaN", "Infinity", "0x10", "1,5", "١٢", "."] {
        b.one(format!("amount {t}"), text(t), ALL, msg::numeric(f));
    }
}

/// A JSON number of 100,000 digits (out of range: `range`), and a text of 100,000 decimals
/// (more than `decimals`).
fn huge(b: &mut Bads<'_>, decimals: u32, range: &str) {
    let f = b.f;
    let digits = raw(&"9".repeat(100_000));
    b.one("100000 digits", digits, JSON, range.to_owned());
    let tiny = text(&format!("0.{}1", "0".repeat(100_000)));
    b.one("100000 decimals", tiny, ALL, msg::decimals(f, decimals));
}

/// A percentage from 0 to 100 (2 decimals).
pub fn percents(b: &mut Bads<'_>) {
    let f = b.f;
    let range = msg::between(f, "0", "100");
    for t in ["100.01", "101", "-1", "-0.01", "1e9999", "-1e20"] {
        b.one(format!("percent {t}"), text(t), ALL, range.clone());
    }
    b.one("number 1e400", raw("1e400"), JSON, range.clone());
    b.one("number -5", raw("-5"), JSON, range);
    b.one("3 decimals", text("1.005"), ALL, msg::decimals(f, 2));
    for t in ["abc", "NaN", "Infinity", "0x10", "50%"] {
        b.one(format!("percent {t}"), text(t), ALL, msg::numeric(f));
    }
}

/// A quantity or unit rate: above 0, 4 decimals, below 10^11.
pub fn positives(b: &mut Bads<'_>) {
    let f = b.f;
    for t in ["0", "-1", "0.0000", "-0", "-0.0001"] {
        b.one(
            format!("value {t}"),
            text(t),
            ALL,
            msg::greater_than_zero(f),
        );
    }
    for n in ["0", "-2.5"] {
        b.one(
            format!("number {n}"),
            raw(n),
            JSON,
            msg::greater_than_zero(f),
        );
    }
    b.one("5 decimals", text("1.00001"), ALL, msg::decimals(f, 4));
    let too_big = msg::at_most(f, "99999999999.9999");
    for t in ["1e20", "100000000000", "1e9999"] {
        b.one(format!("value {t}"), text(t), ALL, too_big.clone());
    }
    for n in ["1e400", "99999999999999999999999"] {
        b.one(format!("number {n}"), raw(n), JSON, too_big.clone());
    }
    huge(b, 4, &too_big);
    // Below zero and past the range at once: the field fails, whichever message comes first.
    let either = Expect::Invalid(vec![(f.to_owned(), None)]);
    b.other("value -1e20", text("-1e20"), ALL, either);
    for t in ["abc", "NaN", "Infinity", "0x10", "two"] {
        b.one(format!("value {t}"), text(t), ALL, msg::numeric(f));
    }
}

/// An exchange rate (API.md §18): above 0, 6 decimals, below 10^9.
pub fn exchange_rates(b: &mut Bads<'_>) {
    let f = b.f;
    for t in ["0", "-1", "0.000000", "-0", "-0.000001"] {
        b.one(format!("rate {t}"), text(t), ALL, msg::greater_than_zero(f));
    }
    b.one("number 0", raw("0"), JSON, msg::greater_than_zero(f));
    b.one("7 decimals", text("1.0000001"), ALL, msg::decimals(f, 6));
    b.one(
        "7 decimals number",
        raw("0.0000001"),
        JSON,
        msg::decimals(f, 6),
    );
    let too_big = msg::at_most(f, "999999999.999999");
    for t in ["1000000000", "1e9", "1e9999"] {
        b.one(format!("rate {t}"), text(t), ALL, too_big.clone());
    }
    b.one("number 1e400", raw("1e400"), JSON, too_big.clone());
    huge(b, 6, &too_big);
    let either = Expect::Invalid(vec![(f.to_owned(), None)]);
    b.other("rate -1e20", text("-1e20"), ALL, either);
    for t in ["abc", "NaN", "Infinity", "0x10", "1,5"] {
        b.one(format!("rate {t}"), text(t), ALL, msg::numeric(f));
    }
}
