"""Schemathesis hooks used by scripts/schemathesis (loaded through SCHEMATHESIS_HOOKS).

Random test data rarely names a record that exists, so most writes would stop at "The
selected doc client id is invalid." and never reach the store. Before each call, these hooks
replace most well-formed ids with ids of real records (seeded, or created here when the module
loads), deterministically (the generated value picks the record), so that fuzzing exercises
creates, updates, items, publishing, conversion and deletion; one id in eight is left as
generated, to keep exercising the unknown-record paths.

They also drop check failures that are not the service's fault, each class counted and
listed at the end of the run (set SCHEMATHESIS_RAW=1 to keep every failure):

- a schema-valid request refused with 422 only because of the database's state or of rules
  JSON Schema cannot express: an id that names no record, a duplicate category name, an end
  date before the start date, a field the estimate's stored tax mode refuses, a discount
  whose amount is neither sent nor stored, totals beyond the stored columns, two ids that
  `uniqueItems` sees as distinct JSON values but that name one id (`1` and `"01"`), an
  idempotency key used before for another request, a cursor no answer minted;
- a schema-valid write refused with 412 because its `If-Match` names another version of the
  record (the record's state);
- a 400 for an `If-Match` / `If-None-Match` value outside the header's documented pattern,
  which the coverage phase sends as if it were valid;
- a "schema-violating" request "accepted" that was in fact refused with 431 (its request
  line and headers are over the 32 KiB head limit);
- a "schema-violating" form or multipart request accepted although what was sent is valid:
  form encodings carry only text, so a generated `{}` or `5` arrives as the text "{}" or "5";
- a "too long" text accepted because it is too long only by its surrounding whitespace,
  which the service trims first (as Laravel does); likewise a query text whose only control
  characters are trimmed whitespace (U+0085), or a query value that is sent as `name=`;
- an array "with an invalid element" accepted because its only elements are null or empty,
  which the service skips (as documented);
- a form body that sends both `tags` and `tags[]`: the later pair wins (as in PHP), an
  order JSON Schema cannot describe.

Environment (set by scripts/schemathesis): CRM_BASE, CRM_KEY, CRM_SEED_JSON, CRM_HOOKS_REPORT.
"""

from __future__ import annotations

import atexit
import collections
import json
import os
import re

import requests
import schemathesis

BASE = os.environ["CRM_BASE"]
HEADERS = {"Authorization": "Bearer " + os.environ["CRM_KEY"]}
RAW = os.environ.get("SCHEMATHESIS_RAW") == "1"
REPORT = os.environ.get("CRM_HOOKS_REPORT")
with open(os.environ["CRM_SEED_JSON"], encoding="utf-8") as f:
    SEED = json.load(f)

CATEGORY_TYPES = ["project", "client", "contract", "estimate", "invoice", "lead", "ticket", "item",
                  "expense", "proposal", "knowledgebase", "subscription"]


def _call(method: str, path: str, body: dict | None = None, **params) -> dict:
    response = requests.request(method, BASE + path, headers=HEADERS, json=body, params=params, timeout=30)
    if response.status_code >= 300:
        raise RuntimeError(f"{method} {path}: {response.status_code} {response.text}")
    return response.json()["data"]


# ----------------------------------------------------------------------------- fixtures
CLIENTS = [c["id"] for c in SEED["clients"]]
PROJECTS = list(SEED["projects"])
LEADS = list(SEED["leads"])
TASKS = [t["id"] for t in SEED["tasks"]]
TEAM = list(SEED["users"])
ALL_USERS = list(SEED["users"]) + list(SEED["client_users"])
TEMPLATES = list(SEED["contract_templates"])
TAX_RATES = [r["id"] for r in SEED["tax_rates"] if r.get("status") == "enabled"]
MILESTONES_OF = collections.defaultdict(list)
for m in SEED["milestones"]:
    MILESTONES_OF[m["project_id"]].append(m["id"])

# Two categories of every type, so that a migration has a target.
CATEGORIES_OF: dict[str, list[int]] = {}
TYPE_OF: dict[int, str | None] = {}
for category_type in CATEGORY_TYPES:
    ids = [c["id"] for c in _call("GET", "/api/categories", type=category_type, limit=100)]
    if len(ids) < 2:
        ids.append(_call("POST", "/api/categories", {"category_name": f"Schemathesis {category_type}",
                                                     "category_type": category_type})["id"])
    CATEGORIES_OF[category_type] = ids
    for i in ids:
        TYPE_OF[i] = category_type
CATEGORIES = sorted(i for i, t in TYPE_OF.items() if t)

CONTRACTS = []
for n in range(3):
    CONTRACTS.append(_call("POST", "/api/contracts", {
        "doc_client_id": CLIENTS[n % len(CLIENTS)], "doc_title": f"Fixture contract {n}", "doc_date_start": "2026-01-01",
        "doc_categoryid": CATEGORIES_OF["contract"][0], "doc_value": "1250.00"})["id"])

ESTIMATES = []
for n in range(6):
    inline = n % 2 == 1
    e = _call("POST", "/api/estimates", {"bill_clientid": CLIENTS[n % len(CLIENTS)], "bill_categoryid": CATEGORIES_OF["estimate"][0],
                                         "bill_date": "2026-01-01", "bill_tax_type": "inline" if inline else "summary"})
    items = [{"description": "Design", "quantity": "2", "rate": "100"}, {"description": "Hosting", "quantity": 1, "rate": 49.99}]
    if inline:
        items[0].update({"tax_rate_id": TAX_RATES[1], "discount_type": "percentage", "discount_value": 10})
        _call("PUT", f"/api/estimates/{e['id']}/items", {"items": items})
    else:
        _call("PUT", f"/api/estimates/{e['id']}/items", {"items": items, "tax_rate_ids": TAX_RATES[1:3]})
    if n >= 2:
        _call("PUT", f"/api/estimates/{e['id']}/publish")
    ESTIMATES.append(e["id"])

NOTES = [SEED["notes"]["public"]] + [
    _call("POST", "/api/notes", {"note_title": f"Fixture note {n}", "note_description": "Fixture",
                                 "noteresource_type": "client", "noteresource_id": CLIENTS[0]})["id"] for n in range(2)]
MILESTONES = sorted(m["id"] for m in SEED["milestones"])
BY_RESOURCE = {"categories": CATEGORIES, "contracts": CONTRACTS, "estimates": ESTIMATES, "milestones": MILESTONES, "notes": NOTES}


# ----------------------------------------------------------------------------- substitution
def _id_value(value) -> int | None:
    """The id a generated value names, when it is a well-formed positive id."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str) and re.fullmatch(r"\+?0*[1-9][0-9]{0,17}", value):
        return int(value)
    return None


def _swap(value, candidates: list[int], always: bool = False):
    """A real id in place of a generated one (same JSON type), for seven values in eight."""
    n = _id_value(value)
    if n is None or not candidates or (n % 8 == 0 and not always):
        return value
    real = candidates[n % len(candidates)]
    return str(real) if isinstance(value, str) else real


def _category_type(category_id: int) -> str | None:
    """The type of a category (those created during the run are looked up once)."""
    if category_id not in TYPE_OF:
        response = requests.get(f"{BASE}/api/categories/{category_id}", headers=HEADERS, timeout=30)
        TYPE_OF[category_id] = response.json()["data"]["type"] if response.status_code == 200 else None
    return TYPE_OF[category_id]


def _base(key: str) -> str:
    return key.split("[", 1)[0]


REFERENCES = {
    "doc_client_id": CLIENTS, "bill_clientid": CLIENTS, "client_id": CLIENTS,
    "doc_categoryid": CATEGORIES_OF["contract"], "bill_categoryid": CATEGORIES_OF["estimate"],
    "doc_project_id": PROJECTS, "bill_projectid": PROJECTS, "milestone_projectid": PROJECTS, "project_id": PROJECTS,
    "doc_lead_id": LEADS, "contract_template": TEMPLATES,
    "users": TEAM, "tax_rate_ids": TAX_RATES, "tax_rate_id": TAX_RATES,
}
NOTE_TARGETS = {"client": CLIENTS, "lead": LEADS, "project": PROJECTS, "task": TASKS, "user": ALL_USERS}


def _substitute(fields: dict, path: str, path_id) -> None:
    for key in list(fields):
        value = fields[key]
        name = _base(key)
        if key.endswith("[tax_rate_id]"):
            name = "tax_rate_id"
        if name == "category_id":
            kind = "contract" if path.startswith("/api/contracts") else "estimate"
            fields[key] = _swap(value, CATEGORIES_OF[kind])
        elif name == "target_id":
            source = _id_value(path_id)
            kind = _category_type(source) if source else None
            others = [c for c in CATEGORIES_OF.get(kind, []) if c != source]
            fields[key] = _swap(value, others)
        elif name in ("noteresource_id", "resource_id"):
            kind = fields.get("noteresource_type", fields.get("resource_type"))
            fields[key] = _swap(value, NOTE_TARGETS.get(kind, CLIENTS) if isinstance(kind, str) else CLIENTS)
        elif name == "milestones" and isinstance(value, list) and value:
            first = _id_value(value[0])
            if first is not None and first % 8 != 0:
                # Distinct ids: the chosen project's milestones first, then other projects'
                # (which make the request invalid, as a random id would).
                project = PROJECTS[first % len(PROJECTS)]
                own = MILESTONES_OF[project][first % len(MILESTONES_OF[project]):] + MILESTONES_OF[project][: first % len(MILESTONES_OF[project])]
                order = own + [m for m in MILESTONES if m not in own]
                # Past the known milestones: distinct ids of no record (`"0007"` and `7` are
                # distinct to JSON Schema but the same id to the service).
                order = order + [10**15 + i for i in range(len(value))]
                fields[key] = [(str(order[i]) if isinstance(v, str) else order[i]) if _id_value(v) is not None else v
                               for i, v in enumerate(value)]
        elif name in REFERENCES:
            candidates = REFERENCES[name]
            if isinstance(value, list):
                first = _id_value(value[0]) if value else None
                if first is not None and first % 8 != 0:  # one decision for the whole list
                    fields[key] = [_swap(v, candidates, always=True) for v in value]
            else:
                fields[key] = _swap(value, candidates)
        if name == "items" and isinstance(value, list):
            for item in value:
                if isinstance(item, dict) and "tax_rate_id" in item:
                    item["tax_rate_id"] = _swap(item["tax_rate_id"], TAX_RATES)


@schemathesis.hook
def before_call(context, case, kwargs):
    path = case.operation.path
    path_id = None
    # Ids that come from a link (stateful phase) or from the pool of records seen in earlier
    # responses stay as they are. DELETE keeps its generated id (mostly unknown records), so
    # the fixtures survive the run; the stateful phase deletes what it created.
    meta = getattr(case, "_meta", None)
    from_state = meta is not None and (str(meta.phase.name) == "stateful" or bool(meta.pool_draws))
    if isinstance(case.path_parameters, dict) and "id" in case.path_parameters and case.method.upper() != "DELETE" \
            and not from_state:
        resource = path.split("/")[2]
        case.path_parameters["id"] = _swap(case.path_parameters["id"], BY_RESOURCE.get(resource, []))
        path_id = case.path_parameters["id"]
    if isinstance(case.query, dict):
        _substitute(case.query, path, path_id)
    if isinstance(case.body, dict):
        _substitute(case.body, path, path_id)


# ----------------------------------------------------------------------------- known false positives
STATE_DEPENDENT = [
    re.compile(r"^The selected (doc client id|bill clientid|doc categoryid|bill categoryid|doc project id|bill projectid|"
               r"milestone projectid|project id|doc lead id|contract template|noteresource id|target id|users\.\d+|"
               r"milestones\.\d+|tax rate ids\.\d+|items\.\d+\.tax rate id) is invalid\.$"),
    re.compile(r"^A category with this name already exists\.$"),
    # `uniqueItems` compares JSON values; 1, 1.0, "01" and "+1" are distinct values that name
    # the same id, which the service rightly calls a duplicate.
    re.compile(r"^The (milestones|users|tax rate ids)\.\d+ field has a duplicate value\.$"),
    re.compile(r"^The (doc date end|bill expiry date|bill due date) must be a date after or equal to (doc date start|bill date)\.$"),
    re.compile(r"^The [\w. ]+ field is prohibited when bill tax type is (summary|inline)\.$"),
    re.compile(r"^The bill discount (amount|percentage) field is required when bill discount type is (fixed|percentage)\.$"),
    re.compile(r"^The bill discount type must be none when bill tax type is inline\.$"),
    re.compile(r"^The (items total may not be greater than|final amount must be between) "),
    # An idempotency key names an earlier request; a cursor is minted by an earlier answer for
    # the same query (a generated one names no position).
    re.compile(r"^The idempotency key was already used for a different request\.$"),
    re.compile(r"^The selected cursor is invalid\.$"),
]
DROPPED: collections.Counter = collections.Counter()


def _header(case, name: str):
    """The value of header `name` in the generated case, if sent (any letter case)."""
    for key, value in (case.headers or {}).items():
        if key.lower() == name.lower():
            return value
    return None


# The documented syntax of If-Match and If-None-Match (`*` or a list of entity tags): the
# coverage phase sends header values outside a header's `pattern` as schema-valid.
ENTITY_TAGS = re.compile(r'^[ \t]*(\*|(W/)?"[\x21\x23-\x7E]*"([ \t]*,[ \t]*(W/)?"[\x21\x23-\x7E]*")*)[ \t]*$')


def _entity_tags_off_pattern(case) -> bool:
    """An If-Match or If-None-Match header was sent that the documented pattern refuses."""
    values = [_header(case, name) for name in ("If-Match", "If-None-Match")]
    return any(v is not None and not ENTITY_TAGS.match(str(v)) for v in values)


def _all_state_dependent(response) -> bool:
    try:
        body = response.json()
    except Exception:
        return False
    errors = body.get("errors") if isinstance(body, dict) else None
    if response.status_code != 422 or not isinstance(errors, dict) or not errors:
        return False
    return all(any(p.search(m) for p in STATE_DEPENDENT) for messages in errors.values() for m in messages)


LIMITS = {"category_name": 150, "unit": 100, "tags": 100, "tags[]": 100}
LIMITS.update({f: 65535 for f in ("category_description", "doc_body", "bill_notes", "bill_terms", "note_description",
                                  "description", "long_description")})


def _trimmed_text_fits(case, message: str) -> bool:
    """The text the failure names is over its limit only by its surrounding whitespace."""
    field = re.search(r"/properties/([^/]+)/", message)
    if not field or not isinstance(case.body, dict):
        return False
    value = case.body.get(field.group(1))
    limit = LIMITS.get(field.group(1), 250)
    return isinstance(value, str) and len(value) > limit >= len(value.strip())


def _bare_and_bracket_names(case) -> bool:
    """A form body that sends an array field under its bare name and its bracket name."""
    if case.media_type not in ("application/x-www-form-urlencoded", "multipart/form-data") or not isinstance(case.body, dict):
        return False
    return any(key.endswith("[]") and key[:-2] in case.body for key in case.body)


# What Rust's `str::trim` removes (Unicode White_Space), and the control characters the
# service refuses in text.
RUST_WHITESPACE = "\t\n\u000b\u000c\r \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
FORBIDDEN_CONTROL = re.compile("[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]")


def _query_sent_valid(case, message: str) -> bool:
    """Every query parameter the failure names was sent empty (documented as absent) or as a
    text whose only control characters are surrounding whitespace, which the service trims."""
    names = re.findall(r"`([^`]+)`", message.split(" in query", 1)[0]) if " in query" in message else []
    if not names or not isinstance(case.query, dict):
        return False
    for name in names:
        value = case.query.get(name)
        if value in (None, "", [], {}):  # sent as `name=` (or not at all)
            continue
        if isinstance(value, str) and value != value.strip(RUST_WHITESPACE) \
                and not FORBIDDEN_CONTROL.search(value.strip(RUST_WHITESPACE)) and len(value.strip(RUST_WHITESPACE)) <= 250:
            continue
        return False
    return True


def _only_empty_elements(case, message: str) -> bool:
    """The array the failure names holds only null or empty elements, which the service skips."""
    field = re.search(r"in body - ([\w\[\]]+)", message)
    if not field or not isinstance(case.body, dict):
        return False
    value = case.body.get(field.group(1))
    return isinstance(value, list) and bool(value) and all(v is None or v == "" for v in value)


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if RAW:
        return True
    code = getattr(failure, "code", "")
    if code == "ST202" and _all_state_dependent(response):
        DROPPED["ST202 422 from database state or a cross-field rule"] += 1
        return False
    if code == "ST202" and response.status_code == 400 and _entity_tags_off_pattern(case):
        DROPPED["ST202 400 for an If-Match/If-None-Match outside the documented pattern (not schema-valid)"] += 1
        return False
    if code == "ST201" and response.status_code == 431:
        DROPPED["ST201 refused with 431 (the 32 KiB request head limit), not accepted"] += 1
        return False
    if code == "ST202" and response.status_code == 412 and _header(case, "If-Match") is not None:
        DROPPED["ST202 412: If-Match names another version of the record (its state)"] += 1
        return False
    message = failure.message or ""
    if code == "ST201" and case.media_type in ("application/x-www-form-urlencoded", "multipart/form-data") \
            and ("Incorrect type" in message or "violates `type`" in message):
        DROPPED["ST201 non-text value sent as text in a form encoding"] += 1
        return False
    if code == "ST201" and "maxLength" in message and _trimmed_text_fits(case, message):
        DROPPED["ST201 text too long only by surrounding whitespace (trimmed)"] += 1
        return False
    if code in ("ST201", "ST202") and _bare_and_bracket_names(case):
        DROPPED[f"{code} form body with both `x` and `x[]` (the later pair wins: an order JSON Schema cannot describe)"] += 1
        return False
    if code == "ST201" and _query_sent_valid(case, message):
        DROPPED["ST201 query text that is empty or has control characters only in what the service trims"] += 1
        return False
    if code == "ST201" and _only_empty_elements(case, message):
        DROPPED["ST201 array of only null/empty elements (skipped, as documented)"] += 1
        return False
    return True


@atexit.register
def _report() -> None:
    if REPORT:
        with open(REPORT, "w", encoding="utf-8") as out:
            json.dump(dict(DROPPED), out, indent=2)
