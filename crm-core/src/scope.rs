//! What an API key may do (API.md §15): its scopes, its expiry, and the one decision that
//! lets a request through, refuses it (403) or finds the key expired (401).
//!
//! A scope is a [`Level`] over one [`Area`] (`estimates:read`) or over every area (`read`,
//! `write`). `write` implies `read`, and a scope over every area implies the same level over
//! each one. What a request [`Need`]s comes from its route: the area is the path's first
//! segment after `/api/` and the level is `read` for `GET` (and `HEAD`), `write` for every
//! other method ([`Need::of_route`]); the route table computes it when it is compiled, so a
//! route cannot be added without one.
//!
//! Nothing here reads a clock: [`Grant::decide`] and [`Lifetime::expiry`] take `now`.

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use chrono::{DateTime, TimeDelta, Utc};

use crate::choice::Choice;

crate::choice_enum!(
    /// A part of the API a scope can name: the first path segment after `/api/`.
    pub enum Area {
        /// `/api/categories`.
        Categories = "categories",
        /// `/api/contracts`.
        Contracts = "contracts",
        /// `/api/estimates`.
        Estimates = "estimates",
        /// `/api/invoices`.
        Invoices = "invoices",
        /// `/api/milestones`.
        Milestones = "milestones",
        /// `/api/notes`.
        Notes = "notes",
        /// `/api/payments`.
        Payments = "payments",
        /// `/api/credit-notes` (issued through `/api/invoices/{id}/credit-notes`).
        CreditNotes = "credit-notes",
        /// `/api/recurring-invoices` (schedules that make invoices).
        RecurringInvoices = "recurring-invoices",
        /// `/api/emails` (the outbox; read-only).
        Emails = "emails",
        /// `/api/webhooks`.
        Webhooks = "webhooks",
        /// `/api/company` (the seller's identity).
        Company = "company",
        /// `/api/clients`.
        Clients = "clients",
        /// `/api/tax-rates`.
        TaxRates = "tax-rates",
        /// `/api/projects`.
        Projects = "projects",
        /// `/api/users` (the key's own user).
        Users = "users",
        /// `/api/activity`, and every record's `/api/<area>/{id}/activity` (API.md §21:
        /// reading a record's history needs this scope, not the record's area).
        Activity = "activity",
    }
);

crate::choice_enum!(
    /// How much a scope allows; `Write` implies `Read` (the order of the variants).
    pub enum Level {
        /// `GET` and `HEAD`.
        Read = "read",
        /// Every method.
        Write = "write",
    }
);

impl Area {
    /// The area named `name`, in a constant context too (the route table computes each
    /// route's [`Need`] when it is compiled).
    pub const fn named(name: &str) -> Option<Area> {
        let all = <Area as Choice>::CHOICES;
        let mut i = 0;
        while i < all.len() {
            if same(all[i].0.as_bytes(), name.as_bytes()) {
                return Some(all[i].1);
            }
            i += 1;
        }
        None
    }
}

/// Byte-wise equality usable in a constant context.
const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// What one request needs: a level on one area (`estimates:write`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Need {
    /// The area of the route.
    pub area: Area,
    /// `Read` for `GET` and `HEAD`, `Write` otherwise.
    pub level: Level,
}

impl Need {
    /// The need of the API route `method path`: the area is the path's first segment after
    /// `/api/` (`/api/estimates/{id}/clone` → `estimates`), the level `read` for `GET` and
    /// `HEAD` and `write` for any other method. A path ending `/activity` (a record's
    /// history, API.md §21) is in [`Area::Activity`] whatever its first segment. `None`
    /// when the path is not under `/api/` or its first segment names no [`Area`].
    pub const fn of_route(method: &str, path: &str) -> Option<Need> {
        let path = path.as_bytes();
        let prefix = b"/api/";
        if path.len() <= prefix.len() || !same(path.split_at(prefix.len()).0, prefix) {
            return None;
        }
        let rest = path.split_at(prefix.len()).1;
        let mut end = 0;
        while end < rest.len() && rest[end] != b'/' {
            end += 1;
        }
        let segment = rest.split_at(end).0;
        let Ok(segment) = std::str::from_utf8(segment) else {
            return None;
        };
        let Some(area) = Area::named(segment) else {
            return None;
        };
        // A record's history is the activity area's, whatever the record's area.
        let suffix = b"/activity";
        let area = if path.len() > suffix.len()
            && same(path.split_at(path.len() - suffix.len()).1, suffix)
        {
            Area::Activity
        } else {
            area
        };
        let method = method.as_bytes();
        let level = if same(method, b"GET") || same(method, b"HEAD") {
            Level::Read
        } else {
            Level::Write
        };
        Some(Need { area, level })
    }

    /// The narrowest scope that grants this need.
    pub fn scope(self) -> Scope {
        Scope {
            area: Some(self.area),
            level: self.level,
        }
    }
}

impl fmt::Display for Need {
    /// `estimates:read`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.area, self.level)
    }
}

/// One scope of a key: a level over one area or over every area.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scope {
    /// The area, or `None` for every area.
    pub area: Option<Area>,
    /// The level.
    pub level: Level,
}

impl Scope {
    /// `read`: every `GET` of every area.
    pub const READ: Scope = Scope {
        area: None,
        level: Level::Read,
    };

    /// `write`: everything (the default of a new key, and what every key made before
    /// scopes existed has).
    pub const WRITE: Scope = Scope {
        area: None,
        level: Level::Write,
    };

    /// Whether holding this scope gives everything `other` gives.
    pub fn implies(self, other: Scope) -> bool {
        let area = match (self.area, other.area) {
            (None, _) => true,
            (Some(mine), Some(theirs)) => mine == theirs,
            (Some(_), None) => false,
        };
        area && self.level >= other.level
    }

    /// Whether this scope grants `need`.
    pub fn grants(self, need: Need) -> bool {
        self.implies(need.scope())
    }

    /// Every scope there is: `read`, `write`, then `<area>:read` and `<area>:write` for
    /// each area.
    pub fn all() -> Vec<Scope> {
        let mut out = vec![Scope::READ, Scope::WRITE];
        for (_, area) in Area::CHOICES {
            for (_, level) in Level::CHOICES {
                out.push(Scope {
                    area: Some(*area),
                    level: *level,
                });
            }
        }
        out
    }
}

impl fmt::Display for Scope {
    /// `read`, `write`, `notes:read`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.area {
            Some(area) => write!(f, "{area}:{}", self.level),
            None => write!(f, "{}", self.level),
        }
    }
}

/// A text that is not a scope.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{text}` is not a scope: use read, write, or <area>:read / <area>:write with an area of {}",
    area_names()
)]
pub struct UnknownScope {
    /// The text as given.
    pub text: String,
}

/// The area names, comma-separated.
fn area_names() -> String {
    Area::CHOICES
        .iter()
        .map(|(name, _)| *name)
        .collect::<Vec<_>>()
        .join(", ")
}

impl FromStr for Scope {
    type Err = UnknownScope;

    /// `read`, `write`, `<area>:read`, `<area>:write`, exactly (lower case, no spaces).
    fn from_str(text: &str) -> Result<Scope, UnknownScope> {
        let unknown = || UnknownScope {
            text: text.to_owned(),
        };
        let (area, level) = match text.split_once(':') {
            Some((area, level)) => (Some(Area::named(area).ok_or_else(unknown)?), level),
            None => (None, text),
        };
        let level = Level::from_text(level).ok_or_else(unknown)?;
        Ok(Scope { area, level })
    }
}

/// A key's scopes: a set with nothing implied twice (`write` and `notes:read` is `write`),
/// in a fixed order (every-area scopes first, then by area). It may be empty only when read
/// from a row whose scopes this version does not know ([`Scopes::known`]): such a key can
/// do nothing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scopes(Vec<Scope>);

impl Scopes {
    /// Everything: `write`.
    pub fn everything() -> Scopes {
        Scopes(vec![Scope::WRITE])
    }

    /// The scopes of `texts`: every text must be a scope, and there must be one at least.
    pub fn parse<'a>(texts: impl IntoIterator<Item = &'a str>) -> Result<Scopes, ScopesError> {
        let mut scopes = Vec::new();
        for text in texts {
            scopes.push(text.parse::<Scope>()?);
        }
        if scopes.is_empty() {
            return Err(ScopesError::Empty);
        }
        Ok(Scopes::of(scopes))
    }

    /// The scopes of stored texts, skipping any this version does not know (a row written
    /// by a newer version): an unknown scope grants nothing here.
    pub fn known<'a>(texts: impl IntoIterator<Item = &'a str>) -> Scopes {
        Scopes::of(texts.into_iter().filter_map(|t| t.parse().ok()))
    }

    /// The set of `scopes`, without the ones another of them implies.
    pub fn of(scopes: impl IntoIterator<Item = Scope>) -> Scopes {
        let given: BTreeSet<Scope> = scopes.into_iter().collect();
        let kept = given
            .iter()
            .filter(|s| !given.iter().any(|o| o != *s && o.implies(**s)))
            .copied()
            .collect();
        Scopes(kept)
    }

    /// Whether one of the scopes grants `need`.
    pub fn allow(&self, need: Need) -> bool {
        self.0.iter().any(|s| s.grants(need))
    }

    /// The scopes, in their order.
    pub fn iter(&self) -> impl Iterator<Item = Scope> + '_ {
        self.0.iter().copied()
    }

    /// The scopes as texts (what is stored).
    pub fn texts(&self) -> Vec<String> {
        self.0.iter().map(Scope::to_string).collect()
    }
}

impl fmt::Display for Scopes {
    /// `read,notes:write`; `-` for none.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.is_empty() {
            return f.write_str("-");
        }
        for (i, scope) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{scope}")?;
        }
        Ok(())
    }
}

impl serde::Serialize for Scopes {
    /// As the list of their texts: `["read", "notes:write"]`.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(Scope::to_string))
    }
}

/// Why a list of scopes was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScopesError {
    /// One text is not a scope.
    #[error(transparent)]
    Unknown(#[from] UnknownScope),
    /// No scope at all.
    #[error("a key needs one scope at least")]
    Empty,
}

/// How long a new key works: `--expires-in 90d` (days) or `12h` (hours), from 1 hour to
/// 10 years.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Lifetime(TimeDelta);

/// The longest lifetime a key can be given: ten years of 365 days.
const LONGEST_DAYS: i64 = 3650;

impl Lifetime {
    /// The expiry of a key made at `now`.
    pub fn expiry(self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        now.checked_add_signed(self.0)
    }

    /// The lifetime as a duration.
    pub fn duration(self) -> TimeDelta {
        self.0
    }
}

/// A text that is not a lifetime.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a lifetime: a number of days or hours, such as 90d or 12h, from 1h to 3650d")]
pub struct BadLifetime(pub String);

impl FromStr for Lifetime {
    type Err = BadLifetime;

    fn from_str(text: &str) -> Result<Lifetime, BadLifetime> {
        let bad = || BadLifetime(text.to_owned());
        let (number, hours_per_unit) = if let Some(days) = text.strip_suffix('d') {
            (days, 24)
        } else if let Some(hours) = text.strip_suffix('h') {
            (hours, 1)
        } else {
            return Err(bad());
        };
        if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) || number.len() > 6 {
            return Err(bad());
        }
        let hours = number.parse::<i64>().map_err(|_| bad())? * hours_per_unit;
        if !(1..=LONGEST_DAYS * 24).contains(&hours) {
            return Err(bad());
        }
        Ok(Lifetime(TimeDelta::hours(hours)))
    }
}

/// What a key is granted: its scopes and, if it has one, the instant it stops working.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grant {
    /// What it may do.
    pub scopes: Scopes,
    /// From when it no longer works; `None`: never expires.
    pub expires: Option<DateTime<Utc>>,
}

/// The answer to a request made with a valid key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Within its scopes and not expired: go on.
    Allowed,
    /// Past its expiry (401, as an unknown key: an expired key is no key).
    Expired,
    /// Not within its scopes (403).
    OutOfScope,
}

impl Grant {
    /// Everything, for ever: what `crm keys create` gives without `--scope` or
    /// `--expires-in`, and what every key made before scopes existed has.
    pub fn everything() -> Grant {
        Grant {
            scopes: Scopes::everything(),
            expires: None,
        }
    }

    /// Whether the key no longer works at `now` (it stops at its expiry instant).
    pub fn is_expired(&self, now: DateTime<Utc>) -> bool {
        self.expires.is_some_and(|at| now >= at)
    }

    /// The verdict on a request needing `need` at `now`: an expired key is refused as
    /// expired whatever it asks for.
    pub fn decide(&self, need: Need, now: DateTime<Utc>) -> Verdict {
        if self.is_expired(now) {
            Verdict::Expired
        } else if self.scopes.allow(need) {
            Verdict::Allowed
        } else {
            Verdict::OutOfScope
        }
    }
}

#[cfg(test)]
mod tests {
    use chrono::TimeZone;
    use proptest::prelude::*;

    use super::*;

    fn scope(text: &str) -> Scope {
        text.parse().unwrap()
    }

    fn need(method: &str, path: &str) -> Need {
        Need::of_route(method, path).unwrap()
    }

    fn at(hour: u32, minute: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, hour, minute, 0).unwrap()
    }

    #[test]
    fn scopes_read_and_print_as_the_contract_writes_them() {
        for text in [
            "read",
            "write",
            "estimates:read",
            "notes:write",
            "webhooks:write",
        ] {
            assert_eq!(scope(text).to_string(), text);
        }
        assert_eq!(
            scope("payments:read"),
            Scope {
                area: Some(Area::Payments),
                level: Level::Read
            }
        );
        for bad in [
            "",
            "READ",
            "admin",
            "notes",
            "notes:",
            ":read",
            "notes:delete",
            "people:read",
            " read",
            "notes:read:write",
        ] {
            assert!(bad.parse::<Scope>().is_err(), "{bad:?}");
        }
        let error = "notes:delete".parse::<Scope>().unwrap_err().to_string();
        assert!(
            error.contains("`notes:delete`") && error.contains("webhooks"),
            "{error}"
        );
    }

    #[test]
    fn write_implies_read_and_every_area_implies_each_area() {
        assert!(Scope::WRITE.implies(Scope::READ));
        assert!(!Scope::READ.implies(Scope::WRITE));
        assert!(Scope::WRITE.implies(scope("notes:write")));
        assert!(Scope::READ.implies(scope("notes:read")));
        assert!(!Scope::READ.implies(scope("notes:write")));
        assert!(scope("notes:write").implies(scope("notes:read")));
        assert!(!scope("notes:write").implies(scope("estimates:read")));
        assert!(!scope("notes:write").implies(Scope::READ));
    }

    #[test]
    fn a_route_needs_its_paths_area_at_its_methods_level() {
        assert_eq!(need("GET", "/api/estimates").to_string(), "estimates:read");
        assert_eq!(
            need("GET", "/api/estimates/{id}/pdf").to_string(),
            "estimates:read"
        );
        assert_eq!(need("HEAD", "/api/notes/{id}").to_string(), "notes:read");
        for method in ["POST", "PUT", "PATCH", "DELETE"] {
            assert_eq!(
                need(method, "/api/estimates/{id}/clone").to_string(),
                "estimates:write"
            );
        }
        assert_eq!(need("POST", "/api/payments").to_string(), "payments:write");
        assert_eq!(
            need("GET", "/api/webhooks/{id}").to_string(),
            "webhooks:read"
        );
        assert_eq!(
            need("PATCH", "/api/tax-rates/{id}").to_string(),
            "tax-rates:write"
        );
        assert_eq!(need("GET", "/api/users/me").to_string(), "users:read");
        for (method, path) in [
            ("GET", "/healthz"),
            ("GET", "/api/openapi.json"),
            ("GET", "/api/"),
            ("GET", "/api"),
            ("GET", "/api/people"),
            ("GET", "/c/{token}"),
            ("GET", "/apinotes"),
        ] {
            assert_eq!(Need::of_route(method, path), None, "{method} {path}");
        }
    }

    #[test]
    fn a_records_history_needs_the_activity_scope_whatever_its_area() {
        let need = Need::of_route("GET", "/api/invoices/{id}/activity").unwrap();
        assert_eq!(need.area, Area::Activity);
        assert_eq!(need.level, Level::Read);
        assert_eq!(
            Need::of_route("GET", "/api/activity").unwrap().area,
            Area::Activity
        );
        assert_eq!(
            Need::of_route("GET", "/api/invoices/{id}").unwrap().area,
            Area::Invoices
        );
    }

    #[test]
    fn the_need_of_a_route_is_known_when_the_program_is_compiled() {
        const NEED: Option<Need> = Need::of_route("PUT", "/api/milestones/positions");
        assert_eq!(
            NEED,
            Some(Need {
                area: Area::Milestones,
                level: Level::Write
            })
        );
    }

    #[test]
    fn a_set_of_scopes_keeps_only_what_nothing_else_in_it_implies() {
        let scopes = Scopes::parse(["notes:read", "write", "read"]).unwrap();
        assert_eq!(scopes.to_string(), "write");
        let scopes =
            Scopes::parse(["notes:write", "notes:read", "read", "estimates:write"]).unwrap();
        assert_eq!(scopes.to_string(), "read,estimates:write,notes:write");
        assert_eq!(scopes.texts(), ["read", "estimates:write", "notes:write"]);
        assert_eq!(Scopes::parse([]), Err(ScopesError::Empty));
        assert!(matches!(
            Scopes::parse(["read", "nope"]),
            Err(ScopesError::Unknown(_))
        ));
        assert_eq!(Scopes::known(["read", "ledger:write"]).to_string(), "read");
        assert_eq!(Scopes::known(["ledger:write"]).to_string(), "-");
    }

    #[test]
    fn a_read_only_key_reads_everything_and_writes_nothing() {
        let read = Scopes::parse(["read"]).unwrap();
        assert!(read.allow(need("GET", "/api/invoices/{id}")));
        assert!(read.allow(need("GET", "/api/emails")));
        assert!(!read.allow(need("POST", "/api/notes")));
        assert!(!read.allow(need("DELETE", "/api/notes/{id}")));
    }

    #[test]
    fn an_area_key_is_refused_everywhere_else() {
        let notes = Scopes::parse(["notes:write", "estimates:read"]).unwrap();
        assert!(notes.allow(need("GET", "/api/notes")));
        assert!(notes.allow(need("PUT", "/api/notes/{id}/tags")));
        assert!(notes.allow(need("GET", "/api/estimates/{id}")));
        assert!(!notes.allow(need("PATCH", "/api/estimates/{id}")));
        assert!(!notes.allow(need("GET", "/api/contracts")));
        assert!(!Scopes::known(["ledger:write"]).allow(need("GET", "/api/notes")));
    }

    #[test]
    fn a_key_expires_at_its_instant_by_the_clock_it_is_given() {
        let grant = Grant {
            scopes: Scopes::everything(),
            expires: Some(at(12, 0)),
        };
        let get = need("GET", "/api/notes");
        assert_eq!(grant.decide(get, at(11, 59)), Verdict::Allowed);
        assert_eq!(grant.decide(get, at(12, 0)), Verdict::Expired);
        assert_eq!(grant.decide(get, at(23, 0)), Verdict::Expired);
        assert_eq!(Grant::everything().decide(get, at(23, 0)), Verdict::Allowed);
    }

    #[test]
    fn expiry_is_decided_before_scope() {
        let grant = Grant {
            scopes: Scopes::parse(["notes:read"]).unwrap(),
            expires: Some(at(12, 0)),
        };
        let write = need("POST", "/api/notes");
        assert_eq!(grant.decide(write, at(11, 0)), Verdict::OutOfScope);
        assert_eq!(grant.decide(write, at(13, 0)), Verdict::Expired);
    }

    #[test]
    fn lifetimes_are_days_or_hours() {
        let now = at(9, 30);
        let ninety: Lifetime = "90d".parse().unwrap();
        assert_eq!(ninety.expiry(now), Some(now + TimeDelta::days(90)));
        let twelve: Lifetime = "12h".parse().unwrap();
        assert_eq!(twelve.expiry(now), Some(at(21, 30)));
        assert_eq!(
            "3650d".parse::<Lifetime>().unwrap().duration(),
            TimeDelta::days(3650)
        );
        for bad in [
            "", "90", "d", "0d", "0h", "3651d", "-1d", "1.5d", "90 d", "90D", "1w", "9999999d",
        ] {
            assert!(bad.parse::<Lifetime>().is_err(), "{bad:?}");
        }
    }

    fn any_scope() -> impl Strategy<Value = Scope> {
        let all = Scope::all();
        (0..all.len()).prop_map(move |i| all[i])
    }

    fn any_need() -> impl Strategy<Value = Need> {
        (0..Area::CHOICES.len(), any::<bool>()).prop_map(|(i, write)| Need {
            area: Area::CHOICES[i].1,
            level: if write { Level::Write } else { Level::Read },
        })
    }

    proptest! {
        #[test]
        fn every_scope_reads_back_from_its_text(s in any_scope()) {
            prop_assert_eq!(s.to_string().parse::<Scope>(), Ok(s));
        }

        #[test]
        fn dropping_implied_scopes_changes_no_answer(
            given in proptest::collection::vec(any_scope(), 1..6),
            n in any_need(),
        ) {
            let reduced = Scopes::of(given.clone());
            prop_assert_eq!(reduced.allow(n), given.iter().any(|s| s.grants(n)));
            let again = Scopes::parse(reduced.texts().iter().map(String::as_str)).unwrap();
            prop_assert_eq!(again, reduced);
        }

        #[test]
        fn a_scope_that_grants_write_grants_read(s in any_scope(), n in any_need()) {
            let read = Need { level: Level::Read, ..n };
            if s.grants(Need { level: Level::Write, ..n }) {
                prop_assert!(s.grants(read));
            }
        }
    }
}
