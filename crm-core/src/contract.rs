//! Contracts: the record, its commands, and the status rule.
//!
//! Status is derived, never written: `draft` until published; a published contract is
//! `expired` once its end date is before today, otherwise `active` when both the client
//! and the provider signed, else `awaiting_signatures`. A draft never expires (it was never
//! in force). The rule is written once, as [`StatusConditions`] per status, so that the
//! store can filter and sort on exactly the same rule in SQL.

use chrono::NaiveDate;
use serde::Serialize;

use crate::category::CategoryType;
use crate::choice_enum;
use crate::ids::{CategoryId, ClientId, ContractId, ContractTemplateId, LeadId, Named, ProjectId};
use crate::input::{
    Form, Patch, RawMap, TextRule, read_choice, read_date, read_id, read_money, text,
};
use crate::listing::{KeyKind, ListFilters, ListQuery};
use crate::money::Money;
use crate::time::Timestamp;
use crate::validation::{FieldErrors, RefKind, References, Rejected, message};

choice_enum!(
    /// A contract's derived status.
    pub enum ContractStatus {
        /// Not yet published.
        Draft = "draft",
        /// Published, waiting for one or both signatures.
        AwaitingSignatures = "awaiting_signatures",
        /// Published and signed by both parties.
        Active = "active",
        /// Published and past its end date.
        Expired = "expired",
    }
);

choice_enum!(
    /// One party's signing state (read-only through the API).
    pub enum SigningStatus {
        /// Not signed.
        Unsigned = "unsigned",
        /// Signed.
        Signed = "signed",
    }
);

choice_enum!(
    /// Sort keys of the contract list.
    pub enum ContractSort {
        /// By title.
        Title = "doc_title",
        /// By derived status.
        Status = "doc_status",
        /// By start date.
        DateStart = "doc_date_start",
        /// By creation time.
        Created = "doc_created",
        /// By value.
        Value = "doc_value",
    }
);

/// What a contract's status depends on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ContractFacts {
    /// Whether it was published.
    pub published: bool,
    /// Whether the client signed.
    pub client_signed: bool,
    /// Whether the provider signed.
    pub provider_signed: bool,
    /// Its end date, if any.
    pub date_end: Option<NaiveDate>,
}

/// The conditions that select one status: each `Some` must hold, `None` means "any".
/// `expired` is "the end date is before today"; `fully_signed` is "both parties signed".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StatusConditions {
    /// Published or not.
    pub published: bool,
    /// End date before today (a missing end date never is).
    pub expired: Option<bool>,
    /// Both parties signed.
    pub fully_signed: Option<bool>,
}

impl ContractStatus {
    /// Every status, in derivation order.
    pub const ALL: [ContractStatus; 4] = [
        ContractStatus::Draft,
        ContractStatus::Expired,
        ContractStatus::Active,
        ContractStatus::AwaitingSignatures,
    ];

    /// The conditions under which a contract shows this status. The four sets of
    /// conditions are exclusive and cover every contract.
    pub fn conditions(self) -> StatusConditions {
        match self {
            ContractStatus::Draft => StatusConditions {
                published: false,
                expired: None,
                fully_signed: None,
            },
            ContractStatus::Expired => StatusConditions {
                published: true,
                expired: Some(true),
                fully_signed: None,
            },
            ContractStatus::Active => StatusConditions {
                published: true,
                expired: Some(false),
                fully_signed: Some(true),
            },
            ContractStatus::AwaitingSignatures => StatusConditions {
                published: true,
                expired: Some(false),
                fully_signed: Some(false),
            },
        }
    }

    /// The status of a contract with these facts on `today`.
    pub fn derive(facts: &ContractFacts, today: NaiveDate) -> ContractStatus {
        let expired = facts.date_end.is_some_and(|end| end < today);
        let fully_signed = facts.client_signed && facts.provider_signed;
        Self::ALL
            .into_iter()
            .find(|s| {
                let c = s.conditions();
                c.published == facts.published
                    && c.expired.is_none_or(|e| e == expired)
                    && c.fully_signed.is_none_or(|f| f == fully_signed)
            })
            .unwrap_or(ContractStatus::Draft)
    }
}

/// A contract's dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ContractDates {
    /// Start date.
    pub start: NaiveDate,
    /// End date.
    pub end: Option<NaiveDate>,
    /// Creation time.
    pub created: Timestamp,
    /// Publication time.
    pub published: Option<Timestamp>,
}

/// The read-only signing state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Signing {
    /// The client's signature.
    pub client_status: SigningStatus,
    /// The provider's signature.
    pub provider_status: SigningStatus,
}

/// A contract as the API shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Contract {
    /// Contract id.
    pub id: ContractId,
    /// Title.
    pub title: String,
    /// Derived status.
    pub status: ContractStatus,
    /// Value.
    pub value: Option<Money>,
    /// Body (HTML).
    pub body: Option<String>,
    /// The client.
    pub client: Named<ClientId>,
    /// The category.
    pub category: Named<CategoryId>,
    /// Attached project.
    pub project_id: Option<ProjectId>,
    /// Attached lead.
    pub lead_id: Option<LeadId>,
    /// Dates.
    pub dates: ContractDates,
    /// Signing state.
    pub signing: Signing,
    /// Tag titles.
    pub tags: Vec<String>,
}

/// The end date must be on or after the start date.
pub fn check_period(start: NaiveDate, end: Option<NaiveDate>) -> Result<(), FieldErrors> {
    match end {
        Some(end) if end < start => Err(FieldErrors::single(
            "doc_date_end",
            message::after_or_equal("doc_date_end", "doc_date_start"),
        )),
        _ => Ok(()),
    }
}

/// Reads a date pair, adding the order error when both are valid.
fn read_period(
    form: &mut Form<'_>,
    start_required: bool,
) -> (Option<NaiveDate>, Option<NaiveDate>) {
    let start = if start_required {
        form.required("doc_date_start", read_date)
    } else {
        form.optional("doc_date_start", read_date)
    };
    let end = form.optional("doc_date_end", read_date);
    if let (Some(s), Some(_)) = (start, end)
        && let Err(e) = check_period(s, end)
    {
        for (f, ms) in e.iter() {
            for m in ms {
                form.error_at(f, m.clone());
            }
        }
    }
    (start, end)
}

/// `POST /contracts`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewContract {
    /// `doc_client_id`.
    pub client: ClientId,
    /// `doc_title`.
    pub title: String,
    /// `doc_date_start`.
    pub date_start: NaiveDate,
    /// `doc_categoryid` (a contract category).
    pub category: CategoryId,
    /// `doc_date_end` (on or after the start).
    pub date_end: Option<NaiveDate>,
    /// `doc_value`.
    pub value: Option<Money>,
    /// `doc_project_id`.
    pub project: Option<ProjectId>,
    /// `doc_lead_id`.
    pub lead: Option<LeadId>,
    /// `doc_body`; overrides the template.
    pub body: Option<String>,
    /// `contract_template`: seeds the body when `doc_body` is absent.
    pub template: Option<ContractTemplateId>,
    references: References,
}

impl NewContract {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let client = form
            .required_ref("doc_client_id", RefKind::Client)
            .and_then(ClientId::new);
        let title = form.required("doc_title", text(TextRule::TITLE));
        let (date_start, date_end) = read_period(&mut form, true);
        let category = form
            .required_ref("doc_categoryid", RefKind::Category(CategoryType::Contract))
            .and_then(CategoryId::new);
        let value = form.optional("doc_value", read_money);
        let project = form
            .optional_ref("doc_project_id", RefKind::Project)
            .and_then(ProjectId::new);
        let lead = form
            .optional_ref("doc_lead_id", RefKind::Lead)
            .and_then(LeadId::new);
        let body = form.optional("doc_body", text(TextRule::LONG));
        let template = form
            .optional_ref("contract_template", RefKind::ContractTemplate)
            .and_then(ContractTemplateId::new);
        let references = form.finish()?;
        match (client, title, date_start, category) {
            (Some(client), Some(title), Some(date_start), Some(category)) => Ok(NewContract {
                client,
                title,
                date_start,
                category,
                date_end,
                value,
                project,
                lead,
                body,
                template,
                references,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The ids to check in the database.
    pub fn references(&self) -> &References {
        &self.references
    }
}

/// `PATCH /contracts/{id}`: title, start and category are required; the rest follow
/// [`Patch`]. When the end date is kept, the store re-checks it against the new start with
/// [`check_period`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractUpdate {
    /// `doc_title`.
    pub title: String,
    /// `doc_date_start`.
    pub date_start: NaiveDate,
    /// `doc_categoryid`.
    pub category: CategoryId,
    /// `doc_date_end`.
    pub date_end: Patch<NaiveDate>,
    /// `doc_value`.
    pub value: Patch<Money>,
    /// `doc_body`.
    pub body: Patch<String>,
    references: References,
}

impl ContractUpdate {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let title = form.required("doc_title", text(TextRule::TITLE));
        let date_start = form.required("doc_date_start", read_date);
        let date_end = form.patch("doc_date_end", read_date);
        if let (Some(start), Patch::Set(end)) = (date_start, &date_end)
            && check_period(start, Some(*end)).is_err()
        {
            form.error(
                "doc_date_end",
                message::after_or_equal("doc_date_end", "doc_date_start"),
            );
        }
        let category = form
            .required_ref("doc_categoryid", RefKind::Category(CategoryType::Contract))
            .and_then(CategoryId::new);
        let value = form.patch("doc_value", read_money);
        let body = form.patch("doc_body", text(TextRule::LONG));
        let references = form.finish()?;
        match (title, date_start, category) {
            (Some(title), Some(date_start), Some(category)) => Ok(ContractUpdate {
                title,
                date_start,
                category,
                date_end,
                value,
                body,
                references,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The ids to check in the database.
    pub fn references(&self) -> &References {
        &self.references
    }
}

/// `POST /contracts/{id}/clone`: the new contract's header; body, lead, value (unless
/// given) and the backing estimate's line items are copied from the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractClone {
    /// `doc_title`.
    pub title: String,
    /// `doc_client_id`.
    pub client: ClientId,
    /// `doc_categoryid`.
    pub category: CategoryId,
    /// `doc_date_start`.
    pub date_start: NaiveDate,
    /// `doc_date_end`.
    pub date_end: Option<NaiveDate>,
    /// `doc_project_id`.
    pub project: Option<ProjectId>,
    /// `doc_value`; the source's value when absent.
    pub value: Option<Money>,
    references: References,
}

impl ContractClone {
    /// Reads the command from a request.
    pub fn parse(raw: &RawMap) -> Result<Self, Rejected> {
        let mut form = Form::new(raw);
        let title = form.required("doc_title", text(TextRule::TITLE));
        let client = form
            .required_ref("doc_client_id", RefKind::Client)
            .and_then(ClientId::new);
        let category = form
            .required_ref("doc_categoryid", RefKind::Category(CategoryType::Contract))
            .and_then(CategoryId::new);
        let (date_start, date_end) = read_period(&mut form, true);
        let project = form
            .optional_ref("doc_project_id", RefKind::Project)
            .and_then(ProjectId::new);
        let value = form.optional("doc_value", read_money);
        let references = form.finish()?;
        match (title, client, category, date_start) {
            (Some(title), Some(client), Some(category), Some(date_start)) => Ok(ContractClone {
                title,
                client,
                category,
                date_start,
                date_end,
                project,
                value,
                references,
            }),
            _ => Err(Rejected::default()),
        }
    }

    /// The ids to check in the database.
    pub fn references(&self) -> &References {
        &self.references
    }
}

/// `GET /contracts`: paging, order, sort, search (on the title), and [`ContractFilters`].
pub type ContractListQuery = ListQuery<ContractFilters>;

/// The contract list's filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContractFilters {
    /// `status` filter (the derived status).
    pub status: Option<ContractStatus>,
    /// `client_id` filter.
    pub client: Option<ClientId>,
    /// `category_id` filter.
    pub category: Option<CategoryId>,
}

impl ListFilters for ContractFilters {
    const LIST: &'static str = "contracts";
    type Sort = ContractSort;

    fn read(form: &mut Form<'_>) -> Self {
        ContractFilters {
            status: form.optional("status", read_choice::<ContractStatus>),
            client: form.optional("client_id", read_id).and_then(ClientId::new),
            category: form
                .optional("category_id", read_id)
                .and_then(CategoryId::new),
        }
    }

    fn key(&self) -> String {
        format!(
            "{}|{}|{}",
            self.status.map_or("", |s| s.as_str()),
            self.client.map_or(0, ClientId::get),
            self.category.map_or(0, CategoryId::get)
        )
    }

    fn key_kind(sort: Option<ContractSort>) -> KeyKind {
        match sort {
            None | Some(ContractSort::Created) => KeyKind::Integer,
            Some(ContractSort::Title | ContractSort::Status) => KeyKind::Text,
            Some(ContractSort::DateStart) => KeyKind::Date,
            Some(ContractSort::Value) => KeyKind::Decimal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::test_input::{day, msg, raw};

    const VALID: &[(&str, &str)] = &[
        ("doc_client_id", "12"),
        ("doc_title", "Service Agreement"),
        ("doc_date_start", "2026-06-01"),
        ("doc_categoryid", "6"),
    ];

    #[test]
    fn a_new_contract_reports_every_missing_required_field() {
        let r = NewContract::parse(&raw(&[])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "doc_client_id"),
            ["The doc client id field is required."]
        );
        assert_eq!(
            msg(&r.errors, "doc_title"),
            ["The doc title field is required."]
        );
        assert_eq!(
            msg(&r.errors, "doc_date_start"),
            ["The doc date start field is required."]
        );
        assert_eq!(
            msg(&r.errors, "doc_categoryid"),
            ["The doc categoryid field is required."]
        );
    }

    #[test]
    fn a_new_contract_lists_every_reference_to_check() {
        let mut pairs = VALID.to_vec();
        pairs.extend([
            ("doc_project_id", "3"),
            ("doc_lead_id", "4"),
            ("contract_template", "2"),
        ]);
        let c = NewContract::parse(&raw(&pairs)).unwrap();
        let kinds: Vec<_> = c
            .references()
            .as_slice()
            .iter()
            .map(|r| (r.field.as_str(), r.kind, r.id))
            .collect();
        assert_eq!(
            kinds,
            vec![
                ("doc_client_id", RefKind::Client, 12),
                (
                    "doc_categoryid",
                    RefKind::Category(CategoryType::Contract),
                    6
                ),
                ("doc_project_id", RefKind::Project, 3),
                ("doc_lead_id", RefKind::Lead, 4),
                ("contract_template", RefKind::ContractTemplate, 2),
            ]
        );
    }

    #[test]
    fn a_rejected_contract_still_carries_its_client_reference() {
        let r = NewContract::parse(&raw(&[("doc_client_id", "99999")])).unwrap_err();
        assert_eq!(r.references.as_slice()[0].field, "doc_client_id");
    }

    #[test]
    fn the_end_date_must_not_precede_the_start() {
        let mut pairs = VALID.to_vec();
        pairs.push(("doc_date_end", "2026-05-31"));
        let r = NewContract::parse(&raw(&pairs)).unwrap_err();
        assert_eq!(
            msg(&r.errors, "doc_date_end"),
            ["The doc date end must be a date after or equal to doc date start."]
        );
        pairs.pop();
        pairs.push(("doc_date_end", "2026-06-01"));
        assert!(NewContract::parse(&raw(&pairs)).is_ok());
        assert!(check_period(day("2026-06-02"), Some(day("2026-06-01"))).is_err());
    }

    #[test]
    fn contract_values_and_dates_are_checked() {
        let mut pairs = VALID.to_vec();
        pairs.extend([("doc_value", "12.345"), ("doc_date_end", "2026-13-01")]);
        let r = NewContract::parse(&raw(&pairs)).unwrap_err();
        assert_eq!(
            msg(&r.errors, "doc_value"),
            ["The doc value may not have more than 2 decimal places."]
        );
        assert_eq!(
            msg(&r.errors, "doc_date_end"),
            ["The doc date end is not a valid date."]
        );
    }

    #[test]
    fn an_update_keeps_absent_fields_and_clears_empty_ones() {
        let mut pairs = VALID.to_vec();
        pairs.extend([("doc_value", ""), ("doc_body", "<p>x</p>")]);
        let u = ContractUpdate::parse(&raw(&pairs)).unwrap();
        assert_eq!(u.value, Patch::Clear);
        assert_eq!(u.date_end, Patch::Keep);
        assert_eq!(u.body, Patch::Set("<p>x</p>".to_owned()));
    }

    #[test]
    fn a_clone_needs_title_client_category_and_start() {
        let r = ContractClone::parse(&raw(&[])).unwrap_err();
        for f in [
            "doc_title",
            "doc_client_id",
            "doc_categoryid",
            "doc_date_start",
        ] {
            assert_eq!(r.errors.get(f).map(<[String]>::len), Some(1), "{f}");
        }
        assert!(ContractClone::parse(&raw(VALID)).is_ok());
    }

    #[test]
    fn status_is_draft_until_published() {
        let facts = ContractFacts {
            published: false,
            client_signed: true,
            provider_signed: true,
            date_end: Some(day("2020-01-01")),
        };
        assert_eq!(
            ContractStatus::derive(&facts, day("2026-11-22")),
            ContractStatus::Draft
        );
    }

    #[test]
    fn a_published_contract_awaits_both_signatures_then_is_active_then_expires() {
        let today = day("2026-11-22");
        let mut f = ContractFacts {
            published: true,
            client_signed: true,
            provider_signed: false,
            date_end: Some(today),
        };
        assert_eq!(
            ContractStatus::derive(&f, today),
            ContractStatus::AwaitingSignatures
        );
        f.provider_signed = true;
        assert_eq!(ContractStatus::derive(&f, today), ContractStatus::Active);
        f.date_end = Some(day("2026-11-21"));
        assert_eq!(ContractStatus::derive(&f, today), ContractStatus::Expired);
        f.date_end = None;
        assert_eq!(ContractStatus::derive(&f, today), ContractStatus::Active);
    }

    #[test]
    fn exactly_one_status_matches_any_contract() {
        let today = day("2026-11-22");
        for published in [false, true] {
            for client_signed in [false, true] {
                for provider_signed in [false, true] {
                    for date_end in [None, Some(day("2026-11-21")), Some(today)] {
                        let f = ContractFacts {
                            published,
                            client_signed,
                            provider_signed,
                            date_end,
                        };
                        let expired = date_end.is_some_and(|e| e < today);
                        let signed = client_signed && provider_signed;
                        let matching: Vec<_> = ContractStatus::ALL
                            .into_iter()
                            .filter(|s| {
                                let c = s.conditions();
                                c.published == published
                                    && c.expired.is_none_or(|e| e == expired)
                                    && c.fully_signed.is_none_or(|x| x == signed)
                            })
                            .collect();
                        assert_eq!(matching, vec![ContractStatus::derive(&f, today)], "{f:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_status_filter_accepts_only_the_four_states() {
        let r = ContractListQuery::parse(&raw(&[("status", "signed")])).unwrap_err();
        assert_eq!(
            msg(&r.errors, "status"),
            ["The selected status is invalid."]
        );
        let q = ContractListQuery::parse(&raw(&[
            ("status", "awaiting_signatures"),
            ("client_id", "3"),
        ]))
        .unwrap();
        assert_eq!(q.filters.status, Some(ContractStatus::AwaitingSignatures));
        assert_eq!(q.filters.client.map(ClientId::get), Some(3));
    }
}
