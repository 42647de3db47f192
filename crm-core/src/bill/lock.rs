//! What may still change on a bill (API.md §18): an issued invoice (one with a number) and
//! an estimate the client accepted keep what was issued or agreed — their lines, taxes,
//! discount, adjustment, client, dates, currency and exchange rate — and are never deleted. Notes, terms, tags,
//! category, project and the client link may still change. A mistake on an issued invoice
//! is corrected by a credit note.

use chrono::NaiveDate;

use super::TotalsHeader;
use crate::conflict::Conflict;

/// How far a stored bill may change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lock {
    /// Anything may change (a draft, an invoice not yet issued, an estimate not accepted).
    Open,
    /// An issued invoice.
    Issued,
    /// An accepted estimate.
    Accepted,
}

/// The header fields a lock keeps (the lines and taxes are kept whole: any write of them
/// is refused).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Terms {
    /// `bill_date`.
    pub date: NaiveDate,
    /// The second date (due or expiry date).
    pub end_date: Option<NaiveDate>,
    /// Tax mode, header discount, adjustment amount, currency and exchange rate.
    pub totals: TotalsHeader,
    /// The adjustment's description.
    pub adjustment_description: Option<String>,
}

impl Lock {
    /// Whether the lines, taxes or kept header fields may change: the conflict otherwise.
    pub fn check_change(self) -> Result<(), Conflict> {
        match self {
            Lock::Open => Ok(()),
            Lock::Issued => Err(Conflict::IssuedInvoiceChanged),
            Lock::Accepted => Err(Conflict::AcceptedEstimateChanged),
        }
    }

    /// Whether the bill may be deleted.
    pub fn check_delete(self) -> Result<(), Conflict> {
        match self {
            Lock::Open => Ok(()),
            Lock::Issued => Err(Conflict::IssuedInvoiceDeleted),
            Lock::Accepted => Err(Conflict::AcceptedEstimateChanged),
        }
    }

    /// Whether a header write from `before` to `after` may happen: always when open, and
    /// on a locked bill when it keeps every kept field as it is (so that a PATCH of the
    /// notes, sending the other fields unchanged, is allowed).
    pub fn check_update(self, before: &Terms, after: &Terms) -> Result<(), Conflict> {
        if before == after {
            Ok(())
        } else {
            self.check_change()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::currency::{Currency, Exchange};
    use crate::money::Money;
    use crate::totals::{HeaderDiscount, TaxMode};

    fn terms(adjustment: &str) -> Terms {
        Terms {
            date: NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
            end_date: NaiveDate::from_ymd_opt(2026, 12, 1),
            totals: TotalsHeader {
                tax_type: TaxMode::Summary,
                discount: HeaderDiscount::None,
                adjustment: Money::parse(adjustment).unwrap(),
                currency: Currency::EUR,
                exchange: None,
            },
            adjustment_description: None,
        }
    }

    #[test]
    fn a_locked_bill_keeps_its_terms_and_takes_a_write_that_keeps_them() {
        let (a, b) = (terms("0"), terms("1.00"));
        for lock in [Lock::Open, Lock::Issued, Lock::Accepted] {
            assert_eq!(lock.check_update(&a, &a), Ok(()));
        }
        assert_eq!(Lock::Open.check_update(&a, &b), Ok(()));
        assert_eq!(
            Lock::Issued.check_update(&a, &b),
            Err(Conflict::IssuedInvoiceChanged)
        );
        assert_eq!(
            Lock::Accepted.check_update(&a, &b),
            Err(Conflict::AcceptedEstimateChanged)
        );
        // The currency and the exchange rate are kept like the amounts.
        let mut yen = a.clone();
        yen.totals.currency = Currency::from_code("JPY").unwrap();
        assert_eq!(
            Lock::Issued.check_update(&a, &yen),
            Err(Conflict::IssuedInvoiceChanged)
        );
        let mut rated = yen.clone();
        rated.totals.exchange = Some(Exchange {
            rate: "0.0061".parse().unwrap(),
            to: Currency::EUR,
        });
        assert_eq!(
            Lock::Accepted.check_update(&yen, &rated),
            Err(Conflict::AcceptedEstimateChanged)
        );
        assert_eq!(
            Lock::Issued.check_delete(),
            Err(Conflict::IssuedInvoiceDeleted)
        );
        assert_eq!(
            Conflict::IssuedInvoiceDeleted.message(),
            "An issued invoice cannot be deleted. Issue a credit note instead."
        );
        assert_eq!(
            Conflict::IssuedInvoiceChanged.message(),
            "An issued invoice cannot be changed. Issue a credit note instead."
        );
        assert_eq!(
            Conflict::AcceptedEstimateChanged.message(),
            "An accepted estimate cannot be changed."
        );
    }
}
