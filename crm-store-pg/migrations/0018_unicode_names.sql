-- 0018: look-alike names (issue 33, item 6).
--
-- `Default\u200b`, `\u202eDefault`, `Def\u00adault` and a fullwidth `Ｄefault` could all be
-- created beside `Default`, and a search for a decomposed `café` (e + U+0301) found none
-- of the composed ones. From this version on crm-core normalises every text input to NFC
-- and refuses invisible and bidi control characters in one-line fields; this migration
-- brings the stored text and the two uniqueness rules in line:
--
--   1. the unique indexes on `lower(name)` go first (they would refuse step 2 with an
--      anonymous duplicate error where step 4 names the rows);
--   2. the text the API writes (and a client's company name, which the bill search reads)
--      is normalised to NFC where it is not; `updated_at` is left alone, as NFC changes how
--      a text is encoded, not what it says. Tags that became equal are one tag (the first);
--   3. name_key(), the form in which names are compared for uniqueness;
--   4. when two names of one scope would have the same key, the migration stops here (the
--      whole of it is rolled back, the database stays at 0017 and the previous binary
--      keeps working) with a message naming the rows: rename all but one of each group
--      with the previous version, then start this one again. Merging or renaming records
--      is a person's decision, not a migration's;
--   5. the unique indexes come back on the key, under their old names (crm-store-pg maps a
--      violation to its domain error by the index name).

DROP INDEX categories_type_name_key;
DROP INDEX milestones_project_title_key;

-- 2. `x IS NOT NFC NORMALIZED` is NULL for a NULL x, so only rows with a text to change
-- are written (the count triggers of notes, contracts and bills see only those).
UPDATE categories SET name = normalize(name, NFC), description = normalize(description, NFC),
    icon = normalize(icon, NFC)
WHERE name IS NOT NFC NORMALIZED OR description IS NOT NFC NORMALIZED
    OR icon IS NOT NFC NORMALIZED;
UPDATE milestones SET title = normalize(title, NFC) WHERE title IS NOT NFC NORMALIZED;
UPDATE notes SET title = normalize(title, NFC), description = normalize(description, NFC)
WHERE title IS NOT NFC NORMALIZED OR description IS NOT NFC NORMALIZED;
UPDATE contracts SET title = normalize(title, NFC), body = normalize(body, NFC)
WHERE title IS NOT NFC NORMALIZED OR body IS NOT NFC NORMALIZED;
UPDATE estimates SET notes = normalize(notes, NFC), terms = normalize(terms, NFC),
    adjustment_description = normalize(adjustment_description, NFC),
    client_reason = normalize(client_reason, NFC)
WHERE notes IS NOT NFC NORMALIZED OR terms IS NOT NFC NORMALIZED
    OR adjustment_description IS NOT NFC NORMALIZED OR client_reason IS NOT NFC NORMALIZED;
UPDATE invoices SET notes = normalize(notes, NFC), terms = normalize(terms, NFC),
    adjustment_description = normalize(adjustment_description, NFC)
WHERE notes IS NOT NFC NORMALIZED OR terms IS NOT NFC NORMALIZED
    OR adjustment_description IS NOT NFC NORMALIZED;
UPDATE estimate_lines SET description = normalize(description, NFC),
    long_description = normalize(long_description, NFC), unit = normalize(unit, NFC)
WHERE description IS NOT NFC NORMALIZED OR long_description IS NOT NFC NORMALIZED
    OR unit IS NOT NFC NORMALIZED;
UPDATE invoice_lines SET description = normalize(description, NFC),
    long_description = normalize(long_description, NFC), unit = normalize(unit, NFC)
WHERE description IS NOT NFC NORMALIZED OR long_description IS NOT NFC NORMALIZED
    OR unit IS NOT NFC NORMALIZED;
UPDATE clients SET company_name = normalize(company_name, NFC)
WHERE company_name IS NOT NFC NORMALIZED;
UPDATE tags SET title = normalize(title, NFC) WHERE title IS NOT NFC NORMALIZED;
-- A resource's tags are a set (API.md: duplicates removed, the first kept).
DELETE FROM tags WHERE id IN (
    SELECT id FROM (
        SELECT id, row_number() OVER (
            PARTITION BY contract_id, estimate_id, invoice_id, note_id, title
            ORDER BY position, id) AS n
        FROM tags) numbered
    WHERE n > 1);

-- 3. The key of a name: its compatibility form (NFKC: fullwidth `Ｄ` is `D`, the ligature
-- `ﬁ` is `fi`, a no-break space a space), without the characters of Unicode's
-- Default_Ignorable_Code_Point set (every bidi control, the zero-width characters, the soft
-- hyphen, the Hangul fillers, variation selectors and tags: crm-core's
-- `is_default_ignorable`, which a store test holds this list to), runs of white space as one
-- space, case folded as lower(upper(…)) so that a final sigma is a sigma, and composed again.
-- lower() and upper() follow the database's LC_CTYPE, as the indexes they replace did (in
-- a C.UTF-8 or other UTF-8 locale they map every script; under LC_CTYPE C only ASCII).
-- IMMUTABLE, as normalize(), regexp_replace(), lower() and upper() are: an index may use it.
CREATE FUNCTION name_key(name TEXT) RETURNS TEXT
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
RETURN normalize(lower(upper(btrim(regexp_replace(regexp_replace(normalize(name, NFKC),
    '[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8\U0001BCA0-\U0001BCA3\U0001D173-\U0001D17A\U000E0000-\U000E0FFF]',
    '', 'g'), '\s+', ' ', 'g')))), NFKC);

-- 4. Names that would collide under the key.
DO $$
DECLARE
    clashes TEXT;
BEGIN
    SELECT string_agg(grp, '; ') INTO clashes FROM (
        SELECT format('categories of type %s: %s', type,
                string_agg(format('id %s %s', id, to_json(name)), ', ' ORDER BY id)) AS grp
        FROM categories GROUP BY type, name_key(name) HAVING count(*) > 1
        UNION ALL
        SELECT format('milestones of project %s: %s', project_id,
                string_agg(format('id %s %s', id, to_json(title)), ', ' ORDER BY id))
        FROM milestones GROUP BY project_id, name_key(title) HAVING count(*) > 1
    ) groups;
    IF clashes IS NOT NULL THEN
        RAISE EXCEPTION 'names that differ only in case, width, spacing or invisible characters: %', clashes
            USING HINT = 'Rename all but one name of each group with the previous version of the service (PATCH /api/categories/{id}, PATCH /api/milestones/{id}), then start this one again.';
    END IF;
END
$$;

-- 5.
CREATE UNIQUE INDEX categories_type_name_key ON categories (type, name_key(name));
CREATE UNIQUE INDEX milestones_project_title_key ON milestones (project_id, name_key(title));
