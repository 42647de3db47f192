//! The writes of the records around the areas (API.md §17): the company, clients, tax
//! rates, projects and the key's own user. Their groups (`address`, `bank`, `peppol`) are
//! swept member by member from the document; the rules of each area are the extras here.

use serde_json::json;

use crate::sweep::body::{ALL, Expect, invalid, status};
use crate::sweep::document::Api;
use crate::sweep::msg;
use crate::sweep::target::Target;
use crate::sweep::world::World;

/// A full identity: every member of every group, so that each is swept.
fn identity() -> serde_json::Value {
    json!({
        "address": {"line1": "Hauptstraße 1", "line2": "Hof", "city": "Berlin", "postcode": "10115", "region": "Berlin", "country": "DE"},
        "vat_id": "DE123456789",
        "peppol": {"scheme": "9930", "id": "DE123456789"}
    })
}

/// The company, client, tax rate, project and user targets.
pub fn targets(w: &World, api: &Api) -> Vec<Target> {
    let mut company = identity();
    let extra = json!({"legal_name": "Sweep GmbH", "trading_name": "Sweep", "tax_id": "12/345/67890", "registration": "HRB 12345", "contact_name": "Ada", "email": "billing@sweep.example", "phone": "+49 30 1234", "website": "https://sweep.example", "bank": {"iban": "DE89370400440532013000", "bic": "COBADEFFXXX", "account_name": "Sweep GmbH"}, "currency": "EUR", "timezone": "Europe/Berlin", "payment_terms": "14 days", "number_formats": {"invoice": "SW-{YYYY}-{SEQ:5}", "estimate": "SWE-{YY}{MM}-{SEQ:3}", "credit_note": "SWC-{YYYY}-{SEQ:4}"}, "reminders": ["-3", "7", "14"]});
    merge(&mut company, extra);
    let update_company = Target::new(api, "updateCompany", "/api/company".into(), company).extra(
        "an address that is not a group",
        json!({"address": "Berlin"}),
        ALL,
        invalid("address", msg::array("address")),
    );

    let mut client = identity();
    merge(
        &mut client,
        json!({"company_name": "Sweep Client", "contact_name": "Bo", "contact_email": "bo@client.example", "buyer_reference": "04011000-1", "currency": "CHF", "status": "active"}),
    );
    let create_client = Target::new(api, "createClient", "/api/clients".into(), client.clone());
    let update_client = Target::new(
        api,
        "updateClient",
        format!("/api/clients/{}", w.client),
        client,
    )
    .extra(
        "a name cleared",
        json!({"company_name": null}),
        ALL,
        invalid("company_name", msg::required("company_name")),
    );
    let delete_client = Target::new(
        api,
        "deleteClient",
        format!("/api/clients/{}", w.empty_client),
        json!({}),
    )
    .extra_at(
        "a client with records",
        format!("/api/clients/{}", w.client),
        json!({}),
        status(409, "Client has records."),
    );

    let rate = json!({"name": "Sweep VAT", "rate": "19", "status": "enabled", "exemption_reason": null, "exemption_code": null});
    let exempt_without_reason = || {
        invalid(
            "exemption_reason",
            msg::required_if("exemption_reason", "vat_category", "AE"),
        )
    };
    let create_rate = Target::new(api, "createTaxRate", "/api/tax-rates".into(), rate.clone())
        .extra(
            "an exempt category without its reason",
            json!({"name": "RC", "rate": "0", "vat_category": "AE"}),
            ALL,
            exempt_without_reason(),
        )
        .extra(
            "an exemption code outside the list",
            json!({"name": "RC", "rate": "0", "vat_category": "AE", "exemption_code": "VATEX-EU-ZZ"}),
            ALL,
            invalid("exemption_code", msg::invalid("exemption_code")),
        );
    let update_rate = Target::new(
        api,
        "updateTaxRate",
        format!("/api/tax-rates/{}", w.unused_rate),
        json!({"name": "Sweep VAT 2", "status": "enabled"}),
    )
    .extra(
        "an exempt category without its reason",
        json!({"vat_category": "AE", "rate": "0"}),
        ALL,
        exempt_without_reason(),
    )
    .extra_at(
        "the system rate's rate",
        "/api/tax-rates/1".to_owned(),
        json!({"rate": "5", "vat_category": "S"}),
        status(409, "The system tax rate cannot be changed or deleted."),
    );
    let delete_rate = Target::new(
        api,
        "deleteTaxRate",
        format!("/api/tax-rates/{}", w.unused_rate),
        json!({}),
    )
    .extra_at(
        "the system rate",
        "/api/tax-rates/1".to_owned(),
        json!({}),
        status(409, "The system tax rate cannot be changed or deleted."),
    );

    let project = json!({"title": "Sweep Project", "client_id": w.client, "category_id": w.default_project_category, "status": "in_progress", "start_date": "2026-01-01", "due_date": "2026-02-01"});
    let due_first = || invalid("due_date", msg::after_or_equal("due_date", "start_date"));
    let create_project = Target::new(api, "createProject", "/api/projects".into(), project.clone())
        .extra(
            "due before the start",
            json!({"title": "P", "client_id": w.client, "start_date": "2026-02-02", "due_date": "2026-02-01"}),
            ALL,
            due_first(),
        );
    let update_project = Target::new(
        api,
        "updateProject",
        format!("/api/projects/{}", w.empty_project),
        project,
    )
    .extra(
        "due before the start",
        json!({"start_date": "2026-02-02", "due_date": "2026-02-01"}),
        ALL,
        due_first(),
    );
    let delete_project = Target::new(
        api,
        "deleteProject",
        format!("/api/projects/{}", w.empty_project),
        json!({}),
    );

    let me = Target::new(
        api,
        "updateMe",
        "/api/users/me".into(),
        json!({"first_name": "Main", "last_name": "Administrator", "email": "admin@example.com"}),
    )
    .extra(
        "another user's email",
        json!({"email": "JANE.DOE@example.com"}),
        ALL,
        Expect::Invalid(vec![(
            "email".to_owned(),
            Some("The email has already been taken.".to_owned()),
        )]),
    );
    vec![
        update_company,
        create_client,
        update_client,
        delete_client,
        create_rate,
        update_rate,
        delete_rate,
        create_project,
        update_project,
        delete_project,
        me,
    ]
}

/// Adds the members of `more` to `base`.
fn merge(base: &mut serde_json::Value, more: serde_json::Value) {
    if let (Some(base), serde_json::Value::Object(more)) = (base.as_object_mut(), more) {
        base.extend(more);
    }
}
