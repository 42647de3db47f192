#!/usr/bin/env bash
# The recurring invoices benchmark (not a test): 10,000 schedules due today, made by one
# scheduler as `crm serve` runs it (claims with leases, one transaction per occurrence, the
# invoice issued, linked and emailed), on a fresh database of CRM_TEST_DATABASE_URL's server
# (default postgres://postgres@127.0.0.1:5432/postgres), built with the bench profile.
#
#   benches/recurring.sh
#   RECURRING_BENCH_SCHEDULES=2000 RECURRING_BENCH_PUBLISH=0 benches/recurring.sh   # drafts
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/ensure-postgres
exec cargo bench --locked -p crm-http --bench recurring
