#!/usr/bin/env bash
# The probe of issue 47, item 4: the resident memory of `crm serve` (release build) while a
# client holds 15,000 idle connections, with the connection limit as the defaults set it
# now and as they set it before (the descriptor limit less the reserve, no per-address cap:
# given explicitly, so that one binary measures both).
#
#   benches/idle_connections.sh [connections]     (default 15000; ADDRESSES=60)
#
# It builds the release binary unless CRM_BIN names one and uses a fresh `crm_bench_idle`
# database on the PostgreSQL at 127.0.0.1:5432. For each configuration it starts the
# service, then opens the connections from ADDRESSES loopback addresses (127.0.1.1, …) in
# turn, each asking for `GET /` once and then left open, and prints the connections served
# and refused and the service's RSS before, at its peak while they open, and after they
# close (idle connections close after the 10 s header timeout).
set -euo pipefail
cd "$(dirname "$0")/.."
CONNECTIONS=${1:-15000}
ADDRESSES=${ADDRESSES:-60}
PORT=${BENCH_PORT:-18097}
DB=postgres://postgres@127.0.0.1:5432/crm_bench_idle
scripts/ensure-postgres >/dev/null
if [ -z "${CRM_BIN:-}" ]; then cargo build -q --release -p crm-http; CRM_BIN=target/release/crm; fi
psql -q -h 127.0.0.1 -U postgres -c "DROP DATABASE IF EXISTS crm_bench_idle WITH (FORCE)" postgres
export DATABASE_URL=$DB RUST_LOG=warn,crm=info
"$CRM_BIN" migrate
FILES=$(ulimit -Hn)
# The descriptor limit less pool (16) + readers (4) + 64: the old default on this machine.
OLD_LIMIT=$((FILES - 84))
measure() { # label [flags…]
  local label=$1; shift
  "$CRM_BIN" serve --listen 127.0.0.1:$PORT "$@" 2>/tmp/crm_bench_idle.log & local server=$!
  for _ in $(seq 100); do curl -sf http://127.0.0.1:$PORT/healthz >/dev/null && break; sleep 0.2; done
  local limits
  limits=$(grep -o 'max_connections=[0-9]*\( max_connections_per_address=[0-9]*\)\?' /tmp/crm_bench_idle.log | head -1)
  python3 - "$server" "$PORT" "$CONNECTIONS" "$ADDRESSES" "$label" "$limits" <<'EOF'
import resource, socket, sys, time
pid, port, total, addresses, label, limits = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5], sys.argv[6]
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
def rss():
    with open(f"/proc/{pid}/status") as status:
        return next(int(l.split()[1]) for l in status if l.startswith("VmRSS:")) // 1024
before = rss()
held, refused, peak = [], 0, before
for i in range(total):
    local = f"127.0.1.{i % addresses + 1}"
    s = socket.socket()
    s.settimeout(30)
    try:
        s.bind((local, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: bench\r\n\r\n")
        head = s.recv(12)
    except OSError:
        head = b""
    if head.startswith(b"HTTP/1.1 200"):
        held.append(s)
    else:
        refused += 1
        s.close()
    if i % 500 == 0:
        peak = max(peak, rss())
peak = max(peak, rss())
for s in held:
    s.close()
time.sleep(1)
after = rss()
print(f"{label} ({limits}): {len(held)} held, {refused} refused; RSS {before} MB before, peak {peak} MB, {after} MB 1 s after they closed")
EOF
  kill $server; wait $server 2>/dev/null || true
}
echo "$CONNECTIONS idle connections from $ADDRESSES loopback addresses, open-file limit $FILES, $(nproc) cores"
measure "before (the descriptor limit, no per-address cap)" --max-connections "$OLD_LIMIT" --max-connections-per-address "$OLD_LIMIT"
measure "after (the defaults)"
ADDRESSES=1 measure "after, from one address (the defaults)"
