//! Verifying a webhook delivery the Standard Webhooks way, as a Rust receiver does: the
//! `webhook-signature` header against the endpoint's secret over
//! `<webhook-id>.<webhook-timestamp>.<raw body>`, and the timestamp within 5 minutes of now
//! (the official libraries' tolerance; older or later deliveries are replays).

use base64::Engine as _;
use base64::engine::DecodePaddingMode;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig, STANDARD};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// How far a delivery's timestamp may be from the receiver's clock, in seconds.
pub const TOLERANCE_SECONDS: i64 = 5 * 60;

/// Why a delivery is not verified.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The secret is not `whsec_` followed by base64.
    #[error("the secret is not whsec_ followed by base64")]
    Secret,
    /// The `webhook-timestamp` is not Unix seconds.
    #[error("the webhook-timestamp is not Unix seconds")]
    Timestamp,
    /// The timestamp is more than [`TOLERANCE_SECONDS`] from now.
    #[error("the delivery's timestamp is too far from now (a replay, or a wrong clock)")]
    Stale,
    /// No `v1,` signature of the header is the body's under this secret.
    #[error("no signature matches: not from this service, or changed on the way")]
    Signature,
}

/// Verifies one delivery: `secret` is the endpoint's (`whsec_…`), `id`, `timestamp` and
/// `signatures` the `webhook-id`, `webhook-timestamp` and `webhook-signature` headers, `body`
/// the raw body as received (before any JSON parsing), `now` the receiver's Unix time.
/// Several space-separated signatures (after a secret's rotation) pass when one matches;
/// the comparison takes the same time whatever the bytes.
pub fn verify(
    secret: &str,
    id: &str,
    timestamp: &str,
    body: &[u8],
    signatures: &str,
    now: i64,
) -> Result<(), Refusal> {
    const LENIENT: GeneralPurpose = GeneralPurpose::new(
        &base64::alphabet::STANDARD,
        GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
    );
    let key = LENIENT
        .decode(secret.strip_prefix("whsec_").unwrap_or(secret).trim())
        .ok()
        .filter(|key| !key.is_empty())
        .ok_or(Refusal::Secret)?;
    let seconds: i64 = timestamp.trim().parse().map_err(|_| Refusal::Timestamp)?;
    if (now - seconds).abs() > TOLERANCE_SECONDS {
        return Err(Refusal::Stale);
    }
    let mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&key).map_err(|_| Refusal::Secret)?;
    let signed = |mut mac: Hmac<Sha256>| {
        mac.update(id.as_bytes());
        mac.update(b".");
        mac.update(seconds.to_string().as_bytes());
        mac.update(b".");
        mac.update(body);
        mac
    };
    let matches = signatures
        .split(' ')
        .filter_map(|one| one.strip_prefix("v1,"))
        .filter_map(|encoded| STANDARD.decode(encoded).ok())
        .any(|given| signed(mac.clone()).verify_slice(&given).is_ok());
    if matches {
        Ok(())
    } else {
        Err(Refusal::Signature)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The test vector of the Standard Webhooks specification.
    const SECRET: &str = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const ID: &str = "msg_p5jXN8AQM9LWM0D4loKWxJek";
    const TIMESTAMP: &str = "1614265330";
    const BODY: &[u8] = br#"{"test": 2432232314}"#;
    const SIGNATURE: &str = "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=";

    #[test]
    fn the_specifications_vector_verifies_and_any_change_does_not() {
        let now = 1_614_265_330 + 60;
        assert_eq!(verify(SECRET, ID, TIMESTAMP, BODY, SIGNATURE, now), Ok(()));
        // After a rotation, one of several signatures is enough.
        let two = format!("v1,bm90LXRoaXMtb25l {SIGNATURE}");
        assert_eq!(verify(SECRET, ID, TIMESTAMP, BODY, &two, now), Ok(()));
        let changed = br#"{"test": 2432232315}"#;
        assert_eq!(
            verify(SECRET, ID, TIMESTAMP, changed, SIGNATURE, now),
            Err(Refusal::Signature)
        );
        assert_eq!(
            verify(SECRET, "msg_other", TIMESTAMP, BODY, SIGNATURE, now),
            Err(Refusal::Signature)
        );
        let other_secret = "whsec_c2VjcmV0LW9mLWEtcm90YXRlZC1lbmRwb2ludA==";
        assert_eq!(
            verify(other_secret, ID, TIMESTAMP, BODY, SIGNATURE, now),
            Err(Refusal::Signature)
        );
        assert_eq!(
            verify(
                SECRET,
                ID,
                TIMESTAMP,
                BODY,
                SIGNATURE,
                now + TOLERANCE_SECONDS
            ),
            Err(Refusal::Stale)
        );
        assert_eq!(
            verify("whsec_!!", ID, TIMESTAMP, BODY, SIGNATURE, now),
            Err(Refusal::Secret)
        );
        assert_eq!(
            verify(SECRET, ID, "soon", BODY, SIGNATURE, now),
            Err(Refusal::Timestamp)
        );
    }
}
