#!/usr/bin/env bash
# The deployment of scripts/cluster under load (API.md §16), in one run: GET /api/notes/{id}
# through HAProxy with 1 and with 3 instances, with and without the streaming replica, and
# the rate limiter's cost with its buckets in Redis against in memory (a limit no request
# reaches, so only its bookkeeping is measured).
#
#   benches/cluster.sh [seconds-per-run]     (default 10; BENCH_CONNECTIONS=32)
#
# wrk (2 threads) runs on the same 2 cores as HAProxy, PgBouncer, both PostgreSQL servers,
# Redis and the instances: more instances or a replica add work on the same cores, so the
# figures show what each piece costs here, not what they gain on more machines. Compare
# figures of one run only. Needs scripts/install-cluster-tools' packages; builds the
# release binary (CRM_BIN names another).
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-32}
command -v wrk >/dev/null || { echo "wrk is missing: run scripts/install-cluster-tools" >&2; exit 1; }
if [ -z "${CRM_BIN:-}" ]; then
  cargo build -q --release -p crm-http
  CRM_BIN=$PWD/${CARGO_TARGET_DIR:-target}/release/crm
  [ -x "$CRM_BIN" ] || CRM_BIN=${CARGO_TARGET_DIR:-target}/release/crm
fi
export CRM_BIN
export CRM_CLUSTER_DIR=${CRM_CLUSTER_DIR:-$PWD/target/cluster-bench}
results=()

run() { # label instances replica(0/1) redis(0/1) rate-limit
  local label=$1
  CRM_CLUSTER_REPLICA=$3 CRM_CLUSTER_REDIS=$4 CRM_CLUSTER_RATE_LIMIT=$5 \
    scripts/cluster up "$2" >/dev/null
  # shellcheck disable=SC1091
  . "$CRM_CLUSTER_DIR/env"
  local key id out rps p50 p99
  key=$(DATABASE_URL=$CRM_DIRECT_URL RUST_LOG=warn "$CRM_BIN" keys create --name bench 2>/dev/null)
  # The note is written with another key: the reading key has no write of its own, so its
  # reads may go to the replica.
  local writer
  writer=$(DATABASE_URL=$CRM_DIRECT_URL RUST_LOG=warn "$CRM_BIN" keys create --name writer 2>/dev/null)
  id=$(curl -s -X POST "http://127.0.0.1:$CRM_HAPROXY_PORT/api/notes" -H "Authorization: Bearer $writer" \
    -d note_title=Bench -d note_description=Load | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')
  sleep 3 # the replica replays the note, and its lag is measured
  wrk -t2 -c"$CONNECTIONS" -d2s -H "Authorization: Bearer $key" \
    "http://127.0.0.1:$CRM_HAPROXY_PORT/api/notes/$id" >/dev/null # warm-up
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "Authorization: Bearer $key" \
    "http://127.0.0.1:$CRM_HAPROXY_PORT/api/notes/$id")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
  local non2xx
  non2xx=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  local replica_reads=0
  for n in $(seq 1 "$CRM_INSTANCES"); do
    local port; port=$(eval echo "\$CRM_PORT_$n")
    local r
    r=$(curl -s "http://127.0.0.1:$port/metrics" | awk -v s="server=\"127.0.0.1:$CRM_REPLICA_PORT\"" 'index($0, "crm_db_reads{" s "}") == 1 {print $2}')
    replica_reads=$(( replica_reads + ${r:-0} ))
  done
  results+=("| $label | $rps | $p50 | $p99 | ${non2xx:-0} | $replica_reads |")
  scripts/cluster down >/dev/null
}

run "1 instance, primary only" 1 0 0 ""
run "3 instances, primary only" 3 0 0 ""
run "1 instance, with the replica" 1 1 0 ""
run "3 instances, with the replica" 3 1 0 ""
run "3 instances, primary only, limit in memory" 3 0 0 1000000/s
run "3 instances, primary only, limit in Redis" 3 0 1 1000000/s
run "3 instances, replica, Redis (limit and positions)" 3 1 1 1000000/s

echo
echo "GET /api/notes/{id} through HAProxy, wrk -t2 -c$CONNECTIONS, ${DURATION} s per run ($(nproc) cores)"
echo
echo "| deployment | requests/s | p50 | p99 | non-2xx | reads served by the replica |"
echo "| --- | ---: | ---: | ---: | ---: | ---: |"
printf '%s\n' "${results[@]}"
