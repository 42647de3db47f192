//! The rules of reading from streaming replicas (API.md §16): write-ahead log positions,
//! how far behind a replica is, and which replica may answer a read that must see a given
//! write.
//!
//! A position is PostgreSQL's `pg_lsn` (`16/B374D848`: two hexadecimal halves of a 64-bit
//! byte offset into the write-ahead log). A key's last write is remembered as the primary's
//! position read right after that write committed; a replica whose replayed position is at
//! or past it has applied the write, so a read there sees it (read-your-writes).
//!
//! A replica's lag is measured against samples of the primary's position taken over time:
//! the replica is as far behind as the oldest sample it has not replayed yet is old. The
//! clock is the caller's (a sample's time is a plain number of seconds here).

use std::fmt;
use std::str::FromStr;

/// A write-ahead log position (`pg_lsn`), ordered as the log is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Lsn(pub u64);

/// Why a text is not a `pg_lsn`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a log position is two hexadecimal numbers of at most 8 digits joined by '/', not {0:?}")]
pub struct BadLsn(String);

impl FromStr for Lsn {
    type Err = BadLsn;

    fn from_str(text: &str) -> Result<Lsn, BadLsn> {
        let bad = || BadLsn(text.chars().take(40).collect());
        let (high, low) = text.trim().split_once('/').ok_or_else(bad)?;
        let half = |part: &str| {
            if part.is_empty() || part.len() > 8 || !part.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            u32::from_str_radix(part, 16).ok()
        };
        let (high, low) = (half(high).ok_or_else(bad)?, half(low).ok_or_else(bad)?);
        Ok(Lsn(u64::from(high) << 32 | u64::from(low)))
    }
}

impl fmt::Display for Lsn {
    /// PostgreSQL's own form: `16/B374D848`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:X}/{:X}", self.0 >> 32, self.0 & 0xFFFF_FFFF)
    }
}

/// The primary's position at one moment (`at`, seconds on the caller's clock).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    /// When the position was read.
    pub at: f64,
    /// The primary's position then.
    pub lsn: Lsn,
}

/// How many seconds a replica that has replayed up to `replayed` is behind, at `now`,
/// judged from `samples` of the primary's position (oldest first).
///
/// The replica has applied everything the primary had written by the time of the last
/// sample it covers; it lags by the age of the first sample it does not cover (so a
/// replica that has caught up with the newest sample lags 0 s, and an idle primary's
/// replicas never lag). `None` when nothing bounds it: no samples yet, or the replica has
/// not reached even the oldest (it may be behind by anything older than that).
pub fn lag_seconds(samples: &[Sample], replayed: Lsn, now: f64) -> Option<f64> {
    let oldest = samples.first()?;
    if oldest.lsn > replayed {
        return None;
    }
    match samples.iter().find(|s| s.lsn > replayed) {
        None => Some(0.0),
        Some(missing) => Some((now - missing.at).max(0.0)),
    }
}

/// Whether a replica may answer a read: it was reachable when last checked (`replayed` is
/// known), its lag is known and at most `max_lag` seconds, and it has replayed at least the
/// reader's last write (`needed`; `None` when the reader wrote nothing that is remembered).
pub fn may_serve(
    replayed: Option<Lsn>,
    lag: Option<f64>,
    max_lag: f64,
    needed: Option<Lsn>,
) -> bool {
    let (Some(replayed), Some(lag)) = (replayed, lag) else {
        return false;
    };
    lag <= max_lag && needed.is_none_or(|needed| replayed >= needed)
}

/// Drops the samples no lag measurement needs any more: those older than `keep` seconds
/// before `now`, always keeping the newest one.
pub fn prune(samples: &mut Vec<Sample>, now: f64, keep: f64) {
    let newest = samples.len().saturating_sub(1);
    let old = samples
        .iter()
        .take(newest)
        .take_while(|s| now - s.at > keep)
        .count();
    samples.drain(..old);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lsn(text: &str) -> Lsn {
        text.parse().unwrap()
    }

    #[test]
    fn positions_read_and_print_as_postgresql_writes_them() {
        assert_eq!(lsn("16/B374D848"), Lsn(0x16_B374_D848));
        assert_eq!(lsn("0/0"), Lsn(0));
        assert_eq!(lsn("FFFFFFFF/FFFFFFFF"), Lsn(u64::MAX));
        assert_eq!(lsn("16/B374D848").to_string(), "16/B374D848");
        assert_eq!(Lsn(0x3_0000_00A0).to_string(), "3/A0");
        for bad in [
            "",
            "16",
            "/1",
            "1/",
            "g/1",
            "1/2/3",
            "123456789/0",
            "-1/0",
            "1 /0x",
        ] {
            assert!(bad.parse::<Lsn>().is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn positions_order_by_the_whole_offset_not_the_text() {
        assert!(lsn("1/0") > lsn("0/FFFFFFFF"));
        assert!(lsn("0/A0") > lsn("0/9F"));
        assert!(lsn("0/100") > lsn("0/FF"));
    }

    #[test]
    fn a_replica_lags_by_the_age_of_the_first_sample_it_has_not_replayed() {
        let samples = [
            Sample {
                at: 10.0,
                lsn: Lsn(100),
            },
            Sample {
                at: 11.0,
                lsn: Lsn(200),
            },
            Sample {
                at: 12.0,
                lsn: Lsn(300),
            },
        ];
        assert_eq!(lag_seconds(&samples, Lsn(300), 12.5), Some(0.0));
        assert_eq!(lag_seconds(&samples, Lsn(400), 12.5), Some(0.0));
        assert_eq!(lag_seconds(&samples, Lsn(250), 12.5), Some(0.5));
        assert_eq!(lag_seconds(&samples, Lsn(150), 12.5), Some(1.5));
        assert_eq!(lag_seconds(&samples, Lsn(100), 12.5), Some(1.5));
        assert_eq!(lag_seconds(&[], Lsn(50), 12.5), None);
    }

    #[test]
    fn a_replica_behind_every_sample_has_no_known_lag() {
        // It may be behind by anything older than the oldest sample (a service that just
        // started, a replica far behind): it must not count as close.
        let samples = [Sample {
            at: 10.0,
            lsn: Lsn(100),
        }];
        assert_eq!(lag_seconds(&samples, Lsn(99), 10.1), None);
        assert!(!may_serve(
            Some(Lsn(99)),
            lag_seconds(&samples, Lsn(99), 10.1),
            5.0,
            None
        ));
    }

    #[test]
    fn an_idle_primary_s_replicas_do_not_lag() {
        let samples = [
            Sample {
                at: 0.0,
                lsn: Lsn(7),
            },
            Sample {
                at: 500.0,
                lsn: Lsn(7),
            },
        ];
        assert_eq!(lag_seconds(&samples, Lsn(7), 9_000.0), Some(0.0));
    }

    #[test]
    fn a_replica_serves_a_reader_only_once_it_has_replayed_the_reader_s_last_write() {
        assert!(may_serve(Some(Lsn(10)), Some(0.0), 5.0, None));
        assert!(may_serve(Some(Lsn(10)), Some(0.0), 5.0, Some(Lsn(10))));
        assert!(!may_serve(Some(Lsn(10)), Some(0.0), 5.0, Some(Lsn(11))));
        assert!(
            !may_serve(Some(Lsn(10)), Some(5.5), 5.0, None),
            "lags too much"
        );
        assert!(may_serve(Some(Lsn(10)), Some(5.0), 5.0, None));
        assert!(!may_serve(None, Some(0.0), 5.0, None), "unreachable");
        assert!(!may_serve(Some(Lsn(10)), None, 5.0, None), "lag unknown");
    }

    #[test]
    fn pruning_keeps_recent_samples_and_always_the_newest() {
        let mut samples = vec![
            Sample {
                at: 1.0,
                lsn: Lsn(1),
            },
            Sample {
                at: 2.0,
                lsn: Lsn(2),
            },
            Sample {
                at: 9.0,
                lsn: Lsn(3),
            },
        ];
        prune(&mut samples, 10.0, 5.0);
        assert_eq!(samples.len(), 1);
        assert_eq!(samples[0].lsn, Lsn(3));
        prune(&mut samples, 100.0, 5.0);
        assert_eq!(samples.len(), 1, "the newest stays");
    }
}
