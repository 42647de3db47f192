//! Fair delivery (issue 47): how a worker shares its sending slots among the endpoints that
//! have work, and each endpoint's circuit breaker. Pure rules: the store reads the
//! endpoints' load and claims what [`plan`] gives; the worker counts its own sends.
//!
//! - **A fair share.** With `n` endpoints that have work (deliveries due, or sends of this
//!   worker in flight), no endpoint takes more than [`fair_share`] of the worker's slots
//!   (`slots / n`, at least 1, at most the per-endpoint cap), and free slots go one at a
//!   time to the endpoint with the fewest in flight, the oldest due delivery first on a
//!   tie.
//! - **A reserve.** An endpoint that already has a send of this worker in flight does not
//!   take the last [`reserve`] free slots (an eighth of them): an endpoint with nothing in
//!   flight, whose work arrives while the others hold slots they took when they were fewer,
//!   finds one at once.
//! - **A breaker.** An endpoint whose attempts timed out [`BREAKER_TIMEOUTS`] times in a
//!   row ([`breaker_after`]) has its breaker open: one attempt at a time (across every
//!   worker) until one is delivered, which closes it.

use serde::Serialize;

use crate::choice_enum;
use crate::time::Timestamp;

/// Attempts in a row that end without an answer in time, after which an endpoint's
/// breaker opens.
pub const BREAKER_TIMEOUTS: u32 = 3;

choice_enum!(
    /// An endpoint's circuit breaker.
    pub enum BreakerState {
        /// Deliveries go at up to the endpoint's share of the slots.
        Closed = "closed",
        /// Its attempts keep timing out: one attempt at a time until one is delivered.
        Open = "open",
    }
);

/// An endpoint's circuit breaker as the API shows it (`breaker` on the endpoint).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Breaker {
    /// `closed` or `open`.
    pub state: BreakerState,
    /// Attempts in a row that got no answer in time (since the last delivered one).
    pub timeouts: i32,
    /// When it opened (`null` while closed).
    pub opened: Option<Timestamp>,
}

impl Breaker {
    /// A closed breaker with no timeouts (a new endpoint's).
    pub const CLOSED: Breaker = Breaker {
        state: BreakerState::Closed,
        timeouts: 0,
        opened: None,
    };

    /// The breaker of an endpoint whose stored state is `timeouts` in a row and, while
    /// open, the time it opened.
    pub fn stored(timeouts: i32, opened: Option<Timestamp>) -> Breaker {
        Breaker {
            state: if opened.is_some() {
                BreakerState::Open
            } else {
                BreakerState::Closed
            },
            timeouts,
            opened,
        }
    }
}

/// The attempts of one endpoint recorded together, as its breaker counts them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Ended {
    /// Attempts that got no answer in time.
    pub timeouts: u32,
    /// Whether one of them was delivered (a 2xx).
    pub delivered: bool,
}

/// What a batch of attempts does to an endpoint's breaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Transition {
    /// Nothing changes.
    Stays,
    /// It opens now.
    Opens,
    /// It closes now.
    Closes,
}

/// The count of timeouts in a row after a batch (`before` it): a delivered attempt resets
/// it (the batch's other attempts ended about together, so their order is not known: one
/// success is taken as the last word), else its timeouts add up. Other failures (an answer
/// that is not a 2xx, a refused connection) came in time and leave it as it is.
pub fn timeouts_after(before: u32, batch: Ended) -> u32 {
    if batch.delivered {
        0
    } else {
        before.saturating_add(batch.timeouts)
    }
}

/// What happens to a breaker that was `open` (or not) once its count of timeouts in a row
/// is `timeouts`: it opens at [`BREAKER_TIMEOUTS`], and closes when the count went back to
/// zero (a delivery).
pub fn breaker_after(open: bool, timeouts: u32) -> Transition {
    match (open, timeouts >= BREAKER_TIMEOUTS) {
        (false, true) => Transition::Opens,
        (true, false) if timeouts == 0 => Transition::Closes,
        _ => Transition::Stays,
    }
}

/// The most slots of a worker's `slots` one endpoint may hold while `endpoints` have work:
/// an equal share, at least 1, at most `per_endpoint`.
pub fn fair_share(slots: usize, endpoints: usize, per_endpoint: usize) -> usize {
    (slots / endpoints.max(1)).clamp(1, per_endpoint.max(1))
}

/// The free slots an endpoint that already has a send in flight does not take: an eighth
/// of the worker's slots, kept for endpoints that have none.
pub fn reserve(slots: usize) -> usize {
    slots / 8
}

/// The worker's slots as a claim sees them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slots {
    /// Sends the worker makes at once (`--webhook-concurrency`).
    pub total: usize,
    /// Slots free now.
    pub free: usize,
    /// The most deliveries in flight to one endpoint, across every worker
    /// (`--webhook-per-endpoint`).
    pub per_endpoint: usize,
}

/// One endpoint that has work, as a claim sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Load {
    /// The endpoint.
    pub endpoint: i64,
    /// This worker's sends to it in flight.
    pub mine: usize,
    /// Its deliveries in flight across every worker (this one's included).
    pub leased: usize,
    /// Its deliveries that may go now (due, first of their record, not leased).
    pub due: usize,
    /// When its oldest due delivery was due (`None` with none due): the tie-break.
    pub oldest: Option<Timestamp>,
    /// Whether its breaker is open.
    pub open: bool,
}

/// How many due deliveries to take from each endpoint: slots are given one at a time to
/// the endpoint with the fewest sends of this worker in flight (then the oldest due
/// delivery, then the smallest id), each up to its [`fair_share`] of the worker's slots
/// (with `n` the endpoints of `loads`, which lists every endpoint with work), its
/// per-endpoint cap across workers, or one attempt at a time across workers with its
/// breaker open; an endpoint with something in flight does not take the [`reserve`].
/// Gives `(endpoint, how many)` for the endpoints that get any, in `loads`' order.
pub fn plan(loads: &[Load], slots: Slots) -> Vec<(i64, usize)> {
    let share = fair_share(slots.total, loads.len(), slots.per_endpoint);
    let reserve = reserve(slots.total);
    let mut takes = vec![0_usize; loads.len()];
    let mut free = slots.free;
    while free > 0 {
        let pick = loads
            .iter()
            .enumerate()
            .filter(|(i, load)| {
                let taken = takes[*i];
                let (own, global) = if load.open {
                    (1, 1)
                } else {
                    (share, slots.per_endpoint.max(1))
                };
                taken < load.due
                    && load.mine + taken < own
                    && load.leased + taken < global
                    && (load.mine + taken == 0 || free > reserve)
            })
            .min_by_key(|(i, load)| {
                (
                    load.mine + takes[*i],
                    load.oldest.is_none(),
                    load.oldest,
                    load.endpoint,
                )
            })
            .map(|(i, _)| i);
        let Some(i) = pick else { break };
        takes[i] += 1;
        free -= 1;
    }
    loads
        .iter()
        .zip(takes)
        .filter(|(_, n)| *n > 0)
        .map(|(load, n)| (load.endpoint, n))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{TimeZone, Utc};

    fn at(secs: i64) -> Option<Timestamp> {
        Some(Timestamp(
            Utc.timestamp_opt(1_800_000_000 + secs, 0).unwrap(),
        ))
    }

    fn load(endpoint: i64, mine: usize, due: usize) -> Load {
        Load {
            endpoint,
            mine,
            leased: mine,
            due,
            oldest: if due > 0 { at(endpoint) } else { None },
            open: false,
        }
    }

    const DEFAULTS: Slots = Slots {
        total: 64,
        free: 64,
        per_endpoint: 8,
    };

    fn taken(plan: &[(i64, usize)], endpoint: i64) -> usize {
        plan.iter()
            .find(|(e, _)| *e == endpoint)
            .map_or(0, |(_, n)| *n)
    }

    #[test]
    fn the_share_divides_the_slots_between_the_endpoints_with_work() {
        assert_eq!(fair_share(64, 1, 8), 8, "the per-endpoint cap");
        assert_eq!(fair_share(64, 9, 8), 7);
        assert_eq!(fair_share(64, 10, 8), 6);
        assert_eq!(fair_share(64, 100, 8), 1, "at least one");
        assert_eq!(fair_share(64, 0, 8), 8);
        assert_eq!(fair_share(16, 3, 0), 1, "a cap of 0 is 1");
        assert_eq!(reserve(64), 8);
        assert_eq!(reserve(4), 0);
    }

    #[test]
    fn one_endpoint_alone_takes_up_to_its_cap() {
        let plan = plan(&[load(1, 0, 100)], DEFAULTS);
        assert_eq!(plan, vec![(1, 8)]);
    }

    #[test]
    fn nine_endpoints_with_a_backlog_leave_room_for_a_tenth() {
        // The probe of issue 47: nine endpoints with eight due each fill none of the last
        // eight slots, and none holds more than its share.
        let loads: Vec<Load> = (1..=9).map(|e| load(e, 0, 8)).collect();
        let first = plan(&loads, DEFAULTS);
        let used: usize = first.iter().map(|(_, n)| n).sum();
        assert_eq!(used, 64 - reserve(64));
        assert!(first.iter().all(|(_, n)| *n <= fair_share(64, 9, 8)));
        assert!(
            first.iter().all(|(_, n)| *n >= 6),
            "shared evenly: {first:?}"
        );
        // A tenth endpoint's work arrives while they are all in flight: it gets a slot.
        let mut loads: Vec<Load> = first.iter().map(|(e, n)| load(*e, *n, 8 - n)).collect();
        loads.push(load(10, 0, 1));
        let then = plan(
            &loads,
            Slots {
                free: 64 - used,
                ..DEFAULTS
            },
        );
        assert_eq!(then, vec![(10, 1)], "only the newcomer, from the reserve");
    }

    #[test]
    fn the_endpoints_all_at_once_get_even_shares() {
        let loads: Vec<Load> = (1..=10).map(|e| load(e, 0, 20)).collect();
        let plan = plan(&loads, DEFAULTS);
        assert_eq!(plan.len(), 10);
        // Their shares (6 each) would use 60 slots; the reserve keeps 8 of the 64 free.
        assert_eq!(plan.iter().map(|(_, n)| n).sum::<usize>(), 56);
        for (_, n) in &plan {
            assert!(*n == 5 || *n == 6, "{plan:?}");
        }
    }

    #[test]
    fn the_fewest_in_flight_go_first_and_the_oldest_due_breaks_a_tie() {
        let loads = [load(1, 3, 5), load(2, 0, 5), load(3, 0, 5)];
        let plan = plan(
            &loads,
            Slots {
                total: 64,
                free: 2,
                per_endpoint: 8,
            },
        );
        assert_eq!(plan, vec![(2, 1), (3, 1)]);
        let mut older = [load(1, 0, 5), load(2, 0, 5)];
        older[1].oldest = at(-10);
        let plan = super::plan(
            &older,
            Slots {
                total: 64,
                free: 1,
                per_endpoint: 8,
            },
        );
        assert_eq!(plan, vec![(2, 1)]);
    }

    #[test]
    fn an_open_breaker_allows_one_attempt_at_a_time_across_workers() {
        let mut open = load(1, 0, 8);
        open.open = true;
        assert_eq!(plan(&[open], DEFAULTS), vec![(1, 1)]);
        // Another worker has one in flight: none here.
        open.leased = 1;
        assert_eq!(plan(&[open, load(2, 0, 3)], DEFAULTS), vec![(2, 3)]);
    }

    #[test]
    fn the_per_endpoint_cap_counts_every_workers_sends() {
        let mut busy = load(1, 0, 8);
        busy.leased = 6;
        assert_eq!(plan(&[busy], DEFAULTS), vec![(1, 2)]);
    }

    #[test]
    fn an_endpoint_over_its_share_takes_nothing_while_others_wait() {
        // Endpoint 1 took 8 while alone; nine others arrive: its share is now 6.
        let mut loads = vec![load(1, 8, 8)];
        loads.extend((2..=10).map(|e| load(e, 0, 8)));
        let plan = plan(
            &loads,
            Slots {
                free: 56,
                ..DEFAULTS
            },
        );
        assert_eq!(taken(&plan, 1), 0);
        assert!((2..=10).all(|e| taken(&plan, e) >= 1), "{plan:?}");
        assert!(plan.iter().all(|(_, n)| *n <= 6), "{plan:?}");
    }

    #[test]
    fn nothing_is_taken_beyond_what_is_due_or_free() {
        assert!(plan(&[], DEFAULTS).is_empty());
        assert!(plan(&[load(1, 2, 0)], DEFAULTS).is_empty());
        let none_free = Slots {
            free: 0,
            ..DEFAULTS
        };
        assert!(plan(&[load(1, 0, 5)], none_free).is_empty());
        assert_eq!(plan(&[load(1, 0, 2)], DEFAULTS), vec![(1, 2)]);
    }

    #[test]
    fn the_breaker_opens_after_timeouts_in_a_row_and_closes_on_a_delivery() {
        let timeouts = |n| Ended {
            timeouts: n,
            delivered: false,
        };
        assert_eq!(timeouts_after(0, timeouts(1)), 1);
        assert_eq!(timeouts_after(2, timeouts(1)), 3);
        assert_eq!(timeouts_after(2, Ended::default()), 2, "a fast failure");
        let delivered = Ended {
            timeouts: 4,
            delivered: true,
        };
        assert_eq!(timeouts_after(7, delivered), 0);
        assert_eq!(breaker_after(false, 2), Transition::Stays);
        assert_eq!(breaker_after(false, BREAKER_TIMEOUTS), Transition::Opens);
        assert_eq!(breaker_after(true, 9), Transition::Stays);
        assert_eq!(breaker_after(true, 0), Transition::Closes);
        assert_eq!(breaker_after(false, 0), Transition::Stays);
        assert_eq!(
            Breaker::stored(3, at(0)).state,
            BreakerState::Open,
            "the stored opening decides"
        );
        assert_eq!(Breaker::stored(0, None), Breaker::CLOSED);
    }
}
