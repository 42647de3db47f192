//! Bill headers (estimates and invoices, one implementation for both kinds, [`Kind`]):
//! create, update (with the totals-related rules), clone.
//!
//! The kinds differ only in their second date (`bill_expiry_date` / `bill_due_date`, on or
//! after `bill_date`), their category type, an invoice's default due date on create, and
//! what a clone takes from the request (an invoice clone copies its category and needs its
//! due date).
//!
//! PATCH semantics: `bill_categoryid` and `bill_date` are required; other fields absent are
//! kept, sent empty are cleared (`bill_adjustment_amount` cleared is `0.00`). Changing
//! `bill_tax_type` clears the stored taxes and header discount (and, to `inline`, the
//! lines' tax rates; to `summary`, the lines' discounts), as the CRM does; a discount sent
//! in the same request then applies. In inline mode the header discount must be `none`.
//!
//! Currency (API.md §18): `bill_currency` (default the client's, else the company's, else
//! `EUR`) decides how many decimals the amounts may have; the fixed discount and the
//! adjustment are read as [`MoneyInput`] and checked against it once it is known (on
//! create from the defaults, on PATCH from the request or the stored one).
//! `bill_exchange_rate` may be set only when the currency is not the company's; a change
//! of currency drops a stored rate unless the same request gives one.

use std::marker::PhantomData;

use chrono::NaiveDate;

use super::{EstimateKind, Kind};
use crate::currency::{Currency, Exchange, read_document_currency, same_currency_rate_error};
use crate::ids::{CategoryId, ClientId, ProjectId};
use crate::input::{
    Choice, Form, Patch, RawMap, TextRule, read_choice, read_date, read_exchange_rate,
    read_money_input, read_money_input_non_negative, read_percent_0_100, text,
};
use crate::money::{ExchangeRate, Money, MoneyInput, Percent};
use crate::totals::{DiscountKind, HeaderDiscount, TaxMode};
use crate::validation::{FieldErrors, RefKind, References, Rejected, message};

impl Choice for TaxMode {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("summary", TaxMode::Summary),
        ("inline", TaxMode::Inline),
        ("vat", TaxMode::Vat),
    ];
}

impl Choice for DiscountKind {
    const CHOICES: &'static [(&'static str, Self)] = &[
        ("none", DiscountKind::None),
        ("fixed", DiscountKind::Fixed),
        ("percentage", DiscountKind::Percentage),
    ];
}

impl TaxMode {
    /// The mode's text (`summary`, `inline`, `vat`).
    pub fn as_str(self) -> &'static str {
        match self {
            TaxMode::Summary => "summary",
            TaxMode::Inline => "inline",
            TaxMode::Vat => "vat",
        }
    }
}

impl DiscountKind {
    /// The kind's text (`none`, `fixed`, `percentage`).
    pub fn as_str(self) -> &'static str {
        match self {
            DiscountKind::None => "none",
            DiscountKind::Fixed => "fixed",
            DiscountKind::Percentage => "percentage",
        }
    }
}

/// The kind's second date (`bill_expiry_date`, `bill_due_date`) must be on or after
/// `bill_date`.
pub fn check_end_date<K: Kind>(
    date: NaiveDate,
    end_date: Option<NaiveDate>,
) -> Result<(), FieldErrors> {
    match end_date {
        Some(e) if e < date => Err(FieldErrors::single(
            K::END_DATE,
            message::after_or_equal(K::END_DATE, "bill_date"),
        )),
        _ => Ok(()),
    }
}

/// The header fields shared by create and clone.
struct Basics {
    client: Option<ClientId>,
    category: Option<CategoryId>,
    date: Option<NaiveDate>,
    end_date: Option<NaiveDate>,
    project: Option<ProjectId>,
}

/// Reads client, category (unless `with_category` is false), date, the kind's second date
/// (required when `end_date_required`) and project.
fn read_basics<K: Kind>(
    form: &mut Form<'_>,
    with_category: bool,
    end_date_required: bool,
) -> Basics {
    let client = form
        .required_ref("bill_clientid", RefKind::Client)
        .and_then(ClientId::new);
    let category = if with_category {
        form.required_ref("bill_categoryid", RefKind::Category(K::CATEGORY))
            .and_then(CategoryId::new)
    } else {
        None
    };
    let date = form.required("bill_date", read_date);
    let end_date = if end_date_required {
        form.required(K::END_DATE, read_date)
    } else {
        form.optional(K::END_DATE, read_date)
    };
    if let (Some(d), Some(_)) = (date, end_date)
        && check_end_date::<K>(d, end_date).is_err()
    {
        form.error(
            K::END_DATE,
            message::after_or_equal(K::END_DATE, "bill_date"),
        );
    }
    let project = form
        .optional_ref("bill_projectid", RefKind::Project)
        .and_then(ProjectId::new);
    Basics {
        client,
        category,
        date,
        end_date,
        project,
    }
}

/// `POST /estimates`, `POST /invoices`: an empty header (status draft).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewBill<K> {
    /// `bill_clientid`.
    pub client: ClientId,
    /// `bill_categoryid` (a category of the kind's type).
    pub category: CategoryId,
    /// `bill_date`.
    pub date: NaiveDate,
    /// `bill_expiry_date` / `bill_due_date` (an invoice's defaults to `bill_date` + 30 days).
    pub end_date: Option<NaiveDate>,
    /// `bill_projectid`.
    pub project: Option<ProjectId>,
    /// `bill_tax_type` (default `summary`).
    pub tax_type: TaxMode,
    /// `bill_notes`.
    pub notes: Option<String>,
    /// `bill_terms`.
    pub terms: Option<String>,
    /// `bill_currency`; absent: the client's, else the company's ([`NewBill::money`]).
    pub currency: Option<Currency>,
    /// `bill_exchange_rate`.
    pub exchange_rate: Option<ExchangeRate>,
    references: References,
    kind: PhantomData<K>,
}

/// `POST /estimates`.
pub type NewEstimate = NewBill<EstimateKind>;

impl<K: Kind> NewBill<K> {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let b = read_basics::<K>(&mut form, true, false);
        let tax_type = form
            .optional("bill_tax_type", read_choice::<TaxMode>)
            .unwrap_or_default();
        let notes = form.optional("bill_notes", text(TextRule::LONG));
        let terms = form.optional("bill_terms", text(TextRule::LONG));
        let currency = form.optional(CURRENCY_FIELD, read_document_currency);
        let exchange_rate = form.optional(EXCHANGE_RATE_FIELD, read_exchange_rate);
        let references = form.finish()?;
        match (b.client, b.category, b.date) {
            (Some(client), Some(category), Some(date)) => Ok(NewBill {
                client,
                category,
                date,
                end_date: b.end_date.or_else(|| K::default_end_date(date)),
                project: b.project,
                tax_type,
                notes,
                terms,
                currency,
                exchange_rate,
                references,
                kind: PhantomData,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The ids to check in the database.
    pub fn references(&self) -> &References {
        &self.references
    }

    /// The new bill's currency and exchange rate: the one asked for, else `default` (the
    /// client's, else the company's: [`Currency::default_for`]); a rate only when the
    /// currency is not `company`'s.
    pub fn money(
        &self,
        default: Currency,
        company: Currency,
    ) -> Result<(Currency, Option<Exchange>), FieldErrors> {
        let currency = self.currency.unwrap_or(default);
        let exchange = exchange(currency, self.exchange_rate, company)?;
        Ok((currency, exchange))
    }
}

/// `bill_currency`.
pub const CURRENCY_FIELD: &str = "bill_currency";
/// `bill_exchange_rate`.
pub const EXCHANGE_RATE_FIELD: &str = "bill_exchange_rate";

/// A document in `currency` with `rate` (if any) converting to the `company`'s currency: a
/// rate on a document in the company's own currency is refused.
fn exchange(
    currency: Currency,
    rate: Option<ExchangeRate>,
    company: Currency,
) -> Result<Option<Exchange>, FieldErrors> {
    match rate {
        None => Ok(None),
        Some(_) if currency == company => Err(FieldErrors::single(
            EXCHANGE_RATE_FIELD,
            same_currency_rate_error(EXCHANGE_RATE_FIELD, company),
        )),
        Some(rate) => Ok(Some(Exchange { rate, to: company })),
    }
}

/// `POST /estimates/{id}/clone`, `POST /invoices/{id}/clone`: the new record's header;
/// everything else is copied. An estimate clone takes `bill_categoryid`; an invoice clone
/// copies its category and requires `bill_due_date` ([`Kind::CLONE_TAKES_CATEGORY`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillClone<K> {
    /// `bill_clientid`.
    pub client: ClientId,
    /// `bill_categoryid`, or `None` to copy the source's.
    pub category: Option<CategoryId>,
    /// `bill_date`.
    pub date: NaiveDate,
    /// `bill_expiry_date` / `bill_due_date`.
    pub end_date: Option<NaiveDate>,
    /// `bill_projectid`.
    pub project: Option<ProjectId>,
    references: References,
    kind: PhantomData<K>,
}

/// `POST /estimates/{id}/clone`.
pub type EstimateClone = BillClone<EstimateKind>;

impl<K: Kind> BillClone<K> {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let takes_category = K::CLONE_TAKES_CATEGORY;
        let b = read_basics::<K>(&mut form, takes_category, !takes_category);
        let references = form.finish()?;
        match (b.client, b.category.is_some() || !takes_category, b.date) {
            (Some(client), true, Some(date)) => Ok(BillClone {
                client,
                category: b.category,
                date,
                end_date: b.end_date,
                project: b.project,
                references,
                kind: PhantomData,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The ids to check in the database.
    pub fn references(&self) -> &References {
        &self.references
    }
}

/// `PATCH /estimates/{id}`, `PATCH /invoices/{id}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BillUpdate<K> {
    /// `bill_categoryid`.
    pub category: CategoryId,
    /// `bill_date`.
    pub date: NaiveDate,
    /// `bill_expiry_date` / `bill_due_date`.
    pub end_date: Patch<NaiveDate>,
    /// `bill_projectid`.
    pub project: Patch<ProjectId>,
    /// `bill_notes`.
    pub notes: Patch<String>,
    /// `bill_terms`.
    pub terms: Patch<String>,
    /// `bill_tax_type`; absent (or empty) keeps the stored mode.
    pub tax_type: Option<TaxMode>,
    /// `bill_discount_type`.
    pub discount_type: Option<DiscountKind>,
    /// `bill_discount_amount` (fixed discounts; zero or more; the currency's decimals).
    pub discount_amount: Option<MoneyInput>,
    /// `bill_discount_percentage` (percentage discounts; 0–100).
    pub discount_percentage: Option<Percent>,
    /// `bill_adjustment_description`.
    pub adjustment_description: Patch<String>,
    /// `bill_adjustment_amount` (either sign; the currency's decimals).
    pub adjustment_amount: Patch<MoneyInput>,
    /// `bill_currency`; absent keeps the stored one.
    pub currency: Option<Currency>,
    /// `bill_exchange_rate`; cleared by `null` or empty.
    pub exchange_rate: Patch<ExchangeRate>,
    references: References,
    kind: PhantomData<K>,
}

/// `PATCH /estimates/{id}`.
pub type EstimateUpdate = BillUpdate<EstimateKind>;

impl<K: Kind> BillUpdate<K> {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let category = form
            .required_ref("bill_categoryid", RefKind::Category(K::CATEGORY))
            .and_then(CategoryId::new);
        let date = form.required("bill_date", read_date);
        let end_date = form.patch(K::END_DATE, read_date);
        if let (Some(d), Patch::Set(e)) = (date, &end_date)
            && check_end_date::<K>(d, Some(*e)).is_err()
        {
            form.error(
                K::END_DATE,
                message::after_or_equal(K::END_DATE, "bill_date"),
            );
        }
        let project = form.patch_ref("bill_projectid", RefKind::Project);
        let notes = form.patch("bill_notes", text(TextRule::LONG));
        let terms = form.patch("bill_terms", text(TextRule::LONG));
        let tax_type = form.optional("bill_tax_type", read_choice::<TaxMode>);
        let discount_type = form.optional("bill_discount_type", read_choice::<DiscountKind>);
        let discount_amount = form.optional("bill_discount_amount", read_money_input_non_negative);
        let discount_percentage = form.optional("bill_discount_percentage", read_percent_0_100);
        if tax_type == Some(TaxMode::Inline)
            && matches!(
                discount_type,
                Some(DiscountKind::Fixed | DiscountKind::Percentage)
            )
        {
            form.error("bill_discount_type", inline_discount_message());
        }
        let adjustment_description =
            form.patch("bill_adjustment_description", text(TextRule::SHORT));
        let adjustment_amount = form.patch("bill_adjustment_amount", read_money_input);
        let currency = form.optional(CURRENCY_FIELD, read_document_currency);
        let exchange_rate = form.patch(EXCHANGE_RATE_FIELD, read_exchange_rate);
        if form.has_errors() {
            // Refused already: the amounts are judged against the currency beside the
            // other failing fields (the request's, else the bill's stored one).
            if let Some(amount) = discount_amount {
                form.claim_amount("bill_discount_amount", amount, currency);
            }
            if let Patch::Set(amount) = adjustment_amount {
                form.claim_amount("bill_adjustment_amount", amount, currency);
            }
        }
        let references = form.finish()?;
        let (Some(category), Some(date)) = (category, date) else {
            return Err(Rejected::default());
        };
        let project = match project {
            Patch::Set(id) => ProjectId::new(id).map_or(Patch::Keep, Patch::Set),
            Patch::Clear => Patch::Clear,
            Patch::Keep => Patch::Keep,
        };
        Ok(BillUpdate {
            category,
            date,
            end_date,
            project,
            notes,
            terms,
            tax_type,
            discount_type,
            discount_amount,
            discount_percentage,
            adjustment_description,
            adjustment_amount,
            currency,
            exchange_rate,
            references,
            kind: PhantomData,
        })
    }

    /// The ids to check in the database.
    pub fn references(&self) -> &References {
        &self.references
    }

    /// Applies the totals-related fields to the stored `current` state: the new tax mode,
    /// header discount, adjustment, currency and exchange rate (`company`: the company's
    /// currency), and whether the mode or the currency changed (the store then clears the
    /// taxes and the lines' mode-specific fields, or checks the lines' amounts against the
    /// new currency). Given amounts must have at most the currency's decimals, and so must
    /// stored ones kept under a new currency.
    pub fn resolve(
        &self,
        current: &TotalsHeader,
        company: Currency,
    ) -> Result<ResolvedHeader, FieldErrors> {
        let currency = self.currency.unwrap_or(current.currency);
        let currency_changed = currency != current.currency;
        let mut errors = FieldErrors::new();
        let discount_amount = self
            .discount_amount
            .and_then(|a| currency.money("bill_discount_amount", a, &mut errors));
        let adjustment = match self.adjustment_amount {
            Patch::Keep => {
                currency.check_stored("bill_adjustment_amount", current.adjustment, &mut errors);
                current.adjustment
            }
            Patch::Clear => Money::ZERO,
            Patch::Set(a) => currency
                .money("bill_adjustment_amount", a, &mut errors)
                .unwrap_or(Money::ZERO),
        };
        let rate = match self.exchange_rate {
            Patch::Set(rate) => Some(rate),
            Patch::Clear => None,
            // A rate was for the stored currency: a new currency drops it. A kept one keeps
            // the company currency it was given for, even if the company's has changed
            // since (so that a PATCH of an issued invoice's notes changes none of its terms).
            Patch::Keep if currency_changed => None,
            Patch::Keep => current.exchange.map(|e| e.rate),
        };
        let exchange = match (&self.exchange_rate, current.exchange) {
            // A kept rate keeps the company currency it was given for.
            (Patch::Keep, Some(stored)) if rate.is_some() => Some(stored),
            _ => exchange(currency, rate, company).unwrap_or_else(|e| {
                errors.merge(e);
                None
            }),
        };
        let tax_type = self.tax_type.unwrap_or(current.tax_type);
        let mode_changed = tax_type != current.tax_type;
        let stored = if mode_changed {
            HeaderDiscount::None
        } else {
            current.discount
        };
        let kind = self.discount_type.unwrap_or(stored.kind());
        let discount = match kind {
            DiscountKind::None => HeaderDiscount::None,
            DiscountKind::Fixed => match (self.discount_amount, stored) {
                (Some(_), _) => discount_amount.map_or(HeaderDiscount::None, HeaderDiscount::Fixed),
                (None, HeaderDiscount::Fixed(a)) => {
                    currency.check_stored("bill_discount_amount", a, &mut errors);
                    HeaderDiscount::Fixed(a)
                }
                (None, _) => {
                    errors.add(
                        "bill_discount_amount",
                        message::required_if("bill_discount_amount", "bill_discount_type", "fixed"),
                    );
                    HeaderDiscount::None
                }
            },
            DiscountKind::Percentage => match (self.discount_percentage, stored) {
                (Some(p), _) | (None, HeaderDiscount::Percentage(p)) => {
                    HeaderDiscount::Percentage(p)
                }
                (None, _) => {
                    errors.add(
                        "bill_discount_percentage",
                        message::required_if(
                            "bill_discount_percentage",
                            "bill_discount_type",
                            "percentage",
                        ),
                    );
                    HeaderDiscount::None
                }
            },
        };
        if tax_type == TaxMode::Inline && discount != HeaderDiscount::None {
            errors.add("bill_discount_type", inline_discount_message());
        }
        if tax_type == TaxMode::Vat && adjustment.get().abs() >= crate::totals::vat::MAX_ROUNDING {
            errors.add("bill_adjustment_amount", vat_adjustment_message());
        }
        errors.into_result()?;
        Ok(ResolvedHeader {
            header: TotalsHeader {
                tax_type,
                discount,
                adjustment,
                currency,
                exchange,
            },
            mode_changed,
            currency_changed,
        })
    }
}

/// The 422 of an adjustment that is not a rounding amount in VAT mode (EN 16931 states
/// no other: BT-114).
pub fn vat_adjustment_message() -> String {
    "The bill adjustment amount must be a rounding amount (less than 1 either way) when bill tax type is vat.".to_owned()
}

/// The 422 for a header whose recomputed totals do not fit the stored columns (the
/// calculator's [`TotalsError::Overflow`](crate::totals::TotalsError::Overflow)): the lines
/// were in range when they were set, so the header's adjustment or discount pushed the final
/// amount out; reported on `bill_adjustment_amount`.
pub fn total_overflow_error() -> FieldErrors {
    FieldErrors::single(
        "bill_adjustment_amount",
        format!(
            "The final amount must be between -{max} and {max}.",
            max = super::items::MAX_TOTAL
        ),
    )
}

/// The message for a header discount in inline mode.
fn inline_discount_message() -> String {
    format!(
        "The {} must be none when bill tax type is inline.",
        crate::validation::attribute("bill_discount_type")
    )
}

/// The stored header fields the totals depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TotalsHeader {
    /// Summary or inline.
    pub tax_type: TaxMode,
    /// The header discount.
    pub discount: HeaderDiscount,
    /// The adjustment amount.
    pub adjustment: Money,
    /// The document's currency (its amounts round to its minor unit).
    pub currency: Currency,
    /// The exchange rate to the company's currency, when given.
    pub exchange: Option<Exchange>,
}

/// The outcome of [`BillUpdate::resolve`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ResolvedHeader {
    /// The new totals-related header.
    pub header: TotalsHeader,
    /// True when the tax mode changed: taxes and mode-specific line fields are cleared.
    pub mode_changed: bool,
    /// True when the currency changed: the stored lines' amounts must fit it
    /// ([`crate::bill::items::check_stored_lines`]).
    pub currency_changed: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bill::InvoiceKind;
    use crate::category::CategoryType;
    use crate::input::test_input::{msg, raw};

    fn update(extra: &[(&str, &str)]) -> Result<EstimateUpdate, Rejected> {
        let mut pairs = vec![("bill_categoryid", "4"), ("bill_date", "2026-06-20")];
        pairs.extend_from_slice(extra);
        EstimateUpdate::parse(&raw(&pairs))
    }

    fn money(s: &str) -> Money {
        s.parse().unwrap()
    }

    const SUMMARY: TotalsHeader = TotalsHeader {
        tax_type: TaxMode::Summary,
        discount: HeaderDiscount::None,
        adjustment: Money::ZERO,
        currency: Currency::EUR,
        exchange: None,
    };

    #[test]
    fn a_new_estimate_needs_client_category_and_date() {
        let r = NewEstimate::parse(&raw(&[])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_clientid"),
            ["The bill clientid field is required."]
        );
        assert_eq!(
            msg(&r.errors, "bill_categoryid"),
            ["The bill categoryid field is required."]
        );
        assert_eq!(
            msg(&r.errors, "bill_date"),
            ["The bill date field is required."]
        );
    }

    #[test]
    fn a_new_estimate_defaults_to_summary_taxes() {
        let e = NewEstimate::parse(&raw(&[
            ("bill_clientid", "1"),
            ("bill_categoryid", "4"),
            ("bill_date", "2026-06-20"),
        ]))
        .unwrap();
        assert_eq!(e.tax_type, TaxMode::Summary);
        let kinds: Vec<_> = e.references().as_slice().iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            vec![RefKind::Client, RefKind::Category(CategoryType::Estimate)]
        );
    }

    #[test]
    fn the_expiry_date_must_not_precede_the_estimate_date() {
        let r = NewEstimate::parse(&raw(&[
            ("bill_clientid", "1"),
            ("bill_categoryid", "4"),
            ("bill_date", "2026-06-20"),
            ("bill_expiry_date", "2026-06-19"),
            ("bill_tax_type", "flat"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_expiry_date"),
            ["The bill expiry date must be a date after or equal to bill date."]
        );
        assert_eq!(
            msg(&r.errors, "bill_tax_type"),
            ["The selected bill tax type is invalid."]
        );
    }

    #[test]
    fn a_fixed_discount_needs_an_amount() {
        let u = update(&[("bill_discount_type", "fixed")]).unwrap();
        let e = u.resolve(&SUMMARY, Currency::EUR).unwrap_err();
        assert_eq!(
            msg(&e, "bill_discount_amount"),
            ["The bill discount amount field is required when bill discount type is fixed."]
        );
        let u = update(&[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "25"),
        ])
        .unwrap();
        assert_eq!(
            u.resolve(&SUMMARY, Currency::EUR).unwrap().header.discount,
            HeaderDiscount::Fixed(money("25"))
        );
    }

    #[test]
    fn discount_values_are_bounded() {
        let r = update(&[
            ("bill_discount_amount", "-1"),
            ("bill_discount_percentage", "101"),
        ])
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_discount_amount"),
            ["The bill discount amount must be at least 0."]
        );
        assert_eq!(
            msg(&r.errors, "bill_discount_percentage"),
            ["The bill discount percentage must be between 0 and 100."]
        );
    }

    #[test]
    fn an_absent_discount_keeps_the_stored_one_and_a_new_amount_updates_it() {
        let current = TotalsHeader {
            discount: HeaderDiscount::Fixed(money("10")),
            ..SUMMARY
        };
        assert_eq!(
            update(&[])
                .unwrap()
                .resolve(&current, Currency::EUR)
                .unwrap()
                .header
                .discount,
            current.discount
        );
        let u = update(&[("bill_discount_amount", "12.50")]).unwrap();
        assert_eq!(
            u.resolve(&current, Currency::EUR).unwrap().header.discount,
            HeaderDiscount::Fixed(money("12.50"))
        );
    }

    #[test]
    fn inline_estimates_refuse_a_header_discount() {
        let r = update(&[
            ("bill_tax_type", "inline"),
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "5"),
        ])
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_discount_type"),
            ["The bill discount type must be none when bill tax type is inline."]
        );
        let inline = TotalsHeader {
            tax_type: TaxMode::Inline,
            ..SUMMARY
        };
        let u = update(&[
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "5"),
        ])
        .unwrap();
        assert!(
            u.resolve(&inline, Currency::EUR)
                .unwrap_err()
                .has("bill_discount_type")
        );
    }

    #[test]
    fn changing_the_tax_mode_clears_the_stored_discount() {
        let current = TotalsHeader {
            discount: HeaderDiscount::Percentage(Percent::HUNDRED),
            ..SUMMARY
        };
        let r = update(&[("bill_tax_type", "inline")])
            .unwrap()
            .resolve(&current, Currency::EUR)
            .unwrap();
        assert!(r.mode_changed);
        assert_eq!(r.header.discount, HeaderDiscount::None);
        assert_eq!(r.header.tax_type, TaxMode::Inline);
        let same = update(&[("bill_tax_type", "summary")])
            .unwrap()
            .resolve(&current, Currency::EUR)
            .unwrap();
        assert!(!same.mode_changed);
        assert_eq!(same.header.discount, current.discount);
    }

    #[test]
    fn the_adjustment_is_kept_cleared_to_zero_or_set() {
        let current = TotalsHeader {
            adjustment: money("-5"),
            ..SUMMARY
        };
        assert_eq!(
            update(&[])
                .unwrap()
                .resolve(&current, Currency::EUR)
                .unwrap()
                .header
                .adjustment,
            money("-5")
        );
        assert_eq!(
            update(&[("bill_adjustment_amount", "")])
                .unwrap()
                .resolve(&current, Currency::EUR)
                .unwrap()
                .header
                .adjustment,
            Money::ZERO
        );
        let set = update(&[("bill_adjustment_amount", "-100.25")])
            .unwrap()
            .resolve(&current, Currency::EUR)
            .unwrap();
        assert_eq!(set.header.adjustment, money("-100.25"));
    }

    #[test]
    fn a_header_total_out_of_range_is_reported_on_the_adjustment() {
        let e = total_overflow_error();
        assert_eq!(
            msg(&e, "bill_adjustment_amount"),
            ["The final amount must be between -9999999999999.99 and 9999999999999.99."]
        );
    }

    #[test]
    fn an_update_requires_category_and_date() {
        let r = EstimateUpdate::parse(&raw(&[])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_categoryid"),
            ["The bill categoryid field is required."]
        );
        assert_eq!(
            msg(&r.errors, "bill_date"),
            ["The bill date field is required."]
        );
    }

    #[test]
    fn a_clone_takes_its_header_from_the_request() {
        let c = EstimateClone::parse(&raw(&[
            ("bill_clientid", "2"),
            ("bill_categoryid", "4"),
            ("bill_date", "2026-07-01"),
            ("bill_projectid", "9"),
        ]))
        .unwrap();
        assert_eq!(c.project.map(ProjectId::get), Some(9));
        assert_eq!(c.references().as_slice().len(), 3);
    }

    fn invoice_basics() -> Vec<(&'static str, &'static str)> {
        vec![
            ("bill_clientid", "1"),
            ("bill_categoryid", "5"),
            ("bill_date", "2026-06-20"),
        ]
    }

    #[test]
    fn a_new_invoice_is_due_thirty_days_after_its_date_unless_told() {
        let i = NewBill::<InvoiceKind>::parse(&raw(&invoice_basics())).unwrap();
        assert_eq!(i.end_date, Some("2026-07-20".parse().unwrap()));
        let kinds: Vec<_> = i.references().as_slice().iter().map(|r| r.kind).collect();
        assert_eq!(
            kinds,
            vec![RefKind::Client, RefKind::Category(CategoryType::Invoice)]
        );
        let mut pairs = invoice_basics();
        pairs.push(("bill_due_date", "2026-06-25"));
        let i = NewBill::<InvoiceKind>::parse(&raw(&pairs)).unwrap();
        assert_eq!(i.end_date, Some("2026-06-25".parse().unwrap()));
    }

    #[test]
    fn an_invoice_due_date_must_not_precede_its_date() {
        let mut pairs = invoice_basics();
        pairs.push(("bill_due_date", "2026-06-19"));
        let r = NewBill::<InvoiceKind>::parse(&raw(&pairs)).unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_due_date"),
            ["The bill due date must be a date after or equal to bill date."]
        );
        let r = BillUpdate::<InvoiceKind>::parse(&raw(&[
            ("bill_categoryid", "5"),
            ("bill_date", "2026-06-20"),
            ("bill_due_date", "2026-06-01"),
            ("bill_expiry_date", "2000-01-01"),
        ]))
        .unwrap_err();
        assert!(!r.errors.has("bill_expiry_date"), "{r:?}");
        assert!(r.errors.has("bill_due_date"));
        assert!(check_end_date::<InvoiceKind>("2026-06-20".parse().unwrap(), None).is_ok());
    }

    #[test]
    fn an_invoice_clone_copies_its_category_and_needs_a_due_date() {
        let r = BillClone::<InvoiceKind>::parse(&raw(&[
            ("bill_clientid", "2"),
            ("bill_date", "2026-07-01"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_due_date"),
            ["The bill due date field is required."]
        );
        assert!(!r.errors.has("bill_categoryid"));
        let c = BillClone::<InvoiceKind>::parse(&raw(&[
            ("bill_clientid", "2"),
            ("bill_categoryid", "999"),
            ("bill_date", "2026-07-01"),
            ("bill_due_date", "2026-07-31"),
        ]))
        .unwrap();
        assert_eq!(c.category, None);
        assert_eq!(c.references().as_slice().len(), 1);
    }

    #[test]
    fn an_estimate_and_an_invoice_update_read_the_same_totals_fields() {
        let pairs = [
            ("bill_categoryid", "4"),
            ("bill_date", "2026-06-20"),
            ("bill_discount_type", "percentage"),
            ("bill_discount_percentage", "12.5"),
            ("bill_adjustment_amount", "-3"),
        ];
        let e = EstimateUpdate::parse(&raw(&pairs)).unwrap();
        let i = BillUpdate::<InvoiceKind>::parse(&raw(&pairs)).unwrap();
        assert_eq!(
            e.resolve(&SUMMARY, Currency::EUR),
            i.resolve(&SUMMARY, Currency::EUR)
        );
    }

    fn currency(code: &str) -> Currency {
        Currency::from_code(code).unwrap()
    }

    #[test]
    fn a_new_bill_takes_the_asked_currency_else_the_default() {
        let base = [
            ("bill_clientid", "1"),
            ("bill_categoryid", "4"),
            ("bill_date", "2026-06-20"),
        ];
        let e = NewEstimate::parse(&raw(&base)).unwrap();
        assert_eq!(
            e.money(currency("JPY"), Currency::EUR).unwrap(),
            (currency("JPY"), None)
        );
        let mut pairs = base.to_vec();
        pairs.push(("bill_currency", "KWD"));
        pairs.push(("bill_exchange_rate", "3.25"));
        let e = NewEstimate::parse(&raw(&pairs)).unwrap();
        let (c, exchange) = e.money(currency("JPY"), Currency::EUR).unwrap();
        assert_eq!(c, currency("KWD"));
        assert_eq!(
            exchange.map(|x| (x.rate.to_string(), x.to)),
            Some(("3.25".to_owned(), Currency::EUR))
        );
        let e = e.money(currency("JPY"), currency("KWD")).unwrap_err();
        assert_eq!(
            msg(&e, "bill_exchange_rate"),
            [
                "The bill exchange rate is only allowed when the bill currency is not the company's currency (KWD)."
            ]
        );
    }

    #[test]
    fn an_unknown_currency_and_a_bad_rate_are_named() {
        let r = NewEstimate::parse(&raw(&[
            ("bill_clientid", "1"),
            ("bill_categoryid", "4"),
            ("bill_date", "2026-06-20"),
            ("bill_currency", "XAU"),
            ("bill_exchange_rate", "0"),
        ]))
        .unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_currency"),
            ["The selected bill currency is invalid."]
        );
        assert_eq!(
            msg(&r.errors, "bill_exchange_rate"),
            ["The bill exchange rate must be greater than 0."]
        );
        let r = update(&[("bill_exchange_rate", "1.1234567")]).unwrap_err();
        assert_eq!(
            msg(&r.errors, "bill_exchange_rate"),
            ["The bill exchange rate may not have more than 6 decimal places."]
        );
    }

    #[test]
    fn amounts_have_at_most_the_currency_decimals() {
        let yen = TotalsHeader {
            currency: currency("JPY"),
            ..SUMMARY
        };
        let u = update(&[
            ("bill_discount_type", "fixed"),
            ("bill_discount_amount", "100.5"),
            ("bill_adjustment_amount", "0.5"),
        ])
        .unwrap();
        let e = u.resolve(&yen, Currency::EUR).unwrap_err();
        assert_eq!(
            msg(&e, "bill_discount_amount"),
            ["The bill discount amount may not have more than 0 decimal places."]
        );
        assert_eq!(
            msg(&e, "bill_adjustment_amount"),
            ["The bill adjustment amount may not have more than 0 decimal places."]
        );
        let r = u.resolve(&SUMMARY, Currency::EUR).unwrap();
        assert_eq!(r.header.adjustment, money("0.5"));
        let u = update(&[("bill_adjustment_amount", "1.125")]).unwrap();
        assert_eq!(
            msg(
                &u.resolve(&SUMMARY, Currency::EUR).unwrap_err(),
                "bill_adjustment_amount"
            ),
            ["The bill adjustment amount may not have more than 2 decimal places."]
        );
        let kwd = u.resolve(
            &TotalsHeader {
                currency: currency("KWD"),
                ..SUMMARY
            },
            Currency::EUR,
        );
        assert_eq!(kwd.unwrap().header.adjustment, money("1.125"));
    }

    #[test]
    fn a_refused_patch_carries_its_amounts_for_the_currency_to_judge() {
        let r = update(&[
            ("bill_discount_type", "some"),
            ("bill_adjustment_amount", "1.234"),
            ("bill_discount_amount", "2"),
        ])
        .unwrap_err();
        let claims = r.references.amounts();
        assert_eq!(
            claims
                .iter()
                .map(|c| (c.field.as_str(), c.currency))
                .collect::<Vec<_>>(),
            [
                ("bill_discount_amount", None),
                ("bill_adjustment_amount", None)
            ]
        );
        let r = update(&[
            ("bill_currency", "JPY"),
            ("bill_date", "x"),
            ("bill_adjustment_amount", "1"),
        ])
        .unwrap_err();
        assert_eq!(r.references.amounts()[0].currency, Some(currency("JPY")));
    }

    #[test]
    fn a_new_currency_must_fit_the_stored_amounts() {
        let current = TotalsHeader {
            discount: HeaderDiscount::Fixed(money("10.50")),
            adjustment: money("-0.25"),
            ..SUMMARY
        };
        let e = update(&[("bill_currency", "JPY")])
            .unwrap()
            .resolve(&current, Currency::EUR)
            .unwrap_err();
        assert_eq!(
            msg(&e, "bill_discount_amount"),
            ["The bill discount amount may not have more than 0 decimal places."]
        );
        assert!(e.has("bill_adjustment_amount"));
        let r = update(&[
            ("bill_currency", "JPY"),
            ("bill_discount_amount", "10"),
            ("bill_adjustment_amount", ""),
        ])
        .unwrap()
        .resolve(&current, Currency::EUR)
        .unwrap();
        assert!(r.currency_changed && !r.mode_changed);
        assert_eq!(r.header.currency, currency("JPY"));
        assert_eq!(r.header.discount, HeaderDiscount::Fixed(money("10")));
    }

    #[test]
    fn a_rate_is_kept_with_its_currency_and_dropped_by_a_new_one() {
        let usd = TotalsHeader {
            currency: currency("USD"),
            exchange: Some(Exchange {
                rate: "0.92".parse().unwrap(),
                to: Currency::EUR,
            }),
            ..SUMMARY
        };
        // Kept, with the company currency it was given for (even if the company's changed,
        // to another currency or to the bill's own).
        let kept = update(&[]).unwrap().resolve(&usd, currency("CHF")).unwrap();
        assert_eq!(kept.header.exchange, usd.exchange);
        let kept = update(&[]).unwrap().resolve(&usd, currency("USD")).unwrap();
        assert_eq!(kept.header.exchange, usd.exchange);
        let moved = update(&[("bill_currency", "GBP")])
            .unwrap()
            .resolve(&usd, Currency::EUR);
        assert_eq!(moved.unwrap().header.exchange, None);
        let home = update(&[("bill_currency", "EUR")])
            .unwrap()
            .resolve(&usd, Currency::EUR);
        assert_eq!(home.unwrap().header.exchange, None);
        let cleared = update(&[("bill_exchange_rate", "")])
            .unwrap()
            .resolve(&usd, Currency::EUR);
        assert_eq!(cleared.unwrap().header.exchange, None);
        let refused = update(&[("bill_currency", "EUR"), ("bill_exchange_rate", "1.1")])
            .unwrap()
            .resolve(&usd, Currency::EUR)
            .unwrap_err();
        assert!(refused.has("bill_exchange_rate"));
        let set = update(&[("bill_exchange_rate", "0.9")])
            .unwrap()
            .resolve(&usd, currency("CHF"));
        let exchange = set.unwrap().header.exchange.unwrap();
        assert_eq!(
            (exchange.rate.to_string(), exchange.to),
            ("0.9".to_owned(), currency("CHF"))
        );
    }
}
