-- 0031: document numbers and what an issued or agreed document keeps (API.md §18).

-- Each numbered kind's number format (NULL: the default, crm-core's `Series`).
ALTER TABLE company
    ADD COLUMN invoice_number_format     TEXT,
    ADD COLUMN estimate_number_format    TEXT,
    ADD COLUMN credit_note_number_format TEXT;

-- The gapless series: one row per kind and rendered prefix (`INV-2026-{SEQ}`), holding
-- the last number given. A number is taken by incrementing the row inside the
-- transaction that issues the document: the row stays locked until that transaction
-- ends, a rollback gives the number back, and no sequence (which may skip values after a
-- crash or a rollback) is involved.
CREATE TABLE number_series (
    kind      TEXT NOT NULL CHECK (kind IN ('invoice', 'estimate', 'credit_note')),
    prefix    TEXT NOT NULL,
    last_seq  BIGINT NOT NULL CHECK (last_seq > 0),
    PRIMARY KEY (kind, prefix)
);

-- An invoice's number, given when it is issued (leaves Draft); with one it is locked.
ALTER TABLE invoices
    ADD COLUMN number    TEXT,
    ADD COLUMN issued_at TIMESTAMPTZ,
    ADD CONSTRAINT invoices_number_issued CHECK ((number IS NULL) = (issued_at IS NULL));
CREATE UNIQUE INDEX invoices_number_key ON invoices (number);

-- An estimate's number (given when published), the digest of what it offers (below) as
-- last written, and when a published estimate's offer last changed.
ALTER TABLE estimates
    ADD COLUMN number        TEXT,
    ADD COLUMN agreed_digest TEXT,
    ADD COLUMN revised_at    TIMESTAMPTZ;
CREATE UNIQUE INDEX estimates_number_key ON estimates (number);

-- The digest of what estimate `estimate` offers: its client, dates, tax mode, discount,
-- adjustment, notes, terms, totals, and every line and tax record by content (not by
-- row id, so that the same lines written again are the same offer). The client's page
-- sends it with a decision; a decision on another digest is refused.
CREATE FUNCTION estimate_agreed_digest(estimate BIGINT) RETURNS TEXT
LANGUAGE sql STABLE AS $$
SELECT encode(sha256(convert_to(json_build_array(
    e.client_id, e.date, e.expiry_date, e.tax_type, e.discount_type,
    e.discount_percentage::text, e.discount_amount::text, e.adjustment_description,
    e.adjustment_amount::text, e.final_amount::text, e.notes, e.terms,
    (SELECT json_agg(json_build_array(l.description, l.long_description, l.unit,
        l.quantity::text, l.rate::text, l.discount_type, l.discount_value::text,
        l.tax_rate_id, l.total::text) ORDER BY l.position)
       FROM estimate_lines l WHERE l.estimate_id = e.id),
    (SELECT json_agg(json_build_array(t.name, t.rate::text, t.tax_rate_id,
        (SELECT l.position FROM estimate_lines l WHERE l.id = t.line_id)) ORDER BY t.id)
       FROM estimate_taxes t WHERE t.estimate_id = e.id)
)::text, 'UTF8')), 'hex')
FROM estimates e WHERE e.id = estimate
$$;

UPDATE estimates SET agreed_digest = estimate_agreed_digest(id)
 WHERE status <> 'draft' AND NOT is_document;

-- Every decision a client made, with the offer it was made on (the estimate as the API
-- showed it then, and its digest); `withdrawn_at` is set when a revision of the
-- estimate withdrew a decline. Kept while the estimate exists.
CREATE TABLE estimate_decisions (
    id            BIGSERIAL PRIMARY KEY,
    estimate_id   BIGINT NOT NULL REFERENCES estimates (id) ON DELETE CASCADE,
    decision      TEXT NOT NULL CHECK (decision IN ('accepted', 'declined')),
    reason        TEXT,
    decided_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    agreed_digest TEXT NOT NULL,
    record        JSONB NOT NULL,
    withdrawn_at  TIMESTAMPTZ
);
CREATE INDEX estimate_decisions_estimate_idx ON estimate_decisions (estimate_id, id);
