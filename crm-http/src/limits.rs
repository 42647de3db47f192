//! Resource bounds that do not belong to one request: the per-key rate limit, the per-key
//! cap on requests in progress, the process's open-file limit, the default connection
//! limit derived from the available memory and that limit, and the per-address connection
//! cap.
//!
//! The other bounds live where they act: the header size and the read buffer, the
//! connection limit and the accept back-off in [`crate::server`]; the body limit and the
//! body timeout in [`crate::app`].

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crm_core::ids::ApiKeyId;

use crate::error::ApiError;

/// Requests in progress per API key, capped so that one key (a runaway client, a stuck
/// loop, a trickling attacker holding a key) cannot take every connection, pooled database
/// connection and worker from the others. A request counts from its authentication until
/// its response's last frame is handed to the connection ([`crate::response::Outgoing`]
/// holds the guard), so a client that does not read its answers still counts.
#[derive(Debug)]
pub struct InFlight {
    max: usize,
    counts: Arc<Mutex<HashMap<ApiKeyId, usize>>>,
}

/// One request counted against its key; dropping it ends the count.
#[derive(Debug)]
pub struct InFlightGuard {
    counts: Arc<Mutex<HashMap<ApiKeyId, usize>>>,
    key: ApiKeyId,
}

impl InFlight {
    /// At most `max` requests in progress per key (at least 1).
    pub fn new(max: usize) -> Self {
        InFlight {
            max: max.max(1),
            counts: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Counts one more request of `key`, or 429 when it already has the maximum.
    pub fn enter(&self, key: ApiKeyId) -> Result<InFlightGuard, ApiError> {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        let count = counts.entry(key).or_insert(0);
        if *count >= self.max {
            return Err(ApiError::TooManyInFlight);
        }
        *count += 1;
        Ok(InFlightGuard {
            counts: Arc::clone(&self.counts),
            key,
        })
    }

    /// The requests of `key` in progress now.
    pub fn count(&self, key: ApiKeyId) -> usize {
        let counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        counts.get(&key).copied().unwrap_or(0)
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = counts.get_mut(&self.key) {
            *count = count.saturating_sub(1);
            // Keys with nothing in progress leave the map, so it stays as small as the
            // number of keys busy at once.
            if *count == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

/// A rate limit, `N/s` or `N/min` (`crm serve --rate-limit`): a bucket of `requests`
/// tokens, refilled evenly over `per`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rate {
    /// The bucket's size: requests allowed in a burst, and in each `per` on average.
    pub requests: u32,
    /// The time the bucket takes to refill from empty.
    pub per: Duration,
}

/// Why a `--rate-limit` value is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("a rate limit is N/s or N/min with N a whole number from 1 to 1000000, not {0:?}")]
pub struct BadRate(String);

impl FromStr for Rate {
    type Err = BadRate;

    fn from_str(text: &str) -> Result<Rate, BadRate> {
        let bad = || BadRate(text.to_owned());
        let (count, unit) = text.trim().split_once('/').ok_or_else(bad)?;
        let per = match unit.trim() {
            "s" => Duration::from_secs(1),
            "min" => Duration::from_secs(60),
            _ => return Err(bad()),
        };
        let count = count.trim();
        if count.is_empty() || !count.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let requests = count
            .parse::<u32>()
            .ok()
            .filter(|n| (1..=1_000_000).contains(n))
            .ok_or_else(bad)?;
        Ok(Rate { requests, per })
    }
}

impl fmt::Display for Rate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let unit = if self.per == Duration::from_secs(1) {
            "s"
        } else {
            "min"
        };
        write!(f, "{}/{unit}", self.requests)
    }
}

/// A key's standing against its rate limit after one request, for the `RateLimit-*`
/// headers (and `Retry-After` when the request was refused).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quota {
    /// `RateLimit-Limit`: the bucket's size.
    pub limit: u32,
    /// `RateLimit-Remaining`: requests the key may still send at once.
    pub remaining: u32,
    /// `RateLimit-Reset`: whole seconds (rounded up) until the bucket is full again.
    pub reset: u64,
    /// For a refused request, whole seconds (rounded up, at least 1) until one more request
    /// is allowed (`Retry-After`); `None` when the request was allowed.
    pub retry_after: Option<u64>,
}

impl Quota {
    /// Whether the request was refused (429).
    pub fn refused(&self) -> bool {
        self.retry_after.is_some()
    }
}

/// Shards of the limiter's table, so that keys rarely wait for each other's lock.
const RATE_SHARDS: usize = 16;

/// Entries a shard holds before the keys whose bucket is full again are dropped.
const RATE_PRUNE_AT: usize = 1024;

/// Per-key token buckets, kept in this process's memory (each service instance limits on
/// its own).
///
/// A bucket is kept as its theoretical arrival time (GCRA, the generic cell rate
/// algorithm, which is a token bucket): the instant at which it will be full again. With
/// `T = per / requests`, a request at `now` is allowed when that instant is at most
/// `per - T` ahead of `now`, and moves it `T` further. One `Instant` per busy key; a key
/// whose bucket is full has no entry.
#[derive(Debug)]
pub struct RateLimiter<K = ApiKeyId> {
    rate: Rate,
    /// `per / requests`: the time one token takes to come back.
    interval: Duration,
    shards: Box<[Mutex<HashMap<K, Instant>>]>,
}

/// The address a request came from, put in its extensions by the accept loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PeerAddr(pub std::net::IpAddr);

/// What a bucket belongs to: an API key, or a client address (the public pages).
pub trait BucketKey: Copy + Eq + std::hash::Hash {
    /// Which shard holds its bucket.
    fn shard(&self) -> usize;

    /// Its name among the buckets shared in Redis (with the limit's own prefix).
    fn bucket(&self) -> String;
}

impl BucketKey for ApiKeyId {
    fn shard(&self) -> usize {
        self.get().unsigned_abs() as usize
    }

    fn bucket(&self) -> String {
        self.get().to_string()
    }
}

/// A client address as the public pages count it: an IPv4 address, or an IPv6 address's
/// /64 network (one host, or one customer, usually holds a whole /64, so counting single
/// IPv6 addresses would let it through unlimited).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientAddr(u128);

impl ClientAddr {
    /// The counted form of `ip`.
    pub fn of(ip: std::net::IpAddr) -> ClientAddr {
        match ip.to_canonical() {
            std::net::IpAddr::V4(v4) => ClientAddr(u128::from(u32::from(v4))),
            std::net::IpAddr::V6(v6) => ClientAddr((u128::from(v6) >> 64) << 64 | 1 << 32),
        }
    }
}

impl BucketKey for ClientAddr {
    fn shard(&self) -> usize {
        let folded = (self.0 ^ (self.0 >> 64)) as u64;
        (folded ^ (folded >> 29)) as usize
    }

    fn bucket(&self) -> String {
        format!("{:032x}", self.0)
    }
}

/// The rule of a bucket (GCRA), for one request: given how far ahead of now the bucket is
/// full again (`ahead`, zero when it is full), the key's standing after the request and,
/// when a token was taken, how far ahead the bucket is full after it. The in-process
/// limiter and the Redis script ([`crate::shared`]) apply this same rule.
pub fn decide(rate: Rate, interval: Duration, ahead: Duration) -> (Quota, Option<Duration>) {
    let burst = rate.per.saturating_sub(interval);
    if ahead > burst {
        return (
            Quota {
                limit: rate.requests,
                remaining: 0,
                reset: ceil_secs(ahead),
                retry_after: Some(ceil_secs(ahead - burst).max(1)),
            },
            None,
        );
    }
    let ahead = ahead + interval;
    let quota = Quota {
        limit: rate.requests,
        remaining: rate.requests.saturating_sub(tokens_used(ahead, interval)),
        reset: ceil_secs(ahead),
        retry_after: None,
    };
    (quota, Some(ahead))
}

/// Whole seconds (at least 1) until a bucket full `ahead` from now has a token again, when
/// it has none; `None` when it has one.
pub fn wait_for_token(rate: Rate, interval: Duration, ahead: Duration) -> Option<u64> {
    let burst = rate.per.saturating_sub(interval);
    (ahead > burst).then(|| ceil_secs(ahead - burst).max(1))
}

impl<K: BucketKey> RateLimiter<K> {
    /// A limiter allowing each key `rate`.
    pub fn new(rate: Rate) -> RateLimiter<K> {
        RateLimiter {
            rate,
            interval: rate.per / rate.requests.max(1),
            shards: (0..RATE_SHARDS)
                .map(|_| Mutex::new(HashMap::new()))
                .collect(),
        }
    }

    /// The limit in force.
    pub fn rate(&self) -> Rate {
        self.rate
    }

    /// Whole seconds (at least 1) until `key`'s bucket has a token again, when it has none
    /// now; `None` when it has one. Takes nothing: for a limit charged only on some
    /// outcomes (failed authentications), checked before the work.
    pub fn exhausted(&self, key: K) -> Option<u64> {
        self.exhausted_at(key, Instant::now())
    }

    /// [`RateLimiter::exhausted`] at `now`.
    pub fn exhausted_at(&self, key: K, now: Instant) -> Option<u64> {
        let shard = &self.shards[key.shard() % RATE_SHARDS];
        let full_at = shard.lock().unwrap_or_else(|p| p.into_inner());
        let ahead = full_at.get(&key).copied().filter(|at| *at > now)? - now;
        wait_for_token(self.rate, self.interval, ahead)
    }

    /// `per / requests`: the time one token takes to come back.
    pub fn interval(&self) -> Duration {
        self.interval
    }

    /// Takes one token from `key`'s bucket now, if it has one.
    pub fn check(&self, key: K) -> Quota {
        self.check_at(key, Instant::now())
    }

    /// Takes one token from `key`'s bucket at `now`, if it has one.
    pub fn check_at(&self, key: K, now: Instant) -> Quota {
        let shard = &self.shards[key.shard() % RATE_SHARDS];
        let mut full_at = shard.lock().unwrap_or_else(|p| p.into_inner());
        if full_at.len() >= RATE_PRUNE_AT {
            full_at.retain(|_, at| *at > now);
        }
        let at = full_at.get(&key).copied().filter(|at| *at > now);
        let ahead = at.map_or(Duration::ZERO, |at| at - now);
        let (quota, taken) = decide(self.rate, self.interval, ahead);
        if let Some(ahead) = taken {
            full_at.insert(key, now + ahead);
        }
        quota
    }
}

/// A rate limit shared by every instance through Redis ([`crate::shared`]) when one is
/// configured, with this process's own buckets ([`RateLimiter`]) as the fallback while
/// Redis cannot be reached (and the only buckets without Redis).
#[derive(Debug)]
pub struct Limiter<K = ApiKeyId> {
    local: RateLimiter<K>,
    shared: Option<(std::sync::Arc<crate::shared::Shared>, &'static str)>,
}

impl<K: BucketKey> Limiter<K> {
    /// A limiter of `rate` kept in this process only.
    pub fn new(rate: Rate) -> Limiter<K> {
        Limiter {
            local: RateLimiter::new(rate),
            shared: None,
        }
    }

    /// The same limiter kept in Redis, its buckets named `crm:rl:<name>:<key>`.
    pub fn shared(
        mut self,
        shared: std::sync::Arc<crate::shared::Shared>,
        name: &'static str,
    ) -> Self {
        self.shared = Some((shared, name));
        self
    }

    /// The limit in force.
    pub fn rate(&self) -> Rate {
        self.local.rate()
    }

    /// Takes one token from `key`'s bucket, if it has one.
    pub async fn check(&self, key: K) -> Quota {
        if let Some((shared, name)) = &self.shared {
            let bucket = format!("crm:rl:{name}:{}", key.bucket());
            let interval = self.local.interval();
            let burst = self.rate().per.saturating_sub(interval);
            if let Some(ahead) = shared.gcra(&bucket, interval, burst, true).await {
                return decide(self.rate(), interval, ahead).0;
            }
            shared.count_fallback();
        }
        self.local.check(key)
    }

    /// Whole seconds until `key`'s bucket has a token again, when it has none; takes
    /// nothing.
    pub async fn exhausted(&self, key: K) -> Option<u64> {
        if let Some((shared, name)) = &self.shared {
            let bucket = format!("crm:rl:{name}:{}", key.bucket());
            let interval = self.local.interval();
            let burst = self.rate().per.saturating_sub(interval);
            if let Some(ahead) = shared.gcra(&bucket, interval, burst, false).await {
                return wait_for_token(self.rate(), interval, ahead);
            }
            shared.count_fallback();
        }
        self.local.exhausted(key)
    }
}

/// Tokens missing from a bucket that is full `ahead` from now: `ahead / interval` rounded
/// up.
fn tokens_used(ahead: Duration, interval: Duration) -> u32 {
    let (ahead, interval) = (ahead.as_nanos(), interval.as_nanos().max(1));
    u32::try_from(ahead.div_ceil(interval)).unwrap_or(u32::MAX)
}

/// Whole seconds in `d`, rounded up.
fn ceil_secs(d: Duration) -> u64 {
    d.as_secs() + u64::from(d.subsec_nanos() > 0)
}

/// File descriptors kept out of the connection limit: the database connections (`pool`
/// and `readers`), the listener, log output, the private cluster's files and some slack.
pub fn reserved_files(pool: usize, readers: usize) -> u64 {
    (pool + readers) as u64 + 64
}

/// Raises the soft open-file limit to the hard limit (each connection is a file) and
/// returns the limit in force, or `None` when it cannot be read (no limit known).
#[cfg(unix)]
pub fn raise_file_limit() -> Option<u64> {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        let raised = rustix::process::Rlimit {
            current: limit.maximum,
            maximum: limit.maximum,
        };
        if let Err(e) = setrlimit(Resource::Nofile, raised) {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
        }
    }
    getrlimit(Resource::Nofile).current
}

/// Raises the soft open-file limit to the hard limit (not on this platform).
#[cfg(not(unix))]
pub fn raise_file_limit() -> Option<u64> {
    None
}

/// The largest connection limit `--max-connections` accepts, and the default's ceiling.
pub const MAX_CONNECTIONS: u64 = 1_000_000;

/// The memory each connection is budgeted in the default connection limit: an idle
/// connection costs about 20 to 30 KiB (hyper's read and write buffers, the task, the
/// timers; measured in docs/performance.md), and one with a request in progress more;
/// 64 KiB leaves room for both.
pub const CONNECTION_MEMORY: u64 = 64 * 1024;

/// The share of the available memory the default connection limit spends on connections:
/// a quarter, the rest left for requests in progress (a list page is up to 4 MiB), the PDF
/// cache, the database connections and the allocator's slack.
pub const CONNECTION_MEMORY_SHARE: u64 = 4;

/// The most memory the default connection limit spends on connections, whatever the
/// machine: 256 MiB, so at most 4,096 connections by default. With the defaults, idle
/// connections cannot take the service more than this past its resting RSS (the figure
/// documented in docs/operations.md, held by the `resources` tests); a larger machine
/// that wants more connections says so with `--max-connections`.
pub const CONNECTION_MEMORY_CEILING: u64 = 256 * 1024 * 1024;

/// The default of `--max-connections-per-address`: one client address (an IPv6 address by
/// its /64) may hold this many connections at once; more are refused as the connection
/// limit refuses them. Browsers open about six per site, and a pooling client a few dozen.
pub const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS: usize = 256;

/// The default connection limit: the smaller of the open-file limit less [`reserved_files`]
/// (10,000 when it is unknown or unlimited) and the connections [`CONNECTION_MEMORY`] each
/// that fit in a quarter of `available` memory ([`available_memory`]), at most
/// [`CONNECTION_MEMORY_CEILING`] (which also applies when the memory is unknown); at least
/// 16 and at most [`MAX_CONNECTIONS`].
pub fn default_max_connections(
    file_limit: Option<u64>,
    reserved: u64,
    available: Option<u64>,
) -> usize {
    let by_files = match file_limit {
        Some(limit) if limit < u64::from(u32::MAX) => limit.saturating_sub(reserved),
        _ => 10_000,
    };
    let for_connections = available
        .map_or(CONNECTION_MEMORY_CEILING, |bytes| {
            bytes / CONNECTION_MEMORY_SHARE
        })
        .min(CONNECTION_MEMORY_CEILING);
    let by_memory = for_connections / CONNECTION_MEMORY;
    let connections = by_files.min(by_memory).clamp(16, MAX_CONNECTIONS);
    usize::try_from(connections).unwrap_or(usize::MAX)
}

/// The memory this process can still have now: the smaller of the machine's
/// `MemAvailable` (`/proc/meminfo`) and, when the process's cgroup has a memory limit, that
/// limit less what the cgroup uses (`memory.max` − `memory.current` of cgroup v2,
/// `memory.limit_in_bytes` − `memory.usage_in_bytes` of v1); `None` when none can be read
/// (not Linux).
pub fn available_memory() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
    let v2 = read("/proc/self/cgroup").and_then(|groups| {
        groups.lines().find_map(|line| {
            // cgroup v2: `0::/path`; "max" (no limit) does not parse.
            let path = line.strip_prefix("0::")?;
            let max = number(read(&format!("/sys/fs/cgroup{path}/memory.max")))?;
            let used = number(read(&format!("/sys/fs/cgroup{path}/memory.current")))?;
            Some(max.saturating_sub(used))
        })
    });
    let v1 = || {
        let limit = number(read("/sys/fs/cgroup/memory/memory.limit_in_bytes"))
            // v1 writes "no limit" as a huge page-aligned number.
            .filter(|&v| v < 1 << 60)?;
        let used = number(read("/sys/fs/cgroup/memory/memory.usage_in_bytes"))?;
        Some(limit.saturating_sub(used))
    };
    let machine = read("/proc/meminfo").and_then(|info| mem_available(&info));
    match (v2.or_else(v1), machine) {
        (Some(group), Some(machine)) => Some(group.min(machine)),
        (group, machine) => group.or(machine),
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let kib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))?
        .split_whitespace()
        .next()?
        .parse::<u64>()
        .ok()?;
    kib.checked_mul(1024)
}

/// Connections open per client address, each address capped (`--max-connections-per-address`):
/// one client cannot take the connection limit, and the memory it stands for, from the
/// others. An IPv6 address counts by its /64, as the per-address rate limits do
/// ([`ClientAddr`]). A connection is counted from its accept until it closes; one over the
/// cap is refused at once, before any task or buffer is made for it.
#[derive(Debug)]
pub struct AddressSlots {
    cap: usize,
    open: Arc<Mutex<HashMap<ClientAddr, usize>>>,
}

/// One open connection of an address; dropping it ends the count.
#[derive(Debug)]
pub struct AddressSlot {
    open: Arc<Mutex<HashMap<ClientAddr, usize>>>,
    addr: ClientAddr,
}

impl AddressSlots {
    /// At most `cap` connections per address (at least 1).
    pub fn new(cap: usize) -> AddressSlots {
        AddressSlots {
            cap: cap.max(1),
            open: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    /// Counts one more connection of `ip`, or `None` when its address has the cap.
    pub fn enter(&self, ip: std::net::IpAddr) -> Option<AddressSlot> {
        let addr = ClientAddr::of(ip);
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let count = open.entry(addr).or_insert(0);
        if *count >= self.cap {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            open: Arc::clone(&self.open),
            addr,
        })
    }

    /// The connections of `ip`'s address open now.
    pub fn open(&self, ip: std::net::IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        open.get(&ClientAddr::of(ip)).copied().unwrap_or(0)
    }

    /// Addresses with a connection open now.
    pub fn addresses(&self) -> usize {
        self.open.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = open.get_mut(&self.addr) {
            *count = count.saturating_sub(1);
            // An address with nothing open leaves the map, so it stays as small as the
            // number of clients connected at once.
            if *count == 0 {
                open.remove(&self.addr);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: i64) -> ApiKeyId {
        ApiKeyId::new(n).unwrap()
    }

    fn rate(text: &str) -> Rate {
        text.parse().unwrap()
    }

    #[test]
    fn rates_are_n_per_second_or_per_minute() {
        assert_eq!(
            rate("10/s"),
            Rate {
                requests: 10,
                per: Duration::from_secs(1)
            }
        );
        assert_eq!(rate("600/min").per, Duration::from_secs(60));
        assert_eq!(rate(" 5 / min ").requests, 5);
        assert_eq!(rate("600/min").to_string(), "600/min");
        for bad in [
            "",
            "10",
            "/s",
            "0/s",
            "-1/s",
            "+1/s",
            "1.5/s",
            "10/h",
            "10/sec",
            "10/S",
            "1000001/s",
            "99999999999999999999/s",
            "10/s/s",
        ] {
            assert!(bad.parse::<Rate>().is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn a_bucket_allows_a_burst_of_its_size_then_refuses_until_a_token_returns() {
        let limiter = RateLimiter::new(rate("3/s"));
        let t0 = Instant::now();
        let remaining: Vec<_> = (0..3)
            .map(|_| limiter.check_at(key(1), t0).remaining)
            .collect();
        assert_eq!(remaining, [2, 1, 0]);
        let refused = limiter.check_at(key(1), t0);
        assert!(refused.refused());
        assert_eq!(refused.remaining, 0);
        assert_eq!(refused.limit, 3);
        // A token comes back every 333 ms; the bucket is full again after one second.
        assert_eq!(refused.retry_after, Some(1));
        assert_eq!(refused.reset, 1);
        // Refusals take nothing: a token is back after a third of a second.
        assert!(
            limiter
                .check_at(key(1), t0 + Duration::from_millis(300))
                .refused()
        );
        let back = limiter.check_at(key(1), t0 + Duration::from_millis(334));
        assert!(!back.refused());
        assert_eq!(back.remaining, 0);
        // After a full period the whole burst is available again.
        let later = t0 + Duration::from_millis(1334);
        assert_eq!(limiter.check_at(key(1), later).remaining, 2);
    }

    #[test]
    fn exhaustion_is_read_without_taking_a_token() {
        let limiter = RateLimiter::new(rate("2/min"));
        let t0 = Instant::now();
        let addr = ClientAddr::of([192, 0, 2, 1].into());
        assert_eq!(limiter.exhausted_at(addr, t0), None);
        limiter.check_at(addr, t0);
        assert_eq!(limiter.exhausted_at(addr, t0), None, "one token left");
        limiter.check_at(addr, t0);
        assert_eq!(limiter.exhausted_at(addr, t0), Some(30));
        assert_eq!(
            limiter.exhausted_at(addr, t0),
            Some(30),
            "reading takes nothing"
        );
        assert_eq!(
            limiter.exhausted_at(addr, t0 + Duration::from_secs(30)),
            None
        );
    }

    #[test]
    fn keys_have_their_own_buckets() {
        let limiter: RateLimiter = RateLimiter::new(rate("1/min"));
        let t0 = Instant::now();
        assert!(!limiter.check_at(key(1), t0).refused());
        let refused = limiter.check_at(key(1), t0 + Duration::from_secs(1));
        assert_eq!(refused.retry_after, Some(59));
        assert!(!limiter.check_at(key(2), t0).refused());
        assert!(
            !limiter.check_at(key(17), t0).refused(),
            "same shard as key 1"
        );
    }

    #[test]
    fn a_steady_client_at_the_rate_is_never_refused() {
        let limiter = RateLimiter::new(rate("50/s"));
        let t0 = Instant::now();
        for i in 0..500u64 {
            let quota = limiter.check_at(key(3), t0 + Duration::from_millis(20 * i));
            assert!(!quota.refused(), "request {i} refused");
        }
    }

    #[test]
    fn full_buckets_are_dropped_when_a_shard_grows() {
        let limiter = RateLimiter::new(rate("10/s"));
        let t0 = Instant::now();
        for n in 0..RATE_PRUNE_AT as i64 {
            limiter.check_at(key(1 + n * RATE_SHARDS as i64), t0);
        }
        assert_eq!(limiter.shards[1].lock().unwrap().len(), RATE_PRUNE_AT);
        limiter.check_at(key(1), t0 + Duration::from_secs(2));
        assert_eq!(limiter.shards[1].lock().unwrap().len(), 1);
    }

    #[test]
    fn a_key_gets_at_most_its_maximum_and_others_are_unaffected() {
        let in_flight = InFlight::new(2);
        let a1 = in_flight.enter(key(1)).unwrap();
        let _a2 = in_flight.enter(key(1)).unwrap();
        assert!(matches!(
            in_flight.enter(key(1)),
            Err(ApiError::TooManyInFlight)
        ));
        let _b = in_flight.enter(key(2)).unwrap();
        drop(a1);
        assert_eq!(in_flight.count(key(1)), 1);
        let _a3 = in_flight.enter(key(1)).unwrap();
    }

    #[test]
    fn idle_keys_leave_the_map() {
        let in_flight = InFlight::new(1);
        drop(in_flight.enter(key(7)).unwrap());
        assert!(in_flight.counts.lock().unwrap().is_empty());
    }

    #[test]
    fn the_default_connection_limit_follows_the_file_limit() {
        const GIB: u64 = 1024 * 1024 * 1024;
        let plenty = Some(64 * GIB);
        assert_eq!(default_max_connections(Some(3_000), 84, plenty), 2_916);
        assert_eq!(default_max_connections(Some(50), 84, plenty), 16);
        // Unknown or unlimited files: 10,000, under the memory ceiling's 4,096.
        assert_eq!(default_max_connections(None, 84, plenty), 4_096);
        assert_eq!(default_max_connections(Some(u64::MAX), 84, plenty), 4_096);
    }

    #[test]
    fn the_default_connection_limit_comes_from_available_memory_with_a_ceiling() {
        const MIB: u64 = 1024 * 1024;
        // The probe's machine: 20,000 files and 23 GB available. Files allowed 19,916
        // connections (15,000 idle ones took 473 MB); the ceiling allows 4,096.
        assert_eq!(
            default_max_connections(Some(20_000), 84, Some(23_000 * MIB)),
            4_096
        );
        // Docker's usual file limit, unknown memory: the ceiling.
        assert_eq!(default_max_connections(Some(1_048_576), 84, None), 4_096);
        // 400 MiB available (a 512 MiB container in use): a quarter at 64 KiB each.
        assert_eq!(
            default_max_connections(Some(1_048_576), 84, Some(400 * MIB)),
            1_600
        );
        assert_eq!(default_max_connections(None, 84, Some(400 * MIB)), 1_600);
        assert_eq!(default_max_connections(Some(1_048_576), 84, Some(1)), 16);
        // Whatever the machine, connections are budgeted at most the ceiling.
        for available in [None, Some(1 << 40), Some(u64::MAX)] {
            let n = default_max_connections(Some(u64::MAX), 0, available) as u64;
            assert!(n * CONNECTION_MEMORY <= CONNECTION_MEMORY_CEILING);
        }
    }

    #[test]
    fn available_memory_is_mem_available() {
        let meminfo = "MemTotal:       24684032 kB\nMemFree:        21029888 kB\nMemAvailable:   23610368 kB\n";
        assert_eq!(mem_available(meminfo), Some(23_610_368 * 1024));
        assert_eq!(mem_available("MemTotal: 1 kB\n"), None);
    }

    #[test]
    fn this_machines_available_memory_is_read() {
        let available = available_memory().expect("Linux reports its memory");
        let total = std::fs::read_to_string("/proc/meminfo")
            .ok()
            .and_then(|info| {
                info.lines()
                    .find_map(|l| l.strip_prefix("MemTotal:"))?
                    .split_whitespace()
                    .next()?
                    .parse::<u64>()
                    .ok()
            })
            .expect("MemTotal")
            * 1024;
        assert!(
            available > 0 && available <= total,
            "{available} of {total}"
        );
    }

    #[test]
    fn each_address_holds_at_most_its_cap_of_connections() {
        let slots = AddressSlots::new(2);
        let one: std::net::IpAddr = "192.0.2.1".parse().unwrap();
        let two: std::net::IpAddr = "192.0.2.2".parse().unwrap();
        let a = slots.enter(one).unwrap();
        let b = slots.enter(one).unwrap();
        assert!(slots.enter(one).is_none(), "the third of one address");
        // Another address is not affected.
        let c = slots.enter(two).unwrap();
        assert_eq!((slots.open(one), slots.open(two)), (2, 1));
        // A connection that closes frees its place.
        drop(a);
        let d = slots.enter(one).unwrap();
        assert!(slots.enter(one).is_none());
        drop((b, c, d));
        assert_eq!(slots.addresses(), 0, "closed addresses leave the map");
    }

    #[test]
    fn an_ipv6_network_of_64_counts_as_one_address() {
        let slots = AddressSlots::new(1);
        let first: std::net::IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_64: std::net::IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other_64: std::net::IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let _held = slots.enter(first).unwrap();
        assert!(slots.enter(same_64).is_none());
        assert!(slots.enter(other_64).is_some());
        // An IPv4 address mapped into IPv6 is the IPv4 address.
        let v4: std::net::IpAddr = "198.51.100.7".parse().unwrap();
        let mapped: std::net::IpAddr = "::ffff:198.51.100.7".parse().unwrap();
        let _v4 = slots.enter(v4).unwrap();
        assert!(slots.enter(mapped).is_none());
    }

    #[cfg(unix)]
    #[test]
    fn the_soft_file_limit_is_raised_to_the_hard_one() {
        let limit = raise_file_limit();
        let now = rustix::process::getrlimit(rustix::process::Resource::Nofile);
        assert_eq!(limit, now.current);
        assert_eq!(now.current, now.maximum);
    }
}
