-- 0037 (issue 52): activity, one entry
-- per change, and the tamper-evident chain of the entries of issued documents (API.md §21).
--
-- Every write of the API records its entry in its own transaction, by the same mechanism as
-- its webhook event (crm-store-pg/src/conditions.rs, `Tx`): the insert is sent with the
-- COMMIT, so the change and its entry commit together or not at all. Rows are only ever
-- inserted; pruning (docs/operations.md) deletes the oldest unchained ones by id.

CREATE TABLE activity (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- When the change was made (microseconds, as the API shows it).
    made_at timestamptz NOT NULL,
    -- The change's type: its webhook event's (`invoice.published`) or a webhook endpoint's
    -- own (`webhook.secret_rotated`).
    type text NOT NULL,
    -- The record it is about (`invoice`, 12): the first record the change reported.
    resource_type text NOT NULL,
    resource_id bigint NOT NULL,
    -- Who: an API key (its id and its user; the key's name is read from api_keys, where
    -- keys are revoked, never deleted), a client through the link of a record
    -- (`estimate:12`), or a part of the service (`outbox`, `scheduler`, `service`).
    actor_kind text NOT NULL CHECK (actor_kind IN ('key', 'client_link', 'system')),
    actor_key_id bigint,
    actor_user_id bigint,
    actor_detail text,
    -- A private note's entries are its creator's alone, as its events are.
    private_to bigint,
    -- {field: [before, after]}, nested objects flattened with dots (`totals.amount_due`).
    changes jsonb NOT NULL,
    -- The chain of issued documents: the entry's place in it (1, 2, 3, … without a gap)
    -- and the SHA-256 of the canonical form of the entry before it (32 zero bytes for the
    -- first). NULL for the entries outside the chain.
    chain_seq bigint UNIQUE,
    prev_hash bytea CHECK (octet_length(prev_hash) = 32),
    CHECK ((chain_seq IS NULL) = (prev_hash IS NULL)),
    CHECK ((actor_kind = 'key') = (actor_key_id IS NOT NULL))
);

-- A record's history (`GET /api/{area}/{id}/activity`, and the resource filters), newest
-- first. The other filters (actor, type, days) walk the ids from the newest; the time follows
-- the ids, so a BRIN index on `made_at` (a few pages, nearly free to keep) narrows a range of days.
CREATE INDEX activity_resource ON activity (resource_type, resource_id, id);
CREATE INDEX activity_made_at ON activity USING brin (made_at);

-- The head of the chain: one row, locked (FOR UPDATE) by the transaction that appends to
-- the chain, at its commit, so that entries issued concurrently are appended one at a
-- time and in the order they commit. `hash` is the SHA-256 of the canonical form of the
-- last entry (32 zero bytes while the chain is empty): `crm audit verify` also compares
-- it, so a deletion of the last entry shows.
CREATE TABLE activity_chain (
    id smallint PRIMARY KEY CHECK (id = 1),
    seq bigint NOT NULL,
    hash bytea NOT NULL CHECK (octet_length(hash) = 32)
);
INSERT INTO activity_chain (id, seq, hash) VALUES (1, 0, '\x0000000000000000000000000000000000000000000000000000000000000000');
