//! What every instance shares through Redis (`--redis-url`, API.md §16): the rate limits'
//! buckets and each API key's last write position (for reads from replicas).
//!
//! One multiplexed connection, kept by the `redis` crate's connection manager. Each rate
//! limit decision is one atomic Lua script run by `EVALSHA` (loaded on first use): it reads
//! the bucket with the server's clock (`TIME`, so that instances whose clocks differ still
//! share one bucket), applies the rule of [`crate::limits`] (GCRA) and stores the result,
//! all at once. A key's position is raised (never lowered) by another script.
//!
//! When Redis cannot be reached, the instance says so once in its log, counts
//! `crm_redis_up 0`, and limits on its own (each instance its own bucket) until a probe
//! every [`PROBE_EVERY`] finds Redis again, which it also says once. Meanwhile no request
//! waits for Redis. Reads from replicas go to the primary while positions cannot be
//! shared, and for [`Shared::trusted_after_down`] after Redis returns (a write made
//! meanwhile was kept only by its instance).

use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crm_core::replica::Lsn;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};

use crate::metrics::SharedCounts;

/// How often an instance whose Redis is unreachable tries it again.
pub const PROBE_EVERY: Duration = Duration::from_secs(1);

/// The time a Redis command may take before the instance counts Redis as unreachable.
pub const ANSWER_WITHIN: Duration = Duration::from_millis(500);

/// How long a key's write position is kept (renewed by each write). Past it any replica
/// that does not lag has long replayed that write.
pub const POSITION_TTL_SECONDS: u64 = 3600;

/// GCRA in Redis: `KEYS[1]` the bucket (its theoretical arrival time in microseconds of
/// the server's clock), `ARGV[1]` a token's interval (µs), `ARGV[2]` the burst window
/// (per − interval, µs), `ARGV[3]` `1` to take a token, `0` to look only. Returns how far
/// ahead of now the bucket is full again (µs) before this request; a token is taken when
/// that is within the burst window ([`crate::limits::decide`] is the same rule).
const GCRA_SCRIPT: &str = r"
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local full_at = tonumber(redis.call('GET', KEYS[1]) or '0')
local ahead = full_at - now
if ahead < 0 then ahead = 0 end
if ARGV[3] == '1' and ahead <= tonumber(ARGV[2]) then
  local next_ahead = ahead + tonumber(ARGV[1])
  redis.call('SET', KEYS[1], string.format('%.0f', now + next_ahead),
    'PX', math.floor(next_ahead / 1000) + 1)
end
return ahead
";

/// Raises `KEYS[1]` to `ARGV[1]` (positions as 16 hexadecimal digits compare as text)
/// and renews its lifetime to `ARGV[2]` seconds.
const RAISE_SCRIPT: &str = r"
local now = redis.call('GET', KEYS[1])
if (not now) or ARGV[1] > now then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[2])
else
  redis.call('EXPIRE', KEYS[1], ARGV[2])
end
return 1
";

/// The connection to Redis and its health.
pub struct Shared {
    connection: ConnectionManager,
    gcra: redis::Script,
    raise: redis::Script,
    up: AtomicBool,
    /// When Redis last came back after an outage, while it answers (`None` while it does
    /// not, and before the first outage: what Redis holds at the start is trusted).
    up_since: Mutex<Option<Instant>>,
    /// Whether Redis was ever unreachable since the start.
    was_down: AtomicBool,
    counts: SharedCounts,
    /// `host:port` of the server, for the log (never its password).
    shown: String,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("redis", &self.shown)
            .field("up", &self.up.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

/// Why `--redis-url` is refused.
#[derive(Debug, thiserror::Error)]
#[error("--redis-url / CRM_REDIS_URL: {0}")]
pub struct BadRedisUrl(String);

/// A `--redis-url` checked when the command line is read:
/// `redis://[[user]:password@]host[:port][/db]`.
pub fn check_url(url: &str) -> Result<String, String> {
    redis::Client::open(url)
        .map(|_| url.to_owned())
        .map_err(|_| "a redis:// URL such as redis://127.0.0.1:6379/0".to_owned())
}

impl Shared {
    /// Connects lazily to the Redis at `url` (nothing is sent until the first request) and
    /// starts the probe that notices Redis coming back. Counts in `counts`.
    pub fn start(url: &str, counts: SharedCounts) -> Result<Arc<Shared>, BadRedisUrl> {
        let client = redis::Client::open(url)
            .map_err(|_| BadRedisUrl("a redis:// URL such as redis://127.0.0.1:6379/0".into()))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(ANSWER_WITHIN))
            .set_response_timeout(Some(ANSWER_WITHIN))
            .set_number_of_retries(1)
            .set_max_delay(Duration::from_millis(200));
        let connection = ConnectionManager::new_lazy_with_config(client, config)
            .map_err(|e| BadRedisUrl(format!("cannot set up the connection: {:?}", e.kind())))?;
        let shown = crm_store_pg::pool::redact_password(url);
        counts.redis_up.set(1);
        let shared = Arc::new(Shared {
            connection,
            gcra: redis::Script::new(GCRA_SCRIPT),
            raise: redis::Script::new(RAISE_SCRIPT),
            up: AtomicBool::new(true),
            up_since: Mutex::new(None),
            was_down: AtomicBool::new(false),
            counts,
            shown,
        });
        tokio::spawn(probe(Arc::downgrade(&shared)));
        Ok(shared)
    }

    /// Whether Redis answered the last command.
    pub fn is_up(&self) -> bool {
        self.up.load(Ordering::Acquire)
    }

    /// Whether positions kept in Redis may be trusted: Redis answers, and has answered
    /// for at least `window` (a write made while it did not was kept only by its own
    /// instance; after `window`, the replica's lag bound covers it).
    pub fn trusted_after_down(&self, window: Duration) -> bool {
        self.is_up()
            && (!self.was_down.load(Ordering::Acquire)
                || self
                    .up_since
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .is_some_and(|since| since.elapsed() >= window))
    }

    /// Counts a decision made without Redis.
    pub fn count_fallback(&self) {
        self.counts.fallback.inc();
    }

    fn went_down(&self, error: &redis::RedisError) {
        if self.up.swap(false, Ordering::AcqRel) {
            self.was_down.store(true, Ordering::Release);
            *self
                .up_since
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = None;
            self.counts.redis_up.set(0);
            tracing::warn!(
                redis = %self.shown,
                error = ?error.kind(),
                "Redis cannot be reached: each instance limits on its own, and reads go to \
                 the primary, until it answers again"
            );
        }
    }

    fn came_back(&self) {
        if !self.up.swap(true, Ordering::AcqRel) {
            *self
                .up_since
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(Instant::now());
            self.counts.redis_up.set(1);
            tracing::info!(redis = %self.shown, "Redis answers again: limits are shared again");
        }
    }

    /// Runs the GCRA script on `bucket`; `None` when Redis did not answer (then it is
    /// marked down). Returns how far ahead the bucket was full again.
    pub async fn gcra(
        &self,
        bucket: &str,
        interval: Duration,
        burst: Duration,
        take: bool,
    ) -> Option<Duration> {
        if !self.is_up() {
            return None;
        }
        let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        let mut connection = self.connection.clone();
        let answer = tokio::time::timeout(
            ANSWER_WITHIN,
            self.gcra
                .key(bucket)
                .arg(micros(interval))
                .arg(micros(burst))
                .arg(if take { "1" } else { "0" })
                .invoke_async::<i64>(&mut connection),
        )
        .await;
        match answer {
            Ok(Ok(ahead)) => Some(Duration::from_micros(u64::try_from(ahead).unwrap_or(0))),
            Ok(Err(e)) => {
                self.went_down(&e);
                None
            }
            Err(_) => {
                self.went_down(&redis::RedisError::from(std::io::Error::new(
                    std::io::ErrorKind::TimedOut,
                    "no answer in time",
                )));
                None
            }
        }
    }

    /// The last write position kept for `key`: `Ok(None)` when none is kept, `Err(())`
    /// when Redis did not answer.
    pub async fn position(&self, key: &str) -> Result<Option<Lsn>, ()> {
        if !self.is_up() {
            return Err(());
        }
        let mut connection = self.connection.clone();
        let answer = tokio::time::timeout(
            ANSWER_WITHIN,
            redis::cmd("GET")
                .arg(key)
                .query_async::<Option<String>>(&mut connection),
        )
        .await;
        match answer {
            Ok(Ok(text)) => Ok(text.and_then(|t| u64::from_str_radix(&t, 16).ok().map(Lsn))),
            Ok(Err(e)) => {
                self.went_down(&e);
                Err(())
            }
            Err(_) => Err(()),
        }
    }

    /// Raises the position kept for `key` to `lsn`; false when Redis did not answer.
    pub async fn raise_position(&self, key: &str, lsn: Lsn) -> bool {
        if !self.is_up() {
            return false;
        }
        let mut connection = self.connection.clone();
        let answer = tokio::time::timeout(
            ANSWER_WITHIN,
            self.raise
                .key(key)
                .arg(format!("{:016X}", lsn.0))
                .arg(POSITION_TTL_SECONDS)
                .invoke_async::<i64>(&mut connection),
        )
        .await;
        match answer {
            Ok(Ok(_)) => true,
            Ok(Err(e)) => {
                self.went_down(&e);
                false
            }
            Err(_) => false,
        }
    }

    async fn ping(&self) -> bool {
        let mut connection = self.connection.clone();
        matches!(
            tokio::time::timeout(
                ANSWER_WITHIN,
                redis::cmd("PING").query_async::<String>(&mut connection),
            )
            .await,
            Ok(Ok(_))
        )
    }
}

/// Tries Redis every [`PROBE_EVERY`] while it is marked down, until the [`Shared`] is
/// dropped.
async fn probe(shared: std::sync::Weak<Shared>) {
    loop {
        tokio::time::sleep(PROBE_EVERY).await;
        let Some(shared) = shared.upgrade() else {
            return;
        };
        if !shared.is_up() && shared.ping().await {
            shared.came_back();
        }
    }
}
