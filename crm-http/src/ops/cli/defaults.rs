//! The demo defaults that must not reach a company's clients unnoticed: `crm serve` warns
//! at start about each one still in effect (issue 53): a public URL on a loopback address
//! (client links no one else can open), the default company name ("CRM has sent you an
//! estimate") and a sender at `localhost` (mail refused or marked, replies lost).

use crate::ops::mail::Mailer;

/// The company name when none is configured (`--company-name`).
pub(crate) const DEFAULT_COMPANY: &str = "CRM";

/// One sentence per demo default still in effect, saying which flag changes it.
pub(crate) fn warnings(public_url: &str, company: &str, mailer: &Mailer) -> Vec<String> {
    let mut found = Vec::new();
    if is_loopback_url(public_url) {
        found.push(format!(
            "client links point to {public_url}, a loopback address your clients cannot \
             open: set --public-url / CRM_PUBLIC_URL to the service's public https:// address"
        ));
    }
    if company == DEFAULT_COMPANY {
        found.push(format!(
            "the company name is the default \"{DEFAULT_COMPANY}\" (clients read \"{DEFAULT_COMPANY} \
             has sent you an estimate\"): set --company-name / CRM_COMPANY_NAME"
        ));
    }
    if mailer.sender_is_local() {
        found.push(
            "emails are sent from an address at localhost, which mail servers refuse or mark as \
             spam and replies never reach: set --mail-from / CRM_MAIL_FROM (\"Acme Billing \
             <billing@acme.example>\")"
                .to_owned(),
        );
    }
    found
}

/// Whether `url` (`http://host[:port][/path]`) names a loopback or unspecified address,
/// or `localhost`.
fn is_loopback_url(url: &str) -> bool {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let authority = authority
        .rsplit_once('@')
        .map_or(authority, |(_, host)| host);
    let host = match authority.strip_prefix('[') {
        Some(bracketed) => bracketed.split(']').next().unwrap_or_default(),
        None => authority.split(':').next().unwrap_or_default(),
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    if host == "localhost" || host.ends_with(".localhost") {
        return true;
    }
    host.parse::<std::net::IpAddr>()
        .is_ok_and(|ip| ip.is_loopback() || ip.is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_public_urls_are_recognised() {
        for url in [
            "http://127.0.0.1:8080",
            "http://127.0.0.1:8181/",
            "https://localhost/crm",
            "http://[::1]:8080",
            "http://0.0.0.0:8080",
            "http://api.localhost",
        ] {
            assert!(is_loopback_url(url), "{url}");
        }
        for url in [
            "https://crm.acme.example",
            "https://10.0.0.5:8443/crm",
            "http://[2001:db8::1]:80",
        ] {
            assert!(!is_loopback_url(url), "{url}");
        }
    }

    #[test]
    fn each_demo_default_in_effect_is_one_warning_naming_its_flag() {
        let local = Mailer::new(Some("file:///tmp"), crate::ops::mail::DEFAULT_FROM).unwrap();
        let all = warnings("http://127.0.0.1:8080", DEFAULT_COMPANY, &local);
        assert_eq!(all.len(), 3, "{all:?}");
        for (warning, flag) in all
            .iter()
            .zip(["--public-url", "--company-name", "--mail-from"])
        {
            assert!(warning.contains(flag), "{warning}");
        }
        let acme = Mailer::new(Some("file:///tmp"), "Acme <billing@acme.example>").unwrap();
        assert!(warnings("https://crm.acme.example", "Acme Co", &acme).is_empty());
    }
}
