#!/usr/bin/env bash
# The outbox benchmark (not a test): publish → the SMTP server's 250, p50/p99, for single
# messages, then messages per second draining a backlog of queued rows with one and with two
# workers. Everything runs on this machine: PostgreSQL (CRM_TEST_DATABASE_URL's server, default
# postgres://postgres@127.0.0.1:5432/postgres; a fresh database is created and dropped), the
# service and its worker, and an SMTP sink (mailin-embedded) on 127.0.0.1, all in one process
# built with the bench profile (release).
#
#   benches/outbox.sh                       # 200 single messages, 10,000 queued rows
#   OUTBOX_BENCH_SINGLES=50 OUTBOX_BENCH_ROWS=2000 benches/outbox.sh
#   (also OUTBOX_BENCH_WORKERS, OUTBOX_BENCH_HOOKS, OUTBOX_BENCH_SECONDS, OUTBOX_BENCH_ROUNDS)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-postgres
exec cargo bench --locked -p crm-http --bench outbox
