//! The write targets of the two bill areas: estimates and invoices take the same fields (the
//! shared bill machinery), so one set of target rows serves both, with a [`Bill`] naming
//! what differs (titles, the end date's field, the status vocabulary, the clone's needs).

mod items;

use serde_json::{Value, json};

use super::tags_target;
use crate::sweep::body::{ALL, Expect, invalid, status, with};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// A bill area of the sweep.
pub struct Bill {
    /// `Estimate`, `Invoice` (operation ids, messages).
    title: &'static str,
    /// `estimates`, `invoices`.
    area: &'static str,
    /// `bill_expiry_date`, `bill_due_date`.
    end_date: &'static str,
    /// The default category of the area's type.
    category: String,
    /// Whether a clone takes `bill_categoryid` (estimates) or copies it and needs the due
    /// date (invoices).
    clone_takes_category: bool,
    /// A draft with one line.
    draft: i64,
    /// The draft `PUT …/publish` publishes (an invoice's own: issued, it is locked).
    publishable: i64,
    /// A published one.
    published: i64,
    /// A valid `PUT status` body that leaves the draft a draft.
    status: Value,
    /// A derived (not settable) status.
    derived_status: Value,
    /// The records of the world the bodies name.
    refs: Refs,
}

/// The records of the world a bill body names, as text.
struct Refs {
    /// The client.
    client: String,
    /// The project.
    project: String,
    /// A category of another type (contract).
    contract_category: String,
    /// Two enabled tax rates and a disabled one.
    enabled_rate: String,
    other_rate: String,
    disabled_rate: String,
}

impl Refs {
    fn of(w: &World) -> Refs {
        Refs {
            client: w.client.to_string(),
            project: w.project.to_string(),
            contract_category: w.category.to_string(),
            enabled_rate: w.enabled_rate.to_string(),
            other_rate: w.other_rate.to_string(),
            disabled_rate: w.disabled_rate.to_string(),
        }
    }
}

impl Bill {
    /// The estimates' area.
    pub fn estimates(w: &World) -> Bill {
        Bill {
            title: "Estimate",
            area: "estimates",
            end_date: "bill_expiry_date",
            category: w.default_estimate_category.to_string(),
            clone_takes_category: true,
            draft: w.estimate,
            publishable: w.estimate,
            published: w.published,
            status: json!({"status": "draft"}),
            derived_status: json!({"status": "expired"}),
            refs: Refs::of(w),
        }
    }

    /// The invoices' area.
    pub fn invoices(w: &World) -> Bill {
        Bill {
            title: "Invoice",
            area: "invoices",
            end_date: "bill_due_date",
            category: w.default_invoice_category.to_string(),
            clone_takes_category: false,
            draft: w.invoice,
            publishable: w.publishable_invoice,
            published: w.published_invoice,
            status: json!({"status": 1}),
            derived_status: json!({"status": 3}),
            refs: Refs::of(w),
        }
    }

    /// `createEstimate`, `cloneInvoice`, …
    fn op(&self, verb: &str) -> String {
        format!("{verb}{}", self.title)
    }

    /// `setEstimateItems`, `setInvoiceTags`, …
    fn set_op(&self, what: &str) -> String {
        format!("set{}{what}", self.title)
    }

    /// `/api/estimates/7/items`, …
    fn path(&self, id: i64, tail: &str) -> String {
        format!("/api/{}/{id}{tail}", self.area)
    }

    /// The end date before the bill's date.
    fn end_before(&self) -> String {
        msg::after_or_equal(self.end_date, "bill_date")
    }

    /// `body` with a category of another type.
    fn wrong_category(&self, body: &Value) -> (Value, Expect) {
        let body = with(body, "bill_categoryid", json!(self.refs.contract_category));
        (
            body,
            invalid("bill_categoryid", msg::invalid("bill_categoryid")),
        )
    }

    /// The write targets of the area (all but an estimate's conversion).
    pub fn targets(&self, api: &Api) -> Vec<Target> {
        vec![
            self.create(api),
            self.update(api),
            Target::new(
                api,
                &self.op("delete"),
                self.path(self.draft, ""),
                json!({}),
            ),
            self.items(api),
            self.status(api),
            tags_target(api, &self.set_op("Tags"), self.path(self.draft, "/tags")),
            self.clone_target(api),
            self.publish(api),
            self.send(api),
            Target::new(
                api,
                &format!("make{}Link", self.title),
                self.path(self.published, "/link"),
                json!({}),
            ),
            Target::new(
                api,
                &format!("revoke{}Link", self.title),
                self.path(self.published, "/link"),
                json!({}),
            ),
        ]
    }

    /// `POST /api/{area}`.
    fn create(&self, api: &Api) -> Target {
        let base = with(
            &json!({
                "bill_clientid": self.refs.client, "bill_categoryid": self.category, "bill_date": "2026-03-01",
                "bill_projectid": self.refs.project, "bill_tax_type": "summary", "bill_notes": "n", "bill_terms": "t"
            }),
            self.end_date,
            json!("2026-04-01"),
        );
        let (other_type, refused) = self.wrong_category(&base);
        let early = with(&base, self.end_date, json!("2026-02-28"));
        let path = format!("/api/{}", self.area);
        Target::new(api, &self.op("create"), path, base)
            .extra("contract category", other_type, ALL, refused)
            .extra(
                "end date before date",
                early,
                ALL,
                invalid(self.end_date, self.end_before()),
            )
    }

    /// `PATCH /api/{area}/{id}`.
    fn update(&self, api: &Api) -> Target {
        let patch = with(
            &json!({
                "bill_categoryid": self.category, "bill_date": "2026-03-01", "bill_projectid": self.refs.project,
                "bill_notes": "n", "bill_terms": "t", "bill_discount_type": "fixed", "bill_discount_amount": "1.00",
                "bill_adjustment_description": "adj", "bill_adjustment_amount": "-5.00"
            }),
            self.end_date,
            json!("2026-04-01"),
        );
        let (other_type, refused) = self.wrong_category(&patch);
        let percentage = "bill_discount_percentage";
        Target::new(
            api,
            &self.op("update"),
            self.path(self.draft, ""),
            patch.clone(),
        )
        .extra("contract category", other_type, ALL, refused)
        .extra(
            "end date before date",
            with(&patch, self.end_date, json!("2026-02-28")),
            ALL,
            invalid(self.end_date, self.end_before()),
        )
        .extra(
            "inline with a header discount",
            with(&patch, "bill_tax_type", json!("inline")),
            ALL,
            invalid(
                "bill_discount_type",
                "The bill discount type must be none when bill tax type is inline.".into(),
            ),
        )
        .extra(
            "percentage discount without a percentage",
            with(&patch, "bill_discount_type", json!("percentage")),
            ALL,
            invalid(
                percentage,
                msg::required_if(percentage, "bill_discount_type", "percentage"),
            ),
        )
    }

    /// `PUT /api/{area}/{id}/status`.
    fn status(&self, api: &Api) -> Target {
        let path = self.path(self.draft, "/status");
        Target::new(api, &self.set_op("Status"), path, self.status.clone()).extra(
            "a derived status",
            self.derived_status.clone(),
            ALL,
            invalid("status", msg::invalid("status")),
        )
    }

    /// `POST /api/{area}/{id}/clone`.
    fn clone_target(&self, api: &Api) -> Target {
        let mut base = with(
            &json!({"bill_clientid": self.refs.client, "bill_date": "2026-05-01", "bill_projectid": self.refs.project}),
            self.end_date,
            json!("2026-05-31"),
        );
        if self.clone_takes_category {
            base = with(&base, "bill_categoryid", json!(self.category));
        }
        let early = with(&base, self.end_date, json!("2026-04-30"));
        let (other_type, refused) = self.wrong_category(&base);
        let path = self.path(self.draft, "/clone");
        let clone = Target::new(api, &self.op("clone"), path, base).extra(
            "end date before date",
            early,
            ALL,
            invalid(self.end_date, self.end_before()),
        );
        if self.clone_takes_category {
            clone.extra("contract category", other_type, ALL, refused)
        } else {
            clone
        }
    }

    /// `PUT /api/{area}/{id}/publish`.
    fn publish(&self, api: &Api) -> Target {
        let path = self.path(self.publishable, "/publish");
        Target::new(api, &self.op("publish"), path, json!({})).extra_at(
            "already published",
            self.path(self.published, "/publish"),
            json!({}),
            status(409, &format!("{} has already been published.", self.title)),
        )
    }

    /// `POST /api/{area}/{id}/send-email`.
    fn send(&self, api: &Api) -> Target {
        let operation = format!("send{}Email", self.title);
        let path = self.path(self.published, "/send-email");
        Target::new(api, &operation, path, json!({})).extra_at(
            "a draft",
            self.path(self.draft, "/send-email"),
            json!({}),
            status(409, &format!("{} is still in draft status.", self.title)),
        )
    }
}

/// `POST /api/estimates/{id}/convert-to-invoice` (estimates only).
pub fn convert(w: &World, api: &Api) -> Target {
    let path = |id: i64| format!("/api/estimates/{id}/convert-to-invoice");
    Target::new(api, "convertEstimate", path(w.estimate), json!({})).extra_at(
        "already converted",
        path(w.published),
        json!({}),
        status(409, "Estimate has already been converted to an invoice."),
    )
}
