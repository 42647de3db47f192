//! The addresses a delivery may reach: the URL rules and the address classes a webhook may
//! not be sent to.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use crate::validation::message;

/// The longest URL accepted.
pub const MAX_URL_CHARS: usize = 2048;

/// The addresses a delivery may reach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct UrlRules {
    /// `http://` URLs are accepted (`--webhook-allow-http`); else `https://` only.
    pub allow_http: bool,
    /// Loopback, private, link-local, multicast and unspecified addresses are accepted
    /// (`--webhook-allow-private`).
    pub allow_private: bool,
}

/// Whether a webhook may not be sent to this address unless private addresses are allowed:
/// anything that is not a public unicast address. IPv4: 0/8 ("this network", 0.0.0.0),
/// 10/8, 100.64/10 (shared, CGNAT), 127/8, 169.254/16, 172.16/12, 192.0.0/24 (protocol
/// assignments), the documentation ranges 192.0.2/24, 198.51.100/24 and 203.0.113/24,
/// 192.88.99/24 (6to4 relays), 192.168/16, 198.18/15 (benchmarking), 224/4 (multicast),
/// 240/4 (reserved, with 255.255.255.255). IPv6: `::` and `::1`, IPv4-mapped
/// (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4
/// (`2002::/16`) addresses by the IPv4 address inside, `64:ff9b:1::/48`, `100::/64`
/// (discard), `2001::/32` (Teredo), `2001:2::/48` (benchmarking), `2001:db8::/32` and
/// `3fff::/20` (documentation), `fc00::/7` (unique local), `fe80::/10` (link-local),
/// `fec0::/10` (site-local), `ff00::/8` (multicast).
pub fn forbidden(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => forbidden_v4(v4),
        IpAddr::V6(v6) => forbidden_v6(v6),
    }
}

fn forbidden_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    a == 0
        || a == 10
        || (a == 100 && (64..128).contains(&b))
        || a == 127
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && (c == 0 || c == 2))
        || (a == 192 && b == 88 && c == 99)
        || (a == 192 && b == 168)
        || (a == 198 && (b == 18 || b == 19))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224
}

fn forbidden_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    let embedded = |hi: u16, lo: u16| {
        let [a, b] = hi.to_be_bytes();
        let [c, d] = lo.to_be_bytes();
        Ipv4Addr::new(a, b, c, d)
    };
    // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, which includes :: and ::1).
    if s[0..5] == [0; 5] && (s[5] == 0xffff || s[5] == 0) {
        return s[5] == 0 || forbidden_v4(embedded(s[6], s[7]));
    }
    match s[0] {
        // NAT64, well-known prefix (64:ff9b::/96) and local-use (64:ff9b:1::/48).
        0x0064 if s[1] == 0xff9b => {
            s[2] == 1 || (s[2..6] == [0; 4] && forbidden_v4(embedded(s[6], s[7])))
        }
        0x0100 => s[1..4] == [0; 3],
        0x2001 => s[1] == 0 || (s[1] == 2 && s[2] == 0) || s[1] == 0x0db8,
        0x2002 => forbidden_v4(embedded(s[1], s[2])),
        0x3fff => s[1] < 0x1000,
        _ => {
            (s[0] & 0xfe00) == 0xfc00
                || (s[0] & 0xffc0) == 0xfe80
                || (s[0] & 0xffc0) == 0xfec0
                || (s[0] & 0xff00) == 0xff00
        }
    }
}

/// Checks a webhook URL under `rules`: an absolute `https://` (or, when allowed,
/// `http://`) URL of at most 2048 characters with a host, no user name or password and no
/// fragment; an address literal (or `localhost`) must not be a forbidden destination
/// unless private destinations are allowed. A host name is checked again on its resolved
/// addresses at every delivery. The error is the field's message.
pub fn check_url(field: &str, text: &str, rules: UrlRules) -> Result<String, String> {
    let attribute = crate::validation::attribute(field);
    let invalid = || format!("The {attribute} must be a valid URL.");
    if text.chars().count() > MAX_URL_CHARS {
        return Err(message::max_chars(field, MAX_URL_CHARS));
    }
    let url = url::Url::parse(text).map_err(|_| invalid())?;
    match url.scheme() {
        "https" => {}
        "http" if rules.allow_http => {}
        "http" => {
            return Err(format!(
                "The {attribute} must start with https://; http:// is accepted when the service runs with --webhook-allow-http."
            ));
        }
        _ => return Err(invalid()),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(format!(
            "The {attribute} may not contain a user name or password."
        ));
    }
    if url.fragment().is_some() {
        return Err(format!("The {attribute} may not contain a fragment."));
    }
    let private = match url.host() {
        None => return Err(invalid()),
        Some(url::Host::Ipv4(ip)) => forbidden(IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => forbidden(IpAddr::V6(ip)),
        Some(url::Host::Domain(name)) => {
            let name = name.trim_end_matches('.');
            name.eq_ignore_ascii_case("localhost")
                || name.to_ascii_lowercase().ends_with(".localhost")
        }
    };
    if private && !rules.allow_private {
        return Err(format!(
            "The {attribute} may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private."
        ));
    }
    Ok(url.to_string())
}

/// Rules that accept every address, for the tests of this folder.
#[cfg(test)]
pub(super) const OPEN: UrlRules = UrlRules {
    allow_http: true,
    allow_private: true,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_https_with_a_host_and_no_credentials() {
        let strict = UrlRules::default();
        assert_eq!(
            check_url("url", "https://hooks.example.com/in?x=1", strict).as_deref(),
            Ok("https://hooks.example.com/in?x=1")
        );
        for (url, expected) in [
            (
                "http://hooks.example.com/",
                "The url must start with https://; http:// is accepted when the service runs with --webhook-allow-http.",
            ),
            ("ftp://hooks.example.com/", "The url must be a valid URL."),
            ("hooks.example.com", "The url must be a valid URL."),
            ("https://", "The url must be a valid URL."),
            (
                "https://u:p@hooks.example.com/",
                "The url may not contain a user name or password.",
            ),
            (
                "https://hooks.example.com/#x",
                "The url may not contain a fragment.",
            ),
        ] {
            assert_eq!(
                check_url("url", url, strict),
                Err(expected.to_owned()),
                "{url}"
            );
        }
        assert!(check_url("url", "http://hooks.example.com/", OPEN).is_ok());
    }

    #[test]
    fn private_literals_and_localhost_are_refused_unless_allowed() {
        let strict = UrlRules::default();
        for url in [
            "https://127.0.0.1/",
            "https://10.1.2.3/",
            "https://169.254.169.254/latest",
            "https://[::1]/",
            "https://[::ffff:127.0.0.1]/",
            "https://[fd00::1]/",
            "https://0.0.0.0/",
            "https://localhost:8443/",
            "https://api.localhost/",
            "https://224.0.0.1/",
        ] {
            assert_eq!(
                check_url("url", url, strict),
                Err(
                    "The url may not point to a private, loopback or link-local address; such addresses are accepted when the service runs with --webhook-allow-private."
                        .to_owned()
                ),
                "{url}"
            );
            assert!(check_url("url", url, OPEN).is_ok(), "{url}");
        }
        assert!(check_url("url", "https://93.184.216.34/", strict).is_ok());
        assert!(check_url("url", "https://[2606:4700::1111]/", strict).is_ok());
    }

    #[test]
    fn forbidden_addresses_include_their_ipv6_forms() {
        for ip in [
            "127.0.0.1",
            "10.0.0.1",
            "172.16.5.4",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.251",
            "::",
            "::1",
            "fe80::1",
            "fc00::1",
            "ff02::1",
            "::ffff:10.0.0.1",
            "::ffff:169.254.169.254",
            "64:ff9b::7f00:1",
            "::127.0.0.1",
        ] {
            assert!(forbidden(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "93.184.216.34",
            "8.8.8.8",
            "2606:4700::1111",
            "::ffff:8.8.8.8",
        ] {
            assert!(!forbidden(ip.parse().unwrap()), "{ip}");
        }
    }
}
