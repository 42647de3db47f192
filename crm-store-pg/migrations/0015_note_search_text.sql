-- 0015: one lowercased search text per note, searched with LIKE (issue 12).
--
-- A note search matches the title or the description case-insensitively (ILIKE). Over
-- the two trigram indexes every candidate row was rechecked with ILIKE, which in a UTF-8
-- database lowercases both texts on every call (about 1 µs a row), and a common word has
-- tens of thousands of candidates. This column keeps the two texts lowercased, with a
-- control character between them that no title, description or search may hold (the API
-- refuses them), so a match can never span the two; one trigram index over it replaces
-- the two, and a search is `search_text LIKE lower(pattern)`, the very comparison ILIKE
-- makes (it lowercases the text and the pattern, then matches as LIKE does), with a
-- byte-wise recheck. Measured on the scale data (a million notes, shared_buffers 2 GB):
-- counting the 27,328 visible notes that hold "meeting" 45 -> 34 ms.
--
-- Adding a stored column rewrites the table and rebuilds its indexes, under an exclusive
-- lock, computing the column for every existing note: the two old indexes are dropped
-- first so that the rewrite does not rebuild them.
DROP INDEX notes_title_trgm_idx;
DROP INDEX notes_description_trgm_idx;
ALTER TABLE notes ADD COLUMN search_text text NOT NULL
    GENERATED ALWAYS AS (lower(title) || E'\x01' || lower(description)) STORED;
CREATE INDEX notes_search_trgm_idx ON notes USING gin (search_text gin_trgm_ops);
