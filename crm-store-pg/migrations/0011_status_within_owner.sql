-- 0011: a status within one owner (issue 12).
--
-- Counts: bills and contracts are also counted by status within their client, project
-- and category ('c=<id>|st=…', 'p=<id>|st=…', 'cat=<id>|st=…', the status part as in
-- 0010), so that a status filter beside one owner filter is totalled from maintained
-- counts instead of row by row. The three lists' counts are rebuilt from their rows.
--
-- Indexes: a shown status that compares a date with the day ('expired', 'overdue', an
-- invoice 'due' or 'part paid', an estimate 'new') is written as
-- `COALESCE(date, 'infinity') < day` or `>= day` (a missing date is never before the day)
-- and indexed beside the stored status (contracts: published) and the id, with the
-- columns the conditions read included, so that the ids of a page filtered or sorted by
-- status are read from the index alone, in id order, skipping the rows of other statuses
-- without fetching them (the store reads every page's ids first). The index on the
-- expression also gives the planner its statistics. A client's and a category's
-- contracts get the status columns included for the same reason.

-- No write runs while the keys change and the counts are rebuilt (writers in progress are
-- waited for).
LOCK TABLE estimates, invoices, contracts IN SHARE ROW EXCLUSIVE MODE;

CREATE OR REPLACE FUNCTION bill_count_keys(status TEXT, day DATE, client BIGINT, project BIGINT, category BIGINT)
RETURNS TEXT[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    st TEXT := 'st=' || status || '|d=' || COALESCE(to_char(day, 'YYYY-MM-DD'), 'none');
BEGIN
    RETURN array_remove(ARRAY['all', st, 'c=' || client, 'p=' || project, 'cat=' || category,
        'c=' || client || '|' || st, 'p=' || project || '|' || st, 'cat=' || category || '|' || st], NULL);
END $$;

CREATE OR REPLACE FUNCTION list_count_keys(r contracts) RETURNS TEXT[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
    st TEXT := CASE WHEN r.published_at IS NULL THEN 'st=draft'
                    ELSE 'st=pub|s=' || (r.client_signed_at IS NOT NULL AND r.provider_signed_at IS NOT NULL)::int
                         || '|end=' || COALESCE(to_char(r.date_end, 'YYYY-MM-DD'), 'none') END;
BEGIN
    RETURN array_remove(ARRAY['all', st, 'c=' || r.client_id, 'cat=' || r.category_id,
        'c=' || r.client_id || '|' || st, 'cat=' || r.category_id || '|' || st], NULL);
END $$;

-- Indexes: the stored status (contracts: published), the id, the compared date as the
-- expression the conditions use, and the columns the conditions read (INCLUDE), so that
-- the ids of a page are read from the index alone (an index-only scan: no row is fetched
-- to be skipped).
DROP INDEX estimates_status_id_idx;
CREATE INDEX estimates_status_id_idx ON estimates (status, id, (COALESCE(expiry_date, 'infinity'::date)))
    INCLUDE (expiry_date) WHERE NOT is_document;
CREATE INDEX invoices_status_id_idx ON invoices (status_id, id, (COALESCE(due_date, 'infinity'::date)))
    INCLUDE (due_date);
CREATE INDEX contracts_published_end_idx ON contracts (id, (COALESCE(date_end, 'infinity'::date)))
    INCLUDE (date_end, client_signed_at, provider_signed_at) WHERE published_at IS NOT NULL;
-- A client's or a category's contracts with the status facts, for a status beside them.
DROP INDEX contracts_client_idx;
CREATE INDEX contracts_client_idx ON contracts (client_id, id)
    INCLUDE (published_at, date_end, client_signed_at, provider_signed_at);
DROP INDEX contracts_category_idx;
CREATE INDEX contracts_category_idx ON contracts (category_id, id)
    INCLUDE (published_at, date_end, client_signed_at, provider_signed_at);

-- Backfill: the three lists' counts again, from their rows.
DELETE FROM list_count_deltas WHERE list IN ('estimates', 'invoices', 'contracts');
DELETE FROM list_counts WHERE list IN ('estimates', 'invoices', 'contracts');
INSERT INTO list_counts (list, key, n)
SELECT 'estimates', k, count(*) FROM estimates r, unnest(list_count_keys(r)) k GROUP BY k;
INSERT INTO list_counts (list, key, n)
SELECT 'invoices', k, count(*) FROM invoices r, unnest(list_count_keys(r)) k GROUP BY k;
INSERT INTO list_counts (list, key, n)
SELECT 'contracts', k, count(*) FROM contracts r, unnest(list_count_keys(r)) k GROUP BY k;
