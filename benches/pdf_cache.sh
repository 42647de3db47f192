#!/usr/bin/env bash
# The client's PDF asked for again and again (issue 47, item 3: at least 20x the throughput
# of rendering it for every request), in one run: two services on one database and one
# binary, one with the PDF cache (the default --pdf-cache) and one with --pdf-cache 0
# (every request renders, as before issue 47), benchmarked in turn.
#
#   benches/pdf_cache.sh [seconds-per-run]     (default 10; BENCH_CONNECTIONS=8; ROUNDS=3;
#                                               LINES=1000: the estimate's lines;
#                                               DETAIL=5: sentences of each line's details)
#
# It builds the release binary unless CRM_BIN names one, creates a fresh `crm_bench_pdf`
# database with the demo data, makes an API key and a published estimate of LINES lines
# whose long descriptions run to several lines each (1,000 lines of 5 sentences: about 250
# A4 pages, the size of the probe's PDF; DETAIL=3: 165 pages), starts both services with the pages' per-address limit lifted,
# then runs wrk (2 threads) on GET /c/{token}/pdf of each in turn for ROUNDS rounds, and
# prints each run's requests per second and p50 latency, the ratio of the sums, and the
# renders each service counted (/metrics). Needs wrk (Debian's package; it says so when
# missing) and a PostgreSQL on 127.0.0.1:5432.
set -euo pipefail
cd "$(dirname "$0")/.."
DURATION=${1:-10}
CONNECTIONS=${BENCH_CONNECTIONS:-8}
ROUNDS=${ROUNDS:-3}
LINES=${LINES:-1000}
DETAIL=${DETAIL:-5}
CACHED_PORT=${BENCH_PORT:-18095}
UNCACHED_PORT=$((CACHED_PORT + 1))
DB=postgres://postgres@127.0.0.1:5432/crm_bench_pdf
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }
scripts/ensure-postgres >/dev/null
if [ -z "${CRM_BIN:-}" ]; then cargo build -q --release -p crm-http; CRM_BIN=target/release/crm; fi
CRM=$CRM_BIN
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS crm_bench_pdf WITH (FORCE)" postgres
export DATABASE_URL=$DB RUST_LOG=warn
"$CRM" migrate
SEED=$("$CRM" seed --json)
CLIENT=$(echo "$SEED" | python3 -c 'import json,sys; print(json.load(sys.stdin)["clients"][0]["id"])')
KEY=$("$CRM" keys create --name bench 2>/dev/null)
"$CRM" serve --listen 127.0.0.1:$CACHED_PORT --public-rate-limit 1000000/s & CACHED=$!
"$CRM" serve --listen 127.0.0.1:$UNCACHED_PORT --public-rate-limit 1000000/s --pdf-cache 0 & UNCACHED=$!
trap 'kill $CACHED $UNCACHED 2>/dev/null; wait $CACHED $UNCACHED 2>/dev/null || true' EXIT
for port in $CACHED_PORT $UNCACHED_PORT; do
  for _ in $(seq 100); do curl -sf http://127.0.0.1:$port/healthz >/dev/null && break; sleep 0.2; done
done
API=http://127.0.0.1:$CACHED_PORT/api; H="Authorization: Bearer $KEY"
CATEGORY=$(curl -s $API/categories?type=estimate -H "$H" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"][0]["id"])')
ID=$(curl -s -X POST $API/estimates -H "$H" -d bill_clientid=$CLIENT -d bill_categoryid=$CATEGORY \
  -d bill_date=2026-06-15 -d bill_expiry_date=2099-01-01 | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["id"])')
python3 - "$LINES" "$DETAIL" >/tmp/crm_bench_pdf_items.json <<'EOF'
import json, sys
n, sentences = int(sys.argv[1]), int(sys.argv[2])
detail = ("Includes the preparation, the work on site and a written summary of what was "
          "done, with the measurements taken and the parts replaced. ") * sentences
print(json.dumps({"items": [{
    "description": f"Line {i + 1} of the work, described at some length so that it wraps",
    "long_description": detail,
    "quantity": str(i % 7 + 1),
    "rate": f"{100 + i}.25",
} for i in range(n)]}))
EOF
curl -s -o /dev/null -w '' -X PUT $API/estimates/$ID/items -H "$H" -H 'Content-Type: application/json' \
  --data-binary @/tmp/crm_bench_pdf_items.json
URL=$(curl -s -X PUT $API/estimates/$ID/publish -H "$H" | python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["client_link"]["url"])')
TOKEN=${URL##*/c/}
PDF_PATH=/c/$TOKEN/pdf
curl -s -o /tmp/crm_bench_pdf.pdf http://127.0.0.1:$CACHED_PORT$PDF_PATH
PAGES=$(grep -a -c '/Type /Page$\|/Type /Page[^s]' /tmp/crm_bench_pdf.pdf || true)
if command -v pdfinfo >/dev/null; then PAGES=$(pdfinfo /tmp/crm_bench_pdf.pdf | awk '/^Pages:/ {print $2}'); fi
echo "estimate $ID: $LINES lines of $DETAIL sentences of details, PDF of $(stat -c %s /tmp/crm_bench_pdf.pdf) bytes, ${PAGES:-?} pages"
run() { # label url
  local out rps p50 errors
  out=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --timeout 30s --latency "$2")
  rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
  p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
  errors=$(echo "$out" | awk '/Non-2xx/ {print $5}')
  echo "$1 $rps ${p50} ${errors:-0}"
}
renders() { curl -s http://127.0.0.1:$1/metrics | awk '$1 == "crm_pdf_renders_total" {print $2}'; }
echo "round target rps p50 non-2xx"
cached_sum=0; uncached_sum=0
for r in $(seq "$ROUNDS"); do
  read -r _ a p e < <(run cached "http://127.0.0.1:$CACHED_PORT$PDF_PATH"); echo "$r cached (--pdf-cache 32MiB) $a $p $e"
  cached_sum=$(python3 -c "print($cached_sum + $a)")
  read -r _ b q f < <(run uncached "http://127.0.0.1:$UNCACHED_PORT$PDF_PATH"); echo "$r uncached (--pdf-cache 0) $b $q $f"
  uncached_sum=$(python3 -c "print($uncached_sum + $b)")
done
python3 -c "print(f'cached / uncached: {$cached_sum / $uncached_sum:.1f}x (sums over $ROUNDS rounds of ${DURATION}s, $CONNECTIONS connections)')"
echo "renders counted: cached service $(renders $CACHED_PORT), uncached service $(renders $UNCACHED_PORT)"
