//! The whole estimate flow over HTTP against a running service: a category of type
//! `estimate`, an estimate for a seeded client, its line items with a summary tax rate,
//! publishing, and conversion to an invoice.
//!
//! ```text
//! cargo run --release -p crm-http -- seed && cargo run --release -p crm-http -- keys create --name example
//! CRM_URL=http://127.0.0.1:8080 CRM_API_KEY=crm_… cargo run --example http_estimate_flow
//! cargo run --example http_estimate_flow -- http://127.0.0.1:8080 crm_…   # the same, by arguments
//! ```
//!
//! `CRM_CLIENT_ID` (default 1, the seed's "Acme Inc") and `CRM_TAX_RATE_ID` (default 5, the
//! seed's "GST 10%") choose the client and the summary tax rate.

use std::error::Error;
use std::time::{SystemTime, UNIX_EPOCH};

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

type Failure = Box<dyn Error>;

/// A client of the API: base URL, key and HTTP connection.
struct Api {
    base: String,
    key: String,
    http: reqwest::Client,
}

impl Api {
    /// Sends `body` as JSON and returns `data` when the status is `expected`; any other
    /// answer is an error carrying the service's message (and field errors).
    async fn call(
        &self,
        method: Method,
        path: &str,
        body: Option<Value>,
        expected: StatusCode,
    ) -> Result<Value, Failure> {
        let mut request = self
            .http
            .request(method.clone(), format!("{}{path}", self.base))
            .bearer_auth(&self.key);
        if let Some(body) = body {
            request = request.json(&body);
        }
        let response = request.send().await?;
        let status = response.status();
        let answer: Value = response.json().await.unwrap_or(Value::Null);
        if status != expected {
            return Err(format!("{method} {path}: {status} {answer}").into());
        }
        Ok(answer["data"].clone())
    }
}

/// Argument `index`, else the environment variable `name`, else `default`.
fn setting(index: usize, name: &str, default: Option<&str>) -> Result<String, Failure> {
    std::env::args()
        .nth(index)
        .or_else(|| std::env::var(name).ok())
        .or_else(|| default.map(str::to_owned))
        .ok_or_else(|| {
            format!("give {name} (argument {index} or environment variable; --help for usage)")
                .into()
        })
}

/// The environment variable `name` as an id, else `default`.
fn env_id(name: &str, default: i64) -> Result<i64, Failure> {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .map_err(|_| format!("{name} must be a record id, not {v}").into()),
        Err(_) => Ok(default),
    }
}

fn id_of(record: &Value) -> Result<i64, Failure> {
    record["id"]
        .as_i64()
        .ok_or_else(|| format!("no id in {record}").into())
}

/// A member as text: strings without their quotes, anything else as JSON.
fn t(value: &Value) -> String {
    value
        .as_str()
        .map_or_else(|| value.to_string(), str::to_owned)
}

fn print_totals(totals: &Value) {
    println!(
        "   totals: subtotal {}, discount {}, tax {} ({}%), adjustment {}, final {}",
        t(&totals["subtotal"]),
        t(&totals["discount_amount"]),
        t(&totals["tax_total_amount"]),
        t(&totals["tax_total_percentage"]),
        t(&totals["adjustment_amount"]),
        t(&totals["final_amount"])
    );
}

const USAGE: &str = "\
http_estimate_flow: the whole estimate flow over HTTP against a running, seeded service

usage: http_estimate_flow [URL [KEY]]

  URL   the service (else CRM_URL, else http://127.0.0.1:8080)
  KEY   an API key, crm_<id>_<secret> (else CRM_API_KEY; required)
Environment: CRM_CLIENT_ID (default 1, the seed's Acme Inc), CRM_TAX_RATE_ID (default 5,
the seed's GST 10%). It writes: a category, an estimate and the invoice it converts to.";

#[tokio::main]
async fn main() -> std::process::ExitCode {
    if crm_workspace::example_cli::help_requested(USAGE) {
        return std::process::ExitCode::SUCCESS;
    }
    crm_workspace::example_cli::finish("http_estimate_flow", run().await)
}

async fn run() -> Result<(), Failure> {
    let api = Api {
        base: setting(1, "CRM_URL", Some("http://127.0.0.1:8080"))?
            .trim_end_matches('/')
            .to_owned(),
        key: setting(2, "CRM_API_KEY", None)?,
        http: reqwest::Client::new(),
    };
    let client_id = env_id("CRM_CLIENT_ID", 1)?;
    let tax_rate_id = env_id("CRM_TAX_RATE_ID", 5)?;
    let today = chrono::Utc::now().date_naive().to_string();
    println!("Service: {}", api.base);

    // 1. A category of type estimate (names are unique per type: add a stamp).
    let stamp = SystemTime::now().duration_since(UNIX_EPOCH)?.as_millis();
    let category = api
        .call(
            Method::POST,
            "/api/categories",
            Some(json!({"category_name": format!("Web projects {stamp}"), "category_type": "estimate", "category_visibility": "team"})),
            StatusCode::CREATED,
        )
        .await?;
    println!(
        "1. category {} \"{}\" (type {}, slug {})",
        category["id"],
        t(&category["name"]),
        t(&category["type"]),
        t(&category["slug"])
    );

    // 2. An estimate for the client, in summary tax mode.
    let estimate = api
        .call(
            Method::POST,
            "/api/estimates",
            Some(json!({
                "bill_clientid": client_id,
                "bill_categoryid": id_of(&category)?,
                "bill_date": today,
                "bill_tax_type": "summary",
                "bill_terms": "Payable within 30 days."
            })),
            StatusCode::CREATED,
        )
        .await?;
    let id = id_of(&estimate)?;
    println!(
        "2. estimate {id} for {} (client {}), status {}, dated {}",
        t(&estimate["client"]["name"]),
        estimate["client"]["id"],
        t(&estimate["status"]),
        t(&estimate["dates"]["date"])
    );

    // 3. The complete bill: two lines (numbers as JSON numbers or text) and one summary tax rate.
    let estimate = api
        .call(
            Method::PUT,
            &format!("/api/estimates/{id}/items"),
            Some(json!({
                "items": [
                    {"description": "Design", "unit": "hours", "quantity": 12, "rate": "85.50"},
                    {"description": "Hosting (first year)", "quantity": "1", "rate": 240}
                ],
                "tax_rate_ids": [tax_rate_id]
            })),
            StatusCode::OK,
        )
        .await?;
    println!("3. items set:");
    for line in estimate["line_items"].as_array().into_iter().flatten() {
        println!(
            "   {}. {} — {} × {} = {}",
            line["position"],
            t(&line["description"]),
            t(&line["quantity"]),
            t(&line["rate"]),
            t(&line["total"])
        );
    }
    for tax in estimate["taxes"].as_array().into_iter().flatten() {
        println!("   tax: {} at {}%", t(&tax["name"]), t(&tax["rate"]));
    }
    print_totals(&estimate["totals"]);

    // 4. Publish: draft → new, and the estimate email is queued for the client.
    let estimate = api
        .call(
            Method::PUT,
            &format!("/api/estimates/{id}/publish"),
            None,
            StatusCode::OK,
        )
        .await?;
    println!("4. published: status {}", t(&estimate["status"]));

    // 5. Convert to an invoice (201, the invoice); the estimate records the conversion.
    let invoice = api
        .call(
            Method::POST,
            &format!("/api/estimates/{id}/convert-to-invoice"),
            None,
            StatusCode::CREATED,
        )
        .await?;
    println!(
        "5. invoice {} ({}), dated {}, due {}, {} lines, from estimate {}",
        invoice["id"],
        t(&invoice["status"]["title"]),
        t(&invoice["dates"]["date"]),
        t(&invoice["dates"]["due_date"]),
        invoice["line_items"].as_array().map_or(0, Vec::len),
        invoice["estimate_id"]
    );
    print_totals(&invoice["totals"]);
    let estimate = api
        .call(
            Method::GET,
            &format!("/api/estimates/{id}"),
            None,
            StatusCode::OK,
        )
        .await?;
    println!(
        "   estimate {id} now: status {}, converted {}",
        t(&estimate["status"]),
        estimate["converted"]
    );

    // Converting twice is a conflict.
    match api
        .call(
            Method::POST,
            &format!("/api/estimates/{id}/convert-to-invoice"),
            None,
            StatusCode::CREATED,
        )
        .await
    {
        Err(e) => println!("   converting again: {e}"),
        Ok(_) => return Err("a second conversion was accepted".into()),
    }
    Ok(())
}
