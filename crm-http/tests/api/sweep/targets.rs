//! The target rows of the write sweep, one area a file: each names a route by its operation
//! id, a real record's path, a valid body, and the endpoint's own bad requests (a rule of its
//! area: a duplicate name, a category of another type, an end before its start). Everything
//! else — method, template, 404 message, fields and their bad values — is derived
//! ([`Target::new`]). [`targets`] must hold exactly one row per write route of the table; the
//! sweep fails on a missing or extra one.

mod bills;
mod categories;
mod contracts;
mod credit_notes;
mod milestones;
mod notes;
mod payments;
mod records;
mod recurring_invoices;
mod webhooks;

use serde_json::json;

use super::body::invalid;
use super::document::Api;
use super::msg;
use super::target::Target;
use super::world::World;

/// Every write endpoint of the route table, aimed at real records.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let mut out = categories::targets(w, api);
    out.extend(contracts::targets(w, api));
    out.extend(bills::Bill::estimates(w).targets(api));
    out.extend(bills::Bill::invoices(w).targets(api));
    out.push(bills::convert(w, api));
    out.extend(milestones::targets(w, api));
    out.extend(notes::targets(w, api));
    out.extend(payments::targets(w, api));
    out.extend(credit_notes::targets(w, api));
    out.extend(recurring_invoices::targets(w, api));
    out.extend(webhooks::targets(w, api));
    out.extend(records::targets(w, api));
    out
}

/// A `PUT …/tags` route, with tag sets appended past the limit in url-encoded bodies.
fn tags_target(api: &Api, operation: &str, path: String) -> Target {
    let too_many = || invalid("tags", msg::max_items("tags", 100));
    Target::new(api, operation, path, json!({"tags": ["alpha", "beta"]}))
        .appended("tags", "tags[]=x", 10_000, too_many())
        .appended("tags", "tags[]=x", 0, too_many())
        .appended("tags", "tags%5B%5D=x", 0, too_many())
}
