-- Bulk data of benches/list_scale.sh (psql variables: notes, estimates, contracts).
-- Set-based: one INSERT … SELECT FROM generate_series per table. The secondary indexes of
-- the three big tables are dropped first and rebuilt at the end (much faster than
-- maintaining them row by row); their definitions are read back from the catalogue, so
-- the benchmark rebuilds exactly the indexes the migrations made.
SET synchronous_commit = off;
SET maintenance_work_mem = '512MB';

CREATE TEMP TABLE words (n int PRIMARY KEY, w text NOT NULL);
INSERT INTO words
SELECT row_number() OVER (), w FROM unnest(string_to_array(
  'alpha amber anchor apple arrow aspen atlas autumn bamboo basil beacon birch blossom bolt '
  'breeze bronze canyon cedar cherry cinder cobalt comet copper coral cotton crystal dawn '
  'delta desert ember falcon fern flint forest frost garnet glacier granite harbor hazel '
  'horizon indigo iris island ivory jade jasmine juniper lagoon lantern lemon lily linen '
  'lotus maple marble meadow mint mist moss nebula nectar oak ocean olive onyx orchid '
  'pebble pepper pine planet plum polar prairie quartz quill rain raven reef river '
  'ruby saffron sage salt sapphire shadow silver slate spruce storm summit sunset '
  'thistle thunder tide timber topaz tulip tundra valley velvet violet walnut willow '
  'winter zephyr invoice budget review design launch meeting proposal renewal audit '
  'follow-up call report quarterly contract kickoff onboarding roadmap', ' ')) AS w;

-- Ten team users who write notes (the seed's admin, user 1, is the benchmark key's user).
INSERT INTO users (kind, is_admin, first_name, last_name, email)
SELECT 'team', g % 2 = 0, 'Scale', 'User ' || g, 'scale' || g || '@example.com' FROM generate_series(1, 9) g
ON CONFLICT DO NOTHING;

CREATE TEMP TABLE team AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM users WHERE kind = 'team' ORDER BY id LIMIT 10;

INSERT INTO categories (name, type, creator_id)
SELECT initcap(w1.w) || ' ' || t || ' ' || g, t, 1
FROM generate_series(1, 20) g CROSS JOIN (VALUES ('estimate'), ('contract')) AS ty(t)
JOIN words w1 ON w1.n = 1 + (g * 7) % 120;

INSERT INTO clients (company_name, contact_email, category_id, creator_id)
SELECT initcap(a.w) || ' ' || initcap(b.w) || ' ' || g, 'client' || g || '@example.com',
       (SELECT id FROM categories WHERE type = 'client' AND system_default), 1
FROM generate_series(1, 2000) g
JOIN words a ON a.n = 1 + (g * 13) % 120 JOIN words b ON b.n = 1 + (g * 31) % 120;
CREATE TEMP TABLE cl AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM clients;

INSERT INTO leads (title, first_name, last_name, category_id, creator_id)
SELECT 'Lead ' || g, 'First' || g, 'Last' || g, (SELECT id FROM categories WHERE type = 'lead' AND system_default), 1
FROM generate_series(1, 500) g;
CREATE TEMP TABLE ld AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM leads;

INSERT INTO projects (title, client_id, category_id, creator_id)
SELECT 'Project ' || g, (SELECT id FROM cl WHERE cl.n = 1 + (g * 7) % 2000),
       (SELECT id FROM categories WHERE type = 'project' AND system_default), 1
FROM generate_series(1, 1000) g;
INSERT INTO milestones (project_id, title, type, position, creator_id)
SELECT p.id, 'Uncategorised', 'uncategorised', 1, 1 FROM projects p
WHERE NOT EXISTS (SELECT 1 FROM milestones m WHERE m.project_id = p.id AND m.type = 'uncategorised');
CREATE TEMP TABLE pr AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM projects;

CREATE TEMP TABLE cat_e AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM categories WHERE type = 'estimate';
CREATE TEMP TABLE cat_c AS SELECT row_number() OVER (ORDER BY id) AS n, id FROM categories WHERE type = 'contract';
ALTER TABLE team ADD PRIMARY KEY (n); ALTER TABLE cl ADD PRIMARY KEY (n); ALTER TABLE ld ADD PRIMARY KEY (n);
ALTER TABLE pr ADD PRIMARY KEY (n); ALTER TABLE cat_e ADD PRIMARY KEY (n); ALTER TABLE cat_c ADD PRIMARY KEY (n);
ANALYZE words; ANALYZE team; ANALYZE cl; ANALYZE ld; ANALYZE pr; ANALYZE cat_e; ANALYZE cat_c;

-- Secondary indexes of the big tables: kept, dropped, rebuilt after the load.
CREATE TEMP TABLE saved_indexes AS
SELECT i.indexrelid::regclass::text AS name, pg_get_indexdef(i.indexrelid) AS def
FROM pg_index i WHERE i.indrelid IN ('notes'::regclass, 'estimates'::regclass, 'invoices'::regclass,
                                    'contracts'::regclass, 'tags'::regclass)
  AND NOT i.indisprimary AND NOT i.indisunique;
DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT name FROM saved_indexes LOOP EXECUTE 'DROP INDEX ' || r.name; END LOOP;
END $$;

-- Notes: r1..r4 are independent pseudo-random numbers per row.
INSERT INTO notes (title, description, visibility, resource_type, client_id, lead_id, project_id, user_id,
                   creator_id, created_at, updated_at)
SELECT initcap(w1.w) || ' ' || w2.w || ' ' || w3.w,
       w4.w || ' ' || w2.w || ' notes about the ' || w1.w || ' ' || w3.w || ' account, item ' || g,
       CASE WHEN r1 < 0.8 THEN 'public' ELSE 'private' END,
       CASE WHEN r2 < 0.40 THEN 'client' WHEN r2 < 0.55 THEN 'project' WHEN r2 < 0.65 THEN 'lead'
            WHEN r2 < 0.70 THEN 'user' END,
       CASE WHEN r2 < 0.40 THEN (SELECT id FROM cl WHERE cl.n = 1 + (power(r3, 2) * 2000)::int % 2000) END,
       CASE WHEN r2 >= 0.55 AND r2 < 0.65 THEN (SELECT id FROM ld WHERE ld.n = 1 + (r3 * 500)::int % 500) END,
       CASE WHEN r2 >= 0.40 AND r2 < 0.55 THEN (SELECT id FROM pr WHERE pr.n = 1 + (r3 * 1000)::int % 1000) END,
       CASE WHEN r2 >= 0.65 AND r2 < 0.70 THEN (SELECT id FROM team WHERE team.n = 1 + (r3 * 10)::int % 10) END,
       (SELECT id FROM team WHERE team.n = 1 + (r4 * 10)::int % 10),
       now() - (3 * 365 * 86400 * (1 - g::float8 / :notes)) * interval '1 second',
       now() - (3 * 365 * 86400 * (1 - g::float8 / :notes)) * interval '1 second' + (r3 * 30) * interval '1 day'
FROM (SELECT g, random() r1, random() r2, random() r3, random() r4, 1 + (random() * 119)::int a,
             1 + (random() * 119)::int b, 1 + (random() * 119)::int c, 1 + (random() * 119)::int d
      FROM generate_series(1, :notes) g) s
JOIN words w1 ON w1.n = s.a JOIN words w2 ON w2.n = s.b JOIN words w3 ON w3.n = s.c JOIN words w4 ON w4.n = s.d;

INSERT INTO tags (title, position, note_id, creator_id)
SELECT w.w, 1, n.id, 1 FROM notes n JOIN words w ON w.n = 1 + n.id % 120 WHERE n.id % 10 = 0;

-- Listed estimates.
INSERT INTO estimates (client_id, project_id, category_id, date, expiry_date, status, final_amount, subtotal,
                       subtotal_before_discount, amount_before_tax, notes, terms, creator_id, created_at, updated_at)
SELECT (SELECT id FROM cl WHERE cl.n = 1 + (power(r1, 2) * 2000)::int % 2000),
       CASE WHEN r2 < 0.3 THEN (SELECT id FROM pr WHERE pr.n = 1 + (r2 * 3333)::int % 1000) END,
       (SELECT id FROM cat_e WHERE cat_e.n = 1 + (r3 * 20)::int % 20),
       d, CASE WHEN r4 < 0.9 THEN d + 30 END,
       (ARRAY['draft', 'new', 'new', 'accepted', 'declined', 'revised'])[1 + (r4 * 6)::int % 6],
       amount, amount, amount, amount,
       'Estimate for the ' || w1.w || ' ' || w2.w || ' work', 'Payable within 30 days; ' || w2.w || ' terms', 1,
       d::timestamptz + interval '9 hours', d::timestamptz + interval '9 hours'
FROM (SELECT g, random() r1, random() r2, random() r3, random() r4,
             (current_date - 730 + (g::float8 / :estimates * 760)::int) AS d,
             round((10 + random() * 99990)::numeric, 2) AS amount,
             1 + (random() * 119)::int a, 1 + (random() * 119)::int b
      FROM generate_series(1, :estimates) g) s
JOIN words w1 ON w1.n = s.a JOIN words w2 ON w2.n = s.b;

-- Invoices: stored statuses Draft, Due, Part Paid, Paid, Cancelled; due dates (one in ten
-- without) spread like the estimates' dates, so some Due and Part Paid ones are overdue.
INSERT INTO invoices (client_id, project_id, category_id, date, due_date, status_id, final_amount, subtotal,
                      subtotal_before_discount, amount_before_tax, notes, terms, creator_id, created_at, updated_at)
SELECT (SELECT id FROM cl WHERE cl.n = 1 + (power(r1, 2) * 2000)::int % 2000),
       CASE WHEN r2 < 0.3 THEN (SELECT id FROM pr WHERE pr.n = 1 + (r2 * 3333)::int % 1000) END,
       (SELECT id FROM cat_e WHERE cat_e.n = 1 + (r3 * 20)::int % 20),
       d, CASE WHEN r4 < 0.9 THEN d + 30 END,
       (ARRAY[1, 2, 2, 4, 5, 5, 20])[1 + (r4 * 7)::int % 7],
       amount, amount, amount, amount,
       'Invoice for the ' || w1.w || ' ' || w2.w || ' work', 'Payable within 30 days; ' || w2.w || ' terms', 1,
       d::timestamptz + interval '10 hours', d::timestamptz + interval '10 hours'
FROM (SELECT g, random() r1, random() r2, random() r3, random() r4,
             (current_date - 730 + (g::float8 / :invoices * 760)::int) AS d,
             round((10 + random() * 99990)::numeric, 2) AS amount,
             1 + (random() * 119)::int a, 1 + (random() * 119)::int b
      FROM generate_series(1, :invoices) g) s
JOIN words w1 ON w1.n = s.a JOIN words w2 ON w2.n = s.b;

-- Contracts, each with its backing document estimate.
CREATE TEMP TABLE docs AS
WITH made AS (
  INSERT INTO estimates (is_document, client_id, date, status, creator_id)
  SELECT TRUE, 1, current_date, 'draft', 1 FROM generate_series(1, :contracts) RETURNING id)
SELECT row_number() OVER (ORDER BY id) AS n, id FROM made;
ALTER TABLE docs ADD PRIMARY KEY (n);
INSERT INTO contracts (title, client_id, project_id, category_id, estimate_id, value, body, date_start, date_end,
                       published_at, client_signed_at, provider_signed_at, creator_id, created_at, updated_at)
SELECT initcap(w1.w) || ' ' || w2.w || ' agreement ' || s.g,
       (SELECT id FROM cl WHERE cl.n = 1 + (power(r1, 2) * 2000)::int % 2000),
       CASE WHEN r2 < 0.3 THEN (SELECT id FROM pr WHERE pr.n = 1 + (r2 * 3333)::int % 1000) END,
       (SELECT id FROM cat_c WHERE cat_c.n = 1 + (r3 * 20)::int % 20),
       docs.id, round((100 + random() * 200000)::numeric, 2), 'Terms of the ' || w1.w || ' agreement.',
       d, CASE WHEN r4 < 0.7 THEN d + 365 END,
       CASE WHEN r5 < 0.7 THEN d::timestamptz END,
       CASE WHEN r5 < 0.45 THEN d::timestamptz + interval '1 day' END,
       CASE WHEN r5 < 0.35 THEN d::timestamptz + interval '2 days' END,
       1, d::timestamptz + interval '8 hours', d::timestamptz + interval '8 hours'
FROM (SELECT g, random() r1, random() r2, random() r3, random() r4, random() r5,
             (current_date - 1000 + (g::float8 / :contracts * 1095)::int) AS d,
             1 + (random() * 119)::int a, 1 + (random() * 119)::int b
      FROM generate_series(1, :contracts) g) s
JOIN docs ON docs.n = s.g
JOIN words w1 ON w1.n = s.a JOIN words w2 ON w2.n = s.b;

-- A backing estimate has its contract's client, project and date, as `POST /api/contracts`
-- makes it (never listed, but it shares the estimates table's statistics).
UPDATE estimates e SET client_id = c.client_id, project_id = c.project_id, date = c.date_start
FROM contracts c WHERE c.estimate_id = e.id;

DO $$ DECLARE r record; BEGIN
  FOR r IN SELECT def FROM saved_indexes LOOP EXECUTE r.def; END LOOP;
END $$;

-- The rows' count deltas (appended by the triggers), folded as `crm serve` would.
SELECT fold_list_counts() AS folded_count_deltas;
