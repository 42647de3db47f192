-- 0008: lists at a million rows (issue 12). Exact totals read from maintained counts
-- instead of counting every matching row, and an index for each sort and filter.
--
-- list_counts holds, per list and per key, how many rows have that key. A row of a list
-- has several keys (one per filter value it can be found by, see the *_count_keys
-- functions); a total is the sum of the counts of the keys the request's filters name
-- (crm-store-pg's lists build those sums). The counts are kept by statement-level
-- triggers, in the writing transaction (so they are exactly as visible as the rows), and
-- are spread over 16 shard rows per key, chosen by the writing backend's process id: two
-- writers rarely update the same row, so no counter row serializes the writes. A total
-- sums at most 16 rows per key. TRUNCATE empties the list's counts.
CREATE TABLE list_counts (
    list   TEXT NOT NULL,
    key    TEXT COLLATE "C" NOT NULL,
    shard  SMALLINT NOT NULL,
    n      BIGINT NOT NULL,
    PRIMARY KEY (list, key, shard)
);

-- Notes (never sticky ones): by visibility group — 'public', or 'private:<creator id>'
-- (a private note is only its creator's, so a user's total is public + their own private)
-- — alone, with the resource type, with the type and the resource id, with the id alone.
CREATE FUNCTION note_count_keys(sticky BOOLEAN, visibility TEXT, creator BIGINT, rtype TEXT, rid BIGINT)
RETURNS TEXT[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN sticky THEN ARRAY[]::TEXT[] ELSE array_remove(ARRAY[
        g, g || '|rt=' || rtype, g || '|rt=' || rtype || '|rid=' || rid, g || '|rid=' || rid], NULL) END
    FROM (SELECT CASE WHEN visibility = 'public' THEN 'public' ELSE 'private:' || creator END AS g) v
$$;

-- Listed estimates (never documents): all, by stored status (a stored 'new' with its expiry
-- date, since whether it shows as 'expired' depends on the day: the reader sums a range of
-- dates), by client, project and category.
CREATE FUNCTION estimate_count_keys(is_document BOOLEAN, status TEXT, expiry DATE, client BIGINT, project BIGINT, category BIGINT)
RETURNS TEXT[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT CASE WHEN is_document THEN ARRAY[]::TEXT[] ELSE array_remove(ARRAY[
        'all',
        CASE WHEN status = 'new' THEN 'st=new|exp=' || COALESCE(to_char(expiry, 'YYYY-MM-DD'), 'none') ELSE 'st=' || status END,
        'c=' || client, 'p=' || project, 'cat=' || category], NULL) END
$$;

-- Contracts: all, by status facts (unpublished = draft; published: fully signed or not, and
-- the end date, whose comparison with the day makes 'expired'), by client and category.
CREATE FUNCTION contract_count_keys(published BOOLEAN, fully_signed BOOLEAN, date_end DATE, client BIGINT, category BIGINT)
RETURNS TEXT[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT array_remove(ARRAY[
        'all',
        CASE WHEN NOT published THEN 'st=draft'
             ELSE 'st=pub|s=' || fully_signed::int || '|end=' || COALESCE(to_char(date_end, 'YYYY-MM-DD'), 'none') END,
        'c=' || client, 'cat=' || category], NULL)
$$;

-- Adds the per-key deltas (+1 per new row's key, -1 per old row's) to this backend's shard,
-- in key order (so two writers on one shard lock its rows in the same order).
CREATE FUNCTION list_counts_add(list_name TEXT, deltas TEXT[], signs INT[]) RETURNS VOID
LANGUAGE sql AS $$
    INSERT INTO list_counts (list, key, shard, n)
    SELECT list_name, d.key, (pg_backend_pid() % 16)::SMALLINT, sum(d.sign)
    FROM unnest(deltas, signs) AS d(key, sign)
    GROUP BY d.key HAVING sum(d.sign) <> 0 ORDER BY d.key
    ON CONFLICT (list, key, shard) DO UPDATE SET n = list_counts.n + excluded.n
$$;

CREATE FUNCTION notes_count() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE keys TEXT[] := '{}'; signs INT[] := '{}';
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT keys || COALESCE(array_agg(k), '{}'), signs || COALESCE(array_agg(1), '{}') INTO keys, signs
        FROM new_rows r, unnest(note_count_keys(r.sticky, r.visibility, r.creator_id, r.resource_type, r.resource_id)) k;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT keys || COALESCE(array_agg(k), '{}'), signs || COALESCE(array_agg(-1), '{}') INTO keys, signs
        FROM old_rows r, unnest(note_count_keys(r.sticky, r.visibility, r.creator_id, r.resource_type, r.resource_id)) k;
    END IF;
    PERFORM list_counts_add('notes', keys, signs);
    RETURN NULL;
END $$;

CREATE FUNCTION estimates_count() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE keys TEXT[] := '{}'; signs INT[] := '{}';
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT keys || COALESCE(array_agg(k), '{}'), signs || COALESCE(array_agg(1), '{}') INTO keys, signs
        FROM new_rows r, unnest(estimate_count_keys(r.is_document, r.status, r.expiry_date, r.client_id, r.project_id, r.category_id)) k;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT keys || COALESCE(array_agg(k), '{}'), signs || COALESCE(array_agg(-1), '{}') INTO keys, signs
        FROM old_rows r, unnest(estimate_count_keys(r.is_document, r.status, r.expiry_date, r.client_id, r.project_id, r.category_id)) k;
    END IF;
    PERFORM list_counts_add('estimates', keys, signs);
    RETURN NULL;
END $$;

CREATE FUNCTION contracts_count() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE keys TEXT[] := '{}'; signs INT[] := '{}';
BEGIN
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        SELECT keys || COALESCE(array_agg(k), '{}'), signs || COALESCE(array_agg(1), '{}') INTO keys, signs
        FROM new_rows r, unnest(contract_count_keys(r.published_at IS NOT NULL,
            r.client_signed_at IS NOT NULL AND r.provider_signed_at IS NOT NULL, r.date_end, r.client_id, r.category_id)) k;
    END IF;
    IF TG_OP IN ('DELETE', 'UPDATE') THEN
        SELECT keys || COALESCE(array_agg(k), '{}'), signs || COALESCE(array_agg(-1), '{}') INTO keys, signs
        FROM old_rows r, unnest(contract_count_keys(r.published_at IS NOT NULL,
            r.client_signed_at IS NOT NULL AND r.provider_signed_at IS NOT NULL, r.date_end, r.client_id, r.category_id)) k;
    END IF;
    PERFORM list_counts_add('contracts', keys, signs);
    RETURN NULL;
END $$;

CREATE FUNCTION list_counts_truncate() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM list_counts WHERE list = TG_ARGV[0];
    RETURN NULL;
END $$;

-- One trigger per event (transition tables cannot be shared by events, nor limited to
-- columns): an update that changes no counted column adds nothing (its deltas cancel).
CREATE TRIGGER notes_count_insert AFTER INSERT ON notes REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION notes_count();
CREATE TRIGGER notes_count_update AFTER UPDATE ON notes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION notes_count();
CREATE TRIGGER notes_count_delete AFTER DELETE ON notes REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION notes_count();
CREATE TRIGGER notes_count_truncate AFTER TRUNCATE ON notes
    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate('notes');

CREATE TRIGGER estimates_count_insert AFTER INSERT ON estimates REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION estimates_count();
CREATE TRIGGER estimates_count_update AFTER UPDATE ON estimates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION estimates_count();
CREATE TRIGGER estimates_count_delete AFTER DELETE ON estimates REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION estimates_count();
CREATE TRIGGER estimates_count_truncate AFTER TRUNCATE ON estimates
    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate('estimates');

CREATE TRIGGER contracts_count_insert AFTER INSERT ON contracts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contracts_count();
CREATE TRIGGER contracts_count_update AFTER UPDATE ON contracts REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contracts_count();
CREATE TRIGGER contracts_count_delete AFTER DELETE ON contracts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION contracts_count();
CREATE TRIGGER contracts_count_truncate AFTER TRUNCATE ON contracts
    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate('contracts');

-- Backfill from the rows there are (shard 0).
INSERT INTO list_counts (list, key, shard, n)
SELECT 'notes', k, 0, count(*)
FROM notes r, unnest(note_count_keys(r.sticky, r.visibility, r.creator_id, r.resource_type, r.resource_id)) k
GROUP BY k;
INSERT INTO list_counts (list, key, shard, n)
SELECT 'estimates', k, 0, count(*)
FROM estimates r, unnest(estimate_count_keys(r.is_document, r.status, r.expiry_date, r.client_id, r.project_id, r.category_id)) k
GROUP BY k;
INSERT INTO list_counts (list, key, shard, n)
SELECT 'contracts', k, 0, count(*)
FROM contracts r, unnest(contract_count_keys(r.published_at IS NOT NULL,
    r.client_signed_at IS NOT NULL AND r.provider_signed_at IS NOT NULL, r.date_end, r.client_id, r.category_id)) k
GROUP BY k;

-- Sort indexes. Notes' titles sort case-insensitively; a resource's notes and a user's own
-- private notes are read in each order from their own index.
CREATE INDEX notes_lower_title_idx ON notes (lower(title), id) WHERE NOT sticky;
CREATE INDEX notes_resource_title_idx ON notes (resource_type, resource_id, lower(title), id) WHERE NOT sticky;
CREATE INDEX notes_resource_created_idx ON notes (resource_type, resource_id, created_at, id) WHERE NOT sticky;
CREATE INDEX notes_resource_updated_idx ON notes (resource_type, resource_id, updated_at, id) WHERE NOT sticky;
CREATE INDEX notes_private_idx ON notes (creator_id, id) WHERE visibility = 'private' AND NOT sticky;
CREATE INDEX notes_private_title_idx ON notes (creator_id, lower(title), id) WHERE visibility = 'private' AND NOT sticky;
CREATE INDEX notes_private_created_idx ON notes (creator_id, created_at, id) WHERE visibility = 'private' AND NOT sticky;
CREATE INDEX notes_private_updated_idx ON notes (creator_id, updated_at, id) WHERE visibility = 'private' AND NOT sticky;
