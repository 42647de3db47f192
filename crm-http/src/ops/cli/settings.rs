//! One configuration across instances (issue 47): the settings that every `crm serve` and
//! `crm deliver` sharing a database must agree on, checked against the database when the
//! command starts ([`crm_store_pg::settings`]).
//!
//! Which settings: those whose disagreement would make the shared data mean two things or
//! make one instance fail another's work:
//!
//! | flag | why it must agree |
//! |---|---|
//! | `--webhook-allow-http`, `--webhook-allow-private` | an endpoint one instance accepts, another fails at every delivery it picks up |
//! | `--public-url` | the base of every record's `client_link`: two values give one record two representations (and two ETags) and its emails two links; checked when given (its default, `http://<--listen>`, is each process's own): an instance started without it uses the stored one, if any |
//! | `--company-name`, `--paper` | one version of a bill would have two pages, PDFs and emails |
//! | `--link-ttl` | a link's lifetime would depend on the instance that made it |
//! | `--mail-attach-pdf`, `--mail-attach-einvoice` | what a client's email carries, and whether its page offers the e-invoice, would depend on the instance |
//! | `--totals-policy` | the arithmetic of a new document would depend on the instance that created it |
//!
//! Everything else shapes one process only (addresses, pools, timeouts, limits, CORS, the
//! mail transport and sender, replicas, Redis) and may differ. `crm deliver` renders
//! nothing, so it checks only the webhook policy it applies. None of these values is a
//! secret, so a refusal prints them.

use crm_core::webhook::UrlRules;
use crm_store_pg::settings::{Disagreement, Setting};
use crm_store_pg::{ClientSide, Store};

use crate::documents::Presentation;

use super::Failure;

/// The flag that makes an instance store its values over the stored ones.
pub(crate) const TAKE_OVER_FLAG: &str = "--take-over-settings";

/// The name of the public URL's setting, which an instance started without
/// `--public-url` reads from the database ([`agree`]).
pub(crate) const PUBLIC_URL: &str = "public-url";

/// The name of the e-invoice format's setting (`--mail-attach-einvoice`).
const EINVOICE: &str = "mail-attach-einvoice";

/// Its value when the emails carry no e-invoice.
const NO_EINVOICE: &str = "none";

/// The settings of an instance: the webhook policy, and with `client` (`crm serve`) what
/// links, pages, PDFs and emails are made with and the arithmetic of new documents; the public URL only when `--public-url`
/// was given (`public_url_given`).
pub(crate) fn of(
    client: Option<(&ClientSide, &Presentation, crm_core::totals::Policy)>,
    public_url_given: bool,
    rules: UrlRules,
) -> Vec<Setting> {
    let setting = |name, value: String| Setting { name, value };
    let mut settings = vec![
        setting("webhook-allow-http", rules.allow_http.to_string()),
        setting("webhook-allow-private", rules.allow_private.to_string()),
    ];
    if let Some((client, presentation, policy)) = client {
        if public_url_given {
            settings.push(setting(PUBLIC_URL, client.public_url.clone()));
        }
        settings.extend([
            setting("company-name", presentation.company.clone()),
            setting("link-ttl", client.link_ttl_days.to_string()),
            setting("paper", presentation.paper.name().to_owned()),
            setting("mail-attach-pdf", presentation.attach_pdf.to_string()),
            setting(
                EINVOICE,
                presentation
                    .einvoice
                    .map_or(NO_EINVOICE, crm_einvoice::Format::name)
                    .to_owned(),
            ),
            setting("totals-policy", policy.name().to_owned()),
        ]);
    }
    settings
}

/// What `crm deliver`'s scheduler makes invoices with, from the `stored` settings the
/// instances agreed on (each default where none is stored): the public URL, the link
/// lifetime, the company name and the totals policy go into `config`; the presentation
/// (company name, paper, attached PDF and e-invoice) of the emails is returned. So an invoice a
/// recurring schedule makes is the same whichever process makes it.
pub(crate) fn adopt(
    stored: &std::collections::BTreeMap<String, String>,
    config: &mut crm_store_pg::StoreConfig,
) -> Presentation {
    let mut presentation = Presentation::default();
    if let Some(url) = stored.get(PUBLIC_URL) {
        config.client.public_url = url.clone();
    }
    if let Some(days) = stored.get("link-ttl").and_then(|d| d.parse().ok()) {
        config.client.link_ttl_days = days;
    }
    if let Some(name) = stored.get("company-name") {
        config.client.company_name = name.clone();
        presentation.company = name.clone();
    }
    if let Some(policy) = stored
        .get("totals-policy")
        .and_then(|p| crm_core::totals::Policy::from_name(p))
    {
        config.totals_policy = policy;
    }
    if let Some(paper) = stored
        .get("paper")
        .and_then(|p| crm_render::pdf::Paper::from_name(p))
    {
        presentation.paper = paper;
    }
    presentation.attach_pdf = stored.get("mail-attach-pdf").is_some_and(|a| a == "true");
    presentation.einvoice = stored
        .get(EINVOICE)
        .and_then(|f| crm_einvoice::Format::from_name(f));
    presentation.pdf_cache_bytes = 0;
    presentation
}

/// Checks `ours` against the database: stores what is not stored yet, refuses to start
/// (one line naming each differing flag and both values) unless `take_over`, when this
/// instance's values replace the stored ones and the log says which. Returns every stored
/// value by name (what an instance that did not name a setting reads).
pub(crate) async fn agree(
    store: &Store,
    ours: &[Setting],
    take_over: bool,
) -> Result<std::collections::BTreeMap<String, String>, Failure> {
    let agreement = store.agree_settings(ours, take_over).await?;
    if !agreement.differing.is_empty() && !take_over {
        return Err(refusal(&agreement.differing).into());
    }
    if !agreement.stored.is_empty() {
        tracing::info!(
            settings = ?agreement.stored,
            "settings stored in the database: every instance sharing it must use the same"
        );
    }
    for taken in &agreement.differing {
        tracing::warn!(
            setting = %format!("--{}", taken.name),
            was = %shown(&taken.stored),
            now = %shown(&taken.ours),
            "{TAKE_OVER_FLAG}: this instance's value replaces the stored one (instances still \
             running with the old value keep it until they restart, and then refuse to start)"
        );
    }
    Ok(agreement.values)
}

/// The refusal: one line naming every differing setting with this instance's value and
/// the stored one, and the two ways out.
fn refusal(differing: &[Disagreement]) -> String {
    let each: Vec<String> = differing
        .iter()
        .map(|d| {
            format!(
                "--{} is {} here but {} in the database",
                d.name,
                shown(&d.ours),
                shown(&d.stored)
            )
        })
        .collect();
    format!(
        "this instance disagrees with the settings stored in the database, which every \
         instance sharing it must use: {}; start it with the stored values, or with \
         {TAKE_OVER_FLAG} to store this instance's",
        each.join("; ")
    )
}

/// A value as a refusal shows it: as it is when it is one plain word or URL, else quoted.
fn shown(value: &str) -> String {
    let plain = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ":/._-".contains(c));
    match plain {
        true => value.to_owned(),
        false => format!("{value:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_one_line_naming_each_flag_with_both_values() {
        let line = refusal(&[
            Disagreement {
                name: "webhook-allow-http",
                ours: "false".to_owned(),
                stored: "true".to_owned(),
            },
            Disagreement {
                name: "company-name",
                ours: "Acme Ltd".to_owned(),
                stored: "CRM".to_owned(),
            },
        ]);
        assert!(!line.contains('\n'), "{line}");
        assert!(
            line.contains("--webhook-allow-http is false here but true in the database"),
            "{line}"
        );
        assert!(
            line.contains(r#"--company-name is "Acme Ltd" here but CRM in the database"#),
            "{line}"
        );
        assert!(line.ends_with("or with --take-over-settings to store this instance's"));
    }

    #[test]
    fn serve_checks_what_links_pages_and_emails_are_made_with_and_deliver_the_webhook_policy() {
        let rules = UrlRules {
            allow_http: true,
            allow_private: false,
        };
        let names = |settings: Vec<Setting>| settings.iter().map(|s| s.name).collect::<Vec<_>>();
        assert_eq!(
            names(of(None, true, rules)),
            ["webhook-allow-http", "webhook-allow-private"]
        );
        assert!(
            !names(of(
                Some((
                    &ClientSide::default(),
                    &Presentation::default(),
                    crm_core::totals::Policy::ExactDecimal,
                )),
                false,
                rules
            ))
            .contains(&PUBLIC_URL)
        );
        let serve = of(
            Some((
                &ClientSide::default(),
                &Presentation::default(),
                crm_core::totals::Policy::ExactDecimal,
            )),
            true,
            rules,
        );
        assert_eq!(
            names(serve.clone()),
            [
                "webhook-allow-http",
                "webhook-allow-private",
                "public-url",
                "company-name",
                "link-ttl",
                "paper",
                "mail-attach-pdf",
                "mail-attach-einvoice",
                "totals-policy"
            ]
        );
        assert_eq!(serve[0].value, "true");
        assert_eq!(serve[5].value, "a4");
        assert_eq!(serve[7].value, "none");
        assert_eq!(serve[8].value, "exact");
    }
}
