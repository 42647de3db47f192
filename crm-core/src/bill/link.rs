//! Client links (API.md §12): the address at which a client reads an estimate or invoice
//! without an API key, `<public url>/c/<token>`.
//!
//! A token is 32 random bytes written as 64 lower-case hex digits: 256 bits that cannot be
//! guessed or enumerated. The store draws the bytes (this crate has no randomness) and
//! keeps the token, since the record shows its link; the rules of what a token looks like,
//! when a link expires and how its address is written are here.

use chrono::{DateTime, Duration, Utc};
use serde::Serialize;

use crate::time::Timestamp;

/// How many random bytes a token carries.
pub const TOKEN_BYTES: usize = 32;

/// A token's length in characters (two hex digits per byte).
pub const TOKEN_CHARS: usize = TOKEN_BYTES * 2;

/// The default lifetime of a link, in days (`--link-ttl`).
pub const DEFAULT_TTL_DAYS: u32 = 180;

/// The longest lifetime `--link-ttl` accepts, in days (ten years).
pub const MAX_TTL_DAYS: u32 = 3650;

/// A link as the record shows it: `client_link: {"url": …, "expires": …}`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClientLink {
    /// `<public url>/c/<token>`.
    pub url: String,
    /// When the link stops working.
    pub expires: Timestamp,
}

impl ClientLink {
    /// The link of `token` under `base` (the public URL; a trailing `/` is not doubled).
    pub fn new(base: &str, token: &str, expires: Timestamp) -> ClientLink {
        ClientLink {
            url: format!("{}{}", base.trim_end_matches('/'), path(token)),
            expires,
        }
    }
}

/// The page's path of `token`: `/c/<token>`.
pub fn path(token: &str) -> String {
    format!("/c/{token}")
}

/// The token text of `bytes`: lower-case hex.
pub fn token_text(bytes: &[u8; TOKEN_BYTES]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut text = String::with_capacity(TOKEN_CHARS);
    for b in bytes {
        text.push(char::from(HEX[usize::from(b >> 4)]));
        text.push(char::from(HEX[usize::from(b & 0x0f)]));
    }
    text
}

/// Whether `text` has a token's form (64 lower-case hex digits). Anything else is a bad
/// link without asking the database.
pub fn is_token(text: &str) -> bool {
    text.len() == TOKEN_CHARS
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// When a link made at `created` expires, `ttl_days` later.
pub fn expires_at(created: DateTime<Utc>, ttl_days: u32) -> DateTime<Utc> {
    created + Duration::days(i64::from(ttl_days))
}

/// Whether a link expiring at `expires` still works at `now` (it stops at that instant).
pub fn is_live(expires: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now < expires
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(h: u32) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 25, h, 0, 0).unwrap()
    }

    #[test]
    fn a_token_is_64_hex_digits_of_its_bytes() {
        let mut bytes = [0u8; TOKEN_BYTES];
        bytes[0] = 0xab;
        bytes[31] = 0x0f;
        let token = token_text(&bytes);
        assert_eq!(token.len(), TOKEN_CHARS);
        assert!(token.starts_with("ab00"));
        assert!(token.ends_with("0f"));
        assert!(is_token(&token));
    }

    #[test]
    fn anything_but_64_lower_case_hex_digits_is_not_a_token() {
        let good = "0123456789abcdef".repeat(4);
        assert!(is_token(&good));
        assert!(!is_token(&good[1..]));
        assert!(!is_token(&format!("{good}0")));
        assert!(!is_token(&good.to_uppercase()));
        assert!(!is_token(&good.replace('a', "g")));
        assert!(!is_token(""));
        assert!(!is_token(&"é".repeat(32)));
    }

    #[test]
    fn the_url_joins_the_base_and_the_path_once() {
        let expires = Timestamp(at(1));
        assert_eq!(
            ClientLink::new("https://crm.example/", "abc", expires).url,
            "https://crm.example/c/abc"
        );
        assert_eq!(
            ClientLink::new("https://crm.example/portal", "abc", expires).url,
            "https://crm.example/portal/c/abc"
        );
    }

    #[test]
    fn a_link_works_until_the_instant_it_expires() {
        let expires = expires_at(at(0), 180);
        assert_eq!(expires - at(0), Duration::days(180));
        assert!(is_live(expires, expires - Duration::microseconds(1)));
        assert!(!is_live(expires, expires));
    }
}
