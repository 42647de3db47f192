//! crm-core's recurring dates against an independent oracle: python-dateutil's `rrule`
//! (RFC 5545), over ten years of 230 schedules drawn at random for every frequency and
//! intervals 1 to 4, month ends and 29 February over-represented. The cases and rrule's
//! dates are in `tests/fixtures/rrule.json`, written by `scripts/recurring-rrule-fixture`
//! (rerun it to draw again; the file says which dateutil made it).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use chrono::NaiveDate;
use crm_core::recurring::{Frequency, Schedule};

const FIXTURE: &str = include_str!("fixtures/rrule.json");

#[test]
fn every_schedule_has_the_dates_rrule_gives_it_over_ten_years() {
    let document: serde_json::Value = serde_json::from_str(FIXTURE).unwrap();
    let cases = document["cases"].as_array().unwrap();
    assert!(cases.len() >= 200, "the fixture holds its cases");
    let mut dates_checked = 0;
    for case in cases {
        let frequency: Frequency = case["frequency"].as_str().unwrap().parse().unwrap();
        let interval = u32::try_from(case["interval"].as_u64().unwrap()).unwrap();
        let start: NaiveDate = case["start"].as_str().unwrap().parse().unwrap();
        let until: NaiveDate = case["until"].as_str().unwrap().parse().unwrap();
        let expected: Vec<i64> = case["offsets"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_i64().unwrap())
            .collect();
        let schedule = Schedule::new(frequency, interval, start, Some(until), None).unwrap();
        let ours: Vec<i64> = (0..)
            .map_while(|n| schedule.occurrence(n))
            .map(|d| (d - start).num_days())
            .collect();
        assert_eq!(ours, expected, "{case}");
        dates_checked += ours.len();
    }
    assert!(dates_checked > 10_000, "{dates_checked} dates");
}
