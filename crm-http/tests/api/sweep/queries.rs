//! The query-parameter sweep, driven by the route table: every keyed GET route without
//! `{id}` is a list. Every list reads `page`, `limit`, `order`, `sort`, `search` and
//! `cursor` through one parser, so each gets the same malformed values of those; each
//! filter its documented operation declares (the served OpenAPI document) gets the
//! malformed values of its kind, and a sort key of another list. A required parameter
//! (milestones' `project_id`) is sent valid in every case, and left out once. Every answer
//! must be a clean 4xx naming the parameter; as a control, every value the document lists
//! for a sort or a filter is accepted.
//!
//! A new list is swept without editing this file; a new kind of filter (one that is not an
//! id or a closed set) fails the sweep with its name until it is given bad values here.

use std::collections::BTreeSet;

use crm_http::router::{Access, ROUTES, Route};
use reqwest::Method;
use serde_json::Value;

use super::body::{Case, Expect, Sent, invalid, short, status};
use super::document::Api;
use super::exchange::{Tally, run};
use super::msg;
use crate::common::TestServer;

/// The parameters every list reads; the others a list documents are its filters.
const COMMON: [&str; 6] = ["page", "limit", "order", "sort", "search", "cursor"];

/// What a filter holds, by its documented schema.
#[derive(Debug)]
enum Filter {
    /// A record id (an integer from 1).
    Id,
    /// One of these texts.
    Choice(Vec<String>),
    /// One of these integers (an invoice status).
    Number(Vec<i64>),
    /// A `YYYY-MM-DD` date (a period's end).
    Date,
    /// An ISO 3166-1 alpha-2 country code (a client's address).
    Country,
}

impl Filter {
    /// The kind of a query parameter's schema.
    fn of(list: &str, name: &str, schema: &Value) -> Filter {
        if schema["$ref"] == "#/components/schemas/CountryInput" {
            return Filter::Country;
        }
        let choices = schema["enum"].as_array();
        match (schema["type"].as_str(), choices) {
            (Some("string"), Some(c)) => Filter::Choice(
                c.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect(),
            ),
            (Some("integer"), Some(c)) => {
                Filter::Number(c.iter().filter_map(Value::as_i64).collect())
            }
            (Some("integer"), None) if schema["minimum"] == 1 => Filter::Id,
            (Some("string"), None) if schema["format"] == "date" => Filter::Date,
            _ => panic!("{list}: the query sweep has no bad values for {name}: {schema}"),
        }
    }

    /// The values the document lists (none for an id).
    fn values(&self) -> Vec<String> {
        match self {
            Filter::Id => Vec::new(),
            Filter::Date => vec!["2026-11-20".to_owned()],
            Filter::Country => vec!["DE".to_owned()],
            Filter::Choice(c) => c.clone(),
            Filter::Number(n) => n.iter().map(i64::to_string).collect(),
        }
    }
}

/// A list of the route table and its documented query parameters.
struct List {
    /// The path.
    path: &'static str,
    /// Valid values of the required parameters, as a query prefix (`project_id=7&`).
    base: String,
    /// The required parameters.
    required: Vec<(String, Filter)>,
    /// The optional filters.
    filters: Vec<(String, Filter)>,
    /// The sort keys.
    sorts: Vec<String>,
}

/// A valid value for a list's required parameter.
fn valid_value(s: &TestServer, list: &str, name: &str) -> String {
    match name {
        "project_id" => s.ids.projects[0].to_string(),
        _ => panic!("{list}: give the query sweep a valid value for the required {name}"),
    }
}

/// Every list of the route table, as the document describes it.
fn lists(s: &TestServer, api: &Api) -> Vec<List> {
    let is_list =
        |r: &&Route| r.method == Method::GET && r.access == Access::Key && !r.path.contains("{id}");
    ROUTES
        .iter()
        .filter(is_list)
        // A GET of one record without an id (`/api/company`) pages nothing.
        .filter(|route| {
            api.query_parameters(route)
                .iter()
                .any(|(name, _, _)| name == "page")
        })
        .map(|route| {
            let mut list = List {
                path: route.path,
                base: String::new(),
                required: Vec::new(),
                filters: Vec::new(),
                sorts: Vec::new(),
            };
            for (name, required, schema) in api.query_parameters(route) {
                if name == "sort" {
                    list.sorts = Filter::of(route.path, &name, schema).values();
                } else if required {
                    let value = valid_value(s, route.path, &name);
                    list.base.push_str(&format!("{name}={value}&"));
                    list.required
                        .push((name.clone(), Filter::of(route.path, &name, schema)));
                } else if !COMMON.contains(&name.as_str()) {
                    list.filters
                        .push((name.clone(), Filter::of(route.path, &name, schema)));
                }
            }
            list
        })
        .collect()
}

/// Malformed values of the parameters every list reads.
fn common_cases(foreign_sort: Option<&str>) -> Vec<(String, Expect)> {
    let long_search = "s".repeat(10_000);
    let mut cases: Vec<(String, Expect)> = Vec::new();
    let mut add = |query: String, field: &str, message: String| {
        cases.push((query, invalid(field, message)));
    };
    for n in ["0", "-1"] {
        add(format!("page={n}"), "page", msg::at_least("page", "1"));
    }
    for q in [
        "page=abc",
        "page=1.5",
        "page=1e3",
        "page=99999999999999999999",
    ] {
        add(q.into(), "page", msg::integer("page"));
    }
    let too_far = msg::at_most("page", "2147483647");
    add("page=2147483648".into(), "page", too_far);
    for q in ["page[]=1", "page[a]=1"] {
        add(q.into(), "page", msg::integer("page"));
    }
    for q in ["limit=abc", "limit=0x10", "limit=NaN"] {
        add(q.into(), "limit", msg::integer("limit"));
    }
    for q in ["limit=0", "limit=-5"] {
        add(q.into(), "limit", msg::at_least("limit", "1"));
    }
    for q in ["order=up", "order=ASC", "order[]=asc"] {
        add(q.into(), "order", msg::invalid("order"));
    }
    let mut sorts = vec![
        "evil;drop",
        "evil%3B%20DROP%20TABLE%20notes",
        "password",
        "id%00",
    ];
    sorts.extend(foreign_sort);
    for q in sorts {
        add(format!("sort={q}"), "sort", msg::invalid("sort"));
    }
    let too_long = msg::max_chars("search", 250);
    add(format!("search={long_search}"), "search", too_long);
    add("search=a%00b".into(), "search", msg::format("search"));
    add("search[]=x".into(), "search", msg::string("search"));
    add("cursor=zzz".into(), "cursor", msg::invalid("cursor"));
    let all_four = ["page", "limit", "order", "sort"].map(|k| (k.to_owned(), None));
    cases.push((
        "page=0&limit=0&order=up&sort=zzz".into(),
        Expect::Invalid(all_four.to_vec()),
    ));
    cases.push(("search=%FF".into(), status(400, msg::NOT_UTF8)));
    let deep = format!("page{}=1", "[a]".repeat(30));
    cases.push((deep, status(400, msg::TOO_DEEP)));
    cases
}

/// Malformed values of filter `f`.
fn filter_cases(f: &str, filter: &Filter) -> Vec<(String, Expect)> {
    let mut cases: Vec<(String, Expect)> = Vec::new();
    let mut add = |value: String, message: String| cases.push((value, invalid(f, message)));
    match filter {
        Filter::Id => {
            for v in ["=1e3", "=abc", "=1.5", "=9223372036854775808", "[]=1"] {
                add(format!("{f}{v}"), msg::integer(f));
            }
            for v in ["0", "-1"] {
                add(format!("{f}={v}"), msg::invalid(f));
            }
        }
        Filter::Choice(values) => {
            let mut bad: Vec<String> = ["=zzz", "=%3Cb%3E", "[]=x"].map(String::from).to_vec();
            if let Some(first) = values.first() {
                // Another case is another value (a VAT category is upper case already).
                for other in [first.to_uppercase(), first.to_lowercase()] {
                    if other != *first {
                        bad.push(format!("={other}"));
                    }
                }
                bad.push(format!("={first}x"));
            }
            for v in bad {
                add(format!("{f}{v}"), msg::invalid(f));
            }
        }
        Filter::Date => {
            for v in [
                "2026-02-30",
                "2026-1-1",
                "tomorrow",
                "2026-13-01",
                "2026-01-01T00:00:00Z",
                "1e9999",
                "%2B2026-01-01",
            ] {
                add(format!("{f}={v}"), msg::date(f));
            }
            add(format!("{f}[]=2026-01-01"), msg::date(f));
        }
        Filter::Country => {
            for v in ["=de", "=DEU", "=ZZ", "=Germany", "[]=DE"] {
                add(format!("{f}{v}"), msg::invalid(f));
            }
        }
        Filter::Number(values) => {
            let max = values.iter().max().copied().unwrap_or_default();
            let mut bad: Vec<String> = ["zzz", "2.5", "1e0", "-1", "99999999999999999999"]
                .map(|v| format!("={v}"))
                .to_vec();
            bad.push(format!("={}", max + 1));
            bad.push("[]=1".to_owned());
            if !values.contains(&0) {
                bad.push("=0".to_owned());
            }
            for v in bad {
                add(format!("{f}{v}"), msg::invalid(f));
            }
        }
    }
    cases
}

/// A list's required parameters, each left out.
fn required_cases(list: &List) -> Vec<Case> {
    let mut cases = Vec::new();
    for (name, _) in &list.required {
        let others: String = list
            .base
            .split('&')
            .filter(|p| !p.is_empty() && !p.starts_with(&format!("{name}=")))
            .map(|p| format!("{p}&"))
            .collect();
        cases.push(Case {
            label: format!("no {}", name.replace('_', " ")),
            method: Method::GET,
            path: format!("{}?{others}page=1", list.path),
            sent: Sent::None,
            expect: invalid(name, msg::required(name)),
        });
    }
    cases
}

/// Every malformed query of a list.
fn cases(list: &List, all_sorts: &BTreeSet<String>) -> Vec<Case> {
    let foreign = all_sorts.iter().find(|k| !list.sorts.contains(k));
    let mut queries = common_cases(foreign.map(String::as_str));
    for (name, filter) in list.required.iter().chain(&list.filters) {
        queries.extend(filter_cases(name, filter));
    }
    // A required id names a record that must exist.
    for (name, filter) in &list.required {
        if matches!(filter, Filter::Id) {
            queries.push((format!("{name}=999999"), invalid(name, msg::invalid(name))));
        }
    }
    let mut cases = required_cases(list);
    // A parameter given twice: the last one counts (a required one's valid value, in the
    // base, is overridden by the case's).
    cases.extend(queries.into_iter().map(|(query, expect)| Case {
        label: short(&Value::String(query.clone())),
        method: Method::GET,
        path: format!("{}?{}{query}", list.path, list.base),
        sent: Sent::None,
        expect,
    }));
    cases
}

/// Every value the document lists for a sort or a filter is accepted.
async fn assert_documented_values_accepted(s: &TestServer, list: &List) -> usize {
    let mut queries = vec!["page=1".to_owned()];
    queries.extend(list.sorts.iter().map(|k| format!("sort={k}")));
    for (name, filter) in &list.filters {
        queries.extend(filter.values().iter().map(|v| format!("{name}={v}")));
    }
    for query in &queries {
        let a = s.get(&format!("{}?{}{query}", list.path, list.base)).await;
        assert_eq!(a.status.as_u16(), 200, "{} {query}: {}", list.path, a.json);
    }
    queries.len()
}

#[tokio::test]
async fn list_endpoints_refuse_malformed_query_parameters_by_name() {
    let s = TestServer::start().await;
    let api = Api::fetch(&s).await;
    let lists = lists(&s, &api);
    for path in [
        "/api/invoices",
        "/api/emails",
        "/api/milestones",
        "/api/payments",
    ] {
        assert!(lists.iter().any(|l| l.path == path), "{path} is swept");
    }
    let all_sorts: BTreeSet<String> = lists.iter().flat_map(|l| l.sorts.clone()).collect();
    let mut tally = Tally::default();
    let mut accepted = 0;
    for list in &lists {
        accepted += assert_documented_values_accepted(&s, list).await;
        run(&s, list.path, cases(list, &all_sorts), &mut tally).await;
    }
    println!(
        "query sweep: {} lists, {}; {accepted} documented values accepted",
        lists.len(),
        tally.summary()
    );
    tally.assert_clean();
}
