#!/usr/bin/env bash
# List latency at scale: p50 and p99 of every list variant over HTTP against a release
# `crm serve`, on a database of a million notes, 200,000 estimates, 200,000 invoices and 200,000 contracts.
#
#   benches/list_scale.sh                 build the release binary, (re)use crm_scale, measure
#   SCALE_BIN=/path/to/crm benches/list_scale.sh   measure another build on the same data
#
# Environment: SCALE_DB (default crm_scale), SCALE_NOTES (1000000), SCALE_ESTIMATES (200000),
# SCALE_INVOICES (200000), SCALE_CONTRACTS (200000), SCALE_REBUILD=1 (drop and rebuild the data even if present),
# SCALE_SAMPLES (15 timed requests per variant, after 2 untimed ones), SCALE_PORT (18090),
# SCALE_BUILD_ONLY=1 (make the data and stop), SCALE_ONLY (a substring: measure only the variants whose name contains it).
#
# The data is made by set-based SQL (generate_series) in one transaction per table, after
# `crm migrate` and `crm seed`: the database is migrated by the binary measured, so running
# a newer build on data made by an older one also exercises the newer migrations' backfill.
# Spreads: 10 team users write notes; 80 % of notes are public; 70 % are attached (client
# 40 %, project 15 %, lead 10 %, user 5 %) to 2,000 clients / 1,000 projects / 500 leads;
# titles and descriptions are words drawn from a 120-word list; dates spread over three
# years; one note in ten has tags. Estimates: 20 categories, six stored statuses, amounts
# 10..100,000, 30 % with a project. Contracts: 20 categories, values, start dates over
# three years, 30 % open-ended, 70 % published, half of those signed by one or both sides.
#
# The latency of each variant is measured one request at a time on one keep-alive
# connection (no concurrency: this is the latency of a list, not throughput), so p99 over
# 15 samples is close to the maximum. This machine is shared and noisy: compare figures
# from the same run, or runs made back to back. The server's shared_buffers matters to
# searches (see the line printed before the table): the README's run used 2 GB
# (`ALTER SYSTEM SET shared_buffers = '2GB'` and a restart; Debian's default is 128 MB).
set -euo pipefail
cd "$(dirname "$0")/.."

DB=${SCALE_DB:-crm_scale}
NOTES=${SCALE_NOTES:-1000000}
ESTIMATES=${SCALE_ESTIMATES:-200000}
INVOICES=${SCALE_INVOICES:-200000}
CONTRACTS=${SCALE_CONTRACTS:-200000}
PORT=${SCALE_PORT:-18090}
export PGHOST=127.0.0.1 PGUSER=postgres
export DATABASE_URL=postgres://postgres@127.0.0.1:5432/$DB

scripts/ensure-postgres >/dev/null
if [ -n "${SCALE_BIN:-}" ]; then
  BIN=$SCALE_BIN
else
  cargo build --release --locked -p crm-http >/dev/null
  BIN=$PWD/target/release/crm
fi

present=$(psql -At -d postgres -c "SELECT count(*) FROM pg_database WHERE datname = '$DB'")
if [ "${SCALE_REBUILD:-}" = 1 ] || [ "$present" = 0 ] \
  || [ "$(psql -At -d "$DB" -c "SELECT count(*) >= $NOTES FROM notes" 2>/dev/null)" != t ] \
  || [ "$(psql -At -d "$DB" -c "SELECT count(*) >= $INVOICES FROM invoices" 2>/dev/null)" != t ]; then
  echo "building $DB: $NOTES notes, $ESTIMATES estimates, $INVOICES invoices, $CONTRACTS contracts"
  psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)"
  "$BIN" migrate >/dev/null 2>&1
  "$BIN" seed >/dev/null 2>&1
  start=$(date +%s)
  psql -q -v ON_ERROR_STOP=1 -d "$DB" -v notes="$NOTES" -v estimates="$ESTIMATES" -v invoices="$INVOICES" -v contracts="$CONTRACTS" \
    -f benches/load/list_scale_data.sql
  echo "data built in $(( $(date +%s) - start )) s"
else
  echo "reusing $DB ($(psql -At -d "$DB" -c 'SELECT count(*) FROM notes') notes); migrating it with $BIN"
  "$BIN" migrate >/dev/null 2>&1
fi
psql -q -d "$DB" -c 'VACUUM (ANALYZE) notes, estimates, invoices, contracts, tags, list_counts, list_count_deltas' 2>/dev/null
[ "${SCALE_BUILD_ONLY:-}" = 1 ] && exit 0

KEY=$("$BIN" keys create --name scale 2>/dev/null)
LOG=$(mktemp /tmp/crm-scale-serve.XXXXXX.log)
RUST_LOG=warn "$BIN" serve --listen 127.0.0.1:$PORT 2>"$LOG" &
PID=$!
trap 'kill -TERM $PID 2>/dev/null || true; wait $PID 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do
  curl -sf http://127.0.0.1:$PORT/healthz >/dev/null && break
  sleep 0.1
done

CLIENT=$(psql -At -d "$DB" -c "SELECT resource_id FROM notes WHERE resource_type = 'client' GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
ECLIENT=$(psql -At -d "$DB" -c "SELECT client_id FROM estimates WHERE NOT is_document GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
EPROJECT=$(psql -At -d "$DB" -c "SELECT project_id FROM estimates WHERE NOT is_document AND project_id IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
ECATEGORY=$(psql -At -d "$DB" -c "SELECT category_id FROM estimates WHERE NOT is_document GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
ICLIENT=$(psql -At -d "$DB" -c "SELECT client_id FROM invoices GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
ICATEGORY=$(psql -At -d "$DB" -c "SELECT category_id FROM invoices GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
CCLIENT=$(psql -At -d "$DB" -c "SELECT client_id FROM contracts GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")
CCATEGORY=$(psql -At -d "$DB" -c "SELECT category_id FROM contracts GROUP BY 1 ORDER BY count(*) DESC LIMIT 1")

echo "crm $(git rev-parse --short HEAD 2>/dev/null || echo '?') ($BIN), $(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC')"
# The server's settings that the figures depend on (a search reads every page its matches
# are on: from shared buffers, or from the OS cache at several times the cost).
echo "PostgreSQL $(psql -At -d "$DB" -c 'SHOW server_version'): shared_buffers $(psql -At -d "$DB" -c 'SHOW shared_buffers'), work_mem $(psql -At -d "$DB" -c 'SHOW work_mem'); database $(psql -At -d "$DB" -c "SELECT pg_size_pretty(pg_database_size('$DB'))")"
python3 benches/load/list_scale.py "http://127.0.0.1:$PORT/api" "$KEY" "${SCALE_SAMPLES:-15}" "${SCALE_ONLY:-}" \
  "client=$CLIENT" "eclient=$ECLIENT" "eproject=$EPROJECT" "ecategory=$ECATEGORY" \
  "iclient=$ICLIENT" "icategory=$ICATEGORY" "cclient=$CCLIENT" "ccategory=$CCATEGORY"
