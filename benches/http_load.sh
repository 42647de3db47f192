#!/usr/bin/env bash
# HTTP load benchmark of the `crm` service, with pgbench's select-only run against the
# same PostgreSQL as the reference, in one run (this machine is shared and noisy: compare
# figures from the same run only).
#
#   benches/http_load.sh [seconds-per-run]      (default 15; BENCH_CONNECTIONS=64)
#
# It builds the release binary, creates a fresh `crm_bench` database with the demo data,
# 100 more notes and 64 estimates, starts the service with its default configuration (logs
# on, one line per request), and measures with wrk (2 threads, 64 connections):
#   GET one note, GET a page of 25 notes, GET a page of 100 notes (plain, gzip and br: the
#   cost of compression), POST a note, PUT 10 line items; and beside POST a note, pgbench
#   running the minimal single INSERT … RETURNING with the same effect (64 clients), and
#   both again with the notes count trigger disabled (what keeping exact totals costs),
#   and pgbench with as many clients as the service's pool (16 by default), for WRITE_ROUNDS rounds (default 6)
#   in a rotating order, each ratio also per round; and
#   the rate limiter's cost: GET one note from a second service started with
#   `--rate-limit 1000000/s` (never reached), measured alternately with the unlimited one
#   for RATE_ROUNDS rounds (default 3: ABABAB), the ratio taken on the sums.
# The reference is `pgbench -S -M prepared -j 2` at 8, 16 and 32 clients (best kept).
# Prints rps, p50, p99, the ratio to pgbench, and the server's resident memory.
#
# What it may install (as root, from Debian's packages, and only when missing): wrk, and
# through scripts/ensure-postgres, postgresql and postgresql-contrib (for pgbench). It says
# so and waits 5 seconds first (BENCH_YES=1 skips the wait); nothing is installed otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-${BENCH_SECONDS:-15}}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
PORT=${BENCH_PORT:-18080}
SERVER=postgres://postgres@127.0.0.1:5432
export PGHOST=127.0.0.1 PGUSER=postgres

missing=()
command -v wrk >/dev/null || missing+=(wrk)
pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null || ls /etc/postgresql/*/main >/dev/null 2>&1 \
  || missing+=(postgresql postgresql-contrib)
if [ ${#missing[@]} -gt 0 ]; then
  echo "benches/http_load.sh will install these Debian packages with apt-get: ${missing[*]}"
  if [ "${BENCH_YES:-}" != 1 ]; then
    echo "(starting in 5 seconds; Ctrl-C to stop, BENCH_YES=1 to skip this pause)"
    sleep 5
  fi
fi
scripts/ensure-postgres >/dev/null
if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null
fi
command -v pgbench >/dev/null || { echo "pgbench is missing (Debian: postgresql-contrib)" >&2; exit 1; }

cargo build --release --locked -p crm-http >/dev/null
BIN=$PWD/target/release/crm
export DATABASE_URL=$SERVER/crm_bench
psql -q -c 'DROP DATABASE IF EXISTS crm_bench WITH (FORCE)' postgres
"$BIN" migrate >/dev/null 2>&1
"$BIN" seed >/dev/null 2>&1
export CRM_KEY=$("$BIN" keys create --name bench 2>/dev/null)
psql -q -d crm_bench -c "INSERT INTO notes (title, description, creator_id, resource_type, client_id)
  SELECT 'Load note ' || g, 'Seeded for the load benchmark, number ' || g, 1, 'client', 1 FROM generate_series(1, 100) g"
psql -q -d crm_bench -c "INSERT INTO tags (title, position, note_id) SELECT 'bench', 1, id FROM notes WHERE title LIKE 'Load note%'"
NOTE_ID=$(psql -At -d crm_bench -c "SELECT min(id) FROM notes WHERE title LIKE 'Load note%'")
export ESTIMATE_IDS=$(psql -At -d crm_bench -c "WITH created AS (INSERT INTO estimates (client_id, category_id, date, creator_id)
  SELECT 1, (SELECT id FROM categories WHERE type = 'estimate' AND system_default), current_date, 1
  FROM generate_series(1, 64) RETURNING id) SELECT id FROM created" | tr '\n' ' ')
export TAX_RATE_ID=$(psql -At -d crm_bench -c "SELECT id FROM tax_rates WHERE rate = 20.00 AND status = 'enabled' LIMIT 1")

LOG=$(mktemp /tmp/crm-bench-serve.XXXXXX.log)
"$BIN" serve --listen 127.0.0.1:$PORT 2>"$LOG" &
PID=$!
LIMITED_PORT=$((PORT + 1))
"$BIN" serve --listen 127.0.0.1:$LIMITED_PORT --rate-limit 1000000/s 2>/dev/null &
LIMITED_PID=$!
trap 'kill -TERM $PID $LIMITED_PID 2>/dev/null || true; wait $PID $LIMITED_PID 2>/dev/null || true' EXIT
for port in $PORT $LIMITED_PORT; do
  for _ in $(seq 1 100); do
    curl -sf http://127.0.0.1:$port/healthz >/dev/null && break
    sleep 0.1
  done
done

echo "pgbench reference (select-only, prepared, 2 threads, ${DURATION}s each)"
psql -q -c 'DROP DATABASE IF EXISTS crm_pgbench WITH (FORCE)' -c 'CREATE DATABASE crm_pgbench' postgres
pgbench -q -i -s 10 crm_pgbench >/dev/null 2>&1
BEST_TPS=0; BEST_CLIENTS=0
for clients in 8 16 32; do
  tps=$(pgbench -S -M prepared -c $clients -j 2 -T "$DURATION" crm_pgbench 2>/dev/null | awk '/^tps/ {print $3}')
  printf '  %2d clients: %s tps\n' "$clients" "$tps"
  if awk -v a="$tps" -v b="$BEST_TPS" 'BEGIN {exit !(a > b)}'; then BEST_TPS=$tps; BEST_CLIENTS=$clients; fi
done

declare -A RPS P50 P99
measure() { # name, wrk args…
  local name=$1; shift
  local out
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$@")
  if grep -q 'Non-2xx or 3xx responses' <<<"$out"; then
    echo "$name: some responses were not 2xx:" >&2
    echo "$out" >&2
    exit 1
  fi
  RPS[$name]=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  P50[$name]=$(awk '$1 == "50%" {print $2}' <<<"$out")
  P99[$name]=$(awk '$1 == "99%" {print $2}' <<<"$out")
}
AUTH="Authorization: Bearer $CRM_KEY"
measure "GET one note" -H "$AUTH" "http://127.0.0.1:$PORT/api/notes/$NOTE_ID"
measure "GET 25 notes" -H "$AUTH" "http://127.0.0.1:$PORT/api/notes?limit=25&page=2"
measure "GET 100 notes" -H "$AUTH" "http://127.0.0.1:$PORT/api/notes?limit=100"
measure "GET 100 notes, gzip" -H "$AUTH" -H "Accept-Encoding: gzip" "http://127.0.0.1:$PORT/api/notes?limit=100"
measure "GET 100 notes, br" -H "$AUTH" -H "Accept-Encoding: br" "http://127.0.0.1:$PORT/api/notes?limit=100"
# The same write as pgbench runs it: the minimal single statement with the same effect
# (insert the note on client 1, return the record), 64 clients, same database, same run;
# and pgbench again with as many clients as the service has pooled connections
# (CRM_POOL_SIZE, else the --pool-size default that `crm serve --help` states): PostgreSQL
# runs fewer backends then, as it does behind the service.
# What keeping the list counts costs writers: the same three measurements with the count
# trigger of note inserts disabled (the counts of crm_bench drift meanwhile; it is
# dropped). WRITE_ROUNDS rounds (default 6) of the six measurements; each round starts
# one place further in their order (so each holds each position equally often, whatever
# drifts over a run: the table's growth, autovacuum, neighbours), and each measurement
# starts right after a CHECKPOINT (so none pays another's full-page writes). Ratios are
# given per round (the two sides of a ratio measured within a minute of each other), as
# their median, and on the sums.
INSERT_SQL=$(mktemp /tmp/crm-bench-insert.XXXXXX.sql)
echo "INSERT INTO notes (title, description, visibility, resource_type, client_id, creator_id) VALUES ('Load test note', 'Posted by pgbench', 'public', 'client', 1, 1) RETURNING id, title, description, visibility, resource_type, resource_id, creator_id, created_at, updated_at;" >"$INSERT_SQL"
counts() { # on | off
  local verb=ENABLE
  [ "$1" = off ] && verb=DISABLE
  psql -q -d crm_bench -c "ALTER TABLE notes $verb TRIGGER notes_count_insert" -c 'CHECKPOINT'
}
POOL_CLIENTS=${CRM_POOL_SIZE:-$("$BIN" serve --help | grep -A1 -- '--pool-size' | sed -n 's/.*\[default: \([0-9][0-9]*\)\].*/\1/p')}
[ -n "$POOL_CLIENTS" ] || { echo "cannot read the service's pool size from crm serve --help" >&2; exit 1; }
pgbench_insert() { # clients
  pgbench -n -M prepared -c "$1" -j 2 -T "$DURATION" -f "$INSERT_SQL" crm_bench 2>/dev/null | awk '/^tps/ {print $3}'
}
write_run() { # POST|pgbench|pool, on|off, round
  counts "$2"
  case $1 in
    POST)
      local name="POST a note ($3)"
      [ "$2" = off ] && name="POST a note, counts off ($3)"
      measure "$name" -s benches/load/post_note.lua "http://127.0.0.1:$PORT"
      ;;
    pgbench) TPS[$2 $3]=$(pgbench_insert "$CONNECTIONS") ;;
    pool) TPS[pool $2 $3]=$(pgbench_insert "$POOL_CLIENTS") ;;
  esac
}
WRITE_ROUNDS=${WRITE_ROUNDS:-6}
WRITE_RUNS=("POST on" "pgbench on" "pool on" "POST off" "pgbench off" "pool off")
declare -A TPS
for round in $(seq 1 "$WRITE_ROUNDS"); do
  for i in "${!WRITE_RUNS[@]}"; do
    # shellcheck disable=SC2086 # two words: the side and the counts
    write_run ${WRITE_RUNS[$(((round - 1 + i) % ${#WRITE_RUNS[@]}))]} "$round"
  done
done
counts on
rm -f "$INSERT_SQL"
for name in "POST a note" "POST a note, counts off"; do
  RPS[$name]=$(for r in $(seq 1 "$WRITE_ROUNDS"); do echo "${RPS[$name ($r)]}"; done | awk '{s += $1} END {printf "%.2f", s / NR}')
  P50[$name]=${P50[$name (1)]}; P99[$name]=${P99[$name (1)]}
done
measure "PUT 10 line items" -s benches/load/put_items.lua "http://127.0.0.1:$PORT"
RATE_ROUNDS=${RATE_ROUNDS:-3}
for round in $(seq 1 "$RATE_ROUNDS"); do
  measure "GET one note, no limit ($round)" -H "$AUTH" "http://127.0.0.1:$PORT/api/notes/$NOTE_ID"
  measure "GET one note, --rate-limit ($round)" -H "$AUTH" "http://127.0.0.1:$LIMITED_PORT/api/notes/$NOTE_ID"
done

RSS=$(awk '/^VmRSS/ {print $2 " " $3}' /proc/$PID/status)
HWM=$(awk '/^VmHWM/ {print $2 " " $3}' /proc/$PID/status)
LINES=$(wc -l <"$LOG")

echo
echo "crm service, wrk -t2 -c$CONNECTIONS -d${DURATION}s, $(nproc) cores, $(date -u +%Y-%m-%d)"
echo "pgbench -S -M prepared best: $BEST_TPS tps at $BEST_CLIENTS clients"
echo
echo "| request | rps | p50 | p99 | vs pgbench -S |"
echo "|---|---|---|---|---|"
for name in "GET one note" "GET 25 notes" "GET 100 notes" "GET 100 notes, gzip" "GET 100 notes, br" "POST a note" "POST a note, counts off" "PUT 10 line items"; do
  ratio=$(awk -v a="${RPS[$name]}" -v b="$BEST_TPS" 'BEGIN {printf "%.0f %%", 100 * a / b}')
  echo "| $name | ${RPS[$name]} | ${P50[$name]} | ${P99[$name]} | $ratio |"
done
echo
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a / b}'; }
echo "writes: POST a note (wrk) and pgbench's single INSERT … RETURNING at $CONNECTIONS clients and at $POOL_CLIENTS (the service's pool), counts kept and not ($WRITE_ROUNDS rounds, each starting one place further in the order ${WRITE_RUNS[*]}; a CHECKPOINT before each; POST rows above are the means, p50/p99 of round 1):"
echo
echo "| round | POST rps | pgbench tps | pgbench tps, $POOL_CLIENTS clients | POST rps, counts off | pgbench tps, counts off | pgbench, $POOL_CLIENTS, counts off | POST / pgbench, kept | off | POST / pgbench $POOL_CLIENTS, kept | off | kept / off, service | pgbench | pgbench $POOL_CLIENTS |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
# Columns of $RATIOS, one line per round: the four ratios above.
RATIOS=""
SUM_ON=0; SUM_OFF=0; SUM_PG_ON=0; SUM_PG_OFF=0
for round in $(seq 1 "$WRITE_ROUNDS"); do
  on=${RPS["POST a note ($round)"]}; off=${RPS["POST a note, counts off ($round)"]}
  pg_on=${TPS[on $round]}; pg_off=${TPS[off $round]}; pool_on=${TPS[pool on $round]}; pool_off=${TPS[pool off $round]}
  line="$(ratio "$on" "$pg_on") $(ratio "$off" "$pg_off") $(ratio "$on" "$pool_on") $(ratio "$off" "$pool_off") $(ratio "$on" "$off") $(ratio "$pg_on" "$pg_off") $(ratio "$pool_on" "$pool_off")"
  RATIOS+="$line"$'\n'
  echo "| $round | $on | $pg_on | $pool_on | $off | $pg_off | $pool_off | ${line// / | } |"
  SUM_ON=$(awk -v a="$SUM_ON" -v b="$on" 'BEGIN {print a + b}')
  SUM_OFF=$(awk -v a="$SUM_OFF" -v b="$off" 'BEGIN {print a + b}')
  SUM_PG_ON=$(awk -v a="$SUM_PG_ON" -v b="$pg_on" 'BEGIN {print a + b}')
  SUM_PG_OFF=$(awk -v a="$SUM_PG_OFF" -v b="$pg_off" 'BEGIN {print a + b}')
done
median() { # column of $RATIOS
  printf '%s' "$RATIOS" | awk -v c="$1" '{print $c}' | sort -n | awk '{v[NR] = $1} END {printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}
echo
echo "POST a note / pgbench's INSERT at $CONNECTIONS clients: counts kept $(median 1) (median of rounds; $(ratio "$SUM_ON" "$SUM_PG_ON") on the sums), counts off $(median 2) ($(ratio "$SUM_OFF" "$SUM_PG_OFF"))"
echo "POST a note / pgbench's INSERT at $POOL_CLIENTS clients: counts kept $(median 3), counts off $(median 4) (medians of rounds)"
echo "counts kept / counts off: service $(median 5) (median of rounds; $(ratio "$SUM_ON" "$SUM_OFF") on the sums), pgbench $(median 6) ($(ratio "$SUM_PG_ON" "$SUM_PG_OFF")), pgbench at $POOL_CLIENTS clients $(median 7)"
echo
echo "the rate limiter's cost (GET one note; --rate-limit 1000000/s, never reached; $RATE_ROUNDS rounds, alternating):"
echo
echo "| round | no limit rps | --rate-limit rps | ratio |"
echo "|---|---|---|---|"
SUM_FREE=0; SUM_LIMITED=0
for round in $(seq 1 "$RATE_ROUNDS"); do
  free=${RPS["GET one note, no limit ($round)"]}; limited=${RPS["GET one note, --rate-limit ($round)"]}
  echo "| $round | $free | $limited | $(awk -v a="$limited" -v b="$free" 'BEGIN {printf "%.1f %%", 100 * a / b}') |"
  SUM_FREE=$(awk -v a="$SUM_FREE" -v b="$free" 'BEGIN {print a + b}')
  SUM_LIMITED=$(awk -v a="$SUM_LIMITED" -v b="$limited" 'BEGIN {print a + b}')
done
echo "| all | $SUM_FREE | $SUM_LIMITED | $(awk -v a="$SUM_LIMITED" -v b="$SUM_FREE" 'BEGIN {printf "%.1f %%", 100 * a / b}') |"
echo
size() { curl -s -o /dev/null -w '%{size_download}' -H "$AUTH" -H "Accept-Encoding: $1" "http://127.0.0.1:$PORT/api/notes?limit=100"; }
echo "a page of 100 notes on the wire: $(size identity) bytes plain, $(size gzip) gzip, $(size br) br"
echo "server resident memory: $RSS now, $HWM peak; $LINES access log lines written"
