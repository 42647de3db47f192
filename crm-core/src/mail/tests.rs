use chrono::{TimeZone, Utc};

use super::*;
use crate::input::RawMap;

#[test]
fn a_client_without_a_contact_address_gets_no_email() {
    assert_eq!(recipient(Some(" a@b.example ")), Some("a@b.example"));
    assert_eq!(recipient(Some("  ")), None);
    assert_eq!(recipient(None), None);
}

#[test]
fn replies_in_the_5xx_range_fail_at_once_others_are_retried() {
    assert_eq!(
        classify(Some(550), "550 no".into()),
        Outcome::Permanent("550 no".into())
    );
    assert_eq!(
        classify(Some(451), "451 later".into()),
        Outcome::Temporary("451 later".into())
    );
    assert_eq!(
        classify(None, "refused".into()),
        Outcome::Temporary("refused".into())
    );
}

#[test]
fn backoff_doubles_with_jitter_caps_and_stops_after_a_day() {
    let created = Utc.with_ymd_and_hms(2026, 6, 15, 9, 0, 0).unwrap();
    let delay = |attempts, jitter| match retry_after(attempts, created, created, jitter) {
        Retry::At(t) => (t - created).num_milliseconds(),
        Retry::GiveUp => -1,
    };
    assert_eq!(delay(1, 0.0), 500);
    assert_eq!(delay(1, 0.999_999), 999);
    assert_eq!(delay(2, 0.0), 1000);
    assert_eq!(delay(3, 0.5), 3000);
    assert_eq!(delay(40, 0.0), MAX_RETRY_SECS * 500);
    assert_eq!(delay(40, f64::NAN), MAX_RETRY_SECS * 500);
    let late = created + chrono::Duration::seconds(RETRY_WINDOW_SECS - 1);
    assert_eq!(retry_after(30, created, late, 0.5), Retry::GiveUp);
    assert!(matches!(retry_after(1, created, late, 0.0), Retry::At(_)));
}

#[test]
fn the_email_list_reads_its_filters_and_sorts() {
    use crate::input::RawValue;
    let raw: RawMap = [
        ("status", "failed"),
        ("resource_type", "invoice"),
        ("resource_id", "4"),
        ("sort", "email_sent"),
    ]
    .iter()
    .map(|(k, v)| (*k, RawValue::text(*v)))
    .collect();
    let q = EmailListQuery::parse(&raw).unwrap();
    assert_eq!(q.filters.status, Some(EmailStatus::Failed));
    assert_eq!(q.filters.resource_type, Some(EmailResourceType::Invoice));
    assert_eq!(q.filters.resource_id, Some(4));
    assert_eq!(q.params.sort, Some(EmailSort::Sent));
    let raw: RawMap = [
        ("status", "sending"),
        ("resource_type", "note"),
        ("sort", "x"),
    ]
    .iter()
    .map(|(k, v)| (*k, RawValue::text(*v)))
    .collect();
    let r = EmailListQuery::parse(&raw).unwrap_err();
    assert_eq!(
        r.errors.get("status"),
        Some(&["The selected status is invalid.".to_owned()][..])
    );
    assert!(r.errors.get("resource_type").is_some());
    assert!(r.errors.get("sort").is_some());
}
