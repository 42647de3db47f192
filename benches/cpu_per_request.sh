#!/usr/bin/env bash
# Service CPU per request, by class of request (issue 55): the `crm serve` process's user +
# system time (/proc/<pid>/stat, utime + stime) across a wrk run, divided by the requests it
# served; with the requests per second, and the same-run ratio of GET one record to
# PostgreSQL's own `pgbench -S -M prepared` (wrk and pgbench alternating, ROUNDS rounds).
# CPU per request is the figure that holds on a shared machine where throughput moves
# ±10 % from run to run.
#
#   benches/cpu_per_request.sh [seconds-per-run]      (default 10; BENCH_CONNECTIONS=64,
#                                                      ROUNDS=3)
#
# Classes: GET one note, GET a page of 25 notes, POST a note, the client's page of an
# estimate, its PDF (kept by the PDF cache after the first request). It builds the release
# binary, makes a fresh `crm_cpu_bench` database with the demo data and 100 notes, and
# starts the service with its default configuration (access log on) but for the client
# pages' per-address limit, which wrk's one address would reach at once.
#
# What it may install (as root, from Debian's packages, and only when missing): wrk, and
# through scripts/ensure-postgres, postgresql and postgresql-contrib (for pgbench).
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${1:-${BENCH_SECONDS:-10}}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
ROUNDS=${ROUNDS:-3}
PORT=${BENCH_PORT:-18090}
SERVER=postgres://postgres@127.0.0.1:5432
export PGHOST=127.0.0.1 PGUSER=postgres

scripts/ensure-postgres >/dev/null
if ! command -v wrk >/dev/null; then
  echo "installing wrk (Debian package)"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q wrk >/dev/null
fi
command -v pgbench >/dev/null || { echo "pgbench is missing (Debian: postgresql-contrib)" >&2; exit 1; }

cargo build --release --locked -p crm-http >/dev/null
BIN=$PWD/target/release/crm
export DATABASE_URL=$SERVER/crm_cpu_bench
psql -q -c 'DROP DATABASE IF EXISTS crm_cpu_bench WITH (FORCE)' postgres
"$BIN" migrate >/dev/null 2>&1
"$BIN" seed >/dev/null 2>&1
export CRM_KEY=$("$BIN" keys create --name cpu-bench 2>/dev/null)
psql -q -d crm_cpu_bench -c "INSERT INTO notes (title, description, creator_id, resource_type, client_id)
  SELECT 'Load note ' || g, 'Seeded for the CPU benchmark, number ' || g, 1, 'client', 1 FROM generate_series(1, 100) g"
NOTE_ID=$(psql -At -d crm_cpu_bench -c "SELECT min(id) FROM notes WHERE title LIKE 'Load note%'")

LOG=$(mktemp /tmp/crm-cpu-bench.XXXXXX.log)
"$BIN" serve --listen 127.0.0.1:$PORT --public-rate-limit 1000000/s 2>"$LOG" &
PID=$!
trap 'kill -TERM $PID 2>/dev/null || true; wait $PID 2>/dev/null || true; rm -f "$LOG"' EXIT
for _ in $(seq 1 100); do
  curl -sf http://127.0.0.1:$PORT/healthz >/dev/null && break
  sleep 0.1
done
AUTH="Authorization: Bearer $CRM_KEY"
API=http://127.0.0.1:$PORT/api
# A published estimate with two lines: its client link is the page and the PDF measured.
CATEGORY=$(psql -At -d crm_cpu_bench -c "SELECT id FROM categories WHERE type = 'estimate' AND system_default")
ESTIMATE=$(curl -sf -X POST $API/estimates -H "$AUTH" -d bill_clientid=1 -d bill_categoryid="$CATEGORY" \
  -d bill_date=2026-11-01 | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["id"])')
curl -sf -o /dev/null -X PUT $API/estimates/$ESTIMATE/items -H "$AUTH" \
  -d "items[0][description]=Design" -d "items[0][quantity]=1.5" -d "items[0][rate]=1385.27" \
  -d "items[1][description]=Hosting" -d "items[1][quantity]=12" -d "items[1][rate]=9.99"
LINK=$(curl -sf -X PUT $API/estimates/$ESTIMATE/publish -H "$AUTH" |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["client_link"]["url"])')
LINK=http://127.0.0.1:$PORT/c/${LINK##*/c/}
curl -sf -o /dev/null "$LINK/pdf"

TICKS=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
declare -A RPS CPU
measure() { # name, wrk args…
  local name=$1; shift
  local before after out requests
  before=$(cpu_ticks)
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" "$@")
  after=$(cpu_ticks)
  if grep -q 'Non-2xx or 3xx responses' <<<"$out"; then
    echo "$name: some responses were not 2xx:" >&2
    echo "$out" >&2
    exit 1
  fi
  requests=$(awk '/requests in/ {print $1}' <<<"$out")
  RPS[$name]=$(awk '/^Requests\/sec/ {print $2}' <<<"$out")
  CPU[$name]=$(awk -v t=$((after - before)) -v hz="$TICKS" -v n="$requests" 'BEGIN {printf "%.1f", t / hz * 1e6 / n}')
}
pgbench_select() {
  pgbench -S -M prepared -c 32 -j 2 -T "$DURATION" crm_cpu_pgbench 2>/dev/null | awk '/^tps/ {printf "%.0f", $3}'
}
psql -q -c 'DROP DATABASE IF EXISTS crm_cpu_pgbench WITH (FORCE)' -c 'CREATE DATABASE crm_cpu_pgbench' postgres
pgbench -q -i -s 10 crm_cpu_pgbench >/dev/null 2>&1

CLASSES=("GET one note" "GET 25 notes" "POST a note" "client page" "client PDF (cached)")
run() { # class, round
  case $1 in
    "GET one note") measure "$1 ($2)" -H "$AUTH" "$API/notes/$NOTE_ID" ;;
    "GET 25 notes") measure "$1 ($2)" -H "$AUTH" "$API/notes?limit=25" ;;
    "POST a note") measure "$1 ($2)" -s benches/load/post_note.lua "http://127.0.0.1:$PORT" ;;
    "client page") measure "$1 ($2)" "$LINK" ;;
    "client PDF (cached)") measure "$1 ($2)" "$LINK/pdf" ;;
  esac
}
declare -A TPS
for round in $(seq 1 "$ROUNDS"); do
  TPS[$round]=$(pgbench_select)
  for class in "${CLASSES[@]}"; do
    run "$class" "$round"
  done
done

echo "crm service CPU per request: wrk -t2 -c$CONNECTIONS -d${DURATION}s, $ROUNDS rounds, $(nproc) cores, $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d)"
echo
echo "| request | rps (mean) | service CPU per request (µs, median of rounds) | rounds |"
echo "|---|---|---|---|"
for class in "${CLASSES[@]}"; do
  rps=$(for r in $(seq 1 "$ROUNDS"); do echo "${RPS[$class ($r)]}"; done | awk '{s += $1} END {printf "%.0f", s / NR}')
  cpus=$(for r in $(seq 1 "$ROUNDS"); do echo "${CPU[$class ($r)]}"; done)
  median=$(sort -n <<<"$cpus" | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
  echo "| $class | $rps | $median | $(tr '\n' ' ' <<<"$cpus")|"
done
echo
echo "| round | pgbench -S -M prepared -c32 tps | GET one note rps | ratio |"
echo "|---|---|---|---|"
for round in $(seq 1 "$ROUNDS"); do
  rps=${RPS["GET one note ($round)"]}
  echo "| $round | ${TPS[$round]} | $rps | $(awk -v a="$rps" -v b="${TPS[$round]}" 'BEGIN {printf "%.2f", a / b}') |"
done
psql -q -c 'DROP DATABASE IF EXISTS crm_cpu_pgbench WITH (FORCE)' -c 'DROP DATABASE IF EXISTS crm_cpu_bench WITH (FORCE)' postgres
