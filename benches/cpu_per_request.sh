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
#   BENCH_BINS="old/crm new/crm" benches/cpu_per_request.sh 8     (A/B in one run)
#   BENCH_CLASSES="GET one note,GET 25 notes" …                      (some classes only)
#
# Classes: GET one note, GET a page of 25 notes, POST a note, the client's page of an
# estimate, its PDF (kept by the PDF cache after the first request), and the UBL export of
# an issued invoice whose company and client have everything UBL asks for. It builds the
# release binary (or takes the binaries of BENCH_BINS, each served at once on its own port,
# the classes run against each in turn within every round, so that the machine's
# neighbours weigh on each binary alike), makes a fresh `crm_cpu_bench` database with the
# demo data and 100 notes, and starts the service with its default configuration (access
# log on) but for the client pages' per-address limit, which wrk's one address would reach
# at once.
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

if [ -n "${BENCH_BINS:-}" ]; then
  read -r -a BINS <<<"$BENCH_BINS"
else
  cargo build --release --locked -p crm-http >/dev/null
  BINS=("${CARGO_TARGET_DIR:-$PWD/target}/release/crm")
fi
BIN=${BINS[0]}
export DATABASE_URL=$SERVER/crm_cpu_bench
psql -q -c 'DROP DATABASE IF EXISTS crm_cpu_bench WITH (FORCE)' postgres
"$BIN" migrate >/dev/null 2>&1
"$BIN" seed >/dev/null 2>&1
export CRM_KEY=$("$BIN" keys create --name cpu-bench 2>/dev/null)
psql -q -d crm_cpu_bench -c "INSERT INTO notes (title, description, creator_id, resource_type, client_id)
  SELECT 'Load note ' || g, 'Seeded for the CPU benchmark, number ' || g, 1, 'client', 1 FROM generate_series(1, 100) g"
NOTE_ID=$(psql -At -d crm_cpu_bench -c "SELECT min(id) FROM notes WHERE title LIKE 'Load note%'")

LOGS=() PIDS=() PORTS=()
stop_all() {
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -f "${LOGS[@]}"
}
trap stop_all EXIT
for i in "${!BINS[@]}"; do
  port=$((PORT + i))
  log=$(mktemp /tmp/crm-cpu-bench.XXXXXX.log)
  "${BINS[$i]}" serve --listen 127.0.0.1:$port --public-rate-limit 1000000/s 2>"$log" &
  PIDS+=($!) PORTS+=("$port") LOGS+=("$log")
  for _ in $(seq 1 100); do
    curl -sf http://127.0.0.1:$port/healthz >/dev/null && break
    sleep 0.1
  done
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
TOKEN=${LINK##*/c/}
# An issued invoice ready for UBL (as crm-http/tests/api/einvoices.rs sets one up): the
# company as a seller with its address and VAT id, a client with its address, two lines
# at a 19 % rate each, in VAT mode (the CRM's own arithmetic rounds this document's lines
# differently from EN 16931, and readiness refuses it).
JSON="Content-Type: application/json"
curl -sf -o /dev/null -X PATCH $API/company -H "$AUTH" -H "$JSON" -d '{"legal_name": "Acme Software GmbH",
  "address": {"line1": "Hauptstraße 1", "city": "Berlin", "postcode": "10115", "country": "DE"},
  "vat_id": "DE123456789", "email": "billing@acme.example", "currency": "EUR",
  "bank": {"iban": "DE89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX", "account_name": "Acme Software GmbH"}}'
id_of() { python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["id"])'; }
BUYER=$(curl -sf -X POST $API/clients -H "$AUTH" -H "$JSON" -d '{"company_name": "Kunde GmbH",
  "contact_name": "Buyer Contact", "contact_email": "ap@buyer.example", "vat_id": "DE987654321",
  "address": {"line1": "Main Street 5", "city": "Capital", "postcode": "12345", "country": "DE"},
  "currency": "EUR"}' | id_of)
RATE=$(curl -sf -X POST $API/tax-rates -H "$AUTH" -H "$JSON" -d '{"name": "VAT 19%", "rate": "19"}' | id_of)
INVOICE_CATEGORY=$(psql -At -d crm_cpu_bench -c "SELECT id FROM categories WHERE type = 'invoice' AND system_default")
INVOICE=$(curl -sf -X POST $API/invoices -H "$AUTH" -H "$JSON" -d "{\"bill_clientid\": $BUYER,
  \"bill_categoryid\": $INVOICE_CATEGORY, \"bill_date\": \"2026-11-02\", \"bill_due_date\": \"2026-11-16\", \"bill_tax_type\": \"vat\"}" | id_of)
curl -sf -o /dev/null -X PUT $API/invoices/$INVOICE/items -H "$AUTH" -H "$JSON" -d "{\"items\": [
  {\"description\": \"Design\", \"quantity\": \"1.5\", \"rate\": \"1385.27\", \"unit\": \"hours\", \"tax_rate_id\": $RATE},
  {\"description\": \"Hosting\", \"quantity\": \"12\", \"rate\": \"9.99\", \"unit\": \"hours\", \"tax_rate_id\": $RATE}]}"
curl -sf -o /dev/null -X PUT $API/invoices/$INVOICE/publish -H "$AUTH"
curl -sf -o /dev/null $API/invoices/$INVOICE/einvoice?format=ubl -H "$AUTH" ||
  { echo "the invoice is not ready for UBL:" >&2; curl -s "$API/invoices/$INVOICE/einvoice/readiness?format=ubl" -H "$AUTH" >&2; exit 1; }
# The PDF rendered once per binary (after the company's change above, which a PDF shows).
for port in "${PORTS[@]}"; do curl -sf -o /dev/null "http://127.0.0.1:$port/c/$TOKEN/pdf"; done

TICKS=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$PID/stat"; }
PID=${PIDS[0]}
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

CLASSES=("GET one note" "GET 25 notes" "POST a note" "client page" "client PDF (cached)" "e-invoice (UBL)")
if [ -n "${BENCH_CLASSES:-}" ]; then IFS=, read -r -a CLASSES <<<"$BENCH_CLASSES"; fi
run() { # class, round (PID and BASE: the binary's)
  case $1 in
    "GET one note") measure "$1 ($2)" -H "$AUTH" "$BASE/api/notes/$NOTE_ID" ;;
    "GET 25 notes") measure "$1 ($2)" -H "$AUTH" "$BASE/api/notes?limit=25" ;;
    "POST a note") measure "$1 ($2)" -s benches/load/post_note.lua "$BASE" ;;
    "client page") measure "$1 ($2)" "$BASE/c/$TOKEN" ;;
    "client PDF (cached)") measure "$1 ($2)" "$BASE/c/$TOKEN/pdf" ;;
    "e-invoice (UBL)") measure "$1 ($2)" -H "$AUTH" "$BASE/api/invoices/$INVOICE/einvoice?format=ubl" ;;
    *) echo "unknown class: $1" >&2; exit 1 ;;
  esac
}
declare -A TPS
for round in $(seq 1 "$ROUNDS"); do
  TPS[$round]=$(pgbench_select)
  for class in "${CLASSES[@]}"; do
    for b in "${!BINS[@]}"; do
      PID=${PIDS[$b]} BASE=http://127.0.0.1:${PORTS[$b]}
      run "$class" "$b $round"
    done
  done
done

echo "crm service CPU per request: wrk -t2 -c$CONNECTIONS -d${DURATION}s, $ROUNDS rounds, $(nproc) cores, $(git rev-parse --short HEAD), $(date -u +%Y-%m-%d)"
for b in "${!BINS[@]}"; do
  echo
  [ "${#BINS[@]}" -gt 1 ] && echo "binary $((b + 1)): ${BINS[$b]}" && echo
  echo "| request | rps (mean) | service CPU per request (µs, median of rounds) | rounds |"
  echo "|---|---|---|---|"
  for class in "${CLASSES[@]}"; do
    rps=$(for r in $(seq 1 "$ROUNDS"); do echo "${RPS[$class ($b $r)]}"; done | awk '{s += $1} END {printf "%.0f", s / NR}')
    cpus=$(for r in $(seq 1 "$ROUNDS"); do echo "${CPU[$class ($b $r)]}"; done)
    median=$(sort -n <<<"$cpus" | awk '{v[NR] = $1} END {print NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}')
    echo "| $class | $rps | $median | $(tr '\n' ' ' <<<"$cpus")|"
  done
  if [ -n "${RPS["GET one note ($b 1)"]:-}" ]; then
    echo
    echo "| round | pgbench -S -M prepared -c32 tps | GET one note rps | ratio |"
    echo "|---|---|---|---|"
    for round in $(seq 1 "$ROUNDS"); do
      rps=${RPS["GET one note ($b $round)"]}
      echo "| $round | ${TPS[$round]} | $rps | $(awk -v a="$rps" -v b="${TPS[$round]}" 'BEGIN {printf "%.2f", a / b}') |"
    done
  fi
done
psql -q -c 'DROP DATABASE IF EXISTS crm_cpu_pgbench WITH (FORCE)' -c 'DROP DATABASE IF EXISTS crm_cpu_bench WITH (FORCE)' postgres
