-- 0010: list counts kept by appending (issue 12), and counted invoices.
--
-- 0008 kept each list's counts in sharded counter rows, updated by statement-level
-- triggers: every insert paid for transition tables and for a SQL key function planned
-- again at every call, and two writers on one shard waited for each other's commit. That
-- halved the throughput of a one-row insert. Here a write only appends: a row-level
-- trigger computes the row's keys with a PL/pgSQL function (whose expressions are planned
-- once per session) and inserts one row per key into list_count_deltas (+1 for a new
-- row's keys, -1 for an old row's), a table no transaction updates, so writers never wait
-- for each other. A total is the sum of the folded counts (list_counts) and of the deltas
-- not yet folded, read in one statement (one snapshot). fold_list_counts() moves the
-- committed deltas into list_counts in one statement; `crm serve` runs it every second
-- (and a total is exact whether or not it has run).
--
-- Keys change as well, so every count is rebuilt from the rows:
--   * a note is no longer counted under its resource id alone: a total by id alone sums
--     the id under each resource type;
--   * a bill's stored status always carries its date ('st=<status>|d=<YYYY-MM-DD|none>':
--     an estimate's expiry date, an invoice's due date), so a shown status that depends
--     on the day ('expired', 'overdue') sums a range of keys;
--   * invoices are counted as estimates are.

DROP TRIGGER notes_count_insert ON notes;
DROP TRIGGER notes_count_update ON notes;
DROP TRIGGER notes_count_delete ON notes;
DROP TRIGGER notes_count_truncate ON notes;
DROP TRIGGER estimates_count_insert ON estimates;
DROP TRIGGER estimates_count_update ON estimates;
DROP TRIGGER estimates_count_delete ON estimates;
DROP TRIGGER estimates_count_truncate ON estimates;
DROP TRIGGER contracts_count_insert ON contracts;
DROP TRIGGER contracts_count_update ON contracts;
DROP TRIGGER contracts_count_delete ON contracts;
DROP TRIGGER contracts_count_truncate ON contracts;
DROP FUNCTION notes_count();
DROP FUNCTION estimates_count();
DROP FUNCTION contracts_count();
DROP FUNCTION list_counts_truncate();
DROP FUNCTION list_counts_add(TEXT, TEXT[], INT[]);
DROP FUNCTION note_count_keys(BOOLEAN, TEXT, BIGINT, TEXT, BIGINT);
DROP FUNCTION estimate_count_keys(BOOLEAN, TEXT, DATE, BIGINT, BIGINT, BIGINT);
DROP FUNCTION contract_count_keys(BOOLEAN, BOOLEAN, DATE, BIGINT, BIGINT);
DROP TABLE list_counts;

-- The folded count of each key of each list.
CREATE TABLE list_counts (
    list  TEXT NOT NULL,
    key   TEXT COLLATE "C" NOT NULL,
    n     BIGINT NOT NULL,
    PRIMARY KEY (list, key)
);

-- The changes not yet folded: appended by the writing transactions, deleted by the fold.
-- Vacuumed often: the fold leaves its deleted rows behind every second.
CREATE TABLE list_count_deltas (
    list  TEXT NOT NULL,
    key   TEXT COLLATE "C" NOT NULL,
    n     INT NOT NULL
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000,
        autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 20000);
CREATE INDEX list_count_deltas_key_idx ON list_count_deltas (list, key);

-- A row's keys: list_count_keys is overloaded on each counted table's row type.
--
-- Notes (never sticky ones): by visibility group ('public', or 'private:<creator id>': a
-- private note is only its creator's, so a user's total is public + their own private),
-- alone, with the resource type, and with the type and the resource id.
CREATE FUNCTION list_count_keys(r notes) RETURNS TEXT[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    g TEXT := CASE WHEN r.visibility = 'public' THEN 'public' ELSE 'private:' || r.creator_id END;
BEGIN
    IF r.sticky THEN
        RETURN '{}';
    ELSIF r.resource_type IS NULL THEN
        RETURN ARRAY[g];
    END IF;
    RETURN ARRAY[g, g || '|rt=' || r.resource_type, g || '|rt=' || r.resource_type || '|rid=' || r.resource_id];
END $$;

-- Listed bills (never an estimate that backs a contract): all; by stored status with the
-- date the shown status compares with the day; by client, project and category.
CREATE FUNCTION bill_count_keys(status TEXT, day DATE, client BIGINT, project BIGINT, category BIGINT)
RETURNS TEXT[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RETURN array_remove(ARRAY['all', 'st=' || status || '|d=' || COALESCE(to_char(day, 'YYYY-MM-DD'), 'none'),
        'c=' || client, 'p=' || project, 'cat=' || category], NULL);
END $$;

CREATE FUNCTION list_count_keys(r estimates) RETURNS TEXT[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    IF r.is_document THEN
        RETURN '{}';
    END IF;
    RETURN bill_count_keys(r.status, r.expiry_date, r.client_id, r.project_id, r.category_id);
END $$;

CREATE FUNCTION list_count_keys(r invoices) RETURNS TEXT[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RETURN bill_count_keys(r.status_id::text, r.due_date, r.client_id, r.project_id, r.category_id);
END $$;

-- Contracts: all, by status facts (unpublished = draft; published: fully signed or not,
-- and the end date, whose comparison with the day makes 'expired'), by client and
-- category.
CREATE FUNCTION list_count_keys(r contracts) RETURNS TEXT[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
    RETURN array_remove(ARRAY[
        'all',
        CASE WHEN r.published_at IS NULL THEN 'st=draft'
             ELSE 'st=pub|s=' || (r.client_signed_at IS NOT NULL AND r.provider_signed_at IS NOT NULL)::int
                  || '|end=' || COALESCE(to_char(r.date_end, 'YYYY-MM-DD'), 'none') END,
        'c=' || r.client_id, 'cat=' || r.category_id], NULL);
END $$;

-- The trigger of every counted table (its list named by the argument): appends +1 for
-- each key a new row has, -1 for each key an old row had (an update appends only the
-- keys it changes).
CREATE FUNCTION list_count_row() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'INSERT' THEN
        INSERT INTO list_count_deltas (list, key, n) SELECT TG_ARGV[0], k, 1 FROM unnest(list_count_keys(NEW)) k;
    ELSIF TG_OP = 'DELETE' THEN
        INSERT INTO list_count_deltas (list, key, n) SELECT TG_ARGV[0], k, -1 FROM unnest(list_count_keys(OLD)) k;
    ELSE
        INSERT INTO list_count_deltas (list, key, n)
        SELECT TG_ARGV[0], k, sum(s)::int
        FROM (SELECT k, 1 AS s FROM unnest(list_count_keys(NEW)) k
              UNION ALL SELECT k, -1 FROM unnest(list_count_keys(OLD)) k) d
        GROUP BY k HAVING sum(s) <> 0;
    END IF;
    RETURN NULL;
END $$;

-- TRUNCATE empties the list's deltas, then its counts: the order the fold locks them in,
-- so that a fold running meanwhile makes the truncation wait, never deadlock.
CREATE FUNCTION list_counts_truncate() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
    DELETE FROM list_count_deltas WHERE list = TG_ARGV[0];
    DELETE FROM list_counts WHERE list = TG_ARGV[0];
    RETURN NULL;
END $$;

-- Moves the committed deltas into list_counts, in one statement: a reader sees them on
-- one side or the other, never both or neither. Two folds at once never fold a delta
-- twice (the second waits for the first's deletes and skips the rows they removed).
-- Returns how many deltas were folded.
CREATE FUNCTION fold_list_counts() RETURNS BIGINT LANGUAGE sql AS $$
    WITH moved AS (DELETE FROM list_count_deltas RETURNING list, key, n),
    summed AS (SELECT list, key, sum(n) AS n FROM moved GROUP BY list, key),
    folded AS (
        INSERT INTO list_counts (list, key, n)
        SELECT list, key, n FROM summed WHERE n <> 0 ORDER BY list, key
        ON CONFLICT (list, key) DO UPDATE SET n = list_counts.n + excluded.n
    )
    SELECT count(*) FROM moved
$$;

-- Row-level triggers; an update fires only when a counted column changes.
CREATE TRIGGER notes_count_insert AFTER INSERT ON notes
    FOR EACH ROW EXECUTE FUNCTION list_count_row('notes');
CREATE TRIGGER notes_count_update AFTER UPDATE ON notes FOR EACH ROW
    WHEN ((OLD.sticky, OLD.visibility, OLD.creator_id, OLD.resource_type, OLD.resource_id)
          IS DISTINCT FROM (NEW.sticky, NEW.visibility, NEW.creator_id, NEW.resource_type, NEW.resource_id))
    EXECUTE FUNCTION list_count_row('notes');
CREATE TRIGGER notes_count_delete AFTER DELETE ON notes
    FOR EACH ROW EXECUTE FUNCTION list_count_row('notes');
CREATE TRIGGER notes_count_truncate AFTER TRUNCATE ON notes
    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate('notes');

CREATE TRIGGER estimates_count_insert AFTER INSERT ON estimates
    FOR EACH ROW EXECUTE FUNCTION list_count_row('estimates');
CREATE TRIGGER estimates_count_update AFTER UPDATE ON estimates FOR EACH ROW
    WHEN ((OLD.is_document, OLD.status, OLD.expiry_date, OLD.client_id, OLD.project_id, OLD.category_id)
          IS DISTINCT FROM (NEW.is_document, NEW.status, NEW.expiry_date, NEW.client_id, NEW.project_id, NEW.category_id))
    EXECUTE FUNCTION list_count_row('estimates');
CREATE TRIGGER estimates_count_delete AFTER DELETE ON estimates
    FOR EACH ROW EXECUTE FUNCTION list_count_row('estimates');
CREATE TRIGGER estimates_count_truncate AFTER TRUNCATE ON estimates
    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate('estimates');

CREATE TRIGGER invoices_count_insert AFTER INSERT ON invoices
    FOR EACH ROW EXECUTE FUNCTION list_count_row('invoices');
CREATE TRIGGER invoices_count_update AFTER UPDATE ON invoices FOR EACH ROW
    WHEN ((OLD.status_id, OLD.due_date, OLD.client_id, OLD.project_id, OLD.category_id)
          IS DISTINCT FROM (NEW.status_id, NEW.due_date, NEW.client_id, NEW.project_id, NEW.category_id))
    EXECUTE FUNCTION list_count_row('invoices');
CREATE TRIGGER invoices_count_delete AFTER DELETE ON invoices
    FOR EACH ROW EXECUTE FUNCTION list_count_row('invoices');
CREATE TRIGGER invoices_count_truncate AFTER TRUNCATE ON invoices
    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate('invoices');

CREATE TRIGGER contracts_count_insert AFTER INSERT ON contracts
    FOR EACH ROW EXECUTE FUNCTION list_count_row('contracts');
CREATE TRIGGER contracts_count_update AFTER UPDATE ON contracts FOR EACH ROW
    WHEN ((OLD.published_at IS NULL, OLD.client_signed_at IS NULL, OLD.provider_signed_at IS NULL,
           OLD.date_end, OLD.client_id, OLD.category_id)
          IS DISTINCT FROM (NEW.published_at IS NULL, NEW.client_signed_at IS NULL, NEW.provider_signed_at IS NULL,
           NEW.date_end, NEW.client_id, NEW.category_id))
    EXECUTE FUNCTION list_count_row('contracts');
CREATE TRIGGER contracts_count_delete AFTER DELETE ON contracts
    FOR EACH ROW EXECUTE FUNCTION list_count_row('contracts');
CREATE TRIGGER contracts_count_truncate AFTER TRUNCATE ON contracts
    FOR EACH STATEMENT EXECUTE FUNCTION list_counts_truncate('contracts');

-- Backfill from the rows there are.
INSERT INTO list_counts (list, key, n)
SELECT 'notes', k, count(*) FROM notes r, unnest(list_count_keys(r)) k GROUP BY k;
INSERT INTO list_counts (list, key, n)
SELECT 'estimates', k, count(*) FROM estimates r, unnest(list_count_keys(r)) k GROUP BY k;
INSERT INTO list_counts (list, key, n)
SELECT 'invoices', k, count(*) FROM invoices r, unnest(list_count_keys(r)) k GROUP BY k;
INSERT INTO list_counts (list, key, n)
SELECT 'contracts', k, count(*) FROM contracts r, unnest(list_count_keys(r)) k GROUP BY k;
