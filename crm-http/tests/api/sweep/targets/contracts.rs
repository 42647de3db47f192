//! The contract writes: create, update, delete, tags, clone. The three bodies refuse a
//! category of another type and an end before the start.

use serde_json::{Value, json};

use super::tags_target;
use crate::sweep::body::{ALL, invalid, with};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// The contract targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let s = |v: i64| v.to_string();
    let (client, project, category) = (s(w.client), s(w.project), s(w.category));
    let record = format!("/api/contracts/{}", w.contract);
    let create = json!({
        "doc_client_id": client, "doc_title": "Sweep Contract 2", "doc_date_start": "2026-02-01", "doc_date_end": "2026-12-31",
        "doc_categoryid": category, "doc_value": "1500.00", "doc_project_id": project, "doc_lead_id": s(w.lead),
        "doc_body": "<p>Body</p>", "contract_template": s(w.template)
    });
    let update = json!({"doc_title": "Sweep Contract Renamed", "doc_date_start": "2026-01-15", "doc_date_end": "2026-06-30", "doc_categoryid": category, "doc_value": "99.99", "doc_body": "b"});
    let clone = json!({"doc_title": "Sweep Clone", "doc_client_id": client, "doc_categoryid": category, "doc_date_start": "2026-03-01", "doc_date_end": "2026-04-01", "doc_project_id": project, "doc_value": "10"});
    let dated = |operation: &str, path: String, base: Value, early_end: &str| {
        let other_type = with(
            &base,
            "doc_categoryid",
            json!(s(w.default_estimate_category)),
        );
        let early = with(&base, "doc_date_end", json!(early_end));
        Target::new(api, operation, path, base)
            .extra(
                "estimate category",
                other_type,
                ALL,
                invalid("doc_categoryid", msg::invalid("doc_categoryid")),
            )
            .extra(
                "end before start",
                early,
                ALL,
                invalid(
                    "doc_date_end",
                    msg::after_or_equal("doc_date_end", "doc_date_start"),
                ),
            )
    };
    vec![
        dated(
            "createContract",
            "/api/contracts".into(),
            create,
            "2026-01-31",
        ),
        dated("updateContract", record.clone(), update, "2026-01-14"),
        Target::new(api, "deleteContract", record.clone(), json!({})),
        tags_target(api, "setContractTags", format!("{record}/tags")),
        dated(
            "cloneContract",
            format!("{record}/clone"),
            clone,
            "2026-02-28",
        ),
    ]
}
