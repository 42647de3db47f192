-- 0012: one count delta per write (issue 12).
--
-- 0010 appended one delta row per key (three for a note on a client), each also entered in
-- an index on (list, key) whose leaf pages every writer of a list shares. A write now
-- appends one row holding all the keys it adds (or removes), to a table without an index.
-- pgbench inserting notes at 64 clients, six alternating rounds of 10 s on one database:
-- keeping counts cost 18 % of the throughput with 0010's layout, 9 % with this one.
--
-- A total reads the pending deltas by scanning them, through the view list_count_pending
-- (list, key, n): the fold keeps them few (`crm serve` runs it every second) and the table
-- is vacuumed often, so the scan reads a few pages.

-- No write runs meanwhile (writers in progress are waited for); the deltas of the old
-- layout are folded first.
LOCK TABLE notes, estimates, invoices, contracts IN SHARE ROW EXCLUSIVE MODE;
SELECT fold_list_counts();
DROP TABLE list_count_deltas;

-- The changes not yet folded: one row per write and sign, appended by the writing
-- transactions and deleted by the fold.
CREATE TABLE list_count_deltas (
    list  TEXT NOT NULL,
    keys  TEXT[] NOT NULL,
    n     INT NOT NULL
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 2000,
        autovacuum_vacuum_insert_scale_factor = 0, autovacuum_vacuum_insert_threshold = 2000);

-- The pending deltas by key, as list_counts holds the folded ones.
CREATE VIEW list_count_pending AS
    SELECT d.list, k.key COLLATE "C" AS key, d.n FROM list_count_deltas d, unnest(d.keys) AS k(key);

-- The trigger of every counted table (its list named by the argument): one row with the
-- keys a new row has (+1), one with the keys an old row had (-1); an update appends only
-- the keys it adds and those it removes.
CREATE OR REPLACE FUNCTION list_count_row() RETURNS TRIGGER LANGUAGE plpgsql AS $$
DECLARE
    added TEXT[];
    removed TEXT[];
BEGIN
    IF TG_OP = 'INSERT' THEN
        added := list_count_keys(NEW);
    ELSIF TG_OP = 'DELETE' THEN
        removed := list_count_keys(OLD);
    ELSE
        added := list_count_keys(NEW);
        removed := list_count_keys(OLD);
        SELECT ARRAY(SELECT k FROM unnest(added) k WHERE k <> ALL (removed)),
               ARRAY(SELECT k FROM unnest(removed) k WHERE k <> ALL (added))
        INTO added, removed;
    END IF;
    IF cardinality(added) > 0 THEN
        INSERT INTO list_count_deltas (list, keys, n) VALUES (TG_ARGV[0], added, 1);
    END IF;
    IF cardinality(removed) > 0 THEN
        INSERT INTO list_count_deltas (list, keys, n) VALUES (TG_ARGV[0], removed, -1);
    END IF;
    RETURN NULL;
END $$;

-- Moves the committed deltas into list_counts, in one statement (as in 0010). Returns how
-- many delta rows were folded.
CREATE OR REPLACE FUNCTION fold_list_counts() RETURNS BIGINT LANGUAGE sql AS $$
    WITH moved AS (DELETE FROM list_count_deltas RETURNING list, keys, n),
    summed AS (SELECT m.list, k.key, sum(m.n) AS n FROM moved m, unnest(m.keys) AS k(key) GROUP BY m.list, k.key),
    folded AS (
        INSERT INTO list_counts (list, key, n)
        SELECT list, key, n FROM summed WHERE n <> 0 ORDER BY list, key
        ON CONFLICT (list, key) DO UPDATE SET n = list_counts.n + excluded.n
    )
    SELECT count(*) FROM moved
$$;
