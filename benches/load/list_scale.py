"""Latency of every list variant (benches/list_scale.sh): one keep-alive connection, one
request at a time; prints a markdown table of p50 and p99 per variant."""
import http.client
import json
import sys
import time
import urllib.parse

base, key, samples, only = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
ids = dict(a.split("=", 1) for a in sys.argv[5:])
url = urllib.parse.urlparse(base)
conn = http.client.HTTPConnection(url.hostname, url.port, timeout=60)
headers = {"Authorization": "Bearer " + key}


def get(path):
    conn.request("GET", url.path + path, headers=headers)
    resp = conn.getresponse()
    body = resp.read()
    if resp.status != 200:
        raise SystemExit(f"GET {path}: {resp.status} {body[:300]!r}")
    return json.loads(body)


def timed(path):
    start = time.perf_counter()
    doc = get(path)
    return (time.perf_counter() - start) * 1000, doc


def pct(values, p):
    values = sorted(values)
    k = max(0, min(len(values) - 1, int(round(p / 100 * len(values) + 0.5)) - 1))
    return values[k]


rows = []


def measure(name, path):
    if only and only not in name:
        return None
    get(path)
    get(path)
    times, doc = [], None
    for _ in range(samples):
        ms, doc = timed(path)
        times.append(ms)
    rows.append((name, path, pct(times, 50), pct(times, 99), doc["meta"]["total"]))
    print(f"  {name}: p50 {pct(times, 50):.1f} ms", file=sys.stderr, flush=True)
    return doc


def pages(area, name, query):
    q = ("&" + query) if query else ""
    first = measure(f"{area} {name} page 1", f"/{area}?limit=25{q}")
    measure(f"{area} {name} page 2", f"/{area}?limit=25&page=2{q}")
    measure(f"{area} {name} page 50", f"/{area}?limit=25&page=50{q}")
    last = (first or get(f"/{area}?limit=25{q}"))["meta"]["last_page"]
    measure(f"{area} {name} last page ({last})", f"/{area}?limit=25&page={last}{q}")
    cursor_walk(area, name, q, last)


def cursor_walk(area, name, q, last):
    """Deep pages by cursor: from the page before the middle, follow next_cursor."""
    doc = get(f"/{area}?limit=25&page={max(1, last // 2)}{q}")
    cursor = doc["meta"].get("next_cursor")
    if cursor is None or (only and only not in f"{area} {name} cursor"):
        return
    times = []
    for _ in range(samples):
        ms, doc = timed(f"/{area}?limit=25&cursor={urllib.parse.quote(cursor)}{q}")
        times.append(ms)
        cursor = doc["meta"].get("next_cursor") or cursor
    rows.append((f"{area} {name} cursor, from page {max(1, last // 2) + 1} on", "", pct(times, 50), pct(times, 99), doc["meta"]["total"]))


SORTS = {
    "notes": [None, "note_title", "note_created", "note_updated"],
    "estimates": [None, "bill_date", "bill_expiry_date", "bill_final_amount", "bill_created"],
    "invoices": [None, "bill_date", "bill_due_date", "bill_final_amount", "bill_created"],
    "contracts": [None, "doc_title", "doc_status", "doc_date_start", "doc_created", "doc_value"],
}
FILTERS = {
    "notes": ["resource_type=client", f"resource_type=client&resource_id={ids['client']}",
              "visibility=public", "visibility=private"],
    "estimates": [f"status={s}" for s in ["draft", "new", "accepted", "declined", "revised", "expired"]]
    + [f"client_id={ids['eclient']}", f"project_id={ids['eproject']}", f"category_id={ids['ecategory']}",
       f"status=new&client_id={ids['eclient']}"],
    "invoices": [f"status={s}" for s in [1, 2, 3, 4, 5, 20]]
    + [f"client_id={ids['iclient']}", f"category_id={ids['icategory']}", f"status=3&client_id={ids['iclient']}"],
    "contracts": [f"status={s}" for s in ["draft", "awaiting_signatures", "active", "expired"]]
    + [f"client_id={ids['cclient']}", f"category_id={ids['ccategory']}", f"status=active&category_id={ids['ccategory']}"],
}
SEARCHES = {"notes": ["meeting", "glacier topaz"], "estimates": ["budget", "Cobalt"],
            "invoices": ["budget", "Cobalt"], "contracts": ["agreement 1999", "onyx"]}

for area in ["notes", "estimates", "invoices", "contracts"]:
    for sort in SORTS[area]:
        for order in ["desc", "asc"]:
            q = (f"sort={sort}&" if sort else "") + f"order={order}"
            pages(area, f"sort={sort or '(id)'} {order}", q)
    for f in FILTERS[area]:
        pages(area, f, f)
    for s in SEARCHES[area]:
        measure(f"{area} search={s} page 1", f"/{area}?limit=25&search={urllib.parse.quote(s)}")

print()
print(f"{samples} timed requests per variant, limit=25, one connection")
print()
print("| list request | total | p50 ms | p99 ms |")
print("|---|---|---|---|")
for name, _, p50, p99, total in rows:
    print(f"| {name} | {total:,} | {p50:.1f} | {p99:.1f} |")
