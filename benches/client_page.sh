#!/usr/bin/env bash
# The client's page against the API's read of the same estimate (issue 34: the page at
# least 0.5x the throughput of GET /api/estimates/{id}), in one run, alternating.
#
#   benches/client_page.sh [seconds-per-run]     (default 10; BENCH_CONNECTIONS=16; ROUNDS=3)
#
# It builds the release binary, creates a fresh `crm_bench_client` database with the demo
# data, makes an API key and a published estimate of 20 lines, starts the service with the
# pages' per-address limit lifted, then runs wrk (2 threads) on GET /api/estimates/{id}
# (with the key) and GET /c/{token} in turn for ROUNDS rounds, and prints each run's
# requests per second and p50 latency and the ratio of the sums. Needs wrk (Debian's
# package; it says so when missing) and a PostgreSQL on 127.0.0.1:5432.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-16}
ROUNDS=${ROUNDS:-3}
PORT=${BENCH_PORT:-18090}
DB=postgres://postgres@127.0.0.1:5432/crm_bench_client
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
scripts/ensure-postgres >/dev/null
cargo build -q --release -p crm-http
CRM=target/release/crm
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS crm_bench_client WITH (FORCE)" postgres
export DATABASE_URL=$DB RUST_LOG=warn
"$CRM" migrate
SEED=$("$CRM" seed --json)
CLIENT=$(echo "$SEED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["clients"][0]["id"])')
KEY=$("$CRM" keys create --name bench 2>/dev/null)
"$CRM" serve --listen 127.0.0.1:$PORT --public-rate-limit 1000000/s & SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf http://127.0.0.1:$PORT/healthz >/dev/null && break; sleep 0.2; done
API=http://127.0.0.1:$PORT/api; H="Authorization: Bearer $KEY"
CATEGORY=$(curl -s $API/categories?type=estimate -H "$H" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
ID=$(curl -s -X POST $API/estimates -H "$H" -d bill_clientid=$CLIENT -d bill_categoryid=$CATEGORY \
  -d bill_date=2026-06-15 -d bill_expiry_date=2099-01-01 | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')
ITEMS=()
for i in $(seq 0 19); do
  ITEMS+=(-d "items[$i][description]=Line $i of the work, described at some length" -d "items[$i][quantity]=$((i + 1))" -d "items[$i][rate]=1$i.25")
done
curl -s -o /dev/null -X PUT $API/estimates/$ID/items -H "$H" "${ITEMS[@]}"
URL=$(curl -s -X PUT $API/estimates/$ID/publish -H "$H" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["client_link"]["url"])')
run() { # label url [header]
  local out
  if [ $# -eq 3 ]; then out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency -H "$3" "$2"); else out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$2"); fi
  local rps p50 errors
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  errors=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  echo "$1 $rps ${p50} ${errors:-0}"
}
echo "round target rps p50 non-2xx"
api_sum=0; page_sum=0
for r in $(seq "$ROUNDS"); do
  read -r _ a p e < <(run api "$API/estimates/$ID" "$H"); echo "$r GET /api/estimates/{id} $a $p $e"
  api_sum=$(python3 -c "print($api_sum + $a)")
  read -r _ b q f < <(run page "$URL"); echo "$r GET /c/{token} $b $q $f"
  page_sum=$(python3 -c "print($page_sum + $b)")
done
python3 -c "print(f'page / API read: {$page_sum / $api_sum:.2f} (sums over $ROUNDS rounds of ${DURATION}s, $CONNECTIONS connections)')"
echo "binary: $(du -b "$CRM" | cut -f1) bytes ($(du -h "$CRM" | cut -f1))"
